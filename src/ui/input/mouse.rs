//! The mouse: where the board and the panes were drawn (recorded while drawing, so that
//! hit-testing follows whatever layout, board size and orientation is on screen) and
//! what a mouse event there asks for. Both game screens share it.

use crate::chess::Square;
use crate::ui::input::Action;
use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};

/// Where a board's squares were drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardSpot {
    /// The screen cell at the top left of the top left square.
    pub origin: (u16, u16),
    /// Square size in cells (width, height).
    pub cell: (u16, u16),
    /// Black at the bottom (a1 top right).
    pub flipped: bool,
    /// The part of the screen the squares were drawn in; what lies outside was cut.
    pub clip: Rect,
}

impl BoardSpot {
    /// The square drawn at screen cell (`col`, `row`), if any.
    pub fn square_at(&self, col: u16, row: u16) -> Option<Square> {
        let (x0, y0) = self.origin;
        let (cw, ch) = self.cell;
        if !self.clip.contains(Position::new(col, row)) || col < x0 || row < y0 || cw == 0 {
            return None;
        }
        let (c, r) = ((col - x0) / cw, (row - y0) / ch.max(1));
        if c >= 8 || r >= 8 {
            return None;
        }
        let (file, rank) = if self.flipped { (7 - c, r) } else { (c, 7 - r) };
        Some(Square((rank * 8 + file) as u8))
    }

    /// A screen cell inside `sq` (its middle), for tests and tools that click it.
    pub fn cell_of(&self, sq: Square) -> (u16, u16) {
        let (file, rank) = (sq.file() as u16, sq.rank() as u16);
        let (c, r) = if self.flipped {
            (7 - file, rank)
        } else {
            (file, 7 - rank)
        };
        (
            self.origin.0 + c * self.cell.0 + self.cell.0 / 2,
            self.origin.1 + r * self.cell.1 + self.cell.1 / 2,
        )
    }
}

/// The history pane as drawn: its inner area and, per visible row, the move shown there.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HistorySpot {
    /// The rows of moves.
    pub area: Rect,
    /// For each row from the top, the index of its move (outcome lines count as their
    /// move's); `None` for empty rows.
    pub rows: Vec<Option<usize>>,
}

/// The screen as last drawn, for hit-testing: empty until the first draw and while the
/// terminal is too small.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hits {
    /// The board.
    pub board: Option<BoardSpot>,
    /// The history pane.
    pub history: Option<HistorySpot>,
    /// The circuit (or trace) pane.
    pub circuit: Option<Rect>,
    /// A replay's graph of the review.
    pub graph: Option<crate::ui::panes::review_pane::GraphSpot>,
}

/// What is under the pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spot {
    /// A board square.
    Square(Square),
    /// The history pane, on a move's row (or below the moves).
    History(Option<usize>),
    /// The circuit (or trace) pane.
    Circuit,
    /// The review's graph, on the column of this ply.
    Graph(usize),
    /// Anything else.
    Elsewhere,
}

impl Hits {
    /// What is drawn at (`col`, `row`).
    pub fn spot(&self, col: u16, row: u16) -> Spot {
        let at = Position::new(col, row);
        if let Some(sq) = self.board.and_then(|b| b.square_at(col, row)) {
            return Spot::Square(sq);
        }
        if let Some(h) = self.history.as_ref().filter(|h| h.area.contains(at)) {
            let i = (row - h.area.y) as usize;
            return Spot::History(h.rows.get(i).copied().flatten());
        }
        if self.circuit.is_some_and(|c| c.contains(at)) {
            return Spot::Circuit;
        }
        if let Some(ply) = self
            .graph
            .filter(|g| g.area.contains(at))
            .and_then(|g| g.ply_at(col))
        {
            return Spot::Graph(ply);
        }
        Spot::Elsewhere
    }
}

/// What a mouse event asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gesture {
    /// The left button went down here.
    Press(Spot),
    /// The left button came up here (after a drag, perhaps elsewhere).
    Release(Spot),
    /// The wheel turned here: -1 up, +1 down.
    Wheel(Spot, i8),
    /// The wheel was tilted here: -1 left, +1 right.
    Tilt(Spot, i8),
    /// The right button: cancel, as Esc.
    Cancel,
}

/// The gesture of a mouse event, over the screen recorded in `hits`; `None` for moves
/// and drags, which ask for nothing.
pub fn gesture(hits: &Hits, ev: MouseEvent) -> Option<Gesture> {
    let spot = hits.spot(ev.column, ev.row);
    Some(match ev.kind {
        MouseEventKind::Down(MouseButton::Left) => Gesture::Press(spot),
        MouseEventKind::Up(MouseButton::Left) => Gesture::Release(spot),
        MouseEventKind::Down(MouseButton::Right) => Gesture::Cancel,
        MouseEventKind::ScrollUp => Gesture::Wheel(spot, -1),
        MouseEventKind::ScrollDown => Gesture::Wheel(spot, 1),
        MouseEventKind::ScrollLeft => Gesture::Tilt(spot, -1),
        MouseEventKind::ScrollRight => Gesture::Tilt(spot, 1),
        _ => return None,
    })
}

/// What a game screen shows, as far as the mouse is concerned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OnScreen {
    /// The help is up (a click closes it).
    pub help: bool,
    /// The game-over popup is up (a click closes it).
    pub game_over: bool,
    /// A question is up (it takes keys only).
    pub question: bool,
    /// Stepping through a saved game.
    pub replay: bool,
    /// A piece is selected, with squares it may go to.
    pub targets: bool,
}

/// What the screen is asked to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// What a key would do.
    Action(Action),
    /// A click on a square.
    Square(Square),
    /// A click on a move in the history.
    Move(usize),
    /// A click on the review's graph: show this ply.
    Ply(usize),
}

/// The pointer of one game screen: remembers where the left button went down, so that
/// a drag from a piece to a target plays as two clicks do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pointer {
    pressed: Option<Square>,
}

impl Pointer {
    /// What `g` asks of a screen showing `shown`: a click closes the help or the
    /// game-over popup, a question takes no clicks, the right button cancels, the wheel
    /// picks moves over the history (plies in replay) and scrolls the circuit.
    pub fn act(&mut self, g: Gesture, shown: OnScreen) -> Option<Act> {
        let press = matches!(g, Gesture::Press(_) | Gesture::Cancel);
        if shown.help || shown.game_over {
            // A click on the help turns its page as a key does; the right button
            // closes it, as Esc does.
            let action = if shown.help && g != Gesture::Cancel {
                Action::Help
            } else {
                Action::Cancel
            };
            return press.then_some(Act::Action(action));
        }
        if shown.question {
            return None;
        }
        let pick = |d: i8, back, forth| Some(Act::Action(if d < 0 { back } else { forth }));
        match g {
            Gesture::Cancel => Some(Act::Action(Action::Cancel)),
            Gesture::Press(Spot::Square(sq)) => {
                self.pressed = Some(sq);
                Some(Act::Square(sq))
            }
            Gesture::Release(spot) => match (spot, self.pressed.take()) {
                (Spot::Square(sq), Some(from)) if from != sq && shown.targets => {
                    Some(Act::Square(sq))
                }
                _ => None,
            },
            Gesture::Press(Spot::History(Some(i))) => Some(Act::Move(i)),
            Gesture::Press(Spot::Graph(ply)) => Some(Act::Ply(ply)),
            Gesture::Wheel(Spot::Graph(_), d) => Some(Act::Action(Action::PlyStep(d.into()))),
            Gesture::Wheel(Spot::History(_), d) if shown.replay => {
                Some(Act::Action(Action::PlyStep(d.into())))
            }
            Gesture::Wheel(Spot::History(_), d) => {
                pick(d, Action::HistoryPrev, Action::HistoryNext)
            }
            Gesture::Wheel(Spot::Circuit, d) => pick(d, Action::CircuitUp, Action::CircuitDown),
            Gesture::Tilt(Spot::Circuit, d) => pick(d, Action::CircuitLeft, Action::CircuitRight),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_under_the_pointer() {
        let b = BoardSpot {
            origin: (3, 1),
            cell: (5, 1),
            flipped: false,
            clip: Rect::new(1, 1, 42, 9),
        };
        let sq = |s| Square::parse(s).unwrap();
        assert_eq!(b.square_at(3, 1), Some(sq("a8")));
        assert_eq!(b.square_at(7, 1), Some(sq("a8")));
        assert_eq!(b.square_at(8, 1), Some(sq("b8")));
        assert_eq!(b.square_at(42, 8), Some(sq("h1")));
        assert_eq!(b.square_at(2, 1), None, "rank label");
        assert_eq!(b.square_at(3, 9), None, "file labels");
        for s in ["a1", "e4", "h8", "c6"] {
            let (x, y) = b.cell_of(sq(s));
            assert_eq!(b.square_at(x, y), Some(sq(s)));
            let f = BoardSpot { flipped: true, ..b };
            let (x, y) = f.cell_of(sq(s));
            assert_eq!(f.square_at(x, y), Some(sq(s)));
        }
        let f = BoardSpot { flipped: true, ..b };
        assert_eq!(f.square_at(3, 1), Some(sq("h1")));
        // Cut by a small pane: nothing there.
        let cut = BoardSpot {
            clip: Rect::new(1, 1, 20, 4),
            ..b
        };
        assert_eq!(cut.square_at(30, 2), None);
        assert_eq!(cut.square_at(4, 7), None);
    }

    #[test]
    fn spots_and_gestures() {
        let hits = Hits {
            board: None,
            history: Some(HistorySpot {
                area: Rect::new(50, 10, 20, 4),
                rows: vec![Some(0), Some(1), Some(1)],
            }),
            circuit: Some(Rect::new(0, 12, 40, 8)),
            graph: Some(crate::ui::panes::review_pane::GraphSpot {
                area: Rect::new(50, 2, 20, 3),
                points: 5,
                columns: 20,
            }),
        };
        assert_eq!(hits.spot(55, 11), Spot::History(Some(1)));
        assert_eq!(hits.spot(50, 3), Spot::Graph(0));
        assert_eq!(hits.spot(69, 4), Spot::Graph(4));
        assert_eq!(hits.spot(55, 13), Spot::History(None));
        assert_eq!(hits.spot(5, 15), Spot::Circuit);
        assert_eq!(hits.spot(45, 5), Spot::Elsewhere);
        let ev = |kind| MouseEvent {
            kind,
            column: 55,
            row: 10,
            modifiers: crossterm::event::KeyModifiers::NONE,
        };
        assert_eq!(
            gesture(&hits, ev(MouseEventKind::ScrollDown)),
            Some(Gesture::Wheel(Spot::History(Some(0)), 1))
        );
        assert_eq!(
            gesture(&hits, ev(MouseEventKind::Down(MouseButton::Left))),
            Some(Gesture::Press(Spot::History(Some(0))))
        );
        assert_eq!(gesture(&hits, ev(MouseEventKind::Moved)), None);
        assert_eq!(
            gesture(&hits, ev(MouseEventKind::Down(MouseButton::Right))),
            Some(Gesture::Cancel)
        );
    }

    #[test]
    fn the_pointer_turns_gestures_into_acts() {
        let sq = |s| Square::parse(s).unwrap();
        let (g1, f3) = (Spot::Square(sq("g1")), Spot::Square(sq("f3")));
        let mut p = Pointer::default();
        let plain = OnScreen::default();
        assert_eq!(
            p.act(Gesture::Press(g1), plain),
            Some(Act::Square(sq("g1")))
        );
        // Released elsewhere with a piece selected: a drag, the target is picked.
        let picked = OnScreen {
            targets: true,
            ..plain
        };
        assert_eq!(
            p.act(Gesture::Release(f3), picked),
            Some(Act::Square(sq("f3")))
        );
        // Released where it went down: nothing more.
        p.act(Gesture::Press(f3), plain);
        assert_eq!(p.act(Gesture::Release(f3), picked), None);
        // Popups: a click turns the help's page (the right button closes it), a
        // question takes no clicks.
        let help = OnScreen {
            help: true,
            ..plain
        };
        assert_eq!(
            p.act(Gesture::Press(g1), help),
            Some(Act::Action(Action::Help))
        );
        assert_eq!(
            p.act(Gesture::Cancel, help),
            Some(Act::Action(Action::Cancel))
        );
        assert_eq!(p.act(Gesture::Wheel(Spot::Circuit, 1), help), None);
        let asked = OnScreen {
            question: true,
            ..plain
        };
        assert_eq!(p.act(Gesture::Press(g1), asked), None);
        let replay = OnScreen {
            replay: true,
            ..plain
        };
        assert_eq!(
            p.act(Gesture::Wheel(Spot::History(None), -1), replay),
            Some(Act::Action(Action::PlyStep(-1)))
        );
        assert_eq!(
            p.act(Gesture::Wheel(Spot::History(None), 1), plain),
            Some(Act::Action(Action::HistoryNext))
        );
    }
}
