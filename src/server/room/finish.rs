//! A room's finished game goes to the club's archive, once: both seats, rated or
//! casual, the time control, result and reason, the saved game, start and end. A rated
//! game's rating changes are then told on both screens.

use super::saving::saved_game;
use super::seats::seat_name;
use super::{index, referee::status, wake_all, Kept, Room, RoomState};
use crate::chess::{Color, Status};
use crate::club::{FinishedGame, RatedSides, RatingChange, Seat};
use crate::server::club::Club;
use std::sync::Arc;

impl Room {
    /// The room's finished game is kept by `club` (set once, when the hub takes the
    /// room); a game that ended before it was kept is kept now.
    pub fn keep_in(&self, club: Arc<Club>) {
        if self.club.set(club).is_ok() {
            self.keep_finished();
        }
    }

    /// Writes the finished game to the club, unless it is there or being written: one
    /// transaction outside the room's lock; the room then saves that it is kept (so that
    /// a restart does not write it again) and tells the rating changes.
    pub(super) fn keep_finished(&self) {
        let Some(club) = self.club.get() else {
            return;
        };
        let game = {
            let mut st = self.lock();
            if st.kept != Kept::Not || status(&st) == Status::Ongoing {
                return;
            }
            st.kept = Kept::Writing;
            finished(&st)
        };
        let written = club.store().record_game(&game);
        {
            let mut st = self.lock();
            match written {
                Ok((_, sides)) => {
                    st.kept = Kept::Done;
                    if let Some(sides) = sides {
                        let words = changes(&game, &sides);
                        st.referee.say(words);
                    }
                }
                Err(e) => {
                    st.kept = Kept::Not;
                    eprintln!(
                        "qchess serve: room {}: the club did not keep the game: {e}",
                        self.name
                    );
                    st.referee
                        .say(format!("the club's archive could not keep this game: {e}"));
                }
            }
        }
        let _ = self.save();
        let mut st = self.lock();
        st.version += 1;
        wake_all(&st);
    }
}

/// The finished game of the room as the club keeps it. Rated when the room is and its
/// players can be: two different members on a clock.
fn finished(st: &RoomState) -> FinishedGame {
    let seat = |side: Color| {
        let person = st
            .computer
            .filter(|c| c.side == side)
            .map_or_else(|| st.seats[index(side)].person.as_ref(), |_| None);
        Seat {
            member: person.and_then(|p| p.member),
            name: seat_name(st, side).unwrap_or_else(|| side.name().to_string()),
        }
    };
    let (white, black) = (seat(Color::White), seat(Color::Black));
    let control = st.referee.control();
    let members = white.member.zip(black.member).is_some_and(|(w, b)| w != b);
    let saved = saved_game(st);
    FinishedGame {
        rated: st.rated && members && control.is_some(),
        white,
        black,
        control,
        result: status(st),
        reason: saved.reason.clone(),
        record: saved.to_toml(),
        started: st.started,
        ended: Club::now(),
    }
}

/// Both players' rating changes: "rated blitz: ann 1500 -> 1662 (+162), bo 1500 ->
/// 1338 (-162)".
fn changes(game: &FinishedGame, sides: &RatedSides) -> String {
    let change = |seat: &Seat, (before, after)| RatingChange {
        name: seat.name.clone(),
        before,
        after,
    };
    format!(
        "rated {}: {}, {}",
        sides.category,
        change(&game.white, sides.white),
        change(&game.black, sides.black)
    )
}
