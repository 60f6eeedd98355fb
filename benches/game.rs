//! The seeded 200-ply random game: time per move (median, p99) on each backend and the
//! largest branch count reached; the first 40 plies of it as an ordinary game; the split
//! storm and the knight storm (independent pieces in superposition, one
//! factor each).

#[path = "support/full_run.rs"]
mod full_run;
#[path = "../tests/support/storms.rs"]
mod storms;

use criterion::{criterion_group, criterion_main, Criterion};
use full_run::full_run;
use qchess::chess::{random::seeded_game, Game, GameOptions};
use qchess::quantum::{BackendKind, SimulatorSettings};
use std::time::{Duration, Instant};

const SEED: u64 = 0;

/// The seeded game's moves, chosen once on the sparse backend.
fn moves() -> Vec<String> {
    seeded_game(SEED, 200)
}

fn opts(backend: BackendKind) -> GameOptions {
    GameOptions {
        simulator: SimulatorSettings::on(backend),
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

/// Plays a storm once, timing each ply; prints the median and largest ply time, the
/// total, and the state's size.
fn report_storm(storm: storms::Storm, backend: BackendKind) -> Duration {
    let mut g = storm.start(opts(backend));
    let mut times = Vec::new();
    let start = Instant::now();
    for m in storm.moves() {
        let t = Instant::now();
        g.play(m).expect("legal");
        times.push(t.elapsed());
    }
    let total = start.elapsed();
    times.sort();
    eprintln!(
        "{}/{backend}: {} plies in {total:?}, median {:?}/ply, max {:?}/ply; {} branches in {} factors",
        storm.name,
        times.len(),
        times[times.len() / 2],
        times.last().copied().unwrap_or(Duration::ZERO),
        g.branch_count(),
        g.simulator().backend().factor_sizes().len(),
    );
    total
}

/// The first plies of the seeded game, timed as a whole.
fn report_ordinary(backend: BackendKind, moves: &[String]) -> Duration {
    let start = Instant::now();
    replay(backend, moves);
    start.elapsed()
}

fn replay(backend: BackendKind, moves: &[String]) -> Game {
    Game::replay(
        qchess::chess::fen::parse(qchess::chess::fen::START_FEN).expect("start"),
        opts(backend),
        moves,
    )
    .expect("replays")
}

/// The storms against an ordinary game of as many plies.
fn bench_storms(c: &mut Criterion, moves: &[String], timing: bool) {
    let ordinary = &moves[..40.min(moves.len())];
    let mut group = c.benchmark_group("storms");
    group.sample_size(20);
    for backend in [BackendKind::Sparse, BackendKind::Dense] {
        if timing {
            // Best of five, to see past the noise of a shared machine.
            let best = |f: &dyn Fn() -> Duration| (0..5).map(|_| f()).min().expect("five runs");
            let base = best(&|| report_ordinary(backend, ordinary));
            let storm = best(&|| report_storm(storms::SPLIT, backend));
            let knights = best(&|| report_storm(storms::KNIGHTS, backend));
            eprintln!(
                "storms/{backend}: 40-ply ordinary game {base:?}; split storm {storm:?} ({:.2}x); knight storm {knights:?}",
                storm.as_secs_f64() / base.as_secs_f64()
            );
        }
        group.bench_function(format!("ordinary_40/{}", backend.name()), |b| {
            b.iter(|| replay(backend, ordinary))
        });
        for storm in [storms::SPLIT, storms::KNIGHTS] {
            group.bench_function(format!("{}/{}", storm.name, backend.name()), |b| {
                b.iter(|| storm.play(opts(backend), usize::MAX))
            });
        }
    }
    group.finish();
}

/// What a search pays to look one move ahead: a clone of the game after 100 plies, then
/// the next move, with the state factored (untouched factors shared) or one register.
fn bench_clone(c: &mut Criterion, moves: &[String]) {
    let mut group = c.benchmark_group("clone_and_move");
    group.sample_size(20);
    for backend in [BackendKind::Sparse, BackendKind::Dense] {
        for factored in [true, false] {
            let o = GameOptions {
                factored,
                ..opts(backend)
            };
            let g = Game::replay(
                qchess::chess::fen::parse(qchess::chess::fen::START_FEN).expect("start"),
                o,
                &moves[..100],
            )
            .expect("replays");
            let name = if factored { "factored" } else { "single" };
            group.bench_function(format!("{name}/{}", backend.name()), |b| {
                b.iter(|| {
                    let mut h = g.clone();
                    h.play(&moves[100]).expect("legal");
                    h
                })
            });
            group.bench_function(format!("{name}/{}/clone_only", backend.name()), |b| {
                b.iter(|| g.clone())
            });
        }
    }
    group.finish();
}

fn bench(c: &mut Criterion) {
    let moves = moves();
    let timing = full_run();
    let mut group = c.benchmark_group("game_200_ply");
    group.sample_size(10);
    for backend in [BackendKind::Sparse, BackendKind::Dense] {
        if timing {
            report(backend, &moves);
        }
        group.bench_function(backend.name(), |b| b.iter(|| replay(backend, &moves)));
    }
    group.finish();
    bench_storms(c, &moves, timing);
    bench_clone(c, &moves);
}

criterion_group!(benches, bench);
criterion_main!(benches);
