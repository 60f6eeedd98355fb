//! Overlays: the help (generated from the key map), the game-over popup, and the
//! "terminal too small" screen.

use super::app::App;
use super::input::KEYMAP;
use super::layout::MIN_SIZE;
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

/// The help lines: one per key-map entry.
pub fn help_lines() -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = KEYMAP
        .iter()
        .map(|b| (b.label.to_string(), b.help.to_string()))
        .collect();
    v.push(("q r b n".into(), "promotion piece, when asked".into()));
    v.push(("Ctrl-C".into(), "quit from anywhere".into()));
    v
}

/// Draws the help over the whole screen.
pub fn help(f: &mut Frame, area: Rect, app: &App) {
    let paint = &app.paint;
    let entries = help_lines();
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
    let paint = &app.paint;
    let g = &app.game;
    let reason = g.end_reason().map_or("", |r| r.describe());
    let lines = vec![
        Line::styled(
            g.status().describe().to_uppercase(),
            paint.title().add_modifier(Modifier::BOLD),
        ),
        Line::styled(reason, paint.fg(paint.theme.text)),
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
