//! Lessons on the game screen: the lesson's position on the board, its text over it,
//! the task checked after every try (a wrong move is taken back with the reason), the
//! next lesson, and the list of lessons with the ones finished.

use super::app::{App, Mode};
use super::input::Action;
use super::message::Tone;
use super::popup;
use crate::chess::Square;
use crate::format::wrap;
use crate::learn::{Goal, Lesson, Progress, Verdict, LESSONS};
use crate::style::color::Paint;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;
use std::path::PathBuf;

/// A task met by a key rather than a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Met {
    /// The explanation of a move was opened.
    Explained,
    /// The inspector was opened on this square.
    Inspected(Square),
    /// A hint is shown.
    Hinted,
}

/// The lesson on screen and the player's progress.
#[derive(Debug)]
pub struct Run {
    /// The lesson's number, from 1.
    pub number: usize,
    /// Its task is done.
    pub done: bool,
    /// The lessons finished, and the last opened.
    pub progress: Progress,
    /// Where the progress is kept (`None`: not kept, as for a guest over SSH).
    pub store: Option<PathBuf>,
    /// The lesson list, while it is open: the highlighted entry (from 0).
    pub list: Option<usize>,
    /// The text's first line shown (PgUp/PgDn, where the text does not fit).
    pub scroll: u16,
    /// The text's lines the last drawing could not show.
    pub(super) hidden: u16,
    /// Once the task is met by a move: what that move did, in a line.
    pub told: Option<String>,
    /// The outcomes of the lesson's measurements are drawn from this seed on.
    seed: u64,
}

impl Run {
    /// The lesson on screen.
    pub fn lesson(&self) -> &'static Lesson {
        &LESSONS[self.number - 1]
    }
}

impl App {
    /// A screen on lesson `number` (from 1; the one to resume when `None`), with the
    /// player's `progress` kept in `store`, drawing outcomes from `seed`.
    pub fn learning(
        number: Option<usize>,
        progress: Progress,
        store: Option<PathBuf>,
        seed: u64,
        (paint, ascii): (Paint, bool),
    ) -> App {
        let number = number
            .filter(|n| (1..=LESSONS.len()).contains(n))
            .unwrap_or_else(|| progress.resume(LESSONS.len()));
        let mut app = App::new(LESSONS[number - 1].game(seed), paint, ascii);
        app.lesson = Some(Run {
            number,
            done: false,
            progress,
            store,
            list: None,
            scroll: 0,
            hidden: 0,
            told: None,
            seed,
        });
        app.open_lesson(number);
        app
    }

    /// The lesson run, while this screen teaches.
    pub fn lesson_run(&self) -> Option<&Run> {
        self.lesson.as_ref()
    }

    /// Sets up lesson `number` on the board and says its task.
    fn open_lesson(&mut self, number: usize) {
        let Some(run) = &mut self.lesson else {
            return;
        };
        run.number = number;
        run.done = false;
        run.told = None;
        run.list = None;
        run.scroll = 0;
        run.seed = run.seed.wrapping_add(1);
        run.progress.last = Some(number);
        let game = run.lesson().game(run.seed);
        let task = run.lesson().task;
        // The cursor starts on the first square the task names (the piece to move).
        if let Some(sq) = task
            .split(|c: char| !c.is_ascii_alphanumeric())
            .find_map(Square::parse)
        {
            self.cursor = sq;
        }
        self.game = game.into();
        self.mode = Mode::Idle;
        self.inspector = None;
        self.selected_move = None;
        self.explaining = false;
        self.computer.forget();
        self.after_change();
        self.keep_progress();
        self.say(Tone::Info, format!("lesson {number}: {task}"));
    }

    /// Saves the progress, saying so when it cannot be.
    fn keep_progress(&mut self) {
        let Some(run) = &self.lesson else {
            return;
        };
        if let Some(dir) = &run.store {
            if let Err(e) = run.progress.save(dir) {
                self.say(Tone::Error, e.to_string());
            }
        }
    }

    /// A lesson's own keys, and the lesson list's; true when the action was one of them.
    pub(super) fn lesson_action(&mut self, action: Action) -> bool {
        let Some(run) = &mut self.lesson else {
            return false;
        };
        if let Some(at) = run.list {
            match action {
                Action::Cursor(_, dy) => run.list = Some(list_step(at, dy, LESSONS.len())),
                Action::Select => self.open_lesson(at + 1),
                Action::Quit => self.quit = true,
                _ => run.list = None,
            }
            return true;
        }
        match action {
            Action::NextLesson if run.number < LESSONS.len() => {
                let next = run.number + 1;
                self.open_lesson(next);
            }
            Action::NextLesson => self.say(
                Tone::Info,
                "that was the last lesson: qchess play for a game, qchess play --engine black against the computer",
            ),
            Action::RestartLesson => {
                let n = run.number;
                self.open_lesson(n);
            }
            Action::LessonList => run.list = Some(run.number - 1),
            // Where the text does not fit, PgUp/PgDn scroll it rather than the circuit.
            a => return scroll_text(&mut run.scroll, run.hidden, a),
        }
        true
    }

    /// Judges the move just played against a move task: done, or taken back with why.
    pub(super) fn judge_lesson_move(&mut self) {
        let Some(run) = &self.lesson else {
            return;
        };
        let (Goal::Move(check), false) = (run.lesson().goal, run.done) else {
            return;
        };
        let Some(g) = self.game.quantum() else {
            return;
        };
        let Some(last) = g.history().last() else {
            return;
        };
        let told = super::steps::ply_words(self.game.history().last().expect("a move"));
        match check(g, last) {
            Verdict::Done(words) => {
                if let Some(run) = &mut self.lesson {
                    run.told = Some(told);
                }
                self.lesson_done(&words);
            }
            Verdict::Retry(why) => {
                // The lesson's position is small: the take-back is immediate.
                let _ = self.game.undo();
                self.after_change();
                self.say(
                    Tone::Error,
                    format!("not yet: {why}. The move was taken back; try again."),
                );
            }
        }
    }

    /// Marks a task met by a key (explanation, inspector, hint) when it is this lesson's.
    pub(super) fn lesson_key_goal(&mut self, met: Met) {
        let Some(run) = &self.lesson else {
            return;
        };
        let words = match (run.lesson().goal, met) {
            (Goal::Explain, Met::Explained) => {
                "that is the whole story of a move. Any key closes it; [ ] pick another move."
                    .into()
            }
            (Goal::Inspect(want), Met::Inspected(at)) if Square::parse(want) == Some(at) => {
                // Said from the map on screen, so that the words and the heat agree.
                let warm: Vec<String> = self
                    .inspector
                    .as_ref()
                    .map(|i| i.warm().iter().map(Square::to_string).collect())
                    .unwrap_or_default();
                match warm.as_slice() {
                    [] => format!("nothing is tied to {at} here."),
                    w => format!("the warm squares are tied to {at}: {}.", w.join(", ")),
                }
            }
            // The hint itself stays in the Done line: it is what the player asked for.
            (Goal::Hint, Met::Hinted) => format!(
                "{}; it is marked * * on the board, Esc hides it.",
                self.message().text
            ),
            _ => return,
        };
        if !run.done {
            self.lesson_done(&words);
        }
    }

    /// Records the lesson as done and says so, with what comes next.
    fn lesson_done(&mut self, words: &str) {
        let Some(run) = &mut self.lesson else {
            return;
        };
        run.done = true;
        run.progress.done.insert(run.number);
        let next = if run.number < LESSONS.len() {
            "n: next lesson"
        } else {
            "that was the last lesson"
        };
        let said = format!("Done: {words} ({next})");
        self.keep_progress();
        self.say(Tone::Info, said);
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
    let mark = if run.done { " (done)" } else { "" };
    pane(
        f,
        area,
        paint,
        &Pane {
            title: format!(
                " Lesson {}/{}: {}{mark} ",
                run.number,
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
/// below, `scroll` the first shown); true when the keys were used for it, rather than
/// for the circuit.
pub(super) fn scroll_text(scroll: &mut u16, hidden: u16, action: Action) -> bool {
    match action {
        Action::CircuitDown if hidden > 0 || *scroll > 0 => *scroll += hidden.min(2),
        Action::CircuitUp if *scroll > 0 => *scroll = scroll.saturating_sub(2),
        _ => return false,
    }
    true
}

/// The entry of a list of `n` highlighted after an arrow key (`dy` 1 is up) from `at`.
pub(super) fn list_step(at: usize, dy: i8, n: usize) -> usize {
    (at as i64 - dy as i64).clamp(0, n as i64 - 1) as usize
}

/// One entry of a list (lessons, puzzles) in `text`'s style, reversed when it is the
/// `highlighted` one.
pub(super) fn list_line(text: Style, highlighted: bool, entry: String) -> Line<'static> {
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
            let tick = if run.progress.done.contains(&(i + 1)) {
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
