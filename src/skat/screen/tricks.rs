//! The tricks pane. For an endgame: the double-dummy line of play when I lead the
//! selected card in the selected distribution, trick by trick, and where it ends. For
//! the toy: the final outcomes with their probabilities, A's expected points and the
//! probability that A wins.

use super::lab::{EndgameState, Pane, Shown, SkatLab, ToyState};
use super::{card_label, cards_label, pane_block, show_scrolled};
use crate::ui::text::{flow, words};
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::Frame;

/// Draws the tricks pane.
pub fn render(f: &mut Frame, area: Rect, lab: &SkatLab) {
    let title = match lab.shown() {
        Some(Shown::Toy(_)) => "Outcomes",
        _ => "Tricks",
    };
    let block = pane_block(lab, Pane::Tricks, title.into());
    let inner = block.inner(area);
    f.render_widget(block, area);
    let width = inner.width as usize;
    let lines = match lab.shown() {
        Some(Shown::Endgame(s)) => endgame(lab, s, width),
        Some(Shown::Toy(t)) => toy(lab, t, width),
        None => Vec::new(),
    };
    show_scrolled(f, area, inner, lab, Pane::Tricks, lines);
}

fn endgame(lab: &SkatLab, s: &EndgameState, width: usize) -> Vec<Line<'static>> {
    let paint = &lab.paint;
    let text = paint.fg(paint.theme.text);
    let dim = paint.dim();
    let tr = &s.view.tricks;
    let total = s.analysis.deals.len();
    let mut lines = flow(
        [
            words(
                &format!("lead {} ·", card_label(tr.lead, lab.ascii)),
                text.add_modifier(Modifier::BOLD),
            ),
            words(
                &format!("distribution {} of {total}", tr.distribution + 1),
                text,
            ),
        ]
        .concat(),
        2,
        width,
    );
    let eg = &s.analysis.endgame;
    let name_w = eg
        .seats
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(1);
    for (i, t) in tr.tricks.iter().enumerate() {
        let mut spans = vec![Span::styled(format!("{} ", i + 1), dim)];
        for (seat, c) in &t.cards {
            spans.push(Span::styled(format!("{seat:>name_w$} "), dim));
            spans.push(Span::styled(
                format!("{:<4}", card_label(*c, lab.ascii)),
                text.add_modifier(Modifier::BOLD),
            ));
        }
        spans.push(Span::styled(format!("→ {} +{}", t.winner, t.points), text));
        lines.push(Line::from(spans));
    }
    let side = if eg.is_defender(eg.me) {
        "defenders end with"
    } else {
        "declarer ends with"
    };
    let mut end = words(&format!("{side} {}:", tr.final_points), text);
    end.push(if tr.favourable {
        Span::styled(
            "won",
            paint.fg(paint.theme.info).add_modifier(Modifier::BOLD),
        )
    } else {
        Span::styled(
            "lost",
            paint.fg(paint.theme.error).add_modifier(Modifier::BOLD),
        )
    });
    lines.extend(flow(end, 2, width));
    lines.extend(flow(
        words(
            "double-dummy: all hands open, both sides play perfectly",
            dim,
        ),
        2,
        width,
    ));
    lines
}

fn toy(lab: &SkatLab, t: &ToyState, width: usize) -> Vec<Line<'static>> {
    let paint = &lab.paint;
    let text = paint.fg(paint.theme.text);
    let dim = paint.dim();
    let r = &t.report;
    let mut lines = vec![Line::styled(format!("{:<7}A takes", "p"), dim)];
    for o in &r.outcomes {
        lines.push(Line::from(vec![
            Span::styled(format!("{:<7.4}", o.probability), text),
            Span::styled(
                format!("{:<16}", cards_label(&o.a_stack, lab.ascii)),
                text.add_modifier(Modifier::BOLD),
            ),
            Span::styled(format!("{:>3} points", o.a_points), text),
        ]));
    }
    lines.extend(flow(
        words(
            &format!(
                "<S_A> = {:.2}; P_fav (A takes {} or more) = {:.4}",
                r.expected_a_points, r.a_needs, r.p_win_a
            ),
            paint.fg(paint.theme.info),
        ),
        2,
        width,
    ));
    lines
}
