//! A saved game as qchess's versioned TOML holds it: the players, the start, the seed,
//! the moves with their outcomes, the clocks and the review; reading it checks every
//! field, and replaying it rebuilds the game.

use super::autosave::InUse;
use super::review;
use crate::chess::{Color, GameOptions, Status};
use crate::files::FileError;
use crate::game::clock::{BadTimeControl, Ending, TimeControl};
use crate::game::{CancelFlag, Playable, Players, RuleSet, Setup};
use crate::quantum::{BackendKind, SimulatorSettings};
use crate::variants::ReplayError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The format version this build writes and reads.
pub const FORMAT: u32 = 1;

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
    /// The file holds no game at all (an empty PGN file, or one of comments only).
    #[error("{0} holds no game")]
    NoGame(PathBuf),
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
            moves: game.history().iter().map(|m| m.text.clone()).collect(),
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
            .find(|k| !crate::record::pgn::read::valid_tag_name(k))
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

    /// How the recorded game started, on `simulator` when given (else on the file's
    /// backend with the default size limits).
    pub fn setup(
        &self,
        path: &Path,
        simulator: Option<SimulatorSettings>,
    ) -> Result<Setup, RecordError> {
        let simulator = match simulator {
            Some(s) => s,
            None => SimulatorSettings::on(self.backend_kind(path)?),
        };
        Ok(Setup {
            rules: self.rules(path)?,
            start: self.start.clone(),
            options: GameOptions {
                simulator,
                seed: self.seed,
                free_turns: self.free_turns,
                factored: true,
                no_win: false,
            },
        })
    }

    /// The recorded game under its rule system, its outcomes replayed as recorded (on
    /// `simulator` when given, else on the file's backend),
    /// stopped at the next move (or gate) once `cancel` is set (the error then names the
    /// ply it stopped in); the game keeps watching the flag.
    pub fn replay(
        &self,
        path: &Path,
        simulator: Option<SimulatorSettings>,
        cancel: Option<CancelFlag>,
    ) -> Result<Box<dyn Playable>, RecordError> {
        let setup = self.setup(path, simulator)?;
        crate::variants::replay(&setup, &self.moves, cancel).map_err(|e| match e {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Game;

    #[test]
    fn round_trip_text() {
        let mut g: Box<dyn Playable> = Game::standard(GameOptions {
            seed: 9,
            ..GameOptions::default()
        })
        .into();
        g.play("b1^a3c3").unwrap();
        g.play("e7e5").unwrap();
        let saved = SavedGame::of(g.as_ref(), &Players::default(), "2026-11-21T00:00:00Z");
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
