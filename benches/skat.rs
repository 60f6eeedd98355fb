//! Skat lab benchmarks: analysing the paper's nine-card endgame (target: 50 ms), and a
//! larger endgame with five cards each (126 distributions).

#[path = "support/full_run.rs"]
mod full_run;

use criterion::{criterion_group, criterion_main, Criterion};
use full_run::full_run;
use qchess::quantum::BackendKind;
use qchess::skat::encode::EncodingKind;
use qchess::skat::endgame::preset;
use qchess::skat::{analyze, AnalyzeOptions, Endgame};
use std::hint::black_box;
use std::time::Duration;

fn opts(backend: BackendKind, counting_qubits: usize, encoding: EncodingKind) -> AnalyzeOptions {
    AnalyzeOptions {
        backend,
        counting_qubits,
        encoding,
        ..AnalyzeOptions::default()
    }
}

fn nine_card(c: &mut Criterion) {
    let eg = Endgame::from_toml(preset("nine-card").unwrap()).unwrap();
    let mut g = c.benchmark_group("skat/nine-card");
    for backend in [BackendKind::Sparse, BackendKind::Dense] {
        g.bench_function(format!("{backend}/owners/t6"), |b| {
            b.iter(|| analyze(black_box(&eg), &opts(backend, 6, EncodingKind::Owners)).unwrap())
        });
    }
    g.bench_function("sparse/owners/exact-only", |b| {
        b.iter(|| {
            analyze(
                black_box(&eg),
                &opts(BackendKind::Sparse, 0, EncodingKind::Owners),
            )
            .unwrap()
        })
    });
    g.finish();
}

fn five_each(c: &mut Criterion) {
    let eg = Endgame::from_toml(preset("five-each").unwrap()).unwrap();
    let n = analyze(&eg, &opts(BackendKind::Sparse, 0, EncodingKind::Owners))
        .unwrap()
        .deals
        .len();
    eprintln!("skat/five-each: {n} distributions");
    let mut g = c.benchmark_group("skat/five-each");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("sparse/owners/exact-only", |b| {
        b.iter(|| {
            analyze(
                black_box(&eg),
                &opts(BackendKind::Sparse, 0, EncodingKind::Owners),
            )
            .unwrap()
        })
    });
    for backend in [BackendKind::Sparse, BackendKind::Dense] {
        g.bench_function(format!("{backend}/index/t6"), |b| {
            b.iter(|| analyze(black_box(&eg), &opts(backend, 6, EncodingKind::Index)).unwrap())
        });
    }
    // Under `cargo test` (each benchmark run once) this one is left out: it is slow in a
    // test build, and the skat tests analyse with the dense backend already.
    if full_run() {
        g.bench_function("dense/owners/t6", |b| {
            b.iter(|| {
                analyze(
                    black_box(&eg),
                    &opts(BackendKind::Dense, 6, EncodingKind::Owners),
                )
                .unwrap()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, nine_card, five_each);
criterion_main!(benches);
