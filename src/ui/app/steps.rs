//! Moving through a game's plies, shared by the Quantum Chess and the variant apps: which
//! history entry is shown, and where a replay step lands.

use crate::game::PlyRecord;
use crate::ui::panes::circuit::CircuitView;

/// Which history entry's circuit (or trace) the side panes show, and how: the entry
/// picked (none: the last, followed as moves are made), the scroll, the view.
#[derive(Debug, Default)]
pub struct Focus {
    picked: Option<usize>,
    /// Columns, rows.
    scroll: (u16, u16),
    view: CircuitView,
}

impl Focus {
    /// The entry shown among `n`.
    pub fn shown(&self, n: usize) -> Option<usize> {
        shown(self.picked, n)
    }

    /// Follows the last entry again, scrolled back to the start.
    pub fn follow_last(&mut self) {
        self.picked = None;
        self.scroll = (0, 0);
    }

    /// Follows the last entry again, keeping the scroll.
    pub fn unpick(&mut self) {
        self.picked = None;
    }

    /// Shows the entry `step` entries from `cur` among `n`, scrolled to its start.
    pub fn pick(&mut self, cur: usize, step: i64, n: usize) {
        self.picked = repick(cur, step, n);
        self.scroll = (0, 0);
    }

    /// The scroll: columns, rows.
    pub fn scroll(&self) -> (u16, u16) {
        self.scroll
    }

    /// Scrolls by `dx` columns and `dy` rows within `extent` (columns, rows).
    pub fn scroll_by(&mut self, dx: i32, dy: i32, extent: (u16, u16)) {
        let clamp = |v: u16, by: i32, most: u16| (v as i32 + by).clamp(0, most as i32) as u16;
        self.scroll = (
            clamp(self.scroll.0, dx, extent.0),
            clamp(self.scroll.1, dy, extent.1),
        );
    }

    /// How the circuit is drawn.
    pub fn view(&self) -> CircuitView {
        self.view
    }

    /// Draws the circuit the next way; that way.
    pub fn next_view(&mut self) -> CircuitView {
        self.view = self.view.next();
        self.view
    }
}

/// The history entry shown among `n`: the picked one while it exists, else the last.
pub fn shown(picked: Option<usize>, n: usize) -> Option<usize> {
    match picked {
        Some(i) if i < n => Some(i),
        _ => n.checked_sub(1),
    }
}

/// The pick after moving `step` entries from the shown entry `cur` among `n`; `None`
/// when it lands on the last entry (which is then followed as moves are made).
pub fn repick(cur: usize, step: i64, n: usize) -> Option<usize> {
    let next = (cur as i64 + step).clamp(0, n as i64 - 1) as usize;
    (next + 1 < n).then_some(next)
}

/// The ply `by` plies from `ply` in a game of `n` plies (0 = the start), clamped.
pub fn ply_after(ply: usize, by: i64, n: usize) -> usize {
    (ply as i64).saturating_add(by).clamp(0, n as i64) as usize
}

/// What a ply did, on one line: who played what, then its explanation's headline.
pub fn ply_words(rec: &PlyRecord) -> String {
    played(rec, "")
}

/// What the computer's move from its opening book did: "black played d7d5 from its
/// opening book".
pub fn book_ply_words(rec: &PlyRecord) -> String {
    played(rec, " from its opening book")
}

/// "white played e2e4", `how` after the move, then what it did.
fn played(rec: &PlyRecord, how: &str) -> String {
    let who = rec.color.name();
    match rec.explanation.headline().as_str() {
        "" => format!("{who} played {}{how}", rec.text),
        said => format!("{who} played {}{how}: {said}", rec.text),
    }
}

/// What a replay step says: the ply shown and what the ply that reached it did (`book`:
/// the computer's move from its opening book).
pub fn ply_said(ply: usize, n: usize, last: Option<&PlyRecord>, book: bool) -> String {
    match last {
        Some(rec) if ply > 0 && book => format!("ply {ply} of {n}: {}", book_ply_words(rec)),
        Some(rec) if ply > 0 => format!("ply {ply} of {n}: {}", ply_words(rec)),
        _ => format!("start position (ply 0 of {n})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Explanation;

    #[test]
    fn picks_and_steps() {
        assert_eq!(shown(None, 0), None);
        assert_eq!(shown(None, 3), Some(2));
        assert_eq!(shown(Some(1), 3), Some(1));
        assert_eq!(shown(Some(5), 3), Some(2));
        assert_eq!(repick(2, -1, 3), Some(1));
        assert_eq!(repick(1, 1, 3), None);
        assert_eq!(repick(0, -4, 3), Some(0));
        assert_eq!(ply_after(2, -5, 4), 0);
        assert_eq!(ply_after(2, i64::MAX / 2, 4), 4);
        assert_eq!(ply_said(0, 4, None, false), "start position (ply 0 of 4)");
        let rec = PlyRecord {
            text: "e2e4".into(),
            color: crate::chess::Color::White,
            note: String::new(),
            trace: Vec::new(),
            explanation: Default::default(),
        };
        assert_eq!(
            ply_said(1, 4, Some(&rec), false),
            "ply 1 of 4: white played e2e4"
        );
        assert_eq!(
            ply_said(1, 4, Some(&rec), true),
            "ply 1 of 4: white played e2e4 from its opening book"
        );
        assert_eq!(
            book_ply_words(&rec),
            "white played e2e4 from its opening book"
        );
        let split = PlyRecord {
            text: "b1^a3c3".into(),
            explanation: Explanation::listed(
                "b1^a3c3",
                "the knight is now on a3 50%, c3 50%",
                &[],
                false,
                &[],
                &[],
            ),
            ..rec
        };
        assert_eq!(
            ply_said(1, 4, Some(&split), false),
            "ply 1 of 4: white played b1^a3c3: the knight is now on a3 50%, c3 50%"
        );
    }
}
