//! The split storms, factored and as one register: the same probabilities,
//! distributions and state, on both backends. The factored games reach their full size
//! here; the single register is compared where it stays small (the full-size comparison
//! is an ignored test: `cargo test --release --test quantum storms -- --ignored`).

use crate::support::storms::{self, Storm};
use qchess::chess::{Game, GameOptions, Square};
use qchess::quantum::{BackendKind, SimulatorSettings};

fn opts(backend: BackendKind, factored: bool) -> GameOptions {
    GameOptions {
        simulator: SimulatorSettings::on(backend),
        factored,
        ..GameOptions::default()
    }
}

/// The two games hold the same state: probabilities and the first 4096 entries of the
/// distribution to 1e-9, the same branch count and signature.
fn assert_same(f: &Game, s: &Game, what: &str) {
    for sq in Square::all() {
        let (a, b) = (f.probability(sq), s.probability(sq));
        assert!((a - b).abs() < 1e-9, "{what} {sq}: {a} vs {b}");
    }
    assert_eq!(f.branch_count(), s.branch_count(), "{what}");
    let (df, ds) = (f.distribution(4096), s.distribution(4096));
    assert_eq!(df.sets, ds.sets, "{what}");
    assert_eq!(df.entries.len(), ds.entries.len(), "{what}");
    for (x, y) in df.entries.iter().zip(&ds.entries) {
        assert_eq!(x.0, y.0, "{what}");
        assert!((x.1 - y.1).abs() < 1e-9, "{what}: {} vs {}", x.1, y.1);
    }
    let (a, b) = (f.simulator().backend(), s.simulator().backend());
    assert!(a.signature().matches(&b.signature()), "{what}");
}

fn compare(storm: Storm, plies: usize, backend: BackendKind) {
    let f = storm.play(opts(backend, true), plies);
    let s = storm.play(opts(backend, false), plies);
    assert_same(
        &f,
        &s,
        &format!("{} after {plies} plies on {backend}", storm.name),
    );
}

#[test]
fn storms_reach_their_full_size_in_independent_factors() {
    for storm in [storms::SPLIT, storms::KNIGHTS] {
        for backend in [BackendKind::Sparse, BackendKind::Dense] {
            let g = storm.play(opts(backend, true), usize::MAX);
            assert_eq!(g.branch_count(), storm.branches, "{} {backend}", storm.name);
            let sizes = g.simulator().backend().factor_sizes();
            assert_eq!(sizes.len(), storm.factors, "{} {backend}", storm.name);
            assert!(sizes[0].qubits <= 4 && sizes[0].branches <= 4, "{sizes:?}");
            // The distribution lists what is asked, from a product of millions.
            let d = g.distribution(10);
            assert_eq!(d.sets, storm.branches);
            assert_eq!(d.entries.len(), 10);
            // Nothing was captured: the expected piece count is the start's.
            let total: f64 = Square::all().map(|s| g.probability(s)).sum();
            let pieces = storm.start(opts(backend, true)).register().pieces().count();
            assert!((total - pieces as f64).abs() < 1e-9, "{total}");
        }
    }
}

#[test]
fn storms_agree_with_the_single_register_where_it_is_small() {
    for backend in [BackendKind::Sparse, BackendKind::Dense] {
        // Up to 2^17 amplitudes in the single dense register.
        compare(storms::SPLIT, 26, backend);
        compare(storms::KNIGHTS, 14, backend);
    }
}

#[test]
#[ignore = "the single register takes seconds and hundreds of MB (release build)"]
fn split_storm_agrees_with_the_single_register_at_full_size() {
    let single = storms::SPLIT.play(opts(BackendKind::Sparse, false), usize::MAX);
    assert_eq!(single.branch_count(), storms::SPLIT_STORM_BRANCHES);
    for backend in [BackendKind::Sparse, BackendKind::Dense] {
        let f = storms::SPLIT.play(opts(backend, true), usize::MAX);
        assert_same(&f, &single, &format!("full split storm on {backend}"));
    }
}

/// Everything a player sees of a game.
fn snapshot(g: &Game) -> (Vec<f64>, usize, usize, String, usize) {
    (
        Square::all().map(|s| g.probability(s)).collect(),
        g.branch_count(),
        g.ply(),
        g.fen(),
        g.simulator().backend().factor_sizes().len(),
    )
}

#[test]
fn size_limits_refuse_a_move_and_leave_the_game_as_it_was() {
    use qchess::chess::MoveError;
    use qchess::quantum::QuantumError;
    let first = ["b3^d2a1", "g1^e2h3", "d2^b3c4", "e2^g1g3"];
    // Sparse, 3 branches: a knight on three squares fits, on four it does not; two
    // knights on three squares fill twice the limit, so a third knight's split does not
    // fit beside them.
    let sparse = GameOptions {
        simulator: SimulatorSettings {
            sparse_limit: 3,
            ..SimulatorSettings::default()
        },
        ..GameOptions::default()
    };
    // Dense, 2^4 amplitudes: a split needs a qubit more than the squares it ends on, so
    // a knight reaches three squares, not four; four knights' factors (24 amplitudes)
    // leave no room for one to go to 16 (36 > 32).
    let dense = GameOptions {
        simulator: SimulatorSettings {
            backend: BackendKind::Dense,
            dense_limit_log2: 4,
            ..SimulatorSettings::default()
        },
        ..GameOptions::default()
    };
    let cases = [
        (
            sparse,
            &first[..],
            "c4^d2e5",
            QuantumError::TooManyBranches {
                needed: 4,
                limit: 3,
            },
        ),
        (
            sparse,
            &first[..],
            "e6^d8f4",
            QuantumError::TotalTooLarge {
                kind: BackendKind::Sparse,
                needed: 8,
                allowed: 6,
            },
        ),
        (
            dense,
            &first[..],
            "c4^d2e5",
            QuantumError::StateTooLarge {
                needed: 5,
                limit: 4,
            },
        ),
        (
            dense,
            &[
                "b3^d2a1", "g1^e2h3", "d2^b3c4", "e2^g1g3", "e6^d8f4", "e4^f6d6",
            ][..],
            "d8^e6f7",
            QuantumError::TotalTooLarge {
                kind: BackendKind::Dense,
                needed: 36,
                allowed: 32,
            },
        ),
    ];
    for (o, before_moves, refused, want) in cases {
        let mut g = storms::KNIGHTS.start(o);
        for m in before_moves {
            g.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        let before = snapshot(&g);
        let err = g.play(refused).unwrap_err();
        assert_eq!(err, MoveError::Quantum(want), "{refused}");
        assert_eq!(
            snapshot(&g),
            before,
            "{refused}: the refused move changed nothing"
        );
        assert!(err.to_string().contains("raise the limit"), "{err}");
        // The game goes on.
        g.play("h1g2").unwrap();
    }
}
