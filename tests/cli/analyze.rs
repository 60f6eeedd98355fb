//! The `qchess analyze` command line: JSON fields, exit codes and one-line errors.

use crate::support::cli::analyze;

#[test]
fn json_has_the_documented_fields() {
    let (code, out, err) = analyze(&[
        "--fen",
        "7k/8/8/8/8/8/7K/QR6 w - - 0 1",
        "--free-turns",
        "--moves",
        "b1^c1d1 a1c1.m1",
        "--json",
        "--backend",
        "dense",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["fen"], "7k/8/8/8/8/8/7K/2QR4 b - - 2 1");
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["ply"], 2);
    assert_eq!(v["status"], "ongoing");
    assert_eq!(v["moves"][1]["input"], "a1c1.m1");
    assert_eq!(v["moves"][1]["played"], "a1wc1.m1");
    assert_eq!(v["moves"][1]["outcome"], 1);
    assert!(v["moves"][0]["outcome"].is_null());
    assert_eq!(v["squares"]["c1"]["piece"], "Q");
    assert!((v["squares"]["d1"]["p"].as_f64().unwrap() - 1.0).abs() < 1e-9);
    assert_eq!(
        v["distribution"][0]["occupied"],
        serde_json::json!(["c1", "d1", "h2", "h8"])
    );
    assert_eq!(v["branches"], 1);
    assert_eq!(v["backend"], "dense");
}

#[test]
fn same_seed_same_result_on_both_backends() {
    let run = |backend: &str| {
        let (code, out, _) = analyze(&[
            "--moves",
            "g1^f3h3 e7e5 f3xe5 b8^a6c6",
            "--seed",
            "42",
            "--backend",
            backend,
            "--free-turns",
            "--json",
        ]);
        assert_eq!(code, 0);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        (v["moves"].clone(), v["fen"].clone())
    };
    assert_eq!(run("sparse"), run("dense"));
}

#[test]
fn text_output_for_people() {
    let (code, out, _) = analyze(&["--moves", "g1^f3h3"]);
    assert_eq!(code, 0);
    assert!(out.contains("N 50%"), "{out}");
    assert!(out.contains("1. g1^f3h3"));
    assert!(out.contains("status: game in progress; black to move"));
}

fn assert_one_line_error(args: &[&str], needle: &str) {
    let (code, out, err) = analyze(args);
    assert_eq!(code, 2, "{args:?}: {err}");
    assert!(out.is_empty(), "{args:?}: nothing on stdout, got {out}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?}: one line, got {err}"
    );
    assert!(
        err.contains(needle),
        "{args:?}: \"{err}\" lacks \"{needle}\""
    );
    assert!(!err.contains("panicked") && !err.contains("backtrace"));
}

#[test]
fn bad_input_exits_2_with_one_line() {
    assert_one_line_error(
        &["--moves", "e2e4 e7e5 b1c4"],
        "move 3 \"b1c4\": the knight on b1 cannot reach c4",
    );
    assert_one_line_error(
        &["--moves", "e2e4 zz"],
        "move 2 \"zz\": \"zz\" is not a move",
    );
    assert_one_line_error(
        &[
            "--fen",
            "4k3/8/8/8/8/8/r7/R3K3 w - - 0 1",
            "--moves",
            "a1xa2.m0",
        ],
        "move 1 \"a1xa2.m0\": outcome 0 is impossible",
    );
    assert_one_line_error(&["--fen", "8/8/8 w - - 0 1"], "bad FEN");
    assert_one_line_error(&["--fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 one"], "field 6");
    assert_one_line_error(
        &[
            "--fen",
            "4k3/8/8/8/8/8/8/4RK2 w - - 0 1",
            "--moves",
            "e1xe8 e8e7",
        ],
        "move 2 \"e8e7\": the game is over (white wins)",
    );
}

#[test]
fn bad_flags_exit_2() {
    let (code, out, err) = analyze(&["--backend", "quantum"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("unknown backend"), "{err}");
    let (code, _, _) = analyze(&["--seed", "minus-one"]);
    assert_eq!(code, 2);
}

#[test]
fn bell_and_entanglement_reports() {
    for backend in ["sparse", "dense"] {
        let (code, out, err) = analyze(&[
            "--moves",
            "g1^f3h3",
            "--bell",
            "f3",
            "h3",
            "--entanglement",
            "f3",
            "--json",
            "--backend",
            backend,
        ]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["bell"]["squares"], serde_json::json!(["f3", "h3"]));
        let o: Vec<f64> = v["bell"]["O"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert_eq!(o.len(), 8);
        assert!((o[0] - 1.0).abs() < 1e-9 && o[1].abs() < 1e-9, "{o:?}");
        assert!(v["bell"]["same"].as_f64().unwrap().abs() < 1e-9);
        let e = v["entanglement"].as_object().unwrap();
        assert_eq!(e.len(), 1, "{e:?}");
        assert!((e["h3"].as_f64().unwrap() - 1.0).abs() < 1e-9);
    }
    let (code, _, err) = analyze(&["--bell", "f3", "z9"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a square"), "{err}");
}

#[test]
fn factors_in_json_and_size_limits_refused_in_one_line() {
    for backend in ["sparse", "dense"] {
        // Two independent splits: two factors of two branches, four in all.
        let (code, out, err) =
            analyze(&["--moves", "g1^f3h3 b8^a6c6", "--json", "--backend", backend]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
        assert_eq!(v["branches"], 4);
        assert_eq!(v["factors"], 2);
        assert_eq!(
            v["largest_factor"],
            serde_json::json!({"qubits": 2, "branches": 2})
        );
        // A classical board has no factor.
        let (_, out, _) = analyze(&["--moves", "e2e4", "--json", "--backend", backend]);
        let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
        assert_eq!(v["factors"], 0);
        assert_eq!(
            v["largest_factor"],
            serde_json::json!({"qubits": 0, "branches": 1})
        );
    }
    let (_, out, _) = analyze(&["--moves", "g1^f3h3 b8^a6c6"]);
    assert!(
        out.contains("4 branches in 2 factors, the largest 2 qubits / 2 branches"),
        "{out}"
    );
    assert_one_line_error(
        &["--sparse-limit", "1", "--moves", "e2e4 g8^f6h6"],
        "move 2 \"g8^f6h6\": the quantum state would need 2 branches, over the limit of 1; raise the limit (--sparse-limit",
    );
    assert_one_line_error(
        &[
            "--backend",
            "dense",
            "--dense-limit",
            "1",
            "--moves",
            "g1^f3h3",
        ],
        "move 1 \"g1^f3h3\": the quantum state would need 2^2 amplitudes, over the limit of 2^1",
    );
    let (code, _, err) = analyze(&["--sparse-limit", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("sparse limit 0 is out of range"), "{err}");
}

#[test]
fn moves_may_be_written_in_san_as_the_move_line_and_pgn_read_them() {
    let (code, out, err) = analyze(&["--moves", "e4 d5 exd5 Qxd5 b1^a3c3 e5 Nxd5.m0", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    let moves = &v["moves"];
    assert_eq!(moves[2]["input"], "exd5");
    // A certain capture measured nothing a player could see: no outcome.
    assert_eq!(moves[2]["played"], "e4xd5");
    assert!(moves[2]["outcome"].is_null(), "{}", moves[2]);
    assert_eq!(moves[3]["played"], "d8xd5");
    // The half knight's capture asks whether it is on c3: forced "no" here.
    assert_eq!(moves[6]["input"], "Nxd5.m0");
    assert_eq!(moves[6]["played"], "c3xd5.m0");
    assert_eq!(moves[6]["outcome"], 0);
    assert_eq!(v["squares"]["d5"]["piece"], "q");
    // The text report lists the moves as they are written.
    let (code, out, err) = analyze(&["--moves", "e4 d5 exd5"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("  3. e4xd5  (took Pd5)\n"), "{out}");
    assert_one_line_error(
        &["--moves", "e4 Nd4"],
        "move 2 \"Nd4\": Nd4 (read as a knight move to d4): no knight of black can make it",
    );
}
