//! Quick pairing: the pools of time controls players wait in, rated or casual, and who
//! is paired with whom. A waiting player is paired with the waiting player of the
//! closest rating within a range that widens the longer either of them waits. No
//! terminal, no room and no clock of the wall in here: the hub hands in the time.

use crate::club::MemberId;
use crate::game::clock::TimeControl;
use std::fmt;
use std::time::{Duration, Instant};

/// The pools' time controls, shortest first.
pub const POOLS: [&str; 5] = ["1+0", "3+2", "5+3", "10+5", "15+10"];

/// The rating range a player accepts as soon as they wait.
pub const FIRST_RANGE: f64 = 100.0;

/// How much the range grows for each second waited.
pub const WIDENING: f64 = 20.0;

/// After waiting this long, a player accepts any rating.
pub const ANY_RATING_AFTER: Duration = Duration::from_secs(30);

/// A pool: a time control, rated or casual.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pool {
    /// The time control of its games.
    pub control: TimeControl,
    /// Whether its games count for the ratings.
    pub rated: bool,
}

impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = if self.rated { "rated" } else { "casual" };
        write!(f, "{} {kind}", self.control)
    }
}

/// Why a seek names no pool, or may not wait in it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeekError {
    /// The words name no pool.
    #[error("no pool {0}; pools: {pools}", pools = POOLS.join(" "))]
    NoPool(String),
    /// A word after the time control that is neither `rated` nor `casual`.
    #[error("{0}: say rated or casual after the time control")]
    BadKind(String),
    /// A guest asked for a rated pool.
    #[error("rated games are for club members (sign in with an SSH key): try {0} casual")]
    Guest(TimeControl),
}

/// Every pool, rated and casual, in the order the pairing page lists them.
pub fn pools() -> Vec<Pool> {
    let controls: Vec<TimeControl> = POOLS.iter().filter_map(|p| p.parse().ok()).collect();
    [true, false]
        .into_iter()
        .flat_map(|rated| controls.iter().map(move |&control| Pool { control, rated }))
        .collect()
}

/// The pool a seek names: `5+3` (rated), `5+3 rated` or `5+3 casual`.
pub fn parse_seek(words: &str) -> Result<Pool, SeekError> {
    let mut words = words.split_whitespace();
    let control = words.next().unwrap_or_default();
    let rated = match words.next() {
        None => true,
        Some(w) if w.eq_ignore_ascii_case("rated") => true,
        Some(w) if w.eq_ignore_ascii_case("casual") => false,
        Some(w) => return Err(SeekError::BadKind(w.to_string())),
    };
    if let Some(extra) = words.next() {
        return Err(SeekError::BadKind(extra.to_string()));
    }
    pools()
        .into_iter()
        .find(|p| p.rated == rated && control.parse() == Ok(p.control))
        .ok_or_else(|| SeekError::NoPool(control.to_string()))
}

/// A player waiting in a pool.
#[derive(Clone, Debug, PartialEq)]
pub struct Waiting<T> {
    /// Who they are to the caller (a session).
    pub who: T,
    /// Their club account (none for a guest).
    pub member: Option<MemberId>,
    /// Their rating in the pool's category (casual pools: any).
    pub rating: f64,
    /// Since when they wait.
    pub since: Instant,
}

/// The rating range of a player who has waited `waited`: `None` once any rating does.
pub fn range(waited: Duration) -> Option<f64> {
    (waited < ANY_RATING_AFTER).then_some(FIRST_RANGE + WIDENING * waited.as_secs_f64())
}

/// Whether `a` and `b` may be paired at `now`: two people (never a member with
/// themselves) whose ratings are within the wider of their ranges.
fn fit<T: PartialEq>(a: &Waiting<T>, b: &Waiting<T>, now: Instant) -> bool {
    if a.who == b.who || a.member.is_some() && a.member == b.member {
        return false;
    }
    let wider = [a, b]
        .iter()
        .map(|w| range(now.saturating_duration_since(w.since)))
        .try_fold(0.0_f64, |most, r| r.map(|r| most.max(r)));
    wider.is_none_or(|r| (a.rating - b.rating).abs() <= r)
}

/// The players waiting in every pool.
#[derive(Debug)]
pub struct Pools<T> {
    queues: Vec<(Pool, Vec<Waiting<T>>)>,
}

impl<T: Clone + PartialEq> Default for Pools<T> {
    fn default() -> Self {
        Pools {
            queues: pools().into_iter().map(|p| (p, Vec::new())).collect(),
        }
    }
}

impl<T: Clone + PartialEq> Pools<T> {
    /// `waiting` waits in `pool` (and in no other pool any more). A guest may not wait
    /// in a rated pool.
    pub fn join(&mut self, pool: Pool, waiting: Waiting<T>) -> Result<(), SeekError> {
        if pool.rated && waiting.member.is_none() {
            return Err(SeekError::Guest(pool.control));
        }
        let Some(i) = self.queues.iter().position(|(p, _)| *p == pool) else {
            return Err(SeekError::NoPool(pool.control.to_string()));
        };
        self.leave(&waiting.who);
        self.queues[i].1.push(waiting);
        Ok(())
    }

    /// `who` waits no more; whether they were waiting.
    pub fn leave(&mut self, who: &T) -> bool {
        let mut left = false;
        for (_, queue) in &mut self.queues {
            let before = queue.len();
            queue.retain(|w| w.who != *who);
            left |= queue.len() != before;
        }
        left
    }

    /// How many wait in `pool`.
    pub fn count(&self, pool: Pool) -> usize {
        self.queues
            .iter()
            .find(|(p, _)| *p == pool)
            .map_or(0, |(_, q)| q.len())
    }

    /// The pool `who` waits in.
    pub fn pool_of(&self, who: &T) -> Option<Pool> {
        self.queues
            .iter()
            .find(|(_, q)| q.iter().any(|w| w.who == *who))
            .map(|(p, _)| *p)
    }

    /// Pairs whoever can be paired at `now`, closest ratings first, and takes them out
    /// of the pools: each pair with its pool, the one who waited longer first.
    pub fn pair(&mut self, now: Instant) -> Vec<(Pool, Waiting<T>, Waiting<T>)> {
        let mut pairs = Vec::new();
        for (pool, queue) in &mut self.queues {
            loop {
                let mut best: Option<(f64, usize, usize)> = None;
                for i in 0..queue.len() {
                    for j in i + 1..queue.len() {
                        let (a, b) = (&queue[i], &queue[j]);
                        let gap = (a.rating - b.rating).abs();
                        if fit(a, b, now) && best.is_none_or(|(g, _, _)| gap < g) {
                            best = Some((gap, i, j));
                        }
                    }
                }
                let Some((_, i, j)) = best else {
                    break;
                };
                // j > i: take j out first, so that i stays where it is.
                let b = queue.remove(j);
                let a = queue.remove(i);
                pairs.push((*pool, a, b));
            }
        }
        pairs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiting(who: u32, member: Option<i64>, rating: f64, since: Instant) -> Waiting<u32> {
        Waiting {
            who,
            member: member.map(MemberId),
            rating,
            since,
        }
    }

    fn pool(text: &str) -> Pool {
        parse_seek(text).unwrap()
    }

    #[test]
    fn seeks_name_the_pools() {
        assert_eq!(pool("5+3").to_string(), "5+3 rated");
        assert_eq!(pool(" 5+3  casual ").to_string(), "5+3 casual");
        assert_eq!(pool("10+5 RATED").to_string(), "10+5 rated");
        let no = parse_seek("4+0").unwrap_err();
        assert_eq!(no.to_string(), "no pool 4+0; pools: 1+0 3+2 5+3 10+5 15+10");
        assert_eq!(parse_seek(""), Err(SeekError::NoPool(String::new())));
        assert!(matches!(
            parse_seek("5+3 fast"),
            Err(SeekError::BadKind(w)) if w == "fast"
        ));
        assert!(parse_seek("5+3 casual now").is_err());
        assert_eq!(pools().len(), 2 * POOLS.len());
    }

    #[test]
    fn the_range_widens_until_any_rating_does() {
        assert_eq!(range(Duration::ZERO), Some(FIRST_RANGE));
        assert_eq!(range(Duration::from_secs(10)), Some(300.0));
        assert_eq!(range(ANY_RATING_AFTER), None);
    }

    #[test]
    fn the_closest_ratings_within_range_are_paired() {
        let t0 = Instant::now();
        let blitz = pool("5+3");
        let mut p = Pools::default();
        p.join(blitz, waiting(1, Some(1), 1500.0, t0)).unwrap();
        p.join(blitz, waiting(2, Some(2), 1780.0, t0)).unwrap();
        assert!(p.pair(t0).is_empty(), "280 apart at once");
        p.join(blitz, waiting(3, Some(3), 1560.0, t0)).unwrap();
        p.join(blitz, waiting(4, Some(4), 1530.0, t0)).unwrap();
        assert_eq!(p.count(blitz), 4);
        // 1500 and 1530 are closest; 1560 and 1780 are too far apart yet.
        let pairs = p.pair(t0);
        let who: Vec<_> = pairs.iter().map(|(_, a, b)| (a.who, b.who)).collect();
        assert_eq!(who, [(1, 4)]);
        assert_eq!(pairs[0].0, blitz);
        assert_eq!(p.count(blitz), 2);
        // After 5 s the range is 200: still not; after 10 s (300) they are.
        assert!(p.pair(t0 + Duration::from_secs(5)).is_empty());
        let pairs = p.pair(t0 + Duration::from_secs(10));
        assert_eq!(pairs.len(), 1);
        assert_eq!(p.count(blitz), 0);
    }

    #[test]
    fn anyone_is_paired_after_waiting_long_enough_and_one_newcomer_suffices() {
        let t0 = Instant::now();
        let bullet = pool("1+0");
        let mut p = Pools::default();
        p.join(bullet, waiting(1, Some(1), 900.0, t0)).unwrap();
        let late = t0 + ANY_RATING_AFTER;
        p.join(bullet, waiting(2, Some(2), 2400.0, late)).unwrap();
        // The newcomer's range is narrow; the one who waited takes anyone.
        assert_eq!(p.pair(late).len(), 1);
    }

    #[test]
    fn never_oneself_never_a_guest_rated_and_pools_apart() {
        let t0 = Instant::now();
        let (rated, casual) = (pool("3+2"), pool("3+2 casual"));
        let mut p = Pools::default();
        assert_eq!(
            p.join(rated, waiting(1, None, 1500.0, t0)),
            Err(SeekError::Guest(rated.control))
        );
        // One member from two sessions: never paired with themselves.
        p.join(rated, waiting(1, Some(7), 1500.0, t0)).unwrap();
        p.join(rated, waiting(2, Some(7), 1500.0, t0)).unwrap();
        assert!(p.pair(t0 + ANY_RATING_AFTER).is_empty());
        // Guests and members meet in casual pools; another pool is another queue.
        p.join(casual, waiting(3, None, 1500.0, t0)).unwrap();
        assert!(p.pair(t0).is_empty());
        p.join(casual, waiting(4, Some(8), 1500.0, t0)).unwrap();
        assert_eq!(p.pool_of(&4), Some(casual));
        let pairs = p.pair(t0);
        assert_eq!(pairs.len(), 1);
        assert_eq!((pairs[0].1.who, pairs[0].2.who), (3, 4));
        // Joining another pool leaves the first; leaving says whether one waited.
        p.join(casual, waiting(1, Some(7), 1500.0, t0)).unwrap();
        assert_eq!(p.count(rated), 1);
        assert_eq!(p.pool_of(&1), Some(casual));
        assert!(p.leave(&1));
        assert!(!p.leave(&1));
        assert_eq!(p.pool_of(&1), None);
    }
}
