//! A greedy 1-ply player for the variants (harmonics, haft), through [`Playable`]:
//! each legal move is played on a copy, and the move leaving the best king presence and
//! expected material for the mover is chosen (a won game above everything).
//!
//! Harmonics draws a conflict's outcome from the game's random source. A copy of the
//! game would draw the very outcome the real move will draw, so the player would see
//! the future: it plays the moves on a copy rebuilt from the start with its own seed
//! instead (the recorded moves carry their outcomes, so the copy reaches the same
//! state). Haft has no randomness: plain copies.

use super::choice::{Choice, PlayerError};
use super::eval::{value, KING, WIN};
use super::search::Info;
use crate::chess::{Color, Kind, Status};
use crate::game::Playable;
use crate::seeded::SeededRng;
use crate::variants::replay;
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
        let moves: Vec<String> = game.history().iter().map(|r| r.text.clone()).collect();
        if let Ok(copy) = replay(&setup, &moves, None) {
            return copy;
        }
    }
    game.clone_box()
}

/// Each legal move of `game` with its value for the side to move: the mean over copies
/// whose random source is seeded by each of `seeds` (one plain copy when the game draws
/// no outcomes), in the order the game lists them; a move that cannot be played is
/// left out.
pub fn move_values(game: &dyn Playable, seeds: &[u64]) -> Vec<(String, f64)> {
    valued(game, trial_copies(game, seeds), &|after, side, _| {
        variant_value(after, side)
    })
}

/// [`move_values`] one ply deeper: each move valued after the other side's greedy
/// reply (the reply that leaves the mover the least), so a piece left to be taken
/// counts as lost. The replies are tried on the copy the move was played on, whose
/// random source is already not the game's.
pub fn move_values_after_reply(game: &dyn Playable, seeds: &[u64]) -> Vec<(String, f64)> {
    valued(game, trial_copies(game, seeds), &|after, side, seed| {
        let plain = vec![(seed, after.clone_box())];
        valued(after, plain, &|reply, _, _| variant_value(reply, side))
            .into_iter()
            .map(|(_, v)| v)
            .min_by(f64::total_cmp)
            .unwrap_or_else(|| variant_value(after, side))
    })
}

/// The copies of `game` to try moves on: one per seed when the game draws outcomes,
/// else one plain copy.
fn trial_copies(game: &dyn Playable, seeds: &[u64]) -> Vec<(u64, Box<dyn Playable>)> {
    if game.draws_outcomes() {
        seeds.iter().map(|&s| (s, trial_copy(game, s))).collect()
    } else {
        vec![(seeds.first().copied().unwrap_or(0), game.clone_box())]
    }
}

/// Each legal move of `game` with the mean over `copies` of `value(position after
/// it, mover, copy's seed)` (the first copy alone for a move that draws no outcome).
fn valued(
    game: &dyn Playable,
    copies: Vec<(u64, Box<dyn Playable>)>,
    value: &dyn Fn(&dyn Playable, Color, u64) -> f64,
) -> Vec<(String, f64)> {
    let side = game.to_move();
    game.legal_moves()
        .into_iter()
        .filter_map(|mv| {
            let (mut sum, mut tried) = (0.0, 0);
            for (seed, base) in &copies {
                let mut copy = base.clone_box();
                let drew = copy.play(&mv).ok()?.explanation.measured();
                sum += value(copy.as_ref(), side, *seed);
                tried += 1;
                // A move that drew nothing comes out the same on every copy.
                if !drew {
                    break;
                }
            }
            Some((mv, sum / tried as f64))
        })
        .collect()
}

/// The greedy choice in a variant game; equal moves are chosen among by `seed`.
pub fn greedy_variant(game: &dyn Playable, seed: u64) -> Result<Choice, PlayerError> {
    let start = Instant::now();
    let mut values = move_values(game, &[seed]);
    let nodes = values.len() as u64;
    SeededRng::new(seed).shuffle(&mut values);
    let mut best: Option<&(String, f64)> = None;
    for v in &values {
        if best.is_none_or(|b| v.1 > b.1) {
            best = Some(v);
        }
    }
    let (mv, score) = best.cloned().ok_or(PlayerError::NoMove)?;
    Ok(Choice {
        mv: mv.clone(),
        info: Some(Info {
            depth: 1,
            score,
            nodes,
            time: start.elapsed(),
            pv: vec![mv],
        }),
        from_book: false,
        expected: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{RuleSet, Setup};
    use crate::variants::new_game;

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
