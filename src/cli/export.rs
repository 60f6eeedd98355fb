//! `qchess export`: its arguments, and the run that opens a saved game and writes its
//! circuit (OpenQASM 3) or the game itself as PGN.

use crate::cli::{parse_game_number, Done, Failure, Outcome};
use crate::record::{RecordError, SavedGame};
use clap::Args;
use std::path::{Path, PathBuf};

/// Options of `qchess export`.
#[derive(Args, Debug, Clone)]
#[command(group(clap::ArgGroup::new("outputs").args(["qasm", "pgn"]).required(true).multiple(true)))]
pub struct ExportArgs {
    /// The saved game: qchess's TOML, or a PGN file (.pgn).
    file: PathBuf,
    /// Which game of a PGN file with several to export (from 1; default the first).
    #[arg(long, value_name = "N", value_parser = parse_game_number)]
    game: Option<usize>,
    /// Where to write the game's circuit as OpenQASM 3 (`-` for standard output). Never
    /// the saved game itself; a file that is not an earlier qchess export only with
    /// --force.
    #[arg(long, value_name = "OUT")]
    qasm: Option<PathBuf>,
    /// Where to write the game as PGN, for other chess programs and the official
    /// Quantum Chess app (`-` for standard output). Never the saved game itself; a file
    /// that is not PGN only with --force.
    #[arg(long, value_name = "OUT")]
    pgn: Option<PathBuf>,
    /// Replace OUT even when it is not an earlier export (a PGN file, for --pgn).
    #[arg(long)]
    force: bool,
}

/// Runs `qchess export`: opens the saved game, checks that it replays, and writes what
/// was asked.
pub fn run(args: ExportArgs) -> Outcome {
    let file = args.file.as_path();
    one_to_stdout(args.qasm.as_deref(), args.pgn.as_deref())?;
    let saved = crate::record::load_game(file, args.game).map_err(Failure::new)?;
    let mut printed = String::new();
    if let Some(out) = &args.pgn {
        // A PGN file was replayed as it was opened; qchess's own file is replayed here,
        // so that a broken one is not exported.
        if !crate::record::pgn::file::is_pgn(file) {
            replay(&saved, file).map_err(Failure::new)?;
        }
        if is_stdout(out) {
            printed.push_str(&crate::record::pgn::file::text(&saved));
        } else {
            crate::record::pgn::file::export(out, &saved, Some(file), args.force)
                .map_err(Failure::new)?;
        }
    }
    if let Some(out) = &args.qasm {
        let program = circuit(&saved, file)?;
        if is_stdout(out) {
            printed.push_str(&program);
        } else {
            crate::qasm::write(out, &program, Some(file), args.force).map_err(Failure::new)?;
        }
    }
    Ok(if printed.is_empty() {
        Done::Exit(0)
    } else {
        Done::Print(printed)
    })
}

/// Whether an output named on the command line (`--qasm OUT`, `--pgn OUT`) is `-`,
/// standard output.
pub fn is_stdout(out: &Path) -> bool {
    out == Path::new("-")
}

/// Refuses `--qasm -` with `--pgn -`: standard output takes one of them.
pub fn one_to_stdout(qasm: Option<&Path>, pgn: Option<&Path>) -> Result<(), Failure> {
    if qasm.is_some_and(is_stdout) && pgn.is_some_and(is_stdout) {
        return Err(Failure::new(
            "--qasm - and --pgn - cannot both go to standard output: write one to a file",
        ));
    }
    Ok(())
}

/// The saved game replayed with the built-in size limits.
fn replay(saved: &SavedGame, file: &Path) -> Result<Box<dyn crate::game::Playable>, RecordError> {
    saved.replay(file, None, None)
}

/// The OpenQASM 3 program of a saved Quantum Chess game.
fn circuit(saved: &SavedGame, file: &Path) -> Result<String, Failure> {
    let rules = saved.rules(file).map_err(Failure::new)?;
    if !rules.simulated() {
        return Err(Failure::new(RecordError::Field {
            path: file.to_path_buf(),
            key: "variant",
            message: format!("a {rules} game has no quantum circuit to export"),
        }));
    }
    let game = replay(saved, file).map_err(Failure::new)?;
    let Some(game) = game.quantum() else {
        return Err(Failure::new(
            "the saved game has no quantum circuit to export",
        ));
    };
    Ok(crate::qasm::export(game))
}
