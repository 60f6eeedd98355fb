//! The most likely classical board of a Quantum Chess game, as a classical chess engine
//! reads it: the pieces on the most likely set of occupied squares (`analyze --json`'s
//! `distribution`, its first entry with both kings), and the captures of a king on it.

use crate::chess::board::{Castling, Kind, Piece, Position, Register};
use crate::chess::fen;
use crate::chess::notation::Shape;
use crate::chess::{Color, Game, GameOptions};

/// How many of the most likely sets are looked through for one with both kings.
const SETS_LOOKED_AT: usize = 4096;

/// A classical board of a game and how likely it is.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassicalBoard {
    /// The position: the register's pieces on the set's squares, the side to move, the
    /// castling rights and en passant square FEN allows there, and the game's counters.
    pub position: Position,
    /// The probability of the set of occupied squares.
    pub p: f64,
}

/// Why a game has no classical board for a chess engine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("none of the {SETS_LOOKED_AT} most likely boards has both kings on it")]
pub struct NoBoard;

/// The squares where a king of `color` may stand.
fn king_squares(register: &Register, color: Color) -> u64 {
    register
        .pieces()
        .filter(|(_, p)| *p == Piece::new(color, Kind::King))
        .fold(0, |set, (s, _)| set | 1 << s.0)
}

/// The most likely set of occupied squares with one king of each colour on it, as a
/// position. Usually `distribution[0]`; a set without a king (a king partly captured,
/// most likely gone) is passed over, since no classical engine reads a board without one.
pub fn most_likely(game: &Game) -> Result<ClassicalBoard, NoBoard> {
    let st = game.state();
    let kings = [Color::White, Color::Black].map(|c| king_squares(&st.register, c));
    let (set, p) = game
        .distribution(SETS_LOOKED_AT)
        .entries
        .into_iter()
        .find(|(set, _)| kings.iter().all(|k| set & k != 0))
        .ok_or(NoBoard)?;
    let mut register = Register::default();
    for (s, piece) in st.register.pieces() {
        if set >> s.0 & 1 == 1 {
            register.set(s, Some(piece));
        }
    }
    // The counters as the game's FEN writes them.
    let counters: Vec<u32> = game
        .fen()
        .split_whitespace()
        .skip(4)
        .filter_map(|n| n.parse().ok())
        .collect();
    let mut position = Position {
        register,
        to_move: st.to_move,
        castling: Castling::default(),
        en_passant: None,
        halfmove: counters.first().copied().unwrap_or(0),
        fullmove: counters.get(1).copied().unwrap_or(1),
    };
    position.castling = allowed_castling(&position, st.castling);
    position.en_passant = st.en_passant.filter(|&sq| {
        fen::check(&Position {
            en_passant: Some(sq),
            ..position.clone()
        })
        .is_ok()
    });
    Ok(ClassicalBoard { position, p })
}

/// The rights of `rights` that FEN allows on `position` (the king and that rook on
/// their squares).
fn allowed_castling(position: &Position, rights: Castling) -> Castling {
    let only = |c: Castling| {
        fen::check(&Position {
            castling: c,
            en_passant: None,
            ..position.clone()
        })
        .is_ok()
    };
    let none = Castling::default();
    Castling {
        white_king: rights.white_king
            && only(Castling {
                white_king: true,
                ..none
            }),
        white_queen: rights.white_queen
            && only(Castling {
                white_queen: true,
                ..none
            }),
        black_king: rights.black_king
            && only(Castling {
                black_king: true,
                ..none
            }),
        black_queen: rights.black_queen
            && only(Castling {
                black_queen: true,
                ..none
            }),
    }
}

/// When no board has both kings (one king is spread so thin that every board with it
/// is under 1e-12): the game's standard moves onto a square where the other king may
/// be, the likeliest square first, then its other standard moves; in notation.
pub fn moves_without_board(game: &Game) -> Vec<String> {
    let st = game.state();
    let king = Piece::new(st.to_move.opposite(), Kind::King);
    let king_p = |to: crate::chess::Square| match st.register.get(to) {
        Some(p) if p == king => st.probs[to.index()],
        _ => 0.0,
    };
    let mut moves: Vec<(f64, String)> = crate::chess::movegen::legal_moves(st, false)
        .into_iter()
        .filter_map(|m| match m.text.shape {
            Shape::Standard { to, .. } => Some((king_p(to), m.text.to_string())),
            _ => None,
        })
        .collect();
    // Stable: equal moves keep the generator's order.
    moves.sort_by(|a, b| b.0.total_cmp(&a.0));
    moves.into_iter().map(|(_, m)| m).collect()
}

impl ClassicalBoard {
    /// The board as FEN.
    pub fn fen(&self) -> String {
        fen::format(&self.position)
    }

    /// The moves on this board that capture the other side's king (a position a
    /// classical engine cannot be given), in notation, in the generator's order.
    pub fn king_captures(&self) -> Vec<String> {
        self.standard_moves()
            .into_iter()
            .filter(|(_, to)| {
                self.position.register.get(*to)
                    == Some(Piece::new(self.position.to_move.opposite(), Kind::King))
            })
            .map(|(text, _)| text)
            .collect()
    }

    /// Every move on this board that is not a split or a merge (checks not looked at),
    /// in notation, with its target.
    pub fn standard_moves(&self) -> Vec<(String, crate::chess::Square)> {
        let game = Game::from_position(self.position.clone(), GameOptions::default());
        crate::chess::movegen::legal_moves(game.state(), false)
            .into_iter()
            .filter_map(|m| match m.text.shape {
                Shape::Standard { to, .. } => Some((m.text.to_string(), to)),
                _ => None,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_its_own_board() {
        let g = Game::standard(GameOptions::default());
        let b = most_likely(&g).unwrap();
        assert_eq!(b.fen(), fen::START_FEN);
        assert_eq!(b.p, 1.0);
        assert!(b.king_captures().is_empty());
    }

    #[test]
    fn a_split_piece_stands_on_one_square_and_rights_follow_the_pieces() {
        // The rook on h1 split: each board has it on one square, and with it gone from
        // h1 White may not castle king side there.
        let mut g = Game::from_fen(
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            GameOptions::default(),
        )
        .unwrap();
        g.play("h1^h3h5").unwrap();
        let b = most_likely(&g).unwrap();
        assert!((b.p - 0.5).abs() < 1e-9, "{}", b.p);
        let f = b.fen();
        assert!(f.ends_with(" b Qkq - 1 1"), "{f}");
        assert!(f.starts_with("r3k2r/8/8/") && f.contains("R3K3"), "{f}");
    }

    #[test]
    fn without_a_board_the_king_is_hunted_first() {
        // The black king split onto d8 and f8: the rook's capture of a half leads.
        let mut g =
            Game::from_fen("4k3/8/8/8/8/8/8/3RK3 b - - 0 1", GameOptions::default()).unwrap();
        g.play("e8^d8f8").unwrap();
        let moves = moves_without_board(&g);
        assert_eq!(moves[0], "d1xd8");
        assert!(moves.len() > 5 && moves.iter().all(|m| !m.contains('^')));
    }

    #[test]
    fn a_king_capture_is_listed() {
        let g = Game::from_fen("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", GameOptions::default()).unwrap();
        assert!(most_likely(&g).unwrap().king_captures().is_empty());
        let g = Game::from_fen("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", GameOptions::default()).unwrap();
        assert_eq!(most_likely(&g).unwrap().king_captures(), ["e1xe8"]);
    }
}
