//! The `qchess` command line.

use clap::{Args, Parser, Subcommand};
use qchess::analyze::{self, Request};
use qchess::chess::Square;
use qchess::quantum::BackendKind;
use qchess::record::Players;
use qchess::ui::color::ColorChoice;
use qchess::ui::terminal::{Ended, Open};
use qchess::ui::PlayOptions;
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
    /// White's name, kept in saved games.
    #[arg(long, value_name = "NAME", default_value = "White")]
    white: String,
    /// Black's name, kept in saved games.
    #[arg(long, value_name = "NAME", default_value = "Black")]
    black: String,
    #[command(flatten)]
    display: DisplayArgs,
}

/// How the game is shown and simulated.
#[derive(Args, Debug, Clone)]
struct DisplayArgs {
    /// Do not write the autosave file after every move.
    #[arg(long)]
    no_autosave: bool,
    /// Simulator backend.
    #[arg(long, default_value = "sparse", value_parser = parse_backend)]
    backend: BackendKind,
    /// Letters (K Q R B N P, lower case for black) instead of chess glyphs.
    #[arg(long)]
    ascii: bool,
    /// Colours: auto (from NO_COLOR, COLORTERM, TERM), truecolor, 256, 16 or none.
    #[arg(long, default_value = "auto", value_parser = parse_color)]
    color: ColorChoice,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a hot-seat game in the terminal (the default).
    Play(PlayArgs),
    /// Play on from the most recent autosave.
    Resume(DisplayArgs),
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
        /// Report the Bell correlations of two squares (e.g. --bell a3 c3).
        #[arg(long, num_args = 2, value_names = ["SQ1", "SQ2"], value_parser = parse_square)]
        bell: Option<Vec<Square>>,
        /// Report the entanglement of one square with every other square.
        #[arg(long, value_name = "SQ", value_parser = parse_square)]
        entanglement: Option<Square>,
    },
    /// The Skat lab: card quality from a superposition of card distributions.
    Skat(qchess::skat::cli::SkatArgs),
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

/// The data directory: `QCHESS_DATA_DIR`, else the platform's (e.g. ~/.local/share/qchess).
fn data_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("QCHESS_DATA_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d));
    }
    directories::ProjectDirs::from("", "", "qchess").map(|p| p.data_dir().to_path_buf())
}

fn play(args: PlayArgs) -> ExitCode {
    let open = args.load.map_or(Open::New, Open::Load);
    let players = Players {
        white: args.white,
        black: args.black,
    };
    run_tui(args.display, open, args.fen, args.seed, players)
}

fn run_tui(
    display: DisplayArgs,
    open: Open,
    fen: Option<String>,
    seed: Option<u64>,
    players: Players,
) -> ExitCode {
    let opts = PlayOptions {
        fen,
        backend: display.backend,
        seed,
        ascii: display.ascii,
        color: display.color,
        open,
        data_dir: data_dir(),
        autosave: !display.no_autosave,
        players,
    };
    match qchess::ui::run(opts) {
        Ok(Ended::Quit) => ExitCode::SUCCESS,
        Ok(Ended::Signal(sig)) => ExitCode::from((128 + sig).clamp(0, 255) as u8),
        Err(e) => {
            eprintln!("qchess: {e}");
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Play(args)) => play(args),
        Some(Command::Resume(display)) => {
            run_tui(display, Open::Resume, None, None, Players::default())
        }
        Some(Command::Replay { file, display }) => {
            run_tui(display, Open::Replay(file), None, None, Players::default())
        }
        Some(Command::Analyze {
            fen,
            moves,
            backend,
            seed,
            free_turns,
            json,
            bell,
            entanglement,
        }) => {
            let req = Request {
                fen,
                moves,
                backend,
                seed,
                free_turns,
                bell: bell.map(|v| (v[0], v[1])),
                entanglement,
            };
            match analyze::run(&req) {
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
        Some(Command::Skat(args)) => qchess::skat::cli::run(args),
        None => play(cli.play),
    }
}
