//! The seeded 200-ply random game: time per move (median, p99) on each backend and the
//! largest branch count reached.

use criterion::{criterion_group, criterion_main, Criterion};
use qchess::chess::{random::seeded_game, Game, GameOptions};
use qchess::quantum::BackendKind;
use std::time::{Duration, Instant};

const SEED: u64 = 0;

/// The seeded game's moves, chosen once on the sparse backend.
fn moves() -> Vec<String> {
    seeded_game(SEED, 200)
}

fn opts(backend: BackendKind) -> GameOptions {
    GameOptions {
        backend,
        seed: SEED,
        ..GameOptions::default()
    }
}

/// Plays the moves once, timing each; prints median, p99 and the largest branch count.
fn report(backend: BackendKind, moves: &[String]) {
    let mut g = Game::standard(opts(backend));
    let mut times = Vec::with_capacity(moves.len());
    let mut max_branches = 0;
    for m in moves {
        let t = Instant::now();
        g.play(m).expect("legal");
        times.push(t.elapsed());
        max_branches = max_branches.max(g.branch_count());
    }
    times.sort();
    let pct = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    eprintln!(
        "game_200_ply/{backend}: {} plies, median {:?}/move, p99 {:?}/move, max {:?}, largest branch count {max_branches}",
        times.len(),
        pct(0.5),
        pct(0.99),
        times.last().copied().unwrap_or(Duration::ZERO),
    );
}

fn bench(c: &mut Criterion) {
    let moves = moves();
    let timing = std::env::args().any(|a| a == "--bench");
    let mut group = c.benchmark_group("game_200_ply");
    group.sample_size(10);
    for backend in [BackendKind::Sparse, BackendKind::Dense] {
        if timing {
            report(backend, &moves);
        }
        group.bench_function(backend.name(), |b| {
            b.iter(|| {
                Game::replay(
                    qchess::chess::fen::parse(qchess::chess::fen::START_FEN).expect("start"),
                    opts(backend),
                    &moves,
                )
                .expect("replays")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
