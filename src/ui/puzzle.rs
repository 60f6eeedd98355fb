//! Puzzles on the game screen: the puzzle's position, its goal over the board, the
//! player's moves judged exactly against the optimum, the proof's best defence as the
//! reply, the best line on request, and the player's record.

use super::app::{App, Mode};
use super::input::Action;
use super::lesson::{list_line, list_step, pane, scroll_text, Pane};
use super::message::Tone;
use super::popup;
use crate::chess::{Game, Status};
use crate::learn::solved::Solved;
use crate::puzzles::{best_move, defence, judge, Judgement, Puzzle};
use crate::style::color::Paint;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::Frame;
use std::path::PathBuf;

/// The puzzle on screen, the pack, and the player's record.
#[derive(Debug)]
pub struct Solving {
    /// The pack.
    pub puzzles: Vec<Puzzle>,
    /// The puzzle on screen (index into `puzzles`).
    pub at: usize,
    /// Plies left to the puzzle's horizon.
    pub plies_left: u32,
    /// The position before the player's next move (what it is judged from).
    before: Game,
    /// The judgement of each of the player's moves so far.
    pub judged: Vec<Judgement>,
    /// How the try ended, once it did.
    pub told: Option<String>,
    /// The player's record.
    pub record: Solved,
    /// Where the record is kept (`None`: not kept).
    pub store: Option<PathBuf>,
    /// The list, while it is open: the highlighted entry.
    pub list: Option<usize>,
    /// The text's first line shown where it does not fit.
    pub scroll: u16,
    /// The text's lines the last drawing could not show.
    pub(super) hidden: u16,
    seed: u64,
}

impl Solving {
    /// The puzzle on screen.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzles[self.at]
    }

    /// The try is over (the horizon, or the game ended).
    pub fn over(&self) -> bool {
        self.told.is_some()
    }
}

/// The puzzle's position with outcomes drawn from `seed` on.
fn position(p: &Puzzle, seed: u64) -> Option<Game> {
    let g = p.game().ok()?;
    let mut opts = g.options();
    opts.seed = seed;
    Game::replay(g.start().clone(), opts, &p.setup).ok()
}

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
        app.puzzle = Some(Solving {
            plies_left: 0,
            before: game,
            judged: Vec::new(),
            told: None,
            record,
            store,
            list: None,
            scroll: 0,
            hidden: 0,
            seed,
            puzzles,
            at,
        });
        app.open_puzzle(at);
        Some(app)
    }

    /// The puzzle run, while this screen sets puzzles.
    pub fn puzzle_run(&self) -> Option<&Solving> {
        self.puzzle.as_ref()
    }

    /// Sets up puzzle `at` (index into the pack) and says its task.
    fn open_puzzle(&mut self, at: usize) {
        let Some(run) = &mut self.puzzle else {
            return;
        };
        run.seed = run.seed.wrapping_add(1);
        let Some(game) = run.puzzles.get(at).and_then(|p| position(p, run.seed)) else {
            return self.say(Tone::Error, "this puzzle's position cannot be set up");
        };
        run.at = at;
        run.plies_left = run.puzzle().task().plies();
        run.before = game.detached();
        run.judged.clear();
        run.told = None;
        run.list = None;
        run.scroll = 0;
        let task = run.puzzle().task().describe();
        let side = game.to_move().name();
        // The solver sees the board from its side.
        self.flipped = game.to_move() == crate::chess::Color::Black;
        self.game = game.into();
        self.mode = Mode::Idle;
        self.inspector = None;
        self.selected_move = None;
        self.explaining = false;
        self.computer.forget();
        self.after_change();
        self.say(Tone::Info, format!("{side} to move: {task}"));
    }

    /// The puzzles' own keys, and the list's; true when the action was one of them.
    pub(super) fn puzzle_action(&mut self, action: Action) -> bool {
        let Some(run) = &mut self.puzzle else {
            return false;
        };
        let n = run.puzzles.len();
        if let Some(at) = run.list {
            match action {
                Action::Cursor(_, dy) => run.list = Some(list_step(at, dy, n)),
                Action::Select => self.open_puzzle(at),
                Action::Quit => self.quit = true,
                _ => run.list = None,
            }
            return true;
        }
        match action {
            Action::NextLesson => {
                let next = (run.at + 1) % n;
                self.open_puzzle(next);
            }
            Action::RestartLesson => {
                let at = run.at;
                self.open_puzzle(at);
            }
            Action::LessonList => run.list = Some(run.at),
            Action::ShowBest => {
                let p = run.puzzle();
                let words = format!(
                    "the best line: {} (each measurement with its likelier outcome); it reaches {}%",
                    p.line.join(" "),
                    crate::format::percent(p.value)
                );
                self.say(Tone::Info, words);
            }
            Action::Hint if !run.over() => self.puzzle_hint(),
            a => return scroll_text(&mut run.scroll, run.hidden, a),
        }
        true
    }

    /// `H` in a puzzle: the proved best move from here and what it reaches against the
    /// best defence (not the engine's guess, which may fall short of the puzzle's value).
    fn puzzle_hint(&mut self) {
        let Some(run) = &self.puzzle else {
            return;
        };
        let goal = run.puzzle().goal;
        let words = match best_move(&run.before, goal, run.plies_left) {
            Ok(Some((mv, value))) => format!(
                "hint: {mv}, proved best: it reaches {}% against the best defence",
                crate::format::percent(value)
            ),
            Ok(None) => "no move to hint: the puzzle is over".to_string(),
            Err(e) => format!("no hint: {e}"),
        };
        self.say(Tone::Info, words);
    }

    /// After the player's move: judges it exactly from the position before it, and
    /// answers with the proof's best defence until the puzzle's horizon.
    pub(super) fn judge_puzzle_move(&mut self) {
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

/// Draws the puzzle's pane: its id and rating on the border, the goal, the task, and
/// how the try ended.
pub fn render(f: &mut Frame, area: Rect, paint: &Paint, run: &Solving) -> u16 {
    let p = run.puzzle();
    let mark = if run.record.is_solved(&p.id) {
        ", solved"
    } else {
        ""
    };
    let text = format!(
        "{} to move. The other side defends as well as it can, and every measurement is \
         drawn with its chance. A move is judged by the exact chance its line reaches \
         against that defence; the best first move reaches {}%.",
        capitalised(p.game().map_or("white", |g| g.to_move().name())),
        crate::format::percent(p.value)
    );
    pane(
        f,
        area,
        paint,
        &Pane {
            title: format!(
                " Puzzle {} ({}/{}, rating {}{mark}) ",
                p.id,
                run.at + 1,
                run.puzzles.len(),
                p.rating
            ),
            text: &text,
            task: format!("Task: {}.", capitalised(&p.task().describe())),
            told: run.told.as_deref(),
            scroll: run.scroll,
            keys: " n next  r again  b best line  L puzzles ",
        },
    )
}

/// "Capture the king ..." from "capture the king ...".
fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// Draws the list of puzzles over `area`: id, goal, rating, solved.
pub fn render_list(f: &mut Frame, area: Rect, paint: &Paint, run: &Solving, at: usize) {
    let text = paint.fg(paint.theme.text);
    // One row for the headings.
    let rows = area.height.saturating_sub(5).max(1) as usize;
    let first = at
        .saturating_sub(rows / 2)
        .min(run.puzzles.len().saturating_sub(rows));
    let headings = Line::styled(
        format!(" {:>4} {:6} {:>6}  {}", "id", "", "rating", "task"),
        paint.dim(),
    );
    let lines: Vec<Line> = std::iter::once(headings)
        .chain(
            run.puzzles
                .iter()
                .enumerate()
                .skip(first)
                .take(rows)
                .map(|(i, p)| {
                    let solved = if run.record.is_solved(&p.id) {
                        "solved"
                    } else {
                        "      "
                    };
                    list_line(
                        text,
                        i == at,
                        format!(
                            " {:>4} {solved} {:>6}  {}",
                            p.id,
                            p.rating,
                            p.task().describe()
                        ),
                    )
                }),
        )
        .collect();
    let title = format!(
        " Puzzles: your rating {:.0}; ↑ ↓ Enter opens, Esc closes ",
        run.record.rating
    );
    popup::titled_box(f, area, paint, 70, title, lines);
}
