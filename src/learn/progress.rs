//! Which lessons a player finished and where they left off, kept in `learn.toml` in the
//! data directory by the lessons' ids, so that lessons added or moved in the list leave
//! a player's ticks on the lessons they finished.

use super::lessons::{Lesson, LESSONS};
use super::SaveError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::Path;

/// The file name of the progress in the data directory.
pub const FILE: &str = "learn.toml";

/// The lessons' ids in the order of the first release, which kept progress by number:
/// a file written then names lesson `n` as the `n`th of these.
const NUMBERED: [&str; 15] = [
    "win",
    "no-check",
    "split",
    "numbers",
    "merge",
    "slide-through",
    "capture-asks",
    "capture-partly",
    "excluded",
    "en-passant",
    "promotion",
    "castling",
    "reading",
    "inspector",
    "computer",
];

/// A player's progress through the lessons, by the lessons' ids.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "Saved")]
pub struct Progress {
    /// The ids of the lessons finished.
    done: BTreeSet<String>,
    /// The id of the lesson opened last.
    last: Option<String>,
}

/// The file as written: ids, or the numbers of the first release.
#[derive(Deserialize)]
struct Saved {
    #[serde(default)]
    done: Vec<Named>,
    #[serde(default)]
    last: Option<Named>,
}

/// A lesson named in a file.
#[derive(Deserialize)]
#[serde(untagged)]
enum Named {
    Id(String),
    Number(usize),
}

impl Named {
    /// The lesson's id; none for a number no lesson had.
    fn id(self) -> Option<String> {
        match self {
            Named::Id(id) => Some(id),
            Named::Number(n) => n
                .checked_sub(1)
                .and_then(|i| NUMBERED.get(i))
                .map(|id| id.to_string()),
        }
    }
}

impl From<Saved> for Progress {
    fn from(s: Saved) -> Progress {
        Progress {
            done: s.done.into_iter().filter_map(Named::id).collect(),
            last: s.last.and_then(Named::id),
        }
    }
}

/// The lesson numbered `number` (from 1) in today's list.
fn lesson(number: usize) -> Option<&'static Lesson> {
    number.checked_sub(1).and_then(|i| LESSONS.get(i))
}

/// Today's number (from 1) of the lesson `id`.
fn number(id: &str) -> Option<usize> {
    LESSONS.iter().position(|l| l.id == id).map(|i| i + 1)
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

    /// Whether lesson `number` (from 1) is finished.
    pub fn is_done(&self, number: usize) -> bool {
        lesson(number).is_some_and(|l| self.done.contains(l.id))
    }

    /// Counts lesson `number` as finished.
    pub fn finish(&mut self, number: usize) {
        if let Some(l) = lesson(number) {
            self.done.insert(l.id.to_string());
        }
    }

    /// Notes lesson `number` as the one opened last.
    pub fn open(&mut self, number: usize) {
        self.last = lesson(number).map(|l| l.id.to_string());
    }

    /// The number of the lesson opened last, while there is such a lesson.
    pub fn last(&self) -> Option<usize> {
        self.last.as_deref().and_then(number)
    }

    /// The lesson to open when none is named: the one after the last opened when that
    /// one is done, else the last opened, else the first not done.
    pub fn resume(&self) -> usize {
        let count = LESSONS.len();
        match self.last() {
            Some(n) if !self.is_done(n) => n,
            Some(n) if n < count => n + 1,
            _ => (1..=count).find(|&n| !self.is_done(n)).unwrap_or(1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbered(id: &str) -> usize {
        number(id).expect("a lesson")
    }

    #[test]
    fn progress_is_kept_and_resumes_where_the_player_left() {
        let dir = std::env::temp_dir().join(format!("qchess-learn-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(Progress::load(&dir), Progress::default());
        assert_eq!(Progress::default().resume(), 1);
        let mut p = Progress::default();
        p.finish(1);
        p.finish(2);
        p.open(2);
        p.save(&dir).expect("saved");
        let text = std::fs::read_to_string(dir.join(FILE)).expect("written");
        assert!(text.contains("\"no-check\""), "kept by id: {text}");
        let back = Progress::load(&dir);
        assert_eq!(back, p);
        assert_eq!(back.resume(), 3);
        p.open(5);
        assert_eq!(p.resume(), 5);
        let last = LESSONS.len();
        p.open(last);
        p.finish(last);
        assert_eq!(p.resume(), 3);
        std::fs::write(dir.join(FILE), "done = \"nonsense\"").unwrap();
        assert_eq!(Progress::load(&dir), Progress::default());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_of_numbers_keeps_its_ticks_on_the_same_lessons() {
        let dir = std::env::temp_dir().join(format!("qchess-learn-old-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // Written when castling was lesson 12 and the inspector 14 of 15.
        std::fs::write(dir.join(FILE), "done = [1, 12, 99]\nlast = 14\n").unwrap();
        let p = Progress::load(&dir);
        assert!(p.is_done(numbered("win")) && p.is_done(numbered("castling")));
        assert_eq!(
            (1..=LESSONS.len()).filter(|&n| p.is_done(n)).count(),
            2,
            "99 was never a lesson"
        );
        assert_eq!(p.last(), Some(numbered("inspector")));
        assert_eq!(p.resume(), numbered("inspector"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
