//! What kinds of moves a player made in a match, for the measures of the engine's play
//! against a classical one: its splits, its king splits (and those made while the king
//! was attacked), its measuring moves, how many failed (`.m0`) and how many were gambles
//! (under an even chance of going on).

use crate::chess::board::Kind;
use crate::chess::classify::{BoardState, MoveType};
use crate::chess::notation::Shape;
use crate::chess::PlayedMove;

/// Counts of one player's moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Moves played.
    pub moves: u32,
    /// Splits.
    pub splits: u32,
    /// Splits of the king.
    pub king_splits: u32,
    /// Splits of a king that a standard move of the other side could capture.
    pub king_splits_attacked: u32,
    /// Moves that measured.
    pub measuring: u32,
    /// Measuring moves that did not go on (outcome 0).
    pub failed: u32,
    /// Measuring moves whose chance of going on was under one half.
    pub gambles: u32,
}

impl Tally {
    /// Counts `mv`, played in `before` (the state as it was before the move).
    pub fn add(&mut self, before: &BoardState, mv: &PlayedMove) {
        self.moves += 1;
        let split = matches!(mv.class.kind, MoveType::SplitJump | MoveType::SplitSlide);
        if split {
            self.splits += 1;
            if mv.class.piece.kind == Kind::King {
                self.king_splits += 1;
                if attacked(before, mv.class.text.shape.source()) {
                    self.king_splits_attacked += 1;
                }
            }
        }
        if let (Some(outcome), Some(p1)) = (mv.outcome, mv.p1) {
            self.measuring += 1;
            if !outcome {
                self.failed += 1;
            }
            if p1 < 0.5 {
                self.gambles += 1;
            }
        }
    }

    /// The sum of two tallies.
    pub fn plus(self, o: Tally) -> Tally {
        Tally {
            moves: self.moves + o.moves,
            splits: self.splits + o.splits,
            king_splits: self.king_splits + o.king_splits,
            king_splits_attacked: self.king_splits_attacked + o.king_splits_attacked,
            measuring: self.measuring + o.measuring,
            failed: self.failed + o.failed,
            gambles: self.gambles + o.gambles,
        }
    }
}

/// Whether a standard move of the side not to move could capture on `sq`.
pub fn attacked(st: &BoardState, sq: crate::chess::Square) -> bool {
    let other = BoardState {
        to_move: st.to_move.opposite(),
        en_passant: None,
        ..st.clone()
    };
    crate::chess::movegen::legal_moves(&other, false)
        .iter()
        .any(|m| matches!(m.text.shape, Shape::Standard { to, .. } if to == sq))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Game, GameOptions};

    fn tally(fen: &str, moves: &[&str]) -> Tally {
        let mut g = Game::from_fen(fen, GameOptions::default()).unwrap();
        let mut t = Tally::default();
        for m in moves {
            let before = g.state().clone();
            let played = g.play(m).unwrap().clone();
            t.add(&before, &played);
        }
        t
    }

    #[test]
    fn king_splits_under_attack_are_told_apart() {
        // The rook on a8 attacks a1: the king's split there is under attack.
        let t = tally("r3k3/8/8/8/8/8/8/K7 w - - 0 1", &["a1^b1b2"]);
        assert_eq!((t.splits, t.king_splits, t.king_splits_attacked), (1, 1, 1));
        let t = tally("4k3/8/8/8/8/8/8/K7 w - - 0 1", &["a1^b1b2"]);
        assert_eq!((t.splits, t.king_splits, t.king_splits_attacked), (1, 1, 0));
    }

    #[test]
    fn a_capture_of_a_half_is_a_measuring_move() {
        // Black's knight split, then White's rook takes one half: an even chance, no gamble.
        let t = tally("4k3/8/8/8/8/8/1n6/R3K3 b - - 0 1", &["b2^a4c4", "a1xa4"]);
        assert_eq!((t.splits, t.measuring, t.gambles), (1, 1, 0));
        assert_eq!(t.moves, 2);
    }
}
