//! Where the panes go: a compact arrangement from 80x24, a roomier one from 120x38.

use ratatui::layout::Rect;

/// The smallest terminal the game draws in.
pub const MIN_SIZE: (u16, u16) = (80, 24);

/// The size from which the board uses large squares.
pub const LARGE_SIZE: (u16, u16) = (120, 38);

/// Board square size in cells (width, height): compact and large.
pub const CELL_COMPACT: (u16, u16) = (5, 1);
/// See [`CELL_COMPACT`].
pub const CELL_LARGE: (u16, u16) = (7, 3);

/// The rectangles of the panes.
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
    /// One line: messages and the move prompt.
    pub message: Rect,
    /// Board square size.
    pub cell: (u16, u16),
}

/// The panes for a terminal of `area`, or `None` when it is below [`MIN_SIZE`].
pub fn panes(area: Rect) -> Option<Panes> {
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        return None;
    }
    let large = area.width >= LARGE_SIZE.0 && area.height >= LARGE_SIZE.1;
    let cell = if large { CELL_LARGE } else { CELL_COMPACT };
    // Borders (2) plus rank labels (2) across; borders plus file labels down.
    let board_w = 8 * cell.0 + 4;
    let board_h = 8 * cell.1 + 3;
    let (x, y) = (area.x, area.y);
    let body_h = area.height - 2;
    let status = Rect::new(x, y + body_h, area.width, 1);
    let message = Rect::new(x, y + body_h + 1, area.width, 1);
    let board = Rect::new(x, y, board_w, board_h);
    let right_w = area.width - board_w;
    if large {
        // Board top left, probabilities and history to its right, circuit across the
        // bottom.
        let probs_h = (board_h / 2).max(13);
        let probs = Rect::new(x + board_w, y, right_w, probs_h);
        let history = Rect::new(x + board_w, y + probs_h, right_w, board_h - probs_h);
        let circuit = Rect::new(x, y + board_h, area.width, body_h - board_h);
        Some(Panes {
            board,
            probs,
            history,
            circuit,
            status,
            message,
            cell,
        })
    } else {
        // Board over circuit on the left; probabilities over history on the right.
        let probs_h = body_h / 2;
        let probs = Rect::new(x + board_w, y, right_w, probs_h);
        let history = Rect::new(x + board_w, y + probs_h, right_w, body_h - probs_h);
        let circuit = Rect::new(x, y + board_h, board_w, body_h - board_h);
        Some(Panes {
            board,
            probs,
            history,
            circuit,
            status,
            message,
            cell,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inside(r: Rect, a: Rect) -> bool {
        r.x >= a.x && r.y >= a.y && r.right() <= a.right() && r.bottom() <= a.bottom()
    }

    #[test]
    fn panes_fit_and_do_not_overlap() {
        for (w, h) in [
            (80, 24),
            (100, 30),
            (120, 38),
            (120, 40),
            (200, 60),
            (80, 60),
        ] {
            let a = Rect::new(0, 0, w, h);
            let p = panes(a).expect("big enough");
            let all = [p.board, p.probs, p.history, p.circuit, p.status, p.message];
            for (i, r) in all.iter().enumerate() {
                assert!(inside(*r, a), "{w}x{h}: pane {i} {r:?} outside");
                assert!(r.height > 0 && r.width > 0, "{w}x{h}: pane {i} empty");
                for s in &all[i + 1..] {
                    assert!(
                        r.intersection(*s).area() == 0,
                        "{w}x{h}: {r:?} overlaps {s:?}"
                    );
                }
            }
        }
        assert!(panes(Rect::new(0, 0, 79, 24)).is_none());
        assert!(panes(Rect::new(0, 0, 80, 23)).is_none());
    }
}
