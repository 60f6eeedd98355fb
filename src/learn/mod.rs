//! `qchess learn`: short lessons that teach Quantum Chess to a chess player, each a
//! position, a few lines of text and a task the game checks. The lessons, their checks
//! and a try at a task ([`Attempt`]) live here (no terminal); the screen is in
//! [`crate::ui::layers::lesson`].

pub mod attempt;
mod checks;
pub mod lessons;
pub mod progress;
pub mod solved;

pub use attempt::{Attempt, Judged, Met};
pub use checks::Checked;
pub use lessons::{Goal, Lesson, LESSONS};
pub use progress::Progress;

use crate::files::{read_text, replace_atomic};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Why a player's progress or record could not be kept.
#[derive(Debug, thiserror::Error)]
#[error("{what} could not be saved to {path}: {source}")]
pub struct SaveError {
    what: &'static str,
    path: PathBuf,
    source: std::io::Error,
}

/// The TOML file `name` in `dir`; none yet (or one that cannot be read) gives the
/// default, since losing it costs only ticks in a list.
fn load<T: DeserializeOwned + Default>(dir: &Path, name: &str) -> T {
    read_text(&dir.join(name))
        .ok()
        .and_then(|t| toml::from_str(&t).ok())
        .unwrap_or_default()
}

/// Saves `value` as the TOML file `name` in `dir` (created when missing); `what` names
/// it in the error.
fn save<T: Serialize>(
    value: &T,
    dir: &Path,
    name: &str,
    what: &'static str,
) -> Result<(), SaveError> {
    let path = dir.join(name);
    let text = toml::to_string(value).expect("progress and records are plain data");
    std::fs::create_dir_all(dir)
        .and_then(|_| replace_atomic(&path, &text))
        .map_err(|source| SaveError { what, path, source })
}
