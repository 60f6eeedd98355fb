//! Which king could be captured on the next move, how likely, and by which move: there
//! is no check in Quantum Chess, so the screen warns instead.

use super::board::{Color, Kind, Square};
use super::classify::{classify, Variant};
use super::game::Game;
use super::movegen::legal_moves;
use super::notation::{MoveText, Shape};
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
        let after = outcomes(&board, &mv.text);
        // An outcome "yes" that cannot happen leaves the king where it was.
        let p_yes = after
            .first()
            .map_or(1.0, |(_, p, yes)| if *yes { *p } else { 1.0 });
        let mut left: f64 = after
            .iter()
            .map(|(g, p, _)| p * g.king_presence(color))
            .sum();
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

/// The games after `text` for each outcome of its measurement that can happen, each
/// with its chance and whether it is the outcome "yes" (one game, certain, for a move
/// that measures nothing), played on detached copies: nothing is drawn.
fn outcomes(game: &Game, text: &MoveText) -> Vec<(Game, f64, bool)> {
    let measures =
        classify(game.state(), text, game.options().free_turns).is_ok_and(|c| c.measures());
    if !measures {
        let mut text = *text;
        text.outcome = None;
        return game
            .after(&text)
            .map(|(child, _)| vec![(child, 1.0, true)])
            .unwrap_or_default();
    }
    let mut out = Vec::new();
    for outcome in [true, false] {
        let mut text = *text;
        text.outcome = Some(outcome);
        let Ok((child, p1)) = game.after(&text) else {
            continue;
        };
        let p = p1.map_or(1.0, |p| if outcome { p } else { 1.0 - p });
        out.push((child, p, outcome));
    }
    out
}

/// The chance that the mover's king can be captured on the reply to `text`, taken
/// before its measurement draws anything: each outcome's [`king_threat`] weighed by
/// its chance, with the capture of the likeliest outcome's threat. `None` when no
/// outcome leaves the king capturable (or the move is not legal here).
pub fn threat_after(game: &Game, text: &MoveText) -> Option<Threat> {
    let mover = game.to_move();
    let mut p = 0.0;
    let mut named: Option<(f64, Threat)> = None;
    for (child, chance, _) in outcomes(game, text) {
        let Some(t) = king_threat(&child, mover) else {
            continue;
        };
        p += chance * t.p;
        if named.as_ref().is_none_or(|(w, _)| chance * t.p > *w) {
            named = Some((chance * t.p, t));
        }
    }
    named.map(|(_, t)| Threat { p, ..t })
}
