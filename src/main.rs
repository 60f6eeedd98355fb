//! The `qchess` command line.

use clap::{Args, Parser, Subcommand};
use qchess::analyze::{self, Request};
use qchess::chess::Square;
use qchess::quantum::BackendKind;
use qchess::ui::color::ColorChoice;
use qchess::ui::terminal::Ended;
use qchess::ui::PlayOptions;
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
    #[arg(long)]
    fen: Option<String>,
    /// Simulator backend.
    #[arg(long, default_value = "sparse", value_parser = parse_backend)]
    backend: BackendKind,
    /// Seed for the random outcomes of measurements (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
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
        /// Also write the game's circuit as OpenQASM 3 to this file.
        #[arg(long, value_name = "OUT")]
        qasm: Option<std::path::PathBuf>,
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

fn play(args: PlayArgs) -> ExitCode {
    let opts = PlayOptions {
        fen: args.fen,
        backend: args.backend,
        seed: args.seed,
        ascii: args.ascii,
        color: args.color,
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
        Some(Command::Analyze {
            fen,
            moves,
            backend,
            seed,
            free_turns,
            json,
            bell,
            entanglement,
            qasm,
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
            let written = analyze::run(&req).and_then(|game| match &qasm {
                Some(path) => analyze::write_qasm(&game, path).map(|()| game),
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
        Some(Command::Skat(args)) => qchess::skat::cli::run(args),
        None => play(cli.play),
    }
}
