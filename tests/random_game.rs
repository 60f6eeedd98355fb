//! Seeded random games of 200 plies on both backends, which must agree at every ply.

use qchess::chess::{random::random_move, Game, GameOptions, Square, Status};
use qchess::quantum::BackendKind;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn opts(backend: BackendKind, seed: u64) -> GameOptions {
    GameOptions {
        backend,
        seed,
        ..GameOptions::default()
    }
}

#[test]
fn random_games_agree_on_both_backends() {
    for seed in [0u64, 1, 2] {
        let mut sparse = Game::standard(opts(BackendKind::Sparse, seed));
        let mut dense = Game::standard(opts(BackendKind::Dense, seed));
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
        let mut measured = 0;
        for ply in 0..200 {
            if sparse.status() != Status::Ongoing {
                break;
            }
            let m = random_move(&sparse, &mut rng).expect("a side always has a move here");
            let text = m.to_string();
            let a = sparse
                .play(&text)
                .unwrap_or_else(|e| panic!("seed {seed} ply {ply} {text}: {e}"))
                .clone();
            let b = dense
                .play(&text)
                .unwrap_or_else(|e| panic!("seed {seed} ply {ply} {text} (dense): {e}"))
                .clone();
            assert_eq!(
                a.played, b.played,
                "seed {seed} ply {ply}: same outcome on both backends"
            );
            measured += a.outcome.is_some() as usize;
            for s in Square::all() {
                let (pa, pb) = (sparse.probability(s), dense.probability(s));
                assert!(
                    (pa - pb).abs() < 1e-9,
                    "seed {seed} ply {ply} {s}: {pa} vs {pb}"
                );
            }
            assert_eq!(
                sparse.branch_count(),
                dense.branch_count(),
                "seed {seed} ply {ply}"
            );
            assert_eq!(sparse.fen(), dense.fen());
            assert_eq!(sparse.status(), dense.status());
            let norm: f64 = sparse
                .distribution(usize::MAX)
                .entries
                .iter()
                .map(|(_, p)| p)
                .sum();
            assert!(
                (norm - 1.0).abs() < 1e-9,
                "seed {seed} ply {ply}: norm {norm}"
            );
        }
        assert!(
            measured > 0,
            "seed {seed}: the game should measure at least once"
        );
        // Replaying the recorded moves gives the same state.
        let moves: Vec<String> = sparse.history().iter().map(|m| m.played.clone()).collect();
        let again = Game::replay(
            sparse.start().clone(),
            opts(BackendKind::Dense, seed),
            &moves,
        )
        .unwrap_or_else(|(i, e)| panic!("replay failed at {i}: {e}"));
        assert_eq!(again.fen(), sparse.fen());
        assert_eq!(
            again.distribution(usize::MAX).entries.len(),
            sparse.distribution(usize::MAX).entries.len()
        );
    }
}
