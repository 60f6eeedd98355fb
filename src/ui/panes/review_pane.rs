//! The review pane of the replay screen: White's expected result over the game as a
//! bar graph (a full bar: White wins; half: even) with its scale on the left (1, ½, 0)
//! and a legend in the bottom border, the shown ply's bar marked, marked moves coloured
//! and written over their bar (`??`, `?`, `?!` as in the history, `*` a turn of luck),
//! and one line under it: the shown move's verdict, the review's progress, or how to
//! start one.

use crate::style::color::Paint;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{LineGauge, Paragraph, Wrap};
use ratatui::Frame;

/// How a ply is marked in the graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Marker {
    /// A turn of luck (a measurement's outcome, not a choice).
    Luck,
    /// An inaccuracy.
    Inaccuracy,
    /// A mistake.
    Mistake,
    /// A blunder.
    Blunder,
}

/// What the review pane shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReviewModel {
    /// The pane's title: who judged.
    pub title: String,
    /// White's expected result after each ply (index 0: the start), where judged.
    pub curve: Vec<Option<f64>>,
    /// Each ply's marker (index 0: the start, never marked).
    pub markers: Vec<Option<Marker>>,
    /// The ply shown on the board.
    pub shown: usize,
    /// The line under the graph.
    pub line: String,
    /// A review running: positions judged and to judge.
    pub progress: Option<(usize, usize)>,
}

/// The graph as drawn: where, and how many plies each column stands for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GraphSpot {
    /// The graph's cells.
    pub area: Rect,
    /// Points in the curve (plies + 1).
    pub points: usize,
    /// Columns drawn.
    pub columns: u16,
}

impl Marker {
    /// The glyphs written over a marked bar, one a column from the ply's first (as many
    /// as its columns hold): the history's `??`, `?`, `?!`, and `*` for a turn of luck.
    fn glyphs(self) -> &'static str {
        match self {
            Marker::Blunder => "??",
            Marker::Mistake => "?",
            Marker::Inaccuracy => "?!",
            Marker::Luck => "*",
        }
    }
}

/// The legend in the pane's bottom border, the longest that fits `width` cells.
fn legend(width: usize, ascii: bool) -> Option<String> {
    let half = if ascii { ".5" } else { "½" };
    [
        format!(" 1 White wins, {half} even, 0 Black wins · ? marked, * luck "),
        format!(" 1 White wins {half} even 0 Black wins "),
        format!(" 1 White {half} even 0 Black "),
    ]
    .into_iter()
    .find(|l| l.chars().count() <= width)
}

/// The scale's label on row `r` (from the bottom) of a graph of `rows` rows: 1 at the
/// top, ½ on the even line's row, 0 at the bottom.
fn scale(r: usize, rows: usize, ascii: bool) -> &'static str {
    match r {
        _ if r + 1 == rows => " 1",
        0 => " 0",
        _ if r == rows / 2 => {
            if ascii {
                ".5"
            } else {
                " ½"
            }
        }
        _ => "  ",
    }
}

/// Columns the scale takes on the graph's left.
const SCALE_COLUMNS: u16 = 2;

impl GraphSpot {
    /// The ply of the column at screen column `x`.
    pub fn ply_at(&self, x: u16) -> Option<usize> {
        if x < self.area.x || x >= self.area.x + self.columns {
            return None;
        }
        let c = (x - self.area.x) as usize;
        Some(plies_of(c, self.points, self.columns as usize).1)
    }
}

/// Columns a graph of `points` plies takes in `width` cells: a whole number of
/// columns per ply when they fit (a short game is drawn wide), else every column.
fn columns_for(points: usize, width: usize) -> usize {
    if points == 0 || points > width {
        width
    } else {
        points * (width / points)
    }
}

/// The plies column `c` of `columns` stands for (first, last), `points` plies in all:
/// one ply over several columns, or several plies in one.
fn plies_of(c: usize, points: usize, columns: usize) -> (usize, usize) {
    if points <= columns {
        let ply = c * points / columns;
        return (ply, ply);
    }
    let last = |c: usize| ((c + 1) * points).div_ceil(columns) - 1;
    let first = if c == 0 { 0 } else { last(c - 1) + 1 };
    (first, last(c).min(points - 1))
}

/// Draws the review pane; where the graph went, for the mouse.
pub fn render(f: &mut Frame, area: Rect, paint: &Paint, model: &ReviewModel) -> GraphSpot {
    let mut block = paint
        .block()
        .title(Span::styled(format!(" {} ", model.title), paint.title()));
    let judged = model.curve.iter().any(Option::is_some);
    if let Some(l) = legend(area.width.saturating_sub(2) as usize, paint.ascii).filter(|_| judged) {
        block = block.title_bottom(Span::styled(l, paint.dim()));
    }
    let inner = block.inner(area);
    f.render_widget(block, area);
    if inner.height == 0 || inner.width == 0 {
        return GraphSpot::default();
    }
    if model.progress.is_none() && model.curve.iter().all(Option::is_none) {
        // Nothing judged yet: what a review is, and the key.
        let text = Paragraph::new(model.line.clone())
            .style(paint.fg(paint.theme.text))
            .wrap(Wrap { trim: true });
        f.render_widget(text, inner);
        return GraphSpot::default();
    }
    let graph = Rect::new(
        inner.x + SCALE_COLUMNS,
        inner.y,
        inner.width.saturating_sub(SCALE_COLUMNS),
        inner.height - 1,
    );
    let below = Rect::new(inner.x, inner.bottom() - 1, inner.width, 1);
    match model.progress {
        Some((done, total)) => {
            let ratio = if total == 0 {
                1.0
            } else {
                done as f64 / total as f64
            };
            let gauge = LineGauge::default()
                .filled_style(paint.fg(paint.theme.info))
                .unfilled_style(paint.dim())
                .label(format!("{done}/{total} Esc stops "))
                .ratio(ratio.clamp(0.0, 1.0));
            f.render_widget(gauge, below);
        }
        None => f.render_widget(
            Paragraph::new(Line::styled(model.line.clone(), paint.fg(paint.theme.text))),
            below,
        ),
    }
    let points = model.curve.len();
    if graph.height == 0 || points == 0 || model.curve.iter().all(Option::is_none) {
        return GraphSpot::default();
    }
    let columns = columns_for(points, graph.width as usize);
    let levels: &[char] = if paint.ascii {
        &[' ', '.', '.', ':', ':', '|', '|', '#', '#']
    } else {
        &[' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█']
    };
    let buf = f.buffer_mut();
    let rows = graph.height as usize;
    for r in 0..rows {
        let y = graph.bottom() - 1 - r as u16;
        buf.set_string(inner.x, y, scale(r, rows, paint.ascii), paint.dim());
    }
    for c in 0..columns {
        let (first, last) = plies_of(c, points, columns);
        let value = model.curve[last];
        let marker = (first..=last)
            .filter_map(|p| model.markers.get(p).copied().flatten())
            .max();
        let shown = (first..=last).contains(&model.shown);
        // Which of the marker's glyphs this column writes: its place among its ply's
        // columns (0 where a column holds several plies).
        let nth = (0..c)
            .rev()
            .take_while(|&d| plies_of(d, points, columns).1 >= first)
            .count();
        let glyph = marker.and_then(|m| m.glyphs().chars().nth(nth));
        let style = match marker {
            Some(Marker::Blunder | Marker::Mistake) => paint.fg(paint.theme.error),
            Some(Marker::Inaccuracy) => paint.fg(paint.theme.title),
            Some(Marker::Luck) => paint.fg(paint.theme.info),
            None => paint.fg(paint.theme.text),
        };
        let eighths = value.map_or(0, |v| {
            (v.clamp(0.0, 1.0) * (rows * 8) as f64).round() as usize
        });
        for r in 0..rows {
            let fill = eighths.saturating_sub(r * 8).min(8);
            // A marked bar carries its glyph on the row above its top (the top row
            // when it is full).
            let top = (eighths.div_ceil(8)).min(rows - 1);
            let (ch, st) = if let Some(g) = glyph.filter(|_| r == top && value.is_some()) {
                (g, style.add_modifier(Modifier::BOLD))
            } else if fill == 0 && r == rows / 2 && value.is_some() {
                // The even line, where no bar reaches it.
                (if paint.ascii { '-' } else { '·' }, paint.dim())
            } else if value.is_none() && r == 0 {
                ('?', paint.dim())
            } else {
                (levels[fill], style)
            };
            let st = if shown {
                st.add_modifier(Modifier::REVERSED)
            } else {
                st
            };
            let at = (graph.x + c as u16, graph.bottom() - 1 - r as u16);
            if let Some(cell) = buf.cell_mut(at) {
                cell.set_char(ch).set_style(Style::default().patch(st));
            }
        }
    }
    GraphSpot {
        area: graph,
        points,
        columns: columns as u16,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_stand_for_plies_and_clicks_find_them() {
        // A short game is drawn wide: 3 plies in 34 cells take 11 columns each.
        assert_eq!(columns_for(3, 34), 33);
        assert_eq!(plies_of(0, 3, 33), (0, 0));
        assert_eq!(plies_of(10, 3, 33), (0, 0));
        assert_eq!(plies_of(11, 3, 33), (1, 1));
        assert_eq!(plies_of(32, 3, 33), (2, 2));
        // 81 points in 30 columns: every ply in exactly one column, the last the end.
        let (points, columns) = (81, columns_for(81, 30));
        assert_eq!(columns, 30);
        let mut next = 0;
        for c in 0..columns {
            let (first, last) = plies_of(c, points, columns);
            assert_eq!(first, next, "column {c}");
            assert!(last >= first);
            next = last + 1;
        }
        assert_eq!(next, points);
        let spot = GraphSpot {
            area: Rect::new(10, 2, 30, 3),
            points,
            columns: columns as u16,
        };
        assert_eq!(spot.ply_at(9), None);
        assert_eq!(spot.ply_at(10), Some(plies_of(0, points, columns).1));
        assert_eq!(spot.ply_at(39), Some(80));
        assert_eq!(spot.ply_at(40), None);
    }
}
