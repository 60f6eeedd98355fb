//! `qchess analyze --qasm OUT`: the file it writes reads back to the game, and a file
//! that can't be written is an error in words.

use crate::support::cli::analyze;
use qchess::qasm;
use qchess::quantum::BackendKind;

#[test]
fn writes_a_program_that_reads_back_to_the_game() {
    let dir = std::env::temp_dir().join(format!("qchess-qasm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.qasm");
    let moves = "g1^f3h3 b8^a6c6 f3e5 c6d4 e2e3 d4xc2";
    let path_s = path.to_str().unwrap();
    let (code, out, err) = analyze(&["--moves", moves, "--seed", "3", "--qasm", path_s, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("the usual JSON");
    let text = std::fs::read_to_string(&path).expect("the file was written");
    std::fs::remove_dir_all(&dir).ok();
    assert!(text.starts_with("OPENQASM 3.0;"));
    let p = qasm::parse(&text).unwrap();
    // The last move measured: force the recorded bit and compare every square.
    let outcome = v["moves"][5]["outcome"].as_u64().expect("d4xc2 measured") == 1;
    let sim = qasm::simulate(&p, BackendKind::Sparse, &[outcome], 0).unwrap();
    for (name, sq) in v["squares"].as_object().unwrap() {
        let s = qchess::chess::Square::parse(name).unwrap();
        let want = sq["p"].as_f64().unwrap();
        assert!((sim.probabilities[s.index()] - want).abs() < 1e-9, "{name}");
    }
}

#[test]
fn an_unwritable_file_is_an_error_in_words() {
    let (code, out, err) = analyze(&["--moves", "e2e4", "--qasm", "/nonexistent-dir/x.qasm"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(
        err.starts_with("qchess: cannot write the circuit to /nonexistent-dir/x.qasm: "),
        "{err}"
    );
}
