//! The terminal side: setup and restore (on quit, error, panic, SIGTERM and SIGHUP) and
//! the event loop, which sleeps in the kernel until a key, a resize or a signal comes.

use super::app::App;
use super::color::{ColorChoice, Paint};
use super::theme::Theme;
use super::variant::VariantApp;
use crate::chess::fen::{FenError, START_FEN};
use crate::chess::Color;
use crate::chess::{Game, GameOptions};
use crate::quantum::BackendKind;
use crate::record::{Players, RecordError, Recorder};
use crate::variants::{RuleSet, VariantError};
use crossterm::cursor::Show;
use crossterm::event::{self, Event, KeyEvent, KeyEventKind};
use crossterm::execute;
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::backend::CrosstermBackend;
use ratatui::{Frame, Terminal};
use std::io::{self, stdout, Stdout};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How `qchess play` was asked to start ([`crate::config::Settings::play_options`]
/// fills it from the command line and `config.toml`).
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// Start position (default: the standard one).
    pub fen: Option<String>,
    /// Simulator backend.
    pub backend: BackendKind,
    /// Seed of the random outcomes (default: from the clock).
    pub seed: Option<u64>,
    /// Letters instead of chess glyphs.
    pub ascii: bool,
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
    /// The players' names.
    pub players: Players,
    /// Dense backend size limit, log2 of the number of amplitudes.
    pub dense_limit_log2: u32,
    /// The rule system of a new game.
    pub variant: RuleSet,
}

impl Default for PlayOptions {
    fn default() -> Self {
        PlayOptions {
            fen: None,
            backend: BackendKind::default(),
            seed: None,
            ascii: false,
            color: ColorChoice::default(),
            theme: Theme::default(),
            open: Open::New,
            data_dir: None,
            autosave: false,
            players: Players::default(),
            dense_limit_log2: crate::quantum::DEFAULT_DENSE_LIMIT_LOG2,
            variant: RuleSet::Quantum,
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
pub enum PlayError {
    /// The start position is not valid FEN.
    #[error("{0}")]
    Fen(#[from] FenError),
    /// The terminal failed.
    #[error("terminal: {0}")]
    Io(#[from] io::Error),
    /// A saved game failed to load.
    #[error("{0}")]
    Record(#[from] RecordError),
    /// The variant game could not start.
    #[error("{0}")]
    Variant(#[from] VariantError),
    /// `qchess resume` found nothing to resume.
    #[error("no autosaved game to resume{0}")]
    NoAutosave(String),
}

/// How the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The player quit.
    Quit,
    /// A signal (SIGTERM or SIGHUP) with this number stopped it.
    Signal(i32),
}

/// How often the loop wakes up without input to look for SIGTERM/SIGHUP: the only
/// wake-ups while idle (crossterm's poll sleeps in the kernel until then).
const SIGNAL_CHECK: Duration = Duration::from_millis(500);

/// What a set of options opens: a Quantum Chess game or one under another rule system.
pub enum Opened {
    /// Quantum Chess.
    Quantum(Box<App>),
    /// Harmonics or haft.
    Variant(Box<VariantApp>),
}

/// Opens what `opts` ask for: a new game, a saved one to play on, the newest autosave, or
/// a saved game to step through. Errors name the file and what is wrong.
pub fn open(opts: &PlayOptions) -> Result<Opened, PlayError> {
    let seed = opts.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let tier = opts.color.resolve(|k| std::env::var(k).ok());
    let paint = Paint::new(opts.theme.clone(), tier);
    let recorder = Recorder::new(
        opts.data_dir.clone(),
        opts.autosave,
        opts.players.clone(),
        crate::record::now_secs(),
    );
    // Newer autosaves `qchess resume` passed over, and why.
    let mut skipped = String::new();
    let file = match &opts.open {
        Open::New => None,
        Open::Load(path) | Open::Replay(path) => Some((path.clone(), crate::record::load(path)?)),
        Open::Resume => {
            let dir = opts.data_dir.as_deref();
            let search = dir.map(crate::record::newest_resumable).unwrap_or_default();
            skipped = search.skipped_line();
            let Some(found) = search.found else {
                let mut where_ = dir.map_or(String::new(), |d| {
                    format!(" in {}", crate::record::autosave_dir(d).display())
                });
                if !skipped.is_empty() {
                    where_ += &format!(" (passed over: {skipped})");
                }
                return Err(PlayError::NoAutosave(where_));
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
    let verb = if opts.open == Open::Resume {
        "resumed"
    } else {
        "loaded"
    };
    let rules = match &file {
        Some((path, saved)) => saved.rules(path)?,
        None => opts.variant,
    };
    if rules == RuleSet::Quantum {
        let game_opts = GameOptions {
            backend: opts.backend,
            seed,
            dense_limit_log2: opts.dense_limit_log2,
            ..GameOptions::default()
        };
        let app = match &file {
            None => {
                let game = Game::from_fen(opts.fen.as_deref().unwrap_or(START_FEN), game_opts)?;
                App::new(game, paint, opts.ascii).with_recorder(recorder)
            }
            Some((path, saved)) => {
                let game = saved.replay_quantum(path, Some(opts.backend), opts.dense_limit_log2)?;
                let app = App::new(game.clone(), paint, opts.ascii).with_recorder(recorder);
                if replay {
                    app.into_replay(game)
                } else {
                    let said = opened(verb, path, game.ply(), game.to_move(), &skipped);
                    app.announce(said)
                }
            }
        };
        return Ok(Opened::Quantum(Box::new(app)));
    }
    let (fen, seed) = match &file {
        Some((_, saved)) => (saved.start.clone(), saved.seed),
        None => (opts.fen.clone(), seed),
    };
    let game = crate::variants::new_game(rules, fen.as_deref(), seed)?;
    let app = VariantApp::new(game, fen, seed, paint, opts.ascii).with_recorder(recorder);
    let app = match &file {
        None => app,
        Some((path, saved)) => {
            let app = app
                .with_moves(&saved.moves)
                .map_err(|(ply, reason)| RecordError::Move {
                    path: path.clone(),
                    ply,
                    text: saved.moves[ply - 1].clone(),
                    reason,
                })?;
            if replay {
                app.into_replay()
            } else {
                let g = app.game();
                let said = opened(verb, path, g.history().len(), g.to_move(), &skipped);
                app.announce(said)
            }
        }
    };
    Ok(Opened::Variant(Box::new(app)))
}

/// The message after opening a saved game: which file, at which ply, and the newer
/// autosaves passed over (for `resume`).
fn opened(verb: &str, path: &Path, ply: usize, to_move: Color, skipped: &str) -> String {
    let mut said = format!(
        "{verb} {} at ply {ply}: {} to move",
        path.display(),
        to_move.name()
    );
    if !skipped.is_empty() {
        said += &format!("; passed over newer {skipped}");
    }
    said
}

/// Something the terminal loop can show and drive: the quantum game, a variant, the
/// Skat lab.
pub trait Screen {
    /// Draws the whole screen.
    fn draw(&self, f: &mut Frame);
    /// Reacts to one key press.
    fn handle_key(&mut self, key: KeyEvent);
    /// Whether the player asked to leave.
    fn should_quit(&self) -> bool;
}

impl Screen for App {
    fn draw(&self, f: &mut Frame) {
        super::draw(f, self)
    }
    fn handle_key(&mut self, key: KeyEvent) {
        App::handle_key(self, key)
    }
    fn should_quit(&self) -> bool {
        App::should_quit(self)
    }
}

impl Screen for super::variant::VariantApp {
    fn draw(&self, f: &mut Frame) {
        super::variant_panes::draw(f, self)
    }
    fn handle_key(&mut self, key: KeyEvent) {
        super::variant::VariantApp::handle_key(self, key)
    }
    fn should_quit(&self) -> bool {
        super::variant::VariantApp::should_quit(self)
    }
}

/// Runs the game in the terminal until the player quits or a signal stops it. The
/// terminal is given back in its normal state on every way out.
pub fn run(opts: PlayOptions) -> Result<Ended, PlayError> {
    Ok(match open(&opts)? {
        Opened::Quantum(mut app) => run_screen(app.as_mut())?,
        Opened::Variant(mut app) => run_screen(app.as_mut())?,
    })
}

/// Runs any [`Screen`] in the terminal until it quits or SIGTERM/SIGHUP stops it. The
/// terminal is given back in its normal state on every way out, panics included.
pub fn run_screen(screen: &mut impl Screen) -> io::Result<Ended> {
    let signal = Arc::new(AtomicUsize::new(0));
    let sigs = [signal_hook::consts::SIGTERM, signal_hook::consts::SIGHUP];
    for sig in sigs {
        signal_hook::flag::register_usize(sig, Arc::clone(&signal), sig as usize)?;
    }
    watch_signals(&sigs)?;
    install_panic_hook();
    let mut terminal = setup()?;
    let result = event_loop(&mut terminal, screen, &signal);
    restore();
    result
}

/// How long the event loop gets to notice a signal before the watchdog ends the process.
const SIGNAL_GRACE: Duration = Duration::from_millis(1500);

/// Ends the process shortly after SIGTERM or SIGHUP even when the event loop cannot see
/// the flag: after a dropped connection (SIGHUP) the terminal reads return end-of-file
/// and crossterm keeps reading without returning. The game is autosaved after every
/// move, so nothing is lost; the terminal is restored as far as it still exists.
fn watch_signals(sigs: &[i32]) -> io::Result<()> {
    let mut signals = signal_hook::iterator::Signals::new(sigs)?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(sig) = signals.forever().next() {
                std::thread::sleep(SIGNAL_GRACE);
                restore();
                std::process::exit(128 + sig);
            }
        })?;
    Ok(())
}

fn setup() -> io::Result<Terminal<CrosstermBackend<Stdout>>> {
    enable_raw_mode()?;
    let t = execute!(stdout(), EnterAlternateScreen)
        .and_then(|_| Terminal::new(CrosstermBackend::new(stdout())));
    if t.is_err() {
        restore();
    }
    t
}

/// Puts the terminal back: raw mode off, main screen, cursor shown. Safe to call more
/// than once.
pub fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(stdout(), LeaveAlternateScreen, Show);
}

/// Restores the terminal before the default panic message is printed.
fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
}

fn event_loop(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    screen: &mut impl Screen,
    signal: &AtomicUsize,
) -> io::Result<Ended> {
    terminal.draw(|f| screen.draw(f))?;
    loop {
        let sig = signal.load(Ordering::Relaxed);
        if sig != 0 {
            return Ok(Ended::Signal(sig as i32));
        }
        if !event::poll(SIGNAL_CHECK)? {
            continue;
        }
        match event::read()? {
            Event::Key(k) if k.kind != KeyEventKind::Release => screen.handle_key(k),
            Event::Resize(..) => {}
            _ => continue,
        }
        if screen.should_quit() {
            return Ok(Ended::Quit);
        }
        terminal.draw(|f| screen.draw(f))?;
    }
}
