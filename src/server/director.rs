//! The tournament director's decisions, pure: what a tournament is to do next, given
//! what the club keeps of it, the members waiting for a game and the time. A scheduled
//! tournament starts when its time comes; a Swiss pairs its next round once every game
//! of the round is over, and finishes after its rounds (or when no round can be
//! paired); an arena pairs its free waiting players at once until its minutes are
//! over, then finishes (the games under way finish and count). The hub carries the
//! steps out (`hub/tournaments.rs`). Also what a tournament's page shows of it.

use crate::club::tournament::arena::pair_waiting;
use crate::club::tournament::record::{Entry, KeptPairing, Length, State, Tournament};
use crate::club::tournament::standings::{standings, Standing};
use crate::club::tournament::swiss::pair_round;
use crate::club::tournament::{Board, Entrant, Kind, Pairing};
use crate::club::{ClubError, ClubStore, MemberId};

/// What a tournament is to do now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Nothing yet.
    Wait,
    /// Its start time has come: it runs.
    Start,
    /// These games are to be paired (a Swiss's round, an arena's free players), as
    /// pairing number `round`.
    Pair {
        /// The round (a Swiss) or the order of the pairing (an arena).
        round: u32,
        /// The games.
        boards: Vec<Board>,
        /// A Swiss's bye.
        bye: Option<MemberId>,
    },
    /// It is over.
    Finish,
}

/// When an arena stops pairing, seconds since the Unix epoch.
pub fn arena_end(t: &Tournament) -> Option<i64> {
    match t.made.length {
        Length::Minutes(m) => Some(t.made.starts + i64::from(m) * 60),
        Length::Rounds(_) => None,
    }
}

/// What `t` is to do at `now` (seconds since the Unix epoch), with its `entries` and
/// `pairings` as kept and the members `waiting` for a game on its page.
pub fn next(
    t: &Tournament,
    entries: &[Entry],
    pairings: &[KeptPairing],
    waiting: &[MemberId],
    now: i64,
) -> Step {
    match t.state {
        State::Finished | State::Cancelled => return Step::Wait,
        State::Scheduled if now >= t.made.starts => return Step::Start,
        State::Scheduled => return Step::Wait,
        State::Running => {}
    }
    let entrants: Vec<Entrant> = entries.iter().map(Entry::entrant).collect();
    let games: Vec<Pairing> = pairings.iter().map(|k| k.pairing).collect();
    match (t.made.kind, t.made.length) {
        (Kind::Swiss, Length::Rounds(rounds)) => {
            if !games.iter().all(Pairing::over) {
                return Step::Wait;
            }
            if t.round >= rounds {
                return Step::Finish;
            }
            match pair_round(&entrants, &games) {
                Ok(r) => Step::Pair {
                    round: t.round + 1,
                    boards: r.boards,
                    bye: r.bye,
                },
                Err(_) => Step::Finish,
            }
        }
        _ => {
            if arena_end(t).is_some_and(|end| now >= end) {
                return Step::Finish;
            }
            // A player whose game goes on is not free, wherever their screen is.
            let free: Vec<MemberId> = waiting
                .iter()
                .copied()
                .filter(|&m| !games.iter().any(|g| g.has(m) && !g.over()))
                .collect();
            let boards = pair_waiting(&entrants, &games, &free);
            if boards.is_empty() {
                Step::Wait
            } else {
                Step::Pair {
                    round: t.round + 1,
                    boards,
                    bye: None,
                }
            }
        }
    }
}

/// What a tournament's page shows: the tournament, its standings and its pairings.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentView {
    /// The tournament.
    pub tournament: Tournament,
    /// Its entries, in the order they joined.
    pub entries: Vec<Entry>,
    /// Its standings, first place first.
    pub standings: Vec<Standing>,
    /// Its pairings, in the order they were made.
    pub pairings: Vec<KeptPairing>,
}

impl TournamentView {
    /// `tournament` as its page shows it, its entries and pairings read from `store`.
    pub fn load(
        store: &dyn ClubStore,
        tournament: Tournament,
    ) -> Result<TournamentView, ClubError> {
        let entries = store.entries(tournament.id)?;
        let pairings = store.pairings(tournament.id)?;
        let entrants: Vec<Entrant> = entries.iter().map(Entry::entrant).collect();
        let games: Vec<Pairing> = pairings.iter().map(|k| k.pairing).collect();
        Ok(TournamentView {
            standings: standings(tournament.made.kind, &entrants, &games),
            tournament,
            entries,
            pairings,
        })
    }

    /// The name of `member` as entered.
    pub fn name_of(&self, member: MemberId) -> &str {
        self.entries
            .iter()
            .find(|e| e.member == member)
            .map_or("?", |e| e.name.as_str())
    }

    /// `member`'s place in the standings, from 1.
    pub fn place_of(&self, member: MemberId) -> Option<usize> {
        self.standings
            .iter()
            .position(|s| s.member == member)
            .map(|i| i + 1)
    }

    /// The games of the last round paired (a Swiss), or those under way (an arena).
    pub fn current(&self) -> Vec<Pairing> {
        let t = &self.tournament;
        self.pairings
            .iter()
            .map(|k| k.pairing)
            .filter(|p| match t.made.kind {
                Kind::Swiss => p.round == t.round,
                Kind::Arena => !p.over(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Status;
    use crate::club::tournament::record::{NewTournament, TournamentId};

    fn tournament(kind: Kind, length: Length, state: State, round: u32) -> Tournament {
        Tournament {
            id: TournamentId(1),
            made: NewTournament {
                name: "t".into(),
                kind,
                control: "3+2".parse().unwrap(),
                length,
                starts: 1000,
                creator: None,
            },
            state,
            round,
        }
    }

    fn entry(m: i64, rating: f64) -> Entry {
        Entry {
            member: MemberId(m),
            name: format!("p{m}"),
            rating,
            joined: 900,
            withdrawn: false,
            units: 0,
        }
    }

    fn kept(
        id: i64,
        round: u32,
        white: i64,
        black: Option<i64>,
        result: Option<Status>,
    ) -> KeptPairing {
        KeptPairing {
            id,
            pairing: Pairing {
                round,
                white: MemberId(white),
                black: black.map(MemberId),
                result,
            },
            game: None,
        }
    }

    #[test]
    fn a_tournament_starts_at_its_time_and_not_before() {
        let t = tournament(Kind::Swiss, Length::Rounds(3), State::Scheduled, 0);
        assert_eq!(next(&t, &[], &[], &[], 999), Step::Wait);
        assert_eq!(next(&t, &[], &[], &[], 1000), Step::Start);
        let over = tournament(Kind::Arena, Length::Minutes(5), State::Finished, 4);
        assert_eq!(next(&over, &[], &[], &[], 5000), Step::Wait);
    }

    #[test]
    fn a_swiss_pairs_a_round_once_the_last_is_over_and_finishes_after_its_rounds() {
        let entries: Vec<Entry> = (1..=3).map(|m| entry(m, 1500.0 + m as f64)).collect();
        let t = tournament(Kind::Swiss, Length::Rounds(2), State::Running, 0);
        let Step::Pair { round, boards, bye } = next(&t, &entries, &[], &[], 1000) else {
            panic!("round 1 is paired");
        };
        assert_eq!((round, boards.len()), (1, 1));
        assert_eq!(bye, Some(MemberId(1)), "the lowest rated has the bye");
        let t = tournament(Kind::Swiss, Length::Rounds(2), State::Running, 1);
        let mut games = vec![kept(1, 1, 3, Some(2), None), kept(2, 1, 1, None, None)];
        assert_eq!(
            next(&t, &entries, &games, &[], 1000),
            Step::Wait,
            "a game goes on"
        );
        games[0].pairing.result = Some(Status::Draw);
        let Step::Pair { round, bye, .. } = next(&t, &entries, &games, &[], 1000) else {
            panic!("round 2 is paired");
        };
        assert_eq!(round, 2);
        assert_ne!(
            bye,
            Some(MemberId(1)),
            "one bye each while others have none"
        );
        let t = tournament(Kind::Swiss, Length::Rounds(2), State::Running, 2);
        assert_eq!(next(&t, &entries, &games, &[], 1000), Step::Finish);
        // Nobody left to pair: it finishes.
        let alone = [entry(1, 1500.0)];
        let t = tournament(Kind::Swiss, Length::Rounds(5), State::Running, 0);
        assert_eq!(next(&t, &alone, &[], &[], 1000), Step::Finish);
    }

    #[test]
    fn an_arena_pairs_its_free_waiting_players_until_its_minutes_are_over() {
        let entries: Vec<Entry> = (1..=5).map(|m| entry(m, 1500.0)).collect();
        let t = tournament(Kind::Arena, Length::Minutes(2), State::Running, 1);
        let games = [kept(1, 1, 1, Some(2), None)];
        let waiting = [MemberId(1), MemberId(3), MemberId(4), MemberId(5)];
        let Step::Pair { round, boards, bye } = next(&t, &entries, &games, &waiting, 1010) else {
            panic!("the free are paired");
        };
        assert_eq!((round, bye), (2, None));
        assert_eq!(boards.len(), 1, "3, 4 and 5 are free; 1 still plays");
        assert!(boards.iter().all(|b| !b.has(MemberId(1))));
        assert_eq!(next(&t, &entries, &games, &[MemberId(3)], 1010), Step::Wait);
        assert_eq!(next(&t, &entries, &games, &waiting, 1120), Step::Finish);
        assert_eq!(arena_end(&t), Some(1120));
    }
}
