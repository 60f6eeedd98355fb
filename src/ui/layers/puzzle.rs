//! Puzzles on the game screen: the pack, the puzzle shown and the try so far, the
//! player's record, its pane over the board and the list of puzzles.

use super::lesson::{list_line, pane, Pane};
use crate::chess::Game;
use crate::learn::solved::Solved;
use crate::puzzles::{Judgement, Puzzle};
use crate::ui::color::Paint;
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
    /// Plies left to the puzzle's horizon.
    pub plies_left: u32,
    /// The position before the player's next move (what it is judged from).
    pub(in crate::ui) before: Game,
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
    pub(in crate::ui) hidden: u16,
    pub(in crate::ui) seed: u64,
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
