//! The probability pane: the square under the cursor (piece, probability, correlated
//! squares), the piece count, the number of branches and the most likely branches.

use crate::chess::{Piece, Square};
use crate::style::color::Paint;
use crate::ui::view::{squares_of, View};
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

/// What the probability pane shows.
pub struct ProbsModel<'a> {
    /// The colours.
    pub paint: &'a Paint,
    /// The square under the cursor.
    pub cursor: Square,
    /// The piece that may stand there.
    pub piece: Option<Piece>,
    /// The game's costly facts.
    pub view: &'a View,
    /// The engine's last score, in words.
    pub score: Option<String>,
}

/// Draws the probability pane.
pub fn render(f: &mut Frame, area: Rect, model: &ProbsModel) {
    let paint = model.paint;
    let block = paint
        .block()
        .title(Span::styled(" Probabilities ", paint.title()));
    let inner = block.inner(area);
    f.render_widget(block, area);

    let text = paint.fg(paint.theme.text);
    let head = text.add_modifier(Modifier::BOLD);
    let dim = paint.dim();
    let sq = model.cursor;
    let p = model.view.chance(sq);
    let mut lines = Vec::new();
    lines.push(match model.piece {
        Some(pc) => Line::from(vec![
            Span::styled(format!("{sq} "), head),
            Span::styled(format!("{} {:.1}%", pc.describe(), p * 100.0), text),
        ]),
        None => Line::from(vec![
            Span::styled(format!("{sq} "), head),
            Span::styled("empty", dim),
        ]),
    });
    let view = model.view;
    if !view.correlations.is_empty() {
        let mut spans = vec![Span::styled("correlated with ", dim)];
        for (y, r) in view.correlations.iter().take(6) {
            spans.push(Span::styled(format!("{y} {r:+.2}  "), text));
        }
        lines.push(Line::from(spans));
    } else if p > 0.0 && p < 1.0 {
        lines.push(Line::styled("correlated with no other square", dim));
    }
    let [w, b] = view.count;
    lines.push(Line::from(vec![
        Span::styled("pieces ", dim),
        Span::styled(format!("{:.1}", w + b), text),
        Span::styled(format!(": white {w:.1} black {b:.1}"), dim),
    ]));
    lines.push(Line::from(vec![
        Span::styled("branches ", dim),
        Span::styled(view.branches.to_string(), text),
        Span::styled(format!("  occupancies {}", view.occupancies), dim),
    ]));
    if let Some(score) = &model.score {
        lines.push(Line::from(vec![
            Span::styled("engine: ", dim),
            Span::styled(score.clone(), text),
        ]));
    }
    if view.superposed == 0 {
        lines.push(Line::styled("the board is classical", dim));
    } else {
        // The heading only with a row under it for the first occupancy.
        let room = usize::from(inner.height).saturating_sub(rows(&lines, inner.width) + 1);
        if room > 0 {
            lines.push(Line::styled("most likely occupancies:", dim));
        }
        for (set, q) in view.dist.iter().take(room) {
            let names: Vec<String> = squares_of(set & view.superposed)
                .map(|s| s.to_string())
                .collect();
            let names = if names.is_empty() {
                "none".to_string()
            } else {
                names.join(" ")
            };
            lines.push(Line::from(vec![
                Span::styled(format!("{:5.1}% ", q * 100.0), text),
                Span::styled(names, text),
            ]));
        }
    }
    f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
}

/// The rows `lines` take in a pane `width` columns wide, a long line wrapped.
fn rows(lines: &[Line], width: u16) -> usize {
    let width = usize::from(width.max(1));
    lines.iter().map(|l| l.width().div_ceil(width).max(1)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrapped_line_counts_its_rows() {
        let lines = [
            Line::raw("e2 empty"),
            Line::raw("engine: white is slightly better (0.58 for white, +100 cp)"),
            Line::raw(""),
        ];
        assert_eq!(rows(&lines, 34), 1 + 2 + 1);
        assert_eq!(rows(&lines, 80), 3);
    }
}
