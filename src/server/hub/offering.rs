//! Seeks and challenges as the hub carries them out: made within their bounds, taken,
//! answered, withdrawn, and the room of one taken opened for both players.

use super::{coins, lock, Hub};
use crate::chess::Color;
use crate::club::Category;
use crate::server::challenge_book::same_name;
use crate::server::matchmaker::{Match, Paired};
use crate::server::offers::Shown;
use crate::server::pairing::Pool;
use crate::server::room::{Person, SessionId};
use crate::server::terms::{OfferError, Range, Terms};
use std::time::Instant;

impl Hub {
    /// The room session `id` was paired into by an offer taken (or why none could be
    /// opened), once.
    pub fn offer_taken(&self, id: SessionId) -> Option<Paired> {
        self.matchmaker.take(id)
    }

    /// Session `id` of `person` posts a custom seek.
    pub fn post_seek(
        &self,
        id: SessionId,
        person: &Person,
        offer: (Terms, Option<Range>),
    ) -> Result<(), OfferError> {
        let rating = self.rating_of(person, Category::of(offer.0.control));
        let most = self.limits.seeks_per_player;
        self.offers.post(id, person.clone(), rating, offer, most)
    }

    /// Session `id` cancels its seek `seek`; whether it had it.
    pub fn cancel_seek(&self, id: SessionId, seek: u64) -> bool {
        self.offers.cancel(id, seek)
    }

    /// Session `id` of `person` takes seek `seek`: its game's room opens, and both
    /// sessions are told where ([`Hub::offer_taken`]).
    pub fn take_seek(&self, id: SessionId, person: &Person, seek: u64) -> Result<(), OfferError> {
        let open = self.offers.seek(seek).ok_or(OfferError::SeekGone)?;
        let rating = self.rating_of(person, Category::of(open.terms.control));
        let s = self.offers.take(seek, id, person, rating.rating)?;
        self.start(s.terms, (s.by, s.poster), (id, person.clone()));
        Ok(())
    }

    /// Whether `person` may challenge the player called `to` on `terms`: someone else,
    /// here now, and for a rated game two members. Their name as they spell it.
    pub fn challengeable(
        &self,
        person: &Person,
        to: &str,
        terms: &Terms,
    ) -> Result<String, OfferError> {
        if same_name(&person.name, to) {
            return Err(OfferError::Oneself);
        }
        let names = lock(&self.names);
        let name = names
            .here(to)
            .ok_or_else(|| OfferError::NotHere(to.to_string()))?;
        if terms.rated && person.member.is_none() {
            return Err(OfferError::GuestRated);
        }
        if terms.rated && names.member_named(name).is_none() {
            return Err(OfferError::GuestOpponent(name.to_string()));
        }
        Ok(name.to_string())
    }

    /// Session `id` of `person` challenges the player called `to`
    /// ([`Hub::challengeable`]).
    pub fn challenge(
        &self,
        id: SessionId,
        person: &Person,
        to: &str,
        terms: Terms,
    ) -> Result<(), OfferError> {
        let name = self.challengeable(person, to, &terms)?;
        let rating = self.rating_of(person, Category::of(terms.control));
        let bounds = (Instant::now(), self.limits.challenges_per_player);
        self.offers
            .challenge(id, (person.clone(), rating), &name, terms, bounds)
    }

    /// Session `id` of `person` answers challenge `challenge`: accepted, its game's room
    /// opens and both sessions are told where ([`Hub::offer_taken`]); declined, the
    /// challenger is told.
    pub fn answer(
        &self,
        id: SessionId,
        person: &Person,
        challenge: u64,
        yes: bool,
    ) -> Result<(), OfferError> {
        let Some(c) = self.offers.answer(challenge, &person.name, yes)? else {
            return Ok(());
        };
        if c.terms.rated && person.member.is_none() {
            return Err(OfferError::GuestRated);
        }
        self.start(c.terms, (c.by, c.from), (id, person.clone()));
        Ok(())
    }

    /// The offers' version now: it changes with every seek or challenge made, taken or
    /// gone (the challenges unanswered too long lapse first).
    pub fn offers_version(&self) -> u64 {
        self.offers
            .version(Instant::now(), self.limits.challenge_lapse)
    }

    /// What the lobby of `person` (session `id`) shows of the offers.
    pub fn offers_shown(&self, id: SessionId, person: &Person) -> Shown {
        self.offers
            .shown(id, person, |c| self.rating_of(person, c).rating)
    }

    /// What session `id` is to be told about its challenges, once.
    pub fn told(&self, id: SessionId) -> Vec<String> {
        self.offers.told(id)
    }

    /// Session `id` is in a room: its seeks and challenges go.
    pub fn withdraw_offers(&self, id: SessionId) {
        self.offers.withdraw(id);
    }

    /// The game of an offer taken: `maker` plays the colour the terms name (else one
    /// drawn), both leave the pools and their other offers, and the room opens.
    fn start(&self, terms: Terms, maker: (SessionId, Person), taker: (SessionId, Person)) {
        let maker_white = terms
            .colour
            .map_or_else(|| coins().next().unwrap_or(true), |c| c == Color::White);
        let (white, black) = if maker_white {
            (maker, taker)
        } else {
            (taker, maker)
        };
        for id in [white.0, black.0] {
            self.matchmaker.leave(id);
            self.offers.withdraw(id);
        }
        let pool = Pool {
            control: terms.control,
            rated: terms.rated,
        };
        self.settle(&Match { pool, white, black });
    }
}
