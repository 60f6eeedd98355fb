//! Glicko-2 ratings (through the `skillratings` crate), provisional while the
//! deviation is high: the club's players and a player's puzzle rating.

use skillratings::glicko2::{glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;
use std::fmt;

/// Glicko-2's system constant: how much the volatility may change (Glickman's example
/// uses it; he finds 0.3 to 1.2 reasonable).
pub const TAU: f64 = 0.5;

/// A rating with a deviation above this is provisional (shown with `?`).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// A Glicko-2 rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating.
    pub rating: f64,
    /// Its deviation (uncertainty).
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
}

impl Rating {
    /// Where every player starts: 1500, deviation 350, volatility 0.06.
    pub const NEW: Rating = Rating {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    };

    /// Whether it is still provisional: its deviation is above
    /// [`PROVISIONAL_DEVIATION`].
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating rounded to a whole number, as players see it.
    pub fn shown(&self) -> i64 {
        self.rating.round() as i64
    }

    /// The rating after a rating period of `games` against the opponents' ratings, each
    /// with this player's score (1 win, 0.5 draw, 0 loss).
    pub fn after(&self, games: &[(Rating, f64)]) -> Rating {
        let results: Vec<(Glicko2Rating, Outcomes)> = games
            .iter()
            .map(|(r, score)| (r.glicko2(), outcome(*score)))
            .collect();
        let config = Glicko2Config {
            tau: TAU,
            ..Glicko2Config::new()
        };
        let new = glicko2_rating_period(&self.glicko2(), &results, &config);
        Rating {
            rating: new.rating,
            deviation: new.deviation,
            volatility: new.volatility,
        }
    }

    fn glicko2(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
}

impl Default for Rating {
    fn default() -> Rating {
        Rating::NEW
    }
}

/// `1512`, or `1512?` while provisional.
impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.shown())?;
        if self.provisional() {
            f.write_str("?")?;
        }
        Ok(())
    }
}

/// The outcome Glicko-2 is given for a score.
fn outcome(score: f64) -> Outcomes {
    if score > 0.5 {
        Outcomes::WIN
    } else if score < 0.5 {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman, "Example of the Glicko-2 system": 1500/200/0.06 against 1400/30,
    /// 1550/100 and 1700/300 with 1, 0, 0 (tau 0.5).
    #[test]
    fn glickmans_worked_example() {
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opp = |rating, deviation| Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let after = player.after(&[
            (opp(1400.0, 30.0), 1.0),
            (opp(1550.0, 100.0), 0.0),
            (opp(1700.0, 300.0), 0.0),
        ]);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }
}
