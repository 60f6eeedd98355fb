//! Measurements: a conflict on a square (different pieces there in different harmonics)
//! and the collapse that keeps the number of harmonics within the bound. Each outcome is
//! forced by recorded text or drawn from the game's random source; the source advances by
//! one draw per measurement either way, so a replay leaves it where the game left it.

use super::board::{code, piece, EMPTY};
use super::notation::Outcome;
use super::report::harmonics;
use super::superposition::Superposition;
use crate::chess::Square;
use crate::format::percent;
use crate::game::PlayError;
use crate::seeded::SeededRng;
use std::collections::VecDeque;

/// Measures squares during one move and records what it found.
pub struct Measurer<'a> {
    rng: &'a mut SeededRng,
    forced: VecDeque<Outcome>,
    outcomes: Vec<Outcome>,
    trace: Vec<String>,
}

/// A byte as words: "white knight" or "empty".
fn describe(c: u8) -> String {
    piece(c).map_or_else(|| "empty".to_string(), |p| p.describe())
}

/// Candidates with their shares, e.g. "white knight 63% or empty 38%".
fn odds(candidates: &[(u8, f64)]) -> String {
    let total: f64 = candidates.iter().map(|c| c.1).sum();
    candidates
        .iter()
        .map(|&(c, w)| format!("{} {}%", describe(c), percent(w / total)))
        .collect::<Vec<_>>()
        .join(" or ")
}

impl<'a> Measurer<'a> {
    /// A measurer drawing from `rng` unless `forced` (in order) says otherwise.
    pub fn new(rng: &'a mut SeededRng, forced: &[Outcome]) -> Measurer<'a> {
        Measurer {
            rng,
            forced: forced.iter().copied().collect(),
            outcomes: Vec::new(),
            trace: Vec::new(),
        }
    }

    /// Picks one candidate byte for `s`, with probability proportional to its weight or as
    /// forced; records the outcome and a trace line.
    fn choose(&mut self, s: Square, candidates: &[(u8, f64)], what: &str) -> Result<u8, PlayError> {
        let draw = self.rng.unit();
        let (chosen, how) = match self.forced.pop_front() {
            Some(f) if f.square != s => {
                return Err(PlayError::Outcome(format!(
                    "the recorded outcome {f} does not fit: this move measures {s} next"
                )))
            }
            Some(f) => {
                let c = f.kept.map_or(EMPTY, code);
                if !candidates.iter().any(|&(k, _)| k == c) {
                    return Err(PlayError::Outcome(format!(
                        "the recorded outcome {f} is impossible: {s} is {}",
                        odds(candidates)
                    )));
                }
                (c, "as recorded")
            }
            None => {
                let total: f64 = candidates.iter().map(|c| c.1).sum();
                let mut left = draw * total;
                let mut chosen = candidates[candidates.len() - 1].0;
                for &(c, w) in candidates {
                    if left < w {
                        chosen = c;
                        break;
                    }
                    left -= w;
                }
                (chosen, "drawn")
            }
        };
        self.outcomes.push(Outcome {
            square: s,
            kept: piece(chosen),
        });
        self.trace.push(format!(
            "{what} {s}: {} -> {} ({how})",
            odds(candidates),
            describe(chosen)
        ));
        Ok(chosen)
    }

    /// Measures `s` if different pieces stand there in different harmonics: one piece is
    /// kept, with probability proportional to the weight of the harmonics holding it;
    /// the harmonics holding another piece there are removed (empty ones stay).
    pub fn conflict(&mut self, sp: &mut Superposition, s: Square) -> Result<(), PlayError> {
        let candidates: Vec<(u8, f64)> = sp
            .square_weights(s)
            .into_iter()
            .filter(|&(c, _)| c != EMPTY)
            .collect();
        if candidates.len() < 2 {
            return Ok(());
        }
        let kept = self.choose(s, &candidates, "conflict on")?;
        let removed = sp.retain(|b| b.code(s) == EMPTY || b.code(s) == kept);
        self.trace.push(format!("  removed {}", harmonics(removed)));
        Ok(())
    }

    /// While there are more than `limit` harmonics, measures the square whose content is
    /// least certain (the smaller of its occupied and empty weights is largest; the lowest
    /// such square first) and removes the harmonics that disagree with the outcome.
    /// `go_on` is asked before each measurement (an error stops the move).
    pub fn bound(
        &mut self,
        sp: &mut Superposition,
        limit: usize,
        go_on: &dyn Fn() -> Result<(), PlayError>,
    ) -> Result<(), PlayError> {
        while sp.len() > limit {
            go_on()?;
            let Some((s, candidates)) = most_spread(sp) else {
                break;
            };
            let before = sp.len();
            let kept = self.choose(s, &candidates, "bound reached, measured")?;
            sp.retain(|b| b.code(s) == kept);
            self.trace.push(format!(
                "  {before} harmonics were over the bound of {limit}; {} remain",
                sp.len()
            ));
        }
        Ok(())
    }

    /// The outcomes and trace lines; an error when a forced outcome was not used.
    pub fn finish(self) -> Result<(Vec<Outcome>, Vec<String>), PlayError> {
        if let Some(f) = self.forced.front() {
            return Err(PlayError::Outcome(format!(
                "the recorded outcome {f} does not fit: this move measures nothing more \
                 (no conflict on {})",
                f.square
            )));
        }
        Ok((self.outcomes, self.trace))
    }
}

/// The least certain square with its candidates (empty and the piece), if any square is
/// occupied in some harmonics and empty in others.
fn most_spread(sp: &Superposition) -> Option<(Square, Vec<(u8, f64)>)> {
    let mut occupied = [0.0f64; 64];
    let mut empty = [0.0f64; 64];
    let mut codes = [EMPTY; 64];
    for (b, w) in sp.iter() {
        for (i, &c) in b.squares.iter().enumerate() {
            if c == EMPTY {
                empty[i] += w;
            } else {
                occupied[i] += w;
                codes[i] = c;
            }
        }
    }
    let mut best: Option<(usize, f64)> = None;
    for i in 0..64 {
        let spread = occupied[i].min(empty[i]);
        if spread > 0.0 && best.is_none_or(|(_, b)| spread > b) {
            best = Some((i, spread));
        }
    }
    best.map(|(i, _)| {
        (
            Square(i as u8),
            vec![(EMPTY, empty[i]), (codes[i], occupied[i])],
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{fen, Color, Kind, Piece};
    use crate::variants::harmonics::board::Board;

    fn board(f: &str) -> Board {
        Board::from_position(&fen::parse(f).unwrap())
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    /// Knight on c3 (weight 3/4) against a bishop on c3 (1/4), and an empty c3 (1/4).
    fn conflicted() -> Superposition {
        let a = board("4k3/8/8/8/8/2N5/8/4K3 w - - 0 1");
        let b = board("4k3/8/8/8/8/2B5/8/4K3 w - - 0 1");
        let c = board("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        Superposition::merged([(a, 0.5), (b, 0.25), (c, 0.25)]).0
    }

    #[test]
    fn forced_conflict_keeps_the_named_piece() {
        let mut rng = SeededRng::new(1);
        let mut sp = conflicted();
        let bishop = Piece::new(Color::White, Kind::Bishop);
        let forced = [Outcome {
            square: sq("c3"),
            kept: Some(bishop),
        }];
        let mut m = Measurer::new(&mut rng, &forced);
        m.conflict(&mut sp, sq("c3")).unwrap();
        let (outcomes, trace) = m.finish().unwrap();
        assert_eq!(outcomes, forced.to_vec());
        assert_eq!(sp.len(), 2);
        sp.normalize();
        assert_eq!(
            sp.square_weights(sq("c3")),
            vec![(EMPTY, 0.5), (code(bishop), 0.5)]
        );
        assert!(
            trace[0].contains("white knight 67% or white bishop 33%"),
            "{trace:?}"
        );
    }

    #[test]
    fn drawn_conflicts_follow_the_weights() {
        let mut knights = 0;
        let mut rng = SeededRng::new(7);
        for _ in 0..3000 {
            let mut sp = conflicted();
            let mut m = Measurer::new(&mut rng, &[]);
            m.conflict(&mut sp, sq("c3")).unwrap();
            knights += (sp.get(0).0.code(sq("c3")) == 2) as usize;
        }
        // Expected 2000 (2/3); five standard deviations is about 130.
        assert!((1870..=2130).contains(&knights), "{knights}");
    }

    #[test]
    fn impossible_or_misplaced_outcomes_are_refused() {
        let mut rng = SeededRng::new(1);
        let queen = Some(Piece::new(Color::White, Kind::Queen));
        let e = |forced: Outcome, rng: &mut SeededRng| {
            let mut sp = conflicted();
            let mut m = Measurer::new(rng, &[forced]);
            match m.conflict(&mut sp, sq("c3")).unwrap_err() {
                PlayError::Outcome(words) => words,
                other => panic!("{other:?}"),
            }
        };
        let wrong_piece = e(
            Outcome {
                square: sq("c3"),
                kept: queen,
            },
            &mut rng,
        );
        assert!(wrong_piece.contains("impossible"), "{wrong_piece}");
        let wrong_square = e(
            Outcome {
                square: sq("d4"),
                kept: queen,
            },
            &mut rng,
        );
        assert!(wrong_square.contains("measures c3 next"), "{wrong_square}");
        let empty = e(
            Outcome {
                square: sq("c3"),
                kept: None,
            },
            &mut rng,
        );
        assert!(empty.contains("impossible"), "{empty}");
        let unused = Measurer::new(
            &mut rng,
            &[Outcome {
                square: sq("c3"),
                kept: queen,
            }],
        )
        .finish()
        .unwrap_err()
        .to_string();
        assert!(unused.contains("measures nothing more"), "{unused}");
    }

    #[test]
    fn bound_measures_the_least_certain_square() {
        let mut rng = SeededRng::new(3);
        // A knight on c3 (1/2), b1 (1/4) or a3 (1/4).
        let mut sp = Superposition::merged([
            (board("4k3/8/8/8/8/2N5/8/4K3 w - - 0 1"), 0.5),
            (board("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1"), 0.25),
            (board("4k3/8/8/8/8/N7/8/4K3 w - - 0 1"), 0.25),
        ])
        .0;
        let forced = [Outcome {
            square: sq("c3"),
            kept: None,
        }];
        let mut m = Measurer::new(&mut rng, &forced);
        m.bound(&mut sp, 1, &|| Ok(())).unwrap();
        assert_eq!(sp.len(), 1);
        assert_eq!(sp.get(0).0.code(sq("c3")), EMPTY);
        let (outcomes, trace) = m.finish().unwrap();
        // c3 first (forced empty), then b1 (as uncertain as a3, and lower), drawn.
        assert_eq!(outcomes[0], forced[0]);
        assert_eq!(outcomes[1].square, sq("b1"));
        assert_eq!(outcomes.len(), 2);
        assert!(
            trace[0].starts_with("bound reached, measured c3: empty 50% or white knight 50%"),
            "{trace:?}"
        );
    }
}
