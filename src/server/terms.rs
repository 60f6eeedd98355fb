//! What a custom seek or a challenge asks for: a time control, rated or casual, the
//! colour its maker plays, and (a seek) the ratings of the opponents it takes; read from
//! the words a player types (`7+2 casual white 1400-1700`); and why an offer is refused.

use crate::chess::Color;
use crate::game::clock::TimeControl;
use std::fmt;

/// The highest rating a range may name.
pub const TOP_RATING: u16 = 4000;

/// A game offered: its clock, whether it is rated, the colour its maker plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terms {
    /// The time control.
    pub control: TimeControl,
    /// Whether the game counts for the ratings.
    pub rated: bool,
    /// The colour the maker plays (none: drawn at random).
    pub colour: Option<Color>,
}

impl Terms {
    /// "rated" or "casual".
    pub fn kind(&self) -> &'static str {
        if self.rated {
            "rated"
        } else {
            "casual"
        }
    }

    /// The maker's colour as the lists show it: white, black, random.
    pub fn colour_words(&self) -> &'static str {
        self.colour.map_or("random", Color::name)
    }
}

/// `5+3 rated, white` (the maker's colour).
impl fmt::Display for Terms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.control, self.kind())?;
        match self.colour {
            Some(c) => write!(f, ", {}", c.name()),
            None => Ok(()),
        }
    }
}

/// The ratings a seek takes, both ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    /// The lowest.
    pub low: u16,
    /// The highest.
    pub high: u16,
}

impl Range {
    /// Whether `rating` is within it.
    pub fn holds(&self, rating: f64) -> bool {
        (f64::from(self.low)..=f64::from(self.high)).contains(&rating.round())
    }
}

/// `1400-1700`.
impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.low, self.high)
    }
}

/// Why the words are no offer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TermsError {
    /// A challenge without the name of the player challenged.
    #[error("give the name of the player you challenge first, then the clock: bo 5+3")]
    NoName,
    /// No time control was given.
    #[error("give a time control first: minutes+seconds, like 5+3")]
    NoControl,
    /// The first word is no time control.
    #[error("{0} is no time control: minutes+seconds a move, like 5+3 (up to a day)")]
    BadControl(String),
    /// A word that is neither a kind, a colour nor a range.
    #[error("{0}: say rated or casual, white, black or random, and a range like 1400-1700 or any")]
    BadWord(String),
    /// A range whose ends are not ratings, or the wrong way round.
    #[error("{0} is no rating range: say low-high, like 1400-1700 (up to {TOP_RATING}), or any")]
    BadRange(String),
    /// Something said twice.
    #[error("{0}: said twice")]
    Twice(String),
    /// A range where none is taken (a challenge names its opponent).
    #[error("{0}: a challenge names its opponent, it takes no rating range")]
    NoRangeHere(String),
}

/// Reads `low-high` or `any`; `None` when the word is not a range at all.
fn range(word: &str) -> Option<Result<Option<Range>, TermsError>> {
    if word.eq_ignore_ascii_case("any") {
        return Some(Ok(None));
    }
    let (low, high) = word.split_once('-')?;
    if !word.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let bad = || TermsError::BadRange(word.to_string());
    let end = |s: &str| s.parse::<u16>().ok().filter(|r| *r <= TOP_RATING);
    Some(match (end(low), end(high)) {
        (Some(low), Some(high)) if low <= high => Ok(Some(Range { low, high })),
        _ => Err(bad()),
    })
}

/// Reads an offer: a time control, then in any order `rated` or `casual` (rated when
/// neither), `white`, `black` or `random` (random when none), and a range
/// (`1400-1700`, or `any`, the default) when `ranged`.
pub fn parse_terms(words: &str, ranged: bool) -> Result<(Terms, Option<Range>), TermsError> {
    let mut words = words.split_whitespace();
    let first = words.next().ok_or(TermsError::NoControl)?;
    let control: TimeControl = first
        .parse()
        .map_err(|_| TermsError::BadControl(first.to_string()))?;
    let (mut rated, mut colour, mut range_said) = (None, None, None);
    for word in words {
        let lower = word.to_ascii_lowercase();
        let twice = || TermsError::Twice(word.to_string());
        match lower.as_str() {
            "rated" | "casual" if rated.is_some() => return Err(twice()),
            "rated" | "casual" => rated = Some(lower == "rated"),
            "white" | "black" | "random" if colour.is_some() => return Err(twice()),
            "white" => colour = Some(Some(Color::White)),
            "black" => colour = Some(Some(Color::Black)),
            "random" => colour = Some(None),
            _ => match range(&lower) {
                Some(_) if !ranged => return Err(TermsError::NoRangeHere(word.to_string())),
                Some(_) if range_said.is_some() => return Err(twice()),
                Some(r) => range_said = Some(r?),
                None => return Err(TermsError::BadWord(word.to_string())),
            },
        }
    }
    let terms = Terms {
        control,
        rated: rated.unwrap_or(true),
        colour: colour.flatten(),
    };
    Ok((terms, range_said.flatten()))
}

/// Why a seek or a challenge cannot be made, taken or answered, in the player's words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OfferError {
    /// The words are no offer.
    #[error("{0}")]
    Terms(#[from] TermsError),
    /// A guest offered or took a rated game.
    #[error("rated games are for club members (sign in with an SSH key): say casual")]
    GuestRated,
    /// The player has as many seeks open as one may.
    #[error("you have {0} seeks open already: cancel one first (x)")]
    TooManySeeks(usize),
    /// The seek was taken or cancelled.
    #[error("that seek is gone: taken or cancelled")]
    SeekGone,
    /// A player's own seek.
    #[error("that is your own seek")]
    Own,
    /// The taker's rating is outside the seek's range.
    #[error("your rating {0} is outside this seek's range {1}")]
    OutOfRange(i64, Range),
    /// A challenge to oneself.
    #[error("you cannot challenge yourself")]
    Oneself,
    /// A second challenge to the same player.
    #[error("you have challenged {0} already: wait for the answer")]
    Again(String),
    /// The player has as many challenges open as one may.
    #[error("you have {0} challenges open already: wait for their answers")]
    TooManyChallenges(usize),
    /// Nobody of that name is connected.
    #[error("nobody called {0} is here now")]
    NotHere(String),
    /// A rated challenge to a guest.
    #[error("{0} is a guest: challenge them to a casual game")]
    GuestOpponent(String),
    /// The challenge was answered, withdrawn or lapsed.
    #[error("that challenge is gone: withdrawn or lapsed")]
    ChallengeGone,
}

/// Reads a challenge: the name of the player challenged, then its terms (no range).
pub fn parse_challenge(words: &str) -> Result<(String, Terms), TermsError> {
    let words = words.trim();
    let (name, rest) = words.split_once(' ').unwrap_or((words, ""));
    if name.is_empty() {
        return Err(TermsError::NoName);
    }
    let (terms, _) = parse_terms(rest, false)?;
    Ok((name.to_string(), terms))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offers_read_in_any_order_with_defaults() {
        let (t, r) = parse_terms("7+2", true).unwrap();
        assert_eq!(t.to_string(), "7+2 rated");
        assert_eq!((t.colour_words(), r), ("random", None));
        let (t, r) = parse_terms(" 7+2  1400-1700 Black CASUAL ", true).unwrap();
        assert_eq!(t.to_string(), "7+2 casual, black");
        assert_eq!(r.map(|r| r.to_string()).as_deref(), Some("1400-1700"));
        let (t, r) = parse_terms("0.5+0 white any", true).unwrap();
        assert_eq!((t.to_string(), r), ("0.5+0 rated, white".into(), None));
    }

    #[test]
    fn bad_offers_say_what_is_wrong() {
        assert_eq!(parse_terms("", true), Err(TermsError::NoControl));
        assert_eq!(
            parse_terms("7x2", true),
            Err(TermsError::BadControl("7x2".into()))
        );
        let long = parse_terms("2000+0", true).unwrap_err();
        assert!(long.to_string().contains("up to a day"), "{long}");
        assert_eq!(
            parse_terms("5+3 fast", true),
            Err(TermsError::BadWord("fast".into()))
        );
        assert_eq!(
            parse_terms("5+3 1700-1400", true),
            Err(TermsError::BadRange("1700-1400".into()))
        );
        assert_eq!(
            parse_terms("5+3 1400-9000", true),
            Err(TermsError::BadRange("1400-9000".into()))
        );
        assert_eq!(
            parse_terms("5+3 white black", true),
            Err(TermsError::Twice("black".into()))
        );
        assert_eq!(
            parse_terms("5+3 casual rated", true),
            Err(TermsError::Twice("rated".into()))
        );
        assert_eq!(
            parse_terms("5+3 any 1400-1500", true),
            Err(TermsError::Twice("1400-1500".into()))
        );
        assert_eq!(
            parse_terms("5+3 1400-1500", false),
            Err(TermsError::NoRangeHere("1400-1500".into()))
        );
    }

    #[test]
    fn a_challenge_names_its_opponent_first() {
        let (name, t) = parse_challenge(" bo 5+3 casual white ").unwrap();
        assert_eq!(
            (name.as_str(), t.to_string()),
            ("bo", "5+3 casual, white".into())
        );
        assert_eq!(parse_challenge("  "), Err(TermsError::NoName));
        assert_eq!(parse_challenge("bo"), Err(TermsError::NoControl));
        assert_eq!(
            parse_challenge("bo 5+3 1400-1600"),
            Err(TermsError::NoRangeHere("1400-1600".into()))
        );
    }

    #[test]
    fn a_range_holds_its_ends_and_shown_ratings() {
        let r = Range {
            low: 1400,
            high: 1700,
        };
        assert!(r.holds(1400.0) && r.holds(1700.0) && r.holds(1700.4));
        assert!(!r.holds(1399.0) && !r.holds(1700.6));
    }
}
