//! Harmonics variant: time per move with 2^10 and 2^14 harmonics (targets: 5 ms and
//! 80 ms), for an ordinary move and a quantum move made in every harmonic, and the time
//! to list the legal moves.
//!
//! The states come from a fixed position with seven knights a side: each knight makes
//! one quantum move to its own square, doubling the harmonics every time.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use qchess::game::Playable;
use qchess::variants::harmonics::HarmonicsGame;
use std::hint::black_box;

/// Seven knights a side on the back ranks, the kings on h1/h8, a white rook on a4.
const FEN: &str = "nnnnnnnk/8/8/8/R7/8/8/NNNNNNNK w - - 0 1";

/// Quantum moves that double the harmonics, white and black in turn.
const DOUBLINGS: [&str; 14] = [
    "a1~b3", "a8~b6", "b1~d2", "b8~d7", "c1~e2", "c8~e7", "d1~f2", "d8~f7", "e1~g2", "e8~g7",
    "f1~h2", "f8~h7", "g1~f3", "g8~f6",
];

/// A game with 2^n harmonics, white to move (n even).
fn state(n: usize) -> HarmonicsGame {
    let mut g = HarmonicsGame::from_fen(FEN, 1).expect("the benchmark FEN is valid");
    for m in &DOUBLINGS[..n] {
        g.play(m).expect("each doubling is legal");
    }
    assert_eq!(g.superposition().len(), 1 << n);
    g
}

fn moves(c: &mut Criterion) {
    for n in [10, 14] {
        let g = state(n);
        let mut group = c.benchmark_group(format!("harmonics/2^{n}"));
        if n == 14 {
            group.sample_size(20);
        }
        // The rook slides along the empty fourth rank in every harmonic.
        group.bench_function("ordinary a4h4", |b| {
            b.iter_batched(
                || g.clone(),
                |mut g| {
                    g.play(black_box("a4h4")).expect("legal");
                    g
                },
                BatchSize::LargeInput,
            )
        });
        // Every harmonic splits; at 2^14 the bound then measures one square.
        group.bench_function("quantum a4~h5", |b| {
            b.iter_batched(
                || g.clone(),
                |mut g| {
                    g.play(black_box("a4~h5")).expect("legal");
                    g
                },
                BatchSize::LargeInput,
            )
        });
        group.bench_function("legal_moves", |b| b.iter(|| black_box(&g).legal_moves()));
        group.finish();
    }
}

criterion_group!(benches, moves);
criterion_main!(benches);
