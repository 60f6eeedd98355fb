//! The status line (the endgames by number, the one shown, its size, the backend) and
//! the message line.

use super::lab::{Analysing, Shown, SkatLab};
use crate::skat::budget::duration_words;
use crate::ui::status::message_area;
use crate::ui::work::busy_line;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::symbols;
use ratatui::text::{Line, Span};
use ratatui::widgets::{LineGauge, Paragraph};
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
    // A running analysis that has said how far it is: a gauge on the second line.
    if let Some(p) = lab.analysing().and_then(|a| a.progress) {
        let row = Rect {
            y: message.y + 1,
            height: 1,
            ..message
        };
        if message.height > 1 {
            let filled = if paint.colored() {
                paint.fg(theme.info)
            } else {
                paint.fg(theme.info).add_modifier(Modifier::REVERSED)
            };
            let label = format!(
                "{:>3.0}% of about {}",
                p.fraction * 100.0,
                duration_words(p.estimate.seconds)
            );
            let line = if paint.ascii {
                "-"
            } else {
                symbols::line::THICK.horizontal
            };
            let gauge = LineGauge::default()
                .ratio(p.fraction.clamp(0.0, 1.0))
                .label(Span::styled(label, text))
                .filled_symbol(line)
                .unfilled_symbol(line)
                .filled_style(filled)
                .unfilled_style(dim);
            f.render_widget(gauge, row);
        }
    }
}

/// The message area's lines at `width` (see [`crate::ui::status::message_area`]); while
/// an analysis runs, its busy line (what, the stage, the time) and room for its gauge.
pub fn message_lines(lab: &SkatLab, width: u16) -> Vec<Line<'static>> {
    match lab.analysing() {
        Some(a) => {
            let mut lines = vec![Line::styled(
                analysing_words(&a, lab.paint.ascii),
                lab.paint.title(),
            )];
            if a.progress.is_some() {
                lines.push(Line::default());
            }
            lines
        }
        None => message_area(&lab.paint, lab.message(), None, None, None, width),
    }
}

/// The busy line of a running analysis: "⠋ analysing five-each, solving the
/// distributions: 3.1 s (Esc stops, q quits)".
pub fn analysing_words(a: &Analysing, ascii: bool) -> String {
    if a.stopping {
        let what = format!("stopping the analysis of {}", a.name);
        return busy_line(&what, a.elapsed, "q quits", ascii);
    }
    let what = match a.progress {
        Some(p) => format!("analysing {}, {}", a.name, p.stage.name()),
        None => format!("analysing {}", a.name),
    };
    busy_line(&what, a.elapsed, "Esc stops, q quits", ascii)
}
