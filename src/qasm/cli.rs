//! `qchess export`: its arguments, and the run that replays a saved game and writes its
//! circuit.

use crate::cli::{Done, Failure, Outcome};
use crate::game::RuleSet;
use crate::record::RecordError;
use clap::Args;
use std::path::{Path, PathBuf};

/// Options of `qchess export`.
#[derive(Args, Debug, Clone)]
pub struct ExportArgs {
    /// The saved game (TOML).
    file: PathBuf,
    /// Where to write the OpenQASM 3 program (`-` for standard output). Never the
    /// saved game itself; a file that is not an earlier qchess export only with --force.
    #[arg(long, value_name = "OUT")]
    qasm: PathBuf,
    /// Replace OUT even when it is not an earlier qchess export.
    #[arg(long)]
    force: bool,
}

/// Runs `qchess export`: replays the saved game and writes its circuit.
pub fn run(args: ExportArgs) -> Outcome {
    let file = args.file.as_path();
    let game = crate::record::load(file)
        .and_then(|saved| match saved.rules(file)? {
            RuleSet::Quantum => saved.replay(
                file,
                None,
                crate::quantum::DEFAULT_DENSE_LIMIT_LOG2,
                crate::quantum::DEFAULT_SPARSE_LIMIT,
                None,
            ),
            other => Err(RecordError::Field {
                path: file.to_path_buf(),
                key: "variant",
                message: format!("a {other} game has no quantum circuit to export"),
            }),
        })
        .map_err(Failure::new)?;
    let Some(game) = game.quantum() else {
        return Err(Failure::new(
            "the saved game has no quantum circuit to export",
        ));
    };
    let program = super::export(game);
    if args.qasm == Path::new("-") {
        return Ok(Done::Print(program));
    }
    super::write(&args.qasm, &program, Some(file), args.force).map_err(Failure::new)?;
    Ok(Done::Exit(0))
}
