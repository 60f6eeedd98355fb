//! Overlays: the help (generated from the key map), the game-over popup, and the
//! "terminal too small" screen.

use super::app::App;
use super::color::Paint;
use super::input::{Action, Binding, KEYMAP, REPLAY_KEYMAP};
use super::layout::MIN_SIZE;
use super::prompts::Asked;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

/// A rectangle of `w` x `h` centred in `area` (shrunk to fit).
fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let (w, h) = (w.min(area.width), h.min(area.height));
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// The help lines: one per entry of the key map in use (the replay one in replay).
pub fn help_lines(replay: bool) -> Vec<(String, String)> {
    let map = if replay { REPLAY_KEYMAP } else { KEYMAP };
    let mut v = map_lines(map);
    if !replay {
        v.push(("q r b n".into(), "promotion piece, when asked".into()));
    }
    v
}

/// One help line per binding of `map`; Ctrl-C is listed with quitting.
pub fn map_lines(map: &[Binding]) -> Vec<(String, String)> {
    map.iter()
        .map(|b| match b.action {
            Action::Quit => (
                format!("{} Ctrl-C", b.label),
                format!("{}; Ctrl-C leaves at once", b.help),
            ),
            _ => (b.label.to_string(), b.help.to_string()),
        })
        .collect()
}

/// Draws the help over the whole screen.
pub fn help(f: &mut Frame, area: Rect, app: &App) {
    help_box(f, area, &app.paint, help_lines(app.replay().is_some()));
}

/// Draws a help box listing `entries` (keys, what they do) and how to read the board.
pub fn help_box(f: &mut Frame, area: Rect, paint: &Paint, entries: Vec<(String, String)>) {
    let key_w = entries
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    let mut lines: Vec<Line> = entries
        .into_iter()
        .map(|(k, h)| {
            Line::from(vec![
                Span::styled(format!(" {k:<key_w$}  "), paint.title()),
                Span::styled(h, paint.fg(paint.theme.text)),
            ])
        })
        .collect();
    if lines.len() as u16 + 4 <= area.height {
        lines.push(Line::styled(
            " Board: a number is the chance (%) the piece is there; none means certain",
            paint.dim(),
        ));
        lines.push(Line::styled(
            " [ ] cursor  < > selected  ( ) legal target",
            paint.dim(),
        ));
    } else {
        // Short terminals: the board legend in one line.
        lines.push(Line::styled(
            " Board: n% chance the piece is there  [ ] cursor  < > selected  ( ) target",
            paint.dim(),
        ));
    }
    let h = lines.len() as u16 + 2;
    let r = centered(area, 78, h);
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .border_style(paint.fg(paint.theme.title))
                .title(Span::styled(" Keys (any key closes) ", paint.title())),
        ),
        r,
    );
}

/// Draws the game-over popup.
pub fn game_over(f: &mut Frame, area: Rect, app: &App) {
    let reason = app.game.end_reason().map_or("", |r| r.describe());
    game_over_box(f, area, &app.paint, &app.result_words(), reason);
}

/// Draws a game-over box with the result (in the players' names) and the reason.
pub fn game_over_box(f: &mut Frame, area: Rect, paint: &Paint, result: &str, reason: &str) {
    let lines = vec![
        Line::styled(
            result.to_string(),
            paint.title().add_modifier(Modifier::BOLD),
        ),
        Line::styled(reason.to_string(), paint.fg(paint.theme.text)),
        Line::raw(""),
        Line::styled(
            "n new game   u take back   Esc look at the board   q quit",
            paint.dim(),
        ),
    ];
    let r = centered(area, 60, 8);
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .centered()
            .block(
                Block::default()
                    .borders(Borders::ALL)
                    .border_style(paint.fg(paint.theme.title))
                    .title(Span::styled(" Game over ", paint.title())),
            ),
        r,
    );
}

/// Draws the "terminal too small" screen.
pub fn too_small(f: &mut Frame, area: Rect) {
    let text = format!(
        "terminal too small: need {}x{}, have {}x{}",
        MIN_SIZE.0, MIN_SIZE.1, area.width, area.height
    );
    let y = area.height / 2;
    let r = Rect::new(area.x, area.y + y, area.width, area.height - y);
    f.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }).centered(), r);
}

/// Draws a yes/no question: its words (wrapped; a long path takes several lines), then
/// the answering keys.
pub fn question_box(f: &mut Frame, area: Rect, paint: &Paint, asked: &Asked) {
    let w = 64.min(area.width.saturating_sub(4)).max(20);
    let inner_w = w.saturating_sub(4) as usize;
    let mut lines: Vec<Line> = asked
        .lines
        .iter()
        .flat_map(|l| super::history::wrap(l, inner_w))
        .map(|l| Line::styled(l, paint.fg(paint.theme.text)))
        .collect();
    lines.push(Line::raw(""));
    lines.push(Line::styled(asked.keys, paint.title()));
    let r = centered(area, w, lines.len() as u16 + 2);
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .padding(ratatui::widgets::Padding::horizontal(1))
                .border_style(paint.fg(paint.theme.title))
                .title(Span::styled(asked.title, paint.title())),
        ),
        r,
    );
}
