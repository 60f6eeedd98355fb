//! A player's record of the puzzles, kept in `puzzles.toml` in the data directory: per
//! puzzle the tries and whether it was solved, and the player's Glicko-2 puzzle rating.

use super::SaveError;
use crate::rating::Rating;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The file name of the record in the data directory.
pub const FILE: &str = "puzzles.toml";

/// A new player's rating.
pub const START_RATING: f64 = 1200.0;

/// A puzzle's rating is known by its rule: its deviation in a try's rating period.
pub const PUZZLE_DEVIATION: f64 = 80.0;

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
    /// The player's rating, moved by every finished try as a Glicko-2 game against the
    /// puzzle's rating (a solve is a win).
    pub rating: f64,
    /// The rating's deviation (a file from before it was kept starts at a new
    /// player's).
    #[serde(default = "new_deviation")]
    pub deviation: f64,
    /// The rating's volatility.
    #[serde(default = "new_volatility")]
    pub volatility: f64,
    /// Per puzzle id.
    #[serde(default)]
    pub puzzles: BTreeMap<String, Tries>,
}

impl Default for Solved {
    fn default() -> Self {
        Solved {
            rating: START_RATING,
            deviation: new_deviation(),
            volatility: new_volatility(),
            puzzles: BTreeMap::new(),
        }
    }
}

fn new_deviation() -> f64 {
    Rating::NEW.deviation
}

fn new_volatility() -> f64 {
    Rating::NEW.volatility
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
    /// rating shown: the rating shown after it less the rating shown before, so that
    /// the changes shown add up to the ratings shown.
    pub fn record(&mut self, id: &str, rating: u32, solved: bool) -> i64 {
        let t = self.puzzles.entry(id.to_string()).or_default();
        t.attempts += 1;
        t.solved |= solved;
        let before = self.glicko2();
        let puzzle = Rating {
            rating: f64::from(rating),
            deviation: PUZZLE_DEVIATION,
            volatility: Rating::NEW.volatility,
        };
        let after = before.after(&[(puzzle, f64::from(u8::from(solved)))]);
        (self.rating, self.deviation, self.volatility) =
            (after.rating, after.deviation, after.volatility);
        after.shown() - before.shown()
    }

    /// The rating as the player sees it, a whole number.
    pub fn shown(&self) -> i64 {
        self.glicko2().shown()
    }

    fn glicko2(&self) -> Rating {
        Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
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
    fn the_changes_shown_add_up_to_the_rating_shown() {
        let mut s = Solved {
            rating: 1180.4,
            ..Solved::default()
        };
        let mut shown = s.shown();
        for (rating, solved) in [(1400, true), (900, false), (1187, true), (2000, false)] {
            let change = s.record("x", rating, solved);
            shown += change;
            assert_eq!(shown, s.shown(), "the changes add up");
        }
    }

    #[test]
    fn tries_move_the_rating_the_glicko2_way_and_are_kept() {
        let dir = std::env::temp_dir().join(format!("qchess-solved-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut s = Solved::load(&dir);
        assert_eq!(s.rating, START_RATING);
        // A puzzle rated as the player: a solve gains, a miss loses, and the deviation
        // shrinks as tries come in.
        assert!(s.record("001", 1200, true) > 0);
        let deviation = s.deviation;
        assert!(deviation < Rating::NEW.deviation);
        assert!(s.record("002", 1600, false) < 0);
        assert!(s.deviation < deviation);
        assert!(s.is_solved("001") && !s.is_solved("002"));
        s.record("002", 1600, true);
        assert_eq!(s.puzzles["002"].attempts, 2);
        s.save(&dir).expect("saved");
        assert_eq!(Solved::load(&dir), s);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_record_from_before_glicko2_still_loads() {
        let old: Solved =
            toml::from_str("rating = 1180.0\n[puzzles.001]\nattempts = 2\nsolved = true\n")
                .expect("an old record reads");
        assert_eq!(old.rating, 1180.0);
        assert_eq!(old.deviation, Rating::NEW.deviation);
        assert!(old.is_solved("001"));
    }
}
