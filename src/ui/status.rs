//! The status line (side to move, ply, 50-move counter, branches, backend) and the
//! message line (news, rejected input with the reason, or the move being typed).

use super::app::{App, Message, Mode, Tone};
use super::color::Paint;
use super::line_edit::LineEdit;
use super::prompts::Purpose;
use super::work::busy_line;
use crate::chess::Status;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;
use unicode_width::UnicodeWidthStr;

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
        _ => format!("game over: {}", app.result_words()),
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
        (Mode::Prompt { line, purpose }, None) => {
            prompt_line(paint, *purpose, line, &app.message, message.width as usize)
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

/// The message line while a line is typed: the label, the text scrolled around its
/// cursor, then the message (a hint, or why the text was refused). The text gets the
/// room it needs; a refusal keeps at least half the line.
pub fn prompt_line(
    paint: &Paint,
    purpose: Purpose,
    line: &LineEdit,
    said: &Message,
    width: usize,
) -> Line<'static> {
    let label = purpose.label();
    let room = width.saturating_sub(label.width());
    let need = line.text().width() + 1;
    let said_w = said.text.width() + 3;
    let window = match said.tone {
        Tone::Error => need.min(room.saturating_sub(said_w).max(room / 2)),
        Tone::Plain | Tone::Info => need.min(room),
    };
    let style = match said.tone {
        Tone::Error => paint.fg(paint.theme.error),
        Tone::Plain | Tone::Info => paint.dim(),
    };
    let mut spans = vec![Span::styled(label, paint.title())];
    spans.extend(line.spans(window, paint.fg(paint.theme.text)));
    spans.push(Span::styled(format!("   {}", said.text), style));
    Line::from(spans)
}
