//! A lesson on the game screen: the lesson shown and the player's progress, its pane
//! over the board, and the list of lessons with the ones finished (the list and the
//! scrolled text are shared with the puzzles).

use super::{Outcome, Request};
use crate::chess::Game;
use crate::format::wrap;
use crate::learn::{Attempt, Lesson, Progress, LESSONS};
use crate::style::color::Paint;
use crate::ui::input::Action;
use crate::ui::message::Tone;
use crate::ui::popup;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;
use std::path::PathBuf;

/// The lesson on screen and the player's progress.
#[derive(Debug)]
pub struct Run {
    /// The try at the lesson's task: the lesson, and whether its task is done.
    pub attempt: Attempt,
    /// The lessons finished, and the last opened.
    pub progress: Progress,
    /// Where the progress is kept (`None`: not kept, as for a guest over SSH).
    pub store: Option<PathBuf>,
    /// The lesson list, while it is open: the highlighted entry (from 0).
    pub list: Option<usize>,
    /// The text's first line shown (PgUp/PgDn, where the text does not fit).
    pub scroll: u16,
    /// The text's lines the last drawing could not show.
    pub(in crate::ui) hidden: u16,
    /// Once the task is met by a move: what that move did, in a line.
    pub told: Option<String>,
    /// The outcomes of the lesson's measurements are drawn from this seed on.
    seed: u64,
}

impl Run {
    /// A run at lesson `number` (from 1), with the player's `progress` kept in `store`
    /// (`None`: not kept), drawing outcomes from `seed` on.
    pub fn new(number: usize, progress: Progress, store: Option<PathBuf>, seed: u64) -> Run {
        Run {
            attempt: Attempt::new(number),
            progress,
            store,
            list: None,
            scroll: 0,
            hidden: 0,
            told: None,
            seed,
        }
    }

    /// The lesson on screen.
    pub fn lesson(&self) -> &'static Lesson {
        self.attempt.lesson()
    }

    /// The lesson's number, from 1.
    pub fn number(&self) -> usize {
        self.attempt.number()
    }

    /// Whether its task is done.
    pub fn done(&self) -> bool {
        self.attempt.done()
    }

    /// Starts lesson `number` afresh: its position, with new outcomes.
    pub fn open(&mut self, number: usize) -> Game {
        self.attempt = Attempt::new(number);
        self.told = None;
        self.list = None;
        self.scroll = 0;
        self.seed = self.seed.wrapping_add(1);
        self.progress.open(self.number());
        self.lesson().game(self.seed)
    }

    /// A lesson's own keys, and the lesson list's.
    pub fn handle(&mut self, action: Action) -> Outcome {
        if let Some(at) = self.list {
            match action {
                Action::Cursor(_, dy) => self.list = Some(list_step(at, dy, LESSONS.len())),
                Action::Select => return Outcome::Ask(Request::OpenLesson(at + 1)),
                Action::Quit => return Outcome::Ask(Request::Quit),
                _ => self.list = None,
            }
            return Outcome::Consumed;
        }
        let number = self.number();
        match action {
            Action::NextLesson if number < LESSONS.len() => {
                Outcome::Ask(Request::OpenLesson(number + 1))
            }
            Action::NextLesson => Outcome::Ask(Request::Say(
                Tone::Info,
                "that was the last lesson: qchess play for a game, qchess play --engine black against the computer".into(),
            )),
            Action::RestartLesson => Outcome::Ask(Request::OpenLesson(number)),
            Action::LessonList => {
                self.list = Some(number - 1);
                Outcome::Consumed
            }
            // Where the text does not fit, PgUp/PgDn scroll it rather than the circuit.
            a => scrolled(&mut self.scroll, self.hidden, a),
        }
    }

    /// Counts the lesson as finished in the player's progress (once its task is done).
    pub fn finished(&mut self) {
        if self.done() {
            self.progress.finish(self.number());
        }
    }

    /// Saves the progress; why it could not be, when it could not.
    pub fn keep(&self) -> Option<String> {
        let dir = self.store.as_ref()?;
        self.progress.save(dir).err().map(|e| e.to_string())
    }
}

/// What a guide's pane (a lesson's, a puzzle's) shows.
pub struct Pane<'a> {
    /// The border's title.
    pub title: String,
    /// The text, wrapped to the pane.
    pub text: &'a str,
    /// The task, always shown.
    pub task: String,
    /// What the last move did or came to, once there is something to say.
    pub told: Option<&'a str>,
    /// The text's first line shown where it does not fit.
    pub scroll: u16,
    /// The keys on the bottom border.
    pub keys: &'static str,
}

/// Draws the lesson's pane: its number and title on the border, then [`pane`].
pub fn render(f: &mut Frame, area: Rect, paint: &Paint, run: &Run) -> u16 {
    let lesson = run.lesson();
    let mark = if run.done() { " (done)" } else { "" };
    pane(
        f,
        area,
        paint,
        &Pane {
            title: format!(
                " Lesson {}/{}: {}{mark} ",
                run.number(),
                LESSONS.len(),
                lesson.title
            ),
            text: lesson.text,
            task: format!("Task: {}", lesson.task),
            told: run.told.as_deref(),
            scroll: run.scroll,
            keys: " n next  r again  L lessons ",
        },
    )
}

/// Draws a guide's pane: the text and the task under it, or the task first where the
/// text does not fit (PgUp/PgDn then scroll the text), and what the last move did last.
/// Returns the text's lines left out.
pub fn pane(f: &mut Frame, area: Rect, paint: &Paint, p: &Pane) -> u16 {
    let w = area.width.saturating_sub(3).max(8) as usize;
    let text: Vec<String> = wrap(p.text, w);
    let task = wrap(&p.task, w);
    let said = p.told.map(|t| wrap(t, w)).unwrap_or_default();
    let rows = area.height.saturating_sub(2) as usize;
    let fits = text.len() + task.len() + said.len() <= rows;
    let room = rows.saturating_sub(task.len() + said.len());
    let hidden = if fits {
        0
    } else {
        text.len().saturating_sub(room)
    };
    let first = (p.scroll as usize).min(hidden);
    let keys = if fits {
        p.keys
    } else {
        " PgUp PgDn more  n next "
    };
    let block = paint
        .block()
        .title(Span::styled(p.title.clone(), paint.title()))
        .title_bottom(Span::styled(keys, paint.dim()));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let plain = paint.fg(paint.theme.text);
    let bold = paint.title().add_modifier(Modifier::BOLD);
    let info = paint.fg(paint.theme.info);
    let line = |l: &String, style| Line::styled(format!(" {l}"), style);
    let mut lines: Vec<Line> = Vec::new();
    if fits {
        lines.extend(text.iter().map(|l| line(l, plain)));
        if lines.len() + task.len() + said.len() < rows {
            lines.push(Line::default());
        }
        lines.extend(task.iter().map(|l| line(l, bold)));
    } else {
        lines.extend(task.iter().map(|l| line(l, bold)));
        lines.extend(text.iter().skip(first).take(room).map(|l| line(l, plain)));
    }
    lines.extend(said.iter().map(|l| line(l, info)));
    f.render_widget(Paragraph::new(lines), inner);
    (hidden - first) as u16
}

/// PgUp/PgDn (`action`) on a guide's text that does not fit (`hidden` lines left out
/// below, `scroll` the first shown): consumed when the keys were used for it, else
/// passed on (to the circuit).
pub fn scrolled(scroll: &mut u16, hidden: u16, action: Action) -> Outcome {
    match action {
        Action::CircuitDown if hidden > 0 || *scroll > 0 => *scroll += hidden.min(2),
        Action::CircuitUp if *scroll > 0 => *scroll = scroll.saturating_sub(2),
        _ => return Outcome::Pass,
    }
    Outcome::Consumed
}

/// The entry of a list of `n` highlighted after an arrow key (`dy` 1 is up) from `at`.
pub fn list_step(at: usize, dy: i8, n: usize) -> usize {
    (at as i64 - dy as i64).clamp(0, n as i64 - 1) as usize
}

/// One entry of a list (lessons, puzzles) in `text`'s style, reversed when it is the
/// `highlighted` one.
pub(in crate::ui) fn list_line(text: Style, highlighted: bool, entry: String) -> Line<'static> {
    let style = if highlighted {
        text.add_modifier(Modifier::REVERSED)
    } else {
        text
    };
    Line::styled(entry, style)
}

/// Draws the list of lessons over `area`, the highlighted one reversed, the finished
/// ones ticked.
pub fn render_list(f: &mut Frame, area: Rect, paint: &Paint, run: &Run, at: usize) {
    let text = paint.fg(paint.theme.text);
    let lines: Vec<Line> = LESSONS
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let tick = if run.progress.is_done(i + 1) {
                "done"
            } else {
                "    "
            };
            list_line(text, i == at, format!(" {:>2}. {tick}  {}", i + 1, l.title))
        })
        .collect();
    let title = " Lessons: ↑ ↓ Enter opens, Esc closes ".to_string();
    popup::titled_box(f, area, paint, 60, title, lines);
}
