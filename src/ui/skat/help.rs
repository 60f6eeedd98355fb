//! The lab's help: one line per key-map entry, over the middle of the screen.

use super::keys::KEYMAP;
use super::lab::SkatLab;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};
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
    let h = lines.len() as u16 + 2;
    let [row] = Layout::vertical([Constraint::Length(h)])
        .flex(Flex::Center)
        .areas(area);
    let [r] = Layout::horizontal([Constraint::Length(78)])
        .flex(Flex::Center)
        .areas(row);
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines).block(
            paint
                .block()
                .border_style(paint.fg(paint.theme.title))
                .title(Span::styled(
                    " Skat lab keys (any key closes) ",
                    paint.title(),
                )),
        ),
        r,
    );
}
