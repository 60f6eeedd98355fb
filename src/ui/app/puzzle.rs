//! Puzzles on the game screen: the puzzle's position, its goal over the board, the
//! player's moves judged exactly against the optimum, the proof's best defence as the
//! reply, the best line on request, and the player's record.

use super::App;
use crate::chess::Status;
use crate::learn::solved::Solved;
use crate::puzzles::{defence, judge, Judgement, Puzzle};
use crate::style::color::Paint;
use crate::ui::layers::puzzle::{position, Solving};
use crate::ui::message::Tone;
use std::path::PathBuf;

impl App {
    /// A screen on the puzzles of `puzzles` (the first not solved, or `first`), with the
    /// player's `record` kept in `store`; `None` when the pack is empty.
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
            .or_else(|| puzzles.iter().position(|p| !record.is_solved(&p.id)))
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

    /// After the player's move: judges it exactly from the position before it, and
    /// answers with the proof's best defence until the puzzle's horizon.
    pub(in crate::ui) fn judge_puzzle_move(&mut self) {
        let Some(g) = self.game.quantum() else {
            return;
        };
        let Some(last) = g.history().last() else {
            return;
        };
        let mut text = last.class.text;
        text.outcome = None;
        let mut said = super::steps::ply_words(self.game.history().last().expect("a move"));
        let after = g.detached();
        let Some(run) = self.puzzle.as_mut().filter(|r| !r.over()) else {
            return;
        };
        let goal = run.puzzle().goal;
        match judge(&run.before, goal, run.plies_left, &text.to_string()) {
            Ok(j) => run.judged.push(j),
            Err(e) => return self.say(Tone::Error, format!("the move could not be judged: {e}")),
        }
        run.plies_left = run.plies_left.saturating_sub(1);
        if run.plies_left > 0 && after.status() == Status::Ongoing {
            let reply = match defence(&after, goal, run.plies_left) {
                Ok(reply) => reply,
                Err(e) => return self.say(Tone::Error, format!("no reply: {e}")),
            };
            run.plies_left = run.plies_left.saturating_sub(1);
            if let Some(reply) = reply {
                match self.game.play(&reply) {
                    Ok(rec) => said = format!("{said}. Reply: {}", super::steps::ply_words(&rec)),
                    Err(e) => return self.say(Tone::Error, format!("the reply failed: {e}")),
                }
                self.after_change();
            }
        }
        let game = self
            .game
            .quantum()
            .expect("a puzzle is Quantum Chess")
            .detached();
        let Some(run) = &mut self.puzzle else {
            return;
        };
        if run.plies_left > 0 && game.status() == Status::Ongoing {
            run.before = game;
            // Each move is judged as it is played, not only at the end of the try.
            let verdict = run.judged.last().map_or_else(String::new, |j| {
                if j.optimal() {
                    format!(
                        " The best move: {}% is still within reach.",
                        crate::format::percent(j.best_value)
                    )
                } else {
                    format!(" Not the best: {j}.")
                }
            });
            return self.say(Tone::Info, format!("{said}.{verdict} Your move"));
        }
        self.finish_puzzle(said);
    }

    /// Ends the try: the exact judgement of the line, what happened this time, and the
    /// record.
    fn finish_puzzle(&mut self, said: String) {
        let Some(run) = &mut self.puzzle else {
            return;
        };
        let solved = run.judged.iter().all(Judgement::optimal);
        let first = run
            .judged
            .first()
            .map(|j| j.to_string())
            .unwrap_or_default();
        let p = run.puzzle().clone();
        let change = run.record.record(&p.id, p.rating, solved);
        let verdict = if solved { "Solved" } else { "Not solved" };
        // A try is judged by its moves; the outcomes drawn this time may still have
        // ended the game either way: said beside the verdict, so they never read as
        // contradicting each other.
        let solver = run.before.to_move();
        let status = self.game.status();
        let won = status == Status::won_by(solver);
        let this_time = match status {
            Status::Ongoing => "",
            Status::Draw => " This time the game ended drawn.",
            _ if won == solved => "",
            _ if won => " This time the chances fell your way and the game was won; the verdict is on your moves.",
            _ => " This time the chances fell against you and the game was lost; the verdict is on your moves.",
        };
        let told = format!(
            "{verdict}: {first}.{this_time} Your rating {:.0} ({change:+.0}). b: the best line, r: again, n: next",
            run.record.rating
        );
        run.told = Some(told);
        let save = run.store.clone().map(|dir| run.record.save(&dir));
        self.say(Tone::Info, said);
        if let Some(Err(e)) = save {
            self.say(Tone::Error, e.to_string());
        }
    }
}
