//! Seeded random games of 200 plies on both backends, which must agree at every ply.

use qchess::chess::{random::random_move, Game, GameOptions, Square, Status};
use qchess::quantum::{BackendKind, SimulatorSettings};
use qchess::seeded::SeededRng;

fn opts(backend: BackendKind, seed: u64) -> GameOptions {
    GameOptions {
        simulator: SimulatorSettings::on(backend),
        seed,
        ..GameOptions::default()
    }
}

#[test]
fn random_games_agree_on_both_backends() {
    for seed in [0u64, 1, 2] {
        let mut sparse = Game::standard(opts(BackendKind::Sparse, seed));
        let mut dense = Game::standard(opts(BackendKind::Dense, seed));
        let mut rng = SeededRng::new(seed ^ 0x5eed);
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

/// The norm of a game's state: the probabilities of its distribution, summed.
fn norm(g: &Game) -> f64 {
    g.distribution(usize::MAX)
        .entries
        .iter()
        .map(|(_, p)| p)
        .sum()
}

/// A game is left for a new one once this many squares are in superposition, so that
/// the property test stays fast (random play otherwise grows dense states past 2^26
/// amplitudes).
const MAX_SUPERPOSED: usize = 14;

fn superposed(g: &Game) -> usize {
    Square::all()
        .filter(|&s| {
            let p = g.probability(s);
            p > 1e-12 && p < 1.0 - 1e-12
        })
        .count()
}

/// The simulator's property: 1000 seeded random legal moves (a new game when one ends or its
/// state passes [`MAX_SUPERPOSED`]), each played on both backends, keep the norm within
/// 1e-12 of 1 and the backends within 1e-9 of each other on every square and every
/// occupancy.
#[test]
fn a_thousand_random_moves_keep_the_norm_and_the_backends_equal() {
    let mut rng = SeededRng::new(0x1000);
    let (mut played, mut games, mut worst_norm) = (0, 0u64, 0.0f64);
    while played < 1000 {
        let mut sparse = Game::standard(opts(BackendKind::Sparse, games));
        let mut dense = Game::standard(opts(BackendKind::Dense, games));
        games += 1;
        while played < 1000
            && sparse.status() == Status::Ongoing
            && superposed(&sparse) <= MAX_SUPERPOSED
        {
            let Some(m) = random_move(&sparse, &mut rng) else {
                break;
            };
            let text = m.to_string();
            let a = sparse
                .play(&text)
                .unwrap_or_else(|e| panic!("{text}: {e}"))
                .played
                .clone();
            let b = dense
                .play(&text)
                .unwrap_or_else(|e| panic!("{text}: {e}"))
                .played
                .clone();
            assert_eq!(a, b, "move {played}: the same outcome");
            played += 1;
            for g in [&sparse, &dense] {
                let off = (norm(g) - 1.0).abs();
                worst_norm = worst_norm.max(off);
                assert!(off < 1e-12, "move {played} ({text}): norm off by {off:e}");
            }
            for s in Square::all() {
                let (pa, pb) = (sparse.probability(s), dense.probability(s));
                assert!((pa - pb).abs() < 1e-9, "move {played} {s}: {pa} vs {pb}");
            }
            let (da, db) = (
                sparse.distribution(usize::MAX).entries,
                dense.distribution(usize::MAX).entries,
            );
            assert_eq!(da.len(), db.len(), "move {played}");
            for ((sa, pa), (sb, pb)) in da.iter().zip(&db) {
                assert_eq!(sa, sb, "move {played}");
                assert!((pa - pb).abs() < 1e-9, "move {played}: {pa} vs {pb}");
            }
        }
    }
    assert!(games >= 2, "{games} games");
    eprintln!("{played} moves in {games} games, worst norm error {worst_norm:e}");
}
