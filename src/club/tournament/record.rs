//! A tournament as the club keeps it: what it is, who entered and the pairings made.

use super::{Entrant, Kind, Pairing};
use crate::club::{GameId, MemberId};
use crate::game::clock::TimeControl;
use std::fmt;

/// A tournament's number in the database.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TournamentId(pub i64);

/// How long a tournament runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Length {
    /// A Swiss's number of rounds.
    Rounds(u32),
    /// An arena's minutes.
    Minutes(u32),
}

/// Where a tournament is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Not started: players may enter.
    Scheduled,
    /// Being played.
    Running,
    /// Over: its standings are final.
    Finished,
    /// Called off before its end.
    Cancelled,
}

impl State {
    /// The word the database and the pages write.
    pub fn name(self) -> &'static str {
        match self {
            State::Scheduled => "scheduled",
            State::Running => "running",
            State::Finished => "finished",
            State::Cancelled => "cancelled",
        }
    }

    /// A stored word as a state.
    pub fn of(word: &str) -> Option<State> {
        [
            State::Scheduled,
            State::Running,
            State::Finished,
            State::Cancelled,
        ]
        .into_iter()
        .find(|s| s.name() == word)
    }

    /// Whether it is not over yet (scheduled or running).
    pub fn open(self) -> bool {
        matches!(self, State::Scheduled | State::Running)
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A tournament to be made.
#[derive(Clone, Debug, PartialEq)]
pub struct NewTournament {
    /// Its name, unique in the club whatever the case.
    pub name: String,
    /// Arena or Swiss.
    pub kind: Kind,
    /// Its games' time control.
    pub control: TimeControl,
    /// Rounds (a Swiss) or minutes (an arena).
    pub length: Length,
    /// When it starts, seconds since the Unix epoch.
    pub starts: i64,
    /// The member who made it; `None` for the server's operator.
    pub creator: Option<MemberId>,
}

/// A tournament of the club.
#[derive(Clone, Debug, PartialEq)]
pub struct Tournament {
    /// Its number.
    pub id: TournamentId,
    /// What it was made as.
    pub made: NewTournament,
    /// Where it is.
    pub state: State,
    /// Rounds paired so far (a Swiss), games paired so far (an arena).
    pub round: u32,
}

/// A player's entry in a tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The member.
    pub member: MemberId,
    /// Their name.
    pub name: String,
    /// Their rating in the tournament's category when they joined.
    pub rating: f64,
    /// When they joined, seconds since the Unix epoch.
    pub joined: i64,
    /// Whether they have withdrawn (and not come back).
    pub withdrawn: bool,
    /// Their points in units of two a win (see [`super::WIN`]), kept with each result.
    pub units: u32,
}

impl Entry {
    /// The entry as the rules see it.
    pub fn entrant(&self) -> Entrant {
        Entrant {
            member: self.member,
            rating: self.rating,
            present: !self.withdrawn,
        }
    }
}

/// A pairing as kept: the rules' pairing with its number and its game in the archive.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KeptPairing {
    /// Its number in the database.
    pub id: i64,
    /// The pairing.
    pub pairing: Pairing,
    /// Its game in the archive, once over.
    pub game: Option<GameId>,
}

/// A stored word or number of a tournament that does not read as what it should be.
#[derive(Debug, thiserror::Error)]
#[error("\"{word}\" does not read as a tournament's {what}")]
pub struct Unreadable {
    /// The column it is in, counted from 0 in the order of [`Columns`].
    pub column: usize,
    /// What is stored there.
    pub word: String,
    /// What it should be.
    pub what: &'static str,
}

/// A tournament's columns as both of the club's engines keep them, in their order.
#[derive(Clone, Debug)]
pub struct Columns {
    /// Its number.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// `arena` or `swiss`.
    pub kind: String,
    /// Its time control, as written.
    pub control: String,
    /// A Swiss's rounds.
    pub rounds: Option<i64>,
    /// An arena's minutes.
    pub minutes: Option<i64>,
    /// When it starts.
    pub starts: i64,
    /// The member who made it.
    pub creator: Option<i64>,
    /// Its state's word.
    pub state: String,
    /// Rounds (or games) paired so far.
    pub round: i64,
}

impl Columns {
    /// The tournament these columns keep.
    pub fn tournament(self) -> Result<Tournament, Unreadable> {
        let bad = |column, word: &str, what| Unreadable {
            column,
            word: word.to_string(),
            what,
        };
        let count =
            |column, n: i64, what| u32::try_from(n).map_err(|_| bad(column, &n.to_string(), what));
        let length = match (self.rounds, self.minutes) {
            (Some(r), _) => Length::Rounds(count(4, r, "rounds")?),
            (None, Some(m)) => Length::Minutes(count(5, m, "minutes")?),
            (None, None) => return Err(bad(4, "", "length")),
        };
        Ok(Tournament {
            id: TournamentId(self.id),
            made: NewTournament {
                kind: self.kind.parse().map_err(|_| bad(2, &self.kind, "kind"))?,
                control: self
                    .control
                    .parse()
                    .map_err(|_| bad(3, &self.control, "clock"))?,
                length,
                starts: self.starts,
                creator: self.creator.map(MemberId),
                name: self.name,
            },
            state: State::of(&self.state).ok_or_else(|| bad(8, &self.state, "state"))?,
            round: count(9, self.round, "round")?,
        })
    }
}

impl Length {
    /// The rounds and the minutes, as kept: one of them.
    pub fn columns(self) -> (Option<u32>, Option<u32>) {
        match self {
            Length::Rounds(r) => (Some(r), None),
            Length::Minutes(m) => (None, Some(m)),
        }
    }
}
