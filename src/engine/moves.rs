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
use crate::chess::{Classified, Color, Game, Kind, MoveText, MoveType, Piece, Square, Variant};

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

/// An attack counts for ordering when the attacker is there and its path clear with at
/// least this probability.
const LIKELY_ATTACK: f64 = 0.5;

/// A piece that may be on the board: its square, what it is, and its probability.
type Placed = (Square, Piece, f64);

/// What a node's move order looks at: where the other side's king is, and what each
/// piece of the side to move stands to lose where it is.
pub struct Context {
    kings: Vec<Square>,
    pieces: Vec<Placed>,
    at_risk: [f64; 64],
}

impl Context {
    /// The context of `game`'s side to move.
    pub fn of(game: &Game) -> Context {
        let st = game.state();
        let pieces: Vec<Placed> = st
            .register
            .pieces()
            .map(|(s, p)| (s, p, st.probs[s.index()]))
            .filter(|&(_, _, p)| p > 0.0)
            .collect();
        let at_risk = at_risk(game, &pieces);
        Context {
            kings: enemy_kings(game),
            pieces,
            at_risk,
        }
    }

    /// A context for ordering captures only (quiescence): the kings, no risks.
    pub fn for_captures(game: &Game) -> Context {
        Context {
            kings: enemy_kings(game),
            pieces: Vec::new(),
            at_risk: [0.0; 64],
        }
    }
}

/// Whether `attacker` likely attacks `t` (see [`LIKELY_ATTACK`]).
fn likely_attack(game: &Game, (a, attacker, p): Placed, t: Square) -> bool {
    p >= LIKELY_ATTACK
        && attack_chance(game, a, attacker.kind, attacker.color, t)
            .is_some_and(|clear| p * clear >= LIKELY_ATTACK)
}

/// For each square of a piece of the side to move (not its king), the material it may
/// lose there to the other side's next capture, times its probability: its value when
/// it is attacked and not defended, else its value less the cheapest attacker's.
fn at_risk(game: &Game, pieces: &[Placed]) -> [f64; 64] {
    let me = game.to_move();
    let mut risk = [0.0; 64];
    for &(s, piece, p) in pieces {
        if piece.color != me || piece.kind == Kind::King {
            continue;
        }
        let cheapest = pieces
            .iter()
            .filter(|&&a| a.1.color != me && likely_attack(game, a, s))
            .map(|a| value(a.1.kind).min(value(Kind::Queen)))
            .reduce(f64::min);
        let Some(cheapest) = cheapest else {
            continue;
        };
        let defended = pieces
            .iter()
            .any(|&d| d.0 != s && d.1.color == me && likely_attack(game, d, s));
        let loss = if defended {
            value(piece.kind) - cheapest
        } else {
            value(piece.kind)
        };
        risk[s.index()] = loss.max(0.0) * p;
    }
    risk
}

/// What a quiet move of `kind` to `to` newly threatens: the other side's pieces (not
/// the king) it would likely attack that are worth more than it, each by the
/// difference times its probability, summed (a fork counts both).
fn threatens(game: &Game, cx: &Context, kind: Kind, color: Color, to: Square) -> f64 {
    cx.pieces
        .iter()
        .filter(|&&(t, victim, _)| {
            victim.color != color
                && victim.kind != Kind::King
                && value(victim.kind) > value(kind)
                && attack_chance(game, to, kind, color, t).is_some_and(|c| c >= LIKELY_ATTACK)
        })
        .map(|&(_, victim, p)| (value(victim.kind) - value(kind)) * p)
        .sum()
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
/// [`KING_DANGER`] of an enemy king, then moves of a piece that stands to lose at least
/// [`SMALL_GAIN`] where it is (escapes) and moves that attack pieces worth more than the
/// mover (threats, forks), by what is at stake. Quiet moves below: smaller captures,
/// other standard moves by how much nearer the centre they go, then splits and merges.
pub fn order_key(game: &Game, m: &Classified, cx: &Context) -> f64 {
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
    if !castles && cx.kings.iter().any(|k| threat(k) >= KING_DANGER) {
        return 2.0 * TACTICAL + placement(kind, color, to);
    }
    let stake = cx.at_risk[from.index()] + threatens(game, cx, kind, color, to);
    if stake >= SMALL_GAIN {
        return TACTICAL + stake;
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
