//! A player's record of the puzzles, kept in `puzzles.toml` in the data directory: per
//! puzzle the tries and whether it was solved, and the player's rating.

use super::SaveError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The file name of the record in the data directory.
pub const FILE: &str = "puzzles.toml";

/// A new player's rating.
pub const START_RATING: f64 = 1200.0;

/// How far one try moves the rating at most (the Elo K factor).
const K: f64 = 32.0;

/// One puzzle's record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tries {
    /// Times it was played to its end.
    pub attempts: u32,
    /// Solved at least once (every move of a try reached the optimum).
    pub solved: bool,
}

/// The player's record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Solved {
    /// The player's rating, moved by every finished try as an Elo game against the
    /// puzzle's rating (a solve is a win).
    pub rating: f64,
    /// Per puzzle id.
    #[serde(default)]
    pub puzzles: BTreeMap<String, Tries>,
}

impl Default for Solved {
    fn default() -> Self {
        Solved {
            rating: START_RATING,
            puzzles: BTreeMap::new(),
        }
    }
}

impl Solved {
    /// The record saved in `dir`; none yet (or a file that cannot be read) starts afresh.
    pub fn load(dir: &Path) -> Solved {
        super::load(dir, FILE)
    }

    /// Saves it into `dir` (created when missing).
    pub fn save(&self, dir: &Path) -> Result<(), SaveError> {
        super::save(self, dir, FILE, "the puzzle record")
    }

    /// Records a finished try of puzzle `id` (rated `rating`); returns the change of the
    /// player's rating.
    pub fn record(&mut self, id: &str, rating: u32, solved: bool) -> f64 {
        let t = self.puzzles.entry(id.to_string()).or_default();
        t.attempts += 1;
        t.solved |= solved;
        let expected = 1.0 / (1.0 + 10f64.powf((rating as f64 - self.rating) / 400.0));
        // Kept in whole points, so that the changes shown add up to the rating shown
        // (1180 (-20) then 1193 (+13), never 1194).
        let before = self.rating.round();
        self.rating = (self.rating + K * (f64::from(u8::from(solved)) - expected)).round();
        self.rating - before
    }

    /// Whether puzzle `id` was ever solved.
    pub fn is_solved(&self, id: &str) -> bool {
        self.puzzles.get(id).is_some_and(|t| t.solved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_changes_shown_add_up_to_the_rating() {
        let mut s = Solved {
            rating: 1180.4,
            ..Solved::default()
        };
        let mut shown = s.rating.round();
        for (rating, solved) in [(1400, true), (900, false), (1187, true), (2000, false)] {
            let change = s.record("x", rating, solved);
            assert_eq!(change, change.round(), "whole points");
            shown += change;
            assert_eq!(shown, s.rating, "the changes add up");
        }
    }

    #[test]
    fn tries_move_the_rating_and_are_kept() {
        let dir = std::env::temp_dir().join(format!("qchess-solved-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut s = Solved::load(&dir);
        assert_eq!(s.rating, START_RATING);
        // A puzzle rated as the player: a solve wins half of K, a miss loses it.
        assert!((s.record("001", 1200, true) - 16.0).abs() < 1e-9);
        assert!(s.record("002", 1600, false) < 0.0);
        assert!(s.is_solved("001") && !s.is_solved("002"));
        s.record("002", 1600, true);
        assert_eq!(s.puzzles["002"].attempts, 2);
        s.save(&dir).expect("saved");
        assert_eq!(Solved::load(&dir), s);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
