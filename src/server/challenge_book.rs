//! Challenges by name: a game offered to one player, who accepts or declines it. One
//! open challenge from a player to the same player, a few in all; a challenge lapses
//! after a while, and goes when either player leaves. No terminal in here: the hub
//! hands in the time and says who is here.

use super::room::{Person, SessionId};
use super::terms::{OfferError, Terms};
use crate::club::Rating;
use std::time::{Duration, Instant};

/// A challenge waiting for its answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Challenge {
    /// Its number.
    pub id: u64,
    /// The challenger's session.
    pub by: SessionId,
    /// The challenger.
    pub from: Person,
    /// The challenger's rating in the category of its time control.
    pub rating: Rating,
    /// The name of the player challenged.
    pub to: String,
    /// What it offers (the colour is the challenger's).
    pub terms: Terms,
    /// When it was made.
    pub made: Instant,
}

/// Whether two player names are one (case does not count).
pub fn same_name(a: &str, b: &str) -> bool {
    a.to_lowercase() == b.to_lowercase()
}

/// Every challenge waiting for its answer, oldest first.
#[derive(Debug, Default)]
pub struct ChallengeBook {
    open: Vec<Challenge>,
    next: u64,
}

impl ChallengeBook {
    /// `from` (session `by`, rated as said in its category) challenges the player
    /// called `to` at `now`: never themselves, once to the same player, at most `most`
    /// at once (by name).
    pub fn make(
        &mut self,
        by: SessionId,
        (from, rating): (Person, Rating),
        to: &str,
        terms: Terms,
        (now, most): (Instant, usize),
    ) -> Result<u64, OfferError> {
        if same_name(&from.name, to) {
            return Err(OfferError::Oneself);
        }
        let theirs: Vec<&Challenge> = self
            .open
            .iter()
            .filter(|c| c.from.name == from.name)
            .collect();
        if let Some(c) = theirs.iter().find(|c| same_name(&c.to, to)) {
            return Err(OfferError::Again(c.to.clone()));
        }
        if theirs.len() >= most {
            return Err(OfferError::TooManyChallenges(theirs.len()));
        }
        self.next += 1;
        self.open.push(Challenge {
            id: self.next,
            by,
            from,
            rating,
            to: to.to_string(),
            terms,
            made: now,
        });
        Ok(self.next)
    }

    /// The challenges to the player called `name`, oldest first.
    pub fn to(&self, name: &str) -> Vec<Challenge> {
        self.open
            .iter()
            .filter(|c| same_name(&c.to, name))
            .cloned()
            .collect()
    }

    /// The challenges session `by` made, oldest first.
    pub fn from(&self, by: SessionId) -> Vec<Challenge> {
        self.open.iter().filter(|c| c.by == by).cloned().collect()
    }

    /// The player called `name` answers challenge `id`: it is out of the book.
    pub fn take(&mut self, id: u64, name: &str) -> Result<Challenge, OfferError> {
        let i = self
            .open
            .iter()
            .position(|c| c.id == id && same_name(&c.to, name))
            .ok_or(OfferError::ChallengeGone)?;
        Ok(self.open.remove(i))
    }

    /// The challenges made `after` or longer before `now` go: those.
    pub fn lapse(&mut self, now: Instant, after: Duration) -> Vec<Challenge> {
        self.drain(|c| now.saturating_duration_since(c.made) >= after)
    }

    /// Session `by` is gone: its challenges go.
    pub fn withdraw(&mut self, by: SessionId) -> Vec<Challenge> {
        self.drain(|c| c.by == by)
    }

    /// Nobody called `name` is here any more: the challenges to them go, those.
    pub fn gone(&mut self, name: &str) -> Vec<Challenge> {
        self.drain(|c| same_name(&c.to, name))
    }

    fn drain(&mut self, out: impl Fn(&Challenge) -> bool) -> Vec<Challenge> {
        let (gone, kept) = std::mem::take(&mut self.open).into_iter().partition(out);
        self.open = kept;
        gone
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::MemberId;
    use crate::server::terms::parse_terms;

    fn ann() -> Person {
        Person {
            name: "ann".into(),
            key: Some("SHA256:ann".into()),
            from: None,
            member: Some(MemberId(1)),
        }
    }

    fn terms(words: &str) -> Terms {
        parse_terms(words, false).unwrap().0
    }

    #[test]
    fn one_challenge_to_a_player_a_few_in_all_never_oneself() {
        let mut book = ChallengeBook::default();
        let t0 = Instant::now();
        let blitz = terms("5+3");
        assert_eq!(
            book.make(1, (ann(), Rating::NEW), "ANN", blitz, (t0, 2)),
            Err(OfferError::Oneself)
        );
        let bo = book
            .make(1, (ann(), Rating::NEW), "bo", blitz, (t0, 2))
            .unwrap();
        // Bo, however spelled, from any of ann's sessions: once.
        assert_eq!(
            book.make(2, (ann(), Rating::NEW), "Bo", blitz, (t0, 2)),
            Err(OfferError::Again("bo".into()))
        );
        book.make(1, (ann(), Rating::NEW), "cy", blitz, (t0, 2))
            .unwrap();
        assert_eq!(
            book.make(1, (ann(), Rating::NEW), "di", blitz, (t0, 2)),
            Err(OfferError::TooManyChallenges(2))
        );
        assert_eq!(book.to("BO").len(), 1);
        assert_eq!(book.from(1).len(), 2);
        // Only the player challenged answers it, once.
        assert_eq!(book.take(bo, "cy"), Err(OfferError::ChallengeGone));
        assert_eq!(book.take(bo, "bo").map(|c| c.to), Ok("bo".into()));
        assert_eq!(book.take(bo, "bo"), Err(OfferError::ChallengeGone));
        // Answered, a player may be challenged again.
        assert!(book
            .make(1, (ann(), Rating::NEW), "bo", blitz, (t0, 2))
            .is_ok());
    }

    #[test]
    fn challenges_lapse_and_go_with_either_player() {
        let mut book = ChallengeBook::default();
        let t0 = Instant::now();
        let lapse = Duration::from_secs(120);
        let blitz = terms("5+3 casual black");
        book.make(1, (ann(), Rating::NEW), "bo", blitz, (t0, 3))
            .unwrap();
        book.make(
            1,
            (ann(), Rating::NEW),
            "cy",
            blitz,
            (t0 + Duration::from_secs(60), 3),
        )
        .unwrap();
        assert!(book.lapse(t0 + Duration::from_secs(119), lapse).is_empty());
        let lapsed = book.lapse(t0 + lapse, lapse);
        assert_eq!(
            lapsed.iter().map(|c| c.to.as_str()).collect::<Vec<_>>(),
            ["bo"]
        );
        // The challenged player leaves: their challenges go.
        assert_eq!(book.gone("cy").len(), 1);
        assert!(book.from(1).is_empty());
        // The challenger leaves: theirs go.
        book.make(1, (ann(), Rating::NEW), "di", blitz, (t0, 3))
            .unwrap();
        assert_eq!(book.withdraw(2).len(), 0);
        assert_eq!(book.withdraw(1).len(), 1);
        assert!(book.to("di").is_empty());
    }
}
