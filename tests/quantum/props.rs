//! Random circuits on both backends: the norm stays 1, and the backends agree on
//! probabilities, branches and (for the same seed) measurement outcomes.

use proptest::prelude::*;
use qchess::quantum::{
    Backend, BackendKind, BackendOptions, Bits, Complex64, Control, Op, QuantumError, Qubit,
    Simulator,
};

use crate::support::circuits::{self, any_gate, gate_step, initial, measure_step, qubit, Step};

/// The qubits circuits use: both sides of the 64-bit word boundaries.
const QUBITS: [Qubit; 8] = [0, 1, 2, 3, 63, 64, 65, 130];

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        6 => gate_step(any_gate(), &QUBITS),
        2 => measure_step(&QUBITS),
        1 => Just(Step::Compact),
        1 => Just(Step::Release),
    ]
}

fn norm(b: &dyn Backend) -> f64 {
    b.branches().iter().map(|(_, a)| a.norm_sqr()).sum()
}

fn assert_agree(s: &dyn Backend, d: &dyn Backend) -> Result<(), TestCaseError> {
    let ps = s.probabilities(131);
    let pd = d.probabilities(131);
    for (q, (x, y)) in ps.iter().zip(&pd).enumerate() {
        prop_assert!((x - y).abs() < 1e-9, "qubit {}: {} vs {}", q, x, y);
    }
    let bs = s.branches();
    let bd = d.branches();
    let keys = |v: &[(Bits, Complex64)]| v.iter().map(|x| x.0).collect::<Vec<_>>();
    prop_assert_eq!(keys(&bs), keys(&bd));
    for ((k, x), (_, y)) in bs.iter().zip(&bd) {
        prop_assert!((x - y).norm() < 1e-9, "{:?}: {} vs {}", k, x, y);
    }
    prop_assert_eq!(s.branch_count(), d.branch_count());
    Ok(())
}

/// Number of qubits that are not constant over the branches.
fn varying(b: &dyn Backend) -> usize {
    let br = b.branches();
    let first = br[0].0;
    let mut v = Bits::ZERO;
    for (k, _) in &br {
        v = v.or(&k.xor(&first));
    }
    v.count() as usize
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn backends_agree_on_random_circuits(
        init in initial(&QUBITS),
        seed in any::<u64>(),
        steps in prop::collection::vec(step(), 1..40),
    ) {
        let opts = BackendOptions::default();
        let mut s = Simulator::new(BackendKind::Sparse, init, 64, seed, opts);
        let mut d = Simulator::new(BackendKind::Dense, init, 64, seed, opts);
        // Ancillas come from 64.., which the circuits also use: allocate two so that
        // release has something to give back.
        for sim in [&mut s, &mut d] {
            sim.alloc().unwrap();
            sim.alloc().unwrap();
        }
        for st in &steps {
            match st {
                Step::Gate(g, t, c) => {
                    let rs = s.apply(*g, t, c);
                    let rd = d.apply(*g, t, c);
                    prop_assert_eq!(&rs, &rd);
                    if let Err(e) = rs {
                        prop_assert!(matches!(e, QuantumError::BadTargets { .. }), "{:?}", e);
                    }
                }
                Step::Measure(p, forced) => {
                    let ms = s.measure(p, *forced);
                    let md = d.measure(p, *forced);
                    match (&ms, &md) {
                        (Ok(a), Ok(b)) => {
                            prop_assert_eq!(a.outcome, b.outcome);
                            prop_assert!((a.p1 - b.p1).abs() < 1e-9, "{} vs {}", a.p1, b.p1);
                        }
                        (Err(a), Err(b)) => {
                            prop_assert_eq!(a, b);
                            prop_assert!(
                                matches!(a, QuantumError::ImpossibleOutcome { .. }),
                                "{:?}",
                                a
                            );
                        }
                        _ => prop_assert!(false, "{:?} vs {:?}", ms, md),
                    }
                }
                Step::Compact => {
                    s.compact();
                    d.compact();
                    prop_assert_eq!(d.backend().live_qubits(), varying(d.backend()));
                }
                Step::Release => {
                    let rs = s.release_constant_ancillas();
                    let rd = d.release_constant_ancillas();
                    prop_assert_eq!(&rs, &rd);
                    for (q, _) in rs {
                        prop_assert_eq!(s.backend().probability(q), 0.0);
                    }
                }
            }
            prop_assert!((norm(s.backend()) - 1.0).abs() < 1e-12, "sparse norm {}", norm(s.backend()));
            prop_assert!((norm(d.backend()) - 1.0).abs() < 1e-12, "dense norm {}", norm(d.backend()));
            prop_assert!(d.backend().live_qubits() <= 8, "{}", d.backend().live_qubits());
            assert_agree(s.backend(), d.backend())?;
        }
        // Same trace, up to the last bits of the recorded probabilities.
        let (ts, td) = (s.take_trace(), d.take_trace());
        prop_assert_eq!(ts.len(), td.len());
        for (x, y) in ts.into_iter().zip(td) {
            match (x, y) {
                (Op::Measure { p1: p, predicate: a, outcome: o, forced: f },
                 Op::Measure { p1: q, predicate: b, outcome: o2, forced: f2 }) => {
                    prop_assert!((p - q).abs() < 1e-9, "{} vs {}", p, q);
                    prop_assert_eq!((a, o, f), (b, o2, f2));
                }
                (x, y) => prop_assert_eq!(x, y),
            }
        }
    }

    #[test]
    fn gate_then_inverse_is_identity(
        init in initial(&QUBITS),
        prep in prop::collection::vec(step(), 0..12),
        g in any_gate(),
        a in qubit(&QUBITS),
        b in qubit(&QUBITS),
        controls in prop::collection::vec(circuits::control(&QUBITS), 0..3),
    ) {
        prop_assume!(g.arity() == 1 || a != b);
        let targets = if g.arity() == 2 { vec![a, b] } else { vec![a] };
        let controls: Vec<Control> = controls
            .into_iter()
            .filter(|c| c.qubits().iter().all(|q| !targets.contains(q)))
            .collect();
        for kind in [BackendKind::Sparse, BackendKind::Dense] {
            let mut sim = Simulator::new(kind, init, 64, 5, BackendOptions::default());
            // A random state from the gate steps of a random circuit.
            for st in &prep {
                if let Step::Gate(g, t, c) = st {
                    let _ = sim.apply(*g, t, c);
                }
            }
            let before = sim.backend().branches();
            sim.apply(g, &targets, &controls).unwrap();
            sim.apply(g.inverse(), &targets, &controls).unwrap();
            let after = sim.backend().branches();
            // Amplitudes match; a branch may only be missing if it was negligible.
            let mut i = 0;
            for (k, x) in &before {
                match after.get(i) {
                    Some((k2, y)) if k2 == k => {
                        prop_assert!((x - y).norm() < 1e-12, "{:?}: {} vs {}", k, x, y);
                        i += 1;
                    }
                    _ => prop_assert!(x.norm() < 1e-12, "{:?} lost", k),
                }
            }
            prop_assert_eq!(i, after.len(), "no new branches");
        }
    }
}
