//! The club's tournaments as the hub runs them: members joining and leaving a
//! tournament's page, the director's steps carried out (`server::director` decides
//! them) with a room opened for every game paired, and what a tournament's page shows.

use super::{lock, Hub, Plan};
use crate::chess::Color;
use crate::club::tournament::record::{KeptPairing, State, Tournament, TournamentId};
use crate::club::tournament::swiss;
use crate::club::tournament::Kind;
use crate::club::{Category, ClubError, MemberId};
use crate::game::RuleSet;
use crate::server::club::Club;
use crate::server::director::{self, Step, TournamentView};
use crate::server::names;
use crate::server::public::PublicAddress;
use crate::server::room::{Person, Room, SessionId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Why a player may not join a tournament.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// The server keeps no club.
    #[error("this server keeps no club, so it runs no tournaments")]
    NoClub,
    /// A guest asked.
    #[error("tournaments are for club members: connect with an SSH key under a free name (ssh -t NAME@host) and you join the club at once")]
    Guest,
    /// No tournament of that name.
    #[error("no tournament named \"{0}\" in the club (the lobby's tournaments page lists them)")]
    Unknown(String),
    /// It is over.
    #[error("{0} is {1}: it takes no more players")]
    Over(String, State),
    /// A Swiss whose second round is paired takes no newcomers.
    #[error("{0} has paired its round {round}: a Swiss takes new players until its round 2 is paired", round = .1)]
    TooLate(String, u32),
    /// The club's database failed.
    #[error("the club's database failed: {0}")]
    Club(#[from] ClubError),
}

/// The name of the room of pairing `pairing` of tournament `t` (a name taken already
/// gets an `x` more).
pub fn board_room(t: TournamentId, pairing: i64) -> String {
    format!("t{}-{pairing}", t.0)
}

/// A session on a tournament's page, or in one of its games.
#[derive(Clone, Debug)]
struct Entered {
    tournament: TournamentId,
    person: Person,
    /// On the page (free for a game), not in a room.
    on_page: bool,
}

/// The hub's tournaments: who is in them from which session, the rooms of their games,
/// and the rooms waiting for a session to enter them.
#[derive(Default)]
pub(super) struct Desk {
    state: Mutex<DeskState>,
    /// Held while the director takes one look: two looks never pair the same players.
    looking: Mutex<()>,
}

#[derive(Default)]
struct DeskState {
    sessions: HashMap<SessionId, Entered>,
    /// The rooms of the games under way, by pairing.
    boards: HashMap<i64, Arc<Room>>,
    /// The room each session paired is to enter, once.
    paired: HashMap<SessionId, Arc<Room>>,
}

impl Hub {
    /// Session `id` of `person` joins the tournament `name` (or comes back to it) and
    /// waits on its page; an arena pairs them at once when it can.
    pub fn join_tournament(
        &self,
        id: SessionId,
        person: &Person,
        name: &str,
    ) -> Result<Tournament, TournamentError> {
        let club = self.club.as_ref().ok_or(TournamentError::NoClub)?;
        let member = person.member.ok_or(TournamentError::Guest)?;
        let t = {
            let mut store = club.store();
            let t = store
                .tournament(name)?
                .ok_or_else(|| TournamentError::Unknown(name.to_string()))?;
            let name = t.made.name.clone();
            if !t.state.open() {
                return Err(TournamentError::Over(name, t.state));
            }
            let entered = store.entries(t.id)?.iter().any(|e| e.member == member);
            let late = t.made.kind == Kind::Swiss && !swiss::may_join(t.round);
            if late && !entered {
                return Err(TournamentError::TooLate(name, t.round));
            }
            let rating = store.rating(member, Category::of(t.made.control))?;
            store.enter(t.id, member, rating.rating, Club::now())?;
            t
        };
        {
            let mut desk = lock(&self.desk.state);
            desk.sessions.insert(
                id,
                Entered {
                    tournament: t.id,
                    person: person.clone(),
                    on_page: true,
                },
            );
            // Back while their game goes on: into its room.
            let theirs = self.own_board(&desk, t.id, member, club);
            if let Some(room) = theirs {
                desk.paired.insert(id, room);
            }
        }
        self.direct_one(t.id);
        Ok(t)
    }

    /// The open room of `member`'s game under way in tournament `t`.
    fn own_board(
        &self,
        desk: &DeskState,
        t: TournamentId,
        member: MemberId,
        club: &Club,
    ) -> Option<Arc<Room>> {
        let pairings = club.store().pairings(t).ok()?;
        let under_way: Vec<i64> = pairings
            .iter()
            .filter(|k| k.pairing.has(member) && !k.pairing.over())
            .map(|k| k.id)
            .collect();
        let paired_here = under_way
            .iter()
            .find_map(|id| desk.boards.get(id).filter(|r| !r.is_closed()).cloned());
        // A room this server brought back after a restart is not on the desk yet.
        paired_here.or_else(|| {
            let rooms: Vec<Arc<Room>> = lock(&self.rooms).values().cloned().collect();
            rooms
                .into_iter()
                .find(|r| !r.is_closed() && r.pairing().is_some_and(|p| under_way.contains(&p)))
        })
    }

    /// Session `id` is back on its tournament's page (from a game): free for the next,
    /// or into the room of a game paired meanwhile.
    pub fn tournament_page(&self, id: SessionId) {
        let Some(club) = &self.club else {
            return;
        };
        let t = {
            let mut desk = lock(&self.desk.state);
            let Some(e) = desk.sessions.get_mut(&id) else {
                return;
            };
            e.on_page = true;
            let (t, member) = (e.tournament, e.person.member);
            let theirs = member.and_then(|m| self.own_board(&desk, t, m, club));
            if let Some(room) = theirs {
                desk.paired.insert(id, room);
            }
            t
        };
        self.direct_one(t);
    }

    /// The tournament session `id` is in, if any.
    pub fn tournament_of(&self, id: SessionId) -> Option<TournamentId> {
        lock(&self.desk.state)
            .sessions
            .get(&id)
            .map(|e| e.tournament)
    }

    /// Session `id` left its tournament's page or ended: its player is withdrawn (not
    /// paired until they join again); a game of theirs under way goes on.
    pub fn leave_tournament(&self, id: SessionId) {
        let left = {
            let mut desk = lock(&self.desk.state);
            desk.paired.remove(&id);
            desk.sessions.remove(&id)
        };
        let (Some(e), Some(club)) = (left, &self.club) else {
            return;
        };
        let Some(member) = e.person.member else {
            return;
        };
        // Another session of theirs on the page keeps them in.
        let elsewhere = lock(&self.desk.state)
            .sessions
            .values()
            .any(|o| o.tournament == e.tournament && o.person.member == Some(member));
        if !elsewhere {
            if let Err(err) = club.store().withdraw(e.tournament, member) {
                eprintln!("qchess serve: cannot withdraw {}: {err}", e.person.name);
            }
        }
    }

    /// The room session `id` was paired into by its tournament, once.
    pub fn tournament_paired(&self, id: SessionId) -> Option<Arc<Room>> {
        let mut desk = lock(&self.desk.state);
        let room = desk.paired.remove(&id)?;
        if let Some(e) = desk.sessions.get_mut(&id) {
            e.on_page = false;
        }
        Some(room)
    }

    /// What the page of tournament `id` shows now.
    pub fn tournament_view(&self, id: TournamentId) -> Option<TournamentView> {
        let club = self.club.as_ref()?;
        let store = club.store();
        let tournament = store.tournaments().ok()?.into_iter().find(|t| t.id == id)?;
        TournamentView::load(&**store, tournament).ok()
    }

    /// The game of `member` under way in the tournament `view` shows when its room is
    /// open on another server of the club, not this one: its round and where that
    /// server is.
    pub fn game_elsewhere(
        &self,
        view: &TournamentView,
        member: MemberId,
    ) -> Option<(u32, PublicAddress)> {
        view.pairings
            .iter()
            .filter(|k| k.pairing.has(member) && k.pairing.black.is_some() && !k.pairing.over())
            .find_map(|k| {
                let there = self.room_elsewhere(&board_room(view.tournament.id, k.id))?;
                Some((k.pairing.round, there.address))
            })
    }

    /// The director looks at every open tournament once: starts, pairs, finishes.
    pub fn direct(&self) {
        let Some(club) = &self.club else {
            return;
        };
        let open = match club.store().tournaments() {
            Ok(all) => all.into_iter().filter(|t| t.state.open()).collect(),
            Err(e) => {
                eprintln!("qchess serve: the tournaments could not be read: {e}");
                Vec::new()
            }
        };
        for t in open {
            self.direct_one(t.id);
        }
    }

    /// The director's look at tournament `id`: its steps carried out until it waits.
    fn direct_one(&self, id: TournamentId) {
        let Some(club) = self.club.clone() else {
            return;
        };
        let _looking = lock(&self.desk.looking);
        // A start and a first pairing, or a pairing and a finish, in one look.
        for _ in 0..3 {
            let step = match self.next_step(&club, id) {
                Ok(step) => step,
                Err(e) => return eprintln!("qchess serve: tournament {}: {e}", id.0),
            };
            let done = match step {
                Step::Wait => return,
                Step::Start => club.store().set_tournament_state(id, State::Running),
                Step::Finish => {
                    let _ = club.store().set_tournament_state(id, State::Finished);
                    return;
                }
                Step::Pair { round, boards, bye } => {
                    let kept = club.store().pair(id, round, &boards, bye);
                    kept.map(|kept| {
                        for k in kept.iter().filter(|k| k.pairing.black.is_some()) {
                            self.open_board(&club, id, k);
                        }
                        true
                    })
                }
            };
            match done {
                Ok(_) => {}
                // Another server of the club paired it: its rooms are there; look again
                // next time.
                Err(ClubError::PairedElsewhere { .. }) => return,
                Err(e) => return eprintln!("qchess serve: tournament {}: {e}", id.0),
            }
        }
    }

    /// What tournament `id` is to do now.
    fn next_step(&self, club: &Club, id: TournamentId) -> Result<Step, ClubError> {
        let waiting: Vec<MemberId> = lock(&self.desk.state)
            .sessions
            .values()
            .filter(|e| e.tournament == id && e.on_page)
            .filter_map(|e| e.person.member)
            .collect();
        let store = club.store();
        let Some(t) = store.tournaments()?.into_iter().find(|t| t.id == id) else {
            return Ok(Step::Wait);
        };
        let entries = store.entries(id)?;
        let pairings = store.pairings(id)?;
        drop(store);
        Ok(director::next(
            &t,
            &entries,
            &pairings,
            &waiting,
            Club::now(),
        ))
    }

    /// Opens the room of pairing `k` of tournament `id`: rated, on the tournament's
    /// clock, both seats held for their players, a side that makes no first move within
    /// the claim's wait losing the game; the players' sessions on the page go in.
    fn open_board(&self, club: &Club, id: TournamentId, k: &KeptPairing) {
        let Some(black) = k.pairing.black else {
            return;
        };
        let found = {
            let store = club.store();
            let t = store
                .tournaments()
                .map(|all| all.into_iter().find(|t| t.id == id));
            (store.entries(id), t)
        };
        let (Ok(entries), Ok(Some(t))) = found else {
            return;
        };
        let person = |m: MemberId| {
            let desk = lock(&self.desk.state);
            let seen = desk
                .sessions
                .values()
                .find(|e| e.person.member == Some(m))
                .map(|e| e.person.clone());
            seen.unwrap_or_else(|| Person {
                name: entries
                    .iter()
                    .find(|e| e.member == m)
                    .map_or_else(|| format!("member-{}", m.0), |e| e.name.clone()),
                key: None,
                from: None,
                member: Some(m),
            })
        };
        let (white, black) = (person(k.pairing.white), person(black));
        let plan = Plan {
            rules: RuleSet::Quantum,
            backend: self.limits.simulator.backend,
            computer: None,
            clock: Some(t.made.control),
            rated: true,
        };
        let mut rooms = lock(&self.rooms);
        let mut name = board_room(id, k.id);
        while rooms.contains_key(&names::room_key(&name)) {
            name.push('x');
        }
        let room = match self.build(&mut rooms, &name, &white, plan) {
            Ok(room) => room,
            Err(e) => {
                drop(rooms);
                return eprintln!(
                    "qchess serve: tournament {}: no room for {} - {}: {e}",
                    t.made.name, white.name, black.name
                );
            }
        };
        drop(rooms);
        room.for_pairing(k.id);
        room.first_moves_within(self.limits.claim_wait);
        room.reserve(Color::White, white.clone());
        room.reserve(Color::Black, black.clone());
        let mut desk = lock(&self.desk.state);
        desk.boards.insert(k.id, Arc::clone(&room));
        desk.boards.retain(|_, r| !r.is_closed());
        let members = [white.member, black.member];
        let sessions: Vec<SessionId> = desk
            .sessions
            .iter()
            .filter(|(_, e)| e.tournament == id && e.on_page && members.contains(&e.person.member))
            .map(|(&s, _)| s)
            .collect();
        for s in sessions {
            desk.paired.insert(s, Arc::clone(&room));
            self.live.wake(s);
        }
    }
}
