//! A greedy 1-ply player for the variants (harmonics, haft), through [`Playable`]:
//! each legal move is played on a copy, and the move leaving the best king presence and
//! expected material for the mover is chosen (a won game above everything).
//!
//! Harmonics draws a conflict's outcome from the game's random source. A copy of the
//! game would draw the very outcome the real move will draw, so the player would see
//! the future: it plays the moves on a copy rebuilt from the start with its own seed
//! instead (the recorded moves carry their outcomes, so the copy reaches the same
//! state). Haft has no randomness: plain copies.

use super::eval::{value, KING, WIN};
use super::player::{Choice, PlayerError};
use super::search::Info;
use crate::chess::{Color, Kind, Status};
use crate::game::{replay, Playable};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// Value of a haft piece whose type is still open: the mean of a back rank's non-king
/// pieces (Q, R, R, B, B, N, N).
const OPEN_TYPE: f64 = (950.0 + 2.0 * 500.0 + 2.0 * 330.0 + 2.0 * 310.0) / 7.0;

/// The value of a variant position for `side`.
pub fn variant_value(game: &dyn Playable, side: Color) -> f64 {
    let sign = |c: Color| if c == side { 1.0 } else { -1.0 };
    match game.status() {
        Status::WhiteWins => return sign(Color::White) * WIN,
        Status::BlackWins => return sign(Color::Black) * WIN,
        Status::Draw => return 0.0,
        Status::Ongoing => {}
    }
    game.cells()
        .iter()
        .map(|(_, c)| {
            let v = match c.kind {
                Some(Kind::King) => KING,
                Some(k) => value(k),
                None => OPEN_TYPE,
            };
            sign(c.color) * v * c.probability
        })
        .sum()
}

/// A copy of `game` to try moves on whose random source is seeded by `seed`.
fn trial_copy(game: &dyn Playable, seed: u64) -> Box<dyn Playable> {
    if game.draws_outcomes() {
        let mut setup = game.setup();
        setup.options.seed = seed;
        let moves: Vec<String> = game.history().into_iter().map(|r| r.text).collect();
        if let Ok(copy) = replay(&setup, &moves, None) {
            return copy;
        }
    }
    game.clone_box()
}

/// The greedy choice in a variant game; equal moves are chosen among by `seed`.
pub fn greedy_variant(game: &dyn Playable, seed: u64) -> Result<Choice, PlayerError> {
    let mut moves = game.legal_moves();
    moves.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    let start = Instant::now();
    let side = game.to_move();
    let base = trial_copy(game, seed);
    let mut best: Option<(f64, String)> = None;
    let mut nodes = 0;
    for mv in moves {
        let mut copy = base.clone_box();
        nodes += 1;
        if copy.play(&mv).is_err() {
            continue;
        }
        let v = variant_value(copy.as_ref(), side);
        if best.as_ref().is_none_or(|(b, _)| v > *b) {
            best = Some((v, mv));
        }
    }
    let (score, mv) = best.ok_or(PlayerError::NoMove)?;
    Ok(Choice {
        mv: mv.clone(),
        info: Some(Info {
            depth: 1,
            score,
            nodes,
            time: start.elapsed(),
            pv: vec![mv],
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{new_game, RuleSet, Setup};

    #[test]
    fn greedy_takes_the_queen_in_harmonics() {
        // White's rook on a1 can take the black queen on a8.
        let start = Some("q3k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let mut g = new_game(&Setup::with_start(RuleSet::Harmonics, start, 1)).unwrap();
        let c = greedy_variant(g.as_ref(), 7).unwrap();
        assert_eq!(c.mv, "a1a8");
        g.play(&c.mv).unwrap();
    }

    #[test]
    fn greedy_plays_haft() {
        let mut g = new_game(&Setup::with_start(RuleSet::Haft, None, 0)).unwrap();
        for _ in 0..4 {
            let c = greedy_variant(g.as_ref(), 3).unwrap();
            g.play(&c.mv).unwrap();
        }
        assert_eq!(g.history().len(), 4);
    }
}
