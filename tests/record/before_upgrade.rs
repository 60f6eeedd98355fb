//! Saved games and seeds from before the dependency upgrade: the files in
//! `tests/record/fixtures/` were written by qchess on rand 0.8, the quantum one by the
//! app's autosave. They must replay to the state recorded then and go on drawing the
//! outcomes recorded then, and a seed must give the same draws, shuffles, choices and
//! engine moves as it did.

use qchess::chess::random::random_move;
use qchess::chess::{Game, Status};
use qchess::engine::player::Random;
use qchess::engine::variant::greedy_variant;
use qchess::engine::Player;
use qchess::game::Playable;
use qchess::record;
use qchess::seeded::SeededRng;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/record/fixtures")
        .join(name)
}

/// The game saved in `name`, replayed as a saved game is loaded.
fn replayed(name: &str) -> Box<dyn Playable> {
    let path = fixture(name);
    let saved = record::load_game(&path, None).expect("the fixture loads");
    saved
        .replay(&path, None, None)
        .expect("the fixture replays")
}

/// What a game's state is (its JSON report's distribution, squares, status, ply and side
/// to move), against the one recorded in `name` before the upgrade: the same but for
/// probabilities within 1e-12. Their last digits follow the order the simulator's hash
/// map sums its branches in, which a new hash function changes; an outcome is drawn
/// against them, so only a draw within that distance of one could tell the difference.
fn assert_recorded_state(game: &dyn Playable, name: &str) {
    let report = game.to_json();
    let state: serde_json::Map<String, serde_json::Value> =
        ["distribution", "squares", "status", "ply", "to_move"]
            .into_iter()
            .map(|k| (k.to_string(), report[k].clone()))
            .collect();
    let recorded = std::fs::read_to_string(fixture(name)).expect("the recorded state");
    let recorded: serde_json::Value = serde_json::from_str(&recorded).expect("JSON");
    if let Err(at) = same(&serde_json::Value::Object(state), &recorded, String::new()) {
        panic!("{name}: the replayed state differs from the recorded one at {at}");
    }
}

/// Whether two JSON values are equal, numbers within 1e-12; where they first differ.
fn same(a: &serde_json::Value, b: &serde_json::Value, at: String) -> Result<(), String> {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (
                x.as_f64().unwrap_or(f64::NAN),
                y.as_f64().unwrap_or(f64::NAN),
            );
            if (x - y).abs() <= 1e-12 {
                Ok(())
            } else {
                Err(format!("{at}: {x} against {y}"))
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .try_for_each(|(i, (x, y))| same(x, y, format!("{at}[{i}]"))),
        (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
            x.iter().try_for_each(|(k, v)| {
                let w = y.get(k).ok_or_else(|| format!("{at}/{k}: missing"))?;
                same(v, w, format!("{at}/{k}"))
            })
        }
        _ if a == b => Ok(()),
        _ => Err(format!("{at}: {a} against {b}")),
    }
}

#[test]
fn a_quantum_autosave_from_before_the_upgrade_replays_and_draws_the_same() {
    let game = replayed("before-upgrade-quantum.toml");
    assert_recorded_state(game.as_ref(), "before-upgrade-quantum.json");
    let mut game: Game = game.quantum().cloned().expect("a quantum game");
    assert_eq!(
        game.fen(),
        "rnb1kbn1/pp2pQpr/5p2/2pp3p/3Q4/P1P1QP1q/RPQPP1PP/1NBQKB1R w Kq - 6 21"
    );
    // The next plies: moves from seed 38, outcomes from the game's own seed (2026).
    let mut rng = SeededRng::new(38);
    let mut next = Vec::new();
    while next.len() < 12 && game.status() == Status::Ongoing {
        let m = random_move(&game, &mut rng).expect("a move");
        next.push(game.play(&m.to_string()).expect("legal").played.clone());
    }
    assert_eq!(
        next,
        [
            "a2a1", "h3g4", "d1b3", "g4e6", "e3d4", "e8d8", "e3^h6g5", "d8e8", "a1a2", "a7a6",
            "f7xf6.m0", "e8d8"
        ]
    );
}

#[test]
fn a_harmonics_save_from_before_the_upgrade_replays_and_draws_the_same() {
    let mut game = replayed("before-upgrade-harmonics.toml");
    assert_recorded_state(game.as_ref(), "before-upgrade-harmonics.json");
    let greedy: Vec<String> = (0..6)
        .map(|seed| greedy_variant(game.as_ref(), seed).expect("a move").mv)
        .collect();
    assert_eq!(greedy, ["e1g1", "b1c3", "b2c3", "b2c3", "d1c2", "d4c5"]);
    let random: Vec<String> = (0..6)
        .map(|seed| {
            Random::new(seed)
                .think(game.as_ref())
                .wait()
                .expect("a move")
                .mv
        })
        .collect();
    assert_eq!(random, ["b5~e2", "d1c2", "d1~b6", "b5d3", "d5e4", "d1~g6"]);
    // The next plies: moves from seed 40, outcomes from the game's own seed (2027).
    let mut rng = SeededRng::new(40);
    let mut next = Vec::new();
    while next.len() < 12 && game.status() == Status::Ongoing {
        let m = rng.choose(&game.legal_moves()).expect("a move").clone();
        next.push(game.play(&m).expect("legal").text);
    }
    assert_eq!(
        next,
        [
            "d2c3.c3=q",
            "f6~f3.f3=q",
            "e1~d3.d3=K",
            "f3e3.e3=P",
            "c4~d3.d3=K",
            "b4~g6",
            "d3e2",
            "g6~c7.c7=p",
            "e5~g6.g6=N",
            "b8~a5.a5=n",
            "c6~h3",
            "h6~f6"
        ]
    );
}

#[test]
fn the_random_player_moves_as_before_the_upgrade() {
    let game = replayed("before-upgrade-quantum.toml");
    let moves: Vec<String> = (0..6)
        .map(|seed| {
            Random::new(seed)
                .think(game.as_ref())
                .wait()
                .expect("a move")
                .mv
        })
        .collect();
    assert_eq!(moves, ["d4c4", "f7xg8", "e3e6", "h1g1", "d4^e3c4", "d4e5"]);
}

#[test]
fn a_seed_draws_as_before_the_upgrade() {
    let mut rng = SeededRng::new(12345);
    let units: Vec<f64> = (0..4).map(|_| rng.unit()).collect();
    assert_eq!(
        units,
        [
            0.07370419932280936,
            0.042455561568147115,
            0.7898320875618252,
            0.33342105737466576
        ]
    );
    let words: Vec<u64> = (0..2).map(|_| rng.next_u64()).collect();
    assert_eq!(words, [1631952055158662444, 3239304791778498078]);
    let rolls: Vec<usize> = (0..8).map(|_| rng.index(10)).collect();
    assert_eq!(rolls, [5, 7, 0, 5, 3, 8, 0, 4]);
    let mut deck: Vec<u32> = (0..20).collect();
    rng.shuffle(&mut deck);
    assert_eq!(
        deck,
        [9, 19, 11, 2, 0, 18, 4, 17, 16, 6, 7, 14, 15, 3, 8, 10, 13, 1, 5, 12]
    );
    let picks: Vec<u32> = (0..6)
        .map(|_| *rng.choose(&[1u32, 2, 3, 4, 5, 6, 7]).expect("one"))
        .collect();
    assert_eq!(picks, [7, 1, 6, 4, 3, 3]);
    // Far past the first blocks of the stream, words taken one and two at a time.
    let (mut total, mut rolled) = (0.0, 0);
    for _ in 0..500 {
        total += rng.unit();
        rolled += rng.index(10);
    }
    assert_eq!((total, rolled), (246.34004472464053, 2262));
}
