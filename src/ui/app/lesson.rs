//! Lessons on the game screen: the lesson's position on the board, its text over it,
//! the task checked after every try (a wrong move is taken back with the reason), the
//! next lesson, and the list of lessons with the ones finished.

use super::App;
use crate::chess::Square;
use crate::learn::{Goal, Progress, Verdict, LESSONS};
use crate::style::color::Paint;
use crate::ui::layers::lesson::Run;
use crate::ui::message::Tone;
use std::path::PathBuf;

/// A task met by a key rather than a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::ui) enum Met {
    /// The explanation of a move was opened.
    Explained,
    /// The inspector was opened on this square.
    Inspected(Square),
    /// A hint is shown.
    Hinted,
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
        app.lesson = Some(Run::new(number, progress, store, seed));
        app.open_lesson(number);
        app
    }

    /// The lesson run, while this screen teaches.
    pub fn lesson_run(&self) -> Option<&Run> {
        self.lesson.as_ref()
    }

    /// Sets up lesson `number` on the board and says its task.
    pub(super) fn open_lesson(&mut self, number: usize) {
        let Some(run) = &mut self.lesson else {
            return;
        };
        let game = run.open(number);
        let task = run.lesson().task;
        // The cursor starts on the first square the task names (the piece to move).
        if let Some(sq) = task
            .split(|c: char| !c.is_ascii_alphanumeric())
            .find_map(Square::parse)
        {
            self.cursor = sq;
        }
        self.set_position(game);
        self.keep_progress();
        self.say(Tone::Info, format!("lesson {number}: {task}"));
    }

    /// Saves the progress, saying so when it cannot be.
    fn keep_progress(&mut self) {
        if let Some(why) = self.lesson.as_ref().and_then(Run::keep) {
            self.say(Tone::Error, why);
        }
    }

    /// Judges the move just played against a move task: done, or taken back with why.
    pub(in crate::ui) fn judge_lesson_move(&mut self) {
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
    pub(in crate::ui) fn lesson_key_goal(&mut self, met: Met) {
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
        let said = run.finish(words);
        self.keep_progress();
        self.say(Tone::Info, said);
    }
}
