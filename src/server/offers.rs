//! The games offered on the server: the custom seeks and the challenges by name
//! ([`super::seek_book`], [`super::challenge_book`]), what a player is told about their
//! own (declined, lapsed, gone), and what each lobby shows of them. The hub opens the
//! rooms of the offers taken.

use super::challenge_book::{Challenge, ChallengeBook};
use super::room::{Person, SessionId};
use super::seek_book::{Seek, SeekBook};
use super::terms::{OfferError, Range, Terms};
use crate::club::{Category, Rating};
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// What a player asks of the offers from the lobby.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Offer {
    /// Post a seek.
    Post(Terms, Option<Range>),
    /// Cancel one's seek.
    Cancel(u64),
    /// Take a seek.
    Take(u64),
    /// Challenge the player of this name.
    Challenge(String, Terms),
    /// Accept (true) or decline a challenge.
    Answer(u64, bool),
}

/// A seek as one player sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct SeekRow {
    /// The seek.
    pub seek: Seek,
    /// Why this player may not take it (none: they may).
    pub refusal: Option<OfferError>,
}

/// What a lobby shows of the offers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shown {
    /// The seeks open, oldest first.
    pub seeks: Vec<SeekRow>,
    /// The challenges to this player, oldest first.
    pub incoming: Vec<Challenge>,
    /// The challenges this session made, oldest first.
    pub outgoing: Vec<Challenge>,
}

#[derive(Default)]
struct State {
    seeks: SeekBook,
    challenges: ChallengeBook,
    /// What each session is to be told about its challenges.
    told: HashMap<SessionId, Vec<String>>,
    /// Bumped by every change.
    version: u64,
}

impl State {
    fn tell(&mut self, gone: Vec<Challenge>, why: impl Fn(&Challenge) -> String) {
        for c in gone {
            let said = why(&c);
            self.told.entry(c.by).or_default().push(said);
        }
    }
}

/// The seeks and challenges open, and what their makers are to be told.
#[derive(Default)]
pub struct Offers {
    state: Mutex<State>,
}

impl Offers {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn changed(&self) -> MutexGuard<'_, State> {
        let mut st = self.lock();
        st.version += 1;
        st
    }

    /// Session `by` of `poster`, rated `rating` in its category, posts a seek; at most
    /// `most` a player.
    pub fn post(
        &self,
        by: SessionId,
        poster: Person,
        rating: Rating,
        offer: (Terms, Option<Range>),
        most: usize,
    ) -> Result<(), OfferError> {
        self.changed()
            .seeks
            .post(by, poster, rating, offer, most)
            .map(|_| ())
    }

    /// Session `by` cancels its seek `id`; whether it had it.
    pub fn cancel(&self, by: SessionId, id: u64) -> bool {
        self.changed().seeks.cancel(by, id)
    }

    /// The seeks open, oldest first.
    pub fn open_seeks(&self) -> Vec<Seek> {
        self.lock().seeks.open().to_vec()
    }

    /// Seek `id`, if it is open.
    pub fn seek(&self, id: u64) -> Option<Seek> {
        self.lock()
            .seeks
            .open()
            .iter()
            .find(|s| s.id == id)
            .cloned()
    }

    /// `taker` of session `by`, rated `rating` in its category, takes seek `id`.
    pub fn take(
        &self,
        id: u64,
        by: SessionId,
        taker: &Person,
        rating: f64,
    ) -> Result<Seek, OfferError> {
        self.changed().seeks.take(id, by, taker, rating)
    }

    /// `from` (session `by`, with their rating in its category) challenges the player
    /// called `to` at `now`; at most `most` open a player.
    pub fn challenge(
        &self,
        by: SessionId,
        from: (Person, Rating),
        to: &str,
        terms: Terms,
        (now, most): (Instant, usize),
    ) -> Result<(), OfferError> {
        self.changed()
            .challenges
            .make(by, from, to, terms, (now, most))
            .map(|_| ())
    }

    /// The player called `name` answers challenge `id`: the challenge when accepted;
    /// declined, its challenger is told.
    pub fn answer(&self, id: u64, name: &str, yes: bool) -> Result<Option<Challenge>, OfferError> {
        let mut st = self.changed();
        let c = st.challenges.take(id, name)?;
        if yes {
            return Ok(Some(c));
        }
        st.tell(vec![c], |c| {
            format!("{} declined your challenge ({})", c.to, c.terms)
        });
        Ok(None)
    }

    /// Session `by` is in a game: its seeks and challenges go.
    pub fn withdraw(&self, by: SessionId) {
        let mut st = self.lock();
        let seeks = st.seeks.withdraw(by);
        if seeks | !st.challenges.withdraw(by).is_empty() {
            st.version += 1;
        }
    }

    /// Session `by` ended: its seeks and challenges go, and what it was to be told.
    pub fn forget(&self, by: SessionId) {
        self.withdraw(by);
        self.lock().told.remove(&by);
    }

    /// Nobody called `name` is here any more: the challenges to them go, and their
    /// challengers are told.
    pub fn gone(&self, name: &str) {
        let mut st = self.lock();
        let gone = st.challenges.gone(name);
        if !gone.is_empty() {
            st.version += 1;
        }
        st.tell(gone, |c| {
            format!(
                "{} went away: your challenge ({}) is withdrawn",
                c.to, c.terms
            )
        });
    }

    /// The offers' version at `now`: the challenges made `lapse` or longer ago go first
    /// (their challengers are told), and every change bumps it.
    pub fn version(&self, now: Instant, lapse: Duration) -> u64 {
        let mut st = self.lock();
        let lapsed = st.challenges.lapse(now, lapse);
        if !lapsed.is_empty() {
            st.version += 1;
            st.tell(lapsed, |c| {
                format!("your challenge to {} ({}) lapsed unanswered", c.to, c.terms)
            });
        }
        st.version
    }

    /// What the lobby of `me` (session `by`) shows; `rating` is their rating in a
    /// category.
    pub fn shown(&self, by: SessionId, me: &Person, rating: impl Fn(Category) -> f64) -> Shown {
        let (seeks, incoming, outgoing) = {
            let st = self.lock();
            let seeks = st.seeks.open().to_vec();
            (seeks, st.challenges.to(&me.name), st.challenges.from(by))
        };
        let mut ratings: HashMap<Category, f64> = HashMap::new();
        let seeks = seeks
            .into_iter()
            .map(|seek| {
                let category = Category::of(seek.terms.control);
                let mine = *ratings.entry(category).or_insert_with(|| rating(category));
                SeekRow {
                    refusal: seek.refusal(by, me, mine),
                    seek,
                }
            })
            .collect();
        Shown {
            seeks,
            incoming,
            outgoing,
        }
    }

    /// What session `by` is to be told about its challenges, once.
    pub fn told(&self, by: SessionId) -> Vec<String> {
        self.lock().told.remove(&by).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::MemberId;
    use crate::server::terms::parse_terms;

    fn member(name: &str, id: i64) -> Person {
        Person {
            name: name.into(),
            key: Some(format!("SHA256:{name}")),
            from: None,
            member: Some(MemberId(id)),
        }
    }

    #[test]
    fn challengers_are_told_once_of_a_decline_a_lapse_and_a_player_gone() {
        let offers = Offers::default();
        let t0 = Instant::now();
        let lapse = Duration::from_secs(120);
        let terms = parse_terms("5+3 casual", false).unwrap().0;
        let ann = member("ann", 1);
        let v0 = offers.version(t0, lapse);
        offers.gone("zed");
        offers.withdraw(7);
        assert_eq!(offers.version(t0, lapse), v0, "nothing changed");
        for to in ["bo", "cy", "di"] {
            offers
                .challenge(1, (ann.clone(), Rating::NEW), to, terms, (t0, 3))
                .unwrap();
        }
        assert!(offers.version(t0, lapse) > v0);
        let bo = member("bo", 2);
        let shown = offers.shown(2, &bo, |_| 1500.0);
        assert_eq!(shown.incoming.len(), 1);
        assert_eq!(offers.answer(shown.incoming[0].id, "bo", false), Ok(None));
        offers.gone("cy");
        offers.version(t0 + lapse, lapse);
        assert_eq!(
            offers.told(1),
            [
                "bo declined your challenge (5+3 casual)",
                "cy went away: your challenge (5+3 casual) is withdrawn",
                "your challenge to di (5+3 casual) lapsed unanswered",
            ]
        );
        assert!(offers.told(1).is_empty(), "once");
        assert!(offers.shown(1, &ann, |_| 1500.0).outgoing.is_empty());
    }

    #[test]
    fn every_lobby_sees_the_seeks_with_what_it_may_take() {
        let offers = Offers::default();
        let ann = member("ann", 1);
        let offer = parse_terms("7+2 1600-1800", true).unwrap();
        offers.post(1, ann.clone(), Rating::NEW, offer, 3).unwrap();
        let mine = offers.shown(1, &ann, |_| 1500.0);
        assert_eq!(mine.seeks[0].refusal, Some(OfferError::Own));
        // Rated in the seek's category (7+2 is rapid: 7 + 40 x 2 / 60 minutes).
        let bo = member("bo", 2);
        let rapid = |c: Category| if c == Category::Rapid { 1700.0 } else { 1000.0 };
        assert_eq!(offers.shown(2, &bo, rapid).seeks[0].refusal, None);
        assert!(matches!(
            offers.shown(2, &bo, |_| 1500.0).seeks[0].refusal,
            Some(OfferError::OutOfRange(1500, _))
        ));
        let id = mine.seeks[0].seek.id;
        assert!(offers.take(id, 2, &bo, 1700.0).is_ok());
        assert!(offers.shown(2, &bo, rapid).seeks.is_empty());
        // A session's seeks go with it.
        offers.post(1, ann, Rating::NEW, offer, 3).unwrap();
        offers.forget(1);
        assert!(offers.shown(2, &bo, rapid).seeks.is_empty());
    }
}
