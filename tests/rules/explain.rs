//! Move explanations (`explain` of `qchess analyze --json`): every move type, both
//! outcomes of each measurement, on both backends, each checked against the squares of
//! the positions before and after; and the warning about a king that can be captured.

use qchess::chess::explain::{Cause, MoveKind, LISTED_CHANGE};
use qchess::chess::random::random_move;
use qchess::chess::report::to_json;
use qchess::chess::threat::king_threat;
use qchess::chess::{Color, Game, GameOptions, Status};
use qchess::quantum::{BackendKind, SimulatorSettings};
use qchess::seeded::SeededRng;
use serde_json::Value;
use std::collections::BTreeMap;

const BACKENDS: [BackendKind; 2] = [BackendKind::Sparse, BackendKind::Dense];

fn game(fen: Option<&str>, backend: BackendKind) -> Game {
    let opts = GameOptions {
        simulator: SimulatorSettings::on(backend),
        seed: 7,
        ..GameOptions::default()
    };
    match fen {
        Some(f) => Game::from_fen(f, opts).expect("test FEN is valid"),
        None => Game::standard(opts),
    }
}

/// (square, piece letter) -> chance, from `to_json`'s `squares`.
fn squares(json: &Value) -> BTreeMap<(String, String), f64> {
    json["squares"]
        .as_object()
        .expect("squares")
        .iter()
        .map(|(sq, v)| {
            (
                (sq.clone(), v["piece"].as_str().expect("piece").to_string()),
                v["p"].as_f64().expect("p"),
            )
        })
        .collect()
}

/// Plays `mv` and checks its `explain` against the squares before and after: every
/// listed change has exactly those chances (to 1e-9), and every piece whose chance on a
/// square changed by 0.5 points or more is listed. Returns the explanation.
fn played(g: &mut Game, mv: &str) -> Value {
    let before = squares(&to_json(g));
    g.play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    let json = to_json(g);
    let after = squares(&json);
    let explain = json["moves"]
        .as_array()
        .and_then(|m| m.last())
        .map(|m| m["explain"].clone())
        .expect("the move has an explanation");
    let changes = explain["changes"].as_array().expect("changes");
    let mut listed = Vec::new();
    for c in changes {
        let key = (
            c["square"].as_str().unwrap().to_string(),
            c["piece"].as_str().unwrap().to_string(),
        );
        let b = before.get(&key).copied().unwrap_or(0.0);
        let a = after.get(&key).copied().unwrap_or(0.0);
        assert!(
            (c["before"].as_f64().unwrap() - b).abs() < 1e-9,
            "{mv}: {key:?} before {c} vs {b}"
        );
        assert!(
            (c["after"].as_f64().unwrap() - a).abs() < 1e-9,
            "{mv}: {key:?} after {c} vs {a}"
        );
        if let Some(p) = c["captured"].as_f64() {
            assert!(p > 0.0 && p <= b + 1e-9, "{mv}: captured {p} of {b}");
        }
        match c["cause"].as_str().unwrap() {
            "ruled_out" => assert!(a < 1e-9, "{mv}: ruled out but {a} left: {c}"),
            "became_certain" => assert!(a > 1.0 - 1e-9, "{mv}: {c}"),
            _ => {}
        }
        listed.push(key);
    }
    for key in before.keys().chain(after.keys()) {
        let b = before.get(key).copied().unwrap_or(0.0);
        let a = after.get(key).copied().unwrap_or(0.0);
        if (a - b).abs() >= LISTED_CHANGE {
            assert!(
                listed.contains(key),
                "{mv}: {key:?} {b} -> {a} is not listed"
            );
        }
    }
    explain
}

fn plays(g: &mut Game, moves: &str) {
    for m in moves.split_whitespace() {
        played(g, m);
    }
}

/// The causes of a move's changes, as (square piece, cause) strings.
fn causes(e: &Value) -> Vec<String> {
    e["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "{}{} {}",
                c["piece"].as_str().unwrap(),
                c["square"].as_str().unwrap(),
                c["cause"].as_str().unwrap()
            )
        })
        .collect()
}

fn text(e: &Value) -> &str {
    e["text"].as_str().unwrap()
}

fn has(e: &Value, cause: &str) -> bool {
    causes(e).iter().any(|c| c == cause)
}

#[test]
fn a_pawn_capturing_half_a_knight_says_50_not_100() {
    for b in BACKENDS {
        let mut g = game(None, b);
        plays(&mut g, "e2e4 g8^f6h6 e4e5 a7a6");
        let e = played(&mut g, "e5xf6");
        assert_eq!(e["kind"], "capture");
        assert_eq!(e["measurement"]["question"], "was the pawn on e5?");
        assert_eq!(e["measurement"]["p"], 1.0);
        assert_eq!(e["measurement"]["answer"], "yes");
        let t = text(&e);
        assert!(!t.contains("100%"), "{t}");
        assert!(t.contains("took the knight on f6 with 50%"), "{t}");
        assert!(t.contains("the pawn is now on f6 50%, e5 50%"), "{t}");
        assert!(has(&e, "nf6 captured"), "{:?}", causes(&e));
        assert!(has(&e, "Pe5 moved") && has(&e, "Pf6 moved"));
    }
}

#[test]
fn a_capture_from_a_split_square_both_answers() {
    for b in BACKENDS {
        let mut g = game(None, b);
        plays(&mut g, "b1^a3c3 d7d5");
        let mut yes = g.clone();
        let e = played(&mut yes, "c3xd5.m1");
        assert_eq!(e["measurement"]["question"], "was the knight on c3?");
        assert!((e["measurement"]["p"].as_f64().unwrap() - 0.5).abs() < 1e-9);
        assert!(has(&e, "Na3 ruled_out"), "{:?}", causes(&e));
        assert!(has(&e, "pd5 captured") && has(&e, "Nd5 moved"));
        assert_eq!(
            text(&e),
            "c3xd5.m1: the knight was on c3 (a 50% chance); took the pawn on d5; vanished: Na3"
        );
        let e = played(&mut g, "c3xd5.m0");
        assert_eq!(e["measurement"]["answer"], "no");
        assert!(has(&e, "Nc3 ruled_out") && has(&e, "Na3 became_certain"));
        assert!(
            text(&e).contains("the knight was not on c3 (a 50% chance): the move did not happen")
        );
    }
}

#[test]
fn a_slide_capture_asks_for_the_path_both_answers() {
    // The knight splits onto d2 (on the bishop's path to f4) and h2.
    let fen = "4k3/8/8/8/5p2/8/8/2B1KN2 w - - 0 1";
    for b in BACKENDS {
        let mut g = game(Some(fen), b);
        plays(&mut g, "f1^d2h2 e8e7");
        let mut yes = g.clone();
        let e = played(&mut yes, "c1xf4.m1");
        assert_eq!(e["kind"], "capture");
        assert_eq!(
            e["measurement"]["question"],
            "was the bishop on c1 with the path c1-f4 clear?"
        );
        assert!((e["measurement"]["p"].as_f64().unwrap() - 0.5).abs() < 1e-9);
        assert!(has(&e, "pf4 captured") && has(&e, "Bf4 moved"));
        assert!(has(&e, "Nd2 ruled_out") && has(&e, "Nh2 became_certain"));
        assert!(text(&e).contains("now certain: Nh2"), "{}", text(&e));
        let e = played(&mut g, "c1xf4.m0");
        assert!(has(&e, "Nd2 became_certain") && has(&e, "Nh2 ruled_out"));
        assert!(
            text(&e).starts_with(
                "c1xf4.m0: the bishop was not on c1, or the path c1-f4 was blocked (a 50% chance)"
            ),
            "{}",
            text(&e)
        );
    }
}

#[test]
fn a_slide_through_a_superposed_square_is_told_as_one() {
    let fen = "4k3/8/8/8/8/8/8/RN2K3 w - - 0 1";
    for b in BACKENDS {
        let mut g = game(Some(fen), b);
        plays(&mut g, "b1^a3c3 e8e7");
        let e = played(&mut g, "a1a5");
        assert_eq!(e["kind"], "slide");
        assert!(e["measurement"].is_null());
        assert!(
            text(&e).contains("the rook is now on a1 50%, a5 50%")
                || text(&e).contains("the rook is now on a5 50%, a1 50%"),
            "{}",
            text(&e)
        );
    }
}

#[test]
fn splits_and_merges_of_jumps_and_slides() {
    for b in BACKENDS {
        let mut g = game(None, b);
        let e = played(&mut g, "g1^f3h3");
        assert_eq!(e["kind"], "split");
        assert!(
            text(&e).contains("the knight is now on f3 50%, h3 50%"),
            "{}",
            text(&e)
        );
        plays(&mut g, "e7e6");
        let e = played(&mut g, "f3h3^g1");
        assert_eq!(e["kind"], "merge");
        assert!(
            text(&e).contains("the knight is now on g1 100%"),
            "{}",
            text(&e)
        );
        plays(&mut g, "f8^c5d6 e2e3");
        let e = played(&mut g, "c5d6^f8");
        assert_eq!(e["kind"], "merge");
    }
}

#[test]
fn excluded_moves_both_answers() {
    for b in BACKENDS {
        let mut g = game(None, b);
        plays(&mut g, "b1^a3c3 g8f6");
        let mut yes = g.clone();
        let e = played(&mut yes, "c2c3.m1");
        assert_eq!(e["kind"], "excluded");
        assert_eq!(e["measurement"]["question"], "was c3 empty?");
        assert!(has(&e, "Nc3 ruled_out") && has(&e, "Na3 became_certain"));
        assert!(has(&e, "Pc3 moved"));
        let e = played(&mut g, "c2c3.m0");
        assert_eq!(e["measurement"]["answer"], "no");
        assert!(has(&e, "Na3 ruled_out") && has(&e, "Nc3 became_certain"));
        assert!(text(&e).starts_with("c2wc3.m0: c3 was occupied (a 50% chance)"));
    }
}

#[test]
fn castling_plain_and_excluded_both_answers() {
    let fen = "4k3/8/8/8/8/8/8/4K1NR w K - 0 1";
    for b in BACKENDS {
        let mut g = game(Some(fen), b);
        plays(&mut g, "g1f3 e8e7");
        let e = played(&mut g, "e1g1");
        assert_eq!(e["kind"], "castling");
        assert!(e["measurement"].is_null());
        assert!(has(&e, "Kg1 moved") && has(&e, "Rf1 moved"));

        let mut g = game(Some("4k3/8/8/8/8/8/8/4KN1R w K - 0 1"), b);
        plays(&mut g, "f1^d2g3 e8e7 g3f1 e7e8");
        // f1 holds the knight with 50%: castling asks whether f1 and g1 are empty.
        let mut yes = g.clone();
        let e = played(&mut yes, "e1g1.m1");
        assert_eq!(e["kind"], "castling");
        assert_eq!(e["measurement"]["question"], "were f1 and g1 empty?");
        assert!(has(&e, "Nd2 became_certain"), "{:?}", causes(&e));
        let e = played(&mut g, "e1g1.m0");
        assert!(has(&e, "Nf1 became_certain"), "{:?}", causes(&e));
    }
}

#[test]
fn en_passant_whole_and_in_part() {
    for b in BACKENDS {
        let mut g = game(Some("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"), b);
        plays(&mut g, "d7d5");
        let e = played(&mut g, "e5d6");
        assert_eq!(e["kind"], "en_passant");
        assert!(has(&e, "pd5 captured"), "{:?}", causes(&e));
        assert!(text(&e).contains("took the pawn on d5"), "{}", text(&e));

        // The capturing pawn stands on c5 with 50% only (it went there by taking half
        // a knight): the pawn that passed is taken in half the branches.
        let mut g = game(Some("4k3/1p6/n7/8/3P4/8/8/4K3 b - - 0 1"), b);
        plays(&mut g, "a6^c5b8 d4xc5 b7b5");
        let e = played(&mut g, "c5b6");
        assert_eq!(e["kind"], "en_passant");
        let taken = e["changes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["cause"] == "captured")
            .expect("a capture");
        assert_eq!(taken["square"], "b5");
        assert!(
            (taken["captured"].as_f64().unwrap() - 0.5).abs() < 1e-9,
            "{taken}"
        );
        assert!(
            text(&e).contains("took the pawn on b5 with 50%"),
            "{}",
            text(&e)
        );
    }
}

#[test]
fn promotion_plain_and_capturing() {
    for b in BACKENDS {
        let mut g = game(Some("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1"), b);
        let mut plain = g.clone();
        let e = played(&mut plain, "e7e8q");
        assert_eq!(e["kind"], "promotion");
        assert!(has(&e, "Qe8 moved") && has(&e, "Pe7 moved"));
        let e = played(&mut g, "e7xd8n");
        assert_eq!(e["kind"], "promotion");
        assert!(has(&e, "rd8 captured") && has(&e, "Nd8 moved"));
    }
}

#[test]
fn a_king_capture_ends_the_game_and_says_so() {
    for b in BACKENDS {
        let mut g = game(Some("4k3/8/8/8/8/8/8/4RK2 w - - 0 1"), b);
        let e = played(&mut g, "e1xe8");
        assert!(has(&e, "ke8 captured"));
        assert!(text(&e).contains("took the king on e8"));
        assert_eq!(g.status(), Status::WhiteWins);
    }
}

#[test]
fn a_50_move_ending_tells_what_the_board_measurement_did() {
    for b in BACKENDS {
        let mut g = game(Some("4k3/8/8/8/8/8/8/4K1N1 w - - 98 80"), b);
        plays(&mut g, "g1^f3h3");
        let e = played(&mut g, "e8e7");
        assert!(text(&e).contains("the board was measured"), "{}", text(&e));
        assert!(causes(&e).iter().any(|c| c.ends_with("board_measured")));
        assert_eq!(g.status(), Status::Draw);
    }
}

#[test]
fn random_games_agree_with_the_squares_on_both_backends() {
    for seed in [3u64, 4] {
        for b in BACKENDS {
            let mut g = Game::standard(GameOptions {
                simulator: SimulatorSettings::on(b),
                seed,
                ..GameOptions::default()
            });
            let mut rng = SeededRng::new(seed);
            let mut kinds = Vec::new();
            for _ in 0..120 {
                if g.status() != Status::Ongoing {
                    break;
                }
                let m = random_move(&g, &mut rng).expect("a move").to_string();
                let e = played(&mut g, &m);
                kinds.push(e["kind"].as_str().unwrap().to_string());
            }
            assert!(kinds.iter().any(|k| k == "split"), "{kinds:?}");
            assert!(kinds.iter().any(|k| k == "capture"), "{kinds:?}");
        }
    }
}

#[test]
fn a_king_in_reach_is_reported_with_the_capturing_move() {
    for b in BACKENDS {
        // A rook on the open file: certain.
        let g = game(Some("4r2k/8/8/8/8/8/8/4K3 w - - 0 1"), b);
        let t = king_threat(&g, Color::White).expect("the king is attacked");
        assert_eq!((t.by.as_str(), t.p), ("e8xe1", 1.0));
        assert_eq!(to_json(&g)["king_attacked"]["move"], "e8xe1");
        // Nothing attacks black's king.
        assert_eq!(king_threat(&g, Color::Black), None);
        // A split attacker: half.
        let mut g = game(Some("7k/8/8/8/8/8/8/4K1n1 b - - 0 1"), b);
        g.play("g1^f3h3").unwrap();
        let t = king_threat(&g, Color::White).expect("the king is attacked");
        assert_eq!(t.by, "f3xe1");
        assert!((t.p - 0.5).abs() < 1e-9, "{t:?}");
        // A split king: each half can be captured.
        let mut g = game(Some("4r2k/8/8/8/8/8/8/4K3 w - - 0 1"), b);
        g.play("e1^d1f1").unwrap();
        let t = king_threat(&g, Color::White);
        assert!(
            t.is_none(),
            "the rook on e8 reaches neither d1 nor f1: {t:?}"
        );
    }
}

#[test]
fn move_kinds_have_json_names() {
    assert_eq!(MoveKind::EnPassant.name(), "en_passant");
    assert_eq!(Cause::Certain.name(), "became_certain");
}
