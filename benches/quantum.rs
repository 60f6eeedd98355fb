//! Simulator benchmarks: sparse gates per branch, a whole capture-like move, the dense
//! kernel against plain memory-copy bandwidth, and the sparse/dense crossover.
//!
//! `cargo bench --bench quantum` runs everything; under `cargo test --all-targets` each
//! benchmark runs once, on small sizes only.

#[path = "support/full_run.rs"]
mod full_run;

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use full_run::full_run;
use qchess::quantum::{
    Backend, BackendKind, BackendOptions, Bits, Complex64, Control, DenseBackend, Gate, Simulator,
    SparseBackend,
};
use qchess::seeded::SeededRng;
use std::time::Duration;

/// Occupancy of the chess starting position (ranks 1, 2, 7, 8).
const START: u64 = 0xFFFF_0000_0000_FFFF;

/// Board-like branches: the starting position with the knight on b1 (1) split with
/// c3 (18), and `n / 2` distinct ancilla patterns on qubits 64.. (bit 64 is the control
/// of the benchmarked ISWAP). All amplitudes are equal.
fn board_branches(n: usize) -> Vec<(Bits, Complex64)> {
    let amp = Complex64::new((1.0 / n as f64).sqrt(), 0.0);
    let mut v = Vec::with_capacity(n);
    for i in 0..n / 2 {
        let mut b = Bits::from_qubits((0..64).filter(|&q| START >> q & 1 == 1));
        for k in 0..usize::BITS as usize - i.leading_zeros() as usize {
            b.set(64 + k, i >> k & 1 == 1);
        }
        v.push((b, amp));
        v.push((b.with(1, false).with(18, true), amp));
    }
    v
}

/// The two benchmarked sparse gates: SQRT_ISWAP on the split knight (both halves stay
/// populated, so the branch count is steady), then the g1 knight to f3 where ancilla 64
/// is 1 and e3, e4 are clear.
fn sparse_step(s: &mut SparseBackend) {
    s.apply(Gate::SqrtISwap, &[1, 18], &[]).unwrap();
    s.apply(
        Gate::ISwap,
        &[6, 21],
        &[Control::Bit(64, true), Control::Clear(vec![20, 28])],
    )
    .unwrap();
}

fn sparse_gates(c: &mut Criterion) {
    let sizes: &[u32] = if full_run() {
        &[10, 14, 16, 18, 20]
    } else {
        &[10, 14]
    };
    let mut g = c.benchmark_group("sparse_two_gates");
    g.warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(20);
    for &e in sizes {
        let n = 1usize << e;
        // Elements = branch-gates, so the reported time per element is ns/branch/gate.
        g.throughput(Throughput::Elements(2 * n as u64));
        g.bench_function(BenchmarkId::from_parameter(format!("2^{e}")), |b| {
            let mut s = SparseBackend::from_branches(&board_branches(n));
            b.iter(|| sparse_step(&mut s));
            assert_eq!(s.branch_count(), n);
        });
    }
    g.finish();
}

/// A capture-like move on 2^12 branches: the queen on d1 (3) captures on d4 (27), which
/// holds a piece in superposition. Measure "d1 occupied and d2, d3 clear" (forced to 1),
/// allocate an ancilla, ISWAP(d4, ancilla), ISWAP(d1, d4) with the path control. One
/// register, so that the move does work on all 2^12 branches (factored, the ancillas
/// would be factors of their own).
fn whole_move(c: &mut Criterion) {
    let mut sim = Simulator::new(
        BackendKind::Sparse,
        Bits::from_qubits((0..64).filter(|&q| START >> q & 1 == 1 && q != 11)),
        64,
        7,
        BackendOptions {
            factored: false,
            ..BackendOptions::default()
        },
    );
    // The d2 pawn (11) was split d3 (19) / d4 (27) and the b1 knight (1) split with
    // c3 (18); ten ancillas in |+> make 2^12 branches.
    sim.apply(Gate::X, &[27], &[]).unwrap();
    sim.apply(Gate::SqrtISwap, &[27, 19], &[]).unwrap();
    sim.apply(Gate::SqrtISwap, &[1, 18], &[]).unwrap();
    for _ in 0..10 {
        let a = sim.alloc().unwrap();
        sim.apply(Gate::H, &[a], &[]).unwrap();
    }
    assert_eq!(sim.backend().branch_count(), 1 << 12);
    let path = vec![11, 19];
    c.bench_function("sparse_whole_move/2^12", |b| {
        b.iter_batched(
            || sim.clone(),
            |mut s| {
                s.measure(
                    &[Control::Bit(3, true), Control::Clear(path.clone())],
                    Some(true),
                )
                .unwrap();
                let a = s.alloc().unwrap();
                s.apply(Gate::ISwap, &[27, a], &[]).unwrap();
                s.apply(Gate::ISwap, &[3, 27], &[Control::Clear(path.clone())])
                    .unwrap();
                s
            },
            BatchSize::SmallInput,
        )
    });
}

/// A dense state with `n` live qubits, all in |+>.
fn dense_plus(n: u16) -> DenseBackend {
    let mut d = DenseBackend::new(Bits::ZERO, n as u32);
    for q in 0..n {
        d.apply(Gate::H, &[q], &[]).unwrap();
    }
    d
}

fn dense_bandwidth(c: &mut Criterion) {
    let sizes: &[u16] = if full_run() { &[20, 24, 26] } else { &[16, 20] };
    let mut g = c.benchmark_group("dense_bandwidth");
    g.warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .sample_size(10);
    for &n in sizes {
        let len = 1usize << n;
        g.throughput(Throughput::Bytes((len * 16) as u64));
        g.bench_function(BenchmarkId::new("copy", n), |b| {
            let src = vec![Complex64::new(0.5, 0.25); len];
            let mut dst = vec![Complex64::new(0.0, 0.0); len];
            b.iter(|| dst.copy_from_slice(&src))
        });
        // Low targets: every cache line of the state is read and written.
        g.bench_function(BenchmarkId::new("sqrt_iswap_low", n), |b| {
            let mut d = dense_plus(n);
            b.iter(|| d.apply(Gate::SqrtISwap, &[0, 1], &[]).unwrap())
        });
        // High targets: half of the cache lines are touched.
        g.bench_function(BenchmarkId::new("sqrt_iswap_high", n), |b| {
            let mut d = dense_plus(n);
            b.iter(|| d.apply(Gate::SqrtISwap, &[n - 2, n - 1], &[]).unwrap());
            assert_eq!(d.live_qubits(), n as usize);
        });
    }
    g.finish();
}

/// `m` branches over `n` qubits for the crossover: random distinct patterns of qubits
/// 1..n (qubit 1 picking the pair class), each giving two branches: |00>,|11> or
/// |01>,|10> on qubits 0 and 1, so SQRT_ISWAP(0, 1) keeps the count.
fn random_branches(n: u32, m: usize, rng: &mut SeededRng) -> Vec<(Bits, Complex64)> {
    let mut patterns: Vec<usize> = (0..1usize << (n - 1)).collect();
    rng.shuffle(&mut patterns);
    let amp = Complex64::new((0.5 / m as f64).sqrt(), 0.0);
    let mut v = Vec::with_capacity(2 * m);
    for &p in &patterns[..m] {
        let idx = p << 1;
        let other = idx ^ 0b11;
        for i in [idx, other] {
            let mut b = Bits::from_qubits([40, 41, 42]);
            for q in 0..n as usize {
                b.set(q, i >> q & 1 == 1);
            }
            v.push((b, amp));
        }
    }
    v
}

/// The crossover circuit: SQRT_ISWAP(0, 1), then ISWAP(2, 3) where qubit 4 is 1.
fn crossover_step(s: &mut dyn Backend) {
    s.apply(Gate::SqrtISwap, &[0, 1], &[]).unwrap();
    s.apply(Gate::ISwap, &[2, 3], &[Control::Bit(4, true)])
        .unwrap();
}

fn crossover(c: &mut Criterion) {
    let n: u32 = if full_run() { 20 } else { 12 };
    let mut rng = SeededRng::new(1);
    let mut g = c.benchmark_group(format!("crossover_{n}_qubits"));
    g.warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(10);
    for shift in 0..=(n - 10).min(10) {
        let m = 1usize << (n - 1 - shift);
        let branches = random_branches(n, m, &mut rng);
        let label = format!("1/{}", 1u32 << shift);
        g.bench_function(BenchmarkId::new("sparse", &label), |b| {
            let mut s = SparseBackend::from_branches(&branches);
            b.iter(|| crossover_step(&mut s))
        });
        g.bench_function(BenchmarkId::new("dense", &label), |b| {
            let mut d = DenseBackend::from_branches(&branches, n).unwrap();
            assert_eq!(d.live_qubits(), n as usize);
            b.iter(|| crossover_step(&mut d))
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    sparse_gates,
    whole_move,
    dense_bandwidth,
    crossover
);
criterion_main!(benches);
