//! The four panes of a rule system other than Quantum Chess: the averaged board, the variant's details (harmonics
//! by weight, or worlds and possible types), the history with its remarks, and the trace
//! of what the shown move did; plus the status and message lines.

use super::app::App;
use super::board::glyph;
use super::history::wrap;
use super::layout::{self, Panes};
use super::listed_moves::move_squares;
use super::mouse::{BoardSpot, Hits};
use super::popup;
use super::squares::{self, BoardModel, ShownPiece};
use super::status;
use super::Drawn;
use crate::chess::{Color, Piece};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui::Frame;

/// Draws the whole screen for a rule system other than Quantum Chess; what it learned.
pub fn draw(f: &mut Frame, app: &App) -> Drawn {
    let area = f.area();
    let message = status::message_lines(app, area.width);
    // Where things are drawn, for the mouse: nothing while the terminal is too small.
    let Some(p) = layout::panes(area, app.drawer(), message.len() as u16) else {
        popup::too_small(f, area, layout::COMPACT_SIZE);
        return Drawn::default();
    };
    let board = board(f, p.board, app, p.cell);
    if Panes::shown(p.probs) {
        details(f, p.probs, app);
    }
    let history = super::history::render(
        f,
        p.history,
        &app.paint,
        &super::history::HistoryModel::of(app),
    );
    let circuit = Panes::shown(p.circuit).then(|| {
        trace(f, p.circuit, app);
        p.circuit
    });
    let hits = Hits {
        board: Some(board),
        history: Some(history),
        circuit,
    };
    if let Some(d) = p.drawer {
        popup::drawer_hint(f, d, &app.paint, app.drawer().next().name("trace"));
    }
    status::render(f, p.status, p.message, app, message);
    let help_pages = super::overlays(f, area, app);
    Drawn { hits, help_pages }
}

fn pane<'a>(app: &App, title: String, bottom: &'a str) -> Block<'a> {
    let paint = &app.paint;
    paint
        .block()
        .title(Span::styled(title, paint.title()))
        .title_bottom(Span::styled(bottom, paint.dim()))
}

fn board(f: &mut Frame, area: Rect, app: &App, cell: (u16, u16)) -> BoardSpot {
    let g = app.game();
    let mut pieces = [None; 64];
    for (sq, c) in g.cells() {
        let glyph = match c.kind {
            Some(kind) => glyph(
                Piece {
                    color: c.color,
                    kind,
                },
                app.ascii,
            ),
            None if c.color == Color::White => 'M',
            None => 'm',
        };
        pieces[sq.0 as usize] = Some(ShownPiece {
            glyph,
            color: c.color,
            probability: c.probability,
        });
    }
    let last: Vec<_> = g
        .history()
        .last()
        .and_then(|r| move_squares(&r.text))
        .map(|(a, b, _)| vec![a, b])
        .unwrap_or_default();
    let selected = app.mode().sources();
    let targets = app.mode().targets();
    let title = format!(
        " Board: {}{} ",
        g.rules(),
        if app.flipped { " (flipped)" } else { "" }
    );
    let model = BoardModel {
        title: &title,
        pieces,
        cursor: app.cursor(),
        selected: &selected,
        targets,
        last: &last,
        hint: app
            .computer()
            .hint()
            .map_or(&[], |(_, squares)| squares.as_slice()),
        flipped: app.flipped,
        ascii: app.ascii,
        heat: None,
    };
    squares::render(f, area, &app.paint, &model, cell)
}

/// Lines that fit `width`, wrapped at spaces.
fn wrapped(lines: &[String], width: usize) -> Vec<String> {
    lines
        .iter()
        .flat_map(|l| {
            if l.is_empty() {
                vec![String::new()]
            } else {
                wrap(l, width)
            }
        })
        .collect()
}

fn details(f: &mut Frame, area: Rect, app: &App) {
    let block = pane(app, " Probabilities ".into(), "");
    let inner = block.inner(area);
    f.render_widget(block, area);
    let text = app.paint.fg(app.paint.theme.text);
    let mut details = app.game().details(app.cursor());
    if let Some(score) = app.computer().score() {
        // After the first line (the count), where a long list below cannot push it out
        // of the pane.
        let score = format!("engine {}", super::opponent::score_words(score));
        details.insert(details.len().min(1), score);
    }
    let lines: Vec<Line> = wrapped(&details, inner.width as usize)
        .into_iter()
        .map(|l| Line::styled(l, text))
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}

fn trace(f: &mut Frame, area: Rect, app: &App) {
    let history = app.game().history();
    let shown = app
        .shown_move()
        .and_then(|i| history.get(i).map(|r| (i, r)));
    let title = match shown {
        Some((i, r)) => format!(" Trace: ply {} {} ", i + 1, r.text),
        None => " Trace ".into(),
    };
    let block = pane(
        app,
        title,
        layout::hint_fits(" PgUp PgDn scroll ", area.width),
    );
    let inner = block.inner(area);
    f.render_widget(block, area);
    let none = ["no moves yet: each move's effect on the game state is listed here".into()];
    let lines = wrapped(
        shown.map_or(&none[..], |(_, r)| &r.trace),
        inner.width as usize,
    );
    let text = app.paint.fg(app.paint.theme.text);
    let lines: Vec<Line> = lines.into_iter().map(|l| Line::styled(l, text)).collect();
    f.render_widget(
        Paragraph::new(lines).scroll((app.circuit_scroll.1, 0)),
        inner,
    );
}
