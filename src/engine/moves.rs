//! The moves a search considers, and a first guess at which are best.
//!
//! Every legal move of the side to move is considered, splits and merges included, with
//! one pruning: a split is tried with its targets in one order only (the lower square
//! first). The two orders give the same probabilities on every square and differ only by
//! a relative phase of i between the two halves, which shows only if the halves later
//! interfere (a merge, or a slide through one of them): a position the search sees as
//! equal. Merges are kept in both source orders, which do differ in probabilities.

use super::eval::{attack_chance, placement, value};
use crate::chess::classify::classify;
use crate::chess::movegen::{legal_moves_one_split_order, standard_reach};
use crate::chess::notation::Shape;
use crate::chess::{Classified, Game, Kind, MoveText, MoveType, Piece, Square, Variant};

/// The moves a search tries from `game`: every legal move of the side to move, one
/// target order per split.
pub fn candidates(game: &Game) -> Vec<Classified> {
    legal_moves_one_split_order(game.state())
}

/// The captures of the side to move (a promotion by capture to a queen only): what a
/// quiescence search tries.
pub fn captures(game: &Game) -> Vec<Classified> {
    let st = game.state();
    let me = st.to_move;
    let mut out = Vec::new();
    for (from, piece) in st.register.pieces() {
        if piece.color != me || !st.occupied(from) {
            continue;
        }
        for (to, victim) in st.register.pieces() {
            if victim.color == me || !st.occupied(to) || !standard_reach(piece.kind, me, from, to) {
                continue;
            }
            let mut text = MoveText::standard(from, to);
            if piece.kind == Kind::Pawn && to.rank() == me.opposite().back_rank() {
                text.promotion = Some(Kind::Queen);
            }
            if let Ok(m) = classify(st, &text, false) {
                if m.variant == Variant::Capture {
                    out.push(m);
                }
            }
        }
    }
    out
}

/// Squares where the side not to move has its king (with some probability).
pub fn enemy_kings(game: &Game) -> Vec<Square> {
    let st = game.state();
    let enemy = Piece::new(st.to_move.opposite(), Kind::King);
    st.register
        .pieces()
        .filter(|&(s, p)| p == enemy && st.occupied(s))
        .map(|(s, _)| s)
        .collect()
}

/// Order keys at or above this are tactical moves (captures, promotions, king threats);
/// below, quiet ones.
pub const TACTICAL: f64 = 1.0e6;

/// A king that may lose this much (a share of its presence) to one capture is in
/// danger: a move that threatens that much is tactical, and a side whose king is in
/// danger has no moves pruned.
pub const KING_DANGER: f64 = 0.1;

/// A capture expected to take less than this (in centipawns, and no king) counts as a
/// quiet move.
pub const SMALL_GAIN: f64 = 50.0;

/// The most material a capture can take: the victim's probability times its value
/// (a king's presence for a king), plus a promotion's gain.
pub fn capture_gain(game: &Game, m: &Classified) -> f64 {
    let st = game.state();
    let victim = match m.text.shape {
        Shape::Standard { to, .. } => st
            .register
            .get(to)
            .map_or(0.0, |p| st.probs[to.index()] * value(p.kind)),
        _ => 0.0,
    };
    victim
        + m.text
            .promotion
            .map_or(0.0, |k| value(k) - value(Kind::Pawn))
}

/// Static order key of a move (larger is tried first). Tactical moves, keys of
/// [`TACTICAL`] and more: captures taking at least [`SMALL_GAIN`] in expectation or any
/// part of a king, by the expected value taken (least valuable attacker first), then
/// promotions, then moves onto a square from which the piece could take at least
/// [`KING_DANGER`] of an enemy king. Quiet moves below: smaller captures, other
/// standard moves by how much nearer the centre they go, then splits and merges.
pub fn order_key(game: &Game, m: &Classified, kings: &[Square]) -> f64 {
    let st = game.state();
    let (from, to) = match m.text.shape {
        Shape::Standard { from, to } => (from, to),
        Shape::Split { .. } | Shape::Merge { .. } => return -TACTICAL,
    };
    let color = m.piece.color;
    let kind = m.text.promotion.unwrap_or(m.piece.kind);
    if m.variant == Variant::Capture {
        let gain = capture_gain(game, m);
        let king = st.register.get(to).is_some_and(|p| p.kind == Kind::King);
        return if king || gain >= SMALL_GAIN {
            10.0 * TACTICAL + gain - value(m.piece.kind) / 100.0
        } else {
            TACTICAL / 2.0 + gain
        };
    }
    if let Some(k) = m.text.promotion {
        return 5.0 * TACTICAL + value(k);
    }
    let castles = matches!(m.kind, MoveType::CastleKingSide | MoveType::CastleQueenSide);
    let threat =
        |k: &Square| attack_chance(game, to, kind, color, *k).unwrap_or(0.0) * st.probs[k.index()];
    if !castles && kings.iter().any(|k| threat(k) >= KING_DANGER) {
        return TACTICAL + placement(kind, color, to);
    }
    placement(kind, color, to) - placement(m.piece.kind, color, from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::movegen::legal_moves;
    use crate::chess::GameOptions;

    #[test]
    fn one_order_per_split_and_all_merges() {
        let mut g = Game::standard(GameOptions::default());
        let all = legal_moves(g.state(), false).len();
        // Each knight splits to its two squares in one order instead of two.
        assert_eq!(candidates(&g).len(), all - 2);
        g.play("g1^f3h3").unwrap();
        g.play("e7e6").unwrap();
        let merges = candidates(&g)
            .iter()
            .filter(|m| m.kind == MoveType::MergeJump)
            .count();
        assert_eq!(merges, 4);
    }

    #[test]
    fn captures_are_listed() {
        let g = Game::from_fen(
            "4k3/8/8/3p4/4P3/8/4K3/R6r w - - 0 1",
            GameOptions::default(),
        )
        .unwrap();
        let mut c: Vec<String> = captures(&g).iter().map(|m| m.text.to_string()).collect();
        c.sort();
        assert_eq!(c, ["a1xh1", "e4xd5"]);
    }
}
