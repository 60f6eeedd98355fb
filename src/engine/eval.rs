//! The static evaluation: what a position is worth to the side to move, in centipawns,
//! from what the state knows exactly (each square's probability and the piece the
//! classical register names there).
//!
//! Terms (each computed for both sides, White minus Black, then seen from the side to
//! move):
//!
//! * **King presence**: [`KING`] times the probability that the king is still on the
//!   board (the sum of its squares' probabilities). A king at probability 0 ends the
//!   game, so losing a fraction q of the king costs q times roughly a whole game: far
//!   above any material.
//! * **Expected material**: each piece's value ([`value`]) times the probability of its
//!   square.
//! * **Mobility**: for each knight, bishop, rook and queen, the squares its pattern
//!   reaches (a slide stops at a square that is certainly occupied), times its square's
//!   probability, a few centipawns each.
//! * **Centre and pawns**: pawns, knights and bishops nearer the centre, pawns further
//!   up the board, weighted by probability.
//! * **King risk** ([`king_threat`]): each square of a king counted apart, the king's
//!   probability there times the chance that square is attacked: the sum over the
//!   enemy pieces that could capture there of the attacker's probability times the
//!   probability its path is clear (path squares taken as independent), at most 1. A
//!   split king has each half counted (two attacked halves are twice one): that much
//!   king can go over the next captures. The side to move gains [`THREAT_NOW`] of it
//!   against the other king (it could capture now); it loses [`THREAT_LATER`] of it
//!   against its own king (it has a move to answer first), less [`ANSWERED`] of its most
//!   attacked square, which that move can usually save. Counted whole, a check at the
//!   search's horizon cost three queens: the search gave checks there that lost a
//!   bishop (`Bxh7+`), and refused a free recapture that allowed one.
//!
//! The king is [`KING`] (10,000) here and a won game [`WIN`] (30,000) in the search:
//! losing half the king costs a sixth of a lost game, and a chance node weighs a 10%
//! shot at the other king like three queens. Making the two consistent (the
//! evaluation mapped onto the scale of expected results, `tanh` of the centipawns) was
//! measured against Stockfish: it gambled less and scored less (docs/measurements.md),
//! so the scale stays linear. Against an opponent that sees one classical
//! board, shots at its king are worth more than they would be against a perfect one.
//!
//! Bounds the search relies on (expectimax pruning at chance nodes, see
//! `search.rs`): every value this module returns lies in `[-BOUND, BOUND]`, and a game
//! won or lost scores `±(WIN - plies)` with `WIN - MAX_PLY > BOUND`. So every value the
//! search handles lies in `[-WIN, WIN]`.

use crate::chess::classify::pattern;
use crate::chess::{Color, Game, Kind, Square};

/// The score of a won game (less the plies it took to win).
pub const WIN: f64 = 30_000.0;
/// The value of a whole king's presence on the board.
pub const KING: f64 = 10_000.0;
/// Every static evaluation lies in `[-BOUND, BOUND]`.
pub const BOUND: f64 = 25_000.0;
/// Share of a capture threat on the enemy king counted for the side to move.
pub const THREAT_NOW: f64 = 0.5;
/// Share of a capture threat on its own king counted against the side to move.
pub const THREAT_LATER: f64 = 0.3;
/// Share of its king's most attacked square the side to move is taken to save with its
/// move (step away, block, take the attacker): a classical check costs 5% of
/// [`THREAT_LATER`] (150 cp). Whether it can is the search's to find (check extension).
pub const ANSWERED: f64 = 0.95;

/// Which terms an evaluation uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Every term of the module's list.
    Full,
    /// King presence and expected material only (the `greedy` player).
    Material,
}

/// The value of a piece in centipawns (the king is counted by its presence, [`KING`]).
pub fn value(kind: Kind) -> f64 {
    match kind {
        Kind::Pawn => 100.0,
        Kind::Knight => 310.0,
        Kind::Bishop => 330.0,
        Kind::Rook => 500.0,
        Kind::Queen => 950.0,
        Kind::King => KING,
    }
}

/// The terms of an evaluation, each White minus Black.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Terms {
    /// King presence, times [`KING`].
    pub king: f64,
    /// Expected material.
    pub material: f64,
    /// Mobility.
    pub mobility: f64,
    /// Centre and pawn advance.
    pub centre: f64,
    /// The king each side could lose to the other's captures ([`king_risk`]): index 0
    /// White's king, 1 Black's.
    pub threat: [KingRisk; 2],
}

/// The position's value for the side to move, in centipawns, in `[-BOUND, BOUND]`.
pub fn evaluate(game: &Game, style: Style) -> f64 {
    let t = terms(game, style);
    let white = t.king + t.material + t.mobility + t.centre;
    let to_move = game.to_move();
    let (own, other) = match to_move {
        Color::White => (t.threat[0], t.threat[1]),
        Color::Black => (t.threat[1], t.threat[0]),
    };
    // The side to move saves most of its most attacked king square with its move.
    let own = own.total - ANSWERED * own.largest;
    let side = if to_move == Color::White { 1.0 } else { -1.0 };
    let v = side * white + KING * (THREAT_NOW * other.total - THREAT_LATER * own);
    v.clamp(-BOUND, BOUND)
}

/// The evaluation's terms.
pub fn terms(game: &Game, style: Style) -> Terms {
    let st = game.state();
    let mut t = Terms::default();
    for (s, piece) in st.register.pieces() {
        let p = st.probs[s.index()];
        if p <= 0.0 {
            continue;
        }
        let sign = if piece.color == Color::White {
            1.0
        } else {
            -1.0
        };
        if piece.kind == Kind::King {
            t.king += sign * KING * p;
        } else {
            t.material += sign * value(piece.kind) * p;
        }
        if style == Style::Full {
            t.mobility += sign * p * mobility_weight(piece.kind) * reach(game, s, piece.kind);
            t.centre += sign * p * placement(piece.kind, piece.color, s);
        }
    }
    if style == Style::Full {
        t.threat = [king_risk(game, Color::White), king_risk(game, Color::Black)];
    }
    t
}

fn mobility_weight(kind: Kind) -> f64 {
    match kind {
        Kind::Knight | Kind::Bishop => 4.0,
        Kind::Rook => 2.0,
        Kind::Queen => 1.0,
        Kind::Pawn | Kind::King => 0.0,
    }
}

/// Centre and advance bonus of one piece.
pub fn placement(kind: Kind, color: Color, s: Square) -> f64 {
    // 0 on the edge ring, 3 on the four centre squares.
    let ring = |x: i32| (2 * x - 7).abs() / 2;
    let central = (3 - ring(s.file()).max(ring(s.rank()))) as f64;
    let advanced = match color {
        Color::White => s.rank() - 1,
        Color::Black => 6 - s.rank(),
    } as f64;
    match kind {
        Kind::Pawn => 6.0 * central + 8.0 * advanced + if advanced >= 5.0 { 40.0 } else { 0.0 },
        Kind::Knight => 10.0 * central,
        Kind::Bishop => 5.0 * central,
        Kind::Queen => 2.0 * central,
        Kind::Rook | Kind::King => 0.0,
    }
}

/// Squares a knight, bishop, rook or queen on `s` reaches; a slide stops after a square
/// that is certainly occupied.
fn reach(game: &Game, s: Square, kind: Kind) -> f64 {
    let st = game.state();
    match kind {
        Kind::Knight => Square::all().filter(|&t| pattern(kind, s, t)).count() as f64,
        Kind::Bishop | Kind::Rook | Kind::Queen => {
            let mut n = 0;
            for (df, dr) in (-1..=1).flat_map(|f| (-1..=1).map(move |r| (f, r))) {
                let diagonal = df != 0 && dr != 0;
                let straight = (df == 0) != (dr == 0);
                let slides = match kind {
                    Kind::Bishop => diagonal,
                    Kind::Rook => straight,
                    _ => diagonal || straight,
                };
                if !slides {
                    continue;
                }
                let mut at = s;
                while let Some(next) = at.offset(df, dr) {
                    n += 1;
                    if st.certain(next) {
                        break;
                    }
                    at = next;
                }
            }
            n as f64
        }
        Kind::Pawn | Kind::King => 0.0,
    }
}

/// How much of a king the other side's captures could take.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct KingRisk {
    /// Over all its squares ([`king_threat`]).
    pub total: f64,
    /// On its most attacked square: what one move of its side can usually save.
    pub largest: f64,
}

/// The king `victim` could lose to the other side's captures, each of its squares
/// counted apart: the king's probability there times the chance the square is attacked
/// (the attackers' probabilities times their clear-path probabilities, summed, at most
/// 1). 1 for a king on one square attacked by a certain piece along a clear path (a
/// classical check).
pub fn king_threat(game: &Game, victim: Color) -> f64 {
    king_risk(game, victim).total
}

/// [`king_threat`], and the share of it on the king's most attacked square.
pub fn king_risk(game: &Game, victim: Color) -> KingRisk {
    let st = game.state();
    let attacker = victim.opposite();
    let mut risk = KingRisk::default();
    for (k, kp) in st.register.pieces() {
        if kp.color != victim || kp.kind != Kind::King {
            continue;
        }
        let pk = st.probs[k.index()];
        if pk <= 0.0 {
            continue;
        }
        let mut attacked: f64 = 0.0;
        for (a, ap) in st.register.pieces() {
            if ap.color != attacker {
                continue;
            }
            let pa = st.probs[a.index()];
            if pa <= 0.0 {
                continue;
            }
            if let Some(clear) = attack_chance(game, a, ap.kind, attacker, k) {
                attacked += pa * clear;
                if attacked >= 1.0 {
                    break;
                }
            }
        }
        let here = pk * attacked.min(1.0);
        risk.total += here;
        risk.largest = risk.largest.max(here);
    }
    risk
}

/// Whether the side to move is in check as in classical chess: its king certain on one
/// square, attacked by a certain piece along a certainly clear path.
pub fn in_check(game: &Game) -> bool {
    let st = game.state();
    let me = st.to_move;
    let whole = st
        .register
        .pieces()
        .any(|(s, p)| p.color == me && p.kind == Kind::King && st.certain(s));
    whole && king_threat(game, me) >= 1.0 - 1e-9
}

/// Whether a piece of `kind` and `color` on `a` attacks `k` by its capture pattern, and
/// the probability its path is clear (path squares taken as independent).
pub fn attack_chance(game: &Game, a: Square, kind: Kind, color: Color, k: Square) -> Option<f64> {
    let st = game.state();
    let (df, dr) = (k.file() - a.file(), k.rank() - a.rank());
    let (adf, adr) = (df.abs(), dr.abs());
    let slides = match kind {
        Kind::Pawn => return (adf == 1 && dr == color.forward()).then_some(1.0),
        Kind::Knight => return ((adf, adr) == (1, 2) || (adf, adr) == (2, 1)).then_some(1.0),
        Kind::King => return (adf.max(adr) == 1).then_some(1.0),
        Kind::Bishop => adf == adr,
        Kind::Rook => adf == 0 || adr == 0,
        Kind::Queen => adf == adr || adf == 0 || adr == 0,
    };
    if !slides || (adf == 0 && adr == 0) {
        return None;
    }
    let mut clear = 1.0;
    for s in crate::chess::classify::between(a, k) {
        clear *= 1.0 - st.probs[s.index()];
        if clear <= 0.0 {
            return None;
        }
    }
    Some(clear)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::GameOptions;

    fn game(fen: &str) -> Game {
        Game::from_fen(fen, GameOptions::default()).unwrap()
    }

    #[test]
    fn start_position_is_balanced() {
        let g = Game::standard(GameOptions::default());
        assert!(evaluate(&g, Style::Full).abs() < 1e-9);
        assert!(evaluate(&g, Style::Material).abs() < 1e-9);
    }

    #[test]
    fn material_counts_by_probability() {
        let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        assert_eq!(evaluate(&g, Style::Material), 500.0);
        g.play("a1^a3a5").unwrap();
        // Black to move; the rook is on the board with probability 1 in all.
        assert!((evaluate(&g, Style::Material) + 500.0).abs() < 1e-9);
        let t = terms(&g, Style::Material);
        assert!((t.material - 500.0).abs() < 1e-9);
    }

    #[test]
    fn mobility_counts_reachable_squares() {
        // The rook reaches a2..a8 and b1, c1, d1, e1 (its own king, certain: the slide
        // stops there): 11 squares at 2 each.
        let g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        assert_eq!(terms(&g, Style::Full).mobility, 22.0);
        // The knight on b1: a3, c3, d2, at 4 each.
        let g = game("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1");
        assert_eq!(terms(&g, Style::Full).mobility, 12.0);
        assert_eq!(terms(&g, Style::Material).mobility, 0.0);
    }

    #[test]
    fn king_threat_weighs_path_and_probabilities() {
        // The rook on a8 attacks the king on e8 through b8, c8, d8 (empty).
        let g = game("R3k3/8/8/8/8/8/8/4K3 b - - 0 1");
        assert!((king_threat(&g, Color::Black) - 1.0).abs() < 1e-12);
        assert_eq!(king_threat(&g, Color::White), 0.0);
        // Black to move is in check: its move can save the king, so only what is left
        // of THREAT_LATER after ANSWERED counts (150), on top of the rook (500) and its
        // mobility (11 squares, 22).
        let v = evaluate(&g, Style::Full);
        let check = KING * THREAT_LATER * (1.0 - ANSWERED);
        assert!((v + 500.0 + check + 22.0).abs() < 1e-9, "{v}");
        // A knight split onto c8 (and d7) leaves the path clear with probability 1/2.
        let mut g = game("R3k3/8/1N6/8/8/8/8/4K3 w - - 0 1");
        g.play("b6^c8d7").unwrap();
        assert!((king_threat(&g, Color::Black) - 0.5).abs() < 1e-12);
        // A certain piece on the path blocks it.
        let g = game("R1n1k3/8/8/8/8/8/8/4K3 b - - 0 1");
        assert_eq!(king_threat(&g, Color::Black), 0.0);
    }

    #[test]
    fn each_half_of_a_split_king_counts() {
        // The black king on e3 splits onto d2 and f4.
        let threat = |fen: &str| {
            let mut g = game(fen);
            g.play("e3^d2f4").unwrap();
            king_threat(&g, Color::Black)
        };
        assert!(
            threat("8/8/8/8/8/4k3/8/R6K b - - 0 1").abs() < 1e-12,
            "neither half"
        );
        // The rook on a2 attacks d2 along the second rank: half the king.
        assert!((threat("8/8/8/8/8/4k3/R7/7K b - - 0 1") - 0.5).abs() < 1e-12);
        // And the rook on f8 attacks f4: both halves, the whole king (the best single
        // capture would take half).
        assert!((threat("5R2/8/8/8/8/4k3/R7/7K b - - 0 1") - 1.0).abs() < 1e-12);
    }

    #[test]
    fn only_the_most_attacked_half_counts_as_answered() {
        // Both halves of the black king attacked (by the rooks on a2 and f8), Black to
        // move: one move saves one half, the other stays at risk.
        let mut g = game("5R2/8/8/8/8/4k3/R7/7K b - - 0 1");
        g.play("e3^d2f4").unwrap();
        g.play("h1g1").unwrap();
        let risk = king_risk(&g, Color::Black);
        assert!((risk.total - 1.0).abs() < 1e-12 && (risk.largest - 0.5).abs() < 1e-12);
        let t = terms(&g, Style::Full);
        let plain = -(t.king + t.material + t.mobility + t.centre);
        let cost = plain - evaluate(&g, Style::Full);
        let expected = KING * THREAT_LATER * (1.0 - ANSWERED * 0.5);
        assert!((cost - expected).abs() < 1e-9, "{cost} {expected}");
    }

    #[test]
    fn a_check_is_a_whole_king_attacked_for_certain() {
        assert!(in_check(&game("R3k3/8/8/8/8/8/8/4K3 b - - 0 1")));
        assert!(
            !in_check(&game("R3k3/8/8/8/8/8/8/4K3 w - - 0 1")),
            "White's"
        );
        assert!(
            !in_check(&game("R1n1k3/8/8/8/8/8/8/4K3 b - - 0 1")),
            "blocked"
        );
        // Both halves of a split king attacked: all of it, but not a check.
        let mut g = game("5R2/8/8/8/8/4k3/R7/7K b - - 0 1");
        g.play("e3^d2f4").unwrap();
        assert!(king_threat(&g, Color::Black) > 1.0 - 1e-9);
        g.play("h1g1").unwrap();
        assert!(!in_check(&g));
    }
}
