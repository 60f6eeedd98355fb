//! One harmonic: an ordinary board packed as a byte per square, with its own castling
//! rights and en passant square (they differ between harmonics once a king, rook or pawn
//! moved in only some of them).

use crate::chess::board::Castling;
use crate::chess::{Color, Kind, Piece, Position, Square};
use std::hash::{Hash, Hasher};

/// The byte of an empty square.
pub const EMPTY: u8 = 0;

/// The kinds in the order of their bytes (white 1..=6, black 7..=12).
const KINDS: [Kind; 6] = [
    Kind::Pawn,
    Kind::Knight,
    Kind::Bishop,
    Kind::Rook,
    Kind::Queen,
    Kind::King,
];

/// The byte of a piece: 1..=6 for white P N B R Q K, 7..=12 for black.
pub fn code(p: Piece) -> u8 {
    let kind = match p.kind {
        Kind::Pawn => 1,
        Kind::Knight => 2,
        Kind::Bishop => 3,
        Kind::Rook => 4,
        Kind::Queen => 5,
        Kind::King => 6,
    };
    match p.color {
        Color::White => kind,
        Color::Black => kind + 6,
    }
}

/// The piece of a byte; `None` for an empty square.
pub fn piece(c: u8) -> Option<Piece> {
    match c {
        1..=6 => Some(Piece::new(Color::White, KINDS[c as usize - 1])),
        7..=12 => Some(Piece::new(Color::Black, KINDS[c as usize - 7])),
        _ => None,
    }
}

/// The bit of a square in a square set.
pub fn bit(s: Square) -> u64 {
    1u64 << s.0
}

/// The squares of a set, a1..h8.
pub fn squares_of(set: u64) -> impl Iterator<Item = Square> {
    let mut rest = set;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let s = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            Square(s)
        })
    })
}

/// One classical board of the superposition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// The piece byte of each square, a1..h8 ([`EMPTY`] where none).
    pub squares: [u8; 64],
    /// Castling rights in this harmonic.
    pub castling: Castling,
    /// The square a pawn skipped on the last move in this harmonic.
    pub en_passant: Option<Square>,
}

/// Hashes the squares as eight words and the rights in a ninth: every field that
/// equality compares, in far fewer hasher calls than byte by byte (merging hashes every
/// board of every move).
impl Hash for Board {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for word in self.squares.chunks_exact(8) {
            state.write_u64(u64::from_le_bytes(
                word.try_into().expect("chunks of eight bytes"),
            ));
        }
        let c = &self.castling;
        let rights = [c.white_king, c.white_queen, c.black_king, c.black_queen]
            .iter()
            .enumerate()
            .fold(0u64, |acc, (i, &r)| acc | (r as u64) << i);
        let passed = self.en_passant.map_or(64, |s| s.0 as u64);
        state.write_u64(rights | passed << 8);
    }
}

impl Board {
    /// The board of a classical position.
    pub fn from_position(p: &Position) -> Board {
        let mut squares = [EMPTY; 64];
        for (s, piece) in p.register.pieces() {
            squares[s.index()] = code(piece);
        }
        Board {
            squares,
            castling: p.castling,
            en_passant: p.en_passant,
        }
    }

    /// The byte on a square.
    pub fn code(&self, s: Square) -> u8 {
        self.squares[s.index()]
    }

    /// The piece on a square.
    pub fn get(&self, s: Square) -> Option<Piece> {
        piece(self.code(s))
    }

    /// The set of occupied squares.
    pub fn occupied(&self) -> u64 {
        self.squares
            .iter()
            .enumerate()
            .fold(0, |acc, (i, &c)| acc | (((c != EMPTY) as u64) << i))
    }

    /// True when none of the squares in `set` holds a piece.
    pub fn clear(&self, set: u64) -> bool {
        squares_of(set).all(|s| self.code(s) == EMPTY)
    }

    /// True when this side's king stands somewhere on the board.
    pub fn has_king(&self, color: Color) -> bool {
        let king = code(Piece::new(color, Kind::King));
        self.squares.contains(&king)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen;

    #[test]
    fn codes_round_trip() {
        for c in 1..=12 {
            assert_eq!(code(piece(c).unwrap()), c);
        }
        assert_eq!(piece(EMPTY), None);
        assert_eq!(piece(13), None);
    }

    #[test]
    fn start_board() {
        let b = Board::from_position(&fen::parse(fen::START_FEN).unwrap());
        assert_eq!(b.occupied(), 0xFFFF_0000_0000_FFFF);
        assert_eq!(b.get(Square(4)), Some(Piece::new(Color::White, Kind::King)));
        assert!(b.has_king(Color::Black));
        assert!(b.clear(bit(Square(20)) | bit(Square(40))));
        assert!(!b.clear(bit(Square(20)) | bit(Square(1))));
        let set: Vec<Square> = squares_of(0b1001_0001).collect();
        assert_eq!(set, vec![Square(0), Square(4), Square(7)]);
    }
}
