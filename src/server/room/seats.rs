//! A room's seats: who holds white and black, who may take a seat, and the roster.

use super::{index, wake_all, Presence, Room, RoomState, Roster, SessionId, Wake};
use crate::chess::Color;
use crate::game::table::Seat;
use crate::record::{self, Players};
use crate::seats::Occupant;
use serde::{Deserialize, Serialize};

/// Someone as the server knows them: the login name and, when they signed in with a
/// key, its fingerprint.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Person {
    /// The sanitised login name.
    pub name: String,
    /// The SHA-256 fingerprint of the key they signed in with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The block of addresses they came from (`192.0.2.0/24`, `2001:db8::/64`): the
    /// rooms they open are counted by it, and without a key a dropped seat is given
    /// back to the name from there only. `None` in seats saved before it was kept (the
    /// name alone then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Their club account, when they signed in with a member's key (rated games are
    /// between two accounts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub member: Option<crate::club::MemberId>,
}

impl Person {
    /// Who this is for counting what they hold: the key when they came with one, else
    /// the name.
    pub fn identity(&self) -> &str {
        self.key.as_deref().unwrap_or(&self.name)
    }

    /// Whether `other` is this person again: the same name and, for someone who came
    /// with a key, the same key (a seat taken with a key is not given to the name
    /// alone). Two names are two players even with one key: one person with one SSH
    /// key may play both sides from two terminals, as the first two distinct names of
    /// a room take white and black.
    pub fn same(&self, other: &Person) -> bool {
        self.name == other.name
            && match (&self.key, &self.from) {
                (Some(k), _) => other.key.as_ref() == Some(k),
                (None, Some(from)) => other.key.is_some() || other.from.as_ref() == Some(from),
                (None, None) => true,
            }
    }
}

/// A seat: the player who holds it and the session they are connected with (none while
/// they are away). The computer's seat has neither: the room knows it as its
/// [`ComputerSeat`], and its moves reach the room through the same path as a player's.
#[derive(Clone, Debug, Default)]
pub(super) struct SeatHolder {
    pub(super) person: Option<Person>,
    pub(super) session: Option<SessionId>,
    /// When its player left (Unix seconds), while they are away.
    pub(super) away: Option<u64>,
}

/// Whose a seat is, for someone who wants it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Holder {
    /// Nobody's (never taken, or a name-only seat left longer than the grace time).
    Free,
    /// Theirs: connected from another session, or kept for them while away.
    Theirs {
        /// Held by a session that runs now.
        connected: bool,
    },
    /// Someone else's, or the computer's.
    Other,
}

/// What a session wants when it enters a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    /// Its own seat if it has one, else a free seat (white first), else to watch.
    Any,
    /// This side.
    Side(Color),
    /// To watch.
    Watch,
}

/// Why a session could not enter a room.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JoinError {
    /// The seat is someone else's.
    #[error("{side} is taken by {by}")]
    Taken {
        /// The side.
        side: &'static str,
        /// Its player.
        by: String,
    },
    /// The person already plays the other side here.
    #[error("you already play {0} in this room")]
    OtherSide(&'static str),
    /// The person's seat is in use by another of their connections.
    #[error("you play {0} in this room from another connection already")]
    Elsewhere(&'static str),
    /// The person opened as many rooms as one may.
    #[error("you have {0} rooms open already: finish or leave one first")]
    TooMany(usize),
}

impl Room {
    /// Whose seat `side` is for `person` at `now` (Unix seconds).
    pub(super) fn holder(&self, st: &RoomState, side: Color, person: &Person, now: u64) -> Holder {
        if st.computer.is_some_and(|c| c.side == side) {
            return Holder::Other;
        }
        let seat = &st.seats[index(side)];
        let Some(p) = &seat.person else {
            return Holder::Free;
        };
        let connected = seat.session.is_some();
        let lapsed = !connected
            && p.key.is_none()
            && seat
                .away
                .is_some_and(|t| now.saturating_sub(t) >= self.grace);
        if lapsed {
            Holder::Free
        } else if p.same(person) {
            Holder::Theirs { connected }
        } else {
            Holder::Other
        }
    }

    /// Seats `person` (session `session`) as `want` asks, or says why not; `wake` is
    /// called whenever the room changes. A seat in use by another connection is never
    /// taken: asked for by name it is refused, and `Want::Any` then watches. A dropped
    /// seat is kept for the same key always, and for the same name alone (no key) for
    /// the room's grace time; after that it is free.
    pub fn join(
        &self,
        session: SessionId,
        person: Person,
        want: Want,
        wake: Wake,
    ) -> Result<Seat, JoinError> {
        let mut st = self.lock();
        let now = record::now_secs();
        let was_away = super::claim::away(&st);
        let holders = [Color::White, Color::Black].map(|c| (c, self.holder(&st, c, &person, now)));
        let mine = holders.iter().find_map(|&(c, h)| match h {
            Holder::Theirs { connected } => Some((c, connected)),
            _ => None,
        });
        let free = |c: Color| holders[index(c)].1 == Holder::Free;
        let seat = match (want, mine) {
            (Want::Watch, _) => Seat::Watches,
            (Want::Any, Some((_, true))) => Seat::Watches,
            (Want::Any, Some((c, false))) => Seat::Plays(c),
            (Want::Side(c), Some((m, true))) if c == m => {
                return Err(JoinError::Elsewhere(c.name()))
            }
            (Want::Side(c), Some((m, _))) if c == m => Seat::Plays(c),
            (Want::Side(_), Some((m, _))) => return Err(JoinError::OtherSide(m.name())),
            (Want::Side(c), None) if free(c) => Seat::Plays(c),
            (Want::Side(c), None) => {
                let by = seat_name(&st, c).unwrap_or_default();
                return Err(JoinError::Taken { side: c.name(), by });
            }
            (Want::Any, None) if free(Color::White) => Seat::Plays(Color::White),
            (Want::Any, None) if free(Color::Black) => Seat::Plays(Color::Black),
            (Want::Any, None) => Seat::Watches,
        };
        let took = if let Seat::Plays(c) = seat {
            let holder = &mut st.seats[index(c)];
            let new = !holder.person.as_ref().is_some_and(|p| p.same(&person));
            if new {
                holder.person = Some(person);
            }
            holder.session = Some(session);
            holder.away = None;
            st.last_player = now;
            super::claim::back(&mut st, c, was_away);
            new
        } else {
            false
        };
        st.present.insert(session, Presence { seat, wake });
        // Both seats taken: the clock of the side to move starts.
        super::run_clock(&mut st, std::time::Instant::now());
        st.version += 1;
        drop(st);
        if took {
            // A seat newly held is on disk before anyone sees it.
            let _ = self.save();
        }
        wake_all(&self.lock());
        Ok(seat)
    }

    /// Holds `side` for `person` before they come in (a room made by pairing): the seat
    /// is theirs, away until they enter.
    pub fn reserve(&self, side: Color, person: Person) {
        {
            let mut st = self.lock();
            let holder = &mut st.seats[index(side)];
            holder.person = Some(person);
            holder.away = Some(record::now_secs());
            st.version += 1;
        }
        let _ = self.save();
    }

    /// The session leaves (or its connection dropped): its seat stays its player's.
    pub fn leave(&self, session: SessionId) {
        let mut st = self.lock();
        if st.present.remove(&session).is_none() {
            return;
        }
        let now = record::now_secs();
        let mut player = None;
        for (holder, side) in st.seats.iter_mut().zip([Color::White, Color::Black]) {
            if holder.session == Some(session) {
                holder.session = None;
                holder.away = Some(now);
                player = Some(side);
            }
        }
        if let Some(side) = player {
            st.last_player = now;
            super::claim::left_seat(&mut st, side);
        }
        st.version += 1;
        wake_all(&st);
    }
}

/// Who holds `side`: its player or the computer.
fn occupant(st: &RoomState, side: Color) -> Option<Occupant> {
    match st.computer {
        Some(c) if c.side == side => Some(c.occupant()),
        _ => st.seats[index(side)]
            .person
            .as_ref()
            .map(|p| Occupant::Person(p.name.clone())),
    }
}

/// The name of who holds `side`.
pub(super) fn seat_name(st: &RoomState, side: Color) -> Option<String> {
    occupant(st, side).map(|o| o.name())
}

/// The seats' names, for the panes ("White" and "Black" while a seat is free).
pub(super) fn players(st: &RoomState) -> Players {
    Players {
        white: seat_name(st, Color::White).unwrap_or_else(|| "White".into()),
        black: seat_name(st, Color::Black).unwrap_or_else(|| "Black".into()),
    }
}

pub(super) fn roster(st: &RoomState) -> Roster {
    // The computer is always there.
    let seat = |side: Color| {
        let here =
            st.seats[index(side)].session.is_some() || st.computer.is_some_and(|c| c.side == side);
        occupant(st, side).map(|who| (who, here))
    };
    Roster {
        white: seat(Color::White),
        black: seat(Color::Black),
        thinking: st.computer.filter(|_| st.thinking).map(|c| c.side),
        watching: st
            .present
            .values()
            .filter(|p| p.seat == Seat::Watches)
            .count(),
    }
}
