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
//!   against its own king (it has a move to answer first).
//!
//! * **King zone** ([`king_zone`]): the squares around each square of a king that
//!   the other side attacks, each attacker counted by its probability, the chance its
//!   path is clear and the weight of its kind (a queen most), squared ([`ZONE`] per
//!   unit squared, at most [`ZONE_CAP`]) and times the king's probability there; a
//!   third of it when the attackers have no queen. It sees a net closing a move or two
//!   before a capture of the king is on the board: the king risk above counts only
//!   attacks on the king's own squares.
//! * **Mating net** ([`boxed_in`]): a side to move in check as in classical chess with
//!   no square to go to and no other piece to take the checking piece loses
//!   [`MATE_NET`] of a king ([`ONE_ESCAPE`] of that with one square): at the horizon a
//!   mate the search does not reach the end of is not a mere check.
//!
//! The king is worth [`KING`] (10,000) here and a won game [`WIN`] (30,000) in the
//! search, so losing half the king costs a sixth of a lost game, and a chance node
//! weighs a 10% shot at the other king (`0.1 * WIN`) like three queens. Mapping the
//! evaluation onto the scale of expected results (a `tanh` of the centipawns, so that a
//! half king or three queens come near a whole game) was tried and measured against
//! Stockfish: it gambled less and scored less (docs/measurements.md, issue 33), so the
//! scale stays linear. Against an opponent that sees one classical board, the shots at
//! its king are worth more than their expectation against a perfect one.
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
/// Share of a king counted against the side to move when its king is in check with
/// nowhere to go ([`boxed_in`] 1): a mating net the search may not reach the end of.
pub const MATE_NET: f64 = 0.3;
/// [`boxed_in`] with one square to go to.
pub const ONE_ESCAPE: f64 = 0.2;
/// Centipawns per squared unit of attack on a king's zone ([`king_zone`]).
pub const ZONE: f64 = 2.0;
/// The most a king's zone costs, in centipawns (per whole king).
pub const ZONE_CAP: f64 = 900.0;

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
    /// The king each side could lose to the other's captures ([`king_threat`]): index 0
    /// White's king, 1 Black's.
    pub threat: [f64; 2],
    /// The attacks on each side's king zone ([`king_zone`]), in centipawns: index 0
    /// White's king, 1 Black's.
    pub zone: [f64; 2],
}

/// The position's value for the side to move, in centipawns, in `[-BOUND, BOUND]`.
pub fn evaluate(game: &Game, style: Style) -> f64 {
    let t = terms(game, style);
    let white = t.king + t.material + t.mobility + t.centre - t.zone[0] + t.zone[1];
    let to_move = game.to_move();
    let (own, other) = match to_move {
        Color::White => (t.threat[0], t.threat[1]),
        Color::Black => (t.threat[1], t.threat[0]),
    };
    let side = if to_move == Color::White { 1.0 } else { -1.0 };
    let net = if style == Style::Full {
        MATE_NET * boxed_in(game)
    } else {
        0.0
    };
    let v = side * white + KING * (THREAT_NOW * other - THREAT_LATER * own - net);
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
        t.threat = [
            king_threat(game, Color::White),
            king_threat(game, Color::Black),
        ];
        t.zone = [king_zone(game, Color::White), king_zone(game, Color::Black)];
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

/// The king `victim` could lose to the other side's captures, each of its squares
/// counted apart: the king's probability there times the chance the square is attacked
/// (the attackers' probabilities times their clear-path probabilities, summed, at most
/// 1). 1 for a king on one square attacked by a certain piece along a clear path (a
/// classical check).
pub fn king_threat(game: &Game, victim: Color) -> f64 {
    let st = game.state();
    let attacker = victim.opposite();
    let mut total = 0.0;
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
        total += pk * attacked.min(1.0);
    }
    total
}

/// Weight of an attacker of a king's zone, by kind.
fn zone_weight(kind: Kind) -> f64 {
    match kind {
        Kind::Pawn => 0.5,
        Kind::Knight | Kind::Bishop => 2.0,
        Kind::Rook => 3.0,
        Kind::Queen => 5.0,
        Kind::King => 0.0,
    }
}

/// The attacks on the zone of `victim`'s king, in centipawns: for each square `k` of
/// the king, the units of attack on `k` and the squares next to it (each attacker's
/// probability times the chance its path is clear times [`zone_weight`], summed over
/// the squares it attacks), `ZONE * units^2` at most [`ZONE_CAP`], times the king's
/// probability on `k`; a third of it when the attacking side has no queen on the board.
pub fn king_zone(game: &Game, victim: Color) -> f64 {
    let st = game.state();
    let attacker = victim.opposite();
    let queen: f64 = st
        .register
        .pieces()
        .filter(|(_, p)| p.color == attacker && p.kind == Kind::Queen)
        .map(|(s, _)| st.probs[s.index()])
        .sum();
    let mut total = 0.0;
    for (k, kp) in st.register.pieces() {
        if kp.color != victim || kp.kind != Kind::King {
            continue;
        }
        let pk = st.probs[k.index()];
        if pk <= 0.0 {
            continue;
        }
        let mut units = 0.0;
        for (a, ap) in st.register.pieces() {
            let pa = st.probs[a.index()];
            let w = zone_weight(ap.kind);
            if ap.color != attacker || pa <= 0.0 || w == 0.0 {
                continue;
            }
            for (df, dr) in (-1..=1).flat_map(|f| (-1..=1).map(move |r| (f, r))) {
                let Some(z) = k.offset(df, dr) else {
                    continue;
                };
                if z == a {
                    continue;
                }
                if let Some(clear) = attack_chance(game, a, ap.kind, attacker, z) {
                    units += w * pa * clear;
                }
            }
        }
        total += pk * (ZONE * units * units).min(ZONE_CAP);
    }
    total * (1.0 + 2.0 * queen.min(1.0)) / 3.0
}

/// How boxed in the side to move's king is when it is in check as in classical chess
/// ([`in_check`]): 1 when no square next to it is free of its own certain pieces and
/// attacked with probability under one half (the king taken off its square, so a
/// slider's attack goes on behind it) and the checking piece can't be taken by another
/// piece; [`ONE_ESCAPE`] with one such square; else 0 (and 0 when not in check).
pub fn boxed_in(game: &Game) -> f64 {
    if !in_check(game) {
        return 0.0;
    }
    let st = game.state();
    let me = st.to_move;
    let enemy = me.opposite();
    let Some((k, _)) = st
        .register
        .pieces()
        .find(|&(s, p)| p.color == me && p.kind == Kind::King && st.certain(s))
    else {
        return 0.0;
    };
    let attacked = |z: Square, by: Color, empty: Option<Square>| -> f64 {
        let mut sum = 0.0;
        for (a, ap) in st.register.pieces() {
            let pa = st.probs[a.index()];
            if ap.color != by || pa <= 0.0 || a == z {
                continue;
            }
            if let Some(clear) = attack_through(game, a, ap.kind, by, z, empty) {
                sum += pa * clear;
            }
        }
        sum
    };
    let mut escapes = 0;
    for (df, dr) in (-1..=1).flat_map(|f| (-1..=1).map(move |r| (f, r))) {
        let Some(z) = k.offset(df, dr) else {
            continue;
        };
        if z == k {
            continue;
        }
        let own = st.register.get(z).is_some_and(|p| p.color == me) && st.certain(z);
        if !own && attacked(z, enemy, Some(k)) < 0.5 {
            escapes += 1;
        }
    }
    // A single certain checker that another piece attacks for certain can be taken.
    let checkers: Vec<Square> = st
        .register
        .pieces()
        .filter(|&(a, ap)| {
            ap.color == enemy
                && st.certain(a)
                && attack_chance(game, a, ap.kind, enemy, k).is_some_and(|c| c >= 1.0 - 1e-9)
        })
        .map(|(a, _)| a)
        .collect();
    if let [c] = checkers[..] {
        let takers = st.register.pieces().any(|(a, ap)| {
            ap.color == me
                && ap.kind != Kind::King
                && st.certain(a)
                && attack_chance(game, a, ap.kind, me, c).is_some_and(|p| p >= 1.0 - 1e-9)
        });
        if takers {
            return 0.0;
        }
    }
    match escapes {
        0 => 1.0,
        1 => ONE_ESCAPE,
        _ => 0.0,
    }
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
    attack_through(game, a, kind, color, k, None)
}

/// [`attack_chance`] with the square `empty` taken as empty (the king that would step
/// away from it).
fn attack_through(
    game: &Game,
    a: Square,
    kind: Kind,
    color: Color,
    k: Square,
    empty: Option<Square>,
) -> Option<f64> {
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
        if Some(s) == empty {
            continue;
        }
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
        // Black to move is threatened: it loses THREAT_LATER of a king, plus material.
        let v = evaluate(&g, Style::Full);
        assert!(v < -KING * THREAT_LATER + 100.0, "{v}");
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
    fn a_king_in_check_with_nowhere_to_go_is_boxed_in() {
        // The back rank: f8 and h8 are on the rook's rank (h8 behind the king), the
        // pawns take the rest.
        assert_eq!(boxed_in(&game("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1")), 1.0);
        // With h7 free (the pawn on h6) the king has one square.
        let luft = game("R5k1/5pp1/7p/8/8/8/8/6K1 b - - 0 1");
        assert_eq!(boxed_in(&luft), ONE_ESCAPE);
        // A rook on a1 takes the checker.
        assert_eq!(boxed_in(&game("R5k1/5ppp/8/8/8/8/8/r5K1 b - - 0 1")), 0.0);
        // Not in check: nothing.
        assert_eq!(boxed_in(&game("6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1")), 0.0);
        let net = evaluate(&game("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"), Style::Full);
        let open = evaluate(&luft, Style::Full);
        assert!(net < open - KING * MATE_NET / 2.0, "{net} {open}");
    }

    #[test]
    fn the_king_zone_counts_attackers_near_the_king() {
        // Nothing of Black's near White's king on g1.
        let quiet = game("6k1/8/8/8/8/8/5PPP/6K1 w - - 0 1");
        assert_eq!(king_zone(&quiet, Color::White), 0.0);
        // A queen on g4 reaches g2 (through g3) and h3 is not in the zone: 5 units, 50 cp.
        let queen = game("6k1/8/8/8/6q1/8/5PPP/6K1 w - - 0 1");
        assert!((king_zone(&queen, Color::White) - ZONE * 25.0).abs() < 1e-9);
        // A knight on h4 reaches g2 only in the zone (2 units): with the queen, 7 units.
        let both = game("6k1/8/8/8/6qn/8/5PPP/6K1 w - - 0 1");
        assert!((king_zone(&both, Color::White) - ZONE * 49.0).abs() < 1e-9);
        // Without the queen on the board a third.
        let knight = game("6k1/8/8/8/7n/8/5PPP/6K1 w - - 0 1");
        assert!((king_zone(&knight, Color::White) - ZONE * 4.0 / 3.0).abs() < 1e-9);
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
