//! How `qchess play` starts: the command line over `config.toml` over the defaults.

use super::dirs::{config_dir, CONFIG_FILE, THEMES_DIR};
use super::file::{Config, Pieces};
use super::themes::Catalogue;
use super::ConfigError;
use crate::files::FileError;
use crate::quantum::SimulatorOverrides;
use crate::style::color::ColorChoice;
use std::path::Path;

/// What the command line of `qchess play` says; `None` where it says nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayFlags {
    /// Start position as FEN.
    pub fen: Option<String>,
    /// Seed of the random outcomes.
    pub seed: Option<u64>,
    /// `--backend`, `--dense-limit` and `--sparse-limit`.
    pub simulator: SimulatorOverrides,
    /// `--theme`.
    pub theme: Option<String>,
    /// `--ascii` or `--unicode`.
    pub pieces: Option<Pieces>,
    /// `--color`.
    pub color: Option<ColorChoice>,
    /// `--no-mouse` (`Some(false)`).
    pub mouse: Option<bool>,
    /// `--level`.
    pub engine_level: Option<u8>,
    /// `--engine-cmd` (empty: qchess's own engine).
    pub engine_cmd: Option<String>,
}

impl Config {
    /// This configuration with every setting the command line gives replaced by it.
    pub fn overlay(&self, flags: &PlayFlags) -> Config {
        Config {
            simulator: flags.simulator.over(self.simulator),
            theme: flags.theme.clone().unwrap_or_else(|| self.theme.clone()),
            pieces: flags.pieces.unwrap_or(self.pieces),
            notation: self.notation,
            color: flags.color.unwrap_or(self.color),
            autosave: self.autosave,
            mouse: flags.mouse.unwrap_or(self.mouse),
            engine_level: flags.engine_level.unwrap_or(self.engine_level),
            engine_cmd: flags
                .engine_cmd
                .clone()
                .unwrap_or_else(|| self.engine_cmd.clone()),
            ask_king_danger: self.ask_king_danger,
        }
    }
}

/// The configuration file as read, with the themes it may name.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The file's settings (the defaults without a file).
    pub config: Config,
    /// The built-in themes and the user's.
    pub themes: Catalogue,
}

impl Settings {
    /// Reads `config.toml` and lists the themes of the configuration directory `dir`. A
    /// theme the file names must exist.
    pub fn load(dir: &Path) -> Result<Settings, ConfigError> {
        let path = dir.join(CONFIG_FILE);
        let (config, text) = Config::load(&path)?;
        let themes = Catalogue::with_user_dir(&dir.join(THEMES_DIR))?;
        if let Err(e) = themes.find(&config.theme) {
            return Err(FileError::at_key(&path, &text, "theme", e.to_string()).into());
        }
        Ok(Settings { config, themes })
    }

    /// [`Settings::load`] from the configuration directory of this user.
    pub fn for_this_user() -> Result<Settings, ConfigError> {
        Settings::load(&config_dir()?)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::config::Notation;
    use crate::quantum::{BackendKind, SimulatorSettings};
    use crate::style::color::Tier;

    /// A configuration file that sets every key away from its default.
    pub(crate) fn file_config() -> Config {
        Config {
            simulator: SimulatorSettings {
                backend: BackendKind::Dense,
                dense_limit_log2: 20,
                sparse_limit: 5000,
            },
            theme: "dark".into(),
            pieces: Pieces::Ascii,
            notation: Notation::Coordinates,
            color: ColorChoice::Fixed(Tier::Ansi16),
            autosave: false,
            mouse: false,
            engine_level: 2,
            engine_cmd: "file-engine --uqci".into(),
            ask_king_danger: false,
        }
    }

    #[test]
    fn without_flags_the_file_decides() {
        assert_eq!(file_config().overlay(&PlayFlags::default()), file_config());
        assert_eq!(
            Config::default().overlay(&PlayFlags::default()),
            Config::default()
        );
    }

    #[test]
    fn flags_beat_the_file_one_by_one() {
        let file = file_config();
        let none = PlayFlags::default();
        let check = |flags: PlayFlags, want: Config| {
            assert_eq!(file.overlay(&flags), want, "{flags:?}");
        };
        check(
            PlayFlags {
                simulator: SimulatorOverrides {
                    backend: Some(BackendKind::Sparse),
                    ..Default::default()
                },
                ..none.clone()
            },
            Config {
                simulator: SimulatorSettings {
                    backend: BackendKind::Sparse,
                    ..file.simulator
                },
                ..file.clone()
            },
        );
        check(
            PlayFlags {
                theme: Some("mono".into()),
                ..none.clone()
            },
            Config {
                theme: "mono".into(),
                ..file.clone()
            },
        );
        check(
            PlayFlags {
                pieces: Some(Pieces::Unicode),
                ..none.clone()
            },
            Config {
                pieces: Pieces::Unicode,
                ..file.clone()
            },
        );
        check(
            PlayFlags {
                color: Some(ColorChoice::Auto),
                ..none.clone()
            },
            Config {
                color: ColorChoice::Auto,
                ..file.clone()
            },
        );
        check(
            PlayFlags {
                engine_level: Some(4),
                ..none.clone()
            },
            Config {
                engine_level: 4,
                ..file.clone()
            },
        );
        // An empty command on the command line means qchess's own engine.
        check(
            PlayFlags {
                engine_cmd: Some(String::new()),
                ..none.clone()
            },
            Config {
                engine_cmd: String::new(),
                ..file.clone()
            },
        );
        check(
            PlayFlags {
                mouse: Some(true),
                ..none.clone()
            },
            Config {
                mouse: true,
                ..file.clone()
            },
        );
        check(
            PlayFlags {
                simulator: SimulatorOverrides {
                    dense_limit_log2: Some(30),
                    ..Default::default()
                },
                ..none.clone()
            },
            Config {
                simulator: SimulatorSettings {
                    dense_limit_log2: 30,
                    ..file.simulator
                },
                ..file.clone()
            },
        );
        check(
            PlayFlags {
                simulator: SimulatorOverrides {
                    sparse_limit: Some(77),
                    ..Default::default()
                },
                ..none.clone()
            },
            Config {
                simulator: SimulatorSettings {
                    sparse_limit: 77,
                    ..file.simulator
                },
                ..file.clone()
            },
        );
        // Start position and seed come only from the command line.
        check(
            PlayFlags {
                fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
                seed: Some(3),
                ..none
            },
            file.clone(),
        );
    }

    #[test]
    fn an_unknown_theme_in_the_file_names_its_line() {
        let dir = std::env::temp_dir().join(format!("qchess-settings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(CONFIG_FILE), "autosave = true\ntheme = \"neon\"\n").unwrap();
        let e = Settings::load(&dir).unwrap_err().to_string();
        std::fs::remove_dir_all(&dir).unwrap();
        let want = format!(
            "{}, line 2, key `theme`: unknown theme \"neon\"",
            dir.join(CONFIG_FILE).display()
        );
        assert!(e.starts_with(&want), "{e}");
    }
}
