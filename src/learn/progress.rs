//! Which lessons a player finished and where they left off, kept in `learn.toml` in the
//! data directory.

use super::SaveError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::Path;

/// The file name of the progress in the data directory.
pub const FILE: &str = "learn.toml";

/// A player's progress through the lessons (numbers from 1).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// The lessons finished.
    #[serde(default)]
    pub done: BTreeSet<usize>,
    /// The lesson opened last.
    #[serde(default)]
    pub last: Option<usize>,
}

impl Progress {
    /// The progress saved in `dir`; none yet (or a file that cannot be read) starts
    /// afresh, since losing it costs only the ticks in the lesson list.
    pub fn load(dir: &Path) -> Progress {
        super::load(dir, FILE)
    }

    /// Saves it into `dir` (created when missing).
    pub fn save(&self, dir: &Path) -> Result<(), SaveError> {
        super::save(self, dir, FILE, "the lesson progress")
    }

    /// The lesson to open when none is named: the one after the last opened when that
    /// one is done, else the last opened, else the first not done.
    pub fn resume(&self, count: usize) -> usize {
        match self.last {
            Some(n) if (1..=count).contains(&n) && !self.done.contains(&n) => n,
            Some(n) if n < count => n + 1,
            _ => (1..=count).find(|n| !self.done.contains(n)).unwrap_or(1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_is_kept_and_resumes_where_the_player_left() {
        let dir = std::env::temp_dir().join(format!("qchess-learn-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(Progress::load(&dir), Progress::default());
        assert_eq!(Progress::default().resume(15), 1);
        let mut p = Progress::default();
        p.done.insert(1);
        p.done.insert(2);
        p.last = Some(2);
        p.save(&dir).expect("saved");
        let back = Progress::load(&dir);
        assert_eq!(back, p);
        assert_eq!(back.resume(15), 3);
        p.last = Some(5);
        assert_eq!(p.resume(15), 5);
        p.last = Some(15);
        p.done.insert(15);
        assert_eq!(p.resume(15), 3);
        std::fs::write(dir.join(FILE), "done = \"nonsense\"").unwrap();
        assert_eq!(Progress::load(&dir), Progress::default());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
