//! Tournaments' rules, pure: who plays whom in a Swiss round ([`swiss`]) or when an
//! arena's players free up ([`arena`]), how colours are given ([`colours`]) and the
//! standings with their tie-breaks ([`standings`]). No database, no clock of the wall and
//! no SSH in here: the storage and the server hand in the entrants and the games so far.

pub mod arena;
pub mod colours;
pub mod record;
pub mod standings;
pub mod swiss;

use super::MemberId;
use crate::chess::Status;
use std::fmt;

/// Points are counted in units of two a win, one a draw and none a loss for both kinds: an
/// arena's points, and a Swiss's half points (a Swiss shows them halved).
pub const WIN: u32 = 2;

/// The units of a draw (see [`WIN`]).
pub const DRAW: u32 = 1;

/// Which rules a tournament follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A fixed duration; a player who finishes a game is paired again at once.
    Arena,
    /// A fixed number of rounds, each paired when the previous one is over.
    Swiss,
}

impl Kind {
    /// `arena` or `swiss`, as the command line and the database write it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Arena => "arena",
            Kind::Swiss => "swiss",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A word that names no kind of tournament.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("\"{0}\" is not a kind of tournament: say arena or swiss")]
pub struct BadKind(pub String);

impl std::str::FromStr for Kind {
    type Err = BadKind;
    fn from_str(s: &str) -> Result<Kind, BadKind> {
        match s.trim().to_ascii_lowercase().as_str() {
            "arena" => Ok(Kind::Arena),
            "swiss" => Ok(Kind::Swiss),
            _ => Err(BadKind(s.to_string())),
        }
    }
}

/// A player in a tournament as the rules see them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entrant {
    /// The member.
    pub member: MemberId,
    /// Their rating in the tournament's category when they joined: the first order of a
    /// Swiss and the opponents' strength in an arena's performance.
    pub rating: f64,
    /// Whether they take part now (false once withdrawn, true again when back).
    pub present: bool,
}

/// One game of a tournament, or a bye (no black).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// The round (a Swiss), or the order it was paired in (an arena), from 1.
    pub round: u32,
    /// White, or the player given the bye.
    pub white: MemberId,
    /// Black; `None` for a bye.
    pub black: Option<MemberId>,
    /// How it ended; `None` while it is played (a bye has none).
    pub result: Option<Status>,
}

impl Pairing {
    /// Whether `member` sits at it.
    pub fn has(&self, member: MemberId) -> bool {
        self.white == member || self.black == Some(member)
    }

    /// The other player of `member`'s game (none for a bye).
    pub fn opponent(&self, member: MemberId) -> Option<MemberId> {
        let black = self.black?;
        if self.white == member {
            Some(black)
        } else if black == member {
            Some(self.white)
        } else {
            None
        }
    }

    /// The units `member` scored in it (see [`WIN`]): a bye counts as a win, a game not
    /// over yet as nothing, and nothing to a player who is not at it.
    pub fn units(&self, member: MemberId) -> u32 {
        if !self.has(member) {
            return 0;
        }
        let Some(black) = self.black else {
            return if self.white == member { WIN } else { 0 };
        };
        match self.result {
            Some(Status::Draw) => DRAW,
            Some(Status::WhiteWins) if self.white == member => WIN,
            Some(Status::BlackWins) if black == member => WIN,
            _ => 0,
        }
    }

    /// Whether it is over: a bye, or a game with its result.
    pub fn over(&self) -> bool {
        self.black.is_none() || self.result.is_some_and(|r| r != Status::Ongoing)
    }
}

/// A game to be opened: white and black.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// White.
    pub white: MemberId,
    /// Black.
    pub black: MemberId,
}

impl Board {
    /// Whether `member` plays at it.
    pub fn has(&self, member: MemberId) -> bool {
        self.white == member || self.black == member
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pairing_scores_its_players_only() {
        let (a, b, c) = (MemberId(1), MemberId(2), MemberId(3));
        let game = |result| Pairing {
            round: 1,
            white: a,
            black: Some(b),
            result,
        };
        assert_eq!(game(Some(Status::Draw)).units(a), DRAW);
        assert_eq!(game(Some(Status::Draw)).units(c), 0);
        assert_eq!(game(Some(Status::BlackWins)).units(b), WIN);
        assert_eq!(game(Some(Status::BlackWins)).units(a), 0);
        assert_eq!(game(None).units(a), 0);
        assert!(!game(None).over() && game(Some(Status::WhiteWins)).over());
        let bye = Pairing {
            round: 1,
            white: c,
            black: None,
            result: None,
        };
        assert!(bye.over());
        assert_eq!(
            (bye.units(c), bye.units(a), bye.opponent(c)),
            (WIN, 0, None)
        );
        assert_eq!("Swiss".parse::<Kind>(), Ok(Kind::Swiss));
        assert!("round robin"
            .parse::<Kind>()
            .unwrap_err()
            .to_string()
            .contains("arena or swiss"));
    }
}
