//! The table pane: the game, the seats in playing order (declarer and defenders, me,
//! who leads) with my hand and the selected card, the unknown cards, what is known
//! about them, the points so far and the favourable outcome. For the toy: its players,
//! deck and goal.

use super::lab::{EndgameState, Pane, Shown, SkatLab, ToyState};
use super::{card_label, cards_label, pane_block, show_scrolled};
use crate::ui::text::{flow, words};
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::Frame;

/// Draws the table pane.
pub fn render(f: &mut Frame, area: Rect, lab: &SkatLab) {
    let block = pane_block(lab, Pane::Table, "Table".into());
    let inner = block.inner(area);
    f.render_widget(block, area);
    let width = inner.width as usize;
    let lines = match lab.shown() {
        Some(Shown::Endgame(s)) => endgame(lab, s, width),
        Some(Shown::Toy(t)) => toy(lab, t, width),
        None => Vec::new(),
    };
    show_scrolled(f, area, inner, lab, Pane::Table, lines);
}

fn endgame(lab: &SkatLab, s: &EndgameState, width: usize) -> Vec<Line<'static>> {
    let paint = &lab.paint;
    let text = paint.fg(paint.theme.text);
    let dim = paint.dim();
    let t = &s.view.table;
    let mut lines = flow(
        [
            words(
                &format!("{} game ·", t.game),
                text.add_modifier(Modifier::BOLD),
            ),
            words(&format!("favourable: {}", t.win), text),
        ]
        .concat(),
        2,
        width,
    );
    let name_w = t
        .seats
        .iter()
        .map(|s| s.name.chars().count())
        .max()
        .unwrap_or(1);
    let selected = s.analysis.cards.get(s.card).map(|c| c.card);
    for seat in &t.seats {
        let mut w = vec![
            Span::styled(
                format!("{:<name_w$}", seat.name),
                text.add_modifier(Modifier::BOLD),
            ),
            Span::styled(format!("{:<8}", seat.role), dim),
        ];
        if seat.cards.is_empty() {
            w.extend(words(&format!("{} hidden", seat.hidden), text));
        }
        for &c in &seat.cards {
            let style = if Some(c) == selected {
                text.add_modifier(Modifier::REVERSED | Modifier::BOLD)
            } else {
                text.add_modifier(Modifier::BOLD)
            };
            w.push(Span::styled(card_label(c, lab.ascii), style));
        }
        let mut notes = Vec::new();
        if seat.me {
            notes.push("me");
        }
        if seat.leads {
            notes.push("leads");
        }
        if !notes.is_empty() {
            w.push(Span::styled(
                format!("({})", notes.join(", ")),
                paint.title(),
            ));
        }
        lines.extend(flow(w, name_w + 10, width));
    }
    let mut unknown = words("unknown", dim);
    unknown.extend(words(&cards_label(&t.unknown, lab.ascii), text));
    lines.extend(flow(unknown, 2, width));
    let eg = &s.analysis.endgame;
    for c in &eg.constraints {
        let amount = if c.min == c.max {
            format!("exactly {}", c.min)
        } else {
            format!("{} to {}", c.min, c.max)
        };
        let mut known = words("known", dim);
        known.extend(words(
            &format!(
                "{} holds {amount} of {}",
                eg.seats[c.player],
                cards_label(&c.cards, lab.ascii)
            ),
            text,
        ));
        lines.extend(flow(known, 2, width));
    }
    let mut points = words("points", dim);
    points.extend(words(&t.points, text));
    lines.extend(flow(points, 2, width));
    lines
}

fn toy(lab: &SkatLab, t: &ToyState, width: usize) -> Vec<Line<'static>> {
    let paint = &lab.paint;
    let text = paint.fg(paint.theme.text);
    let dim = paint.dim();
    let r = &t.report;
    let total: u32 = r.cards.iter().map(|c| c.points()).sum();
    let mut lines = flow(
        words(
            "the paper's four-card example",
            text.add_modifier(Modifier::BOLD),
        ),
        2,
        width,
    );
    lines.extend(flow(words("A and B hold two cards each", text), 2, width));
    let mut deck = words("deck", dim);
    for &c in &r.cards {
        deck.push(Span::styled(
            format!("{}({})", card_label(c, lab.ascii), c.points()),
            text,
        ));
    }
    deck.extend(words("strongest first", dim));
    lines.extend(flow(deck, 2, width));
    let deals = r.phases.first().map_or(0, |p| p.branches);
    lines.extend(flow(
        words(&format!("all {deals} deals in superposition"), text),
        2,
        width,
    ));
    lines.extend(flow(
        words(
            &format!("A wins with {} of the {total} points", r.a_needs),
            text,
        ),
        2,
        width,
    ));
    lines.extend(flow(
        words("every legal way to play counts equally", dim),
        2,
        width,
    ));
    lines
}
