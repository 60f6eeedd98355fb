//! Rules the spec examples miss: promotion, excluded pawn steps, castles, en passant,
//! the 50-move rule, repetition, king capture, and illegal moves with their reasons.

use qchess::chess::{EndReason, Game, GameOptions, MoveError, Square, Status};
use qchess::quantum::{BackendKind, SimulatorSettings};

const BACKENDS: [BackendKind; 2] = [BackendKind::Sparse, BackendKind::Dense];

fn game(fen: &str, backend: BackendKind, free_turns: bool) -> Game {
    Game::from_fen(
        fen,
        GameOptions {
            simulator: SimulatorSettings::on(backend),
            seed: 7,
            free_turns,
            ..GameOptions::default()
        },
    )
    .expect("test FEN is valid")
}

fn play_all(g: &mut Game, moves: &str) {
    for m in moves.split_whitespace() {
        if let Err(e) = g.play(m) {
            panic!("{m}: {e}");
        }
    }
}

fn sq(s: &str) -> Square {
    Square::parse(s).expect("square")
}

/// The distribution as (sorted square names, p).
fn dist(g: &Game) -> Vec<(Vec<String>, f64)> {
    g.distribution(usize::MAX)
        .entries
        .into_iter()
        .map(|(set, p)| {
            let v = (0..64u8)
                .filter(|i| set >> i & 1 == 1)
                .map(|i| Square(i).to_string())
                .collect();
            (v, p)
        })
        .collect()
}

fn assert_certain(g: &Game, squares: &[&str]) {
    let d = dist(g);
    assert_eq!(d.len(), 1, "expected one classical board, got {d:?}");
    let mut want: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
    want.sort_by_key(|s| sq(s).0);
    assert_eq!(d[0].0, want);
    assert!((d[0].1 - 1.0).abs() < 1e-9);
}

fn piece(g: &Game, s: &str) -> Option<char> {
    g.state().piece(sq(s)).map(|p| p.fen_char())
}

fn error(g: &mut Game, m: &str) -> String {
    match g.play(m) {
        Ok(p) => panic!("{m} should be rejected, was played as {}", p.played),
        Err(e) => e.to_string(),
    }
}

#[test]
fn promotion_plain_and_with_capture() {
    for b in BACKENDS {
        let mut g = game("3r4/4P3/8/8/8/8/8/k6K w - - 0 1", b, false);
        assert!(error(&mut g, "e7e8").contains("name the new piece"));
        assert!(error(&mut g, "h1h2q").contains("only a pawn reaching the last rank"));
        g.play("e7e8q").unwrap();
        assert_eq!(piece(&g, "e8"), Some('Q'));
        assert_certain(&g, &["a1", "h1", "d8", "e8"]);

        let mut g = game("3r4/4P3/8/8/8/8/8/k6K w - - 0 1", b, false);
        // A certain pawn takes a certain rook: nothing was left to chance, no outcome.
        let played = g.play("e7xd8n").unwrap().played.clone();
        assert_eq!(played, "e7xd8n");
        assert_eq!(piece(&g, "d8"), Some('N'));
        assert_certain(&g, &["a1", "h1", "d8"]);
    }
}

#[test]
fn promotion_capturing_a_superposed_piece() {
    for b in BACKENDS {
        // The black rook splits to d8/b8; the pawn captures on d8 only where it stands.
        let mut g = game("2r1k3/4P3/8/8/8/8/8/7K b - - 0 1", b, false);
        play_all(&mut g, "c8^d8b8 e7xd8q");
        assert_eq!(piece(&g, "d8"), Some('Q'));
        assert!((g.probability(sq("d8")) - 0.5).abs() < 1e-9);
        assert!((g.probability(sq("e7")) - 0.5).abs() < 1e-9);
        assert!((g.probability(sq("b8")) - 0.5).abs() < 1e-9);
    }
}

#[test]
fn excluded_pawn_step_both_outcomes() {
    for b in BACKENDS {
        let fen = "4k3/8/8/8/6n1/8/4P3/4K3 b - - 0 1";
        let mut g = game(fen, b, false);
        play_all(&mut g, "g4^e3h2");
        assert_eq!(g.play("e2e3.m1").unwrap().played, "e2we3.m1");
        assert_certain(&g, &["e1", "h2", "e3", "e8"]);
        assert_eq!(piece(&g, "e3"), Some('P'));

        let mut g = game(fen, b, false);
        play_all(&mut g, "g4^e3h2 e2we3.m0");
        assert_certain(&g, &["e1", "e2", "e3", "e8"]);
        assert_eq!(piece(&g, "e3"), Some('n'));
        assert_eq!(
            g.to_move().name(),
            "black",
            "a stopped move still uses the turn"
        );
        assert_eq!(
            g.history()[1].explained.headline(),
            "e3 was occupied (a 50% chance): the move did not happen; \
             vanished: Nh2; now certain: Ne3"
        );
    }
}

#[test]
fn pawn_step_into_a_certain_piece_is_illegal() {
    let mut g = game(
        "4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1",
        BackendKind::Sparse,
        false,
    );
    assert!(error(&mut g, "e2e3").contains("e3 is certainly occupied"));
    assert!(error(&mut g, "e2e4").contains("blocked"));
}

#[test]
fn king_side_castle_excluded_both_outcomes() {
    for b in BACKENDS {
        let fen = "4k3/8/8/8/8/8/4N3/4K2R w K - 0 1";
        let mut g = game(fen, b, false);
        play_all(&mut g, "e2^g1c3 e8d8");
        assert_eq!(g.play("e1g1.m1").unwrap().played, "e1wg1.m1");
        assert_certain(&g, &["c3", "f1", "g1", "d8"]);
        assert_eq!(piece(&g, "g1"), Some('K'));
        assert_eq!(piece(&g, "f1"), Some('R'));

        let mut g = game(fen, b, false);
        play_all(&mut g, "e2^g1c3 e8d8 e1g1.m0");
        assert_certain(&g, &["e1", "g1", "h1", "d8"]);
        assert_eq!(piece(&g, "g1"), Some('N'));
    }
}

#[test]
fn queen_side_castle_excluded_both_outcomes() {
    for b in BACKENDS {
        let fen = "4k3/8/8/8/8/8/1N6/R3K3 w Q - 0 1";
        let mut g = game(fen, b, false);
        play_all(&mut g, "b2^d1d3 e8f8 e1c1.m1");
        assert_certain(&g, &["c1", "d1", "d3", "f8"]);
        assert_eq!(piece(&g, "c1"), Some('K'));
        assert_eq!(piece(&g, "d1"), Some('R'));

        let mut g = game(fen, b, false);
        play_all(&mut g, "b2^d1d3 e8f8 e1wc1.m0");
        assert_certain(&g, &["a1", "d1", "e1", "f8"]);
        assert_eq!(piece(&g, "d1"), Some('N'));
    }
}

#[test]
fn castling_refused_with_reasons() {
    let mut g = game(
        "4k3/8/8/8/8/8/8/4KB1R w - - 0 1",
        BackendKind::Sparse,
        false,
    );
    assert!(error(&mut g, "e1g1").contains("may no longer castle"));
    let mut g = game(
        "4k3/8/8/8/8/8/8/4KB1R w K - 0 1",
        BackendKind::Sparse,
        false,
    );
    assert!(error(&mut g, "e1g1").contains("f1"));
    // A right without its rook is refused with the position; a captured rook takes the
    // right with it.
    let e = Game::from_fen("4k3/8/8/8/8/8/8/R3K3 w K - 0 1", GameOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("white rook on h1"), "{e}");
    let mut g = game(
        "4k2r/8/8/8/8/8/8/4K2R b K - 0 1",
        BackendKind::Sparse,
        false,
    );
    play_all(&mut g, "h8xh1");
    assert!(error(&mut g, "e1g1").contains("may no longer castle king side"));
    let mut g = game(
        "4k3/8/8/8/8/8/8/RN2K3 w Q - 0 1",
        BackendKind::Sparse,
        false,
    );
    assert!(error(&mut g, "e1c1").contains("b1"));
}

#[test]
fn castling_rights_lost_when_king_or_rook_moves() {
    let mut g = game(
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        BackendKind::Sparse,
        false,
    );
    play_all(&mut g, "h1h2 a8a7");
    assert!(g.fen().contains(" Qk "), "{}", g.fen());
    play_all(&mut g, "e1^d1f1");
    assert!(g.fen().contains(" k "), "{}", g.fen());
}

#[test]
fn en_passant_basic() {
    for b in BACKENDS {
        let mut g = game("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", b, false);
        play_all(&mut g, "d7d5");
        assert!(g.fen().contains(" d6 "), "{}", g.fen());
        let played = g.play("e5d6").unwrap().played.clone();
        assert_eq!(played, "e5d6");
        assert_certain(&g, &["e1", "d6", "e8"]);
        assert_eq!(
            g.simulator().ancillas(),
            Vec::<u16>::new(),
            "constant ancilla released"
        );
    }
}

#[test]
fn en_passant_is_only_for_the_next_move() {
    let mut g = game(
        "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1",
        BackendKind::Sparse,
        false,
    );
    play_all(&mut g, "d7d5 e1e2 e8e7");
    assert!(error(&mut g, "e5d6").contains("only to capture"));
}

#[test]
fn en_passant_excluded_both_outcomes() {
    for b in BACKENDS {
        let fen = "4k3/3p4/8/1N2P3/8/8/8/4K3 w - - 0 1";
        let mut g = game(fen, b, false);
        play_all(&mut g, "b5^d6a7 d7d5");
        assert_eq!(g.play("e5d6.m1").unwrap().played, "e5wd6.m1");
        assert_certain(&g, &["e1", "d6", "a7", "e8"]);
        assert_eq!(piece(&g, "d6"), Some('P'));

        let mut g = game(fen, b, false);
        play_all(&mut g, "b5^d6a7 d7d5 e5d6.m0");
        assert_certain(&g, &["e1", "e5", "d6", "d7", "e8"]);
        assert_eq!(piece(&g, "d6"), Some('N'));
    }
}

#[test]
fn en_passant_only_after_a_pawn_that_went_two_squares() {
    for b in BACKENDS {
        // The white king half on d6, half on d5: the pawn's target and the square it
        // passes. Measured off d5, the king is on d6 and the pawn cannot pass: it stays
        // at home, nothing is open to en passant, and the FEN reads back.
        let fen = "k7/3p4/4K3/8/8/8/8/8 w - - 0 1";
        let mut g = game(fen, b, false);
        play_all(&mut g, "e6^d6d5");
        assert_eq!(g.play("d7d5.m1").unwrap().played, "d7wd5.m1");
        assert_certain(&g, &["a8", "d7", "d6"]);
        assert_eq!(g.state().en_passant, None);
        assert!(g.fen().contains(" w - - "), "{}", g.fen());
        Game::from_fen(&g.fen(), GameOptions::default()).expect("the FEN reads back");
        // Measured on d5, the move does not go on.
        let mut g = game(fen, b, false);
        play_all(&mut g, "e6^d6d5 d7d5.m0");
        assert_certain(&g, &["a8", "d7", "d5"]);
        assert_eq!(g.state().en_passant, None);
        // A pawn that went two squares in some branches: d6 is open to en passant.
        let mut g = game("k7/3p4/8/4P3/4N3/8/8/K7 w - - 0 1", b, false);
        play_all(&mut g, "e4^d6c5 d7d5");
        assert!((g.probability(sq("d5")) - 0.5).abs() < 1e-9);
        assert_eq!(g.state().en_passant, Some(sq("d6")));
    }
}

#[test]
fn fifty_move_rule_measures_the_board() {
    for b in BACKENDS {
        let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 97 60", b, false);
        play_all(&mut g, "a1^a2a3");
        assert_eq!(g.fifty_counter(), 98);
        play_all(&mut g, "e8d8");
        assert_eq!(g.status(), Status::Ongoing);
        play_all(&mut g, "e1f1");
        assert_eq!(g.status(), Status::Draw);
        assert_eq!(g.end_reason(), Some(EndReason::FiftyMoves));
        assert_eq!(g.branch_count(), 1, "every square was measured");
        let a2 = g.probability(sq("a2"));
        assert!(a2 == 0.0 || a2 == 1.0);
        assert!(error(&mut g, "d8c8").contains("the game is over"));
    }
}

#[test]
fn fifty_move_counter_resets_when_a_piece_is_captured() {
    let mut g = game(
        "4k3/8/8/8/8/8/r7/R3K3 w - - 50 60",
        BackendKind::Sparse,
        false,
    );
    play_all(&mut g, "a1xa2");
    assert_eq!(g.fifty_counter(), 0);
    play_all(&mut g, "e8d8");
    assert_eq!(g.fifty_counter(), 1);
}

#[test]
fn fifty_move_counter_waits_for_a_whole_piece() {
    // Half a rook captured changes the piece count by 0.5: no reset.
    let mut g = game(
        "4k3/8/8/8/8/8/K7/R6r b - - 10 60",
        BackendKind::Sparse,
        false,
    );
    play_all(&mut g, "h1^g1h2 a1xg1.m1");
    assert_eq!(g.fifty_counter(), 12);
    assert!((g.state().probs.iter().sum::<f64>() - 3.5).abs() < 1e-9);
}

#[test]
fn threefold_repetition_ends_a_classical_game() {
    let mut g = game("4k3/8/8/8/8/8/8/4K3 w - - 0 1", BackendKind::Sparse, false);
    play_all(&mut g, "e1d1 e8d8 d1e1 d8e8 e1d1 e8d8 d1e1");
    assert_eq!(g.status(), Status::Ongoing);
    play_all(&mut g, "d8e8");
    assert_eq!(g.status(), Status::Draw);
    assert_eq!(g.end_reason(), Some(EndReason::Repetition));
}

#[test]
fn threefold_repetition_compares_the_quantum_state() {
    for b in BACKENDS {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let mut g = game(start, b, false);
        // Two knights in superposition (two factors), then rooks to and fro: after the
        // first return (castling rights lost) the positions repeat every four plies, so
        // the one after ply 4 occurs for the third time at ply 12.
        let cycle = "h1g1 a8b8 g1h1 b8a8";
        play_all(&mut g, "g1^f3h3 b8^a6c6");
        play_all(&mut g, cycle);
        play_all(&mut g, "h1g1 a8b8 g1h1 b8a8 h1g1");
        assert_eq!(g.status(), Status::Ongoing, "{b}");
        assert_eq!(g.branch_count(), 4);
        play_all(&mut g, "a8b8");
        assert_eq!(g.ply(), 12);
        assert_eq!(g.end_reason(), Some(EndReason::Repetition), "{b}");
        assert_eq!(g.branch_count(), 1, "{b}: the board was measured");
    }
}

#[test]
fn king_capture_ends_the_game() {
    for b in BACKENDS {
        let mut g = game("4k3/8/8/8/8/8/8/4RK2 w - - 0 1", b, false);
        play_all(&mut g, "e1xe8");
        assert_eq!(g.status(), Status::WhiteWins);
        assert_eq!(g.end_reason(), Some(EndReason::KingCaptured));
        assert!(error(&mut g, "f1f2").contains("the game is over (white wins)"));
    }
}

#[test]
fn half_captured_king_plays_on() {
    let mut g = game("3k4/8/8/8/8/8/8/4RK2 b - - 0 1", BackendKind::Sparse, false);
    play_all(&mut g, "d8^c8e8 e1xe8.m1");
    assert_eq!(g.status(), Status::Ongoing);
    assert!((g.probability(sq("e8")) - 1.0).abs() < 1e-9);
    assert!((g.probability(sq("c8")) - 0.5).abs() < 1e-9);
    assert_eq!(piece(&g, "e8"), Some('R'));
}

#[test]
fn split_then_merge_leaves_one_branch() {
    for b in BACKENDS {
        let mut g = game("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", b, true);
        play_all(&mut g, "b1^a3c3");
        assert_eq!(g.branch_count(), 2);
        play_all(&mut g, "a3c3^b1");
        assert_eq!(g.branch_count(), 1);
        assert_certain(&g, &["b1", "e1", "e8"]);
    }
}

#[test]
fn undo_replays_recorded_outcomes() {
    let mut g = game(
        "4k3/8/8/8/6n1/8/4P3/4K3 b - - 0 1",
        BackendKind::Sparse,
        false,
    );
    play_all(&mut g, "g4^e3h2 e2e3 e8d8");
    let before = g.distribution(usize::MAX);
    play_all(&mut g, "e1d1");
    g.undo().expect("a move to undo");
    assert_eq!(g.ply(), 3);
    assert_eq!(g.distribution(usize::MAX), before);
}

#[test]
fn illegal_moves_are_rejected_with_their_reason() {
    let cases = [
        ("e3e4", "there is no piece on e3"),
        ("e7e5", "not yours: it is white's turn"),
        ("Bg1f3", "g1 holds a knight, not a bishop"),
        ("g1g3", "the knight on g1 cannot reach g3"),
        (
            "a1a5",
            "the path from a1 to a5 is blocked: a2 is certainly occupied",
        ),
        ("d1d2", "d2 is certainly occupied by a white pawn"),
        ("e2d3", "moves diagonally only to capture"),
        ("g1^f3f3", "must all be different"),
        ("e2^e3e4", "pawns cannot split or merge"),
        ("g1^f3e2", "never capture or measure"),
        ("b1c1^d3", "same piece on both sources"),
        ("g1xf3", "x (capture) does not fit"),
        ("g1wf3", "w (excluded) does not fit"),
        ("g1f3.m1", "makes no measurement"),
        ("e2e4e5", "is not a move"),
        ("e1g1", "castling king side needs g1 empty"),
    ];
    for (m, why) in cases {
        let mut g = Game::standard(GameOptions::default());
        let e = error(&mut g, m);
        assert!(e.contains(why), "{m}: got \"{e}\", expected \"{why}\"");
        assert_eq!(g.ply(), 0, "{m}: a rejected move changes nothing");
    }
}

#[test]
fn impossible_forced_outcome_is_refused_and_changes_nothing() {
    let mut g = game(
        "4k3/8/8/8/8/8/r7/R3K3 w - - 0 1",
        BackendKind::Sparse,
        false,
    );
    let e = g.play("a1xa2.m0").unwrap_err();
    assert!(matches!(e, MoveError::Quantum(_)), "{e:?}");
    assert!(e.to_string().contains("impossible"));
    assert_eq!(g.ply(), 0);
    assert_certain(&g, &["a1", "e1", "a2", "e8"]);
}
