//! Random legal moves, for seeded test games and benchmarks.

use super::classify::MoveType;
use super::game::{Game, GameOptions};
use super::movegen::legal_moves;
use super::notation::MoveText;
use super::outcome::Status;
use crate::seeded::SeededRng;

/// A random legal move for the side to move: first a kind of move (standard 70%, split
/// 20%, merge 10%, falling back to any kind that exists), then a move of that kind.
pub fn random_move(game: &Game, rng: &mut SeededRng) -> Option<MoveText> {
    let moves = legal_moves(game.state(), game.options().free_turns);
    let split = |k: MoveType| matches!(k, MoveType::SplitJump | MoveType::SplitSlide);
    let merge = |k: MoveType| matches!(k, MoveType::MergeJump | MoveType::MergeSlide);
    let groups: [Vec<&_>; 3] = [
        moves
            .iter()
            .filter(|m| !split(m.kind) && !merge(m.kind))
            .collect(),
        moves.iter().filter(|m| split(m.kind)).collect(),
        moves.iter().filter(|m| merge(m.kind)).collect(),
    ];
    let roll = rng.index(10);
    let first = if roll < 7 {
        0
    } else if roll < 9 {
        1
    } else {
        2
    };
    [first, 0, 1, 2]
        .iter()
        .find_map(|&g| rng.choose(&groups[g]))
        .map(|m| m.text)
}

/// The seeded random game of the benchmarks: up to `plies` moves of [`random_move`] from
/// the standard start (moves drawn from `seed ^ 0x5eed`, outcomes from `seed`, sparse
/// backend), as played (canonical, with outcomes). Shorter if a king falls first.
pub fn seeded_game(seed: u64, plies: usize) -> Vec<String> {
    let mut g = Game::standard(GameOptions {
        seed,
        ..GameOptions::default()
    });
    let mut rng = SeededRng::new(seed ^ 0x5eed);
    let mut out = Vec::new();
    while out.len() < plies && g.status() == Status::Ongoing {
        let Some(m) = random_move(&g, &mut rng) else {
            break;
        };
        match g.play(&m.to_string()) {
            Ok(played) => out.push(played.played.clone()),
            Err(_) => break,
        }
    }
    out
}
