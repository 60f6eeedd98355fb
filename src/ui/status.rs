//! The status line (side to move, ply, 50-move counter, branches, backend) and the
//! message line (news, rejected input with the reason, or the move being typed).

use super::app::{App, Mode, Tone};
use super::work::busy_line;
use crate::chess::Status;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

/// Draws the status line into `status` and the message line into `message`.
pub fn render(f: &mut Frame, status: Rect, message: Rect, app: &App) {
    let paint = &app.paint;
    let theme = &paint.theme;
    let g = &app.game;
    let text = paint.fg(theme.text);
    let dim = paint.dim();
    let sep = Span::styled(" │ ", dim);
    let who = match g.status() {
        Status::Ongoing => format!("{} to move", g.to_move().name()),
        s => format!("game over: {}", s.describe()),
    };
    let mut spans = Vec::new();
    if let Some(r) = app.replay() {
        spans.push(Span::styled(
            format!("replay {}/{}", r.ply, r.full.history().len()),
            paint.title(),
        ));
        spans.push(sep.clone());
    }
    spans.extend([
        Span::styled(who, text.add_modifier(Modifier::BOLD)),
        sep.clone(),
        Span::styled(format!("ply {}", g.ply()), text),
        sep.clone(),
        Span::styled(format!("50-move {}/100", g.fifty_counter()), text),
        sep.clone(),
        Span::styled(format!("branches {}", app.view.branches), text),
        sep.clone(),
        Span::styled(g.options().backend.name(), text),
    ]);
    // In replay the counter takes the room of the key hint (the message line has the keys).
    if app.replay().is_none() {
        spans.extend([sep, Span::styled("? help  q quit", dim)]);
    }
    f.render_widget(Paragraph::new(Line::from(spans)), status);

    let line = match (&app.mode, app.busy()) {
        (_, Some((what, elapsed))) => {
            Line::styled(busy_line(what, elapsed, app.ascii), paint.title())
        }
        (
            Mode::Prompt {
                text: typed,
                purpose,
            },
            None,
        ) => {
            let mut spans = vec![
                Span::styled(purpose.label(), paint.title()),
                Span::styled(typed.clone(), text),
                Span::styled("_", text.add_modifier(Modifier::SLOW_BLINK)),
            ];
            let style = match app.message.tone {
                Tone::Error => paint.fg(theme.error),
                Tone::Plain | Tone::Info => dim,
            };
            spans.push(Span::styled(format!("   {}", app.message.text), style));
            Line::from(spans)
        }
        (_, None) => {
            let style = match app.message.tone {
                Tone::Plain => dim,
                Tone::Info => paint.fg(theme.info),
                Tone::Error => paint.fg(theme.error).add_modifier(Modifier::BOLD),
            };
            Line::styled(app.message.text.clone(), style)
        }
    };
    f.render_widget(Paragraph::new(line), message);
}
