//! What a `go` command asks of the search: its limits, the time it may take from a
//! clock, and the root moves `searchmoves` allows.

use super::protocol::Go;
use crate::chess::{notation, Color, MoveText, Shape};
use crate::engine::{level, Limits};
use std::time::Duration;

/// Moves a clock is shared over when `movestogo` is not given.
pub const MOVES_LEFT: u64 = 30;
/// Time kept back from a clock for the answer to reach the front end (ms).
pub const MARGIN_MS: u64 = 50;
/// The least time a search gets from a clock (ms).
pub const MIN_MS: u64 = 10;

/// The time to think on a clock: `movetime` when given; else the clock of the side to
/// move shared over `movestogo` (or 30) moves, plus three quarters of its increment, at
/// most the clock less a 50 ms margin, at least 10 ms. `None` when no time was given.
pub fn think_time(go: &Go, side: Color) -> Option<Duration> {
    if let Some(ms) = go.movetime {
        return Some(Duration::from_millis(ms.max(1)));
    }
    let (clock, inc) = match side {
        Color::White => (go.wtime?, go.winc.unwrap_or(0)),
        Color::Black => (go.btime?, go.binc.unwrap_or(0)),
    };
    let moves = go.movestogo.map_or(MOVES_LEFT, |n| u64::from(n.max(1)));
    let share = (clock / moves).saturating_add(inc / 4 * 3);
    let ms = share.min(clock.saturating_sub(MARGIN_MS)).max(MIN_MS);
    Some(Duration::from_millis(ms))
}

/// The search limits of `go` at `level` with `seed`:
/// * `infinite`: as deep as the search goes, no node or time budget (until `stop`);
/// * any of `depth`, `nodes`, `movetime` or a clock: those limits only (depth as deep as
///   the search goes when not given), with the level's pruning and quiescence;
/// * none: the level's own limits (depth and budget of work).
pub fn limits(go: &Go, side: Color, level: u8, seed: u64) -> Limits {
    let base = level::limits(level, seed);
    let deepest = crate::engine::search::MAX_PLY as u32 / 2;
    let time = think_time(go, side);
    if go.infinite {
        Limits {
            depth: deepest,
            nodes: None,
            work: None,
            movetime: None,
            ..base
        }
    } else if go.depth.is_some() || go.nodes.is_some() || time.is_some() {
        Limits {
            depth: go.depth.unwrap_or(deepest).clamp(1, deepest),
            nodes: go.nodes,
            work: None,
            movetime: time,
            ..base
        }
    } else {
        base
    }
}

/// True when `a` and `b` are the same move: the same squares (a split's targets in either
/// order: the search tries one order, which differs from the other by a phase only) and
/// promotion; a piece letter, variant marker or outcome does not count.
pub fn same_move(a: &MoveText, b: &MoveText) -> bool {
    let squares = match (a.shape, b.shape) {
        (
            Shape::Split { from, to1, to2 },
            Shape::Split {
                from: f,
                to1: t1,
                to2: t2,
            },
        ) => from == f && ((to1, to2) == (t1, t2) || (to1, to2) == (t2, t1)),
        (x, y) => x == y,
    };
    squares && a.promotion == b.promotion
}

/// The moves of `searchmoves` that are written in the notation, and the words that are
/// not.
pub fn parse_moves(words: &[String]) -> (Vec<MoveText>, Vec<String>) {
    let mut moves = Vec::new();
    let mut bad = Vec::new();
    for w in words {
        match notation::parse(w) {
            Ok(m) => moves.push(m),
            Err(_) => bad.push(w.clone()),
        }
    }
    (moves, bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str) -> Go {
        match super::super::protocol::Command::parse(line) {
            Some(super::super::protocol::Command::Go(g)) => g,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn clock_time_is_shared_over_the_moves_left() {
        let ms = |line: &str, side| think_time(&go(line), side).map(|d| d.as_millis() as u64);
        assert_eq!(ms("go movetime 700 wtime 1", Color::White), Some(700));
        assert_eq!(ms("go wtime 60000 btime 30000", Color::White), Some(2000));
        assert_eq!(ms("go wtime 60000 btime 30000", Color::Black), Some(1000));
        assert_eq!(
            ms("go wtime 60000 winc 1000 movestogo 10", Color::White),
            Some(6750)
        );
        // The last move before the control: the clock less the margin.
        assert_eq!(ms("go btime 1000 movestogo 1", Color::Black), Some(950));
        // An increment larger than the clock never overdraws it.
        assert_eq!(ms("go wtime 400 winc 5000", Color::White), Some(350));
        assert_eq!(ms("go wtime 0", Color::White), Some(MIN_MS));
        assert_eq!(ms("go btime 5000", Color::White), None);
        assert_eq!(ms("go depth 3", Color::White), None);
    }

    #[test]
    fn limits_follow_the_command_then_the_level() {
        let deepest = crate::engine::search::MAX_PLY as u32 / 2;
        let l = limits(&go("go"), Color::White, 2, 7);
        assert_eq!(l, level::limits(2, 7));
        let l = limits(&go("go depth 4"), Color::White, 2, 7);
        assert_eq!(
            (l.depth, l.nodes, l.work, l.movetime),
            (4, None, None, None)
        );
        let l = limits(&go("go nodes 500"), Color::White, 2, 7);
        assert_eq!(
            (l.depth, l.nodes, l.work, l.movetime),
            (deepest, Some(500), None, None)
        );
        let l = limits(&go("go depth 0"), Color::White, 2, 7);
        assert_eq!(l.depth, 1);
        let l = limits(&go("go infinite depth 3 movetime 10"), Color::White, 2, 7);
        assert_eq!(
            (l.depth, l.nodes, l.work, l.movetime),
            (deepest, None, None, None)
        );
        let l = limits(&go("go btime 3000"), Color::Black, 2, 7);
        assert_eq!(l.movetime, Some(Duration::from_millis(100)));
    }

    #[test]
    fn splits_match_in_either_order() {
        let p = |s: &str| notation::parse(s).unwrap();
        assert!(same_move(&p("b1^a3c3"), &p("b1^c3a3")));
        assert!(same_move(&p("e2e4"), &p("Pe2e4")));
        assert!(same_move(&p("e4xd5.m1"), &p("e4d5")));
        assert!(!same_move(&p("e7e8q"), &p("e7e8n")));
        assert!(!same_move(&p("a3c3^b5"), &p("c3a3^b5")));
        assert!(!same_move(&p("e2e4"), &p("e2e3")));
        let (moves, bad) = parse_moves(&["e2e4".into(), "zz".into()]);
        assert_eq!((moves.len(), bad), (1, vec!["zz".to_string()]));
    }
}
