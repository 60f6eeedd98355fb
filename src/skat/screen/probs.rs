//! The probabilities pane. For an endgame: one row per card I could lead (distributions
//! won, the measured probability, the quantum counting estimate with its bound, my
//! side's mean points), then the distributions with the selected card's outcome in
//! each. For the toy: the branches after each phase, and the selected phase's branches.

use super::lab::{EndgameState, Pane, Shown, SkatLab, ToyState};
use super::{card_label, inner_height, keep_in_view, pane_block};
use crate::skat::cards::Card;
use crate::ui::text::{clip, flow, words};
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

/// Draws the probabilities pane.
pub fn render(f: &mut Frame, area: Rect, lab: &SkatLab) {
    match lab.shown() {
        Some(Shown::Endgame(s)) => endgame(f, area, lab, s),
        Some(Shown::Toy(t)) => toy(f, area, lab, t),
        None => f.render_widget(
            pane_block(lab, Pane::Probabilities, "Probabilities".into()),
            area,
        ),
    }
}

/// The inner height from which the distributions get a heading.
const ROOMY: usize = 20;

fn endgame(f: &mut Frame, area: Rect, lab: &SkatLab, s: &EndgameState) {
    let paint = &lab.paint;
    let ascii = lab.ascii;
    let p = &s.view.probabilities;
    let mut block = pane_block(
        lab,
        Pane::Probabilities,
        format!(
            "Probabilities · best {}",
            card_label(p.recommendation, ascii)
        ),
    );
    if let Some(q) = p.rows.first().and_then(|r| r.quantum.as_ref()) {
        block = block.title_bottom(Span::styled(
            format!(
                " counting: t = {}, {} oracle calls vs {} ",
                q.counting_qubits,
                q.oracle_calls,
                p.distributions.len()
            ),
            paint.dim(),
        ));
    }
    let inner = block.inner(area);
    f.render_widget(block, area);

    let text = paint.fg(paint.theme.text);
    let dim = paint.dim();
    let total = p.distributions.len();
    let frac_w = 2 * total.to_string().len() + 1;
    let mut lines = vec![Line::styled(
        format!("  card {:>frac_w$}  p_win  {:>11}  mean", "won", "quantum"),
        dim,
    )];
    for (i, r) in p.rows.iter().enumerate() {
        let selected = i == s.card;
        let card = format!("{:<4}", card_label(r.card, ascii));
        let q = r.quantum.as_ref().map_or("-".to_string(), |q| {
            format!("{:.2}±{:.2}", q.estimate, q.error_bound)
        });
        let mut spans = vec![
            Span::styled(if selected { "▶ " } else { "  " }, paint.title()),
            Span::styled(
                card,
                if selected {
                    text.add_modifier(Modifier::REVERSED | Modifier::BOLD)
                } else {
                    text.add_modifier(Modifier::BOLD)
                },
            ),
            Span::styled(
                format!(
                    " {:>frac_w$}  {:.3}  {q:>11}  {:.1}",
                    format!("{}/{}", r.wins, r.total),
                    r.p_win,
                    r.mean_points
                ),
                text,
            ),
        ];
        let used: usize = spans.iter().map(|sp| sp.width()).sum();
        if r.card == p.recommendation && used + 6 <= inner.width as usize {
            spans.push(Span::styled("  best", paint.title()));
        }
        lines.push(Line::from(spans));
    }
    let num_w = total.to_string().len();
    if inner_height(area) >= ROOMY {
        let led = p
            .rows
            .get(s.card)
            .map(|r| card_label(r.card, ascii))
            .unwrap_or_default();
        lines.push(Line::styled(
            format!(
                "{:>w$}  {:>3} with {led} led · the other hands",
                "#",
                "pts",
                w = num_w + 2
            ),
            dim,
        ));
    }
    let head = lines.len();
    let width = inner.width as usize;
    // Rows never cut a card: the selected distribution wraps onto more lines, the others
    // end with "…" where their cards do not fit.
    let row = |i: usize| distribution_row(lab, s, i, num_w, width, i == s.distribution);
    let selected_h = row(s.distribution).len();
    let list_h = inner_height(area).saturating_sub(head);
    let offset = keep_in_view(0, s.distribution, list_h.saturating_sub(selected_h - 1));
    for i in offset..p.distributions.len() {
        if lines.len() >= head + list_h {
            break;
        }
        lines.extend(row(i));
    }
    if p.distributions.is_empty() {
        lines.push(Line::styled("no distributions", dim));
    }
    f.render_widget(Paragraph::new(lines), inner);
}

/// The lines of distribution `i`: its number, my side's points and outcome with the
/// selected card, and the other hands, `width` cells wide. The `selected` one wraps so
/// that every card shows; another one ends with "…" after the last card that fits.
fn distribution_row(
    lab: &SkatLab,
    s: &EndgameState,
    i: usize,
    num_w: usize,
    width: usize,
    selected: bool,
) -> Vec<Line<'static>> {
    let paint = &lab.paint;
    let text = paint.fg(paint.theme.text);
    let Some(d) = s.view.probabilities.distributions.get(i) else {
        return Vec::new();
    };
    let (points, fav) = d.results.get(s.card).copied().unwrap_or((0, false));
    let mark = if selected { "▶" } else { " " };
    let mut words = vec![
        Span::styled(mark, paint.title()),
        Span::styled(format!("{:>w$}  {points:>3}", i + 1, w = num_w), text),
        if fav {
            Span::styled("won ", paint.fg(paint.theme.info))
        } else {
            Span::styled("lost", paint.fg(paint.theme.error))
        },
    ];
    let indent: usize = words.iter().map(|w| w.width()).sum::<usize>() + words.len();
    // Each hand: the seat with its first card, then one word per card; hands are set
    // apart by a wider gap.
    for (seat, cards) in &d.hands {
        let labels: Vec<String> = cards.iter().map(|&c| card_label(c, lab.ascii)).collect();
        let mut first = format!(" {seat}");
        if let Some(l) = labels.first() {
            first = format!("{first} {l}");
        }
        words.push(Span::styled(first, text));
        for l in labels.iter().skip(1) {
            words.push(Span::styled(l.clone(), text));
        }
    }
    let mut lines = flow(words, indent, width);
    if !selected {
        lines = clip(lines, 1, width, text);
    }
    if selected {
        for l in &mut lines {
            for sp in &mut l.spans {
                sp.style = sp.style.add_modifier(Modifier::REVERSED);
            }
        }
    }
    lines
}

/// The toy's branches as cells: the probability, then each card's owner and place.
fn toy_cells(state: &str) -> Vec<(Option<Card>, String)> {
    state
        .split(' ')
        .map(|tok| match tok.split_once(':') {
            Some((card, rest)) => (card.parse().ok(), rest.replace('-', " ")),
            None => (None, tok.to_string()),
        })
        .collect()
}

fn toy(f: &mut Frame, area: Rect, lab: &SkatLab, t: &ToyState) {
    let paint = &lab.paint;
    let text = paint.fg(paint.theme.text);
    let dim = paint.dim();
    let block = pane_block(lab, Pane::Probabilities, "Phases · branches".into());
    let inner = block.inner(area);
    f.render_widget(block, area);
    let width = inner.width as usize;
    let r = &t.report;

    let mut chain: Vec<Span<'static>> = Vec::new();
    for (i, ph) in r.phases.iter().enumerate() {
        let style = if i == t.phase {
            text.add_modifier(Modifier::REVERSED | Modifier::BOLD)
        } else {
            text
        };
        chain.push(Span::styled(ph.branches.to_string(), style));
        if i + 1 < r.phases.len() {
            chain.push(Span::styled("→", dim));
        }
    }
    let mut lines = flow(chain, 0, width);
    let Some(ph) = r.phases.get(t.phase) else {
        f.render_widget(Paragraph::new(lines), inner);
        return;
    };
    lines.extend(flow(
        vec![
            Span::styled(format!("{}/{}", t.phase + 1, r.phases.len()), paint.title()),
            Span::styled(ph.name.clone(), text.add_modifier(Modifier::BOLD)),
            Span::styled("·", dim),
            Span::styled(ph.unitary.clone(), paint.fg(paint.theme.info)),
        ],
        2,
        width,
    ));
    lines.extend(flow(
        words(
            &format!(
                "{} branches ({} basis states with the ancillas)",
                ph.branches, ph.basis_states
            ),
            dim,
        ),
        2,
        width,
    ));
    let cards = &r.cards;
    let mut header = vec![Span::styled(format!(" {:<7}", "p"), dim)];
    for &c in cards {
        header.push(Span::styled(
            format!("{:<8}", card_label(c, lab.ascii)),
            dim.add_modifier(Modifier::BOLD),
        ));
    }
    lines.push(Line::from(header));
    let head = lines.len();
    let list_h = inner_height(area).saturating_sub(head);
    let offset = keep_in_view(0, t.branch, list_h);
    for (i, (state, p)) in ph.states.iter().enumerate().skip(offset).take(list_h) {
        let mark = if i == t.branch { "▶" } else { " " };
        let mut spans = vec![
            Span::styled(mark, paint.title()),
            Span::styled(format!("{p:<7.4}"), text),
        ];
        for (card, cell) in toy_cells(state) {
            let shown = match card {
                Some(_) => format!("{cell:<8}"),
                None => format!("{cell} "),
            };
            spans.push(Span::styled(shown, text));
        }
        if i == t.branch {
            for sp in &mut spans {
                sp.style = sp.style.add_modifier(Modifier::REVERSED);
            }
        }
        lines.push(Line::from(spans));
    }
    f.render_widget(Paragraph::new(lines), inner);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toy_states_split_into_cells() {
        let cells = toy_cells("CA:A-table C10:B-hand");
        assert_eq!(cells.len(), 2);
        assert_eq!(cells[0].0.map(|c| c.to_string()), Some("CA".to_string()));
        assert_eq!(cells[1].1, "B hand");
    }
}
