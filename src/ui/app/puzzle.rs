//! Puzzles on the game screen: the puzzle's position, its goal over the board, the
//! player's moves judged exactly against the optimum, the proof's best defence as the
//! reply, the best line on request, and the player's record.

use super::{view_of, App, Judged, Led};
use crate::learn::solved::Solved;
use crate::puzzles::{Puzzle, TryStep};
use crate::style::color::Paint;
use crate::ui::layers::puzzle::{position, Solving};
use crate::ui::message::Tone;
use crate::ui::work::Job;
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
    /// and the proof's best defence answers it until the puzzle's horizon; here or on a
    /// worker thread (a search of a deep puzzle takes seconds), as moves are.
    pub(in crate::ui) fn judge_puzzle_move(&mut self) {
        let (Some(run), Some(last)) = (&self.puzzle, self.game.history().last()) else {
            return;
        };
        if run.over() || self.game.quantum().is_none() {
            return;
        }
        let job = Job::Judge {
            played: last.text.clone(),
            said: super::steps::ply_words(last),
        };
        let (mut attempt, mut game, cursor) =
            (run.attempt.clone(), self.game.clone_box(), self.cursor);
        self.run_led(job, move |_| {
            let after = game.quantum().ok_or("not a Quantum Chess game")?;
            let Some(reply) = attempt.judge(after).map_err(|e| e.to_string())? else {
                return Ok(Led::Judged(Box::new(Judged {
                    attempt,
                    replied: None,
                })));
            };
            let rec = game
                .play(&reply)
                .map_err(|e| format!("the reply failed: {e}"))?;
            let view = view_of(game.as_ref(), cursor);
            let words = super::steps::ply_words(&rec);
            Ok(Led::Judged(Box::new(Judged {
                attempt,
                replied: Some((game, view, words)),
            })))
        });
    }

    /// Takes in a puzzle move's judgement (`said`: what the move did): the defence's
    /// reply on the board, and what the try says now.
    pub(super) fn took_judgement(&mut self, said: String, judged: Judged) {
        let Some(run) = &mut self.puzzle else {
            return;
        };
        run.attempt = judged.attempt;
        let said = match judged.replied {
            Some((game, view, words)) => {
                self.game = game;
                self.after_change_with(view);
                format!("{said}. Reply: {words}")
            }
            None => said,
        };
        let (Some(run), Some(now)) = (&mut self.puzzle, self.game.quantum()) else {
            return;
        };
        match run.attempt.verdict(now) {
            TryStep::GoesOn(words) => {
                // Kept in the pane too: the message line cuts a long reply's words.
                let moves = run.attempt.judged().len();
                run.progress = Some(format!("After your move {moves}:{words}"));
                self.say(Tone::Info, format!("{said}.{words} Your move"))
            }
            TryStep::Over(ending) => {
                let unkept = run.close(&ending);
                self.say(Tone::Info, said);
                if let Some(why) = unkept {
                    self.say(Tone::Error, why);
                }
            }
        }
    }

    /// Ends the try on screen unjudged (its judging was stopped, or failed: `why`).
    pub(super) fn unjudged_puzzle_try(&mut self, why: &str) {
        if let Some(run) = &mut self.puzzle {
            run.unjudged(why);
        }
    }
}
