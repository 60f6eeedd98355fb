//! How `qchess play` starts: the command line over `config.toml` over the defaults.

use super::dirs::{config_dir, CONFIG_FILE, THEMES_DIR};
use super::file::{Config, Notation, Pieces};
use super::located::FileError;
use super::themes::Catalogue;
use super::ConfigError;
use crate::quantum::BackendKind;
use crate::ui::color::ColorChoice;
use crate::ui::PlayOptions;
use std::path::Path;

/// What the command line of `qchess play` says; `None` where it says nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayFlags {
    /// Start position as FEN.
    pub fen: Option<String>,
    /// Seed of the random outcomes.
    pub seed: Option<u64>,
    /// `--backend`.
    pub backend: Option<BackendKind>,
    /// `--theme`.
    pub theme: Option<String>,
    /// `--ascii` or `--unicode`.
    pub pieces: Option<Pieces>,
    /// `--color`.
    pub color: Option<ColorChoice>,
    /// `--dense-limit`.
    pub dense_limit_log2: Option<u32>,
    /// `--sparse-limit`.
    pub sparse_limit: Option<usize>,
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
            backend: flags.backend.unwrap_or(self.backend),
            theme: flags.theme.clone().unwrap_or_else(|| self.theme.clone()),
            pieces: flags.pieces.unwrap_or(self.pieces),
            notation: self.notation,
            color: flags.color.unwrap_or(self.color),
            autosave: self.autosave,
            dense_limit_log2: flags.dense_limit_log2.unwrap_or(self.dense_limit_log2),
            sparse_limit: flags.sparse_limit.unwrap_or(self.sparse_limit),
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

    /// The options of a game started with `flags`: each setting from the command line
    /// if it gives one, else from the file, else the default.
    pub fn play_options(&self, flags: PlayFlags) -> Result<PlayOptions, ConfigError> {
        let c = self.config.overlay(&flags);
        Ok(PlayOptions {
            fen: flags.fen,
            backend: c.backend,
            seed: flags.seed,
            ascii: c.pieces == Pieces::Ascii,
            coordinates: c.notation == Notation::Coordinates,
            color: c.color,
            theme: self.themes.theme(&c.theme)?,
            autosave: c.autosave,
            dense_limit_log2: c.dense_limit_log2,
            sparse_limit: c.sparse_limit,
            mouse: c.mouse,
            engine_level: c.engine_level,
            engine_cmd: Some(c.engine_cmd.trim().to_string()).filter(|c| !c.is_empty()),
            ask_king_danger: c.ask_king_danger,
            ..PlayOptions::default()
        })
    }
}

/// [`Settings::play_options`] for the configuration directory of this user.
pub fn play_options(flags: PlayFlags) -> Result<PlayOptions, ConfigError> {
    Settings::load(&config_dir()?)?.play_options(flags)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::color::Tier;
    use crate::ui::theme::{Rgb, Theme};

    fn file_config() -> Config {
        Config {
            backend: BackendKind::Dense,
            theme: "dark".into(),
            pieces: Pieces::Ascii,
            notation: Notation::Coordinates,
            color: ColorChoice::Fixed(Tier::Ansi16),
            autosave: false,
            dense_limit_log2: 20,
            sparse_limit: 5000,
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
                backend: Some(BackendKind::Sparse),
                ..none.clone()
            },
            Config {
                backend: BackendKind::Sparse,
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
                dense_limit_log2: Some(30),
                ..none.clone()
            },
            Config {
                dense_limit_log2: 30,
                ..file.clone()
            },
        );
        check(
            PlayFlags {
                sparse_limit: Some(77),
                ..none.clone()
            },
            Config {
                sparse_limit: 77,
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

    fn settings(config: Config) -> Settings {
        Settings {
            config,
            themes: Catalogue::built_in(),
        }
    }

    #[test]
    fn play_options_follow_flags_then_file_then_defaults() {
        let defaults = settings(Config::default())
            .play_options(PlayFlags::default())
            .unwrap();
        assert_eq!(defaults.backend, BackendKind::Sparse);
        assert!(!defaults.ascii);
        assert!(!defaults.coordinates, "SAN");
        assert_eq!(defaults.color, ColorChoice::Auto);
        assert_eq!(defaults.theme, Theme::default());
        assert!(defaults.autosave);
        assert!(defaults.mouse);
        assert_eq!(
            defaults.dense_limit_log2,
            crate::quantum::DEFAULT_DENSE_LIMIT_LOG2
        );
        assert_eq!(defaults.sparse_limit, crate::quantum::DEFAULT_SPARSE_LIMIT);
        assert_eq!(defaults.engine_cmd, None, "qchess's own engine");
        assert!(defaults.ask_king_danger, "players are asked");

        let s = settings(file_config());
        let from_file = s.play_options(PlayFlags::default()).unwrap();
        assert_eq!(from_file.backend, BackendKind::Dense);
        assert!(from_file.ascii);
        assert!(from_file.coordinates);
        assert_eq!(from_file.color, ColorChoice::Fixed(Tier::Ansi16));
        assert_eq!(
            from_file.theme,
            Catalogue::built_in().theme("dark").unwrap()
        );
        assert!(!from_file.autosave);
        assert!(!from_file.mouse);
        assert_eq!(from_file.dense_limit_log2, 20);
        assert_eq!(from_file.sparse_limit, 5000);
        assert_eq!(from_file.engine_level, 2);
        assert_eq!(from_file.engine_cmd.as_deref(), Some("file-engine --uqci"));
        assert!(!from_file.ask_king_danger);

        let flags = PlayFlags {
            fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
            seed: Some(7),
            backend: Some(BackendKind::Sparse),
            theme: Some("mono".into()),
            pieces: Some(Pieces::Unicode),
            color: Some(ColorChoice::Fixed(Tier::None)),
            dense_limit_log2: Some(12),
            sparse_limit: Some(99),
            mouse: Some(true),
            engine_level: Some(1),
            engine_cmd: Some(" ".into()),
        };
        let from_flags = s.play_options(flags.clone()).unwrap();
        assert_eq!(from_flags.fen, flags.fen);
        assert_eq!(from_flags.seed, Some(7));
        assert_eq!(from_flags.backend, BackendKind::Sparse);
        assert!(!from_flags.ascii);
        assert_eq!(from_flags.color, ColorChoice::Fixed(Tier::None));
        assert_eq!(from_flags.theme.light_square, Rgb(0xaa, 0x55, 0x00));
        assert_eq!(from_flags.dense_limit_log2, 12);
        assert_eq!(from_flags.sparse_limit, 99);
        assert!(from_flags.mouse);
        assert_eq!(from_flags.engine_level, 1);
        assert_eq!(
            from_flags.engine_cmd, None,
            "a blank command is qchess's own engine"
        );
    }

    #[test]
    fn an_unknown_theme_flag_lists_the_choices() {
        let e = settings(Config::default())
            .play_options(PlayFlags {
                theme: Some("neon".into()),
                ..PlayFlags::default()
            })
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown theme \"neon\""), "{e}");
        assert!(e.contains("classic, dark, high-contrast, mono"), "{e}");
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
