//! White's expected result, in [0, 1], from an engine score.
//!
//! The one mapping every screen and report uses (the review's graph and marks, the
//! probabilities pane's engine line):
//!
//! * a won or lost game, or a score the search proved to be one (within
//!   [`MAX_PLY`] plies of `±WIN`: a king captured with certainty on its line), is
//!   exactly 1 or 0, and nothing else is (at most [`UNPROVED`]); a drawn game is 0.5;
//! * any other score `s` (centipawns for White) gives
//!   `0.5 + 0.5 * (MATERIAL * tanh(s / SCALE) + (1 - MATERIAL) * clamp(s / KING))`:
//!   a steep part that saturates after a few pieces (as a chess player counts a piece
//!   up in an even position: a pawn 0.58, a knight 0.70, a rook 0.76, a queen 0.81),
//!   and a part linear in the engine's king scale ([`KING`] centipawns: the king's
//!   presence), so that a king half captured, or under a threat worth a third of it,
//!   is a big advantage but not a won game (half a king 0.90, a third 0.87) until the
//!   search proves the capture.
//!
//! So 0 cp is 0.5 (the start: the engine's score there is a few centipawns, 0.51 or
//! so), and a loss of 0.1 in expected result is about a minor piece given away in an
//! even position, less in a position already decided (as chess players count it: a
//! piece matters less when the game is won anyway).

use super::eval::{KING, WIN};
use super::search::MAX_PLY;
use crate::chess::{Color, Status};
pub use crate::record::review::{for_side, rounded};

/// Centipawns over which the material part of the curve saturates.
pub const SCALE: f64 = 400.0;
/// The weight of the material part (the rest is linear in the king's scale).
pub const MATERIAL: f64 = 0.6;

/// The most White's expected result is for a score the search has not proved (1 minus
/// it the least): a shot at a king that may fail is never written as a won game, though
/// the king's part of the curve saturates at [`KING`].
pub const UNPROVED: f64 = 0.99;

/// White's expected result for a score of `white_cp` centipawns for White.
pub fn from_white(white_cp: f64) -> f64 {
    let proved = WIN - MAX_PLY as f64;
    if white_cp >= proved {
        1.0
    } else if white_cp <= -proved {
        0.0
    } else {
        let material = (white_cp / SCALE).tanh();
        let king = (white_cp / KING).clamp(-1.0, 1.0);
        (0.5 + 0.5 * (MATERIAL * material + (1.0 - MATERIAL) * king))
            .clamp(1.0 - UNPROVED, UNPROVED)
    }
}

/// White's expected result for a score of `cp` centipawns for `side`.
pub fn from_side(cp: f64, side: Color) -> f64 {
    from_white(match side {
        Color::White => cp,
        Color::Black => -cp,
    })
}

/// White's result of a finished game; `None` while it goes on.
pub fn of_status(status: Status) -> Option<f64> {
    match status {
        Status::WhiteWins => Some(1.0),
        Status::BlackWins => Some(0.0),
        Status::Draw => Some(0.5),
        Status::Ongoing => None,
    }
}

/// "0.54": an expected result as the screens write it.
pub fn words(white: f64) -> String {
    format!("{white:.2}")
}

/// Who stands better, in a chess player's words, for White's expected result `white`:
/// "about even" (within 0.04 of a half: up to about 70 cp), "white is slightly better"
/// (about a pawn), "white is better" (from 0.62: two pawns, a minor piece), "white is
/// winning" (from 0.75: a rook, or a good part of the other king captured), "white
/// wins by force" (a king capture the search proved); the same for Black.
pub fn verdict(white: f64) -> String {
    let (side, lead) = if white >= 0.5 {
        ("white", white - 0.5)
    } else {
        ("black", 0.5 - white)
    };
    match lead {
        l if l >= 0.5 => format!("{side} wins by force"),
        l if l >= 0.25 => format!("{side} is winning"),
        l if l >= 0.12 => format!("{side} is better"),
        l if l >= 0.04 => format!("{side} is slightly better"),
        _ => "about even".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_is_half_and_a_proved_win_is_whole() {
        assert_eq!(from_white(0.0), 0.5);
        assert_eq!(from_white(WIN - 1.0), 1.0);
        assert_eq!(from_side(WIN - 3.0, Color::Black), 0.0);
        assert_eq!(from_side(-(WIN - 2.0), Color::Black), 1.0);
    }

    #[test]
    fn the_curve_rises_with_the_score_and_is_symmetric() {
        let mut last = 0.0;
        for cp in (-20_000..=20_000).step_by(250) {
            let e = from_white(cp as f64);
            assert!(e >= last, "{cp}");
            assert!((e + from_white(-cp as f64) - 1.0).abs() < 1e-12);
            last = e;
        }
        // A queen in an even position is a clear advantage, not a won game.
        let queen = from_white(950.0);
        assert!((0.75..0.9).contains(&queen), "{queen}");
        // Half the king is a big advantage, not a won game.
        let half = from_white(KING / 2.0);
        assert!((0.85..0.95).contains(&half), "{half}");
    }

    #[test]
    fn finished_games_and_sides() {
        assert_eq!(of_status(Status::Draw), Some(0.5));
        assert_eq!(of_status(Status::Ongoing), None);
        assert_eq!(for_side(0.75, Color::Black), 0.25);
        assert_eq!(words(0.537), "0.54");
    }

    #[test]
    fn verdicts_follow_the_material_a_chess_player_counts() {
        assert_eq!(verdict(from_white(0.0)), "about even");
        assert_eq!(verdict(from_white(42.0)), "about even");
        assert_eq!(verdict(from_white(100.0)), "white is slightly better");
        assert_eq!(verdict(from_white(-310.0)), "black is better");
        assert_eq!(verdict(from_white(500.0)), "white is winning");
        assert_eq!(verdict(from_white(-KING / 2.0)), "black is winning");
        assert_eq!(verdict(from_white(WIN - 5.0)), "white wins by force");
        // A capture of the king at an even chance is worth half a won game, 15,000 cp:
        // winning, not won.
        assert_eq!(verdict(from_white(WIN / 2.0)), "white is winning");
        assert_eq!(verdict(from_white(-WIN / 2.0)), "black is winning");
        assert_eq!(words(from_white(WIN / 2.0)), "0.99");
        assert_eq!(
            verdict(from_side(WIN - 5.0, Color::Black)),
            "black wins by force"
        );
    }
}
