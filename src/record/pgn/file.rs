//! PGN files: opening one game of a file by its number, listing a file's games, and
//! writing a game where it replaces nothing it should not.

use super::{convert, read, GameResult, PgnGame};
use crate::files::{canonical, replace_atomic};
use crate::record::saved::{RecordError, SavedGame};
use std::path::{Path, PathBuf};

/// One line of a file's list of games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// Its number in the file, from 1.
    pub number: usize,
    /// The `White` tag (`?` when missing).
    pub white: String,
    /// The `Black` tag (`?` when missing).
    pub black: String,
    /// The result written at its end.
    pub result: GameResult,
    /// How many plies its main line has.
    pub plies: usize,
}

/// Whether `path` names a PGN file (its extension is `.pgn`, in any case).
pub fn is_pgn(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
}

/// The games of the PGN file at `path` (a regular file of at most
/// [`crate::files::MAX_BYTES`], UTF-8 or else Latin-1), syntax checked.
fn games(path: &Path) -> Result<Vec<PgnGame>, RecordError> {
    let bytes = crate::files::read_bytes(path).map_err(|source| RecordError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    read(&decode(bytes)).map_err(|e| RecordError::Pgn {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}

/// The text of a PGN file's bytes: UTF-8 when they are, else ISO 8859-1 (Latin-1),
/// the PGN standard's character set, in which every byte is the character of the same
/// number (what `char::from(u8)` is).
fn decode(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes)
        .unwrap_or_else(|e| e.into_bytes().into_iter().map(char::from).collect())
}

/// Game `number` (from 1; the first when `None`) of the PGN file at `path`, imported
/// as a saved game (see [`convert::from_pgn`]). Errors name the file, the game when
/// the file holds several, the line and column, and the ply.
pub fn load(path: &Path, number: Option<usize>) -> Result<SavedGame, RecordError> {
    let games = games(path)?;
    if games.is_empty() {
        return Err(RecordError::NoGame(path.to_path_buf()));
    }
    let asked = number.unwrap_or(1);
    let Some(game) = asked.checked_sub(1).and_then(|i| games.get(i)) else {
        return Err(RecordError::NoSuchGame {
            path: path.to_path_buf(),
            asked,
            count: games.len(),
        });
    };
    convert::from_pgn(game).map_err(|e| RecordError::Pgn {
        path: path.to_path_buf(),
        message: match games.len() {
            1 => e.to_string(),
            _ => format!("game {asked}: {e}"),
        },
    })
}

/// The games of the PGN file at `path`, in brief, without replaying them.
pub fn list(path: &Path) -> Result<Vec<GameSummary>, RecordError> {
    let name = |g: &PgnGame, tag: &str| g.value(tag).unwrap_or("?").to_string();
    Ok(games(path)?
        .iter()
        .enumerate()
        .map(|(i, g)| GameSummary {
            number: i + 1,
            white: name(g, "White"),
            black: name(g, "Black"),
            result: g.result,
            plies: g.moves.len(),
        })
        .collect())
}

/// The text of a PGN file holding `saved` alone.
pub fn text(saved: &SavedGame) -> String {
    super::write(&convert::to_pgn(saved))
}

/// Why a PGN export was not written.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The output is the file the game was read from.
    #[error("{} is the game being exported: write the PGN to another file", .0.display())]
    SameAsInput(PathBuf),
    /// The output exists and is not a PGN file.
    #[error("{} exists and is not a PGN file ({why}): not overwriting it (--force replaces it)", path.display())]
    WouldClobber {
        /// The file.
        path: PathBuf,
        /// What it is instead.
        why: String,
    },
    /// The file could not be written.
    #[error("cannot write the PGN to {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

/// Why the existing file at `path` may not be replaced by a PGN file; `None` when it
/// may (there is none, or it reads as PGN).
pub fn not_pgn(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() {
        return Some("it is not a regular file".into());
    }
    match games(path) {
        Ok(_) => None,
        Err(RecordError::Pgn { message, .. }) => Some(message),
        Err(e) => Some(e.to_string()),
    }
}

/// Writes `saved` as PGN to `out` (whole or not at all), refusing `out` when it is
/// `input` (the file the game came from) and, unless `force`, when it exists and is
/// not a PGN file.
pub fn export(
    out: &Path,
    saved: &SavedGame,
    input: Option<&Path>,
    force: bool,
) -> Result<(), ExportError> {
    if input.is_some_and(|i| canonical(i).is_some_and(|i| Some(i) == canonical(out))) {
        return Err(ExportError::SameAsInput(out.to_path_buf()));
    }
    if !force {
        if let Some(why) = not_pgn(out) {
            return Err(ExportError::WouldClobber {
                path: out.to_path_buf(),
                why,
            });
        }
    }
    let io = |source| ExportError::Io {
        path: out.to_path_buf(),
        source,
    };
    let body = text(saved);
    // A device or FIFO named with --force is written to, not replaced.
    match std::fs::metadata(out) {
        Ok(m) if !m.is_file() => std::fs::write(out, body).map_err(io),
        _ => replace_atomic(out, &body).map_err(io),
    }
}
