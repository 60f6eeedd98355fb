//! `qchess analyze`: its arguments, and the run that plays the moves and prints the
//! report.

use crate::analyze::{run_variant, to_json, to_text, variant_json, variant_text, write_qasm};
use crate::analyze::{BestRequest, Request};
use crate::chess::Square;
use crate::cli::export::{is_stdout, one_to_stdout};
use crate::cli::{
    backend_flag, level_flag, parse_dense_limit, parse_game_number, parse_sparse_limit,
    parse_square, variant_flag, Done, Failure, Outcome,
};
use crate::game::{Playable, RuleSet};
use crate::quantum::{BackendKind, SimulatorOverrides, SimulatorSettings};
use crate::record::{Players, SavedGame};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// Options of `qchess analyze`.
#[derive(Args, Debug, Clone)]
#[command(group(clap::ArgGroup::new("outputs").args(["qasm", "pgn"]).multiple(true)))]
pub struct AnalyzeArgs {
    /// Start position as FEN (default: the standard start).
    #[arg(long, conflicts_with = "load")]
    fen: Option<String>,
    /// Moves in Quantum Chess notation, separated by spaces (after the loaded game's,
    /// with --load).
    #[arg(long, default_value = "")]
    moves: String,
    /// Start from a saved game: qchess's TOML, or a PGN file (.pgn); its start, seed,
    /// rule system and moves.
    #[arg(long, value_name = "FILE")]
    load: Option<PathBuf>,
    /// Which game of a PGN file with several to load (from 1; default the first).
    #[arg(long, value_name = "N", requires = "load", value_parser = parse_game_number)]
    game: Option<usize>,
    /// Simulator backend.
    #[arg(long, default_value = "sparse", value_parser = backend_flag())]
    backend: BackendKind,
    /// Seed for the random outcomes of unforced measurements.
    #[arg(long, default_value_t = 0, conflicts_with = "load")]
    seed: u64,
    /// Let any side move (turn order not enforced).
    #[arg(long, conflicts_with = "load")]
    free_turns: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Explain every move in the text report: what it asked, what it answered, and
    /// every square whose chance changed (the JSON always has it, as `explain`).
    #[arg(long)]
    explain: bool,
    /// Rule system: quantum (Quantum Chess), harmonics or haft.
    #[arg(long, default_value = "quantum", value_parser = variant_flag(), conflicts_with = "load")]
    variant: RuleSet,
    /// Report the Bell correlations of two squares (e.g. --bell a3 c3).
    #[arg(long, num_args = 2, value_names = ["SQ1", "SQ2"], value_parser = parse_square)]
    bell: Option<Vec<Square>>,
    /// Report the entanglement of one square with every other square.
    #[arg(long, value_name = "SQ", value_parser = parse_square)]
    entanglement: Option<Square>,
    /// Also write the game's circuit as OpenQASM 3 to this file (`-`: to standard
    /// output, instead of the report).
    #[arg(long, value_name = "OUT")]
    qasm: Option<PathBuf>,
    /// Also write the game as PGN to this file (`-`: to standard output, instead of the
    /// report).
    #[arg(long, value_name = "OUT")]
    pgn: Option<PathBuf>,
    /// Also search for the best move of the side to move (JSON: `best`).
    #[arg(long)]
    best: bool,
    /// Strength of the search for --best: 1 (fast) to 5 (default 3).
    #[arg(long, requires = "best", value_parser = level_flag())]
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
    /// Let --qasm replace a file that is not an earlier qchess export, and --pgn one
    /// that is not PGN.
    #[arg(long, requires = "outputs")]
    force: bool,
}

/// What `--load` brings: the saved game, and where it came from.
struct Loaded {
    saved: SavedGame,
    file: PathBuf,
}

/// Runs `qchess analyze`: the report as text or JSON, and the circuit with --qasm.
pub fn run(args: AnalyzeArgs) -> Outcome {
    let AnalyzeArgs {
        mut fen,
        mut moves,
        load,
        game,
        backend,
        mut seed,
        mut free_turns,
        json,
        explain,
        mut variant,
        bell,
        entanglement,
        qasm,
        pgn,
        best,
        level,
        movetime,
        dense_limit,
        sparse_limit,
        force,
    } = args;
    one_to_stdout(qasm.as_deref(), pgn.as_deref())?;
    let to_stdout = [("--qasm", &qasm), ("--pgn", &pgn)]
        .into_iter()
        .find(|(_, out)| out.as_deref().is_some_and(is_stdout));
    if let Some((flag, _)) = to_stdout.filter(|_| json) {
        return Err(Failure::new(format!(
            "--json and {flag} - both write to standard output: write one to a file"
        )));
    }
    let loaded = match load {
        None => None,
        Some(file) => {
            let saved = crate::record::load_game(&file, game).map_err(Failure::new)?;
            variant = saved.rules(&file).map_err(Failure::new)?;
            fen.clone_from(&saved.start);
            seed = saved.seed;
            free_turns = saved.free_turns;
            moves = saved
                .moves
                .iter()
                .map(String::as_str)
                .chain(moves.split_whitespace())
                .collect::<Vec<_>>()
                .join(" ");
            Some(Loaded { saved, file })
        }
    };
    let pgn_out = |game: &dyn Playable| match &pgn {
        Some(out) => write_pgn(game, loaded.as_ref(), out, force),
        None => Ok(None),
    };
    let search = best.then(|| BestRequest {
        level: level.unwrap_or(crate::engine::level::DEFAULT_LEVEL),
        movetime: movetime.map(Duration::from_millis),
    });
    if !variant.simulated() {
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
        if let Some(text) = pgn_out(game.as_ref())? {
            return Ok(Done::Print(text));
        }
        return Ok(Done::Print(if json {
            format!("{}\n", variant_json(game.as_ref(), search.as_ref(), seed))
        } else {
            variant_text(game.as_ref(), explain)
        }));
    }
    let simulator = SimulatorOverrides {
        backend: Some(backend),
        dense_limit_log2: dense_limit,
        sparse_limit,
    };
    let req = Request {
        fen,
        moves,
        simulator: simulator.over(SimulatorSettings::default()),
        seed,
        free_turns,
        bell: bell.map(|v| (v[0], v[1])),
        entanglement,
        best: search,
        explain,
    };
    let played = Box::<dyn Playable>::from(crate::analyze::run(&req).map_err(Failure::new)?);
    let game = played.quantum().expect("a Quantum Chess game");
    let mut printed = None;
    if let Some(path) = &qasm {
        if is_stdout(path) {
            printed = Some(crate::qasm::export(game));
        } else {
            write_qasm(game, path, force).map_err(Failure::new)?;
        }
    }
    if let Some(text) = pgn_out(played.as_ref())?.or(printed) {
        return Ok(Done::Print(text));
    }
    Ok(Done::Print(if json {
        format!("{}\n", to_json(game, &req))
    } else {
        to_text(game, &req)
    }))
}

/// Writes the analysed game as PGN to `out` (`--pgn`): with `--load`, with the loaded
/// game's players, date and tags, and its result while no move was added to it. For
/// `-`, the text to print instead.
fn write_pgn(
    game: &dyn Playable,
    loaded: Option<&Loaded>,
    out: &std::path::Path,
    force: bool,
) -> Result<Option<String>, Failure> {
    let saved = match loaded {
        None => SavedGame::of(game, &Players::default(), ""),
        Some(Loaded { saved, .. }) => {
            let mut now = SavedGame {
                tags: saved.tags.clone(),
                ..SavedGame::of(game, &saved.players, &saved.date)
            };
            // The loaded moves come first; a file of before may write them otherwise
            // (`.m1` on a certain capture), so they are counted, not compared.
            if now.moves.len() == saved.moves.len() && !now.finished() {
                now.result = saved.result;
            }
            now
        }
    };
    if is_stdout(out) {
        return Ok(Some(crate::record::pgn::file::text(&saved)));
    }
    let input = loaded.map(|l| l.file.as_path());
    crate::record::pgn::file::export(out, &saved, input, force).map_err(Failure::new)?;
    Ok(None)
}
