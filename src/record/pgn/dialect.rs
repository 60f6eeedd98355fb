//! How other programs write a move, turned into what qchess reads: the en passant
//! mark (`e5xd6ep`, `exd6 e.p.`) and hyphenated long algebraic (`e2-e4`, `Ng1-f3`,
//! `e7-e8=Q`), and the `x` long algebraic writes on an en passant capture (`e5xf6`).

use crate::chess::classify::classify;
use crate::chess::notation::{self, Marker};
use crate::chess::{Game, MoveText, MoveType};
use std::borrow::Cow;

/// The marks an en passant capture may carry, joined to it or after a space.
const EN_PASSANT_MARKS: [&str; 2] = ["e.p.", "ep"];

/// Whether `symbol` is an en passant mark written apart from its move (`exf6 e.p.`).
pub fn is_en_passant_mark(symbol: &str) -> bool {
    EN_PASSANT_MARKS.contains(&symbol)
}

/// A move without its en passant mark (`e5xd6ep`, `e5xd6e.p.`, before any `.m0`/`.m1`),
/// and whether it had one.
pub fn strip_en_passant(text: &str) -> (String, bool) {
    let (body, outcome) = match notation::split_outcome(text) {
        (b, Some(o)) => (b, format!(".m{}", u8::from(o))),
        (b, None) => (b, String::new()),
    };
    match EN_PASSANT_MARKS
        .iter()
        .find_map(|mark| body.strip_suffix(mark))
    {
        Some(b) => (format!("{b}{outcome}"), true),
        None => (text.to_string(), false),
    }
}

/// Whether `t`, squares written with `x` (`e5xf6`, as long algebraic writes every
/// capture), is an en passant capture in `game`: Quantum Chess notation writes no `x`
/// on one (the rules infer it), so the `x` is the chess capture sign and not a variant.
pub fn en_passant_with_x(game: &Game, t: &MoveText) -> bool {
    let plain = MoveText { marker: None, ..*t };
    t.marker == Some(Marker::Capture)
        && classify(game.state(), &plain, game.options().free_turns)
            .is_ok_and(|c| c.kind == MoveType::EnPassant)
}

/// A move in hyphenated long algebraic notation (`e2-e4`, `Ng1-f3`, `e7-e8=Q`,
/// `e7xd8=Q`) written as qchess's squares (`e2e4`, `Ng1f3`, `e7e8Q`, `e7xd8Q`); any
/// other text (SAN, castling, quantum moves) comes back as it is.
pub fn long_algebraic(text: &str) -> Cow<'_, str> {
    let mut rest = text;
    let mut out = String::new();
    if let Some(p) = rest.strip_prefix(['K', 'Q', 'R', 'B', 'N', 'P']) {
        out.push_str(&rest[..1]);
        rest = p;
    }
    let Some((from, after)) = square(rest) else {
        return Cow::Borrowed(text);
    };
    let (separator, after) = match after.split_at_checked(1) {
        Some((s @ ("-" | "x"), a)) => (s, a),
        _ => return Cow::Borrowed(text),
    };
    let Some((to, after)) = square(after) else {
        return Cow::Borrowed(text);
    };
    let promotion = match after {
        "" => "",
        _ => match after.strip_prefix('=').unwrap_or(after) {
            p @ ("Q" | "R" | "B" | "N" | "q" | "r" | "b" | "n") => p,
            _ => return Cow::Borrowed(text),
        },
    };
    if separator == "x" && promotion.len() == after.len() {
        // Squares with `x` and nothing to change: qchess reads them as they are.
        return Cow::Borrowed(text);
    }
    out.push_str(from);
    if separator == "x" {
        out.push('x');
    }
    out.push_str(to);
    out.push_str(promotion);
    Cow::Owned(out)
}

/// A square at the start of `text` (`e2`), and the text after it.
fn square(text: &str) -> Option<(&str, &str)> {
    let (sq, rest) = text.split_at_checked(2)?;
    let mut cs = sq.chars();
    let file_rank = matches!((cs.next(), cs.next()), (Some('a'..='h'), Some('1'..='8')));
    file_rank.then_some((sq, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn en_passant_marks_joined_or_apart() {
        assert_eq!(strip_en_passant("e5xd6ep"), ("e5xd6".into(), true));
        assert_eq!(strip_en_passant("e5xd6ep.m1"), ("e5xd6.m1".into(), true));
        assert_eq!(strip_en_passant("exd6e.p."), ("exd6".into(), true));
        assert_eq!(strip_en_passant("e5xd6.m1"), ("e5xd6.m1".into(), false));
        assert_eq!(strip_en_passant("Nf3"), ("Nf3".into(), false));
        assert!(is_en_passant_mark("e.p.") && is_en_passant_mark("ep"));
        assert!(!is_en_passant_mark("e4") && !is_en_passant_mark("e.p"));
    }

    #[test]
    fn long_algebraic_becomes_squares() {
        for (long, squares) in [
            ("e2-e4", "e2e4"),
            ("Ng1-f3", "Ng1f3"),
            ("Pe2-e4", "Pe2e4"),
            ("e7-e8=Q", "e7e8Q"),
            ("e7-e8n", "e7e8n"),
            ("e7xd8=Q", "e7xd8Q"),
        ] {
            assert_eq!(long_algebraic(long), squares, "{long}");
        }
        // Anything else is left alone.
        for other in [
            "e4", "Nf3", "O-O", "O-O-O", "0-0", "e7e8q", "e4xd5", "b1^a3c3", "a3c3^b5", "e2-e9",
            "e2-e4=K", "e2-e4x", "Ng1-", "-", "é2-e4", "e2—e4", "",
        ] {
            assert_eq!(long_algebraic(other), other, "{other}");
        }
    }
}
