//! A game that several screens share (a room of `qchess serve`). Each screen shows the
//! game and hands its moves to the table, which plays them, drawing any measurement
//! outcome once for everyone, and gives back the game after the move; the other screens
//! take the new game in with their `sync`. A screen at a table never draws an outcome,
//! takes a move back or writes a file. The table also keeps the clocks and decides how
//! a game ends outside its moves (a flag falls, a player resigns, a draw is agreed):
//! the screens send their decisions to it and show what it tells them ([`TableNews`]).

use super::clock::{Clock, Ending};
use super::Players;
use super::{CancelFlag, Move};
use crate::chess::Color;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Which side a screen at a table moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// This side.
    Plays(Color),
    /// Neither: the screen watches.
    Watches,
}

/// Where the moves of a shared game are played.
pub trait Table<G>: Send + Sync {
    /// Plays `mv` for `side` on the shared game, provided it still stands at `ply`
    /// plies. Runs on a worker thread and may take long; `cancel` stops it early. Gives
    /// the game after the move, or why the move was refused, in words for the player.
    fn play(&self, side: Color, ply: usize, mv: &Move, cancel: CancelFlag) -> Result<G, String>;
    /// Takes `decision` for `side` (resign, offer a draw, answer one), or says why it
    /// cannot be taken, in words for the player.
    fn decide(&self, side: Color, decision: Decision) -> Result<(), String>;
}

/// What a seat decides outside its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Resign the game.
    Resign,
    /// Offer the other side a draw.
    OfferDraw,
    /// Accept the draw the other side offers.
    AcceptDraw,
    /// Decline it: play on.
    DeclineDraw,
    /// Claim the win from an opponent who left a rated game: it is the claimant's
    /// unless they come back in time.
    ClaimWin,
}

/// What a table tells its screens beside the game: its clocks, how the game ended
/// outside its moves, and the draw offer that stands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableNews {
    /// The clocks, in a game on a time control (they run on the screen as at the
    /// table: the same start instant).
    pub clock: Option<Clock>,
    /// How the game ended outside its moves, when it did.
    pub ending: Option<Ending>,
    /// The side whose draw offer waits for an answer.
    pub offer: Option<Color>,
    /// The player who left a rated game that the other side may claim, while they are
    /// away.
    pub left: Option<Left>,
}

/// A player who left a rated game at the table: the other side may claim the win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Left {
    /// The side whose player left.
    pub side: Color,
    /// The longest a claim holds their seat for them (less when their clock has less).
    pub most: Duration,
    /// Until when their seat is held, once the other side claimed the win.
    pub claimed: Option<Instant>,
}

/// A screen's place at a table: the table and the screen's seat.
pub struct Place<G> {
    /// Where moves go.
    pub table: Arc<dyn Table<G>>,
    /// Which side this screen moves.
    pub seat: Seat,
}

impl<G> Clone for Place<G> {
    fn clone(&self) -> Self {
        Place {
            table: Arc::clone(&self.table),
            seat: self.seat,
        }
    }
}

impl<G> fmt::Debug for Place<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Place").field("seat", &self.seat).finish()
    }
}

impl<G> Place<G> {
    /// Why this screen may not move while `to_move` is to move (`players` name the
    /// seats), or `None` when it may.
    pub fn refusal(&self, to_move: Color, players: &Players) -> Option<String> {
        match self.seat {
            Seat::Plays(side) if side == to_move => None,
            Seat::Plays(side) => Some(format!(
                "{} to move ({}): you play {}",
                to_move.name(),
                name_of(players, to_move),
                side.name()
            )),
            Seat::Watches => Some(format!(
                "you are watching: {} plays white, {} black",
                players.white, players.black
            )),
        }
    }
}

/// The name of the player of `side`.
fn name_of(players: &Players, side: Color) -> &str {
    match side {
        Color::White => &players.white,
        Color::Black => &players.black,
    }
}

/// What `u` says at a table.
pub const NO_UNDO: &str = "moves cannot be taken back in a shared game";
/// What `w` says at a table.
pub const NO_SAVE: &str = "this game is saved on the server after every move";
/// What `n` says at a table.
pub const NO_NEW_GAME: &str = "a shared game is not restarted here: q leaves it";

#[cfg(test)]
mod tests {
    use super::*;

    struct Nowhere;
    impl Table<()> for Nowhere {
        fn play(&self, _: Color, _: usize, _: &Move, _: CancelFlag) -> Result<(), String> {
            Err("nowhere".into())
        }
        fn decide(&self, _: Color, _: Decision) -> Result<(), String> {
            Err("nowhere".into())
        }
    }

    #[test]
    fn only_the_seat_to_move_may_move() {
        let players = Players {
            white: "ann".into(),
            black: "bo".into(),
        };
        let place = |seat| Place {
            table: Arc::new(Nowhere) as Arc<dyn Table<()>>,
            seat,
        };
        let white = place(Seat::Plays(Color::White));
        assert_eq!(white.refusal(Color::White, &players), None);
        assert_eq!(
            white.refusal(Color::Black, &players).as_deref(),
            Some("black to move (bo): you play white")
        );
        let watcher = place(Seat::Watches);
        for side in [Color::White, Color::Black] {
            assert_eq!(
                watcher.refusal(side, &players).as_deref(),
                Some("you are watching: ann plays white, bo black")
            );
        }
    }
}
