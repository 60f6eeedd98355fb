//! Which king could be captured on the next move, how likely, and by which move: there
//! is no check in Quantum Chess, so the screen warns instead.

use super::board::{Color, Kind, Square};
use super::classify::Variant;
use super::game::Game;
use super::movegen::legal_moves;
use super::notation::Shape;
use super::outcome::Status;
use crate::quantum::CERTAIN_EPS;

/// The most dangerous capture of a king.
#[derive(Clone, Debug, PartialEq)]
pub struct Threat {
    /// The chance that the king is captured by the move (whatever its measurement draws).
    pub p: f64,
    /// The capturing move in canonical notation.
    pub by: String,
    /// The king's square it captures on.
    pub king: Square,
}

/// The capture of `color`'s king most likely to succeed if the other side moved now
/// (for the side to move: as if it passed), or `None` when no move can capture it or
/// the game is over.
pub fn king_threat(game: &Game, color: Color) -> Option<Threat> {
    if game.status() != Status::Ongoing {
        return None;
    }
    let board = if game.to_move() == color {
        game.passed()
    } else {
        game.detached()
    };
    let kings: Vec<Square> = board
        .state()
        .register
        .pieces()
        .filter(|(s, p)| p.color == color && p.kind == Kind::King && board.state().occupied(*s))
        .map(|(s, _)| s)
        .collect();
    let present = board.king_presence(color);
    let mut best: Option<Threat> = None;
    for mv in legal_moves(board.state(), board.options().free_turns) {
        let Shape::Standard { to, .. } = mv.text.shape else {
            continue;
        };
        if mv.variant != Variant::Capture || !kings.contains(&to) {
            continue;
        }
        // The king leaves the board only by capture: the chance it is captured is the
        // presence it loses on average over the outcomes of the move's measurement.
        let mut left = 0.0;
        let mut p_yes = 1.0;
        for outcome in [true, false] {
            let mut text = mv.text;
            text.outcome = Some(outcome);
            let Ok((child, p1)) = board.after(&text) else {
                continue;
            };
            let p = p1.map_or(1.0, |p| if outcome { p } else { 1.0 - p });
            if outcome {
                p_yes = p;
            }
            left += p * child.king_presence(color);
            if p1.is_none() {
                break;
            }
        }
        if p_yes <= CERTAIN_EPS {
            left = present;
        }
        let p = (present - left).clamp(0.0, 1.0);
        if p > CERTAIN_EPS && best.as_ref().is_none_or(|b| p > b.p + 1e-12) {
            best = Some(Threat {
                p,
                by: mv.text.to_string(),
                king: to,
            });
        }
    }
    best
}
