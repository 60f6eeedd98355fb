//! Drawing a chess board from plain data: what stands on each square with its
//! probability, and which squares are marked. Any rule system's board pane feeds it.

use crate::chess::{Color, Square};
use crate::format::percent;
use crate::quantum::CERTAIN_EPS;
use crate::style::color::Paint;
use crate::ui::input::mouse::BoardSpot;
use crate::ui::layers::inspector;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

/// A piece as the board shows it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShownPiece {
    /// The character drawn (a glyph, a letter, or `M` for an undetermined piece).
    pub glyph: char,
    /// The piece's side.
    pub color: Color,
    /// The chance that it stands here.
    pub probability: f64,
}

/// Everything one board drawing needs.
#[derive(Clone, Debug)]
pub struct BoardModel<'a> {
    /// The pane title.
    pub title: &'a str,
    /// What stands on each square (index = square number).
    pub pieces: [Option<ShownPiece>; 64],
    /// The cursor.
    pub cursor: Square,
    /// Selected squares.
    pub selected: &'a [Square],
    /// Legal targets of the selection.
    pub targets: &'a [Square],
    /// Squares of the last move.
    pub last: &'a [Square],
    /// Squares of the engine's hint.
    pub hint: &'a [Square],
    /// The side to move's king square that the other side could capture on next.
    pub attacked: Option<Square>,
    /// Black at the bottom.
    pub flipped: bool,
    /// Plain ASCII only.
    pub ascii: bool,
    /// The inspector's heat map (0..1 per square), shading squares no other mark claims.
    pub heat: Option<[f64; 64]>,
}

/// How a square is marked, strongest first.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    Cursor,
    Selected,
    Target,
    Hint,
    Attacked,
    LastMove,
    Plain,
}

/// Draws the board pane with squares of `cell` (width, height) characters; says where
/// the squares went, for the mouse.
pub fn render(
    f: &mut Frame,
    area: Rect,
    paint: &Paint,
    m: &BoardModel,
    cell: (u16, u16),
) -> BoardSpot {
    let block = paint.block().title(Span::styled(m.title, paint.title()));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let (cw, ch) = cell;
    let mut lines: Vec<Line> = Vec::with_capacity((8 * ch + 1) as usize);
    for row in 0..8u8 {
        let rank = if m.flipped { row } else { 7 - row };
        for sub in 0..ch {
            let label = if sub == ch / 2 {
                format!("{} ", rank + 1)
            } else {
                "  ".into()
            };
            let mut spans = vec![Span::styled(label, paint.dim())];
            for col in 0..8u8 {
                let file = if m.flipped { 7 - col } else { col };
                let sq = Square(rank * 8 + file);
                let mark = if sq == m.cursor {
                    Mark::Cursor
                } else if m.selected.contains(&sq) {
                    Mark::Selected
                } else if m.targets.contains(&sq) {
                    Mark::Target
                } else if m.hint.contains(&sq) {
                    Mark::Hint
                } else if m.attacked == Some(sq) {
                    Mark::Attacked
                } else if m.last.contains(&sq) {
                    Mark::LastMove
                } else {
                    Mark::Plain
                };
                spans.extend(cell_spans(paint, m, sq, mark, cell, sub));
            }
            lines.push(Line::from(spans));
        }
    }
    let mut files = vec![Span::raw("  ")];
    for col in 0..8u8 {
        let file = if m.flipped { 7 - col } else { col };
        let name = ((b'a' + file) as char).to_string();
        files.push(Span::styled(
            format!("{name:^w$}", w = cw as usize),
            paint.dim(),
        ));
    }
    lines.push(Line::from(files));
    f.render_widget(Paragraph::new(lines), inner);
    BoardSpot {
        // Each row starts with the two cells of its rank label.
        origin: (inner.x + 2, inner.y),
        cell,
        flipped: m.flipped,
        clip: inner,
    }
}

/// One text row (`sub`) of one square.
fn cell_spans(
    paint: &Paint,
    m: &BoardModel,
    sq: Square,
    mark: Mark,
    (cw, ch): (u16, u16),
    sub: u16,
) -> Vec<Span<'static>> {
    let theme = &paint.theme;
    let light = (sq.file() + sq.rank()) % 2 == 1;
    let bg = match mark {
        Mark::Cursor => theme.cursor,
        Mark::Selected => theme.selected,
        Mark::Target | Mark::Hint => theme.target,
        Mark::Attacked => theme.error,
        Mark::LastMove => theme.last_move,
        Mark::Plain if light => theme.light_square,
        Mark::Plain => theme.dark_square,
    };
    let heat = m.heat.map_or(0.0, |h| h[sq.0 as usize]).min(1.0);
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
        Mark::Hint => ('*', '*'),
        Mark::Attacked => ('!', '!'),
        _ => match level {
            Some(l) => {
                let c = inspector::shade(l, m.ascii);
                (c, c)
            }
            None => (' ', ' '),
        },
    };
    let piece = m.pieces[sq.0 as usize];
    let p = piece.map_or(0.0, |s| s.probability);
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
        Some(pc) => pc.glyph,
        None if mark == Mark::Target && m.ascii => '.',
        None if mark == Mark::Target => '·',
        None => ' ',
    };
    // Percentages in whichever piece colour stands out more on this square: at least
    // 4.5:1 where the pieces are pure white and black (the built-in themes).
    let digits = base.patch(paint.fg(theme.ink_on(bg)));
    let inner_w = cw as usize - 2;
    let middle: Vec<Span<'static>> = if ch == 1 {
        // Compact: glyph then the percentage; none when certain, so a number marks a
        // piece in superposition whatever the colours.
        let pct = match piece {
            Some(_) if !certain => percent(p),
            _ => String::new(),
        };
        vec![
            Span::styled(centre.to_string(), piece_style),
            Span::styled(format!("{pct:<w$}", w = inner_w - 1), digits),
        ]
    } else if sub == ch / 2 {
        vec![Span::styled(format!("{centre:^inner_w$}"), piece_style)]
    } else if sub == ch / 2 + 1 && piece.is_some() {
        let pct = format!("{}%", percent(p));
        vec![Span::styled(format!("{pct:^inner_w$}"), digits)]
    } else {
        vec![Span::styled(" ".repeat(inner_w), base)]
    };
    let (l, r) = if sub == ch / 2 {
        (left, right)
    } else {
        (' ', ' ')
    };
    let mut spans = vec![Span::styled(l.to_string(), base)];
    spans.extend(middle);
    spans.push(Span::styled(r.to_string(), base));
    spans
}
