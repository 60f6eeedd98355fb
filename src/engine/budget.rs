//! Time management: what a search is asked for ([`Go`], as a UQCI `go` command or a
//! game's clocks give it), the limits and the time it may take from a clock, and the
//! root moves `searchmoves` allows.

use super::{level, Limits};
use crate::chess::{notation, Color, MoveText, Shape};
use std::time::Duration;

/// What a search is asked for, in the words of a UQCI `go` command; a limit not given
/// does not limit the search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Go {
    /// `depth N`: plies.
    pub depth: Option<u32>,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `movetime MS`: search this long.
    pub movetime: Option<u64>,
    /// `wtime MS`: White's clock (negative values read as 0).
    pub wtime: Option<u64>,
    /// `btime MS`: Black's clock.
    pub btime: Option<u64>,
    /// `winc MS`: White's increment per move.
    pub winc: Option<u64>,
    /// `binc MS`: Black's increment per move.
    pub binc: Option<u64>,
    /// `movestogo N`: moves to the next time control.
    pub movestogo: Option<u32>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// `searchmoves M1 M2 …`: only these root moves (as written).
    pub searchmoves: Vec<String>,
}

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
    let deepest = super::search::MAX_PLY as u32 / 2;
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
