//! A searched line's expected result with its measurement weighed as results: the
//! engine mixes a measuring move's outcomes in centipawns (a 50% shot at a certain king
//! scores half of a won game's 30,000 cp), which [`super::expected`]'s curve reads as a
//! won game; here the outcomes are searched each, mapped to expected results and
//! weighed by their chances. The review values every move so; the live game's hint and
//! engine line too.

use super::expected::{from_side, of_status};
use super::search::{search, Limits, Report};
use crate::chess::{notation, Game};
use std::sync::atomic::{AtomicBool, Ordering};

/// White's expected result of the line a search of `g` found (`report`, searched with
/// `limits`): [`line_value`]'s. `None` when stopped.
pub fn expected_of_line(
    g: &Game,
    report: &Report,
    limits: &Limits,
    stop: &AtomicBool,
) -> Option<f64> {
    line_value(g, report, limits, stop).map(|v| v.expected)
}

/// What a searched line is worth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineValue {
    /// White's expected result.
    pub expected: f64,
    /// Whether every move of the line within its full plies is certain (none measures
    /// with a chance either way), so that the search's score is material and position,
    /// not a mix of outcomes.
    pub certain: bool,
}

/// The value of the line a search of `g` found (`report`, searched with `limits`): the
/// search's score, except where a move of the line within its full plies measures
/// with a chance either way and its outcomes differ widely ([`SPREAD`]). Then that
/// move's outcomes are searched each (as deep as the line's search saw past that move,
/// with a quarter of its budget: [`OUTCOME_SHARE`]) and weighed by their chances as
/// results, not as centipawns: a 50% shot at a certain king is half a won game plus
/// half of what is left if it fails, where the engine's score (half of a won game's
/// 30,000 cp) reads as won. `None` when stopped.
pub fn line_value(
    g: &Game,
    report: &Report,
    limits: &Limits,
    stop: &AtomicBool,
) -> Option<LineValue> {
    let score = from_side(report.info.score, g.to_move());
    let uncertain = LineValue {
        expected: score,
        certain: false,
    };
    let mut at = g.detached();
    // Within the search's full plies only (the line's first `depth` moves): past them
    // the line is the search's captures only, and a full search of an outcome there
    // would see further than the line's own search did. An outcome of the last full
    // ply is searched one ply deep, one more than the search saw after it: a coin toss
    // at a king there (a capture at an even chance) was read by the curve as a won
    // game, and a review's graph dropped for one ply (docs/review.md).
    let full = limits.depth.max(1) as usize;
    for (plies, mv) in report.info.pv.iter().take(full).enumerate() {
        let Some(text) = notation::parse(mv)
            .ok()
            .map(|t| notation::MoveText { outcome: None, ..t })
        else {
            return Some(uncertain);
        };
        let Some(mut outcomes) = outcomes(&at, &text.to_string()) else {
            return Some(uncertain);
        };
        if outcomes.len() > 1 {
            let past = Limits {
                depth: limits.depth.saturating_sub(plies as u32 + 1).max(1),
                nodes: limits.nodes.map(|n| n / OUTCOME_SHARE),
                work: limits.work.map(|w| w / OUTCOME_SHARE),
                movetime: limits.movetime.map(|t| t / OUTCOME_SHARE as u32),
                ..*limits
            };
            let mut values = Vec::with_capacity(outcomes.len());
            for (position, chance) in outcomes {
                values.push((searched_value(&position, &past, stop)?, chance));
            }
            return Some(LineValue {
                expected: mixed(&values, score),
                certain: false,
            });
        }
        at = outcomes.remove(0).0;
    }
    Some(LineValue {
        expected: score,
        certain: true,
    })
}

/// The outcomes' expected results (each with its chance) weighed by their chances when
/// they lie [`SPREAD`] or more apart; else the search's own `score`.
fn mixed(values: &[(f64, f64)], score: f64) -> f64 {
    let (low, high) = values
        .iter()
        .fold((1.0f64, 0.0f64), |(l, h), (v, _)| (l.min(*v), h.max(*v)));
    if high - low < SPREAD {
        score
    } else {
        values.iter().map(|(v, chance)| v * chance).sum()
    }
}

/// White's expected result of `g` by its search's score (the result when the game is
/// over). `None` when stopped.
pub fn searched_value(g: &Game, limits: &Limits, stop: &AtomicBool) -> Option<f64> {
    if let Some(result) = of_status(g.status()) {
        return Some(result);
    }
    let report = search(g, limits, stop, &mut |_| {});
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    Some(from_side(report.info.score, g.to_move()))
}

/// The positions `mv` leads to from `g`, each with its chance: one for a move whose
/// answer is certain (or that asks nothing), both outcomes for a move that measures
/// with a chance either way (the outcome written on `mv`, if any, first). `None` when
/// the move does not play.
pub fn outcomes(g: &Game, mv: &str) -> Option<Vec<(Game, f64)>> {
    let mut first = g.detached();
    let (outcome, p1) = {
        let played = first.play(mv).ok()?;
        (played.outcome, played.p1)
    };
    let (Some(outcome), Some(p1)) = (outcome, p1) else {
        return Some(vec![(first, 1.0)]);
    };
    let chance = if outcome { p1 } else { 1.0 - p1 };
    if chance >= 1.0 - CERTAIN {
        return Some(vec![(first, 1.0)]);
    }
    let text = notation::parse(mv).ok()?;
    let other_text = notation::MoveText {
        outcome: Some(!outcome),
        ..text
    }
    .to_string();
    let mut other = g.detached();
    other.play(&other_text).ok()?;
    Some(vec![(first, chance), (other, 1.0 - chance)])
}

/// Outcomes whose expected results differ by less than this are left to the search's
/// own score: mixing centipawns or results then differs by less than the outcomes'
/// searches (their own, a ply shallower) differ from the line's view of them.
const SPREAD: f64 = 0.3;

/// Each outcome's search has this share of the line's budget of work and time (both
/// together at most half again the search that found the line: a person waits for it).
const OUTCOME_SHARE: u64 = 4;

/// A chance this near 1 is a certainty (the simulator's rounding).
const CERTAIN: f64 = 1e-9;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::GameOptions;
    use crate::engine::level;

    fn judged(fen: &str, moves: &[&str], lvl: u8) -> (f64, f64) {
        let mut g = Game::from_fen(fen, GameOptions::default()).unwrap();
        for m in moves {
            g.play(m).unwrap();
        }
        let limits = level::limits(lvl, 0);
        let stop = AtomicBool::new(false);
        let report = search(&g, &limits, &stop, &mut |_| {});
        let plain = from_side(report.info.score, g.to_move());
        let weighed = expected_of_line(&g, &report, &limits, &stop).unwrap();
        (plain, weighed)
    }

    #[test]
    fn a_coin_toss_for_the_king_is_weighed_as_results() {
        // White's split queen may take the king from h5: won, or a rook down.
        let (plain, weighed) = judged("q3k2r/8/8/8/8/8/8/3QK3 w - - 0 1", &["d1^d5h5", "a8a7"], 2);
        assert!(plain >= 0.99, "{plain}");
        assert!((0.55..0.8).contains(&weighed), "{weighed}");
    }

    /// White's split queen on d5 and h5, Black's king on e8: the coin toss.
    fn toss() -> Game {
        let mut g =
            Game::from_fen("q3k2r/8/8/8/8/8/8/3QK3 w - - 0 1", GameOptions::default()).unwrap();
        for m in ["d1^d5h5", "a8a7"] {
            g.play(m).unwrap();
        }
        g
    }

    /// Whether the line a search of `g` at level `lvl` finds is certain.
    fn certain(g: &Game, lvl: u8) -> bool {
        let limits = level::limits(lvl, 0);
        let stop = AtomicBool::new(false);
        let report = search(g, &limits, &stop, &mut |_| {});
        line_value(g, &report, &limits, &stop).unwrap().certain
    }

    #[test]
    fn a_line_through_a_coin_toss_is_not_certain() {
        assert!(!certain(&toss(), 2));
    }

    #[test]
    fn close_outcomes_keep_the_score_and_far_ones_are_weighed() {
        // A won game or a rook down, at even chances: their mean.
        assert!((mixed(&[(1.0, 0.5), (0.24, 0.5)], 0.99) - 0.62).abs() < 1e-12);
        // A 1-in-4 shot: weighed by the chances.
        assert!((mixed(&[(1.0, 0.25), (0.5, 0.75)], 0.9) - 0.625).abs() < 1e-12);
        // Outcomes 0.15 apart: the search's own score stands.
        assert_eq!(mixed(&[(0.40, 0.5), (0.25, 0.5)], 0.45), 0.45);
    }

    #[test]
    fn a_line_without_a_measurement_keeps_the_score() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let (plain, weighed) = judged(start, &[], 3);
        assert_eq!(plain, weighed);
        let g = Game::from_fen(start, GameOptions::default()).unwrap();
        assert!(certain(&g, 3));
    }

    #[test]
    fn a_stopped_search_weighs_nothing() {
        let g = toss();
        let limits = level::limits(2, 0);
        let report = search(&g, &limits, &AtomicBool::new(false), &mut |_| {});
        let stopped = AtomicBool::new(true);
        assert_eq!(expected_of_line(&g, &report, &limits, &stopped), None);
    }
}
