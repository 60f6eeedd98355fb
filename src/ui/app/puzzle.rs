//! Puzzles on the game screen: the puzzle's position, its goal over the board, the
//! player's moves judged exactly against the optimum, the proof's best defence as the
//! reply, the best line on request, and the player's record.

use super::App;
use crate::learn::solved::Solved;
use crate::puzzles::{Puzzle, TryStep};
use crate::style::color::Paint;
use crate::ui::layers::puzzle::{position, Solving};
use crate::ui::message::Tone;
use std::path::PathBuf;

impl App {
    /// A screen on the puzzles of `puzzles` (`first`, or the unsolved one nearest the
    /// player's rating), with the player's `record` kept in `store`; `None` when the
    /// pack is empty.
    pub fn solving(
        puzzles: Vec<Puzzle>,
        first: Option<usize>,
        record: Solved,
        store: Option<PathBuf>,
        seed: u64,
        (paint, ascii): (Paint, bool),
    ) -> Option<App> {
        let at = first
            .filter(|i| *i < puzzles.len())
            .or_else(|| {
                crate::puzzles::next(
                    &puzzles,
                    record.rating,
                    |_| true,
                    |id| record.is_solved(id),
                    None,
                )
            })
            .unwrap_or(0);
        let game = position(puzzles.get(at)?, seed)?;
        let mut app = App::new(game.clone(), paint, ascii);
        app.puzzle = Some(Solving::new(puzzles, at, game, (record, store), seed));
        app.open_puzzle(at);
        Some(app)
    }

    /// The puzzle run, while this screen sets puzzles.
    pub fn puzzle_run(&self) -> Option<&Solving> {
        self.puzzle.as_ref()
    }

    /// Sets up puzzle `at` (index into the pack) and says its task.
    pub(super) fn open_puzzle(&mut self, at: usize) {
        let Some(run) = &mut self.puzzle else {
            return;
        };
        let Some(game) = run.open(at) else {
            return self.say(Tone::Error, "this puzzle's position cannot be set up");
        };
        let task = run.puzzle().task().describe();
        let side = game.to_move().name();
        // The solver sees the board from its side.
        self.flipped = game.to_move() == crate::chess::Color::Black;
        self.set_position(game);
        self.say(Tone::Info, format!("{side} to move: {task}"));
    }

    /// After the player's move: its try judges it exactly from the position before it,
    /// and the proof's best defence answers it until the puzzle's horizon.
    pub(in crate::ui) fn judge_puzzle_move(&mut self) {
        let Some(after) = self.game.quantum() else {
            return;
        };
        let Some(last) = self.game.history().last() else {
            return;
        };
        let mut said = super::steps::ply_words(last);
        let Some(run) = self.puzzle.as_mut().filter(|r| !r.over()) else {
            return;
        };
        let reply = match run.attempt.judge(after) {
            Ok(reply) => reply,
            Err(e) => return self.say(Tone::Error, e.to_string()),
        };
        if let Some(reply) = reply {
            match self.game.play(&reply) {
                Ok(rec) => said = format!("{said}. Reply: {}", super::steps::ply_words(&rec)),
                Err(e) => return self.say(Tone::Error, format!("the reply failed: {e}")),
            }
            self.after_change();
        }
        let (Some(run), Some(now)) = (&mut self.puzzle, self.game.quantum()) else {
            return;
        };
        match run.attempt.verdict(now) {
            TryStep::GoesOn(words) => self.say(Tone::Info, format!("{said}.{words} Your move")),
            TryStep::Over(ending) => {
                let unkept = run.close(&ending);
                self.say(Tone::Info, said);
                if let Some(why) = unkept {
                    self.say(Tone::Error, why);
                }
            }
        }
    }
}
