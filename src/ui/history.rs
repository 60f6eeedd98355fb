//! The history pane: numbered moves in canonical notation, measured moves with their
//! outcome in words; the shown move is highlighted and kept in view.

use super::app::App;
use super::layout::hint_fits;
use super::mouse::HistorySpot;
use crate::chess::{Color, Game};
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

/// Draws the history pane; says which move each row shows, for the mouse.
pub fn render(f: &mut Frame, area: Rect, app: &App, game: &Game) -> HistorySpot {
    let paint = &app.paint;
    let block = paint
        .block()
        .title(Span::styled(" History ", paint.title()))
        .title_bottom(Span::styled(
            hint_fits(
                if app.replay().is_some() {
                    " ← → step, g go to ply "
                } else {
                    " [ ] pick a move "
                },
                area.width,
            ),
            paint.dim(),
        ));
    let inner = block.inner(area);
    f.render_widget(block, area);

    let text = paint.fg(paint.theme.text);
    let info = paint.fg(paint.theme.info);
    let shown = app.shown_move();
    let start = game.start();
    // In replay, the plies after the shown one are drawn dim.
    let future = app.replay().map_or(usize::MAX, |r| r.ply);
    // Full-move number of the first ply, and whether black made it.
    let first_black = start.to_move == Color::Black;
    let mut lines: Vec<Line> = Vec::new();
    // The move of each line.
    let mut owners: Vec<Option<usize>> = Vec::new();
    let mut shown_line = 0;
    let width = inner.width as usize;
    for (i, m) in game.history().iter().enumerate() {
        let ply = i + first_black as usize;
        let number = start.fullmove as usize + ply / 2;
        let dots = if m.color == Color::White { "." } else { "..." };
        let mut style = if i >= future { paint.dim() } else { text };
        if Some(i) == shown {
            style = style.add_modifier(Modifier::REVERSED);
            shown_line = lines.len();
        }
        lines.push(Line::from(Span::styled(
            format!("{number}{dots} {}", m.played),
            style,
        )));
        if let Some(s) = m.summary.as_deref().filter(|s| !s.is_empty()) {
            for chunk in wrap(s, width.saturating_sub(3)) {
                lines.push(Line::from(vec![
                    Span::raw("   "),
                    Span::styled(chunk, info),
                ]));
            }
        }
        owners.resize(lines.len(), Some(i));
    }
    if lines.is_empty() {
        lines.push(Line::styled("no moves yet", paint.dim()));
    }
    let h = inner.height as usize;
    // Keep the shown move (and its outcome lines) in view.
    let mut end = shown_line + 1;
    while end < lines.len() && lines[end].spans.first().is_some_and(|s| s.content == "   ") {
        end += 1;
    }
    let offset = end.saturating_sub(h);
    f.render_widget(Paragraph::new(lines).scroll((offset as u16, 0)), inner);
    HistorySpot {
        area: inner,
        rows: owners.into_iter().skip(offset).take(h).collect(),
    }
}

/// Splits `s` at spaces into lines of at most `width` characters (longer words are cut).
pub fn wrap(s: &str, width: usize) -> Vec<String> {
    let width = width.max(8);
    let mut out = Vec::new();
    let mut cur = String::new();
    for word in s.split(' ') {
        let need = cur.chars().count() + word.chars().count() + usize::from(!cur.is_empty());
        if need > width && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
        while cur.chars().count() > width {
            let head: String = cur.chars().take(width).collect();
            cur = cur.chars().skip(width).collect();
            out.push(head);
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn wraps_at_spaces() {
        assert_eq!(
            wrap("excluded: c3 was occupied, the move stopped", 20),
            vec!["excluded: c3 was", "occupied, the move", "stopped"]
        );
        assert_eq!(wrap("abcdefghijkl", 8), vec!["abcdefgh", "ijkl"]);
    }
}
