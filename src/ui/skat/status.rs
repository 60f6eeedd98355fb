//! The status line (the endgames by number, the one shown, its size, the backend) and
//! the message line.

use super::lab::{Shown, SkatLab};
use crate::ui::app::Tone;
use crate::ui::work::busy_line;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

/// The width from which the status line starts with the lab's name.
const ROOMY: u16 = 100;

/// Draws the status line into `status` and the message line into `message`.
pub fn render(f: &mut Frame, status: Rect, message: Rect, lab: &SkatLab) {
    let paint = &lab.paint;
    let theme = &paint.theme;
    let text = paint.fg(theme.text);
    let dim = paint.dim();
    let sep = Span::styled(" │ ", dim);
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

    let m = lab.message();
    let style = match m.tone {
        Tone::Plain => dim,
        Tone::Info => paint.fg(theme.info),
        Tone::Error => paint.fg(theme.error).add_modifier(Modifier::BOLD),
    };
    let line = match lab.busy() {
        Some((what, elapsed)) => Line::styled(busy_line(what, elapsed, lab.ascii), paint.title()),
        None => Line::styled(m.text.clone(), style),
    };
    f.render_widget(Paragraph::new(line), message);
}
