//! The user's settings: `config.toml` in the configuration directory, colour themes
//! (built-in and user files), the data directory for saved games, and how the command
//! line, the file and the defaults combine for `qchess play`.

pub mod dirs;
pub mod file;
pub mod settings;
pub mod themes;

pub use dirs::{config_dir, data_dir};
pub use file::{Config, Notation, Pieces};
pub use settings::{PlayFlags, Settings};
pub use themes::Catalogue;

use crate::files::FileError;
use std::io;
use std::path::PathBuf;

/// Why settings or themes could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// Neither the environment variable nor a home directory says where to look.
    #[error("cannot find your home directory; set {0} to the directory to use")]
    NoHome(&'static str),
    /// The configuration or data directory names something that is not a directory.
    #[error("{}{} is a file, not a directory: {}", var.map_or(String::new(), |v| format!("{v}=")), path.display(), var.map_or("move it away".to_string(), |v| format!("point {v} at a directory (it is made when needed)")))]
    NotADirectory {
        /// The path.
        path: PathBuf,
        /// The environment variable that gave it, if one did.
        var: Option<&'static str>,
    },
    /// A file or folder could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// A file could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// `config init` would replace an existing file.
    #[error("{} already exists (add --force to replace it with the defaults)", .0.display())]
    Exists(PathBuf),
    /// A file has a bad key or value.
    #[error("{0}")]
    File(#[from] FileError),
    /// No theme has this name.
    #[error("unknown theme {name:?} (available: {available})")]
    UnknownTheme {
        /// The name asked for.
        name: String,
        /// The names there are, comma-separated.
        available: String,
    },
}
