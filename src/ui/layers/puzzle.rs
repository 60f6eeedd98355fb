//! Puzzles on the game screen: the pack, the puzzle shown and the try so far, the
//! player's record, its pane over the board and the list of puzzles.

use super::lesson::{list_line, list_step, pane, scrolled, Pane};
use super::{Outcome, Request};
use crate::chess::Game;
use crate::learn::solved::Solved;
use crate::puzzles::{best_move, Attempt, Puzzle, Theme, TryEnd};
use crate::style::color::Paint;
use crate::ui::input::Action;
use crate::ui::message::Tone;
use crate::ui::popup;
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
    /// The try at the puzzle on screen: its moves judged so far.
    pub attempt: Attempt,
    /// How the try ended, once it did.
    pub told: Option<String>,
    /// What the last move judged was worth, while the try goes on.
    pub progress: Option<String>,
    /// The player's record.
    pub record: Solved,
    /// Where the record is kept (`None`: not kept).
    pub store: Option<PathBuf>,
    /// The list, while it is open: the highlighted entry (an index into
    /// [`Solving::listed`]).
    pub list: Option<usize>,
    /// The theme the list shows (`None`: every puzzle); the next puzzle is one of it.
    pub theme: Option<Theme>,
    /// The text's first line shown where it does not fit.
    pub scroll: u16,
    /// The text's lines the last drawing could not show.
    pub(in crate::ui) hidden: u16,
    seed: u64,
}

impl Solving {
    /// A run of the pack `puzzles` at `at`, whose position is `before`, with the player's
    /// `record` kept in `store` (`None`: not kept), drawing outcomes from `seed` on. The
    /// try starts when the puzzle is opened ([`Solving::open`]).
    pub fn new(
        puzzles: Vec<Puzzle>,
        at: usize,
        before: Game,
        (record, store): (Solved, Option<PathBuf>),
        seed: u64,
    ) -> Solving {
        let goal = puzzles
            .get(at)
            .map_or(crate::puzzles::Goal::King, |p| p.goal);
        Solving {
            attempt: Attempt::new(goal, before, 0),
            told: None,
            progress: None,
            record,
            store,
            list: None,
            theme: None,
            scroll: 0,
            hidden: 0,
            seed,
            puzzles,
            at,
        }
    }

    /// Starts puzzle `at` (index into the pack) afresh: its position with new outcomes,
    /// or `None` when it cannot be set up.
    pub fn open(&mut self, at: usize) -> Option<Game> {
        self.seed = self.seed.wrapping_add(1);
        let game = self.puzzles.get(at).and_then(|p| position(p, self.seed))?;
        self.at = at;
        let p = self.puzzle();
        self.attempt = Attempt::knowing(
            p.goal,
            game.detached(),
            p.task().plies(),
            p.value,
            &p.best[0],
            &p.line,
        );
        self.told = None;
        self.progress = None;
        self.list = None;
        self.scroll = 0;
        Some(game)
    }

    /// The puzzles the list shows: those of its theme (indices into `puzzles`).
    pub fn listed(&self) -> Vec<usize> {
        (0..self.puzzles.len())
            .filter(|&i| self.theme.is_none_or(|t| self.puzzles[i].theme == t))
            .collect()
    }

    /// The puzzle to set after this one: the unsolved one of the list's theme nearest
    /// the player's rating ([`crate::puzzles::next`]); this one again when it is the
    /// only one.
    pub fn next(&self) -> usize {
        let theme = self.theme;
        crate::puzzles::next(
            &self.puzzles,
            self.record.rating,
            |p| theme.is_none_or(|t| p.theme == t),
            |id| self.record.is_solved(id),
            Some(self.at),
        )
        .unwrap_or(self.at)
    }

    /// The list's next theme among those the puzzles have, after the last every puzzle
    /// again.
    fn next_theme(&mut self) {
        let mut themes = Theme::ALL
            .into_iter()
            .filter(|t| self.puzzles.iter().any(|p| p.theme == *t));
        self.theme = match self.theme {
            None => themes.next(),
            Some(now) => themes.skip_while(|t| *t != now).nth(1),
        };
    }

    /// The puzzles' own keys, and the list's.
    pub fn handle(&mut self, action: Action) -> Outcome {
        if let Some(at) = self.list {
            let listed = self.listed();
            match action {
                Action::Cursor(_, dy) => self.list = Some(list_step(at, dy, listed.len())),
                Action::Select => {
                    if let Some(&i) = listed.get(at) {
                        return Outcome::Ask(Request::OpenPuzzle(i));
                    }
                }
                Action::NextTheme => {
                    self.next_theme();
                    self.list = Some(0);
                }
                Action::Quit => return Outcome::Ask(Request::Quit),
                _ => self.list = None,
            }
            return Outcome::Consumed;
        }
        match action {
            Action::NextLesson => Outcome::Ask(Request::OpenPuzzle(self.next())),
            Action::RestartLesson => Outcome::Ask(Request::OpenPuzzle(self.at)),
            Action::LessonList => {
                self.list = Some(
                    self.listed()
                        .iter()
                        .position(|&i| i == self.at)
                        .unwrap_or(0),
                );
                Outcome::Consumed
            }
            Action::ShowBest => {
                let p = self.puzzle();
                let words = format!(
                    "the best line: {} (each measurement with its likelier outcome); it reaches {}%",
                    p.line.join(" "),
                    crate::format::percent(p.value)
                );
                Outcome::Ask(Request::Say(Tone::Info, words))
            }
            Action::Hint if !self.over() => Outcome::Ask(Request::Say(Tone::Info, self.hint())),
            a => scrolled(&mut self.scroll, self.hidden, a),
        }
    }

    /// `H`: the proved best move from here and what it reaches against the best defence
    /// (not the engine's guess, which may fall short of the puzzle's value).
    fn hint(&self) -> String {
        let goal = self.puzzle().goal;
        let known = self.attempt.known_best().map(|(mv, v)| (mv.to_string(), v));
        let best = match known {
            Some(best) => Ok(Some(best)),
            None => best_move(self.attempt.before(), goal, self.attempt.plies_left()),
        };
        match best {
            Ok(Some((mv, value))) => format!(
                "hint: {mv}, proved best: it reaches {}% against the best defence",
                crate::format::percent(value)
            ),
            Ok(None) => "no move to hint: the puzzle is over".to_string(),
            Err(e) => format!("no hint: {e}"),
        }
    }
    /// The puzzle on screen.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzles[self.at]
    }

    /// The try is over (the horizon, or the game ended).
    pub fn over(&self) -> bool {
        self.told.is_some()
    }

    /// Ends the try unjudged (`why`: its judging was stopped, or failed): the record
    /// takes nothing in.
    pub fn unjudged(&mut self, why: &str) {
        self.told = Some(format!("Not judged: {why}. r: again, n: next"));
    }

    /// Closes the try that ended so: the player's record takes it in and is kept, and
    /// the pane tells how it ended. Why the record could not be kept, when it could not.
    pub fn close(&mut self, ending: &TryEnd) -> Option<String> {
        let p = &self.puzzles[self.at];
        let change = self.record.record(&p.id, p.rating, ending.solved);
        self.told = Some(ending.words(self.record.shown(), change));
        let dir = self.store.as_ref()?;
        self.record.save(dir).err().map(|e| e.to_string())
    }
}

/// The puzzle's position with outcomes drawn from `seed` on.
pub fn position(p: &Puzzle, seed: u64) -> Option<Game> {
    let g = p.game().ok()?;
    let mut opts = g.options();
    opts.seed = seed;
    Game::replay(g.start().clone(), opts, &p.setup).ok()
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
            told: run.told.as_deref().or(run.progress.as_deref()),
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

/// Draws the list of puzzles over `area`: the theme shown and the key for the next,
/// then id, solved, rating, theme and task.
pub fn render_list(f: &mut Frame, area: Rect, paint: &Paint, run: &Solving, at: usize) {
    let text = paint.fg(paint.theme.text);
    let listed = run.listed();
    // Two rows for the theme and the headings.
    let rows = area.height.saturating_sub(6).max(1) as usize;
    let first = at
        .saturating_sub(rows / 2)
        .min(listed.len().saturating_sub(rows));
    let shown = run.theme.map_or("all", Theme::name);
    let theme = Line::styled(
        format!(
            " theme: {shown} ({} puzzles); t: the next theme",
            listed.len()
        ),
        paint.dim(),
    );
    let headings = Line::styled(
        format!(
            " {:>4} {:6} {:>6}  {:<19} {}",
            "id", "", "rating", "theme", "task"
        ),
        paint.dim(),
    );
    let lines: Vec<Line> = [theme, headings]
        .into_iter()
        .chain(
            listed
                .iter()
                .enumerate()
                .skip(first)
                .take(rows)
                .map(|(row, &i)| {
                    let p = &run.puzzles[i];
                    let solved = if run.record.is_solved(&p.id) {
                        "solved"
                    } else {
                        "      "
                    };
                    list_line(
                        text,
                        row == at,
                        format!(
                            " {:>4} {solved} {:>6}  {:<19} {}",
                            p.id,
                            p.rating,
                            p.theme.name(),
                            p.task().short()
                        ),
                    )
                }),
        )
        .collect();
    let title = format!(
        " Puzzles: your rating {}; ↑ ↓ Enter opens, Esc closes ",
        run.record.shown()
    );
    popup::titled_box(f, area, paint, 70, title, lines);
}
