//! The engine's search on small positions: forced king captures, an expectimax value
//! worked out by hand, determinism, and the players.

use qchess::chess::{Game, GameOptions};
use qchess::engine::eval::{Style, WIN};
use qchess::engine::{level, search, Limits, Report};
use std::sync::atomic::AtomicBool;

fn game(fen: &str) -> Game {
    Game::from_fen(fen, GameOptions::default()).expect("valid FEN")
}

fn run(g: &Game, limits: &Limits) -> Report {
    search(g, limits, &AtomicBool::new(false), &mut |_| {})
}

#[test]
fn king_capture_in_one_beats_the_queen() {
    // The knight on d6 takes the king on e8; the rook could take the queen on a7.
    let g = game("4k3/q7/3N4/8/8/8/8/R3K3 w - - 0 1");
    for l in 1..=3 {
        let r = run(&g, &level::limits(l, 0));
        assert_eq!(r.best.as_deref(), Some("d6xe8"), "level {l}");
        assert_eq!(r.info.score, WIN - 1.0, "level {l}: a win one ply away");
    }
}

#[test]
fn king_capture_in_two_is_found() {
    // Smothered: the king on h8 has no square, the knight goes to f7 where nothing can
    // take it, and captures on h8 next (Ng6 would fall to the h7 pawn).
    let g = game("6rk/6pp/8/4N3/8/8/8/4K3 w - - 0 1");
    let limits = Limits {
        quiescence: 0,
        ..level::limits(3, 0)
    };
    let r = run(&g, &limits);
    assert_eq!(r.best.as_deref(), Some("e5f7"));
    assert_eq!(r.info.score, WIN - 3.0);
    assert_eq!(r.info.pv.len(), 3);
    assert_eq!(r.info.pv[0], "e5f7");
    assert_eq!(
        r.info.pv[2], "f7xh8.m1",
        "a certain measurement is still written"
    );
    // Two plies do not see it without the capture search after the horizon.
    let shallow = run(&g, &Limits { depth: 2, ..limits });
    assert!(shallow.info.score < WIN - 100.0);
}

/// White: king e1, rook a1, a knight split between a3 and c3; Black: king d8, pawn a6.
/// White to move.
fn one_measurement() -> Game {
    let mut g = game("4k3/8/p7/8/8/8/8/RN2K3 w - - 0 1");
    g.play("b1^a3c3").unwrap();
    g.play("e8d8").unwrap();
    g
}

#[test]
fn expectimax_value_by_hand() {
    // The only capture, a1xa6, measures whether the path is clear: the knight is not on
    // a3, probability 1/2. Outcome 1: the pawn is taken, material White 810 (rook and
    // knight), Black 0. Outcome 0: the knight is on a3, nothing moves, 810 against 100.
    // Kings are equal. Value 0.5 * 810 + 0.5 * 710 = 760; every other move keeps 710.
    let g = one_measurement();
    let mut probe = g.clone();
    let p1 = probe.play("a1xa6.m1").unwrap().p1.unwrap();
    assert!((p1 - 0.5).abs() < 1e-9);
    let limits = Limits {
        depth: 1,
        quiescence: 0,
        style: Style::Material,
        ..Limits::default()
    };
    let r = run(&g, &limits);
    assert_eq!(r.best.as_deref(), Some("a1xa6"));
    assert!((r.info.score - 760.0).abs() < 1e-6, "{}", r.info.score);
    assert_eq!(r.info.pv.len(), 1);
    assert!(r.info.pv[0].starts_with("a1xa6.m"), "{:?}", r.info.pv);
    // One node per move, two for a move with two possible outcomes (a1xa6, a1wa3).
    let moves = qchess::engine::moves::candidates(&g);
    let measuring = moves.iter().filter(|m| m.measures()).count();
    assert_eq!(measuring, 2);
    assert_eq!(r.info.nodes, (moves.len() + measuring) as u64);
}

#[test]
fn same_seed_and_level_same_result() {
    let mut g = Game::standard(GameOptions::default());
    for m in ["e2e4", "g8^f6h6", "d1h5", "f6e4.m1"] {
        if g.play(m).is_err() {
            break;
        }
    }
    for l in [1, 2] {
        let a = run(&g, &level::limits(l, 42));
        let b = run(&g, &level::limits(l, 42));
        assert_eq!(a.best, b.best);
        assert_eq!(
            (a.info.depth, a.info.score, a.info.nodes, &a.info.pv),
            (b.info.depth, b.info.score, b.info.nodes, &b.info.pv)
        );
    }
    // A node budget cuts the search at the same place every time.
    let tight = Limits {
        nodes: Some(500),
        ..level::limits(3, 7)
    };
    let (a, b) = (run(&g, &tight), run(&g, &tight));
    assert_eq!((a.best, a.info.nodes), (b.best, b.info.nodes));
}

#[test]
fn no_move_once_the_game_is_over() {
    let mut g = game("3k4/8/8/8/8/8/8/3RK3 w - - 0 1");
    g.play("d1xd8").unwrap();
    assert_eq!(g.status(), qchess::chess::Status::WhiteWins);
    assert_eq!(run(&g, &level::limits(1, 0)).best, None);
}
