//! The harmonics variant (spec/harmonics.md) on small positions with exact probabilities:
//! quantum moves, moves through superposed pieces, conflicts, castling, the end of the
//! game, merging, the bound, refused moves, replay and undo.

use qchess::chess::{Color, Square, Status};
use qchess::game::{PlayError, Playable, RuleSet};
use qchess::variants::harmonics::HarmonicsGame;

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn game(fen: &str) -> HarmonicsGame {
    HarmonicsGame::from_fen(fen, 1).unwrap()
}

/// The probability shown on a square (0 where nothing may stand).
fn p(g: &HarmonicsGame, s: &str) -> f64 {
    g.cells()
        .into_iter()
        .find(|(c, _)| *c == sq(s))
        .map_or(0.0, |(_, cell)| cell.probability)
}

/// The piece letter shown on a square.
fn letter(g: &HarmonicsGame, s: &str) -> Option<char> {
    g.cells()
        .into_iter()
        .find(|(c, _)| *c == sq(s))
        .map(|(_, cell)| {
            let l = cell.kind.unwrap().letter();
            if cell.color == Color::White {
                l
            } else {
                l.to_ascii_lowercase()
            }
        })
}

fn play(g: &mut HarmonicsGame, moves: &str) {
    for m in moves.split_whitespace() {
        g.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

fn refused(g: &mut HarmonicsGame, m: &str) -> String {
    let before = g.to_json();
    let e = g.play(m).expect_err(m).to_string();
    assert_eq!(g.to_json(), before, "a refused move changes nothing");
    e
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn starts_with_one_harmonic() {
    let g = HarmonicsGame::new(0);
    assert_eq!(g.rules(), RuleSet::Harmonics);
    assert_eq!(g.superposition().len(), 1);
    assert_eq!(g.cells().len(), 32);
    assert!(g.cells().iter().all(|(_, c)| c.probability == 1.0));
    assert_eq!(g.to_move(), Color::White);
    assert_eq!(g.status(), Status::Ongoing);
    // 16 pawn moves, 4 knight moves, and knight quantum moves: 7 targets each.
    let moves = g.legal_moves();
    assert_eq!(moves.iter().filter(|m| !m.contains('~')).count(), 20);
    assert_eq!(moves.iter().filter(|m| m.starts_with("b1~")).count(), 7);
    assert_eq!(moves.iter().filter(|m| m.contains('~')).count(), 14);
    assert!(!moves.contains(&"g1~e2".to_string()));
}

#[test]
fn quantum_move_one_step() {
    let mut g = HarmonicsGame::new(0);
    play(&mut g, "g1~f3");
    assert_eq!(p(&g, "g1"), 0.5);
    assert_eq!(p(&g, "f3"), 0.5);
    assert_eq!(letter(&g, "f3"), Some('N'));
    assert_eq!(g.superposition().len(), 2);
    assert_eq!(g.history()[0].text, "g1~f3");
    assert_eq!(g.history()[0].color, Color::White);
    assert_eq!(g.to_move(), Color::Black);
}

#[test]
fn quantum_move_two_steps_skips_the_middle_square() {
    let mut g = HarmonicsGame::new(0);
    play(&mut g, "g1~e5");
    assert_eq!(p(&g, "g1"), 0.5);
    assert_eq!(p(&g, "e5"), 0.5);
    assert_eq!(p(&g, "f3"), 0.0);
    // A rook two moves away, turning on a7 (a1-h1 passes the king on e1).
    let mut r = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    play(&mut r, "a1~h7");
    assert_eq!(p(&r, "h7"), 0.5);
    assert_eq!(p(&r, "a1"), 0.5);
}

#[test]
fn quantum_move_splits_only_harmonics_that_allow_it() {
    // The knight is on b1 or c3; c3~b1 splits only the c3 half and merges with b1.
    let mut g = HarmonicsGame::new(0);
    play(&mut g, "b1~c3 e7e6 c3~b1");
    assert_eq!(p(&g, "b1"), 0.75);
    assert_eq!(p(&g, "c3"), 0.25);
    assert_eq!(g.superposition().len(), 2);
    assert!(g.history()[2]
        .trace
        .iter()
        .any(|l| l.contains("merged 1 harmonic")));
    // Weights sum to 1.
    let total: f64 = g.superposition().iter().map(|(_, w)| w).sum();
    assert!(close(total, 1.0));
}

#[test]
fn moving_through_a_superposed_piece_entangles() {
    // The knight is on b1 or a3; the rook reaches a5 only where a3 is empty.
    let mut g = game("4k3/8/8/8/8/8/8/RN2K3 w - - 0 1");
    play(&mut g, "b1~a3 e8d8 a1a5");
    assert_eq!(p(&g, "a1"), 0.5);
    assert_eq!(p(&g, "a5"), 0.5);
    assert_eq!(p(&g, "a3"), 0.5);
    assert_eq!(p(&g, "b1"), 0.5);
    let json = g.to_json();
    let sets: Vec<Vec<String>> = json["distribution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            assert_eq!(d["p"], 0.5);
            d["occupied"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect()
        })
        .collect();
    // Never the rook on a5 with the knight on a3: the two are entangled.
    assert_eq!(sets.len(), 2);
    assert!(sets.contains(&vec!["a1".into(), "e1".into(), "a3".into(), "d8".into()]));
    assert!(sets.contains(&vec!["b1".into(), "e1".into(), "a5".into(), "d8".into()]));
    assert!(g.history()[2].trace[0].contains("made in 1 of 2 harmonics (50% of the weight)"));
}

#[test]
fn ordinary_capture_happens_where_the_enemy_stands() {
    // The black knight is on g8 or f6; the bishop takes it on f6 in half the harmonics.
    let mut g = game("4k1n1/8/8/8/8/8/8/4K1B1 b - - 0 1");
    play(&mut g, "g8~f6 g1d4");
    play(&mut g, "e8e7 d4f6");
    assert_eq!(p(&g, "f6"), 1.0);
    assert_eq!(letter(&g, "f6"), Some('B'));
    assert_eq!(p(&g, "g8"), 0.5);
    assert_eq!(g.history()[3].note, "takes knight (50%)");
}

/// Knight on c3 with weight 3/4, on b1 with 1/4; the bishop then claims c3 where it is
/// empty.
fn conflict_game(seed: u64) -> HarmonicsGame {
    let mut g = HarmonicsGame::from_fen("4k3/8/8/8/8/8/3B4/1N2K3 w - - 0 1", seed).unwrap();
    play(&mut g, "b1~c3 e8d8 b1~c3 d8e8");
    assert_eq!(p(&g, "c3"), 0.75);
    g
}

#[test]
fn conflict_with_forced_outcomes() {
    let mut g = conflict_game(0);
    play(&mut g, "d2c3.c3=N");
    assert_eq!(g.history()[4].text, "d2c3.c3=N");
    assert_eq!(p(&g, "c3"), 1.0);
    assert_eq!(letter(&g, "c3"), Some('N'));
    assert_eq!(p(&g, "d2"), 1.0);
    assert_eq!(g.superposition().len(), 1);
    assert!(g.history()[4].trace.iter().any(|l| l.contains(
        "conflict on c3: white knight 75% or white bishop 25% -> white knight (as recorded)"
    )));

    let mut g = conflict_game(0);
    play(&mut g, "d2c3.c3=B");
    assert_eq!(letter(&g, "c3"), Some('B'));
    assert_eq!(p(&g, "c3"), 1.0);
    assert_eq!(p(&g, "b1"), 1.0);
    assert_eq!(p(&g, "d2"), 0.0);
}

#[test]
fn conflict_drawn_from_the_seed_in_proportion_to_weight() {
    let mut knights = 0;
    for seed in 0..400 {
        let mut g = conflict_game(seed);
        let text = g.play("d2c3").unwrap().text.clone();
        assert!(text == "d2c3.c3=N" || text == "d2c3.c3=B", "{text}");
        knights += text.ends_with('N') as usize;
        // The same seed draws the same outcome.
        let mut again = conflict_game(seed);
        assert_eq!(again.play("d2c3").unwrap().text, text);
    }
    // Expected 300 of 400 (3/4); five standard deviations is about 43.
    assert!((257..=343).contains(&knights), "{knights}");
}

/// White king e1, bishop on f1 or d3, knight on g1 or h3, rook h1: four harmonics.
fn castling_game() -> HarmonicsGame {
    let mut g = game("4k3/p7/8/8/8/8/8/4KBNR w K - 0 1");
    play(&mut g, "g1~h3 a7a6 f1~d3 a6a5");
    assert_eq!(g.superposition().len(), 4);
    g
}

#[test]
fn castling_measures_the_king_square_then_the_rook_square() {
    // Castling happens only where f1 and g1 are both empty (1/4). g1: king 1/4 against
    // knight 1/2; kept the king, f1: rook 1/4 against bishop 1/4.
    let mut g = castling_game();
    play(&mut g, "e1g1.g1=K.f1=R");
    assert_eq!(g.history()[4].text, "e1g1.g1=K.f1=R");
    assert_eq!(p(&g, "g1"), 1.0);
    assert_eq!(letter(&g, "g1"), Some('K'));
    assert_eq!(p(&g, "f1"), 1.0);
    assert_eq!(letter(&g, "f1"), Some('R'));
    assert_eq!(p(&g, "h3"), 1.0);
    assert_eq!(p(&g, "d3"), 1.0);
    let trace = &g.history()[4].trace;
    assert!(
        trace
            .iter()
            .any(|l| l.contains("conflict on g1: white knight 67% or white king 33%")),
        "{trace:?}"
    );
    assert!(
        trace
            .iter()
            .any(|l| l.contains("conflict on f1: white bishop 50% or white rook 50%")),
        "{trace:?}"
    );

    // Kept the king on g1 but the bishop on f1: the king never left e1.
    let mut g = castling_game();
    play(&mut g, "e1g1.g1=K.f1=B");
    assert_eq!(p(&g, "e1"), 1.0);
    assert_eq!(p(&g, "f1"), 1.0);
    assert_eq!(p(&g, "h1"), 1.0);
    assert_eq!(p(&g, "h3"), 1.0);

    // Kept the knight on g1: one measurement only, the king stays, three harmonics left.
    let mut g = castling_game();
    play(&mut g, "e1g1.g1=N");
    assert_eq!(g.superposition().len(), 3);
    assert!(close(p(&g, "g1"), 2.0 / 3.0));
    assert!(close(p(&g, "f1"), 2.0 / 3.0));
    assert_eq!(p(&g, "e1"), 1.0);

    // Outcomes in the wrong order are refused.
    let mut g = castling_game();
    let e = refused(&mut g, "e1g1.f1=R.g1=K");
    assert!(e.contains("this move measures g1 next"), "{e}");
}

#[test]
fn castling_needs_the_right_in_some_harmonic() {
    let mut g = game("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    let e = refused(&mut g, "e1g1");
    assert!(e.contains("no harmonic lets white castle king side"), "{e}");
    // A rook that left and came back in some harmonics keeps the right only in the others.
    let mut g = game("4k3/p7/8/8/8/8/8/4K2R w K - 0 1");
    play(&mut g, "h1~h3 a7a6 h3~h1 a6a5");
    assert_eq!(g.superposition().len(), 3);
    assert_eq!(p(&g, "h1"), 0.75);
    play(&mut g, "e1g1");
    assert_eq!(p(&g, "g1"), 0.5);
    assert_eq!(p(&g, "e1"), 0.5);
    assert_eq!(p(&g, "f1"), 0.5);
    assert_eq!(p(&g, "h1"), 0.25);
}

#[test]
fn king_probability_zero_wins() {
    let mut g = game("4k3/p7/8/8/8/8/8/4R2K b - - 0 1");
    play(&mut g, "e8~d8 e1e8");
    assert_eq!(g.status(), Status::Ongoing);
    assert_eq!(p(&g, "d8"), 0.5);
    assert_eq!(g.history()[1].note, "takes king (50%)");
    play(&mut g, "a7a6 e8d8");
    assert_eq!(g.status(), Status::WhiteWins);
    assert_eq!(
        g.end_reason().as_deref(),
        Some("the black king's probability reached 0")
    );
    assert!(g.history()[3].note.ends_with("white wins"));
    assert_eq!(g.superposition().len(), 1, "both harmonics became equal");
    assert!(g.legal_moves().is_empty());
    let e = refused(&mut g, "a6a5");
    assert!(e.contains("the game is over"), "{e}");
    assert_eq!(g.to_json()["status"], "white_wins");
}

#[test]
fn no_move_in_any_harmonic_is_a_draw() {
    // Every white piece is walled in by its own (see the listing's unit test).
    let g = game("KBBBBBBB/PPPPPPPP/8/8/8/8/8/7k w - - 0 1");
    assert_eq!(g.status(), Status::Draw);
    assert_eq!(
        g.end_reason().as_deref(),
        Some("white has no move in any harmonic")
    );
}

#[test]
fn both_kings_gone_together_is_a_draw() {
    // The white king is on b5 or a4; the black rook takes it on b5. Where the king is on
    // a4 it blocks the white rook, so the rook takes the black king on a8 only where the
    // white king is already gone; keeping the rook on a8 leaves no king at all.
    let mut g = game("k7/8/8/1K5r/8/8/8/R7 w - - 0 1");
    play(&mut g, "b5~a4 h5b5");
    assert_eq!(g.status(), Status::Ongoing);
    let mut drawn = g.clone();
    play(&mut drawn, "a1a8.a8=R");
    assert_eq!(drawn.status(), Status::Draw);
    assert_eq!(
        drawn.end_reason().as_deref(),
        Some("both kings' probabilities reached 0 together")
    );
    play(&mut g, "a1a8.a8=k");
    assert_eq!(g.status(), Status::Ongoing);
    assert_eq!(p(&g, "a4"), 1.0);
    assert_eq!(p(&g, "a8"), 1.0);
    assert_eq!(letter(&g, "a8"), Some('k'));
}

#[test]
fn the_bound_measures_the_least_certain_square() {
    assert!(HarmonicsGame::new(0).with_limit(10).is_err());
    let fen = "nnnn3k/8/8/8/8/8/8/NNNN3K w - - 0 1";
    let mut g = HarmonicsGame::from_fen(fen, 5)
        .unwrap()
        .with_limit(64)
        .unwrap();
    play(&mut g, "a1~b3 a8~b6 b1~d2 b8~d7 c1~e2 c8~e7");
    assert_eq!(g.superposition().len(), 64);
    let text = g.play("d1~f2").unwrap().text.clone();
    // 128 harmonics; a1 is the first square with occupied and empty equally likely.
    assert!(text.starts_with("d1~f2.a1="), "{text}");
    assert_eq!(g.superposition().len(), 64);
    assert!(p(&g, "a1") == 0.0 || p(&g, "a1") == 1.0);
    assert_eq!(p(&g, "f2"), 0.5);
    assert!(g.history()[6]
        .trace
        .iter()
        .any(|l| l.contains("128 harmonics were over the bound of 64; 64 remain")));
    assert!(g.details(sq("a1"))[0].contains("bound 64"));
    let mut forced = HarmonicsGame::from_fen(fen, 99)
        .unwrap()
        .with_limit(64)
        .unwrap();
    play(
        &mut forced,
        "a1~b3 a8~b6 b1~d2 b8~d7 c1~e2 c8~e7 d1~f2.a1=-",
    );
    assert_eq!(p(&forced, "a1"), 0.0);
    assert_eq!(p(&forced, "b3"), 1.0);
    assert!(
        forced.with_limit(100).is_err(),
        "only before the first move"
    );
}

#[test]
fn illegal_moves_are_refused_with_reasons() {
    let mut g = HarmonicsGame::new(0);
    let cases = [
        (
            "b1b3",
            "no harmonic lets the knight on b1 reach b3 (a knight never moves that way)",
        ),
        ("e2~e4", "pawns can't make quantum moves"),
        ("e7e5", "the pawn on e7 is black's, and it is white's turn"),
        ("e4e5", "there is no piece on e4 in any harmonic"),
        (
            "a1a3",
            "no harmonic lets the rook on a1 reach a3 (the way is blocked",
        ),
        ("d1d2", "d2 holds your own pawn"),
        (
            "e2e5",
            "no harmonic lets the pawn on e2 reach e5 (a pawn never moves that way)",
        ),
        ("e2d3", "a pawn moves diagonally only to capture"),
        (
            "b1~d2",
            "a quantum move needs an empty target, and d2 holds your own pawn",
        ),
        ("c1~c4", "more than two moves away"),
        ("a1~a3", "in one or two quiet moves (the way is blocked"),
        ("e2e2", "a move must leave e2"),
        ("hello", "is not a move"),
        ("e2e4.e4=P", "this move measures nothing more"),
        ("e2e4q", "only a pawn reaching the last rank promotes"),
    ];
    for (m, why) in cases {
        let e = refused(&mut g, m);
        assert!(e.contains(why), "{m}: {e}");
    }
    let mut c = game("4k3/8/8/8/8/2p5/8/1N2K3 w - - 0 1");
    assert_eq!(
        refused(&mut c, "b1~c3"),
        "a quantum move can't capture (c3 holds a black pawn)"
    );
    let mut pr = game("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    assert!(refused(&mut pr, "b7b8").contains("must promote: write b7b8q"));
    play(&mut pr, "b7b8n");
    assert_eq!(letter(&pr, "b8"), Some('N'));
    let mut cf = conflict_game(0);
    let e = refused(&mut cf, "d2c3.c3=Q");
    assert!(
        e.contains("impossible: c3 is white knight 75% or white bishop 25%"),
        "{e}"
    );
}

#[test]
fn en_passant_where_the_pawn_just_stepped_two() {
    // The black pawn steps d7d5 in every harmonic; white takes en passant.
    let mut g = game("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    play(&mut g, "d7d5 e5d6");
    assert_eq!(p(&g, "d5"), 0.0);
    assert_eq!(p(&g, "d6"), 1.0);
    assert_eq!(g.history()[1].note, "takes pawn (100%)");
    // Only right after the step.
    let mut late = game("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    play(&mut late, "d7d5 e1e2 e8e7");
    assert!(refused(&mut late, "e5d6").contains("diagonally only to capture"));
}

#[test]
fn legal_moves_are_those_some_harmonic_allows() {
    let mut g = HarmonicsGame::new(0);
    play(&mut g, "g1~f3 e7e6");
    let moves = g.legal_moves();
    // g1 and f3 both hold the knight in some harmonic; f3 moves and g1 moves are listed.
    assert!(moves.contains(&"g1h3".to_string()));
    assert!(moves.contains(&"f3g5".to_string()));
    assert!(moves.contains(&"f3~g1".to_string()));
    for m in &moves {
        let mut h = g.clone();
        h.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

#[test]
fn replay_of_recorded_texts_is_exact() {
    for seed in 0..8 {
        // A drawn conflict, then castling with its drawn measurements.
        let mut g = conflict_game(seed);
        play(&mut g, "d2c3 e8d8 e1f1");
        let mut c = castling_game();
        c = HarmonicsGame::from_fen("4k3/p7/8/8/8/8/8/4KBNR w K - 0 1", seed)
            .map(|mut fresh| {
                for r in c.history() {
                    fresh.play(&r.text).unwrap();
                }
                fresh
            })
            .unwrap();
        play(&mut c, "e1g1 e8d8");
        for (g, fen) in [
            (g, "4k3/8/8/8/8/8/3B4/1N2K3 w - - 0 1"),
            (c, "4k3/p7/8/8/8/8/8/4KBNR w K - 0 1"),
        ] {
            let texts: Vec<String> = g.history().iter().map(|r| r.text.clone()).collect();
            assert!(texts.iter().any(|t| t.contains('=')), "{texts:?}");
            let mut r = HarmonicsGame::from_fen(fen, seed + 1000).unwrap();
            for t in &texts {
                r.play(t).unwrap_or_else(|e| panic!("{t}: {e}"));
            }
            assert_eq!(r.cells(), g.cells());
            assert_eq!(r.status(), g.status());
            assert_eq!(r.superposition(), g.superposition());
            let replayed: Vec<String> = r.history().iter().map(|r| r.text.clone()).collect();
            assert_eq!(replayed, texts);
        }
    }
}

#[test]
fn undo_restores_the_previous_state_and_random_source() {
    let mut g = conflict_game(3);
    let before = g.clone();
    let first = g.play("d2c3").unwrap().text.clone();
    g.undo().unwrap();
    assert_eq!(g.cells(), before.cells());
    assert_eq!(g.to_json(), before.to_json());
    assert_eq!(g.history(), before.history());
    // The same unforced move draws the same outcome again.
    assert_eq!(g.play("d2c3").unwrap().text, first);
    for _ in 0..5 {
        g.undo().unwrap();
    }
    assert_eq!(
        g.cells(),
        HarmonicsGame::from_fen("4k3/8/8/8/8/8/3B4/1N2K3 w - - 0 1", 3)
            .unwrap()
            .cells()
    );
    assert_eq!(g.undo().unwrap_err(), PlayError::NothingToUndo);
}

#[test]
fn json_and_details_describe_the_state() {
    let mut g = HarmonicsGame::new(0);
    play(&mut g, "b1~c3");
    let j = g.to_json();
    assert_eq!(j["variant"], "harmonics");
    assert_eq!(j["to_move"], "black");
    assert_eq!(j["ply"], 1);
    assert_eq!(j["status"], "ongoing");
    assert_eq!(j["harmonics"], 2);
    assert_eq!(j["moves"][0]["input"], "b1~c3");
    assert_eq!(j["moves"][0]["played"], "b1~c3");
    assert_eq!(j["squares"]["c3"]["piece"], "N");
    assert_eq!(j["squares"]["c3"]["p"], 0.5);
    assert_eq!(j["squares"]["e8"]["piece"], "k");
    assert_eq!(j["distribution"].as_array().unwrap().len(), 2);
    let d = g.details(sq("c3"));
    assert!(d[0].starts_with("2 harmonics (bound 16384"), "{d:?}");
    assert_eq!(d[1], " 1.  50%  the most likely board");
    assert_eq!(d[2], " 2.  50%  -b1 Nc3");
    assert_eq!(d[3], "c3: white knight 50%");
    assert_eq!(d[4], "  or else on b1 50%");
    let e = g.details(sq("e4"));
    assert_eq!(e.last().unwrap(), "e4: empty in every harmonic");
    let k = g.details(sq("e1"));
    assert_eq!(k.last().unwrap(), "  certainly here");
    assert!(g.clone_box().cells() == g.cells());
}
