//! Opening a game as `qchess play` asks: a new one, a saved one to play on, the newest
//! autosave, or a saved game to step through; apart from the terminal loop, so that the
//! server and tests open games the same way.

use super::app::App;
use super::opponent::{Computer, Sides};
use super::terminal::NoTerminal;
use crate::chess::fen::FenError;
use crate::chess::Color;
use crate::config::{ConfigError, Notation, Pieces, PlayFlags, Settings};
use crate::game::{CancelFlag, RuleSet, Setup};
use crate::quantum::SimulatorSettings;
use crate::record::{RecordError, Recorder};
use crate::seats::Occupants;
use crate::style::color::{ColorChoice, Paint};
use crate::style::theme::Theme;
use crate::uqci::client::UqciPlayer;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How `qchess play` was asked to start ([`PlayOptions::configured`] fills it from the
/// command line and `config.toml`).
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// Start position (default: the standard one).
    pub fen: Option<String>,
    /// The simulator's backend and its size limits.
    pub simulator: SimulatorSettings,
    /// Seed of the random outcomes (default: from the clock).
    pub seed: Option<u64>,
    /// Letters instead of chess glyphs.
    pub ascii: bool,
    /// Ordinary moves in the history in squares (`e1g1`) rather than SAN (`O-O`).
    pub coordinates: bool,
    /// Colour tier, or detection.
    pub color: ColorChoice,
    /// Colours of the panes.
    pub theme: Theme,
    /// What to open: a new game, a saved one, the last autosave, or a replay.
    pub open: Open,
    /// The data directory (autosaves, saves); `None` when there is none.
    pub data_dir: Option<PathBuf>,
    /// Save the game in progress after every move (off by default here, so that programs
    /// and tests write nothing; `config.toml` turns it on for players).
    pub autosave: bool,
    /// Who plays each side of a new game (a saved game names its own).
    pub occupants: Occupants,
    /// The rule system of a new game.
    pub variant: RuleSet,
    /// Capture the mouse (clicks and the wheel go to the game; terminal text selection
    /// then needs Shift in most terminals).
    pub mouse: bool,
    /// For a new game: first offer to resume the newest autosave when it holds an
    /// unfinished game (plain `qchess`; off by default, so programs and tests get the
    /// game they asked for).
    pub offer_resume: bool,
    /// The level hints search at (and the computer's, where `--engine` gives none).
    pub engine_level: u8,
    /// The external UQCI engine the player gave (`--engine-cmd`, `engine_cmd`): its
    /// command line. A side named after it ("uqci: CMD") is played by it.
    pub engine_cmd: Option<String>,
    /// How long the external engine thinks per move.
    pub engine_movetime: Duration,
    /// A new game's time control (a saved game keeps its own).
    pub clock: Option<crate::game::clock::TimeControl>,
    /// Which game of a saved game file to open (from 1; `--game`); the first when
    /// `None`.
    pub game: Option<usize>,
    /// Ask before a move that leaves the player's safe king capturable (off by default
    /// here, so programs and tests get the moves they give; `config.toml` turns it on
    /// for players).
    pub ask_king_danger: bool,
}

impl PlayOptions {
    /// The options of a game started with `flags` under `settings`: each setting from
    /// the command line if it gives one, else from the file, else the default.
    pub fn configured(settings: &Settings, flags: PlayFlags) -> Result<PlayOptions, ConfigError> {
        let c = settings.config.overlay(&flags);
        Ok(PlayOptions {
            fen: flags.fen,
            simulator: c.simulator,
            seed: flags.seed,
            ascii: c.pieces == Pieces::Ascii,
            coordinates: c.notation == Notation::Coordinates,
            color: c.color,
            theme: settings.themes.theme(&c.theme)?,
            autosave: c.autosave,
            mouse: c.mouse,
            engine_level: c.engine_level,
            engine_cmd: Some(c.engine_cmd.trim().to_string()).filter(|c| !c.is_empty()),
            ask_king_danger: c.ask_king_danger,
            ..PlayOptions::default()
        })
    }

    /// [`PlayOptions::configured`] under this user's `config.toml`.
    pub fn for_this_user(flags: PlayFlags) -> Result<PlayOptions, ConfigError> {
        PlayOptions::configured(&Settings::for_this_user()?, flags)
    }
}

impl Default for PlayOptions {
    fn default() -> Self {
        PlayOptions {
            fen: None,
            simulator: SimulatorSettings::default(),
            seed: None,
            ascii: false,
            coordinates: false,
            color: ColorChoice::default(),
            theme: Theme::default(),
            open: Open::New,
            data_dir: None,
            autosave: false,
            occupants: Occupants::default(),
            variant: RuleSet::Quantum,
            mouse: true,
            offer_resume: false,
            engine_level: crate::engine::level::DEFAULT_LEVEL,
            engine_cmd: None,
            engine_movetime: crate::uqci::client::DEFAULT_MOVETIME,
            clock: None,
            game: None,
            ask_king_danger: false,
        }
    }
}

/// What `qchess play` opens.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Open {
    /// A new game.
    #[default]
    New,
    /// A saved game, to play on.
    Load(PathBuf),
    /// The most recent autosave, to play on (autosave goes on into the same file).
    Resume,
    /// A saved game, to step through.
    Replay(PathBuf),
}

/// Why the game could not run.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The start position is not valid FEN.
    #[error("{0}")]
    Fen(#[from] FenError),
    /// The terminal failed.
    #[error("terminal: {0}")]
    Io(#[from] io::Error),
    /// A saved game failed to load.
    #[error("{0}")]
    Record(#[from] RecordError),
    /// The game could not be set up (a start the rule system refuses).
    #[error("{0}")]
    Start(#[from] crate::game::PlayError),
    /// `qchess resume` found nothing to resume.
    #[error("no autosaved game to resume{0}")]
    NoAutosave(String),
    /// Standard input or output is not a terminal.
    #[error("{0}")]
    NoTerminal(#[from] NoTerminal),
}

/// Opens what `opts` ask for: a new game, a saved one to play on, the newest autosave, or
/// a saved game to step through. Errors name the file and what is wrong.
pub fn open(opts: &PlayOptions) -> Result<Box<App>, OpenError> {
    open_watched(opts, None)
}

/// [`open`], with the replay of a saved game stopped once `cancel` is set (an error that
/// names the ply); the game opened watches no flag.
pub fn open_watched(opts: &PlayOptions, cancel: Option<CancelFlag>) -> Result<Box<App>, OpenError> {
    let seed = opts.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let tier = opts.color.resolve(|k| std::env::var(k).ok());
    let paint = Paint::new(opts.theme.clone(), tier).with_coordinates(opts.coordinates);
    let recorder = Recorder::new(
        opts.data_dir.clone(),
        opts.autosave,
        opts.occupants.players(),
        crate::record::now_secs(),
    );
    // Newer autosaves `qchess resume` passed over (in brief, for the message line).
    let mut skipped = String::new();
    let file = match &opts.open {
        Open::New => None,
        Open::Load(path) | Open::Replay(path) => {
            Some((path.clone(), crate::record::load_game(path, opts.game)?))
        }
        Open::Resume => {
            let dir = opts.data_dir.as_deref();
            let search = dir.map(crate::record::newest_resumable).unwrap_or_default();
            skipped = search.skipped_brief();
            let Some(found) = search.found else {
                let mut where_ = dir.map_or(String::new(), |d| {
                    format!(" in {}", crate::record::autosave_dir(d).display())
                });
                if !search.skipped.is_empty() {
                    where_ += &format!(" (passed over: {})", search.skipped_line());
                }
                return Err(OpenError::NoAutosave(where_));
            };
            Some(found)
        }
    };
    let replay = matches!(opts.open, Open::Replay(_));
    let recorder = match &file {
        None => recorder,
        Some((path, saved)) => {
            let r = Recorder {
                players: saved.players.clone(),
                tags: saved.tags.clone(),
                ..recorder
            };
            match opts.open {
                Open::Resume => r.resuming(path.clone(), &saved.date)?,
                Open::Replay(_) => Recorder {
                    date: saved.date.clone(),
                    ..r
                },
                _ => r,
            }
        }
    };
    // Who the computer plays: `--engine` seated it at its side; a saved game keeps the
    // players' names, so a resumed game hands that side back to it (an external
    // engine's side only when the player gave that engine again).
    let external = opts
        .engine_cmd
        .as_deref()
        .map(|command| UqciPlayer::new(command, opts.engine_movetime));
    let occupants = match &file {
        Some((_, saved)) => Occupants::of_players(&saved.players),
        None => opts.occupants.clone(),
    };
    let computer = Computer::new(Sides::of_occupants(&occupants, external.as_ref()), seed)
        .with_hint_level(opts.engine_level);
    let unclaimed = Sides::unclaimed(&occupants, external.as_ref());
    let verb = if opts.open == Open::Resume {
        "resumed"
    } else {
        "loaded"
    };
    let rules = match &file {
        Some((path, saved)) => saved.rules(path)?,
        None => opts.variant,
    };
    let game = match &file {
        None => {
            let mut setup = Setup::new(rules, seed);
            setup.start = opts.fen.clone();
            setup.options.simulator = opts.simulator;
            crate::variants::new_game(&setup)?
        }
        Some((path, saved)) => {
            let mut game = saved.replay(path, Some(opts.simulator), cancel)?;
            game.set_cancel(None);
            game
        }
    };
    let said = file.as_ref().map(|(path, _)| {
        let said = opened(verb, path, game.ply(), game.to_move(), &skipped);
        with_unclaimed(said, unclaimed.as_deref())
    });
    let app = App::new(game, paint, opts.ascii)
        .with_recorder(recorder)
        .with_occupants(occupants)
        .with_king_question(opts.ask_king_danger);
    // A saved game's clock and how it ended outside the rules come with it.
    let (clock, ending) = match &file {
        Some((path, saved)) => {
            let control = match &saved.clock {
                Some(c) => Some((c.time_control(path)?, Some(c.clone()))),
                None => None,
            };
            (control, saved.ending())
        }
        None => (opts.clock.map(|c| (c, None)), None),
    };
    let app = app.with_ending(ending);
    let app = match (said, file) {
        (None, _) => app,
        (Some(_), Some((path, saved))) if replay => {
            app.into_replay().with_review(path, saved.review)
        }
        (Some(said), _) => app.announce(said),
    };
    let app = app.with_computer(computer);
    let app = match clock {
        Some((control, saved)) => app.with_clock(control, saved),
        None => app,
    };
    Ok(Box::new(app))
}

/// The message after opening a saved game: which file (an autosave by its name alone:
/// the folder is the autosave folder), at which ply, and the newer autosaves passed over
/// (for `resume`), what matters first so that it reads at 80 columns.
fn opened(verb: &str, path: &Path, ply: usize, to_move: Color, skipped: &str) -> String {
    let shown = match (verb, path.file_name()) {
        ("resumed", Some(name)) => name.to_string_lossy().into_owned(),
        _ => path.display().to_string(),
    };
    let mut said = format!("{verb} {shown} at ply {ply}: {} to move", to_move.name());
    if !skipped.is_empty() {
        said += &format!("; passed over newer {skipped}");
    }
    said
}

/// The opening message, then which external engine's side is played by hand.
fn with_unclaimed(said: String, unclaimed: Option<&str>) -> String {
    match unclaimed {
        Some(why) => format!("{said}. {why}"),
        None => said,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::settings::tests::file_config;
    use crate::config::{Catalogue, Config, Pieces};
    use crate::quantum::{BackendKind, SimulatorOverrides};
    use crate::style::color::Tier;
    use crate::style::theme::Rgb;

    fn settings(config: Config) -> Settings {
        Settings {
            config,
            themes: Catalogue::built_in(),
        }
    }

    #[test]
    fn play_options_follow_flags_then_file_then_defaults() {
        let defaults =
            PlayOptions::configured(&settings(Config::default()), PlayFlags::default()).unwrap();
        assert!(!defaults.ascii);
        assert!(!defaults.coordinates, "SAN");
        assert_eq!(defaults.color, ColorChoice::Auto);
        assert_eq!(defaults.theme, Theme::default());
        assert!(defaults.autosave);
        assert!(defaults.mouse);
        assert_eq!(
            defaults.simulator,
            SimulatorSettings {
                backend: BackendKind::Sparse,
                dense_limit_log2: crate::quantum::DEFAULT_DENSE_LIMIT_LOG2,
                sparse_limit: crate::quantum::DEFAULT_SPARSE_LIMIT,
            }
        );
        assert_eq!(defaults.engine_cmd, None, "qchess's own engine");
        assert!(defaults.ask_king_danger, "players are asked");

        let s = settings(file_config());
        let from_file = PlayOptions::configured(&s, PlayFlags::default()).unwrap();
        assert_eq!(
            from_file.simulator,
            SimulatorSettings {
                backend: BackendKind::Dense,
                dense_limit_log2: 20,
                sparse_limit: 5000,
            }
        );
        assert!(from_file.ascii);
        assert!(from_file.coordinates);
        assert_eq!(from_file.color, ColorChoice::Fixed(Tier::Ansi16));
        assert_eq!(
            from_file.theme,
            Catalogue::built_in().theme("dark").unwrap()
        );
        assert!(!from_file.autosave);
        assert!(!from_file.mouse);
        assert_eq!(from_file.engine_level, 2);
        assert_eq!(from_file.engine_cmd.as_deref(), Some("file-engine --uqci"));
        assert!(!from_file.ask_king_danger);

        let flags = PlayFlags {
            fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
            seed: Some(7),
            simulator: SimulatorOverrides {
                backend: Some(BackendKind::Sparse),
                dense_limit_log2: Some(12),
                sparse_limit: Some(99),
            },
            theme: Some("mono".into()),
            pieces: Some(Pieces::Unicode),
            color: Some(ColorChoice::Fixed(Tier::None)),
            mouse: Some(true),
            engine_level: Some(1),
            engine_cmd: Some(" ".into()),
        };
        let from_flags = PlayOptions::configured(&s, flags.clone()).unwrap();
        assert_eq!(from_flags.fen, flags.fen);
        assert_eq!(from_flags.seed, Some(7));
        assert_eq!(
            from_flags.simulator,
            SimulatorSettings {
                backend: BackendKind::Sparse,
                dense_limit_log2: 12,
                sparse_limit: 99,
            }
        );
        assert!(!from_flags.ascii);
        assert_eq!(from_flags.color, ColorChoice::Fixed(Tier::None));
        assert_eq!(from_flags.theme.light_square, Rgb(0xaa, 0x55, 0x00));
        assert!(from_flags.mouse);
        assert_eq!(from_flags.engine_level, 1);
        assert_eq!(
            from_flags.engine_cmd, None,
            "a blank command is qchess's own engine"
        );
    }

    #[test]
    fn an_unknown_theme_flag_lists_the_choices() {
        let flags = PlayFlags {
            theme: Some("neon".into()),
            ..PlayFlags::default()
        };
        let e = PlayOptions::configured(&settings(Config::default()), flags)
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown theme \"neon\""), "{e}");
        assert!(e.contains("classic, dark, high-contrast, mono"), "{e}");
    }
}
