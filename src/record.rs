//! Saved games: the versioned TOML format, loading with exact replay, atomic writes for
//! saving and autosave, and where the files live.
//!
//! A saved game holds the start position, the seed and the moves in canonical notation
//! with their recorded `.m0`/`.m1` outcomes; loading replays the moves with those outcomes
//! forced, so the loaded state is the saved one on either backend.
//!
//! A file whose name ends in `.pgn` is Quantum PGN instead ([`crate::pgn`]): [`load_game`]
//! opens one game of it, [`save`] writes one.

use crate::chess::{Color, GameOptions, Status};
use crate::config::FileError;
use crate::files::write_atomic;
use crate::game::clock::{BadTimeControl, Ending, TimeControl};
use crate::game::{CancelFlag, Playable, ReplayError, RuleSet, Setup};
use crate::quantum::BackendKind;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

mod autosave;
pub mod review;
pub mod verdict;
pub use autosave::{
    autosave_dir, autosave_path, autosaves_newest_first, clear_stale_locks, latest_autosave,
    newest_resumable, remove_held_lock_files, AutosaveLock, InUse, LockError, ResumeSearch,
    SkipReason, Skipped,
};

/// The format version this build writes and reads.
pub const FORMAT: u32 = 1;

/// The two players' names; a name left out of a file is "White" or "Black".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Players {
    /// Who plays white.
    pub white: String,
    /// Who plays black.
    pub black: String,
}

impl Default for Players {
    fn default() -> Self {
        Players {
            white: "White".into(),
            black: "Black".into(),
        }
    }
}

/// One saved game, as it is written to and read from a file. Only `format` and `moves`
/// are required in a file (for hand-written games); the other fields have defaults: the
/// quantum variant, the standard start, the sparse backend, seed 0, no date, ongoing,
/// players "White" and "Black".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedGame {
    /// Format version ([`FORMAT`]).
    pub format: u32,
    /// Rule system: "quantum", "harmonics" or "haft".
    #[serde(default = "quantum")]
    pub variant: String,
    /// Start position as FEN; absent means the variant's standard start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// Simulator backend the game was played on ("sparse" or "dense"); absent for the
    /// variants that do not use the simulator.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backend: Option<String>,
    /// Seed of the random outcomes.
    #[serde(default)]
    pub seed: u64,
    /// Any side may move (analysis games).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub free_turns: bool,
    /// When the game was started, UTC, as `YYYY-MM-DDTHH:MM:SSZ`; empty when unknown.
    #[serde(default)]
    pub date: String,
    /// `ongoing`, `white_wins`, `black_wins` or `draw` in the file; any other word is
    /// refused.
    #[serde(default = "ongoing")]
    pub result: Status,
    /// The moves in canonical notation, with their recorded outcomes.
    pub moves: Vec<String>,
    /// The players' names.
    #[serde(default)]
    pub players: Players,
    /// PGN tags qchess has no field for (`Event`, `Site`, `Round`, `ECO`, ...), kept
    /// from an imported game and written back on export (docs/pgn.md).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tags: BTreeMap<String, String>,
    /// Why the game ended when its rules did not end it ("white lost on time", "black
    /// resigned", "draw agreed"); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The clocks, when the game was played on a clock: an optional section with its
    /// own version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<SavedClock>,
    /// The engine's review of the game, when one was made (`qchess review`): an
    /// optional section with its own version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review: Option<review::Review>,
}

/// The version of the `[clock]` section this build writes and reads.
pub const CLOCK_VERSION: u32 = 1;

/// A game's clocks as a saved game keeps them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedClock {
    /// The section's version ([`CLOCK_VERSION`]).
    pub version: u32,
    /// The time control, `MIN+INC` ("5+3").
    pub control: String,
    /// The mover's time left after each ply, increment included, in milliseconds.
    #[serde(default)]
    pub left: Vec<u64>,
}

impl SavedClock {
    /// The time control, or why it does not read.
    pub fn time_control(&self, path: &Path) -> Result<TimeControl, RecordError> {
        self.control
            .parse()
            .map_err(|e: BadTimeControl| RecordError::Field {
                path: path.to_path_buf(),
                key: "clock.control",
                message: e.to_string(),
            })
    }

    /// Each side's time left after the first `plies` plies (`first` moved first): the
    /// last time recorded for each, or the base time.
    pub fn left_after(&self, control: TimeControl, plies: usize, first: Color) -> [Duration; 2] {
        let mut left = [control.base; 2];
        let mut side = first;
        for ms in self.left.iter().take(plies) {
            left[usize::from(side == Color::Black)] = Duration::from_millis(*ms);
            side = side.opposite();
        }
        left
    }
}

fn quantum() -> String {
    RuleSet::Quantum.name().into()
}

fn ongoing() -> Status {
    Status::Ongoing
}

/// Why a saved game could not be read or written. Every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The file is not TOML, or a field has the wrong type.
    #[error("{path}: not a qchess saved game: {message}")]
    Syntax {
        /// The file.
        path: PathBuf,
        /// The parser's message, with the line.
        message: String,
    },
    /// The file has no `format` number.
    #[error("{path}: not a qchess saved game: it has no `format = 1` line")]
    NoFormat {
        /// The file.
        path: PathBuf,
    },
    /// A required field is missing.
    #[error("{path}: field `{key}` is missing ({hint})")]
    Missing {
        /// The file.
        path: PathBuf,
        /// The field.
        key: &'static str,
        /// What to write.
        hint: &'static str,
    },
    /// The file was written by a newer (or unknown) version.
    #[error("{path}: saved game format {found} is not supported: this qchess reads format {FORMAT} (a newer version wrote it?)")]
    Format {
        /// The file.
        path: PathBuf,
        /// The version found.
        found: i64,
    },
    /// A field holds a value this version does not know.
    #[error("{path}: field `{key}`: {message}")]
    Field {
        /// The file.
        path: PathBuf,
        /// The field.
        key: &'static str,
        /// What is wrong.
        message: String,
    },
    /// A move could not be replayed.
    #[error("{path}: ply {ply} ({text}): {reason}")]
    Move {
        /// The file.
        path: PathBuf,
        /// 1-based ply number.
        ply: usize,
        /// The move as written.
        text: String,
        /// Why it failed.
        reason: String,
    },
    /// A PGN file that is not PGN, or a game of it that does not import: where and why.
    #[error("{path}: {message}")]
    Pgn {
        /// The file.
        path: PathBuf,
        /// The game (when the file has several), line, column, ply and reason.
        message: String,
    },
    /// The game asked for (`--game N`) is not in the file.
    #[error("{path} holds {count} game{}: there is no game {asked} (--game takes 1 to {count})", if *.count == 1 { "" } else { "s" })]
    NoSuchGame {
        /// The file.
        path: PathBuf,
        /// The number asked for.
        asked: usize,
        /// How many games the file holds.
        count: usize,
    },
    /// The autosave file is being written by another running game.
    #[error("{0}; quit that game first, or resume another")]
    InUse(InUse),
    /// Refused to replace a file that is not a qchess saved game.
    #[error("{path} exists and is not a qchess saved game: not overwriting it ({why})")]
    WouldClobber {
        /// The file.
        path: PathBuf,
        /// Why it failed to load.
        why: String,
    },
}

impl SavedGame {
    /// The record of a game under any rule system, started at `date`.
    pub fn of(game: &dyn Playable, players: &Players, date: &str) -> SavedGame {
        let setup = game.setup();
        SavedGame {
            format: FORMAT,
            variant: setup.rules.name().into(),
            backend: setup.backend().map(|b| b.name().into()),
            start: setup.start,
            seed: setup.options.seed,
            free_turns: setup.options.free_turns,
            date: date.into(),
            result: game.status(),
            moves: game.history().into_iter().map(|m| m.text).collect(),
            players: players.clone(),
            tags: BTreeMap::new(),
            reason: None,
            clock: None,
            review: None,
        }
    }

    /// The file's text: a comment line, then the fields.
    pub fn to_toml(&self) -> String {
        let body = toml::to_string(self).unwrap_or_default();
        format!("# qchess saved game (see docs/playing.md, \"Saved games\")\n{body}")
    }

    /// Reads a saved game from its text; `path` is only used in messages.
    pub fn parse(text: &str, path: &Path) -> Result<SavedGame, RecordError> {
        let syntax = |e: toml::de::Error| RecordError::Syntax {
            path: path.to_path_buf(),
            message: FileError::from_toml(path, text, &e).place_and_message(),
        };
        let path = path.to_path_buf();
        // The version first, so that a newer file is named as such rather than as broken.
        let table: toml::Table = toml::from_str(text).map_err(syntax)?;
        match table.get("format") {
            None => return Err(RecordError::NoFormat { path }),
            Some(toml::Value::Integer(n)) if *n == FORMAT as i64 => {}
            Some(toml::Value::Integer(n)) => return Err(RecordError::Format { path, found: *n }),
            Some(_) => {
                return Err(RecordError::Field {
                    path,
                    key: "format",
                    message: "must be a whole number".into(),
                })
            }
        }
        // The parser would place a missing field at line 1, column 1; name it instead.
        if !table.contains_key("moves") {
            return Err(RecordError::Missing {
                path,
                key: "moves",
                hint: "the moves in notation, e.g. moves = [\"e2e4\", \"e7e5\"], or moves = []",
            });
        }
        let saved: SavedGame = if later_sections(&table).is_empty() {
            toml::from_str(text).map_err(syntax)?
        } else {
            let mut table = table;
            for key in later_sections(&table) {
                table.remove(&key);
            }
            table.try_into().map_err(syntax)?
        };
        saved.rules(&path)?;
        saved.backend_kind(&path)?;
        if let Some(c) = &saved.clock {
            c.time_control(&path)?;
        }
        if let Some(bad) = saved
            .tags
            .keys()
            .find(|k| !crate::pgn::read::valid_tag_name(k))
        {
            return Err(RecordError::Field {
                path,
                key: "tags",
                message: format!(
                    "\"{bad}\" is not a PGN tag name (letters, digits and _, from a letter)"
                ),
            });
        }
        Ok(saved)
    }

    /// How the game ended outside its rules, when the file says (`reason`).
    pub fn ending(&self) -> Option<Ending> {
        self.reason.clone().map(|reason| Ending {
            status: self.result,
            reason,
        })
    }

    /// Whether the recorded game is over (its `result` is not `ongoing`).
    pub fn finished(&self) -> bool {
        self.result != Status::Ongoing
    }

    /// The rule system named in the file.
    pub fn rules(&self, path: &Path) -> Result<RuleSet, RecordError> {
        self.variant.parse().map_err(|e| RecordError::Field {
            path: path.to_path_buf(),
            key: "variant",
            message: format!("{e}"),
        })
    }

    /// The backend named in the file (sparse when none is).
    pub fn backend_kind(&self, path: &Path) -> Result<BackendKind, RecordError> {
        let Some(name) = &self.backend else {
            return Ok(BackendKind::Sparse);
        };
        name.parse().map_err(|e| RecordError::Field {
            path: path.to_path_buf(),
            key: "backend",
            message: format!("{e}"),
        })
    }

    /// How the recorded game started. `backend` overrides the file's choice;
    /// `dense_limit_log2` and `sparse_limit` are the simulator's size limits.
    pub fn setup(
        &self,
        path: &Path,
        backend: Option<BackendKind>,
        dense_limit_log2: u32,
        sparse_limit: usize,
    ) -> Result<Setup, RecordError> {
        Ok(Setup {
            rules: self.rules(path)?,
            start: self.start.clone(),
            options: GameOptions {
                backend: backend.unwrap_or(self.backend_kind(path)?),
                seed: self.seed,
                free_turns: self.free_turns,
                dense_limit_log2,
                sparse_limit,
                factored: true,
                no_win: false,
            },
        })
    }

    /// The recorded game under its rule system, its outcomes replayed as recorded (on
    /// `backend` when given, else the file's),
    /// stopped at the next move (or gate) once `cancel` is set (the error then names the
    /// ply it stopped in); the game keeps watching the flag.
    pub fn replay(
        &self,
        path: &Path,
        backend: Option<BackendKind>,
        dense_limit_log2: u32,
        sparse_limit: usize,
        cancel: Option<CancelFlag>,
    ) -> Result<Box<dyn Playable>, RecordError> {
        let setup = self.setup(path, backend, dense_limit_log2, sparse_limit)?;
        crate::game::replay(&setup, &self.moves, cancel).map_err(|e| match e {
            ReplayError::Start(e) => RecordError::Field {
                path: path.to_path_buf(),
                key: "start",
                message: e.to_string(),
            },
            ReplayError::Move { ply, text, reason } => RecordError::Move {
                path: path.to_path_buf(),
                ply,
                text,
                reason: reason.to_string(),
            },
        })
    }
}

/// The optional sections of a saved game's table this build skips: a table with a
/// `version` number this build does not read (a `[review]` written by a later qchess,
/// or a section it added). Such a section is dropped, not refused, so that a file
/// stays readable by the qchess versions before it; what the section held is made
/// again where it can be (a review is redone).
fn later_sections(table: &toml::Table) -> Vec<String> {
    table
        .iter()
        .filter_map(|(key, value)| {
            let version = value.as_table()?.get("version")?.as_integer()?;
            let known = match key.as_str() {
                "review" => review::readable(version),
                "clock" => version == i64::from(CLOCK_VERSION),
                _ => false,
            };
            (!known).then(|| key.clone())
        })
        .collect()
}

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
    if crate::pgn::file::is_pgn(path) {
        return crate::pgn::load(path, number);
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
pub fn list_games(path: &Path) -> Result<Vec<crate::pgn::GameSummary>, RecordError> {
    if crate::pgn::file::is_pgn(path) {
        return crate::pgn::list(path);
    }
    let saved = load(path)?;
    Ok(vec![crate::pgn::GameSummary {
        number: 1,
        white: saved.players.white,
        black: saved.players.black,
        result: crate::pgn::GameResult::of(saved.result),
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
    let text = if crate::pgn::file::is_pgn(path) {
        if let Some(why) = crate::pgn::file::not_pgn(path) {
            return Err(clobber(why));
        }
        crate::pgn::file::text(game)
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
    use crate::chess::Game;

    #[test]
    fn dates() {
        assert_eq!(iso_date(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_date(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(iso_date(1_795_261_845), "2026-11-21T11:50:45Z");
        assert_eq!(file_stamp(1_795_261_845), "20261121-115045");
    }

    #[test]
    fn round_trip_text() {
        let mut g = Game::standard(GameOptions {
            seed: 9,
            ..GameOptions::default()
        });
        g.play("b1^a3c3").unwrap();
        g.play("e7e5").unwrap();
        let saved = SavedGame::of(&g, &Players::default(), "2026-11-21T00:00:00Z");
        let text = saved.to_toml();
        let back = SavedGame::parse(&text, Path::new("x.toml")).unwrap();
        assert_eq!(back, saved);
        assert_eq!(back.moves, vec!["b1^a3c3", "e7e5"]);
    }

    #[test]
    fn errors_name_what_is_wrong() {
        let p = Path::new("g.toml");
        let e = SavedGame::parse("format = [", p).unwrap_err().to_string();
        assert!(e.starts_with("g.toml: not a qchess saved game"), "{e}");
        assert!(e.contains("line 1"), "{e}");
        let e = SavedGame::parse("variant = \"quantum\"", p).unwrap_err();
        assert!(matches!(e, RecordError::NoFormat { .. }), "{e}");
        let e = SavedGame::parse("format = 2\nwhatever = 1", p).unwrap_err();
        assert!(e.to_string().contains("format 2 is not supported"), "{e}");
    }
}
