//! The `qchess` command line.
use clap::Parser;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "qchess", version, about = "Quantum Chess in the terminal")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(clap::Subcommand)]
enum Command {
    /// The Skat lab: card quality from a superposition of card distributions.
    Skat(qchess::skat::cli::SkatArgs),
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Some(Command::Skat(args)) => qchess::skat::cli::run(args),
        None => {
            println!("qchess {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
    }
}
