//! Quantum Chess algebraic notation: parsing and canonical formatting, and the errors of
//! reading a move's text (its form, or a SAN move that names no legal move).

use super::board::{Kind, Square};
use std::fmt;

/// The squares a move names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// One source, one target (also castling and en passant).
    Standard {
        /// Source.
        from: Square,
        /// Target.
        to: Square,
    },
    /// One source, two targets.
    Split {
        /// Source.
        from: Square,
        /// First target.
        to1: Square,
        /// Second target.
        to2: Square,
    },
    /// Two sources (order matters), one target.
    Merge {
        /// First source.
        from1: Square,
        /// Second source.
        from2: Square,
        /// Target.
        to: Square,
    },
}

impl Shape {
    /// The first (or only) source.
    pub fn source(&self) -> Square {
        match *self {
            Shape::Standard { from, .. } | Shape::Split { from, .. } => from,
            Shape::Merge { from1, .. } => from1,
        }
    }
}

/// The variant marker typed or printed in a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Marker {
    /// `x`: capture.
    Capture,
    /// `w`: excluded.
    Excluded,
}

/// A move as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveText {
    /// Optional piece letter (must match the piece if given).
    pub piece: Option<Kind>,
    /// The squares.
    pub shape: Shape,
    /// `x` or `w`, if written.
    pub marker: Option<Marker>,
    /// Promotion piece.
    pub promotion: Option<Kind>,
    /// `.m0` / `.m1`: the measurement outcome, forced on input.
    pub outcome: Option<bool>,
}

impl MoveText {
    /// A plain standard move.
    pub fn standard(from: Square, to: Square) -> MoveText {
        MoveText {
            piece: None,
            shape: Shape::Standard { from, to },
            marker: None,
            promotion: None,
            outcome: None,
        }
    }
}

/// Text that is not a move in the notation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{text}\" is not a move: {why}")]
pub struct NotationError {
    /// The text.
    pub text: String,
    /// What is wrong.
    pub why: String,
}

const EXPECTED: &str =
    "write squares like e2e4, b1^a3c3 (split), a3c3^b5 (merge), e7e8q (promotion)";

/// Parses a move in Quantum Chess algebraic notation. Any text is accepted as input: the
/// move is read character by character (never by byte offsets), so no text can panic.
pub fn parse(text: &str) -> Result<MoveText, NotationError> {
    let fail = |why: &str| NotationError {
        text: text.to_string(),
        why: why.to_string(),
    };
    let t = text.trim();
    let (body, outcome) = match t.rsplit_once(".m") {
        Some((b, "0")) => (b, Some(false)),
        Some((b, "1")) => (b, Some(true)),
        Some(_) => return Err(fail("a measurement outcome is written .m0 or .m1")),
        None => (t, None),
    };
    let mut s: Vec<char> = body.chars().collect();
    let mut piece = None;
    if let Some(&c) = s.first() {
        if c.is_ascii_uppercase() {
            piece = Some(Kind::from_letter(c).ok_or_else(|| fail("unknown piece letter"))?);
            s.remove(0);
        }
    }
    let sq = |x: &[char]| square(x).ok_or_else(|| fail(EXPECTED));
    let shape;
    let mut marker = None;
    let mut promotion = None;
    if let Some(caret) = s.iter().position(|&c| c == '^') {
        let (left, right) = (&s[..caret], &s[caret + 1..]);
        match (left.len(), right.len()) {
            (2, 4) => {
                shape = Shape::Split {
                    from: sq(left)?,
                    to1: sq(&right[..2])?,
                    to2: sq(&right[2..])?,
                }
            }
            (4, 2) => {
                shape = Shape::Merge {
                    from1: sq(&left[..2])?,
                    from2: sq(&left[2..])?,
                    to: sq(right)?,
                }
            }
            _ => return Err(fail(EXPECTED)),
        }
    } else {
        if s.len() < 4 {
            return Err(fail(EXPECTED));
        }
        let from = sq(&s[..2])?;
        let mut rest = &s[2..];
        match rest[0] {
            'x' => {
                marker = Some(Marker::Capture);
                rest = &rest[1..];
            }
            'w' => {
                marker = Some(Marker::Excluded);
                rest = &rest[1..];
            }
            _ => {}
        }
        if rest.len() < 2 {
            return Err(fail(EXPECTED));
        }
        let to = sq(&rest[..2])?;
        match rest[2..] {
            [] => {}
            [p] => {
                let k = Kind::from_letter(p)
                    .filter(|k| matches!(k, Kind::Queen | Kind::Rook | Kind::Bishop | Kind::Knight))
                    .ok_or_else(|| fail("a pawn promotes to q, r, b or n"))?;
                promotion = Some(k);
            }
            _ => return Err(fail(EXPECTED)),
        }
        shape = Shape::Standard { from, to };
    }
    Ok(MoveText {
        piece,
        shape,
        marker,
        promotion,
        outcome,
    })
}

/// A move's text and the outcome written after it (`exd5.m1` -> `exd5`, outcome 1), so
/// that SAN carries one as well as squares; text without `.m0`/`.m1` comes back whole.
pub fn split_outcome(text: &str) -> (&str, Option<bool>) {
    match text.rsplit_once(".m") {
        Some((b, "0")) => (b, Some(false)),
        Some((b, "1")) => (b, Some(true)),
        _ => (text, None),
    }
}

/// A square written as two characters (file letter, rank digit).
fn square(cs: &[char]) -> Option<Square> {
    match cs {
        [f, r] if f.is_ascii() && r.is_ascii() => Square::parse(&format!("{f}{r}")),
        _ => None,
    }
}

/// A move of a line as a player reads it, without the outcome the line assumed
/// (`d8xh4.m1` -> `d8xh4`); `None` when it does not parse.
pub fn without_outcome(text: &str) -> Option<String> {
    let mut m = parse(text).ok()?;
    m.outcome = None;
    Some(m.to_string())
}

impl MoveText {
    /// Whether `other` is the same move (squares and promotion), whatever the outcomes
    /// and markers written on either.
    pub fn same_move(&self, other: &MoveText) -> bool {
        self.shape == other.shape && self.promotion == other.promotion
    }

    /// The squares of the move without marker, promotion or outcome (for messages).
    pub fn shape_string(&self) -> String {
        MoveText {
            piece: None,
            marker: None,
            promotion: None,
            outcome: None,
            ..*self
        }
        .to_string()
    }
}

impl fmt::Display for MoveText {
    /// The canonical form: squares, variant marker, promotion, `.mN` (no piece letter).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.shape {
            Shape::Standard { from, to } => {
                let m = match self.marker {
                    Some(Marker::Capture) => "x",
                    Some(Marker::Excluded) => "w",
                    None => "",
                };
                write!(f, "{from}{m}{to}")?;
                if let Some(k) = self.promotion {
                    write!(f, "{}", k.letter().to_ascii_lowercase())?;
                }
            }
            Shape::Split { from, to1, to2 } => write!(f, "{from}^{to1}{to2}")?,
            Shape::Merge { from1, from2, to } => write!(f, "{from1}{from2}^{to}")?,
        }
        if let Some(o) = self.outcome {
            write!(f, ".m{}", o as u8)?;
        }
        Ok(())
    }
}

/// A SAN move that names no legal move, or more than one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    /// No legal move fits.
    #[error("{text} (read as {understood}): {why}")]
    NoMove {
        /// The text as typed.
        text: String,
        /// The move it was read as, in words.
        understood: String,
        /// Why no move fits.
        why: String,
    },
    /// Several legal moves fit.
    #[error(
        "{text} (read as {understood}) fits {} moves: {}; name the source square or type \
         the move in squares",
        .matches.len(), .matches.join(", ")
    )]
    Ambiguous {
        /// The text as typed.
        text: String,
        /// The move it was read as, in words.
        understood: String,
        /// The moves that fit, in canonical notation.
        matches: Vec<String>,
    },
    /// A pawn move to the last rank without the new piece.
    #[error("{text} (read as {understood}): the pawn promotes: add =Q, =R, =B or =N")]
    PromotionNeeded {
        /// The text as typed.
        text: String,
        /// The move it was read as, in words.
        understood: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(s: &str) -> String {
        parse(s).unwrap().to_string()
    }

    #[test]
    fn forms() {
        assert_eq!(round("a2a4"), "a2a4");
        assert_eq!(round("Pa2a4"), "a2a4");
        assert_eq!(parse("Pa2a4").unwrap().piece, Some(Kind::Pawn));
        assert_eq!(round("b1^a3c3"), "b1^a3c3");
        assert_eq!(round("a3c3^b5"), "a3c3^b5");
        assert_eq!(round("b1xc3"), "b1xc3");
        assert_eq!(round("b1wc3.m0"), "b1wc3.m0");
        assert_eq!(round("e7e8q"), "e7e8q");
        assert_eq!(round("e7xd8Q.m1"), "e7xd8q.m1");
        let m = parse("a3c3^b5.m1").unwrap();
        assert_eq!(m.outcome, Some(true));
        assert!(matches!(m.shape, Shape::Merge { .. }));
    }

    #[test]
    fn rejects() {
        for bad in [
            "", "e2", "e2e9", "z1a1", "e2e4.m2", "e7e8k", "b1^a3", "a3c3^b", "Xe2e4", "e2e4qq",
            "é2e4",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn multi_byte_characters_are_refused_not_a_panic() {
        for bad in [
            "a♗^b5",
            "b1^aé3",
            "é♗^b5",
            "b1^a3é",
            "a3é^b5",
            "♗♗♗♗",
            "e2é4",
            "e2xé4",
            "e7e8é",
            "Ké2e4",
            "b1^♗♗",
            "a3c3^♗",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
