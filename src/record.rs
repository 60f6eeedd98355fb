//! Saved game files: loading and saving them (qchess's versioned TOML, [`saved`], or
//! Quantum PGN, [`pgn`]), atomic writes, autosave, the recorder of a game in progress,
//! and where the files live.
//!
//! A saved game holds the start position, the seed and the moves in canonical notation
//! with their recorded `.m0`/`.m1` outcomes; loading replays the moves with those outcomes
//! forced, so the loaded state is the saved one on either backend.
//!
//! A file whose name ends in `.pgn` is Quantum PGN: [`load_game`] opens one game of it,
//! [`save`] writes one.

use crate::files::write_atomic;
use crate::game::Playable;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

mod autosave;
pub mod pgn;
pub mod review;
pub mod saved;
pub mod verdict;
pub use crate::game::Players;
pub use autosave::{
    autosave_dir, autosave_path, autosaves_newest_first, clear_stale_locks, latest_autosave,
    newest_resumable, remove_held_lock_files, AutosaveLock, InUse, LockError, ResumeSearch,
    SkipReason, Skipped,
};
pub use saved::{RecordError, SavedClock, SavedGame, CLOCK_VERSION, FORMAT};

/// Where a game in progress is saved: its autosave file and the folder offered for saves.
/// While autosave is on, the recorder holds the lock on its autosave file (clones share
/// it; the last one dropped gives it back).
#[derive(Clone, Debug)]
pub struct Recorder {
    /// The players' names.
    pub players: Players,
    /// When the game started ([`iso_date`]).
    pub date: String,
    /// The autosave file; `None` when autosave is off or there is no data directory.
    pub autosave_to: Option<PathBuf>,
    /// The data directory, if there is one.
    pub data_dir: Option<PathBuf>,
    /// Whether autosave is on.
    pub autosave: bool,
    /// PGN tags of the game opened, kept in what is saved ([`SavedGame::tags`]).
    pub tags: BTreeMap<String, String>,
    /// The lock on `autosave_to`; `None` when the lock file could not be made (the
    /// autosave itself then reports why it fails).
    pub(crate) lock: Option<Arc<AutosaveLock>>,
    /// The file the player saved the game to (`w`) and the game as saved there, until
    /// the game changes.
    pub(crate) saved_as: Option<(PathBuf, SavedGame)>,
}

impl Recorder {
    /// A recorder for a game started at `now` (Unix seconds).
    pub fn new(data_dir: Option<PathBuf>, autosave: bool, players: Players, now: u64) -> Recorder {
        let mut r = Recorder {
            players,
            date: String::new(),
            autosave_to: None,
            data_dir,
            autosave,
            tags: BTreeMap::new(),
            lock: None,
            saved_as: None,
        };
        r.restart(now);
        r
    }

    /// A recorder that keeps nothing (tests, analysis).
    pub fn off() -> Recorder {
        Recorder::new(None, false, Players::default(), 0)
    }

    /// A recorder that goes on writing an existing autosave file (for `qchess resume`),
    /// holding its lock; refused when another running game holds it. A file without a
    /// date keeps this recorder's.
    pub fn resuming(&self, file: PathBuf, date: &str) -> Result<Recorder, RecordError> {
        let lock = if self.autosave {
            match AutosaveLock::acquire(&file) {
                Ok(l) => Some(Arc::new(l)),
                Err(LockError::InUse(e)) => return Err(RecordError::InUse(e)),
                Err(LockError::Io(source)) => return Err(RecordError::Io { path: file, source }),
            }
        } else {
            None
        };
        Ok(Recorder {
            date: if date.is_empty() {
                self.date.clone()
            } else {
                date.into()
            },
            autosave_to: self.autosave.then_some(file),
            lock,
            ..self.clone()
        })
    }

    /// Starts a new game at `now`: a new date, no tags, and a new autosave file of its
    /// own (locked at once).
    pub fn restart(&mut self, now: u64) {
        self.date = iso_date(now);
        self.tags.clear();
        self.lock = None;
        self.autosave_to = None;
        self.saved_as = None;
        let (Some(dir), true) = (&self.data_dir, self.autosave) else {
            return;
        };
        let stamp = file_stamp(now);
        for _ in 0..16 {
            let suffix = format!("{:06x}", rand::random::<u32>() & 0xff_ffff);
            let path = autosave_path(dir, &stamp, &suffix);
            if path.exists() {
                continue;
            }
            match AutosaveLock::acquire(&path) {
                Ok(lock) => self.lock = Some(Arc::new(lock)),
                Err(LockError::InUse(_)) => continue,
                Err(LockError::Io(_)) => {}
            }
            self.autosave_to = Some(path);
            return;
        }
    }

    /// The record of `game` as this recorder saves it: its players, date and tags.
    pub fn saved(&self, game: &dyn Playable) -> SavedGame {
        SavedGame {
            tags: self.tags.clone(),
            ..SavedGame::of(game, &self.players, &self.date)
        }
    }

    /// Notes that the player saved `game` to `path`.
    pub fn saved_to(&mut self, path: &Path, game: &SavedGame) {
        self.saved_as = Some((path.to_path_buf(), game.clone()));
    }

    /// Forgets the player's save once the game is no longer `game` as saved.
    pub fn changed(&mut self, game: &SavedGame) {
        if self.saved_as.as_ref().is_some_and(|(_, s)| s != game) {
            self.saved_as = None;
        }
    }

    /// The file the player saved the game to, while the game is as saved there.
    pub fn saved_file(&self) -> Option<&Path> {
        self.saved_as.as_ref().map(|(p, _)| p.as_path())
    }

    /// Writes the autosave, when there is one; `Ok(false)` when autosave is off.
    pub fn autosave(&self, game: &SavedGame) -> Result<bool, RecordError> {
        let Some(path) = &self.autosave_to else {
            return Ok(false);
        };
        write_atomic(path, &game.to_toml()).map_err(|source| RecordError::Io {
            path: path.clone(),
            source,
        })?;
        Ok(true)
    }

    /// The path offered when the player saves: in the saves folder of the data
    /// directory (or the current folder), named after the start date.
    pub fn default_save_path(&self) -> PathBuf {
        let stamp = self.date.replace(['-', ':'], "").replace('T', "-");
        let name = format!("qchess-{}.toml", stamp.trim_end_matches('Z'));
        match &self.data_dir {
            Some(d) => saves_dir(d).join(name),
            None => PathBuf::from(name),
        }
    }
}

/// Reads and checks a saved game file (a regular file of at most
/// [`crate::files::MAX_BYTES`]): qchess's TOML, or the first game of a `.pgn` file.
pub fn load(path: &Path) -> Result<SavedGame, RecordError> {
    load_game(path, None)
}

/// Game `number` (from 1; the first when `None`) of a saved game file: a `.pgn` file
/// may hold several, a qchess TOML file holds one. What every command that opens a
/// saved game calls.
pub fn load_game(path: &Path, number: Option<usize>) -> Result<SavedGame, RecordError> {
    if crate::record::pgn::file::is_pgn(path) {
        return crate::record::pgn::load(path, number);
    }
    let text = crate::files::read_text(path).map_err(|source| RecordError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let saved = SavedGame::parse(&text, path)?;
    match number {
        None | Some(1) => Ok(saved),
        Some(asked) => Err(RecordError::NoSuchGame {
            path: path.to_path_buf(),
            asked,
            count: 1,
        }),
    }
}

/// The games of a saved game file, in brief (a qchess TOML file: its one game).
pub fn list_games(path: &Path) -> Result<Vec<crate::record::pgn::GameSummary>, RecordError> {
    if crate::record::pgn::file::is_pgn(path) {
        return crate::record::pgn::list(path);
    }
    let saved = load(path)?;
    Ok(vec![crate::record::pgn::GameSummary {
        number: 1,
        white: saved.players.white,
        black: saved.players.black,
        result: crate::record::pgn::GameResult::of(saved.result),
        plies: saved.moves.len(),
    }])
}

/// Saves `game` to `path`, as PGN when the name ends in `.pgn`, else as qchess's TOML;
/// refuses to replace a file that is not a saved game (a PGN file is one when it reads
/// as PGN).
pub fn save(path: &Path, game: &SavedGame) -> Result<(), RecordError> {
    let clobber = |why: String| RecordError::WouldClobber {
        path: path.to_path_buf(),
        why,
    };
    let text = if crate::record::pgn::file::is_pgn(path) {
        if let Some(why) = crate::record::pgn::file::not_pgn(path) {
            return Err(clobber(why));
        }
        crate::record::pgn::file::text(game)
    } else {
        if path.exists() {
            if let Err(e) = load(path) {
                return Err(clobber(e.to_string()));
            }
        }
        game.to_toml()
    };
    write_atomic(path, &text).map_err(|source| RecordError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// The folder saved games are offered in, inside the data directory.
pub fn saves_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("saves")
}

/// Seconds since the Unix epoch, now.
pub fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// (year, month, day, hour, minute, second) in UTC of a Unix time.
fn civil(secs: u64) -> (i64, u32, u32, u32, u32, u32) {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Days to civil date (proleptic Gregorian), after H. Hinnant's published algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        year,
        month,
        day,
        (rem / 3600) as u32,
        (rem / 60 % 60) as u32,
        (rem % 60) as u32,
    )
}

/// A Unix time as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn iso_date(secs: u64) -> String {
    let (y, mo, d, h, mi, s) = civil(secs);
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
}

/// A Unix time as `YYYYMMDD-HHMMSS`, for file names.
pub fn file_stamp(secs: u64) -> String {
    let (y, mo, d, h, mi, s) = civil(secs);
    format!("{y:04}{mo:02}{d:02}-{h:02}{mi:02}{s:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(iso_date(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_date(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(iso_date(1_795_261_845), "2026-11-21T11:50:45Z");
        assert_eq!(file_stamp(1_795_261_845), "20261121-115045");
    }
}
