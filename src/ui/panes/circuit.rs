//! The circuit pane: the shown move's operations drawn as wires labelled by square
//! (ancillas as q64, q65, ...), with gates, controls, path controls, ancillas and
//! measurements with their outcomes; or, when the drawing does not fit, as a list.

use crate::chess::{PlayedMove, Square};
use crate::quantum::{Control, Gate, Op, Qubit};
use crate::style::color::Paint;
use crate::ui::layout::hint_fits;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

/// How the circuit pane shows a circuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CircuitView {
    /// A drawing when it fits across the pane, else a list.
    #[default]
    Auto,
    /// Always the drawing (scroll it with < and >).
    Diagram,
    /// Always the list.
    List,
}

impl CircuitView {
    /// The next choice in the cycle Auto, Diagram, List.
    pub fn next(self) -> CircuitView {
        match self {
            CircuitView::Auto => CircuitView::Diagram,
            CircuitView::Diagram => CircuitView::List,
            CircuitView::List => CircuitView::Auto,
        }
    }

    /// Words for the message line.
    pub fn describe(self) -> &'static str {
        match self {
            CircuitView::Auto => "a drawing when it fits, else a list",
            CircuitView::Diagram => "a drawing (< > scroll)",
            CircuitView::List => "a list",
        }
    }
}

/// The characters of a drawing.
struct Glyphs {
    wire: char,
    cross: char,
    vert: char,
    on: char,
    off: char,
    clear: char,
    blocked: char,
    alloc: &'static str,
    release: &'static str,
}

const UNICODE: Glyphs = Glyphs {
    wire: '─',
    cross: '┼',
    vert: '│',
    on: '●',
    off: '○',
    clear: '◌',
    blocked: '◍',
    alloc: "|0⟩",
    release: "→",
};

const ASCII: Glyphs = Glyphs {
    wire: '-',
    cross: '+',
    vert: '|',
    on: '*',
    off: 'o',
    clear: '.',
    blocked: '#',
    alloc: "|0>",
    release: "->",
};

fn glyphs(ascii: bool) -> &'static Glyphs {
    if ascii {
        &ASCII
    } else {
        &UNICODE
    }
}

/// A qubit's name: its square, or q64, q65, ... for ancillas.
pub fn qubit_name(q: Qubit) -> String {
    if q < 64 {
        Square(q as u8).to_string()
    } else {
        format!("q{q}")
    }
}

/// A gate's name as drawn.
fn gate_name(g: Gate, ascii: bool) -> String {
    match (g, ascii) {
        (Gate::ISwap, _) => "ISWAP".into(),
        (Gate::ISwapInv, true) => "ISWAP^-1".into(),
        (Gate::SqrtISwap, true) => "SQRT_ISWAP".into(),
        (Gate::SqrtISwapInv, true) => "SQRT_ISWAP^-1".into(),
        (g, _) => g.name(),
    }
}

fn names(qs: &[Qubit]) -> String {
    qs.iter()
        .map(|&q| qubit_name(q))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A condition in words.
fn condition(c: &Control) -> String {
    match c {
        Control::Bit(q, true) => format!("{} occupied", qubit_name(*q)),
        Control::Bit(q, false) => format!("{} empty", qubit_name(*q)),
        Control::Clear(v) => format!("path {} empty", names(v)),
        Control::Blocked(v) => format!("path {} blocked", names(v)),
    }
}

fn conditions(cs: &[Control]) -> String {
    cs.iter().map(condition).collect::<Vec<_>>().join(" and ")
}

/// A measurement in words.
fn measurement(predicate: &[Control], p1: f64, outcome: bool, forced: bool) -> String {
    format!(
        "M: {}? {} (chance of yes {:.2}{})",
        conditions(predicate),
        if outcome {
            "yes, the move went on"
        } else {
            "no, the move stopped"
        },
        p1,
        if forced { ", forced" } else { "" }
    )
}

/// The circuit as a list, one line per operation.
pub fn list(ops: &[Op], ascii: bool) -> Vec<String> {
    ops.iter()
        .enumerate()
        .map(|(i, op)| {
            let body = match op {
                Op::Gate {
                    gate,
                    targets,
                    controls,
                } => {
                    let mut s = format!("{} {}", gate_name(*gate, ascii), names(targets));
                    if !controls.is_empty() {
                        s.push_str(&format!(" if {}", conditions(controls)));
                    }
                    s
                }
                Op::Measure {
                    predicate,
                    p1,
                    outcome,
                    forced,
                } => measurement(predicate, *p1, *outcome, *forced),
                Op::Oracle { label } => format!("phase oracle: {label}"),
                Op::Alloc { qubit } => format!("new ancilla {} in |0>", qubit_name(*qubit)),
                Op::Release { qubit, value } => {
                    format!(
                        "ancilla {} released (constant {})",
                        qubit_name(*qubit),
                        *value as u8
                    )
                }
            };
            format!("{:>2} {body}", i + 1)
        })
        .collect()
}

/// The wires of a circuit: every qubit it touches, squares a1..h8 then ancillas.
fn wires(ops: &[Op]) -> Vec<Qubit> {
    let mut v: Vec<Qubit> = ops.iter().flat_map(|o| o.qubits()).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// What one operation puts on one wire.
enum Cell {
    /// Text on the wire (a gate name, a control, a measurement).
    Mark(String),
    /// The vertical line of a gate passing this wire.
    Pass,
    /// Nothing: the plain wire.
    Wire,
}

/// A drawing: one text row per wire, then footnotes for the measurements.
struct Drawing {
    labels: Vec<String>,
    rows: Vec<String>,
    notes: Vec<String>,
}

fn control_mark(c: &Control, g: &Glyphs) -> Vec<(Qubit, char)> {
    match c {
        Control::Bit(q, v) => vec![(*q, if *v { g.on } else { g.off })],
        Control::Clear(v) => v.iter().map(|&q| (q, g.clear)).collect(),
        Control::Blocked(v) => v.iter().map(|&q| (q, g.blocked)).collect(),
    }
}

fn draw(ops: &[Op], ascii: bool) -> Drawing {
    let g = glyphs(ascii);
    let wires = wires(ops);
    let row_of = |q: Qubit| wires.binary_search(&q).unwrap_or(0);
    // An ancilla is live from the start unless this circuit allocates it.
    let mut alive: Vec<bool> = wires
        .iter()
        .map(|&q| {
            q < 64
                || !ops
                    .iter()
                    .find(|o| o.qubits().contains(&q))
                    .is_some_and(|o| matches!(o, Op::Alloc { .. }))
        })
        .collect();
    let mut rows: Vec<String> = vec![String::new(); wires.len()];
    let mut notes = Vec::new();
    let seg = |alive: bool| if alive { g.wire } else { ' ' };
    for op in ops {
        let mut cells: Vec<Cell> = (0..wires.len()).map(|_| Cell::Wire).collect();
        let mut after = alive.clone();
        let mut span: Vec<usize> = Vec::new();
        match op {
            Op::Gate {
                gate,
                targets,
                controls,
            } => {
                for &t in targets {
                    cells[row_of(t)] = Cell::Mark(gate_name(*gate, ascii));
                    span.push(row_of(t));
                }
                for c in controls {
                    for (q, m) in control_mark(c, g) {
                        cells[row_of(q)] = Cell::Mark(m.to_string());
                        span.push(row_of(q));
                    }
                }
            }
            Op::Measure {
                predicate,
                p1,
                outcome,
                forced,
            } => {
                for c in predicate {
                    for (q, m) in control_mark(c, g) {
                        cells[row_of(q)] = Cell::Mark(format!("M{m}"));
                        span.push(row_of(q));
                    }
                }
                notes.push(measurement(predicate, *p1, *outcome, *forced));
            }
            Op::Oracle { label } => {
                for c in cells.iter_mut() {
                    *c = Cell::Mark("Φ".into());
                }
                notes.push(format!("Φ: phase oracle: {label}"));
            }
            Op::Alloc { qubit } => {
                cells[row_of(*qubit)] = Cell::Mark(g.alloc.into());
                after[row_of(*qubit)] = true;
            }
            Op::Release { qubit, value } => {
                cells[row_of(*qubit)] = Cell::Mark(format!("{}{}", g.release, *value as u8));
                after[row_of(*qubit)] = false;
            }
        }
        if let (Some(&lo), Some(&hi)) = (span.iter().min(), span.iter().max()) {
            for c in cells.iter_mut().take(hi).skip(lo + 1) {
                if matches!(c, Cell::Wire) {
                    *c = Cell::Pass;
                }
            }
        }
        let width = cells
            .iter()
            .map(|c| match c {
                Cell::Mark(s) => s.chars().count(),
                _ => 1,
            })
            .max()
            .unwrap_or(1)
            + 2;
        for (r, cell) in cells.iter().enumerate() {
            let (before_c, after_c) = (seg(alive[r]), seg(after[r]));
            let row = &mut rows[r];
            row.push(before_c);
            let content = match cell {
                Cell::Mark(s) => s.clone(),
                Cell::Pass => (if alive[r] { g.cross } else { g.vert }).to_string(),
                Cell::Wire => String::new(),
            };
            let n = content.chars().count();
            let left = (width - n) / 2;
            row.extend(std::iter::repeat_n(before_c, left));
            row.push_str(&content);
            row.extend(std::iter::repeat_n(after_c, width - n - left));
        }
        alive = after;
    }
    for (r, row) in rows.iter_mut().enumerate() {
        row.push(seg(alive[r]));
    }
    Drawing {
        labels: wires.iter().map(|&q| qubit_name(q)).collect(),
        rows,
        notes,
    }
}

/// The size of a circuit's content in cells (columns of the drawing, lines of the
/// drawing or the list, whichever is more), for scrolling.
pub fn extent(ops: &[Op]) -> (usize, usize) {
    let d = draw(ops, false);
    let w = d.rows.first().map_or(0, |r| r.chars().count());
    let h = (d.rows.len() + d.notes.len() + 1).max(ops.len());
    (w, h)
}

/// What the circuit pane shows.
pub struct CircuitModel<'a> {
    /// The colours.
    pub paint: &'a Paint,
    /// The moves played, with their circuits.
    pub moves: &'a [PlayedMove],
    /// The move whose circuit is shown.
    pub shown: Option<usize>,
    /// Scroll: columns, rows.
    pub scroll: (u16, u16),
    /// Drawn as a diagram or a list.
    pub view: CircuitView,
    /// Letters instead of box-drawing characters.
    pub ascii: bool,
}

/// Draws the circuit pane.
pub fn render(f: &mut Frame, area: Rect, model: &CircuitModel) {
    let paint = model.paint;
    let history = model.moves;
    let shown = model.shown;
    let title = match shown {
        Some(i) => format!(" Circuit: ply {} {} ", i + 1, history[i].played),
        None => " Circuit ".into(),
    };
    let block = paint
        .block()
        .title(Span::styled(title, paint.title()))
        .title_bottom(Span::styled(
            hint_fits(" c view  < > PgUp PgDn scroll ", area.width),
            paint.dim(),
        ));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let Some(i) = shown else {
        // Wrapped: the pane is narrower than the line at 80 columns.
        let lines = crate::format::wrap(
            "no move yet: the circuit of each move shows here",
            inner.width as usize,
        );
        let lines: Vec<Line> = lines
            .into_iter()
            .map(|l| Line::styled(l, paint.dim()))
            .collect();
        f.render_widget(Paragraph::new(lines), inner);
        return;
    };
    let ops = &history[i].ops;
    let text = paint.fg(paint.theme.text);
    let info = paint.fg(paint.theme.info);
    let (sx, sy) = model.scroll;
    let d = draw(ops, model.ascii);
    let label_w = d.labels.iter().map(|l| l.len()).max().unwrap_or(0) + 1;
    let drawing_w = label_w + d.rows.first().map_or(0, |r| r.chars().count());
    let as_list = match model.view {
        CircuitView::Auto => drawing_w > inner.width as usize,
        CircuitView::Diagram => false,
        CircuitView::List => true,
    };
    if ops.is_empty() {
        f.render_widget(
            Paragraph::new(Line::styled("no operations", paint.dim())),
            inner,
        );
        return;
    }
    if as_list {
        let lines: Vec<Line> = list(ops, model.ascii)
            .into_iter()
            .map(|l| Line::styled(l, text))
            .collect();
        f.render_widget(
            Paragraph::new(lines)
                .wrap(Wrap { trim: false })
                .scroll((sy, 0)),
            inner,
        );
        return;
    }
    let body_w = (inner.width as usize).saturating_sub(label_w);
    let mut lines: Vec<Line> = d
        .labels
        .iter()
        .zip(&d.rows)
        .map(|(l, r)| {
            let visible: String = r.chars().skip(sx as usize).take(body_w).collect();
            Line::from(vec![
                Span::styled(format!("{l:<label_w$}"), paint.dim()),
                Span::styled(visible, text),
            ])
        })
        .collect();
    lines.push(Line::raw(""));
    lines.extend(d.notes.into_iter().map(|n| Line::styled(n, info)));
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((sy, 0)),
        inner,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawing_of_a_controlled_gate() {
        let ops = vec![
            Op::Alloc { qubit: 64 },
            Op::Gate {
                gate: Gate::ISwap,
                targets: vec![0, 16],
                controls: vec![Control::Clear(vec![8])],
            },
        ];
        let d = draw(&ops, true);
        assert_eq!(d.labels, vec!["a1", "a2", "a3", "q64"]);
        assert_eq!(d.rows[0], "--------ISWAP--");
        assert_eq!(d.rows[1], "----------.----");
        assert_eq!(d.rows[2], "--------ISWAP--");
        assert_eq!(d.rows[3], "  |0>----------");
    }

    #[test]
    fn list_in_words() {
        let ops = vec![
            Op::Measure {
                predicate: vec![Control::Bit(18, false)],
                p1: 0.5,
                outcome: false,
                forced: true,
            },
            Op::Alloc { qubit: 64 },
            Op::Gate {
                gate: Gate::SqrtISwapInv,
                targets: vec![1, 64],
                controls: vec![Control::Blocked(vec![9, 17])],
            },
            Op::Release {
                qubit: 64,
                value: true,
            },
        ];
        assert_eq!(
            list(&ops, true),
            vec![
                " 1 M: c3 empty? no, the move stopped (chance of yes 0.50, forced)",
                " 2 new ancilla q64 in |0>",
                " 3 SQRT_ISWAP^-1 b1 q64 if path b2 b3 blocked",
                " 4 ancilla q64 released (constant 1)",
            ]
        );
    }
}
