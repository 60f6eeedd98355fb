//! The panes of a rule system that lists its moves (harmonics, haft) besides the board
//! and history every game has: the rule system's details about the cursor's square
//! (harmonics by weight, or worlds and possible types), and the trace of what the
//! shown move did.

use crate::format::wrap;
use crate::style::color::Paint;
use crate::ui::layout;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui::Frame;

fn pane<'a>(paint: &Paint, title: String, bottom: &'a str) -> Block<'a> {
    paint
        .block()
        .title(Span::styled(title, paint.title()))
        .title_bottom(Span::styled(bottom, paint.dim()))
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

/// Draws the details pane: `details`, line by line.
pub fn details(f: &mut Frame, area: Rect, paint: &Paint, details: &[String]) {
    let block = pane(paint, " Probabilities ".into(), "");
    let inner = block.inner(area);
    f.render_widget(block, area);
    let text = paint.fg(paint.theme.text);
    let lines: Vec<Line> = wrapped(details, inner.width as usize)
        .into_iter()
        .map(|l| Line::styled(l, text))
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}

/// What the trace pane shows.
pub struct TraceModel {
    /// The shown move (0-based) and its text, if any.
    pub shown: Option<(usize, String)>,
    /// What it did, line by line.
    pub lines: Vec<String>,
    /// Rows scrolled.
    pub scroll: u16,
}

/// Draws the trace pane.
pub fn trace(f: &mut Frame, area: Rect, paint: &Paint, model: &TraceModel) {
    let title = match &model.shown {
        Some((i, text)) => format!(" Trace: ply {} {text} ", i + 1),
        None => " Trace ".into(),
    };
    let block = pane(
        paint,
        title,
        layout::hint_fits(" PgUp PgDn scroll ", area.width),
    );
    let inner = block.inner(area);
    f.render_widget(block, area);
    let none = ["no moves yet: each move's effect on the game state is listed here".into()];
    let shown = if model.shown.is_some() {
        &model.lines[..]
    } else {
        &none[..]
    };
    let lines = wrapped(shown, inner.width as usize);
    let text = paint.fg(paint.theme.text);
    let lines: Vec<Line> = lines.into_iter().map(|l| Line::styled(l, text)).collect();
    f.render_widget(Paragraph::new(lines).scroll((model.scroll, 0)), inner);
}
