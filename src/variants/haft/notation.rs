//! Long algebraic notation for haft moves: `e2e4`, `b1c3`, `e7e8` or `e7e8q`.

use crate::chess::{Kind, Square};
use std::fmt;
use std::str::FromStr;

/// A move as written: source, target, and the promotion type if one was named.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HaftMove {
    /// The square the piece leaves.
    pub from: Square,
    /// The square it goes to.
    pub to: Square,
    /// The type a promoting pawn becomes; `None` leaves it open.
    pub promotion: Option<Kind>,
}

/// Text that is not a move in long algebraic notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "cannot read {0:?}: write the two squares, like e2e4 or b1c3 (a promoting pawn may add \
     q, r, b or n, like e7e8q)"
)]
pub struct SyntaxError(pub String);

impl FromStr for HaftMove {
    type Err = SyntaxError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || SyntaxError(s.to_string());
        let text: String = s
            .trim()
            .chars()
            .filter(|c| !matches!(c, '-' | 'x' | '='))
            .collect();
        let (from, rest) = text.split_at_checked(2).ok_or_else(err)?;
        let (to, letter) = rest.split_at_checked(2).ok_or_else(err)?;
        let promotion = match letter.chars().collect::<Vec<_>>()[..] {
            [] => None,
            [c] => Some(Kind::from_letter(c).ok_or_else(err)?),
            _ => return Err(err()),
        };
        Ok(HaftMove {
            from: Square::parse(from).ok_or_else(err)?,
            to: Square::parse(to).ok_or_else(err)?,
            promotion,
        })
    }
}

impl fmt::Display for HaftMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        match self.promotion {
            Some(k) => write!(f, "{}", k.letter().to_ascii_lowercase()),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        let m: HaftMove = "e2e4".parse().unwrap();
        assert_eq!(m.to_string(), "e2e4");
        assert_eq!(m.promotion, None);
        let p: HaftMove = " E7-E8=Q ".parse().unwrap();
        assert_eq!(p.to_string(), "e7e8q");
        assert_eq!(p.promotion, Some(Kind::Queen));
        assert_eq!("b1xc3".parse::<HaftMove>().unwrap().to_string(), "b1c3");
        // A king letter is read (the rules refuse it with a reason).
        assert_eq!(
            "e7e8k".parse::<HaftMove>().unwrap().promotion,
            Some(Kind::King)
        );
        for bad in ["", "e2", "e2e", "e2e9", "i2e4", "e7e8qq", "e7e8z", "é2e4"] {
            assert!(bad.parse::<HaftMove>().is_err(), "{bad}");
        }
    }
}
