//! The `qchess` command line.

use clap::{Args, CommandFactory, Parser, Subcommand};
use qchess::analyze::{self, Request};
use qchess::chess::Square;
use qchess::config::{Pieces, PlayFlags};
use qchess::engine::strength::Strength;
use qchess::game::RuleSet;
use qchess::quantum::BackendKind;
use qchess::record::Players;
use qchess::ui::color::ColorChoice;
use qchess::ui::open::Open;
use qchess::ui::terminal::Ended;
use qchess::ui::PlayOptions;
use qchess::uqci::client::UqciPlayer;
use std::path::PathBuf;
use std::process::ExitCode;

/// Quantum Chess in the terminal. Without a subcommand, starts a game (as `play`).
#[derive(Parser, Debug)]
#[command(
    name = "qchess",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    play: PlayArgs,
}

/// Options of the terminal game.
#[derive(Args, Debug, Clone)]
struct PlayArgs {
    /// Start position as FEN (default: the standard start).
    #[arg(long, conflicts_with = "load")]
    fen: Option<String>,
    /// Seed for the random outcomes of measurements (default: from the clock).
    #[arg(long, conflicts_with = "load")]
    seed: Option<u64>,
    /// Open a saved game and play on.
    #[arg(long, value_name = "FILE")]
    load: Option<PathBuf>,
    /// Rule system: quantum (Quantum Chess), harmonics or haft.
    #[arg(long, default_value = "quantum", value_parser = parse_variant, conflicts_with = "load")]
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
    #[arg(long, value_name = "SIDE", value_parser = parse_side, conflicts_with = "load")]
    engine: Option<EngineSides>,
    /// The computer's level, 1 (weakest) to 5 (strongest), also the level of hints
    /// (H) (default: config.toml, else 3).
    #[arg(long, value_name = "N", value_parser = parse_level)]
    level: Option<u8>,
    /// The computer thinks this many milliseconds per move instead of playing a level
    /// (an external engine: 1000 unless given). With --load: the time of the external
    /// engine that plays the saved game's side again.
    #[arg(long, value_name = "MS", conflicts_with = "level",
          value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
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

/// The sides `--engine` gives the computer: (white, black).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct EngineSides(bool, bool);

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
    /// The players' names with the computer's sides named after its strength (the
    /// game reads who the computer plays from the names): the external engine of
    /// `opts` in Quantum Chess when there is one, else qchess's own.
    fn name_sides(self, players: &mut Players, opts: &PlayOptions, variant: RuleSet) {
        let external = opts
            .engine_cmd
            .as_deref()
            .filter(|_| variant == RuleSet::Quantum);
        let strength = match (external, self.movetime) {
            (Some(command), _) => {
                Strength::External(UqciPlayer::new(command, opts.engine_movetime))
            }
            (None, _) if variant != RuleSet::Quantum => Strength::Greedy,
            (None, Some(ms)) => Strength::Movetime(ms),
            (None, None) => Strength::Level(opts.engine_level),
        };
        if self.sides.0 {
            players.white = strength.name();
        }
        if self.sides.1 {
            players.black = strength.name();
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
    #[arg(long, value_parser = parse_backend)]
    backend: Option<BackendKind>,
    /// Letters (K Q R B N P, lower case for black) instead of chess glyphs.
    #[arg(long, conflicts_with = "unicode")]
    ascii: bool,
    /// Chess glyphs, even where config.toml asks for letters.
    #[arg(long)]
    unicode: bool,
    /// Colours: auto (from NO_COLOR, COLORTERM, TERM), truecolor, 256, 16 or none
    /// (default: config.toml, else auto).
    #[arg(long, value_parser = parse_color)]
    color: Option<ColorChoice>,
    /// Colour theme, built-in or your own (`qchess themes` lists them).
    #[arg(long)]
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

#[derive(Subcommand, Debug)]
enum Command {
    /// Play in the terminal (the default): hot-seat, or against the computer (--engine).
    Play(PlayArgs),
    /// Play on from the most recent autosave.
    Resume {
        #[command(flatten)]
        engine_cmd: EngineCmdArg,
        /// The external engine (--engine-cmd, or engine_cmd in config.toml) thinks this
        /// many milliseconds per move (default 1000).
        #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
        movetime: Option<u64>,
        #[command(flatten)]
        display: DisplayArgs,
    },
    /// Step through a saved game: ← → one ply, Home/End, g go to ply, p play on from there.
    Replay {
        /// The saved game (TOML).
        file: PathBuf,
        #[command(flatten)]
        display: DisplayArgs,
    },
    /// Play moves from a position and print the resulting state (for scripts and tests).
    Analyze {
        /// Start position as FEN (default: the standard start).
        #[arg(long)]
        fen: Option<String>,
        /// Moves in Quantum Chess notation, separated by spaces.
        #[arg(long, default_value = "")]
        moves: String,
        /// Simulator backend.
        #[arg(long, default_value = "sparse", value_parser = parse_backend)]
        backend: BackendKind,
        /// Seed for the random outcomes of unforced measurements.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Let any side move (turn order not enforced).
        #[arg(long)]
        free_turns: bool,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Rule system: quantum (Quantum Chess), harmonics or haft.
        #[arg(long, default_value = "quantum", value_parser = parse_variant)]
        variant: RuleSet,
        /// Report the Bell correlations of two squares (e.g. --bell a3 c3).
        #[arg(long, num_args = 2, value_names = ["SQ1", "SQ2"], value_parser = parse_square)]
        bell: Option<Vec<Square>>,
        /// Report the entanglement of one square with every other square.
        #[arg(long, value_name = "SQ", value_parser = parse_square)]
        entanglement: Option<Square>,
        /// Also write the game's circuit as OpenQASM 3 to this file.
        #[arg(long, value_name = "OUT")]
        qasm: Option<std::path::PathBuf>,
        /// Also search for the best move of the side to move (JSON: `best`).
        #[arg(long)]
        best: bool,
        /// Strength of the search for --best: 1 (fast) to 5 (default 3).
        #[arg(long, requires = "best", value_parser = parse_level)]
        level: Option<u8>,
        /// Search for --best this many milliseconds instead of to a level's depth.
        #[arg(long, value_name = "MS", requires = "best", conflicts_with = "level")]
        movetime: Option<u64>,
        /// Largest dense state, as log2 of the number of amplitudes (default 26).
        #[arg(long, value_name = "LOG2", value_parser = parse_dense_limit)]
        dense_limit: Option<u32>,
        /// Largest sparse state, in branches (default 4194304).
        #[arg(long, value_name = "N", value_parser = parse_sparse_limit)]
        sparse_limit: Option<usize>,
        /// Let --qasm replace a file that is not an earlier qchess export.
        #[arg(long, requires = "qasm")]
        force: bool,
    },
    /// Play games between two players (the engine at a level, random, greedy) and
    /// report the score, the Elo difference and the time per move.
    Match(qchess::engine::cli::MatchArgs),
    /// Speak UQCI (UCI with Quantum Chess moves) on standard input and output, as an
    /// engine for other front ends.
    Uqci,
    /// The Skat lab: card quality from a superposition of card distributions.
    Skat(qchess::skat::cli::SkatArgs),
    /// Write a saved Quantum Chess game's circuit as OpenQASM 3.
    Export {
        /// The saved game (TOML).
        file: PathBuf,
        /// Where to write the OpenQASM 3 program (`-` for standard output). Never the
        /// saved game itself; a file that is not an earlier qchess export only with --force.
        #[arg(long, value_name = "OUT")]
        qasm: PathBuf,
        /// Replace OUT even when it is not an earlier qchess export.
        #[arg(long)]
        force: bool,
    },
    /// The configuration file: where it is, or write one with the defaults.
    #[command(subcommand)]
    Config(qchess::config::cli::ConfigCommand),
    /// Lists the colour themes: the built-in ones and yours.
    Themes(qchess::config::cli::ThemesArgs),
    /// Serve games over SSH: a lobby and rooms (ssh -p 2222 -t NAME@HOST [ROOM]).
    Serve(ServeArgs),
    /// Print a completion script for a shell (bash, zsh, fish, powershell, elvish).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), or write one page per subcommand into a folder.
    Manpage {
        /// Write qchess.1 and qchess-SUBCOMMAND.1 here instead of printing qchess.1.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

/// Options of `qchess serve`.
#[derive(Args, Debug, Clone)]
struct ServeArgs {
    /// Address and port to listen on.
    #[arg(long, default_value = "127.0.0.1:2222")]
    listen: std::net::SocketAddr,
    /// The host key (ed25519, created on first start; default: server/host_ed25519 in
    /// the data directory).
    #[arg(long, value_name = "FILE")]
    host_key: Option<PathBuf>,
    /// Game sessions at once, in all.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=4096))]
    max_sessions: u32,
    /// Game sessions at once from one address.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=4096))]
    max_per_address: u32,
    /// Rooms at once.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=4096))]
    max_rooms: u32,
    /// Computer searches at once, over all rooms (default: one per core); rooms whose
    /// computer is to move wait their turn.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    computer_searches: Option<u32>,
    /// Hint searches (H) at once, over all sessions (default: one per core); each
    /// session runs one at a time.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    hint_searches: Option<u32>,
    /// Let watchers ask for hints too (by default only the players may).
    #[arg(long)]
    watcher_hints: bool,
    /// Minutes without input before a session is closed (its seat is kept).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=10_080))]
    idle_minutes: u64,
    /// Rooms one player may have opened at once (counted by key when they signed in
    /// with one, else by name).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=4096))]
    rooms_per_player: u32,
    /// Hours a room may go without a player connected before it is closed (its game is
    /// kept with the finished ones).
    #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u64).range(1..=8760))]
    room_idle_hours: u64,
    /// Minutes a dropped seat is kept for its player's name alone (a seat taken with a
    /// key is always kept for that key).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(0..=10_080))]
    seat_grace_minutes: u64,
    /// Only the keys in this authorized_keys file may sign in (default: anyone, by any
    /// name, without a password).
    #[arg(long, value_name = "FILE")]
    authorized_keys: Option<PathBuf>,
    /// Where the host key and the rooms are kept (default: the data directory).
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
}

/// `qchess serve`: the options from the flags, the themes from the configuration.
fn serve(args: ServeArgs) -> ExitCode {
    let data_dir = match args.data_dir.map_or_else(qchess::config::data_dir, Ok) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("qchess: {e}");
            return ExitCode::from(2);
        }
    };
    let mut opts = qchess::server::ServeOptions::in_data_dir(args.listen, &data_dir);
    if let Some(key) = args.host_key {
        opts.host_key = key;
    }
    opts.authorized_keys = args.authorized_keys;
    opts.limits.max_sessions = args.max_sessions as usize;
    opts.limits.per_address = args.max_per_address as usize;
    opts.limits.max_rooms = args.max_rooms as usize;
    opts.limits.idle = std::time::Duration::from_secs(args.idle_minutes * 60);
    if let Some(n) = args.computer_searches {
        opts.limits.computer_searches = n as usize;
    }
    if let Some(n) = args.hint_searches {
        opts.limits.hint_searches = n as usize;
    }
    opts.limits.watcher_hints = args.watcher_hints;
    opts.limits.rooms_per_player = args.rooms_per_player as usize;
    opts.limits.room_idle = std::time::Duration::from_secs(args.room_idle_hours * 3600);
    opts.limits.seat_grace = std::time::Duration::from_secs(args.seat_grace_minutes * 60);
    // The server's themes: the built-in ones and the user's, starting with config.toml's.
    let settings = qchess::config::config_dir().and_then(|d| qchess::config::Settings::load(&d));
    let (catalogue, chosen) = match settings {
        Ok(s) => (s.themes, s.config.theme),
        Err(e) => {
            eprintln!("qchess: {e}; serving the built-in themes");
            (
                qchess::config::Catalogue::built_in(),
                qchess::config::file::DEFAULT_THEME.to_string(),
            )
        }
    };
    for entry in catalogue.entries() {
        match entry.load() {
            Ok(theme) => opts.themes.push((entry.name.clone(), theme)),
            Err(e) => eprintln!("qchess: {e}"),
        }
    }
    opts.default_theme = opts
        .themes
        .iter()
        .position(|(name, _)| *name == chosen)
        .unwrap_or(0);
    match qchess::server::run(opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e @ qchess::server::ServeError::Unsaved(_)) => {
            eprintln!("qchess serve: {e}");
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("qchess serve: {e}");
            ExitCode::from(2)
        }
    }
}

/// Writes the output; a reader that closed the pipe early (`| head`) is not an error.
fn write_stdout(text: &str) -> ExitCode {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("qchess: cannot write the output: {e}");
            ExitCode::from(1)
        }
    }
}

fn parse_square(s: &str) -> Result<Square, String> {
    Square::parse(s).ok_or_else(|| format!("\"{s}\" is not a square (a1..h8)"))
}

fn parse_backend(s: &str) -> Result<BackendKind, String> {
    s.parse()
        .map_err(|e: qchess::quantum::QuantumError| e.to_string())
}

fn parse_color(s: &str) -> Result<ColorChoice, String> {
    s.parse()
        .map_err(|e: qchess::ui::color::BadColorChoice| e.to_string())
}

fn parse_variant(s: &str) -> Result<RuleSet, String> {
    s.parse()
        .map_err(|e: qchess::game::rules::UnknownRuleSet| e.to_string())
}

fn parse_level(s: &str) -> Result<u8, String> {
    let n: i64 = s
        .parse()
        .map_err(|_| format!("\"{s}\" is not a whole number"))?;
    qchess::engine::level::check(n).map_err(|e| e.to_string())
}

fn parse_dense_limit(s: &str) -> Result<u32, String> {
    let n: i64 = s
        .parse()
        .map_err(|_| format!("\"{s}\" is not a whole number"))?;
    qchess::config::file::check_dense_limit(n).map_err(|e| e.to_string())
}

fn parse_sparse_limit(s: &str) -> Result<usize, String> {
    let n: i64 = s
        .parse()
        .map_err(|_| format!("\"{s}\" is not a whole number"))?;
    qchess::config::file::check_sparse_limit(n).map_err(|e| e.to_string())
}

fn play(args: PlayArgs) -> ExitCode {
    let open = args.load.map_or(Open::New, Open::Load);
    let players = Players {
        white: args.white,
        black: args.black,
    };
    let engine = args.engine.map(|sides| EngineChoice {
        sides,
        movetime: args.movetime,
    });
    // A UQCI engine speaks Quantum Chess only: naming one for a variant is a mistake
    // (one in config.toml just leaves the variants to qchess's own computer).
    let named = args.engine_cmd.command.as_deref().map(str::trim);
    if args.variant != RuleSet::Quantum && engine.is_some() && named.is_some_and(|c| !c.is_empty())
    {
        eprintln!(
            "qchess: --engine-cmd: a UQCI engine plays Quantum Chess only; in {} the \
             computer is qchess's own (leave out --engine-cmd)",
            args.variant
        );
        return ExitCode::from(2);
    }
    if engine.is_none() && open == Open::New && args.movetime.is_some() {
        eprintln!(
            "qchess: --movetime is the computer's time per move: give --engine SIDE (black, \
             white or both), or --load FILE for the external engine of a saved game"
        );
        return ExitCode::from(2);
    }
    if engine.is_none() && open == Open::New && named.is_some_and(|c| !c.is_empty()) {
        eprintln!(
            "qchess: --engine-cmd names the engine for --engine SIDE (black, white or both), \
             or for the side it played in a game opened with --load"
        );
        return ExitCode::from(2);
    }
    let game = NewGame {
        fen: args.fen,
        seed: args.seed,
        players,
        variant: args.variant,
        engine,
        level: args.level,
        engine_cmd: args.engine_cmd.command,
        saved_engine_movetime: args.movetime.filter(|_| engine.is_none()),
    };
    run_tui(args.display, open, game)
}

/// What `qchess play` asks of a new game (for resume only the engine command).
#[derive(Debug, Default)]
struct NewGame {
    fen: Option<String>,
    seed: Option<u64>,
    players: Players,
    variant: RuleSet,
    engine: Option<EngineChoice>,
    level: Option<u8>,
    engine_cmd: Option<String>,
    /// Opening a saved game: the external engine's time per move (ms).
    saved_engine_movetime: Option<u64>,
}

/// Runs the terminal game: flags over config.toml over defaults.
fn run_tui(display: DisplayArgs, open: Open, game: NewGame) -> ExitCode {
    let NewGame {
        fen,
        seed,
        mut players,
        variant,
        engine,
        level,
        engine_cmd,
        saved_engine_movetime,
    } = game;
    // A plain new game first offers an unfinished autosave; a game asked for by
    // position, seed, rule system or computer opponent starts as asked.
    let offer_resume = open == Open::New
        && fen.is_none()
        && seed.is_none()
        && variant == RuleSet::Quantum
        && engine.is_none();
    let pieces = match (display.ascii, display.unicode) {
        (true, _) => Some(Pieces::Ascii),
        (_, true) => Some(Pieces::Unicode),
        _ => None,
    };
    let flags = PlayFlags {
        fen,
        seed,
        backend: display.backend,
        theme: display.theme,
        pieces,
        color: display.color,
        dense_limit_log2: display.dense_limit,
        sparse_limit: display.sparse_limit,
        mouse: display.no_mouse.then_some(false),
        engine_level: level,
        engine_cmd,
    };
    let mut opts: PlayOptions = match qchess::config::play_options(flags) {
        Ok(opts) => opts,
        Err(e) => {
            eprintln!("qchess: {e}");
            return ExitCode::from(2);
        }
    };
    opts.offer_resume = offer_resume;
    opts.variant = variant;
    // A saved game names its computer's strength, but not an external engine's time:
    // that comes with the command, and only means something when there is one.
    if saved_engine_movetime.is_some() && opts.engine_cmd.is_none() {
        eprintln!(
            "qchess: --movetime on a saved game is the time of an external engine, and none \
             is named (--engine-cmd, or engine_cmd in config.toml); qchess's own computer \
             plays as its name in the saved game says"
        );
        return ExitCode::from(2);
    }
    if let Some(ms) = engine.and_then(|e| e.movetime).or(saved_engine_movetime) {
        opts.engine_movetime = std::time::Duration::from_millis(ms);
    }
    if let Some(e) = engine {
        e.name_sides(&mut players, &opts, variant);
    }
    opts.players = players;
    opts.autosave &= !display.no_autosave;
    // Autosave and resume need the data directory: a game that would silently not be
    // saved is refused (exit 2) with the reason; a replay, or a game without autosave,
    // plays without it (the save line then offers no folder of its own).
    let needed = (opts.autosave && !matches!(open, Open::Replay(_))) || open == Open::Resume;
    opts.data_dir = match qchess::config::data_dir() {
        Ok(dir) => Some(dir),
        Err(e) if needed => {
            let why = if open == Open::Resume {
                "resume looks for autosaves there"
            } else {
                "autosave needs it (or play with --no-autosave)"
            };
            eprintln!("qchess: {e}; {why}");
            return ExitCode::from(2);
        }
        Err(_) => None,
    };
    opts.open = open;
    match qchess::ui::run(opts) {
        Ok(Ended::Quit) => ExitCode::SUCCESS,
        Ok(Ended::Signal(sig)) => ExitCode::from((128 + sig).clamp(0, 255) as u8),
        Err(e) => {
            eprintln!("qchess: {e}");
            ExitCode::from(2)
        }
    }
}

/// `qchess export`: replays a saved game and writes its circuit.
fn export(file: &std::path::Path, out: &std::path::Path, force: bool) -> ExitCode {
    let game = qchess::record::load(file).and_then(|saved| match saved.rules(file)? {
        RuleSet::Quantum => saved.replay_quantum(
            file,
            None,
            qchess::quantum::DEFAULT_DENSE_LIMIT_LOG2,
            qchess::quantum::DEFAULT_SPARSE_LIMIT,
        ),
        other => Err(qchess::record::RecordError::Field {
            path: file.to_path_buf(),
            key: "variant",
            message: format!("a {other} game has no quantum circuit to export"),
        }),
    });
    let game = match game {
        Ok(g) => g,
        Err(e) => {
            eprintln!("qchess: {e}");
            return ExitCode::from(2);
        }
    };
    if out == std::path::Path::new("-") {
        return write_stdout(&qchess::qasm::export(&game));
    }
    match qchess::qasm::write(out, &qchess::qasm::export(&game), Some(file), force) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("qchess: {e}");
            ExitCode::from(2)
        }
    }
}

/// The completion script of `shell` for the whole command line.
fn completions(shell: clap_complete::Shell) -> String {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "qchess", &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// The manual page (roff) of `cmd`.
fn manual(cmd: &clap::Command) -> std::io::Result<String> {
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd.clone()).render(&mut out)?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Writes `qchess.1` and a `qchess-SUBCOMMAND.1` for each subcommand into `dir` (made
/// when missing); how many pages.
fn manuals_into(dir: &std::path::Path) -> std::io::Result<usize> {
    std::fs::create_dir_all(dir)?;
    let cmd = Cli::command();
    std::fs::write(dir.join("qchess.1"), manual(&cmd)?)?;
    let mut pages = 1;
    for sub in cmd.get_subcommands() {
        let name = format!("qchess-{}", sub.get_name());
        // The page's title and synopsis read `qchess-SUB` and `qchess SUB`.
        let sub = sub
            .clone()
            .display_name(name.clone())
            .bin_name(format!("qchess {}", sub.get_name()));
        let page = manual(&sub)?;
        std::fs::write(dir.join(format!("{name}.1")), page)?;
        pages += 1;
    }
    Ok(pages)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Play(args)) => play(args),
        Some(Command::Resume {
            engine_cmd,
            movetime,
            display,
        }) => {
            let game = NewGame {
                engine_cmd: engine_cmd.command,
                saved_engine_movetime: movetime,
                ..NewGame::default()
            };
            run_tui(display, Open::Resume, game)
        }
        Some(Command::Replay { file, display }) => {
            run_tui(display, Open::Replay(file), NewGame::default())
        }
        Some(Command::Analyze {
            fen,
            moves,
            backend,
            seed,
            free_turns,
            json,
            variant,
            bell,
            entanglement,
            qasm,
            best,
            level,
            movetime,
            dense_limit,
            sparse_limit,
            force,
        }) => {
            let search = best.then(|| analyze::BestRequest {
                level: level.unwrap_or(qchess::engine::level::DEFAULT_LEVEL),
                movetime: movetime.map(std::time::Duration::from_millis),
            });
            if variant != RuleSet::Quantum {
                let quantum_only = [
                    ("--bell", bell.is_some()),
                    ("--entanglement", entanglement.is_some()),
                    ("--free-turns", free_turns),
                    ("--qasm", qasm.is_some()),
                ];
                if let Some((flag, _)) = quantum_only.iter().find(|(_, given)| *given) {
                    eprintln!("qchess: {flag} works with the quantum variant only");
                    return ExitCode::from(2);
                }
                return match analyze::run_variant(variant, fen.as_deref(), &moves, seed) {
                    Ok(game) if json => write_stdout(&format!(
                        "{}\n",
                        analyze::variant_json(game.as_ref(), search.as_ref(), seed)
                    )),
                    Ok(game) => write_stdout(&analyze::variant_text(game.as_ref())),
                    Err(e) => {
                        eprintln!("qchess: {e}");
                        ExitCode::from(2)
                    }
                };
            }
            let req = Request {
                fen,
                moves,
                backend,
                seed,
                free_turns,
                bell: bell.map(|v| (v[0], v[1])),
                entanglement,
                best: search,
                dense_limit_log2: dense_limit,
                sparse_limit,
            };
            let written = analyze::run(&req).and_then(|game| match &qasm {
                Some(path) => analyze::write_qasm(&game, path, force).map(|()| game),
                None => Ok(game),
            });
            match written {
                Ok(game) => {
                    let out = if json {
                        format!("{}\n", analyze::to_json(&game, &req))
                    } else {
                        analyze::to_text(&game, &req)
                    };
                    write_stdout(&out)
                }
                Err(e) => {
                    eprintln!("qchess: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Command::Uqci) => {
            qchess::uqci::engine::run_stdio();
            ExitCode::SUCCESS
        }
        Some(Command::Skat(args)) => qchess::skat::cli::run(args),
        Some(Command::Match(args)) => {
            // Without it an external engine would outlive a Ctrl-C (default handling
            // still ends qchess if it cannot be set up).
            #[cfg(unix)]
            let _ = qchess::uqci::client::end_all_on_signal();
            match qchess::engine::cli::run(&args) {
                Ok(text) => write_stdout(&text),
                Err(e) => {
                    eprintln!("qchess: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Command::Export { file, qasm, force }) => export(&file, &qasm, force),
        Some(Command::Config(cmd)) => match qchess::config::cli::config(cmd) {
            Ok(text) => write_stdout(&text),
            Err(e) => {
                eprintln!("qchess: {e}");
                ExitCode::from(2)
            }
        },
        Some(Command::Themes(args)) => match qchess::config::cli::themes(&args) {
            Ok(listing) => {
                let code = write_stdout(&listing.text);
                for e in &listing.broken {
                    eprintln!("qchess: {e}");
                }
                if listing.broken.is_empty() {
                    code
                } else {
                    ExitCode::from(2)
                }
            }
            Err(e) => {
                eprintln!("qchess: {e}");
                ExitCode::from(2)
            }
        },
        Some(Command::Serve(args)) => serve(args),
        Some(Command::Completions { shell }) => write_stdout(&completions(shell)),
        Some(Command::Manpage { dir: None }) => match manual(&Cli::command()) {
            Ok(page) => write_stdout(&page),
            Err(e) => {
                eprintln!("qchess: cannot write the manual page: {e}");
                ExitCode::from(1)
            }
        },
        Some(Command::Manpage { dir: Some(dir) }) => match manuals_into(&dir) {
            Ok(n) => {
                println!("{n} manual pages written to {}", dir.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("qchess: {}: {e}", dir.display());
                ExitCode::from(1)
            }
        },
        None => play(cli.play),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every subcommand's name and every long flag of the command line.
    fn names() -> (Vec<String>, Vec<(String, String)>) {
        let cmd = Cli::command();
        let subs: Vec<String> = cmd.get_subcommands().map(|c| c.get_name().into()).collect();
        let mut flags = Vec::new();
        for sub in cmd.get_subcommands() {
            for arg in sub.get_arguments() {
                if let Some(long) = arg.get_long() {
                    flags.push((sub.get_name().to_string(), format!("--{long}")));
                }
            }
        }
        (subs, flags)
    }

    #[test]
    fn completions_know_every_subcommand_and_flag() {
        let (subs, flags) = names();
        assert!(subs.len() >= 10, "{subs:?}");
        for shell in [
            clap_complete::Shell::Bash,
            clap_complete::Shell::Zsh,
            clap_complete::Shell::Fish,
            clap_complete::Shell::PowerShell,
            clap_complete::Shell::Elvish,
        ] {
            let script = completions(shell);
            for sub in &subs {
                assert!(script.contains(sub.as_str()), "{shell}: {sub}");
            }
            for (sub, flag) in &flags {
                let bare = flag.trim_start_matches('-');
                assert!(script.contains(bare), "{shell}: {sub} {flag}");
            }
        }
    }

    #[test]
    fn the_manual_pages_hold_every_subcommand_and_flag() {
        let (subs, flags) = names();
        let main = manual(&Cli::command()).unwrap();
        for sub in &subs {
            assert!(main.contains(sub.as_str()), "qchess.1: {sub}");
        }
        let dir = std::env::temp_dir().join(format!("qchess-man-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(manuals_into(&dir).unwrap(), subs.len() + 1);
        for (sub, flag) in &flags {
            let page = std::fs::read_to_string(dir.join(format!("qchess-{sub}.1"))).unwrap();
            // roff writes a dash as \-.
            let roff = flag.replace('-', "\\-");
            assert!(page.contains(&roff), "qchess-{sub}.1: {flag}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
