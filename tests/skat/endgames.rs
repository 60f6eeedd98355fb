//! Endgame files: a hand-checkable two-card endgame, constraints, bad files, and the
//! command line's output and exit codes.

use qchess::quantum::BackendKind;
use qchess::skat::endgame::{preset, EndgameError};
use qchess::skat::{analyze, AnalysisError, AnalyzeOptions, Endgame};
use std::process::Command;

/// Spades game, no trumps left: I (D) hold HA H7; P and S hold two of H10 HK C7 C8.
/// Worked out by hand, the defenders' points in the last two tricks per distribution
/// (P's cards) are:
///   P holds     H10 HK  H10 C7  H10 C8  HK C7  HK C8  C7 C8
///   lead HA       25      25      25     25     25     15
///   lead H7       25      14      25      0     11     15
/// e.g. for P = HK C7 after H7: S's H10 beats P's HK (14 to S), S leads C8 and takes
/// D's HA too. After HA with P = C7 C8, S saves H10 for the second trick.
const TWO_CARD: &str = r#"
game = "spades"
seats = ["D", "P", "S"]
declarer = "S"
me = "D"
hand = ["HA", "H7"]
unknown = ["H10", "HK", "C7", "C8"]
cards_each = 2
points = { defenders = 40 }
win = { side = "defenders", at_least = 60 }
"#;

fn values(text: &str, backend: BackendKind) -> (usize, Vec<Vec<u32>>, Vec<usize>) {
    let eg = Endgame::from_toml(text).unwrap();
    let a = analyze(
        &eg,
        &AnalyzeOptions {
            backend,
            counting_qubits: 0,
            ..AnalyzeOptions::default()
        },
    )
    .unwrap();
    (
        a.deals.len(),
        a.cards.iter().map(|c| c.values.clone()).collect(),
        a.cards.iter().map(|c| c.wins).collect(),
    )
}

#[test]
fn two_card_endgame_by_hand() {
    for backend in [BackendKind::Sparse, BackendKind::Dense] {
        let (n, vals, wins) = values(TWO_CARD, backend);
        assert_eq!(n, 6);
        assert_eq!(vals[0], vec![25, 25, 25, 25, 25, 15]);
        assert_eq!(vals[1], vec![25, 14, 25, 0, 11, 15]);
        // The defenders need 20 more.
        assert_eq!(wins, vec![5, 2]);
    }
}

#[test]
fn constraints_select_distributions() {
    let with = |c: &str| format!("{TWO_CARD}\n{c}");
    // S holds exactly one of H10 HK: P holds H10 C7, H10 C8, HK C7, HK C8.
    let (n, vals, wins) = values(
        &with("[[constraint]]\nplayer = \"S\"\ncards = [\"H10\", \"HK\"]\nexactly = 1"),
        BackendKind::Sparse,
    );
    assert_eq!(n, 4);
    assert_eq!(vals[1], vec![14, 25, 0, 11]);
    assert_eq!(wins, vec![4, 1]);
    // P holds at least one club: all but H10 HK.
    let (n, _, wins) = values(
        &with("[[constraint]]\nplayer = \"P\"\ncards = [\"C7\", \"C8\"]\nat_least = 1"),
        BackendKind::Dense,
    );
    assert_eq!((n, wins), (5, vec![4, 1]));
    // P holds at most one heart and at most one club: the four mixed hands.
    let (n, _, _) = values(
        &with(
            "[[constraint]]\nplayer = \"P\"\ncards = [\"H10\", \"HK\"]\nat_most = 1\n\
             [[constraint]]\nplayer = \"P\"\ncards = [\"C7\", \"C8\"]\nat_most = 1",
        ),
        BackendKind::Sparse,
    );
    assert_eq!(n, 4);
    // Without its constraint the nine-card endgame has C(6,3) = 20 distributions.
    let free = preset("nine-card")
        .unwrap()
        .split("[[constraint]]")
        .next()
        .unwrap();
    assert_eq!(values(free, BackendKind::Sparse).0, 20);
}

fn error_of(text: &str) -> EndgameError {
    match Endgame::from_toml(text) {
        Err(e) => e,
        Ok(eg) => match analyze(&eg, &AnalyzeOptions::default()) {
            Err(AnalysisError::Endgame(e)) => e,
            other => panic!("expected an endgame error, got {other:?}"),
        },
    }
}

#[test]
fn bad_files_name_the_problem() {
    let cases: Vec<(String, &str)> = vec![
        (TWO_CARD.replace("\"H7\"]", "\"X7\"]"), "\"X7\""),
        (
            TWO_CARD.replace("\"C8\"]", "\"HA\"]"),
            "card HA appears twice",
        ),
        (
            TWO_CARD.replace("\"C8\"]", "\"C8\", \"C9\"]"),
            "5 unknown card(s)",
        ),
        (
            TWO_CARD.replace("cards_each = 2", "cards_each = 3"),
            "my hand has 2 card(s)",
        ),
        (
            TWO_CARD.replace("me = \"D\"", "me = \"P\""),
            "must be the first seat",
        ),
        (
            TWO_CARD.replace("declarer = \"S\"", "declarer = \"Z\""),
            "\"Z\" is not one of the seats",
        ),
        (
            TWO_CARD.replace("\"spades\"", "\"null\""),
            "unknown game \"null\"",
        ),
        (
            TWO_CARD.replace("defenders = 40", "defenders = 100"),
            "more than 120",
        ),
        (
            TWO_CARD.replace("at_least = 60", "at_least = 121"),
            "at_least = 121",
        ),
        (
            TWO_CARD.replace("cards_each = 2", "cards_each = 2\ncolour = 1"),
            "unknown field",
        ),
        (TWO_CARD.replace("seats = [", "seats = "), "line 3"),
        (
            format!("{TWO_CARD}[[constraint]]\nplayer = \"S\"\ncards = [\"H10\"]\nexactly = 2"),
            "constraint 1",
        ),
        (
            format!("{TWO_CARD}[[constraint]]\nplayer = \"S\"\ncards = [\"HA\"]\nexactly = 1"),
            "HA is not one of the unknown cards",
        ),
        (
            format!("{TWO_CARD}[[constraint]]\nplayer = \"D\"\ncards = [\"H10\"]\nexactly = 1"),
            "is me",
        ),
        (
            format!(
                "{TWO_CARD}[[constraint]]\nplayer = \"S\"\ncards = [\"C7\", \"C8\"]\nexactly = 2\n\
                 [[constraint]]\nplayer = \"P\"\ncards = [\"C7\"]\nexactly = 1"
            ),
            "impossible constraints",
        ),
    ];
    for (text, want) in cases {
        let e = error_of(&text).to_string();
        assert!(e.contains(want), "{e:?} should mention {want:?}");
        assert!(!e.contains('\n'), "{e:?}");
    }
}

fn qchess(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_qchess"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn cli_bad_file_exits_2_with_one_line() {
    let dir = std::env::temp_dir().join(format!("qchess-skat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, TWO_CARD.replace("\"H7\"]", "\"H7\", \"H7\"]")).unwrap();
    for args in [
        vec!["skat", "analyze", bad.to_str().unwrap()],
        vec![
            "skat",
            "analyze",
            dir.join("missing.toml").to_str().unwrap(),
        ],
        vec!["skat", "analyze", "--preset", "no-such"],
        vec!["skat", "analyze", "--preset", "toy"],
        vec!["skat", "view", "--preset", "toy"],
        vec!["skat", "analyze"],
        vec!["skat", "tui"],
    ] {
        let out = qchess(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("qchess: "), "{err}");
        assert!(out.stdout.is_empty());
    }
    let out = qchess(&["skat", "analyze", "--preset", "toy"]);
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("toy is the four-card example, not an endgame: `qchess skat toy` runs it"));
    let out = qchess(&["skat", "analyze", bad.to_str().unwrap()]);
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("card H7 appears twice"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cli_json_has_the_documented_shape() {
    let out = qchess(&[
        "skat",
        "analyze",
        "--preset",
        "nine-card",
        "--backend",
        "dense",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["distributions"], 12);
    assert_eq!(v["recommendation"], "HQ");
    let hq = &v["cards"][1];
    assert_eq!(hq["card"], "HQ");
    assert_eq!(hq["wins"], 11);
    assert_eq!(hq["p_win"], 0.9167);
    let q = &hq["quantum"];
    assert_eq!(q["counting_qubits"], 6);
    assert_eq!(q["oracle_calls"], 63);
    let (est, bound) = (
        q["estimate"].as_f64().unwrap(),
        q["error_bound"].as_f64().unwrap(),
    );
    assert!((est - 11.0).abs() <= bound);

    let out = qchess(&["skat", "toy", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let branches: Vec<u64> = v["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["branches"].as_u64().unwrap())
        .collect();
    assert_eq!(branches, vec![6, 12, 24, 24, 24, 24, 24, 8]);

    let out = qchess(&["skat"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    for pane in [
        "[table and hands]",
        "[probabilities]",
        "[tricks]",
        "[circuit]",
    ] {
        assert!(text.contains(pane), "{pane}");
    }
}
