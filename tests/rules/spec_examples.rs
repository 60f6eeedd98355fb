//! Every case of ../shared/spec/examples.toml, on both backends.

use qchess::analyze::{run, Request};
use qchess::chess::Square;
use qchess::quantum::{BackendKind, SimulatorSettings};
use serde::Deserialize;
use std::collections::HashMap;

#[derive(Deserialize)]
struct File {
    case: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    fen: String,
    #[serde(default)]
    free_turns: bool,
    moves: Vec<String>,
    distribution: Vec<Entry>,
    #[serde(default)]
    pieces: HashMap<String, String>,
}

#[derive(Deserialize)]
struct Entry {
    occupied: Vec<String>,
    p: f64,
}

fn examples_path() -> std::path::PathBuf {
    match std::env::var_os("QCHESS_EXAMPLES") {
        Some(p) => p.into(),
        None => {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/spec/examples.toml")
        }
    }
}

fn bitboard(squares: &[String]) -> u64 {
    squares
        .iter()
        .map(|s| {
            1u64 << Square::parse(s)
                .unwrap_or_else(|| panic!("bad square {s}"))
                .0
        })
        .fold(0, |a, b| a | b)
}

#[test]
fn every_spec_example_on_both_backends() {
    let path = examples_path();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read the spec examples at {}: {e}", path.display()));
    let file: File = toml::from_str(&text).expect("examples.toml parses");
    assert!(file.case.len() >= 20, "expected the full example set");
    for case in &file.case {
        for backend in [BackendKind::Sparse, BackendKind::Dense] {
            let req = Request {
                fen: Some(case.fen.clone()),
                moves: case.moves.join(" "),
                simulator: SimulatorSettings::on(backend),
                seed: 1,
                free_turns: case.free_turns,
                ..Request::default()
            };
            let game = run(&req).unwrap_or_else(|e| panic!("{} [{backend}]: {e}", case.name));
            let got: HashMap<u64, f64> =
                game.distribution(usize::MAX).entries.into_iter().collect();
            let want: HashMap<u64, f64> = case
                .distribution
                .iter()
                .map(|e| (bitboard(&e.occupied), e.p))
                .collect();
            for (set, p) in &want {
                let g = got.get(set).copied().unwrap_or(0.0);
                assert!(
                    (g - p).abs() < 1e-9,
                    "{} [{backend}]: set {set:#x} expected {p}, got {g}\nall: {got:?}",
                    case.name
                );
            }
            for (set, p) in &got {
                assert!(
                    want.contains_key(set) || *p < 1e-9,
                    "{} [{backend}]: unexpected set {set:#x} with p {p}",
                    case.name
                );
            }
            for (sq, letter) in &case.pieces {
                let s = Square::parse(sq).expect("square");
                let piece = game.state().piece(s).map(|p| p.fen_char().to_string());
                assert_eq!(
                    piece.as_deref(),
                    Some(letter.as_str()),
                    "{} [{backend}]: piece on {sq}",
                    case.name
                );
            }
        }
    }
}
