//! A puzzle's rating, on the scale of chess puzzle ratings (about 400 to 2800), from
//! what makes a puzzle hard to solve:
//!
//! `rating = 800 + 200 (plies - 1) + 100 log2(first moves) - 500 margin`, rounded to
//! tens and kept within [400, 2800], where
//!
//! * `plies` is the length of the proof (1 for "capture the king now", 3 for two moves,
//!   2 for surviving one move of the attacker): each ply to look ahead adds 200;
//! * `first moves` is the number of legal first moves, splits and merges included: each
//!   doubling of the choice adds 100;
//! * `margin` is the optimum minus the best value of any other first move (0.1 to 1 in
//!   the pack): a best move that stands far above the rest is easier to see, up to 500
//!   less.

/// The rating of a puzzle of `plies` plies, with `first_moves` legal first moves, whose
/// best move beats every other by `margin`.
pub fn rating(plies: u32, first_moves: usize, margin: f64) -> u32 {
    let r = 800.0 + 200.0 * (plies.max(1) - 1) as f64 + 100.0 * (first_moves.max(1) as f64).log2()
        - 500.0 * margin.clamp(0.0, 1.0);
    ((r / 10.0).round() * 10.0).clamp(400.0, 2800.0) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longer_wider_and_closer_puzzles_rate_higher() {
        // One ply, 32 moves, a margin of 1: 800 + 500 - 500.
        assert_eq!(rating(1, 32, 1.0), 800);
        assert!(rating(3, 32, 1.0) > rating(1, 32, 1.0));
        assert!(rating(1, 64, 1.0) > rating(1, 32, 1.0));
        assert!(rating(1, 32, 0.2) > rating(1, 32, 1.0));
        assert_eq!(rating(1, 1, 1.0), 400);
        assert_eq!(rating(5, 1 << 20, 0.0), 2800);
    }
}
