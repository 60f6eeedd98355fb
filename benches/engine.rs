//! The engine on the middlegame of the seeded benchmark game (plies 20 to 80 of the game
//! in `benches/game.rs`): time per move of each level (median and maximum over the
//! positions) and nodes per second, then criterion timings of single searches with their
//! nodes per second as throughput (`thrpt`, in elements/s: one element is one node).
//! Last, the same for a late endgame of a level 4 vs level 3 match, where pieces of both
//! sides are split over many squares (`tests/support/late_endgame.rs`): there a node
//! costs most in the simulator, not in the rules. And a game review: the 80-ply engine
//! game of `tests/support/review_game.rs` reviewed at level 3 on one and on two threads.

#[path = "support/full_run.rs"]
mod full_run;
#[path = "../tests/support/late_endgame.rs"]
mod late_endgame;
#[path = "../tests/support/review_game.rs"]
mod review_game;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use full_run::full_run;
use late_endgame::late_endgame;
use qchess::chess::{random::seeded_game, Game, GameOptions, Status};
use qchess::engine::{level, search, Limits};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The middlegame positions: every fourth ply from 20 to 80.
fn positions() -> Vec<Game> {
    let moves = seeded_game(0, 80);
    let mut g = Game::standard(GameOptions::default());
    let mut out = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        g.play(m).expect("the seeded game replays");
        let ply = i + 1;
        if ply >= 20 && ply % 4 == 0 && g.status() == Status::Ongoing {
            out.push(g.clone());
        }
    }
    out
}

/// Searches every position at `level` once; prints median and maximum time per move and
/// nodes per second.
fn report(level_n: u8, games: &[Game]) {
    let stop = AtomicBool::new(false);
    let mut times = Vec::new();
    let (mut nodes, mut total) = (0u64, Duration::ZERO);
    for g in games {
        let t = Instant::now();
        let r = search(g, &level::limits(level_n, 0), &stop, &mut |_| {});
        let dt = t.elapsed();
        times.push(dt);
        nodes += r.info.nodes;
        total += dt;
    }
    times.sort();
    eprintln!(
        "engine/level {level_n}: {} middlegame positions, median {:?}/move, max {:?}/move, {:.0} nodes/s",
        times.len(),
        times[times.len() / 2],
        times.last().copied().unwrap_or_default(),
        nodes as f64 / total.as_secs_f64(),
    );
}

/// Nodes of the late-endgame search: a part of level 3's first iteration. When `cargo
/// test` runs the bench once, a tenth: a node there is slow in a test build.
fn late_nodes() -> u64 {
    if full_run() {
        2_000
    } else {
        200
    }
}

fn bench(c: &mut Criterion) {
    let games = positions();
    if full_run() {
        for l in level::MIN_LEVEL..=level::MAX_LEVEL {
            report(l, &games);
        }
    }
    let middle = &games[games.len() / 2];
    let stop = AtomicBool::new(false);
    let mut group = c.benchmark_group("engine");
    group.sample_size(10);
    for l in [1, 2, 3] {
        // A search limited by depth and nodes visits the same nodes every time.
        let nodes = search(middle, &level::limits(l, 0), &stop, &mut |_| {})
            .info
            .nodes;
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("level {l}, ply {}", middle.ply()), |b| {
            b.iter(|| search(middle, &level::limits(l, 0), &stop, &mut |_| {}))
        });
    }
    let late = late_endgame();
    let late_nodes = late_nodes();
    let limits = Limits {
        nodes: Some(late_nodes),
        ..level::limits(3, 0)
    };
    group.throughput(Throughput::Elements(late_nodes));
    group.bench_function(
        format!("late endgame, ply {}, {late_nodes} nodes", late.ply()),
        |b| b.iter(|| search(&late, &limits, &stop, &mut |_| {})),
    );
    group.finish();
}

/// Reviews the 80-ply game at level 3 with 1 and 2 threads (every position judged,
/// nothing kept from an earlier review). When `cargo test` runs it once, only the game's
/// first 10 plies: the whole game is too slow for a test build.
fn review(c: &mut Criterion) {
    use qchess::game::{RuleSet, Setup};
    use qchess::review::{review, Judge};
    use qchess::variants::replay;
    let game = if full_run() {
        review_game::review_game_played()
    } else {
        let moves = &review_game::review_game()[..10];
        replay(&Setup::new(RuleSet::Quantum, 0), moves, None).expect("the game replays")
    };
    let plies = game.history().len();
    let stop = AtomicBool::new(false);
    let mut group = c.benchmark_group("review");
    group.sample_size(10);
    for threads in [1, 2] {
        group.bench_function(
            format!("{plies}-ply game, level 3, {threads} threads"),
            |b| {
                b.iter(|| {
                    review(
                        game.as_ref(),
                        Judge::Level(3),
                        threads,
                        None,
                        &stop,
                        &mut |_, _, _| {},
                    )
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench, review);
criterion_main!(benches);
