//! Quantum counting: the estimate lies within its error bound of the exact count.

use qchess::quantum::BackendKind;
use qchess::skat::encode::EncodingKind;
use qchess::skat::endgame::preset;
use qchess::skat::quantum::error_bound;
use qchess::skat::{analyze, AnalyzeOptions, Endgame};

fn check(text: &str, opts: AnalyzeOptions) {
    let eg = Endgame::from_toml(text).unwrap();
    let a = analyze(&eg, &opts).unwrap();
    let n = a.deals.len() as f64;
    for c in &a.cards {
        let q = c.quantum.as_ref().unwrap();
        let m = c.wins as f64;
        let t = opts.counting_qubits;
        assert_eq!(q.counting_qubits, t);
        assert_eq!(q.oracle_calls, (1 << t) - 1);
        let err = (q.estimate - m).abs();
        // Within the reported bound and within the theorem's bound at the true count.
        assert!(
            err <= q.error_bound,
            "{}: {} vs {m} (bound {})",
            c.card,
            q.estimate,
            q.error_bound
        );
        assert!(err <= error_bound(m, n, t), "{}", c.card);
        // The grid points next to the true phases +-theta (sin^2(theta/2) = M/N) carry
        // at least 8/pi^2 of the probability.
        let size = (1u64 << t) as f64;
        let y = (m / n).sqrt().asin() / std::f64::consts::PI * size;
        let mut near: Vec<u64> = [y.floor(), y.ceil(), size - y.floor(), size - y.ceil()]
            .iter()
            .map(|&v| (v as u64) % (1 << t))
            .collect();
        near.sort_unstable();
        near.dedup();
        let p_near: f64 = q
            .distribution
            .iter()
            .filter(|d| near.contains(&d.0))
            .map(|d| d.1)
            .sum();
        assert!(
            p_near >= 8.0 / std::f64::consts::PI.powi(2),
            "{}: {p_near}",
            c.card
        );
        assert!(
            near.contains(&q.outcome),
            "{}: outcome {}",
            c.card,
            q.outcome
        );
        let total: f64 = q.distribution.iter().map(|d| d.1).sum();
        assert!((total - 1.0).abs() < 1e-6);
    }
}

#[test]
fn nine_card_estimates_within_bound() {
    for backend in [BackendKind::Sparse, BackendKind::Dense] {
        for t in [4, 6] {
            check(
                preset("nine-card").unwrap(),
                AnalyzeOptions {
                    backend,
                    counting_qubits: t,
                    encoding: EncodingKind::Owners,
                    ..AnalyzeOptions::default()
                },
            );
        }
    }
}

#[test]
fn larger_endgame_estimates_within_bound() {
    check(
        preset("five-each").unwrap(),
        AnalyzeOptions {
            backend: BackendKind::Dense,
            counting_qubits: 6,
            encoding: EncodingKind::Index,
            ..AnalyzeOptions::default()
        },
    );
}

#[test]
fn certain_outcomes_are_counted_exactly() {
    // Everything wins (at_least 0) or nothing can (at_least 120): M = N or M = 0.
    let nine = preset("nine-card").unwrap();
    for (threshold, wins) in [(0, 12), (120, 0)] {
        let text = nine.replace("at_least = 60", &format!("at_least = {threshold}"));
        let eg = Endgame::from_toml(&text).unwrap();
        for backend in [BackendKind::Sparse, BackendKind::Dense] {
            let a = analyze(
                &eg,
                &AnalyzeOptions {
                    backend,
                    ..AnalyzeOptions::default()
                },
            )
            .unwrap();
            for c in &a.cards {
                assert_eq!(c.wins, wins);
                let q = c.quantum.as_ref().unwrap();
                assert!(
                    (q.estimate - wins as f64).abs() < 1e-9,
                    "{} {}",
                    c.card,
                    q.estimate
                );
                assert!((q.outcome_probability - 1.0).abs() < 1e-9);
            }
        }
    }
}
