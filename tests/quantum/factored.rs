//! Random circuits on random qubit subsets: a factored state and a single register give
//! the same state (up to a global phase), the same probabilities and measurements, on
//! both backends, with factors merged and split along the way; the norm stays 1.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use qchess::quantum::{
    BackendKind, BackendOptions, Bits, Complex64, Control, Gate, QuantumError, Qubit, Simulator,
};

use crate::support::circuits::{any_gate, gate_step, initial, measure_step, qubit, Step};

/// The qubits circuits use, across the 64-bit word boundaries.
const POOL: [Qubit; 10] = [0, 1, 2, 3, 5, 8, 63, 64, 65, 130];

/// H puts qubits in superposition (new factors); the identity, controlled, merges factors
/// without entangling them, so that a later measurement finds the product and splits it.
fn gate() -> impl Strategy<Value = Gate> {
    prop_oneof![3 => Just(Gate::H), 3 => Just(Gate::Phase(0.0)), 8 => any_gate()]
}

fn step() -> impl Strategy<Value = Step> {
    // Measuring single qubits (then compacting) is what disentangles, so that comes
    // often: it is where factors split again.
    prop_oneof![
        8 => gate_step(gate(), &POOL),
        3 => (qubit(&POOL), prop::option::of(any::<bool>()))
            .prop_map(|(q, f)| Step::Measure(vec![Control::Bit(q, true)], f)),
        2 => measure_step(&POOL),
        3 => Just(Step::Compact),
        1 => Just(Step::Release),
    ]
}

/// The two states are equal up to one global phase, to 1e-9.
fn same_state(f: &[(Bits, Complex64)], u: &[(Bits, Complex64)]) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        f.iter().map(|x| x.0).collect::<Vec<_>>(),
        u.iter().map(|x| x.0).collect::<Vec<_>>()
    );
    let big = u
        .iter()
        .zip(f)
        .max_by(|a, b| a.0 .1.norm().total_cmp(&b.0 .1.norm()))
        .expect("a state has a branch");
    let phase = big.1 .1 / big.0 .1;
    prop_assert!((phase.norm() - 1.0).abs() < 1e-9);
    for ((k, x), (_, y)) in f.iter().zip(u) {
        prop_assert!((x - y * phase).norm() < 1e-9, "{:?}: {} vs {}", k, x, y);
    }
    Ok(())
}

/// What a run saw: factors merged by a step, factors split by a compaction.
#[derive(Default)]
struct Seen {
    merges: usize,
    splits: usize,
}

fn run(
    kind: BackendKind,
    init: Bits,
    seed: u64,
    steps: &[Step],
    seen: &mut Seen,
) -> Result<(), TestCaseError> {
    let factored = BackendOptions::default();
    let single = BackendOptions {
        factored: false,
        ..factored
    };
    let mut f = Simulator::new(kind, init, 64, seed, factored);
    let mut u = Simulator::new(kind, init, 64, seed, single);
    for sim in [&mut f, &mut u] {
        sim.alloc().unwrap();
        sim.alloc().unwrap();
    }
    for st in steps {
        let factors_before = f.backend().factor_sizes().len();
        match st {
            Step::Gate(g, t, c) => {
                let rf = f.apply(*g, t, c);
                let ru = u.apply(*g, t, c);
                prop_assert_eq!(&rf, &ru);
                if let Err(e) = rf {
                    prop_assert!(matches!(e, QuantumError::BadTargets { .. }), "{:?}", e);
                }
            }
            Step::Measure(p, forced) => match (f.measure(p, *forced), u.measure(p, *forced)) {
                (Ok(a), Ok(b)) => {
                    prop_assert_eq!(a.outcome, b.outcome);
                    prop_assert!((a.p1 - b.p1).abs() < 1e-9, "{} vs {}", a.p1, b.p1);
                }
                (Err(a), Err(b)) => prop_assert_eq!(a, b),
                (a, b) => prop_assert!(false, "{:?} vs {:?}", a, b),
            },
            Step::Compact => {
                f.compact();
                u.compact();
            }
            Step::Release => {
                prop_assert_eq!(f.release_constant_ancillas(), u.release_constant_ancillas());
            }
        }
        let factors_after = f.backend().factor_sizes().len();
        match st {
            Step::Compact if factors_after > factors_before => seen.splits += 1,
            Step::Gate(..) | Step::Measure(..) if factors_after < factors_before => {
                seen.merges += 1
            }
            _ => {}
        }
        let (fb, ub) = (f.backend(), u.backend());
        let branches = fb.branches();
        let norm: f64 = branches.iter().map(|(_, a)| a.norm_sqr()).sum();
        prop_assert!((norm - 1.0).abs() < 1e-12, "norm {}", norm);
        same_state(&branches, &ub.branches())?;
        prop_assert_eq!(fb.branch_count(), ub.branch_count());
        for (q, (x, y)) in fb
            .probabilities(131)
            .iter()
            .zip(ub.probabilities(131))
            .enumerate()
        {
            prop_assert!((x - y).abs() < 1e-9, "qubit {}: {} vs {}", q, x, y);
        }
        prop_assert!(fb.signature().matches(&ub.signature()));
        // Every factor's branches multiply to the whole.
        let product: usize = fb.factor_sizes().iter().map(|s| s.branches).product();
        prop_assert_eq!(product, fb.branch_count());
    }
    Ok(())
}

#[test]
fn factored_and_single_register_agree_on_random_circuits() {
    // A fixed seed: the counts of merges and splits checked below do not vary by run.
    let mut runner = TestRunner::new_with_rng(
        Config {
            cases: 500,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    );
    let strategy = (
        initial(&POOL),
        any::<u64>(),
        prop::collection::vec(step(), 1..64),
    );
    let seen = std::cell::RefCell::new(Seen::default());
    runner
        .run(&strategy, |(init, seed, steps)| {
            for kind in [BackendKind::Sparse, BackendKind::Dense] {
                run(kind, init, seed, &steps, &mut seen.borrow_mut())?;
            }
            Ok(())
        })
        .unwrap();
    // The circuits did exercise both directions.
    let seen = seen.into_inner();
    eprintln!("{} merges, {} splits", seen.merges, seen.splits);
    assert!(seen.merges >= 200, "only {} merges", seen.merges);
    assert!(seen.splits >= 25, "only {} splits", seen.splits);
}
