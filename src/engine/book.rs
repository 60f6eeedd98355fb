//! The opening book: sound first moves of classical chess, played by levels 2 to 5 while
//! the whole board is classical (every piece certainly on its square) and the position
//! is one the book knows.
//!
//! Why: against a classical opponent the search lost most of its games in the opening,
//! on fully classical boards, to tactics deeper than its horizon (docs/measurements.md,
//! "What was tried"). The book covers the main lines and the sensible replies
//! to them for the first moves; as soon as a piece is split, or the opponent leaves the
//! book, the search plays. Quantum moves are never in the book: the search finds those.
//!
//! The book (`book.txt`, made by `scripts/book.py`) is a list of positions, each FEN's
//! placement, side to move and castling rights, with the moves that may be played
//! there. The en passant square is left out of the key (FEN writers disagree on when
//! to write it): a book move is played only when the game finds it legal, so an en
//! passant capture in the book is played only right after the two-step. The choice among them is the seed's.

use super::classical::most_likely;
use crate::chess::board::Square;
use crate::chess::movegen::legal_moves;
use crate::chess::notation::{self, Shape};
use crate::chess::Game;
use crate::seeded::SeededRng;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The book as written.
const BOOK: &str = include_str!("book.txt");

/// Positions (FEN's first three fields) and their book moves (`e2e4`, `e7e8q`).
fn book() -> &'static HashMap<&'static str, Vec<&'static str>> {
    static BOOK_MAP: OnceLock<HashMap<&'static str, Vec<&'static str>>> = OnceLock::new();
    BOOK_MAP.get_or_init(|| entries(BOOK).collect())
}

/// The entries of a book text: lines of placement, side, castling and moves; lines
/// starting with `#` are comments.
fn entries(text: &str) -> impl Iterator<Item = (&str, Vec<&str>)> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|line| {
            // The key is the first three fields; the moves follow.
            let mut cut = line.match_indices(' ').map(|(i, _)| i);
            let end = cut.nth(2)?;
            let moves = line[end..].split_whitespace().collect();
            Some((&line[..end], moves))
        })
}

/// The book's key of a game: FEN's first three fields, when every piece is certainly
/// on its square; `None` for a game with anything in superposition.
fn key(game: &Game) -> Option<String> {
    let st = game.state();
    if !Square::all().all(|s| !st.occupied(s) || st.certain(s)) {
        return None;
    }
    let fen = most_likely(game).ok()?.fen();
    Some(fen.split(' ').take(3).collect::<Vec<_>>().join(" "))
}

/// A book move for `game`, in canonical notation, chosen among the position's book
/// moves by `seed`; `None` out of the book.
pub fn choose(game: &Game, seed: u64) -> Option<String> {
    let moves = book().get(key(game)?.as_str())?;
    let legal: Vec<String> = moves.iter().filter_map(|m| canonical(game, m)).collect();
    SeededRng::new(seed).choose(&legal).cloned()
}

/// A move for `game` chosen by `seed` among every standard move the book holds sound
/// there: the position's book moves and the moves into a position the book holds (the
/// other side's replies it was made with, within 50 cp of the best); `None` when there
/// is none. For matches between engines: their games would otherwise repeat the book's
/// one line per position (docs/engine.md).
pub fn choose_varied(game: &Game, seed: u64) -> Option<String> {
    let own: Vec<String> = key(game)
        .and_then(|k| book().get(k.as_str()))
        .map(|moves| moves.iter().filter_map(|m| canonical(game, m)).collect())
        .unwrap_or_default();
    let into_book = legal_moves(game.state(), false)
        .into_iter()
        .filter(|m| matches!(m.text.shape, Shape::Standard { .. }))
        .map(|m| m.text.to_string())
        .filter(|mv| !own.contains(mv))
        .filter(|mv| {
            let mut next = game.detached();
            next.play(mv).is_ok() && key(&next).is_some_and(|k| book().contains_key(k.as_str()))
        });
    let sound: Vec<String> = own.iter().cloned().chain(into_book).collect();
    SeededRng::new(seed).choose(&sound).cloned()
}

/// Whether `mv` (canonical notation) is one of the book's moves in `game`'s position: a
/// move the computer at a level with the book plays there without searching.
pub fn is_book_move(game: &Game, mv: &str) -> bool {
    key(game)
        .and_then(|k| book().get(k.as_str()))
        .is_some_and(|moves| {
            moves
                .iter()
                .any(|m| canonical(game, m).as_deref() == Some(mv))
        })
}

/// The legal standard move of `game` written `mv` in the book, in canonical notation.
fn canonical(game: &Game, mv: &str) -> Option<String> {
    let text = notation::parse(mv).ok()?;
    let Shape::Standard { from, to } = text.shape else {
        return None;
    };
    legal_moves(game.state(), false)
        .into_iter()
        .find(|m| {
            m.text.shape == (Shape::Standard { from, to }) && m.text.promotion == text.promotion
        })
        .map(|m| m.text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::GameOptions;

    fn game(moves: &[&str]) -> Game {
        let mut g = Game::standard(GameOptions::default());
        for m in moves {
            g.play(m).unwrap();
        }
        g
    }

    #[test]
    fn every_book_move_is_legal_where_it_is_written() {
        let mut positions = 0;
        for (key, moves) in entries(BOOK) {
            assert!(!moves.is_empty(), "{key} has no move");
            let on = |ep: &str| Game::from_fen(&format!("{key} {ep} 0 1"), GameOptions::default());
            let g = on("-").unwrap_or_else(|e| panic!("{key}: {e}"));
            for m in moves {
                // An en passant capture is legal only right after the two-step, which
                // the key does not say: its target as the en passant square.
                let legal = canonical(&g, m).is_some()
                    || on(&m[2..4]).is_ok_and(|g| canonical(&g, m).is_some());
                assert!(legal, "{m} is not legal on {key}");
            }
            positions += 1;
        }
        assert!(positions > 100, "the book has {positions} positions");
    }

    #[test]
    fn the_start_and_the_main_replies_are_in_the_book() {
        let first = choose(&game(&[]), 1).unwrap();
        assert!(["e2e4", "d2d4", "c2c4", "g1f3"].contains(&first.as_str()));
        // The seed chooses: more than one first move is played.
        let firsts: std::collections::HashSet<String> =
            (0..32).filter_map(|s| choose(&game(&[]), s)).collect();
        assert!(firsts.len() > 1, "{firsts:?}");
        for reply in ["e2e4", "d2d4", "c2c4", "g1f3"] {
            assert!(choose(&game(&[reply]), 1).is_some(), "no answer to {reply}");
        }
        // A capture comes back in canonical notation.
        let g = game(&["e2e4", "d7d5"]);
        assert_eq!(canonical(&g, "e4d5").as_deref(), Some("e4xd5"));
    }

    #[test]
    fn a_split_piece_or_an_unknown_position_leaves_the_book() {
        let split = game(&["g1^f3h3"]);
        assert_eq!(key(&split), None);
        assert_eq!(choose(&split, 1), None);
        // A classical position the book does not hold.
        let odd = game(&["a2a3", "h7h6", "h2h4", "a7a5"]);
        assert!(key(&odd).is_some());
        assert_eq!(choose(&odd, 1), None);
    }

    #[test]
    fn varied_choices_are_sound_moves_the_book_knows() {
        // After 1.e4 the book holds one answer for Black; varied, Black also plays the
        // replies the book was made with for White's side.
        let g = game(&["e2e4"]);
        let varied: std::collections::HashSet<String> =
            (0..64).filter_map(|s| choose_varied(&g, s)).collect();
        assert!(varied.len() >= 3, "{varied:?}");
        for mv in &varied {
            let mut next = g.detached();
            next.play(mv).unwrap();
            let known =
                is_book_move(&g, mv) || key(&next).is_some_and(|k| book().contains_key(k.as_str()));
            assert!(known, "{mv} is not a move the book knows");
        }
        assert!(!varied.contains("a7a5"), "not a sound reply");
        // Out of the book and with a split piece: nothing.
        assert_eq!(choose_varied(&game(&["g1^f3h3"]), 1), None);
        let odd = game(&["a2a3", "h7h6", "h2h4", "a7a5"]);
        assert_eq!(choose_varied(&odd, 1), None);
    }

    #[test]
    fn book_moves_are_known_again_in_a_replay() {
        let g = game(&[]);
        let chosen = choose(&g, 5).unwrap();
        assert!(is_book_move(&g, &chosen));
        assert!(!is_book_move(&g, "a2a3"), "not a main line");
        assert!(!is_book_move(&g, "g1^f3h3"), "a split is never a book move");
        let fen = "r1bqkbnr/1pp2ppp/p1n5/3p4/4P3/2N2N2/PP1P1PPP/R1BQKB1R w KQkq - 0 1";
        let g = Game::from_fen(fen, GameOptions::default()).unwrap();
        assert!(is_book_move(&g, "e4xd5"), "in canonical notation");
        assert!(!is_book_move(&g, "e4d5"));
        assert!(
            !is_book_move(&game(&["g1^f3h3"]), "e7e5"),
            "out of the book"
        );
    }

    #[test]
    fn a_key_is_placement_side_and_castling() {
        let g = game(&["e2e4"]);
        assert_eq!(
            key(&g).as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq")
        );
    }
}
