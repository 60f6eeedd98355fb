//! `qchess analyze`: its arguments, and the run that plays the moves and prints the
//! report.

use super::{run_variant, to_json, to_text, variant_json, variant_text, write_qasm};
use super::{BestRequest, Request};
use crate::chess::Square;
use crate::cli::{
    parse_backend, parse_dense_limit, parse_level, parse_sparse_limit, parse_square, parse_variant,
    Done, Failure, Outcome,
};
use crate::game::RuleSet;
use crate::quantum::BackendKind;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// Options of `qchess analyze`.
#[derive(Args, Debug, Clone)]
pub struct AnalyzeArgs {
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
    /// Explain every move in the text report: what it asked, what it answered, and
    /// every square whose chance changed (the JSON always has it, as `explain`).
    #[arg(long)]
    explain: bool,
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
    qasm: Option<PathBuf>,
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
}

/// Runs `qchess analyze`: the report as text or JSON, and the circuit with --qasm.
pub fn run(args: AnalyzeArgs) -> Outcome {
    let AnalyzeArgs {
        fen,
        moves,
        backend,
        seed,
        free_turns,
        json,
        explain,
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
    } = args;
    let search = best.then(|| BestRequest {
        level: level.unwrap_or(crate::engine::level::DEFAULT_LEVEL),
        movetime: movetime.map(Duration::from_millis),
    });
    if variant != RuleSet::Quantum {
        let quantum_only = [
            ("--bell", bell.is_some()),
            ("--entanglement", entanglement.is_some()),
            ("--free-turns", free_turns),
            ("--qasm", qasm.is_some()),
        ];
        if let Some((flag, _)) = quantum_only.iter().find(|(_, given)| *given) {
            return Err(Failure::new(format!(
                "{flag} works with the quantum variant only"
            )));
        }
        let game = run_variant(variant, fen.as_deref(), &moves, seed).map_err(Failure::new)?;
        return Ok(Done::Print(if json {
            format!("{}\n", variant_json(game.as_ref(), search.as_ref(), seed))
        } else {
            variant_text(game.as_ref(), explain)
        }));
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
        explain,
        dense_limit_log2: dense_limit,
        sparse_limit,
    };
    let game = super::run(&req).map_err(Failure::new)?;
    if let Some(path) = &qasm {
        write_qasm(&game, path, force).map_err(Failure::new)?;
    }
    Ok(Done::Print(if json {
        format!("{}\n", to_json(&game, &req))
    } else {
        to_text(&game, &req)
    }))
}
