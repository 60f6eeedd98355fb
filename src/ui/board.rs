//! The board pane: pieces with their probabilities, cursor, selection, legal targets and
//! the last move. Certain pieces are bold with no number (compact) or "100%"; pieces in
//! superposition are drawn in the quantum colour, with their probability.

use super::app::App;
use super::inspector;
use crate::chess::{Color, Kind, Piece, Shape, Square};
use crate::quantum::CERTAIN_EPS;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
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

/// A probability as a whole percentage that never says 0 or 100 unless it is.
pub fn percent(p: f64) -> String {
    if p >= 1.0 - CERTAIN_EPS {
        return "100".into();
    }
    match (p * 100.0).round() as i64 {
        0 => "<1".into(),
        100 => "99".into(),
        n => n.to_string(),
    }
}

/// How a square is marked, strongest first.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    Cursor,
    Selected,
    Target,
    LastMove,
    Plain,
}

/// The squares of the last move (sources and targets).
fn last_move_squares(app: &App) -> Vec<Square> {
    let Some(m) = app.game.history().last() else {
        return Vec::new();
    };
    match m.class.text.shape {
        Shape::Standard { from, to } => vec![from, to],
        Shape::Split { from, to1, to2 } => vec![from, to1, to2],
        Shape::Merge { from1, from2, to } => vec![from1, from2, to],
    }
}

/// Draws the board pane.
pub fn render(f: &mut Frame, area: Rect, app: &App, cell: (u16, u16)) {
    let paint = &app.paint;
    let title = if app.flipped {
        " Board (flipped) "
    } else {
        " Board "
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(paint.fg(paint.theme.border))
        .title(Span::styled(title, paint.title()));
    let inner = block.inner(area);
    f.render_widget(block, area);

    let mut sources = app.mode.sources();
    if let Some(ins) = &app.inspector {
        sources.extend(ins.squares());
    }
    let picked = app.mode.picked_targets();
    let targets = app.mode.targets();
    let last = last_move_squares(app);
    let (cw, ch) = cell;
    let mut lines: Vec<Line> = Vec::with_capacity((8 * ch + 1) as usize);
    for row in 0..8 {
        let rank = if app.flipped { row } else { 7 - row };
        for sub in 0..ch {
            let label = if sub == ch / 2 {
                format!("{} ", rank + 1)
            } else {
                "  ".into()
            };
            let mut spans = vec![Span::styled(label, paint.dim())];
            for col in 0..8 {
                let file = if app.flipped { 7 - col } else { col };
                let sq = Square((rank * 8 + file) as u8);
                let mark = if sq == app.cursor {
                    Mark::Cursor
                } else if sources.contains(&sq) || picked.contains(&sq) {
                    Mark::Selected
                } else if targets.contains(&sq) {
                    Mark::Target
                } else if last.contains(&sq) {
                    Mark::LastMove
                } else {
                    Mark::Plain
                };
                spans.extend(cell_spans(app, sq, mark, cw, ch, sub));
            }
            lines.push(Line::from(spans));
        }
    }
    let mut files = vec![Span::raw("  ")];
    for col in 0..8u8 {
        let file = if app.flipped { 7 - col } else { col };
        let name = ((b'a' + file) as char).to_string();
        files.push(Span::styled(
            format!("{name:^w$}", w = cw as usize),
            paint.dim(),
        ));
    }
    lines.push(Line::from(files));
    f.render_widget(Paragraph::new(lines), inner);
}

/// One text row (`sub`) of one square.
fn cell_spans(app: &App, sq: Square, mark: Mark, cw: u16, ch: u16, sub: u16) -> Vec<Span<'static>> {
    let paint = &app.paint;
    let theme = &paint.theme;
    let light = (sq.file() + sq.rank()) % 2 == 1;
    let bg = match mark {
        Mark::Cursor => theme.cursor,
        Mark::Selected => theme.selected,
        Mark::Target => theme.target,
        Mark::LastMove => theme.last_move,
        Mark::Plain if light => theme.light_square,
        Mark::Plain => theme.dark_square,
    };
    // The inspector's heat map shades the squares no other mark claims.
    let heat = app.inspector.as_ref().map_or(0.0, |i| i.heat(sq)).min(1.0);
    let level = inspector::level(heat).filter(|_| matches!(mark, Mark::Plain | Mark::LastMove));
    let bg = match level {
        Some(_) => inspector::heat_color(theme, bg, heat),
        None => bg,
    };
    let mut base = paint.on(Style::default(), bg);
    if !paint.colored() && mark == Mark::Cursor {
        base = base.add_modifier(Modifier::REVERSED);
    }
    let (left, right) = match mark {
        Mark::Cursor => ('[', ']'),
        Mark::Selected => ('<', '>'),
        Mark::Target => ('(', ')'),
        _ => match level {
            Some(l) => {
                let c = inspector::shade(l, app.ascii);
                (c, c)
            }
            None => (' ', ' '),
        },
    };
    let piece = app.game.state().piece(sq);
    let p = app.game.probability(sq);
    let certain = p >= 1.0 - CERTAIN_EPS;
    let piece_style = match piece {
        Some(pc) => {
            let rgb = match (pc.color, certain) {
                (Color::White, true) => theme.white_piece,
                (Color::White, false) => theme.white_quantum,
                (Color::Black, true) => theme.black_piece,
                (Color::Black, false) => theme.black_quantum,
            };
            let s = base.patch(paint.fg(rgb));
            if certain {
                s.add_modifier(Modifier::BOLD)
            } else {
                s.add_modifier(Modifier::ITALIC)
            }
        }
        None => base,
    };
    let centre = match piece {
        Some(pc) => glyph(pc, app.ascii),
        None if mark == Mark::Target => '·',
        None => ' ',
    };
    let centre = if app.ascii && centre == '·' {
        '.'
    } else {
        centre
    };
    let inner_w = cw as usize - 2;
    let text = if ch == 1 {
        // Compact: glyph then the percentage (none when certain).
        let pct = match piece {
            Some(_) if !certain => percent(p),
            _ => String::new(),
        };
        format!("{centre}{pct:<w$}", w = inner_w - 1)
    } else if sub == ch / 2 {
        format!("{centre:^inner_w$}")
    } else if sub == ch / 2 + 1 && piece.is_some() {
        format!("{:^inner_w$}", format!("{}%", percent(p)))
    } else {
        " ".repeat(inner_w)
    };
    let (l, r) = if sub == ch / 2 {
        (left, right)
    } else {
        (' ', ' ')
    };
    vec![
        Span::styled(l.to_string(), base),
        Span::styled(text, piece_style),
        Span::styled(r.to_string(), base),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_never_round_to_certainty() {
        assert_eq!(percent(1.0), "100");
        assert_eq!(percent(0.999), "99");
        assert_eq!(percent(0.5), "50");
        assert_eq!(percent(0.001), "<1");
    }
}
