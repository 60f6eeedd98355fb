//! The paper's two examples, reproduced exactly on both backends.

use qchess::quantum::BackendKind;
use qchess::skat::encode::EncodingKind;
use qchess::skat::endgame::preset;
use qchess::skat::toy::run_toy;
use qchess::skat::{analyze, AnalyzeOptions, Card, Endgame};

const BACKENDS: [BackendKind; 2] = [BackendKind::Sparse, BackendKind::Dense];

fn card(s: &str) -> Card {
    s.parse().unwrap()
}

fn nine_card() -> Endgame {
    Endgame::from_toml(preset("nine-card").unwrap()).unwrap()
}

#[test]
fn nine_card_qualities_are_6_11_9_on_both_backends_and_encodings() {
    let eg = nine_card();
    for backend in BACKENDS {
        for encoding in [EncodingKind::Owners, EncodingKind::Index] {
            let a = analyze(
                &eg,
                &AnalyzeOptions {
                    backend,
                    counting_qubits: 0,
                    encoding,
                    ..AnalyzeOptions::default()
                },
            )
            .unwrap();
            assert_eq!(a.deals.len(), 12);
            let got: Vec<(String, usize)> = a
                .cards
                .iter()
                .map(|c| (c.card.to_string(), c.wins))
                .collect();
            assert_eq!(
                got,
                vec![("H10".into(), 6), ("HQ".into(), 11), ("H7".into(), 9)],
                "{backend} {encoding}"
            );
            for (c, p) in a.cards.iter().zip([6.0 / 12.0, 11.0 / 12.0, 9.0 / 12.0]) {
                assert!(
                    (c.p_win - p).abs() < 1e-9,
                    "{backend}: {} {}",
                    c.card,
                    c.p_win
                );
            }
            assert_eq!(a.recommended().card, card("HQ"));
        }
    }
}

/// The paper's scenarios A and B and the unbeatable deal, with their point totals.
#[test]
fn nine_card_scenarios_match_the_paper() {
    let eg = nine_card();
    let a = analyze(
        &eg,
        &AnalyzeOptions {
            counting_qubits: 0,
            ..AnalyzeOptions::default()
        },
    )
    .unwrap();
    let declarer_holds = |cards: &[&str]| {
        let want: Vec<Card> = cards.iter().map(|c| card(c)).collect();
        a.deals
            .iter()
            .position(|d| {
                want.iter().all(|w| {
                    let k = eg.unknown.iter().position(|u| u == w).unwrap();
                    d.owners[k] == eg.declarer
                })
            })
            .unwrap()
    };
    // (declarer's cards, defenders' final points after H10, HQ, H7)
    let scenarios = [
        (["CJ", "SJ", "H8"], [69, 62, 59]),
        (["HJ", "S7", "HA"], [57, 64, 67]),
        (["CJ", "SJ", "HA"], [48, 48, 48]),
    ];
    for (cards, points) in scenarios {
        let d = declarer_holds(&cards);
        for (c, want) in a.cards.iter().zip(points) {
            assert_eq!(eg.my_side_points(c.values[d]), want, "{cards:?} {}", c.card);
        }
    }
}

#[test]
fn four_card_toy_matches_the_paper_on_both_backends() {
    for backend in BACKENDS {
        let r = run_toy(backend).unwrap();
        let branches: Vec<usize> = r.phases.iter().map(|p| p.branches).collect();
        // initial, A plays, B plays, trick 1, ancillas, A plays, B plays, trick 2
        assert_eq!(branches, vec![6, 12, 24, 24, 24, 24, 24, 8], "{backend}");
        assert_eq!(r.phases.last().unwrap().basis_states, 24);
        for p in &r.phases {
            let total: f64 = p.states.iter().map(|s| s.1).sum();
            assert!((total - 1.0).abs() < 1e-9);
            // Every state of a phase is equally likely up to the last trick.
            if p.branches != 8 {
                for s in &p.states {
                    assert!((s.1 - 1.0 / p.branches as f64).abs() < 1e-9, "{}", p.name);
                }
            }
        }
        assert_eq!(r.outcomes.len(), 8);
        for o in &r.outcomes {
            let want = if o.a_stack.len() == 2 {
                1.0 / 12.0
            } else {
                0.25
            };
            assert!((o.probability - want).abs() < 1e-9, "{o:?}");
        }
        assert!((r.expected_a_points - 14.0).abs() < 1e-9);
        assert!((r.p_win_a - 5.0 / 12.0).abs() < 1e-9);
    }
}

#[test]
fn backends_agree_to_1e9() {
    let eg = nine_card();
    let run = |backend| {
        analyze(
            &eg,
            &AnalyzeOptions {
                backend,
                ..AnalyzeOptions::default()
            },
        )
        .unwrap()
    };
    let (s, d) = (run(BackendKind::Sparse), run(BackendKind::Dense));
    for (x, y) in s.cards.iter().zip(&d.cards) {
        assert!((x.p_win - y.p_win).abs() < 1e-9);
        let (qx, qy) = (x.quantum.as_ref().unwrap(), y.quantum.as_ref().unwrap());
        assert_eq!(qx.outcome, qy.outcome);
        assert_eq!(qx.distribution.len(), qy.distribution.len());
        for (a, b) in qx.distribution.iter().zip(&qy.distribution) {
            assert_eq!(a.0, b.0);
            assert!((a.1 - b.1).abs() < 1e-9);
        }
    }
    let (ts, td) = (
        run_toy(BackendKind::Sparse).unwrap(),
        run_toy(BackendKind::Dense).unwrap(),
    );
    for (a, b) in ts.phases.iter().zip(&td.phases) {
        assert_eq!(a.states.len(), b.states.len());
        for (x, y) in a.states.iter().zip(&b.states) {
            assert_eq!(x.0, y.0);
            assert!((x.1 - y.1).abs() < 1e-9);
        }
    }
}
