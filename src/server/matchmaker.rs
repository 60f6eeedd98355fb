//! The server's quick pairing: the sessions waiting in the pools ([`super::pairing`])
//! with who they are, the pairs found (colours drawn at random), and the room each
//! paired session is to enter. The hub opens the rooms.

use super::pairing::{pools, Pool, Pools, SeekError, Waiting};
use super::room::{Person, Room, SessionId};
use crate::chess::Color;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

/// Two sessions paired in a pool, white first.
#[derive(Clone, Debug)]
pub struct Match {
    /// The pool.
    pub pool: Pool,
    /// White's session and player.
    pub white: (SessionId, Person),
    /// Black's session and player.
    pub black: (SessionId, Person),
}

/// What a paired session is to do: enter its room, or hear why none could be opened.
pub type Paired = Result<Arc<Room>, String>;

#[derive(Default)]
struct State {
    pools: Pools<SessionId>,
    people: HashMap<SessionId, Person>,
    paired: HashMap<SessionId, Paired>,
}

/// Who waits for an opponent, and where the paired go.
#[derive(Default)]
pub struct Matchmaker {
    state: Mutex<State>,
}

impl Matchmaker {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Session `id` of `person`, rated `rating` in the pool's category, waits in `pool`
    /// from `now` (and in no other pool).
    pub fn seek(
        &self,
        id: SessionId,
        person: Person,
        pool: Pool,
        rating: f64,
        now: Instant,
    ) -> Result<(), SeekError> {
        let waiting = Waiting {
            who: id,
            member: person.member,
            rating,
            since: now,
        };
        let mut st = self.lock();
        st.pools.join(pool, waiting)?;
        st.people.insert(id, person);
        st.paired.remove(&id);
        Ok(())
    }

    /// Session `id` waits no more (a room it was paired into stays for its player).
    pub fn leave(&self, id: SessionId) {
        let mut st = self.lock();
        st.pools.leave(&id);
        st.people.remove(&id);
        st.paired.remove(&id);
    }

    /// The pool session `id` waits in.
    pub fn pool_of(&self, id: SessionId) -> Option<Pool> {
        self.lock().pools.pool_of(&id)
    }

    /// Every pool with how many wait in it.
    pub fn counts(&self) -> Vec<(Pool, usize)> {
        let st = self.lock();
        pools()
            .into_iter()
            .map(|p| (p, st.pools.count(p)))
            .collect()
    }

    /// The pairs found at `now`, out of the pools; `coin` draws each pair's colours
    /// (true: the one who waited longer has white).
    pub fn pair(&self, now: Instant, mut coin: impl FnMut() -> bool) -> Vec<Match> {
        let mut st = self.lock();
        let pairs = st.pools.pair(now);
        pairs
            .into_iter()
            .filter_map(|(pool, a, b)| {
                let first = (a.who, st.people.remove(&a.who)?);
                let second = (b.who, st.people.remove(&b.who)?);
                let (white, black) = if coin() {
                    (first, second)
                } else {
                    (second, first)
                };
                Some(Match { pool, white, black })
            })
            .collect()
    }

    /// The sessions of `m` are to go where `paired` says.
    pub fn settle(&self, m: &Match, paired: &Paired) {
        let mut st = self.lock();
        for side in [Color::White, Color::Black] {
            let id = match side {
                Color::White => m.white.0,
                Color::Black => m.black.0,
            };
            st.paired.insert(id, paired.clone());
        }
    }

    /// Where session `id` was paired into, once.
    pub fn take(&self, id: SessionId) -> Option<Paired> {
        self.lock().paired.remove(&id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::MemberId;

    fn member(name: &str, id: i64) -> Person {
        Person {
            name: name.into(),
            key: Some(format!("SHA256:{name}")),
            from: None,
            member: Some(MemberId(id)),
        }
    }

    #[test]
    fn two_seekers_are_paired_once_with_drawn_colours() {
        let mm = Matchmaker::default();
        let pool = super::super::pairing::parse_seek("5+3").unwrap();
        let now = Instant::now();
        mm.seek(1, member("ann", 1), pool, 1500.0, now).unwrap();
        assert_eq!(mm.pool_of(1), Some(pool));
        assert!(mm.pair(now, || true).is_empty(), "one alone");
        mm.seek(2, member("bo", 2), pool, 1520.0, now).unwrap();
        let counts = mm.counts();
        assert!(counts.contains(&(pool, 2)), "{counts:?}");
        let found = mm.pair(now, || false);
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].white.0, found[0].black.0), (2, 1));
        assert_eq!(found[0].white.1.name, "bo");
        assert_eq!(mm.pool_of(1), None);
        assert!(mm.pair(now, || true).is_empty(), "paired once");
        mm.settle(&found[0], &Err("full".into()));
        assert!(matches!(mm.take(1), Some(Err(why)) if why == "full"));
        assert!(mm.take(1).is_none(), "once");
        assert!(mm.take(2).is_some());
    }

    #[test]
    fn a_seeker_who_leaves_is_paired_with_nobody() {
        let mm = Matchmaker::default();
        let pool = super::super::pairing::parse_seek("1+0 casual").unwrap();
        let now = Instant::now();
        mm.seek(1, member("ann", 1), pool, 1500.0, now).unwrap();
        mm.leave(1);
        mm.seek(2, member("bo", 2), pool, 1500.0, now).unwrap();
        assert!(mm.pair(now, || true).is_empty());
    }
}
