//! How pieces and moves look on a board: the glyph of a piece, and the squares a move
//! touches (the board itself is drawn by [`crate::ui::panes::squares`]).

use crate::chess::{Color, Kind, Piece, Shape, Square};

/// The character of a piece: a Unicode glyph, or its FEN letter when `ascii`.
pub fn glyph(p: Piece, ascii: bool) -> char {
    if ascii {
        return p.fen_char();
    }
    match (p.color, p.kind) {
        (Color::White, Kind::King) => '♔',
        (Color::White, Kind::Queen) => '♕',
        (Color::White, Kind::Rook) => '♖',
        (Color::White, Kind::Bishop) => '♗',
        (Color::White, Kind::Knight) => '♘',
        (Color::White, Kind::Pawn) => '♙',
        (Color::Black, Kind::King) => '♚',
        (Color::Black, Kind::Queen) => '♛',
        (Color::Black, Kind::Rook) => '♜',
        (Color::Black, Kind::Bishop) => '♝',
        (Color::Black, Kind::Knight) => '♞',
        (Color::Black, Kind::Pawn) => '♟',
    }
}

/// The squares of a move of `shape` (sources and targets).
pub fn shape_squares(shape: Shape) -> Vec<Square> {
    match shape {
        Shape::Standard { from, to } => vec![from, to],
        Shape::Split { from, to1, to2 } => vec![from, to1, to2],
        Shape::Merge { from1, from2, to } => vec![from1, from2, to],
    }
}
