//! An 80-ply engine game for the review's benchmark and tests: level 3 (white, seed 11)
//! against level 2 (black, seed 12) from the standard start, the build of a7e5bea.
//! Splits, merges and measured captures on both sides; not finished at ply 80.

/// The game's moves as recorded.
pub fn review_game() -> Vec<String> {
    include_str!("review_game.txt")
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// The game replayed (seed 0, sparse backend).
pub fn review_game_played() -> Box<dyn qchess::game::Playable> {
    use qchess::game::{RuleSet, Setup};
    use qchess::variants::replay;
    replay(&Setup::new(RuleSet::Quantum, 0), &review_game(), None).expect("the review game replays")
}
