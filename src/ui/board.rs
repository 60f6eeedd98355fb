//! The board pane: pieces with their probabilities, cursor, selection, legal targets and
//! the last move. Certain pieces are bold with no number (compact) or "100%"; pieces in
//! superposition are drawn in the quantum colour, with their probability ([`crate::ui::squares`] draws it).

use super::app::App;
use super::mouse::BoardSpot;
use super::squares::{self, BoardModel, ShownPiece};
use crate::chess::{Color, Game, Kind, Piece, Shape, Square};
use ratatui::layout::Rect;
use ratatui::Frame;

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

/// The squares of the last move (sources and targets).
fn last_move_squares(game: &Game) -> Vec<Square> {
    game.history()
        .last()
        .map_or_else(Vec::new, |m| shape_squares(m.class.text.shape))
}

/// Draws the board pane; says where the squares went, for the mouse.
pub fn render(f: &mut Frame, area: Rect, app: &App, game: &Game, cell: (u16, u16)) -> BoardSpot {
    let title = if app.flipped {
        " Board (flipped) "
    } else {
        " Board "
    };
    let mut selected = app.mode.sources();
    if let Some(ins) = &app.inspector {
        selected.extend(ins.squares());
    }
    selected.extend(app.mode.picked_targets());
    let mut pieces = [None; 64];
    for (i, shown) in pieces.iter_mut().enumerate() {
        let sq = Square(i as u8);
        *shown = game.state().piece(sq).map(|p| ShownPiece {
            glyph: glyph(p, app.ascii),
            color: p.color,
            probability: app.view.chance(sq),
        });
    }
    let heat = app.inspector.as_ref().map(|ins| {
        let mut h = [0.0; 64];
        for (i, v) in h.iter_mut().enumerate() {
            *v = ins.heat(Square(i as u8));
        }
        h
    });
    let model = BoardModel {
        title,
        pieces,
        cursor: app.cursor,
        selected: &selected,
        targets: app.mode.targets(),
        last: &last_move_squares(game),
        hint: app
            .computer
            .hint()
            .map_or(&[], |(_, squares)| squares.as_slice()),
        flipped: app.flipped,
        ascii: app.ascii,
        heat,
    };
    squares::render(f, area, &app.paint, &model, cell)
}
