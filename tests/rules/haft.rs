//! Haft Schroedinger Chess: the seed's examples, check coupling across the sides,
//! refusals with reasons, promotion, undo, and a game to checkmate in every world.

use qchess::chess::{Color, Kind, Square, Status};
use qchess::game::{Playable, RuleSet};
use qchess::variants::haft::HaftGame;
use serde_json::Value;

/// All 5040 arrangements per side.
const ALL: u64 = 5040;
/// Arrangements with the king (or queen) on a given file: 7!/(2!2!2!).
const ONE_FILE: u64 = 630;
/// Arrangements with a rook (or bishop, knight) on a given file: 7!/(2!2!).
const PAIR_FILE: u64 = 1260;

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn game(moves: &str) -> HaftGame {
    let mut g = HaftGame::new();
    for m in moves.split_whitespace() {
        if let Err(e) = g.play(m) {
            panic!("{m} after {:?}: {e}", g.history().len());
        }
    }
    g
}

fn types(g: &HaftGame, s: &str) -> Vec<Kind> {
    g.type_fractions(sq(s))
        .into_iter()
        .map(|(k, _)| k)
        .collect()
}

fn share(g: &HaftGame, s: &str, kind: Kind) -> f64 {
    g.type_fractions(sq(s))
        .into_iter()
        .find(|(k, _)| *k == kind)
        .map_or(0.0, |(_, f)| f)
}

fn refusal(g: &mut HaftGame, m: &str) -> String {
    let before = g.to_json();
    let e = g.play(m).map(|r| r.text.clone()).unwrap_err().to_string();
    assert_eq!(g.to_json(), before, "a refused move changes nothing");
    assert!(
        !g.legal_moves().contains(&m.to_string()),
        "{m} is not listed"
    );
    e
}

#[test]
fn start_position() {
    let g = HaftGame::new();
    assert_eq!(g.rules(), RuleSet::Haft);
    assert_eq!(g.worlds(), ALL * ALL);
    assert_eq!(g.to_move(), Color::White);
    assert_eq!(g.status(), Status::Ongoing);
    assert_eq!(g.end_reason(), None);
    // Sixteen pawn moves, and any back-rank piece may jump like a knight.
    let moves = g.legal_moves();
    assert_eq!(moves.len(), 30, "{moves:?}");
    assert!(moves.contains(&"a1b3".to_string()) && moves.contains(&"e2e4".to_string()));
    let cells = g.cells();
    assert_eq!(cells.len(), 32);
    for (s, c) in cells {
        assert_eq!(c.probability, 1.0);
        let pawn = s.rank() == 1 || s.rank() == 6;
        assert_eq!(c.kind, pawn.then_some(Kind::Pawn), "{s}");
    }
    assert!((share(&g, "e1", Kind::King) - 1.0 / 8.0).abs() < 1e-12);
    assert!((share(&g, "e1", Kind::Rook) - 1.0 / 4.0).abs() < 1e-12);
    let details = g.details(sq("d8"));
    assert_eq!(details[0], "25,401,600 consistent worlds");
    assert!(details
        .iter()
        .any(|l| l.contains("d8: black major piece (from d8)")));
    assert!(details
        .iter()
        .any(|l| l.contains("king") && l.contains("13%")));
}

#[test]
fn json_object() {
    let g = game("e2e4 b8c6");
    let j = g.to_json();
    assert_eq!(j["variant"], "haft");
    assert_eq!(j["worlds"], Value::from(ALL * PAIR_FILE));
    assert_eq!(j["status"], "ongoing");
    assert_eq!(j["to_move"], "white");
    assert_eq!(j["ply"], 2);
    assert_eq!(j["moves"], serde_json::json!(["e2e4", "b8c6"]));
    assert_eq!(j["pieces"]["c6"], serde_json::json!({"N": 1.0}));
    assert_eq!(j["pieces"]["e4"], serde_json::json!({"P": 1.0}));
    let e1: f64 = j["pieces"]["e1"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_f64().unwrap())
        .sum();
    assert!((e1 - 1.0).abs() < 1e-12);
    assert_eq!(
        j["legal_moves"].as_array().unwrap().len(),
        g.legal_moves().len()
    );
    assert!(j.get("end_reason").is_none());
}

#[test]
fn a_knight_mover_is_a_knight_and_a_third_is_illegal() {
    let mut g = game("b1c3");
    assert_eq!(types(&g, "c3"), [Kind::Knight]);
    assert_eq!(g.history()[0].note, "locks N on c3");
    assert_eq!(g.worlds(), PAIR_FILE * ALL);
    let trace = &g.history()[0].trace;
    assert!(trace[0].contains("moved like a knight"), "{trace:?}");
    assert!(trace
        .iter()
        .any(|l| l == "consistent worlds: 25,401,600 -> 6,350,400"));
    for m in ["a7a6", "g1f3", "a6a5"] {
        g.play(m).unwrap();
    }
    for third in ["h1g3", "a1b3", "c1b3", "f1g3"] {
        assert_eq!(
            refusal(&mut g, third),
            "no arrangement lets three pieces move like knights: there are only two knights"
        );
    }
    // The knights' own moves are fine; a knight cannot move like a rook.
    g.play("c3b5").unwrap();
    g.play("h7h6").unwrap();
    assert_eq!(
        refusal(&mut g, "b5b3"),
        "no consistent world lets the piece on b5 move to b3: it can only be a knight"
    );
}

#[test]
fn three_rook_movers_are_two_rooks_and_the_queen() {
    let mut g = game("a2a4 a7a6 a1a3 h7h6 h2h4 g7g6 h1h3 a6a5 b2b4 h6h5 b1b3 g6g5");
    // Three pieces confined to {R, Q}: two rooks and the queen, in 3 ways; the other
    // five are K, B, B, N, N (30 ways). Black is untouched.
    assert_eq!(g.worlds(), 3 * 30 * ALL);
    for s in ["a3", "b3", "h3"] {
        assert_eq!(types(&g, s), [Kind::Queen, Kind::Rook]);
        assert!((share(&g, s, Kind::Queen) - 1.0 / 3.0).abs() < 1e-12);
    }
    for s in ["c1", "d1", "e1", "f1", "g1"] {
        assert_eq!(
            types(&g, s),
            [Kind::King, Kind::Bishop, Kind::Knight],
            "{s}"
        );
    }
    // No major is locked yet: only the pawns show a type.
    let cells = g.cells();
    let majors: Vec<_> = cells
        .iter()
        .filter(|(_, c)| c.kind != Some(Kind::Pawn))
        .collect();
    assert_eq!(majors.len(), 16);
    assert!(majors.iter().all(|(_, c)| c.kind.is_none()));
    // Two quiet moves (the fourth rook mover is refused in its own test).
    g.play("c2c4").unwrap();
    g.play("b7b6").unwrap();
    // The rook mover on h3 now moves like a bishop: it is the queen, the others rooks.
    let r = g.play("h3f5").unwrap();
    assert_eq!(r.note, "locks R on a3, R on b3, Q on f5");
    assert!(r.trace[0].contains("like a bishop"));
    assert_eq!(g.worlds(), 30 * ALL);
    let cell = |s: &str| g.cells().into_iter().find(|(c, _)| *c == sq(s)).unwrap().1;
    assert_eq!(cell("a3").kind, Some(Kind::Rook));
    assert_eq!(cell("f5").kind, Some(Kind::Queen));
    assert_eq!(cell("c1").kind, None);
    assert!(g
        .details(sq("f5"))
        .iter()
        .any(|l| l == "  locked in: queen"));
}

#[test]
fn a_fourth_rook_mover_is_illegal() {
    let mut g = game("a2a4 a7a6 a1a3 h7h6 h2h4 g7g6 h1h3 a6a5 b2b4 h6h5 b1b3 g6g5 c2c4 b7b6");
    // c1 to c3 is a straight two-square move: only a rook or the queen.
    assert_eq!(
        refusal(&mut g, "c1c3"),
        "no arrangement lets four pieces move like rooks: there are only two rooks and one queen"
    );
}

#[test]
fn a_fourth_bishop_mover_is_illegal() {
    let mut g = game("b2b3 a7a6 g2g3 a6a5 a1c3 h7h6 c1a3 h6h5 h1f3 g7g6");
    for s in ["c3", "a3", "f3"] {
        assert_eq!(types(&g, s), [Kind::Queen, Kind::Bishop]);
    }
    assert_eq!(
        refusal(&mut g, "f1h3"),
        "no arrangement lets four pieces move like bishops: there are only two bishops and \
         one queen"
    );
}

#[test]
fn an_attack_on_every_world_rules_out_a_king() {
    // The piece from f1 moved like a bishop (B or Q); either way it attacks e8 through
    // d7 and c6, so after black's next move e8 is not black's king.
    let mut g = game("e2e3 d7d6 f1b5");
    let white = PAIR_FILE + ONE_FILE; // f1 is a bishop (1260) or the queen (630)
    assert_eq!(g.worlds(), white * ALL);
    assert_eq!(g.in_check_worlds(), white * ONE_FILE);
    assert!(g
        .details(sq("e8"))
        .iter()
        .any(|l| l.contains("black in check in")));
    g.play("a7a6").unwrap();
    assert_eq!(g.worlds(), white * (ALL - ONE_FILE));
    assert_eq!(share(&g, "e8", Kind::King), 0.0);
    assert_eq!(g.in_check_worlds(), 0);
    let trace = &g.history()[3].trace;
    assert!(trace
        .iter()
        .any(|l| l.contains("leave black's king out of check")));
}

#[test]
fn check_couples_the_sides_through_the_king() {
    // White's a-piece moved like a rook: a rook or the queen. From a3 it attacks f8
    // along the open diagonal only if it is the queen. So after black's move: if white's
    // a-piece is the queen, black's king is not on f8.
    let mut g = game("a2a4 e7e5 a1a3 h7h6");
    let queen_worlds = ONE_FILE * (ALL - ONE_FILE);
    let rook_worlds = PAIR_FILE * ALL;
    assert_eq!(g.worlds(), queen_worlds + rook_worlds);
    let total = g.worlds() as f64;
    assert!((share(&g, "a3", Kind::Queen) - queen_worlds as f64 / total).abs() < 1e-12);
    let f8_king = (PAIR_FILE * ONE_FILE) as f64 / total;
    assert!((share(&g, "f8", Kind::King) - f8_king).abs() < 1e-12);
    // Capturing f8 along the diagonal makes the a-piece the queen, and f8 was never the
    // king in the worlds that remain.
    let r = g.play("a3f8").unwrap();
    assert_eq!(r.note, "locks Q on f8");
    assert!(r
        .trace
        .iter()
        .any(|l| l.contains("captures black's piece on f8")));
    assert_eq!(g.worlds(), ONE_FILE * (ALL - ONE_FILE));
    let kings: f64 = ["a8", "b8", "c8", "d8", "e8", "g8", "h8"]
        .iter()
        .map(|s| share(&g, s, Kind::King))
        .sum();
    assert!((kings - 1.0).abs() < 1e-12);
}

#[test]
fn a_locked_king_cannot_walk_into_check() {
    // e1 steps straight then diagonally: the king or the queen. The a-piece moves like a
    // rook then like a bishop: the queen. So e1's piece is the king.
    let mut g = game("e2e4 h7h6 e1e2 h6h5 e2d3 g7g6 a2a4 g6g5 a1a3 e7e5");
    let r = g.play("a3c5").unwrap();
    assert_eq!(r.note, "locks K on d3, Q on c5");
    g.play("a7a6").unwrap();
    // The pawn on e5 attacks d4.
    assert_eq!(
        refusal(&mut g, "d3d4"),
        "that would leave your king in check in every consistent world"
    );
    g.play("d3c3").unwrap();
}

#[test]
fn refusals_say_why() {
    let mut g = game("e2e4");
    let cases = [
        ("hello", "cannot read \"hello\""),
        ("e3e4", "there is no piece on e3"),
        ("e4e5", "the piece on e4 is white's, and it is black's turn"),
        ("a8a7", "a7 holds one of your own pieces"),
        ("e7e4", "a pawn on e7 cannot move to e4"),
        ("d7e6", "a pawn on d7 cannot move to e6"),
        ("e7e5q", "only a pawn reaching the last rank promotes"),
        ("d8d5", "the way from d8 to d5 is blocked on d7"),
        ("d8a5", "the way from d8 to a5 is blocked on c7"),
        ("b8d5", "no chess piece moves from b8 to d5 in one move"),
    ];
    for (m, reason) in cases {
        let e = refusal(&mut g, m);
        assert!(e.starts_with(reason), "{m}: {e}");
    }
    assert_eq!(g.history().len(), 1);
}

#[test]
fn undo_restores_everything() {
    let mut g = HaftGame::new();
    assert_eq!(
        g.undo().unwrap_err().to_string(),
        "there is no move to take back"
    );
    let mut snapshots = vec![g.to_json()];
    for m in ["b1c3", "e7e5", "c3d5", "f8c5", "d5c7"] {
        g.play(m).unwrap();
        snapshots.push(g.to_json());
    }
    for _ in 0..5 {
        g.undo().unwrap();
        snapshots.pop();
        assert_eq!(&g.to_json(), snapshots.last().unwrap());
        assert_eq!(g.history().len(), snapshots.len() - 1);
    }
    assert_eq!(g.worlds(), ALL * ALL);
}

#[test]
fn promotion_leaves_the_type_open() {
    let mut g = game("b2b4 a7a5 b4a5 b7b6 a5b6 h7h6 b6b7");
    // The pawn on b7 attacks a8 and c8, so black's next move rules them out as kings.
    g.play("h6h5").unwrap();
    let before = g.worlds();
    assert_eq!(before, ALL * (ALL - 2 * ONE_FILE));
    let moves = g.legal_moves();
    for m in ["b7a8", "b7a8q", "b7a8r", "b7a8b", "b7a8n", "b7c8", "b7c8n"] {
        assert!(moves.contains(&m.to_string()), "{m}");
    }
    assert!(refusal(&mut g, "b7a8k").contains("not to a king"));
    // The pawn leaving b7 opens the b-file: white's king is not b1 if black's b8 is a
    // rook or the queen (1350 of black's 3780 arrangements). The promotion itself adds
    // no worlds, whether its type is named or open.
    let after = before - ONE_FILE * 1350;
    let mut fixed = g.clone();
    assert_eq!(fixed.play("b7a8q").unwrap().note, "locks Q on a8");
    assert_eq!(fixed.worlds(), after);
    let r = g.play("b7a8").unwrap();
    assert_eq!(r.note, "");
    assert!(r
        .trace
        .iter()
        .any(|l| l.contains("open type (Q, R, B or N)")));
    assert!(r
        .trace
        .iter()
        .any(|l| l.contains("leave white's king out of check")));
    assert_eq!(g.worlds(), after);
    let open = g.type_fractions(sq("a8"));
    assert_eq!(open.len(), 4);
    assert!(open.iter().all(|(_, f)| (f - 0.25).abs() < 1e-12));
    // If black's king is b8, the new piece on a8 is not a rook or queen (it would attack
    // b8); in the other worlds all four types remain.
    g.play("h8h6").unwrap();
    let (q, n) = (share(&g, "a8", Kind::Queen), share(&g, "a8", Kind::Knight));
    assert!(q > 0.0 && q < n, "{q} {n}");
    assert!((share(&g, "a8", Kind::Rook) - q).abs() < 1e-12);
    assert!((share(&g, "a8", Kind::Bishop) - n).abs() < 1e-12);
    // Moving it like a bishop fixes it: a bishop or queen.
    g.play("a8b7").unwrap();
    assert_eq!(types(&g, "b7"), [Kind::Queen, Kind::Bishop]);
}

#[test]
fn en_passant() {
    let mut g = game("e2e4 a7a6 e4e5 d7d5");
    let moves = g.legal_moves();
    assert!(moves.contains(&"e5d6".to_string()));
    let r = g.play("e5d6").unwrap();
    assert!(r
        .trace
        .iter()
        .any(|l| l.contains("captures black's pawn on d5")));
    assert!(g.type_fractions(sq("d5")).is_empty());
    // Only right after the two-square step.
    let mut h = game("e2e4 a7a6 e4e5 d7d5 h2h3 a6a5");
    assert_eq!(refusal(&mut h, "e5d6"), "a pawn on e5 cannot move to d6");
}

/// A capture-heavy game (found by seeded random play) that ends with two consistent
/// worlds, checkmate in both.
const MATE_GAME: &str = "d2d3 f7f6 d3d4 b7b5 f1d2 a8g2 e1g2 g8a2 b1a2 b8b7 a2a7 b7a7 a1a7 \
    c8a7 h2h4 d8c6 g1f1 c6d4 h4h5 d4c2 c1c2 e8h5 c2c7 h5h1";

#[test]
fn a_game_to_checkmate_in_every_world() {
    let mut g = game(MATE_GAME);
    assert_eq!(g.status(), Status::BlackWins);
    assert!(g.legal_moves().is_empty());
    assert_eq!(g.in_check_worlds(), g.worlds());
    assert_eq!(g.worlds(), 2);
    let reason = g.end_reason().unwrap();
    assert_eq!(
        reason,
        "checkmate in every consistent world (2): black wins"
    );
    let j = g.to_json();
    assert_eq!(j["status"], "black_wins");
    assert_eq!(j["end_reason"], Value::from(reason.clone()));
    let e = g.play("h2h3").unwrap_err().to_string();
    assert_eq!(e, format!("the game is over: {reason}"));
    // Before the last move the game went on.
    g.undo().unwrap();
    assert_eq!(g.status(), Status::Ongoing);
}
