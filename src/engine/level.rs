//! Playing strength: levels 1..5 as search limits.

use super::eval::Style;
use super::search::Limits;
use std::time::Duration;

/// The weakest level.
pub const MIN_LEVEL: u8 = 1;
/// The strongest level.
pub const MAX_LEVEL: u8 = 5;
/// The level used when none is given.
pub const DEFAULT_LEVEL: u8 = 3;
/// The levels as written on the command line, weakest first.
pub const LEVEL_NAMES: [&str; (MAX_LEVEL - MIN_LEVEL + 1) as usize] = ["1", "2", "3", "4", "5"];

/// A level outside 1..5.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("level {0} does not exist: levels go from 1 (weakest) to 5 (strongest)")]
pub struct BadLevel(pub i64);

/// Checks a level number.
pub fn check(level: i64) -> Result<u8, BadLevel> {
    if (MIN_LEVEL as i64..=MAX_LEVEL as i64).contains(&level) {
        Ok(level as u8)
    } else {
        Err(BadLevel(level))
    }
}

/// The limits of a level: depth, quiescence plies and a budget of work (nodes, a node of
/// a big state and its list of moves counting for more: [`super::search::WORK_BRANCHES`],
/// [`super::search::LISTING_BRANCHES`]), so a level's choice
/// depends only on the position and the seed, never on the machine's speed.
pub fn limits(level: u8, seed: u64) -> Limits {
    let (depth, quiescence, late_moves, work) = match level {
        0 | 1 => (1, 1, 0, 5_000),
        2 => (2, 1, 8, 20_000),
        3 => (3, 1, 8, 60_000),
        4 => (4, 1, 8, 120_000),
        // Two plies of captures after the horizon, where the others have one: the
        // answer to a capture is seen. With one ply level 5 was not stronger than level
        // 4: its depth-5 horizon ends on the other side's capture, counted without the
        // recapture. Three plies did no better than two (see docs/measurements.md).
        _ => (5, 2, 8, 300_000),
    };
    Limits {
        depth,
        nodes: None,
        work: Some(work),
        movetime: None,
        quiescence,
        late_moves,
        style: Style::Full,
        // Not at level 1, whose one ply would search a checking move a full ply further
        // than every other move.
        extend_checks: depth >= 2,
        seed,
    }
}

/// Whether a level plays from the opening book while the board is classical: all but
/// level 1, the beginner's opponent, which should not play like a master in the opening.
pub fn uses_book(level: u8) -> bool {
    level >= 2
}

/// The most a level thinks per move when a person waits for it (the terminal game, the
/// hint key, SSH rooms): past it the search answers with its best move so far. Its
/// budget of work ends almost every search long before; the cap is for a machine much
/// slower than expected. Matches and `analyze --best`
/// have no cap, so that their results do not depend on the machine.
pub fn play_cap(level: u8) -> Duration {
    Duration::from_secs(match level {
        0 | 1 => 2,
        2 => 4,
        3 => 8,
        4 => 15,
        _ => 30,
    })
}

/// Plies of captures searched after the horizon when a level judges a position for a
/// person (a hint, a review), at every level.
pub const JUDGING_QUIESCENCE: u32 = 2;

/// The limits of a level judging a position rather than playing it (a review's judge, a
/// hint): its depth and budget of work with [`JUDGING_QUIESCENCE`] plies of captures
/// after the horizon, so that a capture there is weighed with its recapture. With the
/// one ply that levels 1 to 4 play with, a line ending on the other side's capture of a
/// defended piece counts it won: in the Italian game (`e2e4 e7e5 g1f3 b8c6 f1c4 f8c5
/// d2d3 g8f6`) every quiet line of level 3 ends on Black's unanswered `c5xf2`, so it
/// plays the bishop sacrifice `c4xf7`, and its hint offered it; judged with two plies it
/// is worse than `b1c3`. The levels keep their own quiescence when they play: with two
/// plies level 3 scored no better against Stockfish (docs/measurements.md).
pub fn judging(level: u8, seed: u64) -> Limits {
    let plays = limits(level, seed);
    Limits {
        quiescence: plays.quiescence.max(JUDGING_QUIESCENCE),
        ..plays
    }
}

/// [`limits`] with [`play_cap`]: the limits of a level playing a person.
pub fn limits_in_play(level: u8, seed: u64) -> Limits {
    Limits {
        movetime: Some(play_cap(level)),
        ..limits(level, seed)
    }
}

/// Limits for thinking `time` per move: iterative deepening as deep as the time allows
/// (with the quiescence of level 5).
pub fn timed(time: Duration, seed: u64) -> Limits {
    Limits {
        depth: super::search::MAX_PLY as u32 / 2,
        nodes: None,
        work: None,
        movetime: Some(time),
        ..limits(MAX_LEVEL, seed)
    }
}

/// How `level` is named in saved games and reports.
pub fn name(level: u8) -> String {
    format!("qchess level {level}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judging_a_level_searches_its_depth_and_budget_with_the_recapture() {
        for level in MIN_LEVEL..=MAX_LEVEL {
            let (plays, judges) = (limits(level, 7), judging(level, 7));
            assert_eq!(judges.quiescence, plays.quiescence.max(2), "level {level}");
            assert_eq!(
                (judges.depth, judges.work, judges.late_moves, judges.seed),
                (plays.depth, plays.work, plays.late_moves, plays.seed)
            );
        }
        assert_eq!(judging(MAX_LEVEL, 7), limits(MAX_LEVEL, 7));
    }

    #[test]
    fn in_play_a_level_keeps_its_search_and_gains_a_time_cap() {
        let mut last = Duration::ZERO;
        for level in MIN_LEVEL..=MAX_LEVEL {
            let (plain, capped) = (limits(level, 7), limits_in_play(level, 7));
            assert_eq!(plain.movetime, None);
            assert_eq!(capped.movetime, Some(play_cap(level)));
            assert_eq!((capped.depth, capped.work), (plain.depth, plain.work));
            assert!(play_cap(level) > last, "stronger levels may think longer");
            last = play_cap(level);
        }
    }
}
