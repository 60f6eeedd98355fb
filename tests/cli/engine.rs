//! The engine on the command line: `analyze --json` gains `legal_moves` and, with
//! `--best`, a `best` object; `qchess match` plays and reports.

use crate::support::cli::qchess;

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = qchess(args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).expect("one JSON object")
}

#[test]
fn legal_moves_list_every_move_of_the_side_to_move() {
    let v = json(&["analyze", "--json"]);
    let moves: Vec<&str> = v["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(moves.len(), 24, "{moves:?}");
    for m in ["e2e4", "b1c3", "b1^a3c3", "b1^c3a3", "g1^f3h3"] {
        assert!(moves.contains(&m), "{m} missing from {moves:?}");
    }
    assert!(v.get("best").is_none(), "no search without --best");
    // Merges (both source orders), and markers; never an outcome.
    let v = json(&["analyze", "--moves", "g1^f3h3 b8^a6c6", "--json"]);
    let moves: Vec<String> = serde_json::from_value(v["legal_moves"].clone()).unwrap();
    assert!(moves.contains(&"f3h3^g1".to_string()) && moves.contains(&"h3f3^g1".to_string()));
    assert!(moves.iter().all(|m| !m.contains(".m")));
    let v = json(&[
        "analyze",
        "--fen",
        "3k4/8/8/8/8/8/8/3RK3 w - - 0 1",
        "--moves",
        "d1xd8",
        "--json",
    ]);
    assert_eq!(v["status"], "white_wins");
    assert_eq!(v["legal_moves"], serde_json::json!([]));
}

#[test]
fn best_move_object() {
    let fen = "4k3/q7/3N4/8/8/8/8/R3K3 w - - 0 1";
    let v = json(&["analyze", "--fen", fen, "--best", "--level", "2", "--json"]);
    let best = &v["best"];
    assert_eq!(best["move"], "d6xe8");
    assert!(best["score"].as_i64().unwrap() > 20_000);
    assert_eq!(best["depth"], 1, "a certain win ends the deepening");
    assert!(best["nodes"].as_u64().unwrap() > 0);
    assert!(best["time_ms"].is_u64());
    assert_eq!(best["pv"], serde_json::json!(["d6xe8"]));
    // A timed search from the start, and the same search twice gives the same answer.
    let v = json(&["analyze", "--best", "--movetime", "100", "--json"]);
    let mv = v["best"]["move"].as_str().unwrap();
    assert!(v["legal_moves"].as_array().unwrap().iter().any(|m| m == mv));
    let args = [
        "analyze",
        "--moves",
        "e2e4 e7e5",
        "--best",
        "--level",
        "1",
        "--seed",
        "3",
        "--json",
    ];
    let (a, b) = (json(&args), json(&args));
    assert_eq!(a["best"]["move"], b["best"]["move"]);
    assert_eq!(a["best"]["nodes"], b["best"]["nodes"]);
    // The text report names the move.
    let (code, out, _) = qchess(&["analyze", "--fen", fen, "--best", "--level", "1"]);
    assert_eq!(code, 0);
    assert!(out.contains("best move: d6xe8"), "{out}");
}

#[test]
fn best_move_in_a_variant() {
    let v = json(&["analyze", "--variant", "harmonics", "--best", "--json"]);
    let mv = v["best"]["move"].as_str().unwrap();
    assert!(v["legal_moves"].as_array().unwrap().iter().any(|m| m == mv));
    assert_eq!(v["best"]["depth"], 1);
}

#[test]
fn bad_search_and_match_flags_exit_2() {
    for args in [
        &["analyze", "--best", "--level", "6"][..],
        &["analyze", "--best", "--level", "0"],
        &["analyze", "--level", "2"],
        &["analyze", "--best", "--level", "2", "--movetime", "50"],
        &["match", "--white", "engine:9", "--black", "random"],
        &["match", "--white", "stockfish", "--black", "random"],
        &["match", "--white", "random"],
        &[
            "match", "--white", "random", "--black", "random", "--games", "0",
        ],
    ] {
        let (code, out, err) = qchess(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty() && !err.is_empty(), "{args:?}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_tiny_match() {
    let v = json(&[
        "match",
        "--white",
        "greedy",
        "--black",
        "random",
        "--games",
        "2",
        "--seed",
        "5",
        "--max-plies",
        "8",
        "--json",
    ]);
    assert_eq!(v["first"], "greedy");
    assert_eq!(v["second"], "random");
    assert_eq!(v["games"], 2);
    let (w, d, l) = (
        v["wins"].as_u64().unwrap(),
        v["draws"].as_u64().unwrap(),
        v["losses"].as_u64().unwrap(),
    );
    assert_eq!(w + d + l, 2);
    let score = v["score"].as_f64().unwrap();
    assert!((score - (w as f64 + d as f64 / 2.0) / 2.0).abs() < 1e-12);
    assert!(v["time_per_move"]["first"]["median_ms"].is_number());
    let results = v["results"].as_array().unwrap();
    assert_eq!(results[0]["first_is_white"], true);
    assert_eq!(results[1]["first_is_white"], false);
    for r in results {
        assert!(r["plies"].as_u64().unwrap() <= 8);
        assert_eq!(
            r["moves"].as_array().unwrap().len() as u64,
            r["plies"].as_u64().unwrap()
        );
    }
    // Text for people.
    let (code, out, _) = qchess(&[
        "match",
        "--white",
        "engine:1",
        "--black",
        "random",
        "--games",
        "1",
        "--max-plies",
        "4",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("qchess level 1 vs random: 1 game"), "{out}");
    assert!(out.contains("Elo difference"), "{out}");
}

#[test]
fn a_variant_match() {
    let v = json(&[
        "match",
        "--white",
        "engine:2",
        "--black",
        "random",
        "--games",
        "1",
        "--max-plies",
        "6",
        "--variant",
        "haft",
        "--json",
    ]);
    assert_eq!(v["games"], 1);
    assert!(v["results"][0]["plies"].as_u64().unwrap() <= 6);
}

/// `analyze --json` for scripts: why the game ended, and how likely each drawn outcome
/// was.
mod outcomes {
    use super::json;

    #[test]
    fn each_move_has_the_probability_of_its_drawn_outcome() {
        // The rook's quarter on b1 blocks the queen's step there: a1b1 measures it,
        // going on (b1 empty) with probability 3/4.
        let base = "b1^c1d1 c1^b1c2";
        for (outcome, p) in [("m1", 0.75), ("m0", 0.25)] {
            let moves = format!("{base} a1b1.{outcome}");
            let v = json(&[
                "analyze",
                "--fen",
                "7k/8/8/8/8/8/7K/QR6 w - - 0 1",
                "--free-turns",
                "--moves",
                &moves,
                "--json",
            ]);
            let drawn = v["moves"][2]["p"].as_f64().unwrap();
            assert!((drawn - p).abs() < 1e-9, "{outcome}: {drawn}");
            assert!(v["moves"][0]["p"].is_null(), "a split measures nothing");
            assert!(v["end_reason"].is_null(), "still going");
        }
    }

    #[test]
    fn the_end_reason_is_named() {
        let fen = "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1";
        let v = json(&["analyze", "--fen", fen, "--moves", "e1xe8", "--json"]);
        assert_eq!(v["status"], "white_wins");
        assert_eq!(v["end_reason"], "king_captured");
    }
}
