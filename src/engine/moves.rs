//! The moves a search considers, and a first guess at which are best.
//!
//! Every legal move of the side to move is considered, splits and merges included, with
//! one pruning: a split is tried with its targets in one order only (the lower square
//! first). The two orders give the same probabilities on every square and differ only by
//! a relative phase of i between the two halves, which shows only if the halves later
//! interfere (a merge, or a slide through one of them): a position the search sees as
//! equal. Merges are kept in both source orders, which do differ in probabilities.

use super::eval::{attack_chance, placement, value};
use crate::chess::board::{DIAGONALS, KNIGHT_JUMPS, STRAIGHTS};
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

/// The king's eight steps.
const KING_STEPS: [(i32, i32); 8] = [
    DIAGONALS[0],
    DIAGONALS[1],
    DIAGONALS[2],
    DIAGONALS[3],
    STRAIGHTS[0],
    STRAIGHTS[1],
    STRAIGHTS[2],
    STRAIGHTS[3],
];

/// What a node's move order looks at: where the other side's king is, what each piece
/// of the side to move stands to lose where it is, and what a piece of each kind would
/// threaten on each square.
pub struct Context {
    kings: Vec<Square>,
    at_risk: [f64; 64],
    /// By the mover's kind (pawn, knight, bishop, rook) and square: [`threatens`].
    threats: [[f64; 64]; 4],
}

impl Context {
    /// The context of `game`'s side to move.
    pub fn of(game: &Game) -> Context {
        let st = game.state();
        let me = st.to_move;
        let theirs = cheapest_attackers(game, me.opposite());
        let ours = cheapest_attackers(game, me);
        let mut at_risk = [0.0; 64];
        let mut threats = [[0.0; 64]; 4];
        for (s, piece) in st.register.pieces() {
            let p = st.probs[s.index()];
            if p <= 0.0 || piece.kind == Kind::King {
                continue;
            }
            if piece.color == me {
                let attacker = theirs[s.index()];
                if attacker.is_finite() {
                    let defended = ours[s.index()].is_finite();
                    let loss = value(piece.kind) - if defended { attacker } else { 0.0 };
                    at_risk[s.index()] = loss.max(0.0) * p;
                }
            } else {
                add_threats(game, s, piece.kind, p, me, &mut threats);
            }
        }
        Context {
            kings: enemy_kings(game),
            at_risk,
            threats,
        }
    }

    /// A context for ordering captures only (quiescence): the kings, no risks.
    pub fn for_captures(game: &Game) -> Context {
        Context {
            kings: enemy_kings(game),
            at_risk: [0.0; 64],
            threats: [[0.0; 64]; 4],
        }
    }

    /// What a quiet move of `kind` to `to` newly threatens: the other side's pieces (not
    /// the king) it would likely attack that are worth more than it, each by the
    /// difference times its probability, summed (a fork counts both).
    fn threatens(&self, kind: Kind, to: Square) -> f64 {
        let row = match kind {
            Kind::Pawn => 0,
            Kind::Knight => 1,
            Kind::Bishop => 2,
            Kind::Rook => 3,
            Kind::Queen | Kind::King => return 0.0,
        };
        self.threats[row][to.index()]
    }
}

/// Calls `f` with each square reached from `from` along `dirs`, and the probability
/// that the squares between are empty, while that is at least `floor`.
fn rays(
    game: &Game,
    from: Square,
    dirs: &[(i32, i32)],
    floor: f64,
    f: &mut impl FnMut(Square, f64),
) {
    let probs = &game.state().probs;
    for &(df, dr) in dirs {
        let (mut at, mut clear) = (from, 1.0);
        while let Some(next) = at.offset(df, dr) {
            f(next, clear);
            clear *= 1.0 - probs[next.index()];
            if clear < floor {
                break;
            }
            at = next;
        }
    }
}

/// For each square, the value of the cheapest piece of `color` that likely attacks it
/// (a king counted as a queen); infinite where none does.
fn cheapest_attackers(game: &Game, color: Color) -> [f64; 64] {
    let st = game.state();
    let mut cheapest = [f64::INFINITY; 64];
    for (a, piece) in st.register.pieces() {
        let p = st.probs[a.index()];
        if piece.color != color || p < LIKELY_ATTACK {
            continue;
        }
        let v = value(piece.kind).min(value(Kind::Queen));
        let mut mark = |s: Square, clear: f64| {
            if p * clear >= LIKELY_ATTACK {
                let c = &mut cheapest[s.index()];
                *c = c.min(v);
            }
        };
        let floor = LIKELY_ATTACK / p;
        match piece.kind {
            Kind::Pawn => {
                for df in [-1, 1] {
                    if let Some(s) = a.offset(df, color.forward()) {
                        mark(s, 1.0);
                    }
                }
            }
            Kind::Knight | Kind::King => {
                let steps = if piece.kind == Kind::Knight {
                    KNIGHT_JUMPS
                } else {
                    KING_STEPS
                };
                for (df, dr) in steps {
                    if let Some(s) = a.offset(df, dr) {
                        mark(s, 1.0);
                    }
                }
            }
            Kind::Bishop => rays(game, a, &DIAGONALS, floor, &mut mark),
            Kind::Rook => rays(game, a, &STRAIGHTS, floor, &mut mark),
            Kind::Queen => {
                rays(game, a, &DIAGONALS, floor, &mut mark);
                rays(game, a, &STRAIGHTS, floor, &mut mark);
            }
        }
    }
    cheapest
}

/// Adds to `threats` what a piece of `me` of each kind cheaper than the `victim` on `t`
/// (probability `p`) would threaten from each square that likely attacks `t`.
fn add_threats(
    game: &Game,
    t: Square,
    victim: Kind,
    p: f64,
    me: Color,
    threats: &mut [[f64; 64]; 4],
) {
    let gain = |mover: Kind| (value(victim) - value(mover)) * p;
    if gain(Kind::Pawn) > 0.0 {
        for df in [-1, 1] {
            if let Some(s) = t.offset(df, -me.forward()) {
                threats[0][s.index()] += gain(Kind::Pawn);
            }
        }
    }
    if gain(Kind::Knight) > 0.0 {
        for (df, dr) in KNIGHT_JUMPS {
            if let Some(s) = t.offset(df, dr) {
                threats[1][s.index()] += gain(Kind::Knight);
            }
        }
    }
    for (row, kind, dirs) in [(2, Kind::Bishop, DIAGONALS), (3, Kind::Rook, STRAIGHTS)] {
        if gain(kind) > 0.0 {
            rays(game, t, &dirs, LIKELY_ATTACK, &mut |s, clear| {
                if clear >= LIKELY_ATTACK {
                    threats[row][s.index()] += gain(kind);
                }
            });
        }
    }
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
    let stake = cx.at_risk[from.index()] + cx.threatens(kind, to);
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

    /// The order key of `mv` in the position `fen`.
    fn key(fen: &str, mv: &str) -> f64 {
        let g = Game::from_fen(fen, GameOptions::default()).unwrap();
        let m = candidates(&g)
            .into_iter()
            .find(|m| m.text.to_string() == mv)
            .unwrap();
        order_key(&g, &m, &Context::of(&g))
    }

    #[test]
    fn forks_and_escapes_are_tactical() {
        // e4-e5 attacks the bishop on d6 and the knight on f6: both worth more than
        // the pawn.
        let fork = "rnbqk2r/pppp1ppp/3bpn2/8/4PP2/2N5/PPPP2PP/R1BQKBNR w KQkq - 6 4";
        let k = key(fork, "e4e5");
        assert!(k >= TACTICAL + 2.0 * 200.0, "{k}");
        assert!(key(fork, "a2a3") < TACTICAL);
        // The knight on e4, attacked by the pawn on d5: its retreats are escapes; a
        // move of another piece is not.
        let attacked = "r1bqkb1r/ppp2ppp/2n1p3/3p4/3PN3/5N2/PPP2PPP/R1BQKB1R w KQkq - 0 6";
        assert!(key(attacked, "e4c3") >= TACTICAL + 200.0);
        assert!(key(attacked, "a2a3") < TACTICAL);
        // A pawn attacked by a pawn and defended stands to lose nothing.
        let pawns = "4k3/8/8/3p4/4P3/5P2/8/4K3 w - - 0 1";
        assert!(key(pawns, "e4e5") < TACTICAL);
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
