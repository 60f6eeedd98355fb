//! The custom seeks listed in the lobby: a game offered to anyone whose rating fits, a
//! few a player, taken by another player, cancelled, or gone with their poster's
//! session. No terminal and no clock of the wall in here: the hub hands in the ratings.

use super::room::{Person, SessionId};
use super::terms::{OfferError, Range, Terms};
use crate::club::Rating;

/// A seek open in the lobby.
#[derive(Clone, Debug, PartialEq)]
pub struct Seek {
    /// Its number.
    pub id: u64,
    /// The poster's session.
    pub by: SessionId,
    /// The poster.
    pub poster: Person,
    /// The poster's rating in the category of its time control.
    pub rating: Rating,
    /// What it offers.
    pub terms: Terms,
    /// The ratings it takes (none: any).
    pub range: Option<Range>,
}

impl Seek {
    /// Why the player `taker` of session `by`, rated `rating` in the seek's category,
    /// may not take it (none: they may).
    pub fn refusal(&self, by: SessionId, taker: &Person, rating: f64) -> Option<OfferError> {
        let same_member = taker.member.is_some() && taker.member == self.poster.member;
        if by == self.by || same_member || taker.name == self.poster.name {
            return Some(OfferError::Own);
        }
        if self.terms.rated && taker.member.is_none() {
            return Some(OfferError::GuestRated);
        }
        match self.range {
            Some(range) if !range.holds(rating) => {
                Some(OfferError::OutOfRange(rating.round() as i64, range))
            }
            _ => None,
        }
    }
}

/// Every seek open, oldest first.
#[derive(Debug, Default)]
pub struct SeekBook {
    seeks: Vec<Seek>,
    next: u64,
}

impl SeekBook {
    /// Posts a seek of `poster` from session `by`, rated `rating` in its category; a
    /// player (by name) has at most `most` open, and a guest offers casual games only.
    pub fn post(
        &mut self,
        by: SessionId,
        poster: Person,
        rating: Rating,
        (terms, range): (Terms, Option<Range>),
        most: usize,
    ) -> Result<u64, OfferError> {
        if terms.rated && poster.member.is_none() {
            return Err(OfferError::GuestRated);
        }
        let theirs = self
            .seeks
            .iter()
            .filter(|s| s.poster.name == poster.name)
            .count();
        if theirs >= most {
            return Err(OfferError::TooManySeeks(theirs));
        }
        self.next += 1;
        self.seeks.push(Seek {
            id: self.next,
            by,
            poster,
            rating,
            terms,
            range,
        });
        Ok(self.next)
    }

    /// Session `by` cancels its seek `id`; whether it had it.
    pub fn cancel(&mut self, by: SessionId, id: u64) -> bool {
        let before = self.seeks.len();
        self.seeks.retain(|s| !(s.id == id && s.by == by));
        before != self.seeks.len()
    }

    /// Every seek of session `by` goes; whether there was one.
    pub fn withdraw(&mut self, by: SessionId) -> bool {
        let before = self.seeks.len();
        self.seeks.retain(|s| s.by != by);
        before != self.seeks.len()
    }

    /// The seeks open, oldest first.
    pub fn open(&self) -> &[Seek] {
        &self.seeks
    }

    /// The player `taker` of session `by`, rated `rating` in the seek's category, takes
    /// seek `id` out of the book, or is told why not (it stays then).
    pub fn take(
        &mut self,
        id: u64,
        by: SessionId,
        taker: &Person,
        rating: f64,
    ) -> Result<Seek, OfferError> {
        let i = self
            .seeks
            .iter()
            .position(|s| s.id == id)
            .ok_or(OfferError::SeekGone)?;
        match self.seeks[i].refusal(by, taker, rating) {
            Some(why) => Err(why),
            None => Ok(self.seeks.remove(i)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::MemberId;
    use crate::server::terms::parse_terms;

    fn person(name: &str, member: Option<i64>) -> Person {
        Person {
            name: name.into(),
            key: member.map(|m| format!("SHA256:{m}")),
            from: None,
            member: member.map(MemberId),
        }
    }

    fn offer(words: &str) -> (Terms, Option<Range>) {
        parse_terms(words, true).unwrap()
    }

    #[test]
    fn a_player_posts_a_few_seeks_and_guests_casual_ones_only() {
        let mut book = SeekBook::default();
        let ann = person("ann", Some(1));
        for n in 0..2 {
            book.post(1, ann.clone(), Rating::NEW, offer("7+2"), 2)
                .unwrap_or_else(|e| panic!("seek {n}: {e}"));
        }
        // Two sessions of one player share the limit.
        assert_eq!(
            book.post(2, ann.clone(), Rating::NEW, offer("3+0"), 2),
            Err(OfferError::TooManySeeks(2))
        );
        let guest = person("guest-1", None);
        assert_eq!(
            book.post(3, guest.clone(), Rating::NEW, offer("7+2"), 2),
            Err(OfferError::GuestRated)
        );
        let id = book
            .post(3, guest, Rating::NEW, offer("7+2 casual"), 2)
            .unwrap();
        assert_eq!(book.open().len(), 3);
        // Only its own session cancels a seek; a session's seeks go with it.
        assert!(!book.cancel(1, id));
        assert!(book.cancel(3, id));
        assert!(book.withdraw(1));
        assert!(!book.withdraw(1));
        assert!(book.open().is_empty());
    }

    #[test]
    fn a_seek_is_taken_once_by_someone_else_within_its_range() {
        let mut book = SeekBook::default();
        let ann = person("ann", Some(1));
        let id = book
            .post(1, ann.clone(), Rating::NEW, offer("7+2 1400-1700 white"), 3)
            .unwrap();
        // Oneself, from another session or by name: refused.
        assert_eq!(book.take(id, 1, &ann, 1500.0), Err(OfferError::Own));
        assert_eq!(book.take(id, 9, &ann, 1500.0), Err(OfferError::Own));
        // A guest may not take a rated seek; a member out of range neither.
        let guest = person("cy", None);
        assert_eq!(
            book.take(id, 3, &guest, 1500.0),
            Err(OfferError::GuestRated)
        );
        let bo = person("bo", Some(2));
        let far = book.take(id, 2, &bo, 1720.0).unwrap_err();
        assert_eq!(
            far.to_string(),
            "your rating 1720 is outside this seek's range 1400-1700"
        );
        let taken = book.take(id, 2, &bo, 1650.0).unwrap();
        assert_eq!(
            (taken.by, taken.terms.to_string()),
            (1, "7+2 rated, white".into())
        );
        assert_eq!(book.take(id, 2, &bo, 1650.0), Err(OfferError::SeekGone));
        // A casual seek without a range takes guests of any rating.
        let id = book
            .post(1, ann, Rating::NEW, offer("1+0 casual"), 3)
            .unwrap();
        assert_eq!(book.open()[0].refusal(3, &guest, 900.0), None);
        assert!(book.take(id, 3, &guest, 900.0).is_ok());
    }
}
