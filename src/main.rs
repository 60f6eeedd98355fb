//! The `qchess` command line.

use clap::{Parser, Subcommand};
use qchess::analyze::{self, Request};
use qchess::chess::Square;
use qchess::quantum::BackendKind;
use std::process::ExitCode;

/// Quantum Chess in the terminal.
#[derive(Parser, Debug)]
#[command(name = "qchess", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
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
}

fn parse_square(s: &str) -> Result<Square, String> {
    Square::parse(s).ok_or_else(|| format!("\"{s}\" is not a square (a1..h8)"))
}

fn parse_backend(s: &str) -> Result<BackendKind, String> {
    s.parse()
        .map_err(|e: qchess::quantum::QuantumError| e.to_string())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
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
                    if json {
                        println!("{}", analyze::to_json(&game, &req));
                    } else {
                        print!("{}", analyze::to_text(&game, &req));
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("qchess: {e}");
                    ExitCode::from(2)
                }
            }
        }
        None => {
            eprintln!("qchess: the terminal game is not built yet; try `qchess analyze --help`");
            ExitCode::from(2)
        }
    }
}
