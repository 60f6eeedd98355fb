//! Where qchess keeps its files: the configuration directory (`config.toml`, `themes/`)
//! and the data directory (saved games). Each can be moved with an environment variable.

use super::ConfigError;
use directories::ProjectDirs;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Environment variable that replaces the configuration directory.
pub const CONFIG_DIR_VAR: &str = "QCHESS_CONFIG_DIR";

/// Environment variable that replaces the data directory.
pub const DATA_DIR_VAR: &str = "QCHESS_DATA_DIR";

/// The configuration file's name inside the configuration directory.
pub const CONFIG_FILE: &str = "config.toml";

/// The folder of user themes inside the configuration directory.
pub const THEMES_DIR: &str = "themes";

/// The configuration directory: `$QCHESS_CONFIG_DIR` when set, else the platform's
/// (`~/.config/qchess` on Linux, `~/Library/Application Support/qchess` on macOS,
/// `%APPDATA%\qchess\config` on Windows).
pub fn config_dir() -> Result<PathBuf, ConfigError> {
    config_dir_in(|k| std::env::var_os(k))
}

/// The data directory: `$QCHESS_DATA_DIR` when set, else the platform's
/// (`~/.local/share/qchess` on Linux, `~/Library/Application Support/qchess` on macOS,
/// `%APPDATA%\qchess\data` on Windows).
pub fn data_dir() -> Result<PathBuf, ConfigError> {
    data_dir_in(|k| std::env::var_os(k))
}

/// [`config_dir`] with the environment read through `var`.
pub fn config_dir_in(var: impl Fn(&str) -> Option<OsString>) -> Result<PathBuf, ConfigError> {
    pick(var, CONFIG_DIR_VAR, ProjectDirs::config_dir)
}

/// [`data_dir`] with the environment read through `var`.
pub fn data_dir_in(var: impl Fn(&str) -> Option<OsString>) -> Result<PathBuf, ConfigError> {
    pick(var, DATA_DIR_VAR, ProjectDirs::data_dir)
}

fn pick(
    var: impl Fn(&str) -> Option<OsString>,
    name: &'static str,
    platform: fn(&ProjectDirs) -> &Path,
) -> Result<PathBuf, ConfigError> {
    let (dir, from_var) = match var(name) {
        Some(dir) if !dir.is_empty() => (PathBuf::from(dir), true),
        _ => (
            ProjectDirs::from("", "", "qchess")
                .map(|p| platform(&p).to_path_buf())
                .ok_or(ConfigError::NoHome(name))?,
            false,
        ),
    };
    // A missing directory is made when something is written; anything else in its place
    // would fail later with a puzzling "not a directory" on a file inside it.
    match std::fs::metadata(&dir) {
        Ok(m) if !m.is_dir() => Err(ConfigError::NotADirectory {
            path: dir,
            var: from_var.then_some(name),
        }),
        _ => Ok(dir),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_replace_the_platform_directories() {
        let var = |k: &str| match k {
            CONFIG_DIR_VAR => Some(OsString::from("/tmp/qc-conf")),
            DATA_DIR_VAR => Some(OsString::from("/tmp/qc-data")),
            _ => None,
        };
        assert_eq!(config_dir_in(var).unwrap(), PathBuf::from("/tmp/qc-conf"));
        assert_eq!(data_dir_in(var).unwrap(), PathBuf::from("/tmp/qc-data"));
    }

    #[test]
    fn a_variable_naming_a_file_says_so() {
        let file = std::env::temp_dir().join(format!("qchess-dirs-{}", std::process::id()));
        std::fs::write(&file, "").unwrap();
        let var = |k: &str| (k == CONFIG_DIR_VAR).then(|| file.clone().into_os_string());
        let e = config_dir_in(var).unwrap_err().to_string();
        let _ = std::fs::remove_file(&file);
        assert!(e.contains("QCHESS_CONFIG_DIR"), "{e}");
        assert!(e.contains("is a file, not a directory"), "{e}");
    }

    #[test]
    fn an_empty_variable_counts_as_unset() {
        let empty = |_: &str| Some(OsString::new());
        let unset = |_: &str| None;
        // Both fall back to the platform directory (or both fail without a home).
        assert_eq!(
            config_dir_in(empty).ok(),
            config_dir_in(unset).ok(),
            "empty QCHESS_CONFIG_DIR"
        );
        if let Ok(dir) = config_dir_in(unset) {
            assert!(
                dir.ends_with("qchess") || dir.ends_with("config"),
                "{dir:?}"
            );
        }
    }
}
