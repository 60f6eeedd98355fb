//! The status line (side to move, ply, 50-move counter, branches, backend) and the
//! message area (news, rejected input with the reason, the move being typed, or the
//! busy line of a long move): one to three lines, so nothing a player needs is cut at
//! 80 columns.

use super::input::line_edit::LineEdit;
use super::layers::typed_line::Purpose;
use super::message::{Message, Tone};
use super::text::{clip, flow, flow_after, status_line, words};
use super::work::{busy_line, BUSY_KEYS};
use crate::chess::{Color, Status};
use crate::style::color::Paint;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;
use std::time::Duration;
use unicode_width::UnicodeWidthStr;

/// The most lines the message area takes: three, so that the player's own move and the
/// computer's reply, told together, are both read at 80 columns (a board pane below the
/// board gives up a row for the third only while a message needs it).
pub const MESSAGE_ROWS: usize = 3;

/// The message area's lines at `width`: the busy line while a long move runs, else the
/// typed line (`prompt`: what it is for and the text) followed by the message, or the
/// message alone; flowed at spaces into at most [`MESSAGE_ROWS`] lines, cut after a word
/// with "…" beyond that (messages put what matters first). A `below` line (the
/// computer thinking) takes the last row, cut the same way.
pub fn message_area(
    paint: &Paint,
    message: &Message,
    prompt: Option<(Purpose, &LineEdit)>,
    busy: Option<(&str, Duration)>,
    below: Option<String>,
    width: u16,
) -> Vec<Line<'static>> {
    if let Some((what, elapsed)) = busy {
        return vec![Line::styled(
            busy_line(what, elapsed, BUSY_KEYS, paint.ascii),
            paint.title(),
        )];
    }
    let theme = &paint.theme;
    let text = paint.fg(theme.text);
    let width = width as usize;
    let lines = match prompt {
        Some((purpose, line)) => {
            let style = match message.tone {
                Tone::Error => paint.fg(theme.error),
                Tone::Plain | Tone::Info => paint.dim(),
            };
            let lead = prompt_lead(paint, purpose, line, message, width);
            flow_after(lead, words(&message.text, style), 0, width)
        }
        None => {
            let style = match message.tone {
                Tone::Plain => paint.dim(),
                Tone::Info => paint.fg(theme.info),
                Tone::Error => paint.fg(theme.error).add_modifier(Modifier::BOLD),
            };
            flow(words(&message.text, style), 0, width)
        }
    };
    let rows = MESSAGE_ROWS - usize::from(below.is_some());
    let mut lines = clip(lines, rows, width, text);
    if lines.is_empty() {
        lines.push(Line::default());
    }
    if let Some(b) = below {
        lines.extend(clip(
            flow(words(&b, paint.title()), 0, width),
            1,
            width,
            text,
        ));
    }
    lines
}

/// The status line of a game at `width`: the replay position (`shown` of `plies`), who is
/// to move (or the result) and a `warning` about that side's king, the `facts`, and the
/// key hint. When short, the hint goes first, then the facts from the last; who is to
/// move and the warning always stay.
pub fn game_status(
    paint: &Paint,
    replay: Option<(usize, usize)>,
    (who, warning): (String, Option<String>),
    facts: Vec<String>,
    width: u16,
) -> Line<'static> {
    let text = paint.fg(paint.theme.text);
    let mut parts: Vec<Vec<Span<'static>>> = Vec::new();
    if let Some((shown, plies)) = replay {
        parts.push(vec![Span::styled(
            format!("replay {shown}/{plies}"),
            paint.title(),
        )]);
    }
    parts.push(vec![Span::styled(who, text.add_modifier(Modifier::BOLD))]);
    let mut droppable: Vec<usize> = (0..parts.len() - 1).collect();
    if let Some(w) = warning {
        parts.push(vec![Span::styled(
            w,
            paint.fg(paint.theme.error).add_modifier(Modifier::BOLD),
        )]);
    }
    for fact in facts {
        droppable.push(parts.len());
        parts.push(vec![Span::styled(fact, text)]);
    }
    droppable.push(parts.len());
    parts.push(vec![Span::styled("? help  q quit", paint.dim())]);
    status_line(parts, &droppable, paint.sep(), width as usize)
}

/// Who is to move, or how the game ended (`result`: in the players' names).
pub fn who(status: Status, to_move: Color, result: &str) -> String {
    match status {
        Status::Ongoing => format!("{} to move", to_move.name()),
        _ => format!("game over: {result}"),
    }
}

/// What the status line shows.
pub struct StatusModel {
    /// In replay: the shown ply, of how many.
    pub replay: Option<(usize, usize)>,
    /// Who is to move, or how the game ended.
    pub who: String,
    /// The side to move's king can be captured next move: "king attacked: 50% by e7xe1".
    pub warning: Option<String>,
    /// Facts about the game (ply, ...).
    pub facts: Vec<String>,
}

/// Draws the status line into `status` and the message area's `lines` into `message`.
pub fn render(
    f: &mut Frame,
    (status, message): (Rect, Rect),
    paint: &Paint,
    model: StatusModel,
    lines: Vec<Line>,
) {
    let line = game_status(
        paint,
        model.replay,
        (model.who, model.warning),
        model.facts,
        status.width,
    );
    f.render_widget(Paragraph::new(line), status);
    f.render_widget(Paragraph::new(lines), message);
}

/// The start of the message area while a line is typed: the label, then the text
/// scrolled around its cursor, then room before the message (a hint, or why the text
/// was refused), which flows on after it. The text gets the room it needs on the first
/// line; a refusal keeps at least half of that line.
fn prompt_lead(
    paint: &Paint,
    purpose: Purpose,
    line: &LineEdit,
    said: &Message,
    width: usize,
) -> Vec<Span<'static>> {
    let label = purpose.label();
    let room = width.saturating_sub(label.width());
    let need = line.text().width() + 1;
    let said_w = said.text.width() + 3;
    let window = match said.tone {
        Tone::Error => need.min(room.saturating_sub(said_w).max(room / 2)),
        Tone::Plain | Tone::Info => need.min(room),
    };
    let mut spans = vec![Span::styled(label, paint.title())];
    spans.extend(line.spans(window, paint.fg(paint.theme.text)));
    spans.push(Span::raw("  "));
    spans
}
