//! The club's ratings: Glicko-2 ([`crate::rating`]), one rating per category of
//! expected game length, and the change a rated game made.

use crate::chess::Status;
use crate::game::clock::TimeControl;
pub use crate::rating::{Rating, PROVISIONAL_DEVIATION, TAU};
use std::fmt;
use std::str::FromStr;

/// The games of a category are those whose expected length falls in its range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// Under 3 minutes.
    Bullet,
    /// 3 to under 8 minutes.
    Blitz,
    /// 8 to under 25 minutes.
    Rapid,
    /// 25 minutes and more.
    Classical,
}

impl Category {
    /// Every category, shortest first.
    pub const ALL: [Category; 4] = [
        Category::Bullet,
        Category::Blitz,
        Category::Rapid,
        Category::Classical,
    ];

    /// The category of a time control, by its expected length as lichess reckons it:
    /// base minutes + 40 × increment seconds / 60.
    pub fn of(control: TimeControl) -> Category {
        let minutes =
            control.base.as_secs_f64() / 60.0 + 40.0 * control.increment.as_secs_f64() / 60.0;
        if minutes < 3.0 {
            Category::Bullet
        } else if minutes < 8.0 {
            Category::Blitz
        } else if minutes < 25.0 {
            Category::Rapid
        } else {
            Category::Classical
        }
    }

    /// "bullet", "blitz", "rapid" or "classical".
    pub fn name(self) -> &'static str {
        match self {
            Category::Bullet => "bullet",
            Category::Blitz => "blitz",
            Category::Rapid => "rapid",
            Category::Classical => "classical",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A word that names no category.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{0}\" is not a rating category: bullet, blitz, rapid or classical")]
pub struct UnknownCategory(pub String);

impl FromStr for Category {
    type Err = UnknownCategory;

    fn from_str(s: &str) -> Result<Category, UnknownCategory> {
        Category::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownCategory(s.to_string()))
    }
}

/// White's and Black's ratings after one game between them that ended with `result`,
/// each rated against the other's rating before it; `None` for a game not finished.
pub fn rate_game(white: Rating, black: Rating, result: Status) -> Option<(Rating, Rating)> {
    let white_score = match result {
        Status::WhiteWins => 1.0,
        Status::BlackWins => 0.0,
        Status::Draw => 0.5,
        Status::Ongoing => return None,
    };
    Some((
        white.after(&[(black, white_score)]),
        black.after(&[(white, 1.0 - white_score)]),
    ))
}

/// What a rated game did to one player's rating: `ann 1512 -> 1527 (+15)`.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    /// The player's name.
    pub name: String,
    /// The rating before the game.
    pub before: Rating,
    /// The rating after it.
    pub after: Rating,
}

impl RatingChange {
    /// The change in shown points (after minus before, each rounded).
    pub fn points(&self) -> i64 {
        self.after.shown() - self.before.shown()
    }
}

impl fmt::Display for RatingChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} -> {} ({:+})",
            self.name,
            self.before,
            self.after,
            self.points()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn control(s: &str) -> TimeControl {
        s.parse().unwrap()
    }

    #[test]
    fn categories_follow_the_expected_length() {
        for (tc, cat) in [
            ("1+0", Category::Bullet),
            ("2+1", Category::Bullet),
            ("0.5+0", Category::Bullet),
            ("3+0", Category::Blitz),
            ("3+2", Category::Blitz),
            ("5+3", Category::Blitz),
            ("7+0", Category::Blitz),
            ("8+0", Category::Rapid),
            ("10+5", Category::Rapid),
            ("15+10", Category::Rapid),
            ("24+1", Category::Rapid),
            ("25+0", Category::Classical),
            ("20+8", Category::Classical),
            ("30+0", Category::Classical),
        ] {
            assert_eq!(Category::of(control(tc)), cat, "{tc}");
        }
        for c in Category::ALL {
            assert_eq!(c.to_string().parse::<Category>(), Ok(c));
        }
        assert_eq!("Blitz".parse::<Category>(), Ok(Category::Blitz));
        let e = "hyper".parse::<Category>().unwrap_err();
        assert!(
            e.to_string().contains("bullet, blitz, rapid or classical"),
            "{e}"
        );
    }

    #[test]
    fn a_game_moves_both_ratings_the_glicko2_way() {
        let (w, b) = rate_game(Rating::NEW, Rating::NEW, Status::WhiteWins).unwrap();
        // Two new players: the winner gains what the loser loses.
        assert!(w.rating > 1600.0 && b.rating < 1400.0, "{w:?} {b:?}");
        assert!((w.rating - 1500.0 + (b.rating - 1500.0)).abs() < 1e-9);
        assert!(w.deviation < 350.0 && w.provisional());
        let (w, b) = rate_game(Rating::NEW, Rating::NEW, Status::Draw).unwrap();
        assert!((w.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
        assert_eq!(rate_game(Rating::NEW, Rating::NEW, Status::Ongoing), None);
    }

    #[test]
    fn provisional_ratings_carry_a_question_mark_and_changes_read_as_said() {
        let settled = Rating {
            rating: 1512.4,
            deviation: 80.0,
            volatility: 0.06,
        };
        assert_eq!(settled.to_string(), "1512");
        assert_eq!(Rating::NEW.to_string(), "1500?");
        let edge = Rating {
            deviation: PROVISIONAL_DEVIATION,
            ..settled
        };
        assert!(!edge.provisional());
        let change = RatingChange {
            name: "ann".into(),
            before: settled,
            after: Rating {
                rating: 1526.6,
                ..settled
            },
        };
        assert_eq!(change.to_string(), "ann 1512 -> 1527 (+15)");
        let loss = RatingChange {
            name: "bob".into(),
            before: Rating::NEW,
            after: Rating {
                rating: 1437.8,
                deviation: 290.0,
                volatility: 0.06,
            },
        };
        assert_eq!(loss.to_string(), "bob 1500? -> 1438? (-62)");
    }
}
