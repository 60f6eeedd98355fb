//! The weighted list of harmonics: merging equal boards, removing boards, normalising, and
//! what the player sees (each square's piece and probability, the kings' chances, the
//! distribution of occupied-square sets).

use super::board::{Board, EMPTY};
use crate::chess::{Color, Square};
use std::collections::hash_map::Entry;
use std::collections::HashMap;

type Index = HashMap<Board, usize, foldhash::fast::RandomState>;

/// What is known about one square: the piece byte that may stand there (every harmonic
/// agrees on it) and its probability.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Marginal {
    /// The piece byte ([`EMPTY`] when the square is empty in every harmonic).
    pub code: u8,
    /// The probability that it stands there.
    pub p: f64,
}

/// Distinct boards with positive weights, in a deterministic order (first appearance).
#[derive(Clone, Debug, PartialEq)]
pub struct Superposition {
    boards: Vec<Board>,
    weights: Vec<f64>,
}

impl Superposition {
    /// One harmonic of weight 1.
    pub fn single(board: Board) -> Superposition {
        Superposition {
            boards: vec![board],
            weights: vec![1.0],
        }
    }

    /// Collects weighted boards, merging equal ones (their weights are added); returns
    /// the list and how many boards were merged into others. A board whose weight
    /// underflowed to 0 (after some thousand halvings) is dropped.
    pub fn merged(items: impl IntoIterator<Item = (Board, f64)>) -> (Superposition, usize) {
        let items = items.into_iter();
        let cap = items.size_hint().0;
        let mut index = Index::with_capacity_and_hasher(cap, Default::default());
        let mut out = Superposition {
            boards: Vec::with_capacity(cap),
            weights: Vec::with_capacity(cap),
        };
        let mut merged = 0;
        for (board, w) in items {
            if w <= 0.0 {
                continue;
            }
            match index.entry(board) {
                Entry::Occupied(e) => {
                    out.weights[*e.get()] += w;
                    merged += 1;
                }
                Entry::Vacant(e) => {
                    e.insert(out.boards.len());
                    out.boards.push(board);
                    out.weights.push(w);
                }
            }
        }
        (out, merged)
    }

    /// The number of harmonics.
    pub fn len(&self) -> usize {
        self.boards.len()
    }

    /// True when there is no harmonic (never after a successful move).
    pub fn is_empty(&self) -> bool {
        self.boards.is_empty()
    }

    /// The boards with their weights.
    pub fn iter(&self) -> impl Iterator<Item = (&Board, f64)> + '_ {
        self.boards.iter().zip(self.weights.iter().copied())
    }

    /// The sum of the weights.
    pub fn total(&self) -> f64 {
        self.weights.iter().sum()
    }

    /// Scales the weights to sum to 1.
    pub fn normalize(&mut self) {
        let total = self.total();
        for w in &mut self.weights {
            *w /= total;
        }
    }

    /// Keeps the boards `keep` accepts; returns how many were removed.
    pub fn retain(&mut self, keep: impl Fn(&Board) -> bool) -> usize {
        let before = self.boards.len();
        let mut kept = 0;
        for i in 0..before {
            if keep(&self.boards[i]) {
                self.boards[kept] = self.boards[i];
                self.weights[kept] = self.weights[i];
                kept += 1;
            }
        }
        self.boards.truncate(kept);
        self.weights.truncate(kept);
        before - kept
    }

    /// The total weight of each byte found on `s`, by byte (empty included), bytes
    /// ascending.
    pub fn square_weights(&self, s: Square) -> Vec<(u8, f64)> {
        let mut by_code = [0.0f64; 13];
        for (b, w) in self.iter() {
            by_code[b.code(s) as usize] += w;
        }
        (0u8..13).zip(by_code).filter(|&(_, w)| w > 0.0).collect()
    }

    /// Each square's piece and probability. Debug builds check that no square holds two
    /// different pieces in different harmonics (conflicts are always measured away).
    pub fn marginals(&self) -> [Marginal; 64] {
        let mut out = [Marginal {
            code: EMPTY,
            p: 0.0,
        }; 64];
        for (b, w) in self.iter() {
            for (m, &c) in out.iter_mut().zip(b.squares.iter()) {
                if c != EMPTY {
                    debug_assert!(m.code == EMPTY || m.code == c, "unmeasured conflict");
                    m.code = c;
                    m.p += w;
                }
            }
        }
        let total = self.total();
        for m in &mut out {
            m.p = (m.p / total).min(1.0);
        }
        out
    }

    /// The probability that this side's king is on the board.
    pub fn king_probability(&self, color: Color) -> f64 {
        let with: f64 = self
            .iter()
            .filter(|(b, _)| b.has_king(color))
            .map(|(_, w)| w)
            .sum();
        with / self.total()
    }

    /// The probability of each set of occupied squares (bit i: square i), largest first,
    /// equal ones by their squares (as `qchess analyze` orders them).
    pub fn distribution(&self) -> Vec<(u64, f64)> {
        let mut sets: HashMap<u64, f64, foldhash::fast::RandomState> = HashMap::default();
        for (b, w) in self.iter() {
            *sets.entry(b.occupied()).or_default() += w;
        }
        let total = self.total();
        let mut out: Vec<(u64, f64)> = sets.into_iter().map(|(s, w)| (s, w / total)).collect();
        out.sort_by(|a, b| {
            b.1.total_cmp(&a.1)
                .then_with(|| crate::chess::distribution::set_order(a.0, b.0))
        });
        out
    }

    /// Indices of the harmonics, heaviest first (ties in list order).
    pub fn by_weight(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.len()).collect();
        order.sort_by(|&a, &b| self.weights[b].total_cmp(&self.weights[a]));
        order
    }

    /// The board and weight of harmonic `i` (the weights sum to 1 after every move).
    pub fn get(&self, i: usize) -> (&Board, f64) {
        (&self.boards[i], self.weights[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen;

    fn start() -> Board {
        Board::from_position(&fen::parse(fen::START_FEN).unwrap())
    }

    #[test]
    fn merges_equal_boards_and_keeps_order() {
        let a = start();
        let mut b = a;
        b.squares[18] = b.squares[1];
        b.squares[1] = EMPTY;
        let (sp, merged) = Superposition::merged([(a, 0.25), (b, 0.5), (a, 0.25)]);
        assert_eq!(merged, 1);
        assert_eq!(sp.len(), 2);
        assert_eq!(sp.get(0).1, 0.5);
        assert_eq!(sp.by_weight(), vec![0, 1]);
        let m = sp.marginals();
        assert_eq!(m[1].p, 0.5);
        assert_eq!(m[18].p, 0.5);
        assert_eq!(m[18].code, a.squares[1]);
        assert_eq!(m[0].p, 1.0);
        assert_eq!(sp.square_weights(Square(18)), vec![(EMPTY, 0.5), (2, 0.5)]);
        assert_eq!(sp.distribution().len(), 2);
    }

    #[test]
    fn retain_keeps_weights_aligned() {
        let a = start();
        let mut b = a;
        b.squares[4] = EMPTY;
        let (mut sp, _) = Superposition::merged([(a, 0.75), (b, 0.25)]);
        assert_eq!(sp.king_probability(Color::White), 0.75);
        assert_eq!(sp.retain(|x| x.has_king(Color::White)), 1);
        sp.normalize();
        assert_eq!(sp.get(0), (&a, 1.0));
    }
}
