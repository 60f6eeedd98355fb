//! The status line (the endgames by number, the one shown, its size, the backend) and
//! the message line.

use super::lab::{Shown, SkatLab};
use crate::ui::status::message_area;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

/// The width from which the status line starts with the lab's name.
const ROOMY: u16 = 100;

/// Draws the status line into `status` and the message area's `lines` into `message`.
pub fn render(f: &mut Frame, status: Rect, message: Rect, lab: &SkatLab, lines: Vec<Line>) {
    let paint = &lab.paint;
    let theme = &paint.theme;
    let text = paint.fg(theme.text);
    let dim = paint.dim();
    let sep = paint.sep();
    let mut spans = Vec::new();
    if status.width >= ROOMY {
        spans.push(Span::styled("Skat lab", paint.title()));
        spans.push(sep.clone());
    }
    for (i, e) in lab.entries().iter().enumerate() {
        if i > 0 {
            spans.push(Span::raw(" "));
        }
        let style = if i == lab.current() {
            text.add_modifier(Modifier::REVERSED | Modifier::BOLD)
        } else {
            text
        };
        spans.push(Span::styled(format!("{} {}", i + 1, e.name()), style));
    }
    spans.push(sep.clone());
    let opts = lab.options();
    let what = match lab.shown() {
        Some(Shown::Endgame(s)) => format!(
            "{} distributions · {}",
            s.analysis.deals.len(),
            s.analysis.backend
        ),
        Some(Shown::Toy(t)) => format!(
            "phase {}/{} · {}",
            t.phase + 1,
            t.report.phases.len(),
            t.report.backend
        ),
        None => format!("{}", opts.backend),
    };
    spans.push(Span::styled(what, text));
    spans.push(sep);
    spans.push(Span::styled("? help  q quit", dim));
    f.render_widget(Paragraph::new(Line::from(spans)), status);

    f.render_widget(Paragraph::new(lines), message);
}

/// The message area's lines at `width` (see [`crate::ui::status::message_area`]).
pub fn message_lines(lab: &SkatLab, width: u16) -> Vec<Line<'static>> {
    message_area(&lab.paint, lab.message(), None, lab.busy(), width)
}
