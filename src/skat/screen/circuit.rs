//! The circuit pane: the stages that ran, with their gates as counted from the
//! simulator's trace. For an endgame: the qubit registers, the selected card's oracle
//! and counting result, then state preparation A, the P_fav oracle, Grover, phase
//! estimation and the inverse QFT. For the toy: U_ini, the card-play (CP) and
//! trick-taking (TT) gates of each phase (the selected one highlighted), and P_fav.

use super::lab::{EndgameState, Pane, Shown, SkatLab, ToyState};
use super::{card_label, inner_height, keep_in_view, pane_block};
use crate::skat::analysis::CircuitStage;
use crate::skat::view::qubit_range;
use crate::ui::text::{flow, words};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

/// Draws the circuit pane.
pub fn render(f: &mut Frame, area: Rect, lab: &SkatLab) {
    let title = match lab.shown() {
        Some(Shown::Endgame(s)) => format!("Circuit · {} qubits", s.view.circuit.qubits()),
        _ => "Circuit".to_string(),
    };
    let block = pane_block(lab, Pane::Circuit, title);
    let inner = block.inner(area);
    f.render_widget(block, area);
    let width = inner.width as usize;
    let height = inner_height(area);
    let (lines, keep) = match lab.shown() {
        Some(Shown::Endgame(s)) => (endgame(lab, s, width), None),
        Some(Shown::Toy(t)) => toy(lab, t, width),
        None => (Vec::new(), None),
    };
    let max = lines.len().saturating_sub(height);
    lab.set_max_scroll(Pane::Circuit, max);
    let mut offset = lab.scroll(Pane::Circuit).min(max);
    if let Some(k) = keep {
        offset = keep_in_view(offset, k, height).min(max);
    }
    f.render_widget(Paragraph::new(lines).scroll((offset as u16, 0)), inner);
}

/// The stages, one entry each: the name in a column when the pane is wide enough,
/// the details flowing after it. Returns the lines and the first line of each stage.
fn stages(
    list: &[CircuitStage],
    width: usize,
    name: Style,
    detail: Style,
) -> (Vec<Line<'static>>, Vec<usize>) {
    let name_w = list
        .iter()
        .map(|s| s.stage.chars().count())
        .max()
        .unwrap_or(0);
    let indent = if name_w < width / 3 { name_w + 1 } else { 2 };
    let mut lines = Vec::new();
    let mut starts = Vec::new();
    for s in list {
        starts.push(lines.len());
        let pad = if indent == name_w + 1 {
            name_w - s.stage.chars().count()
        } else {
            0
        };
        let mut w = vec![Span::styled(
            format!("{}{}", s.stage, " ".repeat(pad)),
            name,
        )];
        w.extend(words(&s.detail, detail));
        lines.extend(flow(w, indent, width));
    }
    (lines, starts)
}

fn endgame(lab: &SkatLab, s: &EndgameState, width: usize) -> Vec<Line<'static>> {
    let paint = &lab.paint;
    let text = paint.fg(paint.theme.text);
    let dim = paint.dim();
    let c = &s.view.circuit;
    let regs: Vec<String> = c
        .registers
        .iter()
        .map(|r| format!("{} {}", qubit_range(r), r.role))
        .collect();
    let mut qubits = words("qubits", dim);
    qubits.extend(words(&regs.join(", "), text));
    let mut lines = flow(qubits, 2, width);
    if let Some(card) = s.analysis.cards.get(s.card) {
        let n = s.analysis.deals.len();
        let mut sel = words(
            &format!("{}:", card_label(card.card, lab.ascii)),
            paint.title(),
        );
        sel.extend(words(
            &format!("S_f marks {} of {n} strings;", card.wins),
            paint.fg(paint.theme.info),
        ));
        if let Some(q) = &card.quantum {
            sel.extend(words(
                &format!(
                    "counting reads y = {} (p {:.2}): {:.2} ± {:.2}",
                    q.outcome, q.outcome_probability, q.estimate, q.error_bound
                ),
                paint.fg(paint.theme.info),
            ));
        }
        lines.extend(flow(sel, 2, width));
    }
    let (stage_lines, _) = stages(&c.stages, width, paint.title(), text);
    lines.extend(stage_lines);
    lines
}

fn toy(lab: &SkatLab, t: &ToyState, width: usize) -> (Vec<Line<'static>>, Option<usize>) {
    let paint = &lab.paint;
    let text = paint.fg(paint.theme.text);
    let (mut lines, starts) = stages(&t.report.circuit, width, paint.title(), text);
    // The circuit lists the phases in order, then P_fav.
    let (first, end) = match (starts.get(t.phase), starts.get(t.phase + 1)) {
        (Some(&a), Some(&b)) => (a, b),
        (Some(&a), None) => (a, lines.len()),
        _ => return (lines, None),
    };
    for l in &mut lines[first..end] {
        for sp in &mut l.spans {
            sp.style = sp.style.add_modifier(Modifier::REVERSED);
        }
    }
    (lines, Some(end - 1))
}
