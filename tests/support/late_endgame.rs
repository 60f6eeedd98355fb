//! A late endgame for the engine's benchmark and tests: plies 1 to 261 of game 10 of
//! `qchess match --white engine:4 --black engine:3 --games 10 --seed 5010 --max-plies
//! 300` (the build of eb1563e). Pieces of both sides are split over many squares: 6,192
//! branches, 3,096 in the largest factor, 2,270 legal moves for Black.

use qchess::chess::{Game, GameOptions};

/// The position after the 261 plies.
pub fn late_endgame() -> Game {
    let mut g = Game::standard(GameOptions::default());
    for m in include_str!("late_endgame.txt").split_whitespace() {
        g.play(m).expect("the match game replays");
    }
    g
}
