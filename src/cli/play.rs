//! `qchess play`, `qchess resume` and `qchess replay`: the terminal game's arguments,
//! read over config.toml and the defaults into the options of [`crate::ui::run`].

use crate::cli::{
    backend_flag, color_flag, level_flag, parse_clock_flag, parse_dense_limit, parse_game_number,
    parse_sparse_limit, theme_flag, variant_flag, ClockFlag, Done, Failure, Offered, Outcome,
};
use crate::config::{Pieces, PlayFlags};
use crate::game::clock::TimeControl;
use crate::game::RuleSet;
use crate::quantum::{BackendKind, SimulatorOverrides};
use crate::seats::strength::Strength;
use crate::seats::{Occupant, Occupants};
use crate::style::color::ColorChoice;
use crate::ui::open::Open;
use crate::ui::terminal::Ended;
use crate::ui::PlayOptions;
use crate::uqci::client::UqciPlayer;
use clap::Args;
use std::path::PathBuf;
use unicode_width::UnicodeWidthStr;

/// Options of the terminal game.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// Start position as FEN (default: the standard start).
    #[arg(long, conflicts_with = "load")]
    fen: Option<String>,
    /// Seed for the random outcomes of measurements (default: from the clock).
    #[arg(long, conflicts_with = "load")]
    seed: Option<u64>,
    /// Open a saved game and play on: qchess's TOML, or a PGN file (.pgn).
    #[arg(long, value_name = "FILE")]
    load: Option<PathBuf>,
    /// Which game of a PGN file with several to open (from 1; default the first).
    #[arg(long, value_name = "N", requires = "load", value_parser = parse_game_number)]
    game: Option<usize>,
    /// Rule system: quantum (Quantum Chess), harmonics or haft.
    #[arg(long, default_value = "quantum", value_parser = variant_flag(), conflicts_with = "load")]
    variant: RuleSet,
    /// White's name, kept in saved games.
    #[arg(long, value_name = "NAME", default_value = "White")]
    white: String,
    /// Black's name, kept in saved games.
    #[arg(long, value_name = "NAME", default_value = "Black")]
    black: String,
    /// The computer plays black, white or both (a game to watch: p pauses). Its name in
    /// saved games ("qchess level 3") hands it its side again on resume. In harmonics
    /// and haft the computer plays greedily (one ply, whatever the level).
    #[arg(long, value_name = "SIDE", value_parser = Offered::new(parse_side, &SIDES), conflicts_with = "load")]
    engine: Option<EngineSides>,
    /// The computer's level, 1 (weakest) to 5 (strongest), also the level of hints
    /// (H) (default: config.toml, else 3).
    #[arg(long, value_name = "N", value_parser = level_flag())]
    level: Option<u8>,
    /// The computer thinks this many milliseconds per move instead of playing a level
    /// (an external engine: 1000 unless given). With --load: the time of the external
    /// engine that plays the saved game's side again.
    #[arg(long, value_name = "MS", conflicts_with = "level",
          value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// A time control: MIN+INC, minutes each (fractions allowed) and seconds added
    /// after each move, e.g. 5+3 or 0.5+0; none (the default) plays without clocks. A
    /// player whose time runs out loses; the computer spends its time from its clock.
    #[arg(long, value_name = "MIN+INC", value_parser = parse_clock_flag, conflicts_with = "load")]
    clock: Option<ClockFlag>,
    #[command(flatten)]
    engine_cmd: EngineCmdArg,
    #[command(flatten)]
    display: DisplayArgs,
}

/// The external engine the player names.
#[derive(Args, Debug, Clone, Default)]
struct EngineCmdArg {
    /// An external UQCI engine plays the computer's side (--engine), run by this command
    /// line, e.g. "myengine --uqci"; "" for qchess's own engine (default: config.toml's
    /// engine_cmd, else qchess's own). A saved game's side that this command played
    /// goes back to it; a saved game alone never starts a program.
    #[arg(long = "engine-cmd", value_name = "CMD")]
    command: Option<String>,
}

/// Options of `qchess resume`.
#[derive(Args, Debug, Clone)]
pub struct ResumeArgs {
    #[command(flatten)]
    engine_cmd: EngineCmdArg,
    /// The external engine (--engine-cmd, or engine_cmd in config.toml) thinks this
    /// many milliseconds per move (default 1000).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    #[command(flatten)]
    display: DisplayArgs,
}

/// Options of `qchess replay`.
#[derive(Args, Debug, Clone)]
pub struct ReplayArgs {
    /// The saved game: qchess's TOML, or a PGN file (.pgn).
    file: PathBuf,
    /// Which game of a PGN file with several to replay (from 1; default the first).
    #[arg(long, value_name = "N", value_parser = parse_game_number)]
    game: Option<usize>,
    /// List the file's games (number, White, Black, result, plies) and exit.
    #[arg(long, conflicts_with = "game")]
    list: bool,
    #[command(flatten)]
    display: DisplayArgs,
}

/// Options of `qchess learn`.
#[derive(Args, Debug, Clone)]
pub struct LearnArgs {
    /// The lesson to open, from 1 (default: where you left off).
    #[arg(value_name = "N", value_parser = parse_lesson)]
    lesson: Option<usize>,
    /// List the lessons, with the ones you finished, and exit.
    #[arg(long, conflicts_with = "lesson")]
    list: bool,
    #[command(flatten)]
    display: DisplayArgs,
}

/// A lesson's number: 1 to the number of lessons.
fn parse_lesson(s: &str) -> Result<usize, String> {
    let n = crate::learn::LESSONS.len();
    match s.parse::<usize>() {
        Ok(k) if (1..=n).contains(&k) => Ok(k),
        _ => Err(format!(
            "\"{s}\" is not a lesson: there are lessons 1 to {n}"
        )),
    }
}

/// The sides `--engine` gives the computer: (white, black).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct EngineSides(bool, bool);

/// `--engine`: black, white or both.
/// The words `--engine` takes.
const SIDES: [&str; 3] = ["white", "black", "both"];

fn parse_side(s: &str) -> Result<EngineSides, String> {
    match s.to_ascii_lowercase().as_str() {
        "white" => Ok(EngineSides(true, false)),
        "black" => Ok(EngineSides(false, true)),
        "both" => Ok(EngineSides(true, true)),
        _ => Err(format!(
            "\"{s}\" is not a side: expected black, white or both"
        )),
    }
}

/// The computer's part in a new game: its sides and how it plays them.
#[derive(Clone, Copy, Debug)]
struct EngineChoice {
    sides: EngineSides,
    movetime: Option<u64>,
}

impl EngineChoice {
    /// Seats the computer at its sides: the external engine of `opts` in Quantum Chess
    /// when there is one, else qchess's own.
    fn seat(self, occupants: &mut Occupants, opts: &PlayOptions, variant: RuleSet) {
        let external = opts.engine_cmd.as_deref().filter(|_| variant.searched());
        let strength = match (external, self.movetime) {
            (Some(command), _) => {
                Strength::External(UqciPlayer::new(command, opts.engine_movetime))
            }
            (None, _) if !variant.searched() => Strength::Greedy,
            (None, Some(ms)) => Strength::Movetime(ms),
            (None, None) => Strength::Level(opts.engine_level),
        };
        if self.sides.0 {
            occupants.white = Occupant::computer(strength.clone());
        }
        if self.sides.1 {
            occupants.black = Occupant::computer(strength);
        }
    }
}

/// How the game is shown, simulated and saved.
#[derive(Args, Debug, Clone)]
struct DisplayArgs {
    /// Do not write the autosave file after every move (default: config.toml, else on).
    #[arg(long)]
    no_autosave: bool,
    /// Simulator backend: sparse or dense (default: config.toml, else sparse).
    #[arg(long, value_parser = backend_flag())]
    backend: Option<BackendKind>,
    /// Letters (K Q R B N P, lower case for black) instead of chess glyphs.
    #[arg(long, conflicts_with = "unicode")]
    ascii: bool,
    /// Chess glyphs, even where config.toml asks for letters.
    #[arg(long)]
    unicode: bool,
    /// Colours: auto (from NO_COLOR, COLORTERM, TERM), truecolor, 256, 16 or none
    /// (default: config.toml, else auto).
    #[arg(long, value_parser = color_flag())]
    color: Option<ColorChoice>,
    /// Colour theme, built-in or your own (`qchess themes` lists them).
    #[arg(long, value_parser = theme_flag(), hide_possible_values = true)]
    theme: Option<String>,
    /// Largest dense state, as log2 of the number of amplitudes (default: config.toml,
    /// else 26).
    #[arg(long, value_name = "LOG2", value_parser = parse_dense_limit)]
    dense_limit: Option<u32>,
    /// Largest sparse state, in branches (default: config.toml, else 4194304).
    #[arg(long, value_name = "N", value_parser = parse_sparse_limit)]
    sparse_limit: Option<usize>,
    /// Leave the mouse to the terminal (its text selection), no clicks in the game
    /// (default: config.toml, else the mouse is captured).
    #[arg(long)]
    no_mouse: bool,
}

/// `qchess play`: a new game, or a saved one opened with --load.
pub fn play(args: PlayArgs) -> Outcome {
    let open = args.load.map_or(Open::New, Open::Load);
    let occupants = Occupants {
        white: Occupant::Person(args.white),
        black: Occupant::Person(args.black),
    };
    let engine = args.engine.map(|sides| EngineChoice {
        sides,
        movetime: args.movetime,
    });
    // A UQCI engine speaks Quantum Chess only: naming one for a variant is a mistake
    // (one in config.toml just leaves the variants to qchess's own computer).
    let named = args.engine_cmd.command.as_deref().map(str::trim);
    if !args.variant.searched() && engine.is_some() && named.is_some_and(|c| !c.is_empty()) {
        return Err(Failure::new(format!(
            "--engine-cmd: a UQCI engine plays Quantum Chess only; in {} the \
             computer is qchess's own (leave out --engine-cmd)",
            args.variant
        )));
    }
    if engine.is_none() && open == Open::New && args.movetime.is_some() {
        return Err(Failure::new(
            "--movetime is the computer's time per move: give --engine SIDE (black, \
             white or both), or --load FILE for the external engine of a saved game",
        ));
    }
    if engine.is_none() && open == Open::New && named.is_some_and(|c| !c.is_empty()) {
        return Err(Failure::new(
            "--engine-cmd names the engine for --engine SIDE (black, white or both), \
             or for the side it played in a game opened with --load",
        ));
    }
    let game = NewGame {
        fen: args.fen,
        seed: args.seed,
        game: args.game,
        occupants,
        variant: args.variant,
        engine,
        level: args.level,
        engine_cmd: args.engine_cmd.command,
        saved_engine_movetime: args.movetime.filter(|_| engine.is_none()),
        clock: args.clock.and_then(|c| c.0),
    };
    run_tui(args.display, open, game)
}

/// `qchess resume`: the most recent autosave.
pub fn resume(args: ResumeArgs) -> Outcome {
    let game = NewGame {
        engine_cmd: args.engine_cmd.command,
        saved_engine_movetime: args.movetime,
        ..NewGame::default()
    };
    run_tui(args.display, Open::Resume, game)
}

/// `qchess replay FILE`: steps through a saved game; with `--list`, lists the file's
/// games instead.
pub fn replay(args: ReplayArgs) -> Outcome {
    if args.list {
        let games = crate::record::list_games(&args.file).map_err(Failure::new)?;
        return Ok(Done::Print(game_list(&games)));
    }
    let game = NewGame {
        game: args.game,
        ..NewGame::default()
    };
    run_tui(args.display, Open::Replay(args.file), game)
}

/// The list `qchess replay FILE --list` prints: a heading, then a line per game.
fn game_list(games: &[crate::record::pgn::GameSummary]) -> String {
    let width = |f: fn(&crate::record::pgn::GameSummary) -> usize, title: &str| {
        games.iter().map(f).chain([title.len()]).max().unwrap_or(0)
    };
    // Padded by display width: a name in wide characters (`名人`) keeps the columns.
    let w = width(|g| g.white.width(), "White");
    let b = width(|g| g.black.width(), "Black");
    let pad = |s: &str, n: usize| format!("{s}{}", " ".repeat(n.saturating_sub(s.width())));
    let mut out = format!(
        "{:>3}  {}  {}  {:<7}  plies\n",
        "#",
        pad("White", w),
        pad("Black", b),
        "Result"
    );
    for g in games {
        out.push_str(&format!(
            "{:>3}  {}  {}  {:<7}  {}\n",
            g.number,
            pad(&g.white, w),
            pad(&g.black, b),
            g.result.token(),
            g.plies
        ));
    }
    out
}

/// Runs `qchess learn`: the lessons in the terminal, progress kept in the data
/// directory; or with `--list`, the lessons and which are done.
pub fn learn(args: LearnArgs) -> Outcome {
    use crate::learn::{Progress, LESSONS};
    let store = crate::config::data_dir().ok();
    let progress = store.as_deref().map(Progress::load).unwrap_or_default();
    if args.list {
        let mut out = String::new();
        for (i, l) in LESSONS.iter().enumerate() {
            let done = if progress.is_done(i + 1) {
                "done"
            } else {
                "    "
            };
            out.push_str(&format!("{:>2}. {done}  {}\n", i + 1, l.title));
        }
        return Ok(Done::Print(out));
    }
    let (lesson, store) = (args.lesson, store);
    guided(args.display, |seed, look| {
        Ok(crate::ui::App::learning(
            lesson, progress, store, seed, look,
        ))
    })
}

/// Options of `qchess puzzles play`.
#[derive(Args, Debug, Clone)]
pub struct PuzzlePlayArgs {
    /// The puzzle to open, by its id (default: the unsolved puzzle nearest your
    /// rating).
    #[arg(value_name = "ID")]
    pub id: Option<String>,
    /// Only the puzzles of this theme (`--theme` chooses the colours here).
    #[arg(long, value_name = "THEME", value_parser = crate::cli::puzzle_theme_flag())]
    puzzle_theme: Option<crate::puzzles::Theme>,
    /// Only the puzzles rated in this range, such as 1200-1500.
    #[arg(long, value_name = "LOW-HIGH")]
    rating: Option<crate::puzzles::RatingRange>,
    /// Only the puzzles of this many moves.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=3))]
    moves: Option<u32>,
    #[command(flatten)]
    display: DisplayArgs,
}

/// Which puzzles to list or play.
#[derive(Args, Debug, Clone, Default)]
pub struct PuzzleFilterArgs {
    /// Only the puzzles of this theme (qchess puzzles themes lists them; the same
    /// flag as `qchess puzzles play`'s, since `--theme` chooses colours).
    #[arg(long, value_name = "THEME", value_parser = crate::cli::puzzle_theme_flag())]
    puzzle_theme: Option<crate::puzzles::Theme>,
    /// Only the puzzles rated in this range, such as 1200-1500.
    #[arg(long, value_name = "LOW-HIGH")]
    rating: Option<crate::puzzles::RatingRange>,
    /// Only the puzzles of this many moves.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=3))]
    moves: Option<u32>,
}

impl PuzzleFilterArgs {
    /// The filter asked for.
    pub fn filter(&self) -> crate::puzzles::Filter {
        crate::puzzles::Filter {
            theme: self.puzzle_theme,
            rating: self.rating,
            moves: self.moves,
        }
    }

    /// The pack's puzzles that pass; an error when none does.
    pub fn chosen(&self) -> Result<Vec<crate::puzzles::Puzzle>, Failure> {
        let filter = self.filter();
        let chosen: Vec<_> = crate::puzzles::pack()
            .iter()
            .filter(|p| filter.admits(p))
            .cloned()
            .collect();
        if chosen.is_empty() {
            return Err(Failure::new(
                "no puzzle of the pack passes that filter (qchess puzzles themes counts them)",
            ));
        }
        Ok(chosen)
    }
}

/// Runs `qchess puzzles play`: the pack's puzzles in the terminal, the player's record
/// kept in the data directory.
pub fn play_puzzles(args: PuzzlePlayArgs) -> Outcome {
    use crate::learn::solved::Solved;
    let filter = PuzzleFilterArgs {
        puzzle_theme: args.puzzle_theme,
        rating: args.rating,
        moves: args.moves,
    };
    let pack = filter.chosen()?;
    let first = match &args.id {
        Some(id) => Some(pack.iter().position(|p| p.id == id.trim()).ok_or_else(|| {
            Failure::new(format!(
                "there is no puzzle \"{id}\" among those asked for (qchess puzzles lists them)"
            ))
        })?),
        None => None,
    };
    let store = crate::config::data_dir().ok();
    let record = store.as_deref().map(Solved::load).unwrap_or_default();
    guided(args.display, |seed, look| {
        crate::ui::App::solving(pack, first, record, store, seed, look)
            .ok_or_else(|| Failure::new("the puzzle pack is empty"))
    })
}

/// Runs a lesson's or a puzzle's screen (made by `make` from a seed and the look the
/// display options ask for) in the terminal.
fn guided(
    display: DisplayArgs,
    make: impl FnOnce(u64, (crate::style::color::Paint, bool)) -> Result<crate::ui::App, Failure>,
) -> Outcome {
    let pieces = match (display.ascii, display.unicode) {
        (true, _) => Some(Pieces::Ascii),
        (_, true) => Some(Pieces::Unicode),
        _ => None,
    };
    let flags = PlayFlags {
        theme: display.theme,
        pieces,
        color: display.color,
        mouse: display.no_mouse.then_some(false),
        ..PlayFlags::default()
    };
    let opts: PlayOptions = PlayOptions::for_this_user(flags).map_err(Failure::new)?;
    crate::ui::terminal::require_terminal().map_err(Failure::new)?;
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let paint = crate::style::color::Paint::new(
        opts.theme.clone(),
        opts.color.resolve(|k| std::env::var(k).ok()),
    );
    let mut app = make(seed, (paint, opts.ascii))?;
    let term = crate::ui::terminal::TerminalOptions { mouse: opts.mouse };
    match crate::ui::terminal::run_screen(&mut app, term) {
        Ok(Ended::Quit) => Ok(Done::Exit(0)),
        Ok(Ended::Signal(sig)) => Ok(Done::Exit((128 + sig).clamp(0, 255) as u8)),
        Err(e) => Err(Failure::new(e)),
    }
}

/// What `qchess play` asks of a new game (for resume only the engine command).
#[derive(Debug, Default)]
struct NewGame {
    fen: Option<String>,
    seed: Option<u64>,
    occupants: Occupants,
    variant: RuleSet,
    engine: Option<EngineChoice>,
    level: Option<u8>,
    engine_cmd: Option<String>,
    /// Opening a saved game: the external engine's time per move (ms).
    saved_engine_movetime: Option<u64>,
    /// A new game's time control.
    clock: Option<TimeControl>,
    /// Which game of the file to open (`--game`).
    game: Option<usize>,
}

/// Runs the terminal game: flags over config.toml over defaults.
fn run_tui(display: DisplayArgs, open: Open, game: NewGame) -> Outcome {
    let NewGame {
        fen,
        seed,
        mut occupants,
        variant,
        engine,
        level,
        engine_cmd,
        saved_engine_movetime,
        clock,
        game,
    } = game;
    // A plain new game first offers an unfinished autosave; a game asked for by
    // position, seed, rule system or computer opponent starts as asked.
    let offer_resume = open == Open::New
        && fen.is_none()
        && seed.is_none()
        && variant == RuleSet::default()
        && engine.is_none();
    let pieces = match (display.ascii, display.unicode) {
        (true, _) => Some(Pieces::Ascii),
        (_, true) => Some(Pieces::Unicode),
        _ => None,
    };
    let flags = PlayFlags {
        fen,
        seed,
        simulator: SimulatorOverrides {
            backend: display.backend,
            dense_limit_log2: display.dense_limit,
            sparse_limit: display.sparse_limit,
        },
        theme: display.theme,
        pieces,
        color: display.color,
        mouse: display.no_mouse.then_some(false),
        engine_level: level,
        engine_cmd,
    };
    let mut opts: PlayOptions = PlayOptions::for_this_user(flags).map_err(Failure::new)?;
    opts.offer_resume = offer_resume && clock.is_none();
    opts.variant = variant;
    opts.clock = clock;
    opts.game = game;
    // A saved game names its computer's strength, but not an external engine's time:
    // that comes with the command, and only means something when there is one.
    if saved_engine_movetime.is_some() && opts.engine_cmd.is_none() {
        return Err(Failure::new(
            "--movetime on a saved game is the time of an external engine, and none \
             is named (--engine-cmd, or engine_cmd in config.toml); qchess's own computer \
             plays as its name in the saved game says",
        ));
    }
    if let Some(ms) = engine.and_then(|e| e.movetime).or(saved_engine_movetime) {
        opts.engine_movetime = std::time::Duration::from_millis(ms);
    }
    if let Some(e) = engine {
        e.seat(&mut occupants, &opts, variant);
    }
    opts.occupants = occupants;
    opts.autosave &= !display.no_autosave;
    // Autosave and resume need the data directory: a game that would silently not be
    // saved is refused (exit 2) with the reason; a replay, or a game without autosave,
    // plays without it (the save line then offers no folder of its own).
    let needed = (opts.autosave && !matches!(open, Open::Replay(_))) || open == Open::Resume;
    opts.data_dir = match crate::config::data_dir() {
        Ok(dir) => Some(dir),
        Err(e) if needed => {
            let why = if open == Open::Resume {
                "resume looks for autosaves there"
            } else {
                "autosave needs it (or play with --no-autosave)"
            };
            return Err(Failure::new(format!("{e}; {why}")));
        }
        Err(_) => None,
    };
    opts.open = open;
    match crate::ui::run(opts) {
        Ok(Ended::Quit) => Ok(Done::Exit(0)),
        Ok(Ended::Signal(sig)) => Ok(Done::Exit((128 + sig).clamp(0, 255) as u8)),
        Err(e) => Err(Failure::new(e)),
    }
}
