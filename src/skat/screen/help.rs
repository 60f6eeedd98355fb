//! The lab's help: one line per key-map entry, over the middle of the screen.

use super::keys::KEYMAP;
use super::lab::SkatLab;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::Frame;

/// Draws the help over `area`.
pub fn render(f: &mut Frame, area: Rect, lab: &SkatLab) {
    let paint = &lab.paint;
    let key_w = KEYMAP
        .iter()
        .map(|b| b.label.chars().count())
        .max()
        .unwrap_or(0);
    let mut lines: Vec<Line> = KEYMAP
        .iter()
        .map(|b| {
            Line::from(vec![
                Span::styled(format!(" {:<key_w$}  ", b.label), paint.title()),
                Span::styled(b.help, paint.fg(paint.theme.text)),
            ])
        })
        .collect();
    lines.push(Line::styled(
        " won/lost: my side reaches its goal or not (that card, that distribution)",
        paint.dim(),
    ));
    let title = " Skat lab keys (any key closes) ".to_string();
    crate::ui::popup::titled_box(f, area, paint, 78, title, lines);
}
