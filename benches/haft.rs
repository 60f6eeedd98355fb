//! Haft Schroedinger Chess benchmarks: full legal-move generation at the start and in a
//! middlegame (target: 50 ms each), the census of type shares (after two plies, with
//! most worlds still open, and in the middlegame), and the per-move update
//! (a move played, with everything the next position needs, then taken back).

use criterion::{criterion_group, criterion_main, Criterion};
use qchess::variants::haft::board::Board;
use qchess::variants::haft::census::Census;
use qchess::variants::haft::rules;
use qchess::variants::haft::worlds::Worlds;
use qchess::variants::haft::HaftGame;
use std::hint::black_box;

/// An Italian-game opening played as haft (no castling), 18 plies.
const MIDDLEGAME: &str = "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3 g8f6 d2d4 e5d4 c3d4 c5b4 b1c3 \
                          f6e4 d1d3 d7d5 c4b5 c8g4";

/// The board and worlds after `moves`, through the rules alone.
fn position(moves: &str) -> (Board, Worlds) {
    let (mut board, mut worlds) = (Board::start(), Worlds::new());
    for m in moves.split_whitespace() {
        let t = rules::transition(&board, m.parse().expect("a move")).expect("legal");
        worlds = rules::constrain(&worlds, &t);
        assert!(worlds.feasible(), "{m} is legal");
        board = t.board;
    }
    (board, worlds)
}

fn legal_moves(c: &mut Criterion) {
    let mut g = c.benchmark_group("haft/legal_moves");
    for (name, moves) in [("start", ""), ("middlegame", MIDDLEGAME)] {
        let (board, worlds) = position(moves);
        eprintln!(
            "haft/{name}: {} worlds, {} legal moves",
            worlds.count(),
            rules::legal_moves(&board, &worlds).len()
        );
        g.bench_function(name, |b| {
            b.iter(|| rules::legal_moves(black_box(&board), black_box(&worlds)))
        });
    }
    g.finish();
}

fn census(c: &mut Criterion) {
    for (name, moves) in [("start", "e2e4 e7e5"), ("middlegame", MIDDLEGAME)] {
        let (_, worlds) = position(moves);
        c.bench_function(&format!("haft/census/{name}"), |b| {
            b.iter(|| Census::new(black_box(&worlds)))
        });
    }
}

fn play(c: &mut Criterion) {
    let mut game = HaftGame::new();
    for m in MIDDLEGAME.split_whitespace() {
        game.play_move(m).expect("legal");
    }
    let mut g = c.benchmark_group("haft/play_and_undo");
    for m in ["h2h3", "d3e3", "c3e4"] {
        g.bench_function(m, |b| {
            b.iter(|| {
                game.play_move(black_box(m)).expect("legal");
                game.take_back().expect("a ply to take back");
            })
        });
    }
    g.finish();
}

criterion_group!(benches, legal_moves, census, play);
criterion_main!(benches);
