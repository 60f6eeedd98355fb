//! What a Quantum Chess position holds, as the JSON object of docs/rules/notation.md
//! (`qchess analyze --json` adds its own requests to it).

use super::distribution::MAX_DISTRIBUTION;
use super::threat::king_threat;
use super::{EndReason, Game, Square};
use crate::quantum::FactorSize;
use serde_json::{json, Map, Value};

/// Every legal move of the side to move in canonical notation (splits in both target
/// orders, merges in both source orders), none once the game is over.
pub fn legal_moves(game: &Game) -> Vec<String> {
    if game.status() != crate::chess::Status::Ongoing {
        return Vec::new();
    }
    crate::chess::movegen::legal_moves(game.state(), game.options().free_turns)
        .iter()
        .map(|m| m.text.to_string())
        .collect()
}

/// The names of the squares in a set of 64 bits (bit i is square i).
pub fn squares_of(set: u64) -> Vec<String> {
    (0..64)
        .filter(|i| set >> i & 1 == 1)
        .map(|i| Square(i).to_string())
        .collect()
}

/// The factors of the game's quantum state, largest first, and the largest (a classical
/// state has none: then 0 qubits and 1 branch).
pub fn factors(game: &Game) -> (Vec<FactorSize>, FactorSize) {
    let factors = game.simulator().backend().factor_sizes();
    let largest = factors.first().copied().unwrap_or(FactorSize {
        qubits: 0,
        branches: 1,
    });
    (factors, largest)
}

/// The probability the drawn outcome had before the measurement (`None` when the move
/// did not measure): `.m1` of a 3% capture is 0.03, `.m0` of it 0.97.
pub fn outcome_probability(outcome: Option<bool>, p1: Option<f64>) -> Option<f64> {
    match (outcome, p1) {
        (Some(true), Some(p)) => Some(p),
        (Some(false), Some(p)) => Some(1.0 - p),
        _ => None,
    }
}

/// `end_reason` in `--json`: "king_captured", "both_kings_captured", "fifty_moves" or
/// "repetition".
pub fn end_reason_name(r: EndReason) -> &'static str {
    match r {
        EndReason::KingCaptured => "king_captured",
        EndReason::BothKingsCaptured => "both_kings_captured",
        EndReason::FiftyMoves => "fifty_moves",
        EndReason::Repetition => "repetition",
    }
}

/// The position as JSON: pieces and their chances, the distribution of occupied
/// squares, the moves played with their outcomes and explanations, the factors, the
/// legal moves, and the most likely capture of the side to move's king if it passed.
pub fn to_json(game: &Game) -> Value {
    let (factors, largest) = factors(game);
    let moves: Vec<Value> = game
        .history()
        .iter()
        .map(|m| {
            json!({
                "input": m.input,
                "played": m.played,
                // As the notation: null after a measurement that was certain.
                "outcome": m.drawn().map(|o| o as u8),
                "p": outcome_probability(m.drawn(), m.p1),
                "explain": m.explained.to_json(&m.played),
            })
        })
        .collect();
    let mut squares = Map::new();
    for s in Square::all() {
        if let Some(p) = game.state().piece(s) {
            squares.insert(
                s.to_string(),
                json!({"piece": p.fen_char().to_string(), "p": game.probability(s)}),
            );
        }
    }
    let dist = game.distribution(MAX_DISTRIBUTION + 1);
    let truncated = dist.entries.len() > MAX_DISTRIBUTION;
    let distribution: Vec<Value> = dist
        .entries
        .iter()
        .take(MAX_DISTRIBUTION)
        .map(|(set, p)| json!({"occupied": squares_of(*set), "p": p}))
        .collect();
    let mut out = json!({
        "fen": game.fen(),
        "to_move": game.to_move().name(),
        "ply": game.ply(),
        "status": game.status().name(),
        "end_reason": game.end_reason().map(end_reason_name),
        "moves": moves,
        "squares": squares,
        "distribution": distribution,
        "branches": game.branch_count(),
        "factors": factors.len(),
        "largest_factor": {"qubits": largest.qubits, "branches": largest.branches},
        "backend": game.options().simulator.backend.name(),
        "legal_moves": legal_moves(game),
        "king_attacked": king_threat(game, game.to_move()).map(|t| json!({
            "p": t.p,
            "move": t.by,
            "square": t.king.to_string(),
        })),
    });
    if truncated {
        out["truncated"] = json!(true);
    }
    out
}
