//! Lessons on the game screen: the lesson's position on the board, its text over it,
//! the task's try told what happened (a wrong move is taken back with the reason its
//! [`crate::learn::Attempt`] gives), the next lesson, and the list of lessons with the
//! ones finished.

use super::App;
use crate::chess::Square;
use crate::learn::{Judged, Met, Progress, LESSONS};
use crate::style::color::Paint;
use crate::ui::layers::lesson::Run;
use crate::ui::message::Tone;
use std::path::PathBuf;

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
            .unwrap_or_else(|| progress.resume());
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
        let (Some(run), Some(g)) = (&mut self.lesson, self.game.quantum()) else {
            return;
        };
        match run.attempt.judge(g) {
            Some(Judged::Done(said)) => {
                run.told = self.game.history().last().map(super::steps::ply_words);
                self.lesson_done(said);
            }
            Some(Judged::TakeBack(said)) => {
                // The lesson's position is small: the take-back is immediate.
                let _ = self.game.undo();
                self.after_change();
                self.say(Tone::Error, said);
            }
            None => {}
        }
    }

    /// Marks a task met by a key (explanation, inspector, hint) when it is this lesson's.
    pub(in crate::ui) fn lesson_key_goal(&mut self, met: Met) {
        if let Some(said) = self.lesson.as_mut().and_then(|run| run.attempt.met(met)) {
            self.lesson_done(said);
        }
    }

    /// Counts the lesson as finished and says so, with what comes next.
    fn lesson_done(&mut self, said: String) {
        if let Some(run) = &mut self.lesson {
            run.finished();
        }
        self.keep_progress();
        self.say(Tone::Info, said);
    }
}
