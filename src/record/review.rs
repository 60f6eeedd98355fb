//! A game's review as a saved game keeps it: the optional `[review]` section, plain
//! data (made by [`crate::review`]).

use crate::chess::Color;
use serde::{Deserialize, Serialize};

/// The version of the `[review]` section this build writes. Version 2 added
/// [`Judged::played_line`]; version 3 is judged with two plies of captures after the
/// horizon (the same fields); version 4 added [`Judged::best_cp`] and
/// [`Judged::played_cp`]; this build reads versions 1 to 4 ([`readable`]).
pub const VERSION: u32 = 4;

/// Whether this build reads a `[review]` section of `version`.
pub fn readable(version: i64) -> bool {
    (1..=i64::from(VERSION)).contains(&version)
}

/// The judged positions of one game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// The section's version ([`VERSION`]).
    pub version: u32,
    /// Who judged: "qchess level 3", "qchess 500 ms per position", "greedy".
    pub by: String,
    /// Whether the moves are marked (false for a rule system whose evaluation cannot
    /// tell a mistake: [`crate::game::RuleSet::review_marks`]).
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub marks: bool,
    /// The judged positions by ply, in order; a review that was stopped lacks some.
    #[serde(default)]
    pub positions: Vec<Judged>,
}

/// The verdict on one position: what the game was worth there, the best move, and
/// what the move played was worth.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Judged {
    /// Plies played before the position (0: the start).
    pub ply: usize,
    /// White's expected result with the best move (or the game's result when it is over).
    pub expected: f64,
    /// The best move, canonical (none when the game is over).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
    /// The line the engine expects after it, the best move first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub line: Vec<String>,
    /// The move played from here as recorded (none at the end).
    #[serde(default, rename = "move", skip_serializing_if = "Option::is_none")]
    pub played: Option<String>,
    /// White's expected result for the move played, before its measurement's outcome
    /// was drawn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub played_expected: Option<f64>,
    /// For a move played with a measurement: the chance of the outcome drawn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drawn_chance: Option<f64>,
    /// For a move played with a measurement: White's expected result had the other
    /// outcome been drawn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_expected: Option<f64>,
    /// The line the engine expects after the move played, that move first (so its
    /// second move is the other side's expected answer), when the move played is not
    /// the best (the best one's is `line`); empty in a version 1 review.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub played_line: Vec<String>,
    /// The judge's score for the best move in centipawns for White, when its line is
    /// certain (no move of it measures with a chance either way); none before version 4.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_cp: Option<f64>,
    /// The same for the move played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub played_cp: Option<f64>,
}

impl Review {
    /// An empty review by `by`, marking mistakes when `marks`.
    pub fn new(by: String, marks: bool) -> Review {
        Review {
            version: VERSION,
            by,
            marks,
            positions: Vec::new(),
        }
    }

    /// The verdict on the position after `ply` plies, if it was judged.
    pub fn at(&self, ply: usize) -> Option<&Judged> {
        self.positions
            .binary_search_by_key(&ply, |j| j.ply)
            .ok()
            .map(|i| &self.positions[i])
    }

    /// Whether every position of a game of `plies` plies is judged.
    pub fn complete(&self, plies: usize) -> bool {
        (0..=plies).all(|p| self.at(p).is_some())
    }

    /// The positions still to judge in a game with these moves: those not judged, or
    /// judged for another move than the one played.
    pub fn missing(&self, moves: &[String]) -> Vec<usize> {
        (0..=moves.len())
            .filter(|&p| {
                self.at(p)
                    .is_none_or(|j| j.played.as_deref() != moves.get(p).map(String::as_str))
            })
            .collect()
    }

    /// Keeps the positions that still fit `moves` and adds `judged`, in ply order.
    pub fn merge(&mut self, moves: &[String], judged: Vec<Judged>) {
        self.positions.retain(|j| {
            j.ply <= moves.len() && j.played.as_deref() == moves.get(j.ply).map(String::as_str)
        });
        for j in judged {
            match self.positions.binary_search_by_key(&j.ply, |k| k.ply) {
                Ok(i) => self.positions[i] = j,
                Err(i) => self.positions.insert(i, j),
            }
        }
    }

    /// White's expected result at every judged ply, for a graph: `(ply, expected)`.
    pub fn curve(&self) -> Vec<(usize, f64)> {
        self.positions.iter().map(|j| (j.ply, j.expected)).collect()
    }
}

/// `white`'s expected result seen from `side`.
pub fn for_side(white: f64, side: Color) -> f64 {
    match side {
        Color::White => white,
        Color::Black => 1.0 - white,
    }
}

/// What a measurement's outcome changed in an expected result: the result after the
/// outcome drawn (`drawn`) less the mean over both outcomes, `(1 - p) * (drawn -
/// other)` with `p` the chance of the outcome drawn and `other` the result had the
/// other been drawn. Weighed by the outcomes' chances it is 0: luck, not play.
pub fn outcome_luck(p: f64, drawn: f64, other: f64) -> f64 {
    (1.0 - p) * (drawn - other)
}

/// `x` to four decimals, as reviews keep and print it.
pub fn rounded(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

fn yes() -> bool {
    true
}

fn is_yes(b: &bool) -> bool {
    *b
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(ply: usize, played: Option<&str>) -> Judged {
        Judged {
            ply,
            expected: 0.5,
            best: None,
            line: Vec::new(),
            played: played.map(str::to_string),
            played_expected: None,
            drawn_chance: None,
            other_expected: None,
            played_line: Vec::new(),
            best_cp: None,
            played_cp: None,
        }
    }

    #[test]
    fn positions_that_no_longer_fit_the_moves_are_judged_again() {
        let moves: Vec<String> = vec!["e2e4".into(), "e7e5".into()];
        let mut r = Review::new("test".into(), true);
        r.merge(
            &moves,
            vec![judged(1, Some("e7e5")), judged(0, Some("d2d4"))],
        );
        assert_eq!(r.missing(&moves), vec![0, 2]);
        r.merge(&moves, vec![judged(0, Some("e2e4")), judged(2, None)]);
        assert!(r.complete(2));
        assert_eq!(r.missing(&moves), Vec::<usize>::new());
        assert_eq!(r.curve().len(), 3);
        // A game taken back to one ply keeps the start only.
        r.merge(&moves[..1], Vec::new());
        assert_eq!(r.positions.len(), 1);
    }
}
