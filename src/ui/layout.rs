//! Where the panes go: the full arrangement from 80x23 (an 80x24 terminal less a tmux
//! status line), roomier from 120x38, and a compact one down to 60x20 that shows the
//! board, the history beside it and one more pane below it, picked with Tab.

use super::status::MESSAGE_ROWS;
use ratatui::layout::Rect;

/// The smallest terminal for the full arrangement (every pane at once).
pub const MIN_SIZE: (u16, u16) = (80, 23);

/// The smallest terminal the game draws in at all (the compact arrangement).
pub const COMPACT_SIZE: (u16, u16) = (60, 20);

/// The size from which the board uses large squares.
pub const LARGE_SIZE: (u16, u16) = (120, 38);

/// Board square size in cells (width, height): compact and large.
pub const CELL_COMPACT: (u16, u16) = (5, 1);
/// See [`CELL_COMPACT`].
pub const CELL_LARGE: (u16, u16) = (7, 3);

/// The pane the compact arrangement shows below the board; Tab picks the next one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Drawer {
    /// The probabilities of the cursor square.
    #[default]
    Probabilities,
    /// The circuit (or a variant's trace) of the shown move.
    Circuit,
}

impl Drawer {
    /// The other pane.
    pub fn next(self) -> Drawer {
        match self {
            Drawer::Probabilities => Drawer::Circuit,
            Drawer::Circuit => Drawer::Probabilities,
        }
    }

    /// The pane's name, with `circuit` for the circuit's place (a variant's trace).
    pub fn name(self, circuit: &'static str) -> &'static str {
        match self {
            Drawer::Probabilities => "probabilities",
            Drawer::Circuit => circuit,
        }
    }
}

/// The rectangles of the panes. A pane the arrangement leaves out has an empty
/// rectangle (see [`Panes::shown`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Panes {
    /// The board.
    pub board: Rect,
    /// Probabilities of the cursor square and the branches.
    pub probs: Rect,
    /// The move list.
    pub history: Rect,
    /// The circuit of the shown move.
    pub circuit: Rect,
    /// One line: side to move, ply, counters.
    pub status: Rect,
    /// One to three lines: messages and the move prompt.
    pub message: Rect,
    /// Board square size.
    pub cell: (u16, u16),
    /// The compact arrangement's place below the board (one pane at a time); `None` in
    /// the full arrangement.
    pub drawer: Option<Rect>,
    /// A lesson's text (empty outside lessons).
    pub lesson: Rect,
    /// A replay's review (empty elsewhere: [`with_review`]).
    pub review: Rect,
}

impl Panes {
    /// Whether a pane has room on the screen (the compact arrangement leaves some out).
    pub fn shown(r: Rect) -> bool {
        !r.is_empty()
    }

    /// Where the inspector goes: the probabilities and history panes, or the drawer.
    pub fn inspector(&self) -> Rect {
        self.drawer.unwrap_or(self.probs.union(self.history))
    }
}

/// `hint` when it fits on the border of a pane `width` cells wide (with a corner each
/// side), else nothing: a cut hint reads as a bug.
pub fn hint_fits(hint: &str, width: u16) -> &str {
    if hint.chars().count() + 2 <= width as usize {
        hint
    } else {
        ""
    }
}

/// Whether `area` is below the smallest size `min`.
pub fn too_small(area: Rect, min: (u16, u16)) -> bool {
    area.width < min.0 || area.height < min.1
}

/// The panes for a terminal of `area` with a message area of `message_rows` lines (1 to
/// [`MESSAGE_ROWS`]), showing `drawer` below the board in the compact arrangement; `None` below
/// [`COMPACT_SIZE`].
pub fn panes(area: Rect, drawer: Drawer, message_rows: u16) -> Option<Panes> {
    if too_small(area, COMPACT_SIZE) {
        return None;
    }
    let large = area.width >= LARGE_SIZE.0 && area.height >= LARGE_SIZE.1;
    let cell = if large { CELL_LARGE } else { CELL_COMPACT };
    // Borders (2) plus rank labels (2) across; borders plus file labels down.
    let board_w = 8 * cell.0 + 4;
    let board_h = 8 * cell.1 + 3;
    let (x, y) = (area.x, area.y);
    let message_rows = message_rows.clamp(1, MESSAGE_ROWS as u16);
    let body_h = area.height - 1 - message_rows;
    let status = Rect::new(x, y + body_h, area.width, 1);
    let message = Rect::new(x, y + body_h + 1, area.width, message_rows);
    let board = Rect::new(x, y, board_w, board_h);
    let right_w = area.width - board_w;
    let mut p = Panes {
        board,
        probs: Rect::default(),
        history: Rect::default(),
        circuit: Rect::default(),
        status,
        message,
        cell,
        drawer: None,
        lesson: Rect::default(),
        review: Rect::default(),
    };
    if too_small(area, MIN_SIZE) || body_h < board_h + 6 {
        // Compact: the history beside the board, one more pane below it.
        p.history = Rect::new(x + board_w, y, right_w, board_h);
        let below = Rect::new(x, y + board_h, area.width, body_h - board_h);
        match drawer {
            Drawer::Probabilities => p.probs = below,
            Drawer::Circuit => p.circuit = below,
        }
        p.drawer = Some(below);
    } else if large {
        // Board top left, probabilities and history to its right, circuit across the
        // bottom.
        let probs_h = (board_h / 2).max(13);
        p.probs = Rect::new(x + board_w, y, right_w, probs_h);
        p.history = Rect::new(x + board_w, y + probs_h, right_w, board_h - probs_h);
        p.circuit = Rect::new(x, y + board_h, area.width, body_h - board_h);
    } else {
        // Board over circuit on the left; probabilities over history on the right.
        let probs_h = body_h / 2;
        p.probs = Rect::new(x + board_w, y, right_w, probs_h);
        p.history = Rect::new(x + board_w, y + probs_h, right_w, body_h - probs_h);
        p.circuit = Rect::new(x, y + board_h, board_w, body_h - board_h);
    }
    Some(p)
}

/// Rows of the review pane in the 80-column arrangement: its borders, three rows of
/// graph and the line under it.
pub const REVIEW_ROWS: u16 = 6;

/// `p` with room for a replay's review: in the full arrangement, taken half from the
/// bottom of the probabilities and half from the top of the history; in the large one,
/// beside the circuit, under the history; in the compact one, the right half of the
/// drawer below the board.
pub fn with_review(mut p: Panes) -> Panes {
    if let Some(drawer) = p.drawer {
        let w = drawer.width / 2;
        let left = Rect::new(drawer.x, drawer.y, drawer.width - w, drawer.height);
        for pane in [&mut p.probs, &mut p.circuit] {
            if *pane == drawer {
                *pane = left;
            }
        }
        p.drawer = Some(left);
        p.review = Rect::new(left.right(), drawer.y, w, drawer.height);
        return p;
    }
    if p.cell == CELL_LARGE {
        let w = p.probs.width.min(p.circuit.width.saturating_sub(30));
        p.review = Rect::new(p.circuit.right() - w, p.circuit.y, w, p.circuit.height);
        p.circuit.width -= w;
    } else {
        let from_probs = REVIEW_ROWS / 2;
        let from_history = REVIEW_ROWS - from_probs;
        p.probs.height = p.probs.height.saturating_sub(from_probs);
        p.review = Rect::new(p.probs.x, p.probs.bottom(), p.probs.width, REVIEW_ROWS);
        p.history.y += from_history;
        p.history.height = p.history.height.saturating_sub(from_history);
    }
    p
}

/// Rows of a lesson's pane where there is room: its borders, six lines of text and the
/// task.
pub const LESSON_ROWS: u16 = 9;

/// The panes of a lesson for a terminal of `area`: the lesson across the top, the board
/// below it, and beside the board `drawer` (probabilities or circuit, Tab) over the
/// history, or the history alone where the side is narrow; `None` below
/// [`COMPACT_SIZE`].
pub fn lesson_panes(area: Rect, drawer: Drawer, message_rows: u16) -> Option<Panes> {
    if too_small(area, COMPACT_SIZE) {
        return None;
    }
    let message_rows = message_rows.clamp(1, MESSAGE_ROWS as u16);
    let body_h = area.height - 1 - message_rows;
    let large_h = 8 * CELL_LARGE.1 + 3;
    let large = area.width >= LARGE_SIZE.0 && body_h >= LESSON_ROWS + large_h;
    let cell = if large { CELL_LARGE } else { CELL_COMPACT };
    let board_w = 8 * cell.0 + 4;
    let board_h = 8 * cell.1 + 3;
    let lesson_h = LESSON_ROWS.min(body_h - board_h);
    let (x, y) = (area.x, area.y);
    let board = Rect::new(x, y + lesson_h, board_w, board_h);
    let right = Rect::new(
        x + board_w,
        y + lesson_h,
        area.width - board_w,
        body_h - lesson_h,
    );
    let mut p = Panes {
        board,
        probs: Rect::default(),
        history: right,
        circuit: Rect::default(),
        status: Rect::new(x, y + body_h, area.width, 1),
        message: Rect::new(x, y + body_h + 1, area.width, message_rows),
        cell,
        drawer: None,
        lesson: Rect::new(x, y, area.width, lesson_h),
        review: Rect::default(),
    };
    if right.width >= 30 {
        let top = Rect::new(right.x, right.y, right.width, right.height / 2);
        p.history = Rect::new(
            right.x,
            top.bottom(),
            right.width,
            right.height - top.height,
        );
        match drawer {
            Drawer::Probabilities => p.probs = top,
            Drawer::Circuit => p.circuit = top,
        }
        p.drawer = Some(top);
    }
    Some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inside(r: Rect, a: Rect) -> bool {
        r.x >= a.x && r.y >= a.y && r.right() <= a.right() && r.bottom() <= a.bottom()
    }

    fn check(p: &Panes, a: Rect, what: &str) {
        let all = [
            p.board, p.probs, p.history, p.circuit, p.status, p.message, p.review,
        ];
        let shown: Vec<Rect> = all.into_iter().filter(|r| Panes::shown(*r)).collect();
        for (i, r) in shown.iter().enumerate() {
            assert!(inside(*r, a), "{what}: pane {i} {r:?} outside");
            for s in &shown[i + 1..] {
                assert!(
                    r.intersection(*s).area() == 0,
                    "{what}: {r:?} overlaps {s:?}"
                );
            }
        }
        // Panes with a border need two rows and columns besides their content.
        for r in [p.board, p.history] {
            assert!(r.height >= 4 && r.width >= 14, "{what}: {r:?} too small");
        }
    }

    #[test]
    fn the_review_fits_beside_the_other_panes() {
        for (w, h) in [
            (80, 23),
            (80, 24),
            (100, 30),
            (120, 38),
            (120, 40),
            (200, 60),
        ] {
            for rows in [1, 2, 3] {
                let a = Rect::new(0, 0, w, h);
                let p = with_review(panes(a, Drawer::Probabilities, rows).unwrap());
                check(&p, a, &format!("{w}x{h} with a review"));
                assert!(p.review.height >= REVIEW_ROWS, "{w}x{h}: {:?}", p.review);
                assert!(p.review.width >= 30, "{w}x{h}: {:?}", p.review);
                assert!(p.probs.height >= 4 && p.circuit.width >= 40, "{w}x{h}");
            }
        }
        // The compact arrangement: beside the drawer's pane, either of them.
        let a = Rect::new(0, 0, 60, 20);
        for drawer in [Drawer::Probabilities, Drawer::Circuit] {
            let p = with_review(panes(a, drawer, 1).unwrap());
            check(&p, a, "60x20 with a review");
            let beside = p.drawer.expect("the drawer");
            assert!(Panes::shown(beside) && p.review.width >= 30, "{p:?}");
            assert_eq!((p.review.y, p.review.x), (beside.y, beside.right()));
        }
    }

    #[test]
    fn panes_fit_and_do_not_overlap() {
        for (w, h) in [
            (80, 23),
            (80, 24),
            (100, 30),
            (120, 38),
            (120, 40),
            (200, 60),
            (80, 60),
        ] {
            for rows in [1, 2, 3] {
                let a = Rect::new(0, 0, w, h);
                let p = panes(a, Drawer::Probabilities, rows).expect("big enough");
                check(&p, a, &format!("{w}x{h}, {rows} message rows"));
                let full = [p.probs, p.history, p.circuit];
                if rows == 1 {
                    assert!(p.drawer.is_none(), "{w}x{h}: full arrangement");
                    assert!(full.iter().all(|r| Panes::shown(*r)), "{w}x{h}");
                }
                assert_eq!(p.message.height, rows);
            }
        }
    }

    #[test]
    fn compact_from_60x20_with_one_pane_below_the_board() {
        for (w, h) in [(60, 20), (79, 24), (70, 22), (100, 20), (80, 22)] {
            let a = Rect::new(0, 0, w, h);
            for drawer in [Drawer::Probabilities, Drawer::Circuit] {
                let p = panes(a, drawer, 2).expect("compact");
                check(&p, a, &format!("{w}x{h}"));
                let below = p.drawer.expect("compact arrangement");
                assert!(below.height >= 4, "{w}x{h}: {below:?}");
                let (shown, hidden) = match drawer {
                    Drawer::Probabilities => (p.probs, p.circuit),
                    Drawer::Circuit => (p.circuit, p.probs),
                };
                assert_eq!(shown, below);
                assert!(!Panes::shown(hidden));
                assert_eq!(p.cell, CELL_COMPACT);
            }
        }
        assert!(panes(Rect::new(0, 0, 59, 24), Drawer::Probabilities, 1).is_none());
        assert!(panes(Rect::new(0, 0, 80, 19), Drawer::Probabilities, 1).is_none());
        assert_eq!(Drawer::Probabilities.next().next(), Drawer::Probabilities);
    }

    #[test]
    fn a_lesson_has_its_text_over_the_board_at_every_size() {
        for (w, h, rows, text) in [
            (80, 24, 2, 9),
            (80, 23, 2, 9),
            (60, 20, 2, 6),
            (120, 40, 2, 9),
        ] {
            let a = Rect::new(0, 0, w, h);
            let p = lesson_panes(a, Drawer::Probabilities, rows).expect("big enough");
            check(&p, a, &format!("lesson {w}x{h}"));
            assert_eq!(p.lesson.height, text, "{w}x{h}");
            assert_eq!(p.lesson.width, w);
            assert!(Panes::shown(p.history));
            assert!(p.lesson.bottom() <= p.board.y);
        }
        assert_eq!(
            lesson_panes(Rect::new(0, 0, 120, 40), Drawer::Circuit, 2).map(|p| p.cell),
            Some(CELL_LARGE)
        );
        assert!(lesson_panes(Rect::new(0, 0, 59, 30), Drawer::Probabilities, 1).is_none());
    }

    #[test]
    fn hints_fit_or_go() {
        assert_eq!(hint_fits(" [ ] pick ", 12), " [ ] pick ");
        assert_eq!(hint_fits(" [ ] pick ", 11), "");
    }
}
