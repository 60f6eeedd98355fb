//! Choosing puzzles: a filter by theme, rating and length, and the next puzzle to set,
//! the unsolved one nearest the player's rating.

use super::pack::Puzzle;
use super::theme::Theme;
use std::fmt;
use std::str::FromStr;

/// Which puzzles a player asks for; `None` fields let every puzzle through.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only this theme.
    pub theme: Option<Theme>,
    /// Only ratings in this range (both ends included).
    pub rating: Option<RatingRange>,
    /// Only puzzles of this many moves.
    pub moves: Option<u32>,
}

impl Filter {
    /// Whether `p` passes.
    pub fn admits(&self, p: &Puzzle) -> bool {
        self.theme.is_none_or(|t| p.theme == t)
            && self.rating.is_none_or(|r| r.contains(p.rating))
            && self.moves.is_none_or(|n| p.moves == n)
    }
}

/// A range of puzzle ratings, "1200-1500".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RatingRange {
    /// The lowest rating let through.
    pub low: u32,
    /// The highest rating let through.
    pub high: u32,
}

impl RatingRange {
    /// Whether `rating` is in the range.
    pub fn contains(&self, rating: u32) -> bool {
        (self.low..=self.high).contains(&rating)
    }
}

impl fmt::Display for RatingRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.low, self.high)
    }
}

/// A range that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{0}\" is not a range of ratings such as 1200-1500")]
pub struct BadRange(pub String);

impl FromStr for RatingRange {
    type Err = BadRange;

    fn from_str(s: &str) -> Result<RatingRange, BadRange> {
        let bad = || BadRange(s.to_string());
        let (low, high) = s.trim().split_once('-').ok_or_else(bad)?;
        let low: u32 = low.trim().parse().map_err(|_| bad())?;
        let high: u32 = high.trim().parse().map_err(|_| bad())?;
        if low > high {
            return Err(bad());
        }
        Ok(RatingRange { low, high })
    }
}

/// The puzzle to set next (an index into `puzzles`): among those `admitted`, the one
/// not `solved` whose rating is nearest `rating` (the first in the pack's order on a
/// tie), leaving out `current`; when every admitted puzzle is solved, the nearest of
/// them all. `None` when none is admitted but `current`.
pub fn next(
    puzzles: &[Puzzle],
    rating: f64,
    admitted: impl Fn(&Puzzle) -> bool,
    solved: impl Fn(&str) -> bool,
    current: Option<usize>,
) -> Option<usize> {
    let nearest = |unsolved_only: bool| {
        puzzles
            .iter()
            .enumerate()
            .filter(|(i, p)| Some(*i) != current && admitted(p))
            .filter(|(_, p)| !unsolved_only || !solved(&p.id))
            .min_by(|(_, a), (_, b)| {
                let d = |p: &Puzzle| (f64::from(p.rating) - rating).abs();
                d(a).total_cmp(&d(b))
            })
            .map(|(i, _)| i)
    };
    nearest(true).or_else(|| nearest(false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::pack;

    /// Copies of the pack's first puzzle with these ids, ratings and themes.
    fn puzzles(rated: &[(&str, u32, Theme)]) -> Vec<Puzzle> {
        rated
            .iter()
            .map(|&(id, rating, theme)| Puzzle {
                id: id.to_string(),
                rating,
                theme,
                ..pack()[0].clone()
            })
            .collect()
    }

    #[test]
    fn the_next_puzzle_is_the_unsolved_one_nearest_the_rating() {
        let all = puzzles(&[
            ("001", 800, Theme::MeasureToWin),
            ("002", 1500, Theme::SplitFork),
            ("003", 1250, Theme::MeasureToWin),
            ("004", 1190, Theme::MeasureToWin),
            ("005", 1210, Theme::SplitFork),
        ]);
        let any = |_: &Puzzle| true;
        let none = |_: &str| false;
        // 004 and 005 are both 10 from 1200: the first in the pack.
        assert_eq!(next(&all, 1200.0, any, none, None), Some(3));
        assert_eq!(next(&all, 1200.0, any, none, Some(3)), Some(4));
        assert_eq!(next(&all, 1200.0, any, |id| id == "004", None), Some(4));
        assert_eq!(next(&all, 1490.0, any, none, None), Some(1));
        let forks = |p: &Puzzle| p.theme == Theme::SplitFork;
        assert_eq!(next(&all, 1400.0, forks, none, None), Some(1));
        assert_eq!(next(&all, 1400.0, forks, |id| id == "002", None), Some(4));
        // Every admitted one solved: the nearest of them again.
        assert_eq!(next(&all, 1400.0, forks, |_| true, None), Some(1));
        assert_eq!(next(&all[..1], 1400.0, any, none, Some(0)), None);
    }

    #[test]
    fn filters_read_and_let_through() {
        let all = puzzles(&[
            ("001", 800, Theme::MeasureToWin),
            ("002", 1500, Theme::SplitFork),
        ]);
        let range: RatingRange = "1200-1500".parse().unwrap();
        assert_eq!(range.to_string(), "1200-1500");
        let f = Filter {
            rating: Some(range),
            ..Filter::default()
        };
        assert!(!f.admits(&all[0]) && f.admits(&all[1]));
        let f = Filter {
            theme: Some(Theme::MeasureToWin),
            moves: Some(1),
            rating: None,
        };
        assert_eq!(f.admits(&all[0]), all[0].moves == 1);
        assert!(!f.admits(&all[1]));
        for bad in ["1500-1200", "1200", "a-b", ""] {
            assert!(bad.parse::<RatingRange>().is_err(), "{bad}");
        }
    }
}
