//! Move text of the harmonics variant: long algebraic ordinary moves (`e2e4`, `e7e8q`),
//! quantum moves (`b1~d5`), and recorded measurement outcomes appended to either
//! (`.c3=N`: the white knight was kept on c3; `.d4=-`: d4 was found empty).

use crate::chess::{Kind, Piece, Square};
use crate::game::PlayError;
use std::fmt;

/// A move without its outcomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// Made in every harmonic where the classical rules allow it.
    Ordinary {
        /// Source square.
        from: Square,
        /// Target square.
        to: Square,
        /// What a pawn reaching the last rank becomes.
        promotion: Option<Kind>,
    },
    /// Each harmonic where it is possible splits into a moved and an unmoved copy.
    Quantum {
        /// Source square.
        from: Square,
        /// Target square, one or two quiet moves away.
        to: Square,
    },
}

impl Move {
    /// The source square.
    pub fn from(self) -> Square {
        match self {
            Move::Ordinary { from, .. } | Move::Quantum { from, .. } => from,
        }
    }

    /// The target square.
    pub fn to(self) -> Square {
        match self {
            Move::Ordinary { to, .. } | Move::Quantum { to, .. } => to,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Ordinary {
                from,
                to,
                promotion,
            } => {
                write!(f, "{from}{to}")?;
                match promotion {
                    Some(k) => write!(f, "{}", k.letter().to_ascii_lowercase()),
                    None => Ok(()),
                }
            }
            Move::Quantum { from, to } => write!(f, "{from}~{to}"),
        }
    }
}

/// One measurement a move caused: the square and what stayed there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The measured square.
    pub square: Square,
    /// The piece kept there; `None` when the square was found empty.
    pub kept: Option<Piece>,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = self.kept.map_or('-', Piece::fen_char);
        write!(f, ".{}={letter}", self.square)
    }
}

/// A move as typed: the move and the outcomes it forces, in the order they happen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// The move.
    pub mv: Move,
    /// Forced outcomes (empty: every measurement is drawn at random).
    pub forced: Vec<Outcome>,
}

fn square(text: &str, s: &str) -> Result<Square, PlayError> {
    Square::parse(s).ok_or_else(|| bad_move(text))
}

fn bad_move(text: &str) -> PlayError {
    PlayError::Notation(format!(
        "\"{text}\" is not a move: write e2e4, e7e8q (promotion) or b1~d5 (quantum move)"
    ))
}

fn parse_move(text: &str, m: &str) -> Result<Move, PlayError> {
    if let Some((from, to)) = m.split_once('~') {
        return Ok(Move::Quantum {
            from: square(text, from)?,
            to: square(text, to)?,
        });
    }
    if !m.is_ascii() || !(4..=5).contains(&m.len()) {
        return Err(bad_move(text));
    }
    let (from, to) = (square(text, &m[0..2])?, square(text, &m[2..4])?);
    let promotion = match m[4..].chars().next() {
        None => None,
        Some(c) => match Kind::from_letter(c) {
            Some(k @ (Kind::Queen | Kind::Rook | Kind::Bishop | Kind::Knight)) => Some(k),
            _ => {
                return Err(PlayError::Notation(format!(
                    "\"{text}\": a pawn promotes to q, r, b or n, not '{c}'"
                )))
            }
        },
    };
    Ok(Move::Ordinary {
        from,
        to,
        promotion,
    })
}

fn parse_outcome(part: &str) -> Result<Outcome, PlayError> {
    let bad = || {
        PlayError::Notation(format!(
            "\".{part}\" is not a recorded outcome: write .c3=N for the piece kept on c3 \
             (FEN letter, lower case for black) or .c3=- for an empty square"
        ))
    };
    let (sq, letter) = part.split_once('=').ok_or_else(bad)?;
    let square = Square::parse(sq).ok_or_else(bad)?;
    let mut chars = letter.chars();
    let kept = match (chars.next(), chars.next()) {
        (Some('-'), None) => None,
        (Some(c), None) => Some(Piece::from_fen_char(c).ok_or_else(bad)?),
        _ => return Err(bad()),
    };
    Ok(Outcome { square, kept })
}

/// Reads a move with optional outcomes, e.g. `e1g1.g1=K.f1=R`.
pub fn parse(text: &str) -> Result<Input, PlayError> {
    let text = text.trim();
    let mut parts = text.split('.');
    let mv = parse_move(text, parts.next().unwrap_or_default())?;
    let forced = parts.map(parse_outcome).collect::<Result<_, _>>()?;
    Ok(Input { mv, forced })
}

/// Writes a move with its outcomes, the form history and saved games keep.
pub fn format(mv: Move, outcomes: &[Outcome]) -> String {
    outcomes
        .iter()
        .fold(mv.to_string(), |s, o| format!("{s}{o}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Color;

    #[test]
    fn round_trips() {
        for t in [
            "e2e4",
            "e7e8q",
            "b1~d4",
            "e1g1.g1=K.f1=B",
            "c3~e4.e4=n",
            "a1a8.d4=-",
        ] {
            let i = parse(t).unwrap();
            assert_eq!(format(i.mv, &i.forced), t);
        }
    }

    #[test]
    fn reads_parts() {
        let i = parse(" E7E8N.e8=Q ").unwrap();
        assert_eq!(
            i.mv,
            Move::Ordinary {
                from: Square::parse("e7").unwrap(),
                to: Square::parse("e8").unwrap(),
                promotion: Some(Kind::Knight)
            }
        );
        assert_eq!(
            i.forced,
            vec![Outcome {
                square: Square::parse("e8").unwrap(),
                kept: Some(Piece::new(Color::White, Kind::Queen))
            }]
        );
    }

    #[test]
    fn refuses_bad_text() {
        let e = |t: &str| match parse(t).unwrap_err() {
            PlayError::Notation(words) => words,
            other => panic!("{other:?}"),
        };
        assert!(e("e2").contains("not a move"));
        assert!(e("e2e9").contains("not a move"));
        assert!(e("b1~").contains("not a move"));
        assert!(e("e7e8k").contains("promotes to q, r, b or n"));
        assert!(e("e2e4.e4").contains("not a recorded outcome"));
        assert!(e("e2e4.e4=X").contains("not a recorded outcome"));
        assert!(e("e2e4.z9=N").contains("not a recorded outcome"));
        assert!(e("e2e4.e4=NN").contains("not a recorded outcome"));
        assert!(e("é2e4").contains("not a move"));
    }
}
