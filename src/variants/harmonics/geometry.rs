//! Where a piece may go on one board under the classical rules, without check rules: move
//! patterns, ordinary moves (pawn pushes and captures, en passant, castling) and the
//! squares a quantum move reaches in one or two quiet moves.

use super::board::{bit, code, squares_of, Board, EMPTY};
use crate::chess::board::{DIAGONALS, KNIGHT_JUMPS, STRAIGHTS};
use crate::chess::classify::{between as line_between, castle_squares};
use crate::chess::{Color, Kind, Piece, Square};
use std::sync::OnceLock;

/// Move patterns on an empty board, computed once.
struct Tables {
    /// `reach[k][s]`: where kind `k` (knight 0, bishop 1, rook 2, queen 3, king 4) goes
    /// from `s` on an empty board.
    reach: [[u64; 64]; 5],
    /// `between[a * 64 + b]`: the squares strictly between `a` and `b` on a line.
    between: Vec<u64>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let ray = |s: Square, dirs: &[(i32, i32)], far: bool| -> u64 {
            let mut set = 0;
            for &(df, dr) in dirs {
                let mut at = s.offset(df, dr);
                while let Some(t) = at {
                    set |= bit(t);
                    at = if far { t.offset(df, dr) } else { None };
                }
            }
            set
        };
        let mut reach = [[0u64; 64]; 5];
        for s in Square::all() {
            let i = s.index();
            reach[0][i] = ray(s, &KNIGHT_JUMPS, false);
            reach[1][i] = ray(s, &DIAGONALS, true);
            reach[2][i] = ray(s, &STRAIGHTS, true);
            reach[3][i] = reach[1][i] | reach[2][i];
            reach[4][i] = ray(s, &DIAGONALS, false) | ray(s, &STRAIGHTS, false);
        }
        let mut between = vec![0u64; 64 * 64];
        for a in Square::all() {
            for b in Square::all() {
                between[a.index() * 64 + b.index()] = line_between(a, b)
                    .into_iter()
                    .fold(0, |acc, s| acc | bit(s));
            }
        }
        Tables { reach, between }
    })
}

/// Where a piece of `kind` goes from `from` on an empty board (nothing for pawns, whose
/// moves depend on the board; castling not included).
pub fn reach(kind: Kind, from: Square) -> u64 {
    let k = match kind {
        Kind::Pawn => return 0,
        Kind::Knight => 0,
        Kind::Bishop => 1,
        Kind::Rook => 2,
        Kind::Queen => 3,
        Kind::King => 4,
    };
    tables().reach[k][from.index()]
}

/// The squares strictly between two squares on a line; empty for other pairs.
pub fn between(a: Square, b: Square) -> u64 {
    tables().between[a.index() * 64 + b.index()]
}

/// What an ordinary move does on a board where the classical rules allow it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// To an empty square.
    Quiet,
    /// Onto an enemy piece, which is removed.
    Capture,
    /// A pawn's two-square step, skipping the square given.
    DoubleStep(Square),
    /// A pawn capturing en passant the pawn on the square given.
    EnPassant(Square),
    /// Castling; the rook goes from the first square to the second.
    Castle(Square, Square),
}

/// How the ordinary move `from`-`to` goes on `b`, or `None` where the classical rules
/// (check aside) do not allow it there.
pub fn ordinary(b: &Board, from: Square, to: Square) -> Option<Effect> {
    let p = b.get(from)?;
    let target = b.get(to);
    if from == to || target.is_some_and(|t| t.color == p.color) {
        return None;
    }
    let hit = if target.is_some() {
        Effect::Capture
    } else {
        Effect::Quiet
    };
    match p.kind {
        Kind::Pawn => pawn(b, p.color, from, to),
        Kind::King if is_castle(p.color, from, to) => castle(b, p.color, to),
        kind => (reach(kind, from) & bit(to) != 0 && b.clear(between(from, to))).then_some(hit),
    }
}

/// True for the king's two-square step along its back rank from its start square.
pub fn is_castle(color: Color, from: Square, to: Square) -> bool {
    let (kf, ..) = castle_squares(color, true);
    from == kf && to.rank() == from.rank() && (to.file() - from.file()).abs() == 2
}

fn castle(b: &Board, color: Color, to: Square) -> Option<Effect> {
    let king_side = to.file() > 4;
    let (_, kt, rf, rt, extra) = castle_squares(color, king_side);
    let path = bit(kt) | bit(rt) | extra.map_or(0, bit);
    (b.castling.get(color, king_side)
        && b.code(rf) == code(Piece::new(color, Kind::Rook))
        && b.clear(path))
    .then_some(Effect::Castle(rf, rt))
}

fn pawn(b: &Board, color: Color, from: Square, to: Square) -> Option<Effect> {
    let fwd = color.forward();
    let (df, dr) = (to.file() - from.file(), to.rank() - from.rank());
    let empty = b.code(to) == EMPTY;
    if df == 0 && dr == fwd && empty {
        return Some(Effect::Quiet);
    }
    if df == 0 && dr == 2 * fwd && from.rank() == color.back_rank() + fwd {
        let skipped = from.offset(0, fwd)?;
        return b
            .clear(bit(skipped) | bit(to))
            .then_some(Effect::DoubleStep(skipped));
    }
    if df.abs() != 1 || dr != fwd {
        return None;
    }
    if !empty {
        return Some(Effect::Capture);
    }
    let victim = Square::at(to.file(), from.rank())?;
    let enemy_pawn = code(Piece::new(color.opposite(), Kind::Pawn));
    (b.en_passant == Some(to) && b.code(victim) == enemy_pawn).then_some(Effect::EnPassant(victim))
}

/// The board after an ordinary move with `effect`; a pawn reaching the last rank becomes
/// `promotion`. En passant is cleared or set, castling rights are updated.
pub fn apply(
    b: &Board,
    from: Square,
    to: Square,
    effect: Effect,
    promotion: Option<Kind>,
) -> Board {
    let mut n = *b;
    let moving = n.squares[from.index()];
    n.squares[from.index()] = EMPTY;
    n.squares[to.index()] = match (promotion, super::board::piece(moving)) {
        (Some(k), Some(p)) => code(Piece::new(p.color, k)),
        _ => moving,
    };
    n.en_passant = None;
    match effect {
        Effect::EnPassant(victim) => n.squares[victim.index()] = EMPTY,
        Effect::DoubleStep(skipped) => n.en_passant = Some(skipped),
        Effect::Castle(rf, rt) => {
            n.squares[rt.index()] = n.squares[rf.index()];
            n.squares[rf.index()] = EMPTY;
        }
        Effect::Quiet | Effect::Capture => {}
    }
    n.castling.touch(from);
    n.castling.touch(to);
    n
}

/// True when a non-pawn piece of `kind` on `from` reaches the empty square `to` in one
/// quiet move, or in two through an empty square (it has left `from` for the second).
pub fn quantum_reaches(b: &Board, kind: Kind, from: Square, to: Square) -> bool {
    if from == to || b.code(to) != EMPTY || kind == Kind::Pawn {
        return false;
    }
    if reach(kind, from) & bit(to) != 0 && b.clear(between(from, to)) {
        return true;
    }
    squares_of(reach(kind, from) & reach(kind, to)).any(|m| {
        b.code(m) == EMPTY && b.clear(between(from, m)) && b.clear(between(m, to) & !bit(from))
    })
}

/// Every square an ordinary move of the piece on `from` may go to on `b`.
pub fn ordinary_targets(b: &Board, from: Square) -> u64 {
    let Some(p) = b.get(from) else {
        return 0;
    };
    let candidates = match p.kind {
        Kind::Pawn => {
            let fwd = p.color.forward();
            [(0, fwd), (0, 2 * fwd), (-1, fwd), (1, fwd)]
                .into_iter()
                .filter_map(|(df, dr)| from.offset(df, dr))
                .fold(0, |acc, s| acc | bit(s))
        }
        Kind::King => {
            let castles = [-2, 2]
                .into_iter()
                .filter_map(|df| from.offset(df, 0))
                .filter(|&t| is_castle(p.color, from, t))
                .fold(0, |acc, s| acc | bit(s));
            reach(Kind::King, from) | castles
        }
        kind => reach(kind, from),
    };
    squares_of(candidates)
        .filter(|&t| ordinary(b, from, t).is_some())
        .fold(0, |acc, s| acc | bit(s))
}

/// Every square a quantum move of the (non-pawn) piece on `from` reaches on `b`: empty
/// squares one or two quiet moves away.
pub fn quantum_targets(b: &Board, from: Square) -> u64 {
    let Some(p) = b.get(from).filter(|p| p.kind != Kind::Pawn) else {
        return 0;
    };
    let quiet = |f: Square, occupied: u64| {
        squares_of(reach(p.kind, f) & !occupied)
            .filter(|&t| between(f, t) & occupied == 0)
            .fold(0, |acc, s| acc | bit(s))
    };
    let occupied = b.occupied();
    let first = quiet(from, occupied);
    let left = occupied & !bit(from);
    squares_of(first).fold(first, |acc, m| acc | quiet(m, left)) & !bit(from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen;

    fn board(f: &str) -> Board {
        Board::from_position(&fen::parse(f).unwrap())
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn set(names: &[&str]) -> u64 {
        names.iter().fold(0, |acc, s| acc | bit(sq(s)))
    }

    #[test]
    fn patterns() {
        assert_eq!(reach(Kind::Knight, sq("b1")), set(&["a3", "c3", "d2"]));
        assert_eq!(reach(Kind::King, sq("a1")), set(&["a2", "b1", "b2"]));
        assert_eq!(reach(Kind::Rook, sq("a1")).count_ones(), 14);
        assert_eq!(reach(Kind::Queen, sq("d4")).count_ones(), 27);
        assert_eq!(between(sq("a1"), sq("a4")), set(&["a2", "a3"]));
        assert_eq!(between(sq("a1"), sq("b3")), 0);
    }

    #[test]
    fn start_position_targets() {
        let b = board(fen::START_FEN);
        assert_eq!(ordinary_targets(&b, sq("b1")), set(&["a3", "c3"]));
        assert_eq!(ordinary_targets(&b, sq("e2")), set(&["e3", "e4"]));
        assert_eq!(ordinary_targets(&b, sq("a1")), 0);
        // Knight: a3 and c3 directly (d2 is taken); then b5, c4 from a3 and a4, b5, d5,
        // e4 from c3 (the other squares hold pawns or pieces, or are b1 itself).
        assert_eq!(
            quantum_targets(&b, sq("b1")),
            set(&["a3", "c3", "b5", "c4", "a4", "d5", "e4"])
        );
        assert_eq!(quantum_targets(&b, sq("e2")), 0);
    }

    #[test]
    fn captures_en_passant_castling_promotion() {
        let b = board("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
        assert_eq!(
            ordinary(&b, sq("e5"), sq("d6")),
            Some(Effect::EnPassant(sq("d5")))
        );
        assert_eq!(
            ordinary(&b, sq("e1"), sq("g1")),
            Some(Effect::Castle(sq("h1"), sq("f1")))
        );
        assert_eq!(
            ordinary(&b, sq("e1"), sq("c1")),
            Some(Effect::Castle(sq("a1"), sq("d1")))
        );
        assert_eq!(ordinary(&b, sq("a1"), sq("a8")), Some(Effect::Capture));
        assert_eq!(ordinary(&b, sq("b7"), sq("a8")), Some(Effect::Capture));
        let after = apply(&b, sq("e5"), sq("d6"), Effect::EnPassant(sq("d5")), None);
        assert_eq!(after.code(sq("d5")), EMPTY);
        let castled = apply(
            &b,
            sq("e1"),
            sq("g1"),
            Effect::Castle(sq("h1"), sq("f1")),
            None,
        );
        assert_eq!(castled.get(sq("f1")).unwrap().kind, Kind::Rook);
        assert!(!castled.castling.white_king && !castled.castling.white_queen);
        assert!(castled.castling.black_king);
        let promoted = apply(&b, sq("b7"), sq("a8"), Effect::Capture, Some(Kind::Knight));
        assert_eq!(
            promoted.get(sq("a8")),
            Some(Piece::new(Color::White, Kind::Knight))
        );
        assert!(!promoted.castling.black_queen);
        let blocked = board("r3k2r/8/8/8/8/8/8/R3KB1R w KQkq - 0 1");
        assert_eq!(ordinary(&blocked, sq("e1"), sq("g1")), None);
        assert_eq!(
            ordinary_targets(&blocked, sq("e1")) & set(&["g1", "c1"]),
            set(&["c1"])
        );
    }

    #[test]
    fn quantum_reach_two_steps_through_empty_squares() {
        let b = board("4k3/8/8/8/8/8/1P6/R3K3 w - - 0 1");
        // Rook a1: a2..a8 and b1..d1 in one move; two moves: any square of ranks/files
        // reached from those, but b2 holds a pawn.
        assert!(quantum_reaches(&b, Kind::Rook, sq("a1"), sq("h7")));
        // a8-h8 passes the king on e8, a1-h1 the king on e1.
        assert!(!quantum_reaches(&b, Kind::Rook, sq("a1"), sq("h8")));
        assert!(quantum_reaches(&b, Kind::Rook, sq("a1"), sq("d5")));
        assert!(!quantum_reaches(&b, Kind::Rook, sq("a1"), sq("b2")));
        assert!(quantum_reaches(&b, Kind::Rook, sq("a1"), sq("b3")));
        assert!(!quantum_reaches(&b, Kind::Rook, sq("a1"), sq("e1")));
        assert!(!quantum_reaches(&b, Kind::Rook, sq("a1"), sq("f1")));
        let targets = quantum_targets(&b, sq("a1"));
        for t in Square::all() {
            assert_eq!(
                targets & bit(t) != 0,
                quantum_reaches(&b, Kind::Rook, sq("a1"), t),
                "{t}"
            );
        }
    }
}
