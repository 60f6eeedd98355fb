//! Where a game is kept (its autosave, or the file the player saved it to) and how a
//! path is shown to the player (from `~`).

use crate::record::Recorder;
use std::path::{Path, PathBuf};

/// Where a game is kept when the player leaves.
pub enum Kept {
    /// In the autosave file.
    Autosave(PathBuf),
    /// In the file the player saved it to, unchanged since.
    Saved(PathBuf),
}

impl Kept {
    /// The file.
    pub fn file(&self) -> &Path {
        match self {
            Kept::Autosave(p) | Kept::Saved(p) => p,
        }
    }

    /// The command that plays on from it.
    pub fn play_on(&self, home: Option<&Path>) -> String {
        match self {
            Kept::Autosave(_) => "qchess resume".into(),
            Kept::Saved(p) => format!("qchess play --load {}", tilde(p, home)),
        }
    }
}

/// Where the game is kept: the file the player saved it to while nothing changed since,
/// else the autosave file once written.
pub fn kept_in(recorder: &Recorder) -> Option<Kept> {
    // The file the player saved to, while it holds the game as it is: the name they
    // chose and will look for, rather than the autosave's.
    match recorder.saved_file() {
        Some(p) => Some(Kept::Saved(p.to_path_buf())),
        None => recorder
            .autosave_to
            .clone()
            .filter(|p| p.exists())
            .map(Kept::Autosave),
    }
}

/// Why a game has no autosave file.
pub fn unsaved_reason(recorder: &Recorder) -> &'static str {
    match (&recorder.autosave_to, recorder.autosave) {
        (Some(_), _) => "the autosave could not be written",
        (None, true) => "there is no data folder for autosaves",
        (None, false) => "autosave is off",
    }
}

/// The user's home folder.
pub fn home_dir() -> Option<PathBuf> {
    directories::BaseDirs::new().map(|b| b.home_dir().to_path_buf())
}

/// A typed path with a leading `~` (alone or before a `/`) replaced by `home`.
pub fn expand_home(typed: &str, home: Option<&Path>) -> PathBuf {
    let rest = match typed.strip_prefix('~') {
        Some(r) if r.is_empty() || r.starts_with('/') || r.starts_with('\\') => r,
        _ => return PathBuf::from(typed),
    };
    match home {
        Some(h) => h.join(rest.trim_start_matches(['/', '\\'])),
        None => PathBuf::from(typed),
    }
}

/// A path for showing: inside `home`, written from `~`.
pub fn tilde(path: &Path, home: Option<&Path>) -> String {
    match home.and_then(|h| path.strip_prefix(h).ok()) {
        Some(rest) if rest.as_os_str().is_empty() => "~".into(),
        Some(rest) => format!("~/{}", rest.display()),
        None => path.display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn home_is_expanded_and_shown_as_tilde() {
        let home = Path::new("/home/ann");
        assert_eq!(
            expand_home("~/games/g.toml", Some(home)),
            PathBuf::from("/home/ann/games/g.toml")
        );
        assert_eq!(expand_home("~", Some(home)), PathBuf::from("/home/ann"));
        assert_eq!(
            expand_home("~bo/g.toml", Some(home)),
            PathBuf::from("~bo/g.toml")
        );
        assert_eq!(expand_home("a/~/g", Some(home)), PathBuf::from("a/~/g"));
        assert_eq!(expand_home("~/g", None), PathBuf::from("~/g"));
        assert_eq!(
            tilde(Path::new("/home/ann/x/g.toml"), Some(home)),
            "~/x/g.toml"
        );
        assert_eq!(tilde(Path::new("/tmp/g.toml"), Some(home)), "/tmp/g.toml");
    }
}
