//! Squares, pieces and the classical register (which piece may stand on each square).

use serde::{Deserialize, Serialize};
use std::fmt;

/// A square, 0..64 with index = rank * 8 + file (a1 = 0, h1 = 7, a8 = 56).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Square(pub u8);

/// The eight knight jumps, as (files, ranks).
pub const KNIGHT_JUMPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
/// The four diagonal directions, as (files, ranks).
pub const DIAGONALS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
/// The four straight directions, as (files, ranks).
pub const STRAIGHTS: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

impl Square {
    /// The square at file 0..8 (a..h) and rank 0..8 (1..8), if on the board.
    pub fn at(file: i32, rank: i32) -> Option<Square> {
        ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| Square((rank * 8 + file) as u8))
    }

    /// File 0..8 (a = 0).
    pub fn file(self) -> i32 {
        (self.0 % 8) as i32
    }

    /// Rank 0..8 (rank 1 = 0).
    pub fn rank(self) -> i32 {
        (self.0 / 8) as i32
    }

    /// Index 0..64, also the square's qubit.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Parses "e4".
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = b[0].to_ascii_lowercase().wrapping_sub(b'a') as i32;
        let r = b[1].wrapping_sub(b'1') as i32;
        Square::at(f, r)
    }

    /// The square `df` files and `dr` ranks away, if on the board.
    pub fn offset(self, df: i32, dr: i32) -> Option<Square> {
        Square::at(self.file() + df, self.rank() + dr)
    }

    /// Every square, a1..h8.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file() as u8) as char,
            (b'1' + self.rank() as u8) as char
        )
    }
}

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// Moves first.
    White,
    /// Moves second.
    Black,
}

impl Color {
    /// The other side.
    pub fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// "white" or "black".
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// Direction pawns of this side move in (+1 or -1 ranks).
    pub fn forward(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    /// The rank (0..8) of this side's back row.
    pub fn back_rank(self) -> i32 {
        match self {
            Color::White => 0,
            Color::Black => 7,
        }
    }
}

/// A kind of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Kind {
    /// P
    Pawn,
    /// N
    Knight,
    /// B
    Bishop,
    /// R
    Rook,
    /// Q
    Queen,
    /// K
    King,
}

impl Kind {
    /// Upper-case letter (P N B R Q K).
    pub fn letter(self) -> char {
        match self {
            Kind::Pawn => 'P',
            Kind::Knight => 'N',
            Kind::Bishop => 'B',
            Kind::Rook => 'R',
            Kind::Queen => 'Q',
            Kind::King => 'K',
        }
    }

    /// The kind for a letter of either case.
    pub fn from_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'P' => Kind::Pawn,
            'N' => Kind::Knight,
            'B' => Kind::Bishop,
            'R' => Kind::Rook,
            'Q' => Kind::Queen,
            'K' => Kind::King,
            _ => return None,
        })
    }

    /// Lower-case English name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Pawn => "pawn",
            Kind::Knight => "knight",
            Kind::Bishop => "bishop",
            Kind::Rook => "rook",
            Kind::Queen => "queen",
            Kind::King => "king",
        }
    }

    /// True for the pieces that jump (knight, king); bishops, rooks and queens slide.
    pub fn jumps(self) -> bool {
        matches!(self, Kind::Knight | Kind::King)
    }
}

/// A piece: side and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Its kind.
    pub kind: Kind,
}

impl Piece {
    /// A new piece.
    pub fn new(color: Color, kind: Kind) -> Piece {
        Piece { color, kind }
    }

    /// FEN letter: upper case for white.
    pub fn fen_char(self) -> char {
        let c = self.kind.letter();
        match self.color {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece for a FEN letter.
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let kind = Kind::from_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, kind })
    }

    /// "white knight".
    pub fn describe(self) -> String {
        format!("{} {}", self.color.name(), self.kind.name())
    }
}

/// The classical register: for each square, the one piece that may occupy it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Register(pub [Option<Piece>; 64]);

impl Default for Register {
    fn default() -> Self {
        Register([None; 64])
    }
}

impl Register {
    /// The piece named on a square.
    pub fn get(&self, s: Square) -> Option<Piece> {
        self.0[s.index()]
    }

    /// Names a piece (or none) on a square.
    pub fn set(&mut self, s: Square, p: Option<Piece>) {
        self.0[s.index()] = p;
    }

    /// The squares naming a piece, with it.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|s| self.get(s).map(|p| (s, p)))
    }
}

/// Castling rights, as in FEN.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Castling {
    /// White king side (K).
    pub white_king: bool,
    /// White queen side (Q).
    pub white_queen: bool,
    /// Black king side (k).
    pub black_king: bool,
    /// Black queen side (q).
    pub black_queen: bool,
}

impl Castling {
    /// The right of `c` on the king side (`king_side`) or queen side.
    pub fn get(&self, c: Color, king_side: bool) -> bool {
        match (c, king_side) {
            (Color::White, true) => self.white_king,
            (Color::White, false) => self.white_queen,
            (Color::Black, true) => self.black_king,
            (Color::Black, false) => self.black_queen,
        }
    }

    /// Removes the rights a move from or to `s` ends (king or rook squares).
    pub fn touch(&mut self, s: Square) {
        match (s.file(), s.rank()) {
            (4, 0) => {
                self.white_king = false;
                self.white_queen = false;
            }
            (4, 7) => {
                self.black_king = false;
                self.black_queen = false;
            }
            (0, 0) => self.white_queen = false,
            (7, 0) => self.white_king = false,
            (0, 7) => self.black_queen = false,
            (7, 7) => self.black_king = false,
            _ => {}
        }
    }
}

/// A classical position as FEN describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Pieces.
    pub register: Register,
    /// Side to move.
    pub to_move: Color,
    /// Castling rights.
    pub castling: Castling,
    /// En passant target square.
    pub en_passant: Option<Square>,
    /// Half-move counter (the 50-move counter).
    pub halfmove: u32,
    /// Full-move number.
    pub fullmove: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_parse_and_print() {
        assert_eq!(Square::parse("a1"), Some(Square(0)));
        assert_eq!(Square::parse("h8"), Some(Square(63)));
        assert_eq!(Square::parse("e4").unwrap().to_string(), "e4");
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a9"), None);
        assert_eq!(Square::parse("a"), None);
        assert_eq!(Square(0).offset(-1, 0), None);
    }
}
