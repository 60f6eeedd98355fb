//! Colours in a tournament: the colours a player has had, which colour they may take and
//! which they want, and the colours given to the two players of a game.

use super::Pairing;
use crate::chess::Color;
use crate::club::MemberId;

/// The largest colour difference (whites minus blacks, either way) a player may reach.
pub const MAX_DIFFERENCE: i64 = 2;

/// The colours a player has had in a tournament's games (byes have none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Colours {
    /// Games with white.
    pub whites: u32,
    /// Games with black.
    pub blacks: u32,
    /// The colour of the last game.
    pub last: Option<Color>,
    /// How many games in a row ended with that colour.
    pub run: u32,
}

impl Colours {
    /// `member`'s colours in `pairings`, taken in their order.
    pub fn of(member: MemberId, pairings: &[Pairing]) -> Colours {
        let mut colours = Colours::default();
        for p in pairings.iter().filter(|p| p.black.is_some()) {
            if p.white == member {
                colours.played(Color::White);
            } else if p.black == Some(member) {
                colours.played(Color::Black);
            }
        }
        colours
    }

    /// Notes one more game with `colour`.
    pub fn played(&mut self, colour: Color) {
        match colour {
            Color::White => self.whites += 1,
            Color::Black => self.blacks += 1,
        }
        self.run = if self.last == Some(colour) {
            self.run + 1
        } else {
            1
        };
        self.last = Some(colour);
    }

    /// Whites minus blacks.
    pub fn difference(&self) -> i64 {
        i64::from(self.whites) - i64::from(self.blacks)
    }

    /// Whether the player may take `colour`: the difference stays within
    /// [`MAX_DIFFERENCE`], and, when `strict`, it would not be a third in a row.
    pub fn allows(&self, colour: Color, strict: bool) -> bool {
        let step = match colour {
            Color::White => 1,
            Color::Black => -1,
        };
        let third = self.last == Some(colour) && self.run >= 2;
        (self.difference() + step).abs() <= MAX_DIFFERENCE && !(strict && third)
    }

    /// The colour the player wants: the one they had fewer of, else the other of their
    /// last; none before their first game.
    pub fn wants(&self) -> Option<Color> {
        match self.difference() {
            d if d < 0 => Some(Color::White),
            d if d > 0 => Some(Color::Black),
            _ => self.last.map(Color::opposite),
        }
    }

    /// How strongly: the difference first, then how long the last colour ran.
    fn strength(&self) -> (i64, u32) {
        (self.difference().abs(), self.run)
    }
}

/// The colour of `first` (the higher ranked) against `second`, or `None` when no colours
/// keep both within their limits. Each gets the colour they want when they differ; when
/// they want the same, the one who wants it more strongly gets it (the higher ranked on
/// a tie); white to the higher ranked when neither wants one.
pub fn allocate(first: &Colours, second: &Colours, strict: bool) -> Option<Color> {
    let may = |c: Color| first.allows(c, strict) && second.allows(c.opposite(), strict);
    match (may(Color::White), may(Color::Black)) {
        (false, false) => None,
        (true, false) => Some(Color::White),
        (false, true) => Some(Color::Black),
        (true, true) => Some(match (first.wants(), second.wants()) {
            (Some(a), Some(b)) if a == b && second.strength() > first.strength() => a.opposite(),
            (Some(a), _) => a,
            (None, Some(b)) => b.opposite(),
            (None, None) => Color::White,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(colours: &[Color]) -> Colours {
        let mut c = Colours::default();
        for &colour in colours {
            c.played(colour);
        }
        c
    }

    #[test]
    fn players_get_the_colour_they_want_the_stronger_wish_first() {
        use Color::{Black as B, White as W};
        // Each wants another colour.
        assert_eq!(allocate(&after(&[W]), &after(&[B]), true), Some(B));
        // Both want black; the second has had white twice more.
        assert_eq!(allocate(&after(&[W]), &after(&[W, W]), true), Some(W));
        // Equal wishes: the higher ranked gets theirs.
        assert_eq!(allocate(&after(&[B]), &after(&[B]), true), Some(W));
        // Nobody has played: white to the higher ranked.
        assert_eq!(allocate(&after(&[]), &after(&[]), true), Some(W));
    }

    #[test]
    fn no_colour_goes_past_the_limits() {
        use Color::{Black as B, White as W};
        let two_whites = after(&[W, B, W, W]);
        assert_eq!(two_whites.difference(), 2);
        assert!(!two_whites.allows(W, false));
        // Two players who both must have black cannot meet.
        assert_eq!(allocate(&two_whites, &after(&[W, W]), false), None);
        // A third white in a row only when not strict.
        let run = after(&[B, W, W]);
        assert!(!run.allows(W, true) && run.allows(W, false));
        assert_eq!(allocate(&run, &after(&[B, W, W]), true), None);
        assert_eq!(allocate(&run, &after(&[B, W, W]), false), Some(B));
    }
}
