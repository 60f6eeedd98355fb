//! `qchess analyze`: play moves from a position and report the result, as text or JSON
//! (docs/rules/notation.md).

use crate::chess::threat::king_threat;
use crate::chess::{fen::START_FEN, report, Game, GameOptions, MoveError, Square};
use crate::engine::{level, Limits, Report};
use crate::game::{Playable, RuleSet, Setup};
use crate::quantum::bell::{bell, log_negativity};
use crate::quantum::SimulatorSettings;
use serde_json::{json, Map, Value};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Names of the Bell values O1..O8, in the spec's order.
pub const BELL_NAMES: [&str; 8] = [
    "Psi+", "Psi-", "Psi+i", "Psi-i", "Phi+", "Phi-", "Phi+i", "Phi-i",
];

/// What `analyze` was asked.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// Start position (default: the standard one).
    pub fen: Option<String>,
    /// Moves, separated by white space.
    pub moves: String,
    /// The simulator's backend and its size limits.
    pub simulator: SimulatorSettings,
    /// Seed.
    pub seed: u64,
    /// Ignore turn order.
    pub free_turns: bool,
    /// Report the Bell correlations of these two squares.
    pub bell: Option<(Square, Square)>,
    /// Report the entanglement of this square with every other square.
    pub entanglement: Option<Square>,
    /// Search for the best move of the side to move.
    pub best: Option<BestRequest>,
    /// Explain every move in the text report.
    pub explain: bool,
}

/// How hard `--best` searches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BestRequest {
    /// Level 1..5 (used when there is no time).
    pub level: u8,
    /// Search this long instead of to the level's depth.
    pub movetime: Option<Duration>,
}

impl BestRequest {
    /// The search limits; the analysis seed chooses among equal moves.
    pub fn limits(&self, seed: u64) -> Limits {
        match self.movetime {
            Some(t) => level::timed(t, seed),
            None => level::limits(self.level, seed),
        }
    }
}

/// The search's result as the `best` JSON object (`null` when there is no move).
fn best_json(report: &Report) -> Value {
    let Some(mv) = &report.best else {
        return Value::Null;
    };
    let i = &report.info;
    json!({
        "move": mv,
        "score": i.score.round() as i64,
        "depth": i.depth,
        "nodes": i.nodes,
        "time_ms": (i.time.as_secs_f64() * 1e3).round() as u64,
        "pv": i.pv,
    })
}

/// Searches the position for `req`'s best move.
pub fn best_move(game: &Game, req: &BestRequest, seed: u64) -> Report {
    let stop = AtomicBool::new(false);
    crate::engine::search(game, &req.limits(seed), &stop, &mut |_| {})
}

/// Why `analyze` failed (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum AnalyzeError {
    /// Bad FEN.
    #[error("{0}")]
    Fen(#[from] crate::chess::fen::FenError),
    /// The OpenQASM file could not be written, or was refused.
    #[error(transparent)]
    Write(#[from] crate::qasm::WriteError),
    /// A move that can't be played.
    #[error("move {index} \"{text}\": {error}")]
    Move {
        /// 1-based index of the move.
        index: usize,
        /// The move as given.
        text: String,
        /// Why.
        error: MoveError,
    },
}

/// Plays the request's moves and returns the game.
pub fn run(req: &Request) -> Result<Game, AnalyzeError> {
    let opts = GameOptions {
        simulator: req.simulator,
        seed: req.seed,
        free_turns: req.free_turns,
        ..GameOptions::default()
    };
    let mut game = Game::from_fen(req.fen.as_deref().unwrap_or(START_FEN), opts)?;
    for (i, m) in req.moves.split_whitespace().enumerate() {
        // Squares or SAN (`Nf3`, `exd5.m1`), as the move line and PGN read them.
        game.read(m)
            .and_then(|text| game.play_text(m, &text).map(drop))
            .map_err(|error| AnalyzeError::Move {
                index: i + 1,
                text: m.to_string(),
                error,
            })?;
    }
    Ok(game)
}

/// Writes the game's circuit as OpenQASM 3 (see [`crate::qasm::export`]) to `path`;
/// a file that is not an earlier export is replaced only with `force`
/// ([`crate::qasm::write`]).
pub fn write_qasm(game: &Game, path: &std::path::Path, force: bool) -> Result<(), AnalyzeError> {
    Ok(crate::qasm::write(
        path,
        &crate::qasm::export(game),
        None,
        force,
    )?)
}

/// The entanglement (log negativity) of `sq` with every other square where it is not 0.
pub fn entanglement_map(game: &Game, sq: Square) -> Vec<(Square, f64)> {
    let b = game.simulator().backend();
    Square::all()
        .filter(|&o| o != sq)
        .map(|o| (o, log_negativity(b, sq.0 as u16, o.0 as u16)))
        .filter(|(_, v)| *v > 1e-9)
        .collect()
}

/// The JSON object of notation.md, with `bell` and `entanglement` when asked, and
/// `factors` and `largest_factor` (this engine's addition).
pub fn to_json(game: &Game, req: &Request) -> Value {
    let mut out = report::to_json(game);
    if let Some(b) = &req.best {
        out["best"] = best_json(&best_move(game, b, req.seed));
    }
    if let Some((x, y)) = req.bell {
        let r = bell(game.simulator().backend(), x.0 as u16, y.0 as u16);
        out["bell"] = json!({
            "squares": [x.to_string(), y.to_string()],
            "O": r.o,
            "opposite": r.opposite,
            "same": r.same,
            "merge": r.merge_reading(),
        });
    }
    if let Some(sq) = req.entanglement {
        let m: Map<String, Value> = entanglement_map(game, sq)
            .into_iter()
            .map(|(o, v)| (o.to_string(), json!(v)))
            .collect();
        out["entanglement"] = Value::Object(m);
    }
    out
}

/// The result as text for people: the board with probabilities, the moves, the status,
/// and the Bell and entanglement reports when asked.
pub fn to_text(game: &Game, req: &Request) -> String {
    let (factors, largest) = report::factors(game);
    let mut s = String::new();
    for rank in (0..8).rev() {
        s.push_str(&format!("{} ", rank + 1));
        for file in 0..8 {
            let sq = Square::at(file, rank).expect("on the board");
            match game.state().piece(sq) {
                Some(p) => {
                    let pr = game.probability(sq);
                    if pr > 1.0 - 1e-9 {
                        s.push_str(&format!(" {}    ", p.fen_char()));
                    } else {
                        s.push_str(&format!(" {}{:>3.0}%", p.fen_char(), pr * 100.0));
                    }
                }
                None => s.push_str(" .    "),
            }
        }
        s.push('\n');
    }
    s.push_str("   a     b     c     d     e     f     g     h\n\n");
    for (i, m) in game.history().iter().enumerate() {
        s.push_str(&format!("{:>3}. {}", i + 1, m.played));
        let note = m.explained.note();
        if !note.is_empty() {
            s.push_str(&format!("  ({note})"));
        }
        s.push('\n');
        if req.explain {
            for line in m.explained.lines() {
                s.push_str(&format!("       {line}\n"));
            }
        }
    }
    s.push_str(&format!(
        "\nstatus: {}{}; {} to move; ply {}; 50-move counter {}; {} branches in {} factors, the largest {} qubits / {} branches ({} backend)\n",
        game.status().describe(),
        game.end_reason()
            .map(|r| format!(" ({})", r.describe()))
            .unwrap_or_default(),
        game.to_move().name(),
        game.ply(),
        game.fifty_counter(),
        game.branch_count(),
        factors.len(),
        largest.qubits,
        largest.branches,
        game.options().simulator.backend.name()
    ));
    if let Some(t) = king_threat(game, game.to_move()) {
        s.push_str(&format!(
            "king attacked: {}% by {} (if {} did nothing)\n",
            crate::format::percent(t.p),
            t.by,
            game.to_move().name()
        ));
    }
    if let Some(b) = &req.best {
        let r = best_move(game, b, req.seed);
        match &r.best {
            Some(mv) => s.push_str(&format!(
                "best move: {mv} (score {:+} for {}, depth {}, {} nodes, {} ms); line: {}\n",
                r.info.score.round() as i64,
                game.to_move().name(),
                r.info.depth,
                r.info.nodes,
                r.info.time.as_millis(),
                r.info.pv.join(" ")
            )),
            None => s.push_str("best move: none (no legal move)\n"),
        }
    }
    if let Some((x, y)) = req.bell {
        let r = bell(game.simulator().backend(), x.0 as u16, y.0 as u16);
        s.push_str(&format!("\nBell correlations of {x} and {y}:\n"));
        for (n, v) in BELL_NAMES.iter().zip(r.o) {
            s.push_str(&format!("  {n:<6} {v:.4}\n"));
        }
        s.push_str(&format!(
            "  opposite {:.4}, same {:.4}, opposite share {:.0}%\n  {}\n",
            r.opposite,
            r.same,
            r.opposite_ratio() * 100.0,
            r.merge_reading()
        ));
    }
    if let Some(sq) = req.entanglement {
        let m = entanglement_map(game, sq);
        s.push_str(&format!("\nEntanglement of {sq} (log negativity):"));
        if m.is_empty() {
            s.push_str(" none");
        }
        for (o, v) in m {
            s.push_str(&format!(" {o} {v:.3}"));
        }
        s.push('\n');
    }
    s
}

/// Plays `moves` (separated by white space) under another rule system; the error names
/// the move like [`AnalyzeError::Move`] does.
pub fn run_variant(
    rules: RuleSet,
    fen: Option<&str>,
    moves: &str,
    seed: u64,
) -> Result<Box<dyn Playable>, String> {
    let mut game = crate::variants::new_game(&Setup::with_start(rules, fen, seed))
        .map_err(|e| e.to_string())?;
    for (i, m) in moves.split_whitespace().enumerate() {
        let text = match game.read_san(m) {
            Some(read) => read,
            None => Ok(m.to_string()),
        };
        text.and_then(|t| game.play(&t).map_err(|e| e.to_string()))
            .map_err(|e| format!("move {} \"{m}\": {e}", i + 1))?;
    }
    Ok(game)
}

/// The text report of a variant game: the board (pieces with their probability, `M` for
/// an undetermined piece), the moves with their remarks (and explanations when
/// `explain`), and the status.
pub fn variant_text(game: &dyn Playable, explain: bool) -> String {
    let cells = game.cells();
    let mut s = String::new();
    for rank in (0..8).rev() {
        s.push_str(&format!("{} ", rank + 1));
        for file in 0..8 {
            let sq = Square::at(file, rank).expect("on the board");
            match cells.iter().find(|(c, _)| *c == sq) {
                Some((_, c)) => {
                    let letter = match c.kind {
                        Some(kind) => crate::chess::Piece {
                            color: c.color,
                            kind,
                        }
                        .fen_char(),
                        None if c.color == crate::chess::Color::White => 'M',
                        None => 'm',
                    };
                    if c.probability > 1.0 - 1e-9 {
                        s.push_str(&format!(" {letter}    "));
                    } else {
                        s.push_str(&format!(" {letter}{:>3.0}%", c.probability * 100.0));
                    }
                }
                None => s.push_str(" .    "),
            }
        }
        s.push('\n');
    }
    s.push_str("   a     b     c     d     e     f     g     h\n\n");
    for (i, r) in game.history().iter().enumerate() {
        s.push_str(&format!("{:>3}. {}", i + 1, r.text));
        if !r.note.is_empty() {
            s.push_str(&format!("  ({})", r.note));
        }
        s.push('\n');
        if explain {
            for line in r.explanation.lines() {
                s.push_str(&format!("       {line}\n"));
            }
        }
    }
    let json = game.to_json();
    let count = ["harmonics", "worlds"]
        .iter()
        .find_map(|k| json.get(*k).map(|v| format!("; {v} {k}")))
        .unwrap_or_default();
    s.push_str(&format!(
        "\nvariant {}: {}{}; {} to move; ply {}{count}\n",
        game.rules(),
        game.status().describe(),
        game.end_reason()
            .map(|r| format!(" ({r})"))
            .unwrap_or_default(),
        game.to_move().name(),
        game.history().len(),
    ));
    s
}

/// The `analyze --variant ... --json` object: the variant's own, with `legal_moves`
/// (where the variant does not list them itself) and, when asked, the greedy player's
/// `best` move (depth 1).
pub fn variant_json(game: &dyn Playable, best: Option<&BestRequest>, seed: u64) -> Value {
    let mut out = game.to_json();
    if out.get("legal_moves").is_none() {
        out["legal_moves"] = json!(game.legal_moves());
    }
    if best.is_some() {
        out["best"] = match crate::engine::variant::greedy_variant(game, seed) {
            Ok(choice) => best_json(&Report {
                best: Some(choice.mv),
                info: choice.info.expect("the greedy player reports its search"),
            }),
            Err(_) => Value::Null,
        };
    }
    out
}
