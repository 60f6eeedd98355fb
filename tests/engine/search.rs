//! The engine's search on small positions: forced king captures, an expectimax value
//! worked out by hand, determinism, and the players.

use qchess::chess::{Game, GameOptions, Status};
use qchess::engine::eval::{evaluate, Style, WIN};
use qchess::engine::moves::candidates;
use qchess::engine::{level, search, search_among, Limits, Report};
use std::sync::atomic::AtomicBool;

use crate::support::late_endgame::late_endgame;

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
        r.info.pv[2], "f7xh8",
        "a certain measurement's outcome is not written, as the notation writes none"
    );
    // Two plies do not see it without the capture search after the horizon, unless the
    // knight's check is searched a ply deeper.
    let shallow = Limits {
        depth: 2,
        extend_checks: false,
        ..limits
    };
    assert!(run(&g, &shallow).info.score < WIN - 100.0);
    let extended = Limits {
        extend_checks: true,
        ..shallow
    };
    assert_eq!(run(&g, &extended).info.score, WIN - 3.0);
}

#[test]
fn two_plies_of_captures_see_the_recapture() {
    // Black's queen on d8 attacks both white knights (d4 down the file, h4 along the
    // diagonal); the pawns on c3 and g3 defend them. White can move one knight away,
    // never both. With one ply of captures after the horizon, Black's Qxh4 (or Qxd4)
    // stands, a knight lost; with two, White's pawn takes the queen back, so Black does
    // not capture and the material stays as it is: 620 + 200 against 950. Level 5 searches
    // two plies of captures, the other levels one.
    let g = game("3qk3/8/8/8/3N3N/2P3P1/8/4K3 w - - 0 1");
    let limits = |quiescence| Limits {
        depth: 1,
        quiescence,
        style: Style::Material,
        ..Limits::default()
    };
    let one = run(&g, &limits(1)).info.score;
    let two = run(&g, &limits(2)).info.score;
    assert!((two - -130.0).abs() < 1e-6, "no capture pays: {two}");
    assert!(
        (one - (-130.0 - 310.0)).abs() < 1e-6,
        "a knight falls: {one}"
    );
    assert_eq!(level::limits(5, 0).quiescence, 2);
    assert!((1..5).all(|l| level::limits(l, 0).quiescence == 1));
}

/// White: king e1, rook a1, a knight split between a3 and c3, another between a4 and
/// c4; Black: king e8, pawn a6. White to move.
fn one_measurement() -> Game {
    let mut g = game("4k3/8/p7/8/8/8/1N6/RN2K3 w - - 0 1");
    for m in ["b1^a3c3", "e8d8", "b2^a4c4", "d8e8"] {
        g.play(m).unwrap();
    }
    g
}

#[test]
fn expectimax_value_by_hand() {
    // The only capture, a1xa6, measures whether the path is clear: neither knight on the
    // a-file, probability 1/2 * 1/2 = 1/4. Outcome 1: the pawn is taken, material White
    // 1120 (rook and two knights), Black 0. Outcome 0: a knight blocks, nothing moves,
    // 1120 against 100. Kings are equal. Value 1/4 * 1120 + 3/4 * 1020 = 1045; every
    // other move keeps 1020.
    let g = one_measurement();
    let mut probe = g.clone();
    let p1 = probe.play("a1xa6.m1").unwrap().p1.unwrap();
    assert!((p1 - 0.25).abs() < 1e-9, "{p1}");
    let limits = Limits {
        depth: 1,
        quiescence: 0,
        style: Style::Material,
        ..Limits::default()
    };
    let r = run(&g, &limits);
    assert_eq!(r.best.as_deref(), Some("a1xa6"));
    assert!((r.info.score - 1045.0).abs() < 1e-6, "{}", r.info.score);
    assert_eq!(r.info.pv, ["a1xa6.m0"], "the likelier outcome");
    // One node per move, two for a move with two possible outcomes.
    let moves = candidates(&g);
    let measuring = moves.iter().filter(|m| m.measures()).count();
    assert!(measuring >= 3, "a1xa6, a1wa3, a1wa4");
    assert_eq!(r.info.nodes, (moves.len() + measuring) as u64);
}

/// Plain expectimax, no pruning: every move, both outcomes of every measurement.
fn expectimax(g: &Game, depth: u32, ply: usize, style: Style) -> f64 {
    let win = WIN - ply as f64;
    match g.status() {
        Status::Ongoing => {}
        Status::Draw => return 0.0,
        Status::WhiteWins if g.to_move() == qchess::chess::Color::White => return win,
        Status::BlackWins if g.to_move() == qchess::chess::Color::Black => return win,
        _ => return -win,
    }
    if depth == 0 {
        return evaluate(g, style);
    }
    let child = |m: &qchess::chess::Classified, outcome: Option<bool>| {
        let mut c = g.clone();
        let mut text = m.text;
        text.outcome = outcome;
        let p1 = c.play_text("", &text).ok().map(|p| p.p1.unwrap_or(1.0));
        p1.map(|p1| (p1, -expectimax(&c, depth - 1, ply + 1, style)))
    };
    candidates(g)
        .iter()
        .map(|m| {
            if !m.measures() {
                return child(m, None).unwrap().1;
            }
            match (child(m, Some(true)), child(m, Some(false))) {
                (Some((p1, v1)), Some((_, v0))) => p1 * v1 + (1.0 - p1) * v0,
                (Some((_, v1)), None) => v1,
                (None, Some((_, v0))) => v0,
                (None, None) => unreachable!("one outcome is possible"),
            }
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

#[test]
fn pruning_keeps_the_expectimax_value() {
    // Alpha-beta, Star1 at chance nodes, null windows and the table must give the value
    // of the full tree exactly (no late-move pruning, no quiescence).
    let mut positions = vec![one_measurement()];
    let mut g = game("r3k3/1p6/8/3n4/8/8/1P6/R3K1N1 w - - 0 1");
    for m in ["g1^f3h3", "d5^b4f4", "b2b3"] {
        g.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    positions.push(g);
    for g in &positions {
        for (depth, style) in [(1, Style::Full), (2, Style::Material), (2, Style::Full)] {
            let limits = Limits {
                depth,
                quiescence: 0,
                late_moves: 0,
                style,
                ..Limits::default()
            };
            let want = expectimax(g, depth, 0, style);
            let got = run(g, &limits).info.score;
            assert!(
                (got - want).abs() < 1e-6,
                "depth {depth} {style:?}: {got} != {want}"
            );
        }
    }
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
    assert_eq!(g.status(), Status::WhiteWins);
    assert_eq!(run(&g, &level::limits(1, 0)).best, None);
}

#[test]
fn late_move_pruning_still_tries_every_king_move() {
    // White's knight checks from d6 (e4d6); Black's only answers are king moves, which
    // come after many quiet moves in the order. Pruning the late quiet moves once cut
    // the king's moves too, so levels 2 to 5 saw a forced king capture that is not there
    // (a score near WIN). The check itself is a fair move (Stockfish 15.1 at depth 16
    // rates it above taking the bishop on g1), so only the score tells.
    let mut g = Game::standard(GameOptions::default());
    let opening = "c2c4 e7e6 d1a4 c7c6 b1c3 f8c5 c3e4 c5xf2.m1 e1d1 f2xg1.m1";
    for m in opening.split(' ') {
        g.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    for l in 2..=3 {
        let limits = level::limits(l, 0);
        assert!(limits.late_moves > 0, "level {l} prunes late moves");
        let r = run(&g, &limits);
        assert!(r.info.score < 1_000.0, "level {l}: {r:?}");
    }
}

#[test]
fn a_fifty_move_ending_is_scored_by_the_kings() {
    // White's rook took the black king on d8 in one of its two places; the king is on
    // e8 with probability 1/2. White's next quiet move is the hundredth half-move
    // without a capture: the board is measured, and White wins when the king is gone.
    let before_the_hundredth = |opts: GameOptions| {
        let mut g = Game::from_fen("4k3/8/8/8/8/8/8/3RK3 b - - 96 1", opts).unwrap();
        for m in ["e8^d8f8", "d1xd8.m1", "f8e8"] {
            g.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        g
    };
    let g = before_the_hundredth(GameOptions::default());
    let limits = Limits {
        depth: 1,
        quiescence: 0,
        ..Limits::default()
    };
    let only = |text: &'static str| move |m: &qchess::chess::MoveText| m.to_string() == text;
    let stop = AtomicBool::new(false);
    let r = search_among(&g, &limits, &stop, &mut |_| {}, &only("e1e2"));
    assert_eq!(r.best.as_deref(), Some("e1e2"));
    // One ply on: a win (WIN - 1) for White half the time, a draw otherwise.
    assert!(
        (r.info.score - (WIN - 1.0) * 0.5).abs() < 1e-6,
        "{}",
        r.info.score
    );
    let mut ended = g.clone();
    ended.play("e1e2").unwrap();
    let white = ended.expected_measured_result().expect("measured");
    assert!((white - 0.5).abs() < 1e-9, "{white}");
    // Taking the king outright is still better than leaving it to the measurement.
    assert_eq!(run(&g, &limits).best.as_deref(), Some("d8xe8"));
    // Without win conditions (UQCI's forcewin) the measured ending is a draw.
    let opts = GameOptions {
        no_win: true,
        ..GameOptions::default()
    };
    let g = before_the_hundredth(opts);
    let r = search_among(&g, &limits, &stop, &mut |_| {}, &only("e1e2"));
    assert_eq!(r.info.score, 0.0);
}

#[test]
fn a_budget_of_work_counts_big_states_for_more() {
    use qchess::engine::search::WORK_BRANCHES;
    let g = late_endgame();
    let branches = g.simulator().backend().branch_total();
    assert!(branches > 10 * WORK_BRANCHES, "{branches} branches");
    // A budget far below level 1's first iteration, counted plainly
    // and as work (beyond listing the root's moves, which work charges too: see the
    // next test). Small, as a node of this state costs milliseconds in a test build.
    let budget = 300;
    let listing = root_listing(&g);
    let level_1 = level::limits(1, 0);
    let plain = Limits {
        nodes: Some(budget),
        work: None,
        ..level_1
    };
    let by_nodes = run(&g, &plain);
    assert!(
        by_nodes.info.nodes >= budget,
        "{} nodes",
        by_nodes.info.nodes
    );
    // A child of this state that measured nothing holds as many branches, and costs 13
    // units of work (a measured one is smaller): the same budget buys far fewer nodes.
    let by_work = run(
        &g,
        &Limits {
            nodes: None,
            work: Some(listing + budget),
            ..level_1
        },
    );
    assert_eq!(by_work.info.depth, 0, "the first iteration is not finished");
    assert!(
        by_work.info.nodes * 2 < by_nodes.info.nodes,
        "{} nodes for {budget} units of work beyond the listing, {} counted plainly",
        by_work.info.nodes,
        by_nodes.info.nodes
    );
    assert!(by_work.best.is_some(), "a move all the same");
}

/// The work of listing the moves of `g`'s side to move.
fn root_listing(g: &Game) -> u64 {
    use qchess::engine::search::LISTING_BRANCHES;
    let branches = g.simulator().backend().branch_total();
    (candidates(g).len() * (branches / LISTING_BRANCHES)) as u64
}

#[test]
fn a_budget_of_work_counts_listing_the_moves_of_a_big_state() {
    // Listing the root's moves costs some 1,400 units here, for which playing alone
    // would buy about 50 of its children (25 units each).
    let g = late_endgame();
    let listing = root_listing(&g);
    assert!(listing > 1_000, "{listing} units");
    let r = run(
        &g,
        &Limits {
            nodes: None,
            work: Some(listing),
            ..level::limits(1, 0)
        },
    );
    assert!(
        r.info.nodes <= 2,
        "{} nodes after the listing",
        r.info.nodes
    );
    assert!(r.best.is_some(), "a move all the same");
}

#[test]
fn in_small_states_work_and_nodes_are_the_same_budget() {
    // No state of this search reaches WORK_BRANCHES branches: the same search either way.
    let g = one_measurement();
    let found = |r: Report| (r.best, r.info.depth, r.info.score, r.info.nodes, r.info.pv);
    for budget in [50, 400, 3_000] {
        let base = Limits {
            depth: 4,
            ..level::limits(3, 5)
        };
        let by_work = run(
            &g,
            &Limits {
                work: Some(budget),
                ..base
            },
        );
        let by_nodes = run(
            &g,
            &Limits {
                nodes: Some(budget),
                work: None,
                ..base
            },
        );
        assert_eq!(found(by_work), found(by_nodes), "budget {budget}");
    }
}

/// The king under attack, and classical mating nets.
mod king_safety {
    use super::{game, run};
    use qchess::engine::level;

    #[test]
    fn splitting_the_attacked_king_is_worse_than_retreating() {
        // The rook on d8 attacks the lone white king on d4. A split leaves each half a
        // target of its own (the next check takes half the king for certain); a step off
        // the file keeps the king whole.
        let g = game("3r3k/8/8/8/3K4/8/8/8 w - - 0 1");
        for l in 2..=3 {
            for seed in 0..4 {
                let r = run(&g, &level::limits(l, seed));
                let mv = r.best.unwrap();
                let whole_off_the_file = !mv.contains('^') && !mv[2..].starts_with('d');
                assert!(whole_off_the_file, "level {l} seed {seed}: {mv}");
            }
        }
    }

    #[test]
    fn a_king_with_no_safe_square_splits_and_keeps_half() {
        // The rook on g8 checks the king on g7; every square it can step to is
        // attacked (f6, g6, h6 by the rook on d6, f7 and g8 by the bishop on a2, f8 and
        // h8 by the rook on g8). A split onto two squares attacked by different pieces
        // loses one half at a time; a whole king is taken at once. With the attacked
        // king's splits left out of the search, level 3 scored far less against
        // Stockfish on the same seeds (docs/measurements.md).
        let g = game("6R1/3P2kp/3R4/p4pp1/8/P5P1/BP2PP1P/6K1 b - - 2 29");
        for l in 1..=3 {
            let r = run(&g, &level::limits(l, 0));
            let mv = r.best.unwrap();
            assert!(mv.starts_with("g7^"), "level {l}: {mv}");
            assert!(r.info.score > -10_000.0, "level {l}: {}", r.info.score);
        }
    }

    #[test]
    fn a_check_at_the_horizon_does_not_outweigh_a_recapture() {
        // White's knight took the pawn on e5, which the knight on d7 defends. When a
        // check at the search's horizon cost a third of a king (three queens), level 2
        // let the knight go (b7b5, f8d6) for fear of Bb5+ (one of the engine's
        // classical blunders against Stockfish).
        let mut g = game("r1bqkb1r/pppn1ppp/5n2/3pp3/8/2NBPN2/PPPP1PPP/R1BQK2R w KQkq - 8 5");
        g.play("f3xe5").unwrap();
        for seed in 0..4 {
            let r = run(&g, &level::limits(2, seed));
            assert_eq!(r.best.as_deref(), Some("d7xe5"), "seed {seed}");
        }
    }

    #[test]
    fn a_pawn_fork_and_a_trapped_knight_are_seen_at_level_3() {
        // f8d6 walks into e4-e5, forking the bishop and the knight on f6; f6xe4 takes a
        // pawn the knight on c3 defends, and d7-d5 then wins the knight on e4. Level 3
        // played both against Stockfish: e5 and the knight's retreats are quiet moves,
        // and its late-move pruning never tried them.
        for (fen, blunder) in [
            (
                "rnbqkb1r/pppp1ppp/4pn2/8/4PP2/2N5/PPPP2PP/R1BQKBNR b KQkq - 5 3",
                "f8d6",
            ),
            (
                "r1bqkb1r/pppp1ppp/2n1pn2/8/3PP3/2N2N2/PPP2PPP/R1BQKB1R b KQkq - 7 4",
                "f6xe4",
            ),
        ] {
            let g = game(fen);
            for seed in 0..2 {
                let r = run(&g, &level::limits(3, seed));
                assert_ne!(r.best.as_deref(), Some(blunder), "{fen}, seed {seed}");
            }
        }
    }

    #[test]
    fn a_classical_mating_net_is_seen_at_level_2() {
        // The back rank: either rook checks on the eighth rank; the queen's block on b8
        // is taken, and the king, boxed in by its pawns, can only split onto f8 and h8,
        // both on the rook's rank. Level 2 reaches the capture of the king's half only
        // with the checks extended.
        let g = game("6k1/5ppp/8/8/8/8/1q6/R3R1K1 w - - 0 1");
        for seed in 0..4 {
            let r = run(&g, &level::limits(2, seed));
            let mv = r.best.unwrap();
            assert!(mv == "a1a8" || mv == "e1e8", "seed {seed}: {mv}");
            assert!(r.info.score > 14_000.0, "seed {seed}: {}", r.info.score);
        }
    }
}

#[test]
fn one_root_move_kept_is_searched_to_the_full_depth() {
    // 1. f3 e5: after 2. g4 the queen's h4 takes the king next move, whatever White
    // does. Valued alone (as a review values the move played), g2g4 must show it: the
    // search stopped after its first ply when one root move was kept (-13 cp).
    let mut g = Game::standard(GameOptions::default());
    for m in ["f2f3", "e7e5"] {
        g.play(m).unwrap();
    }
    let stop = AtomicBool::new(false);
    let r = search_among(&g, &level::limits(3, 0), &stop, &mut |_| {}, &|m| {
        m.to_string() == "g2g4"
    });
    assert_eq!(r.best.as_deref(), Some("g2g4"));
    assert!(r.info.depth >= 2, "{:?}", r.info);
    assert!(r.info.score <= -(WIN - 10.0), "{:?}", r.info);
}
