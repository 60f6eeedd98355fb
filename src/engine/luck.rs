//! Measurement luck: how much the random outcomes of a game's measurements moved its
//! expected result, so that a match can tell the players' strength from their luck.
//!
//! A measuring move with outcome 1 at probability `p` turns the position's expected
//! result `p E1 + (1 - p) E0` into `E1` or `E0` (the expected results after each
//! outcome, as a fixed judge reads them). The difference, `(o - p) (E1 - E0)` for the
//! outcome `o` drawn, is that move's luck, as a game review counts it
//! ([`outcome_luck`], with the review's judge); a final measurement of the board (the
//! 50-move rule, repetition) adds the result less the expected result just before it.
//! Each term has expectation 0 whatever the players do (the outcome is drawn with the
//! chance `p` the judge weighs it by), so a game's result less its luck has the same
//! expectation as the result: a match's mean of it estimates the same score with less
//! noise, the better the judge the less (docs/measurements.md has the figures for level
//! 3 against Stockfish).
//!
//! The judge is level 1's search (one ply and its captures, a fixed seed), its score
//! read as an expected result by [`super::expected`]: cheap beside the players' own
//! searches, and the same on every machine.

use super::expected::of_status;
use super::level;
use super::weighed::searched_value;
use crate::chess::{EndReason, Game, MoveText, PlayedMove};
use crate::record::review::outcome_luck;
use std::sync::atomic::AtomicBool;

/// White's expected result of `g`, 0..1, as the judge reads it: the result of a
/// finished game (the expected result of the board's measurement for a game the
/// 50-move rule or repetition ended and a look-ahead left unmeasured), else level 1's
/// score.
pub fn judge(g: &Game) -> f64 {
    if let (Some(EndReason::FiftyMoves | EndReason::Repetition), Some(m)) =
        (g.end_reason(), g.expected_measured_result())
    {
        return (1.0 + m) / 2.0;
    }
    let never = AtomicBool::new(false);
    searched_value(g, &level::limits(level::MIN_LEVEL, 0), &never)
        .expect("a search that is never stopped answers")
}

/// White's luck in `played`, the move that took `before` to `after`: the measurement's
/// `(o - p) (E1 - E0)` (0 for a move whose outcome was certain or that did not measure),
/// plus, when the move ended the game by the board's measurement (50-move rule,
/// repetition), the result less its expected result.
pub fn of_move(before: &Game, played: &PlayedMove, after: &Game) -> f64 {
    let mut luck = 0.0;
    if let (Some(o), Some(p1)) = (played.outcome, played.p1) {
        if p1 > 0.0 && p1 < 1.0 {
            let judged = |outcome: bool| {
                let text = MoveText {
                    outcome: Some(outcome),
                    ..played.class.text
                };
                before.look_ahead(&text).map(|(g, _)| judge(&g))
            };
            if let (Ok(e1), Ok(e0)) = (judged(true), judged(false)) {
                luck += match o {
                    true => outcome_luck(p1, e1, e0),
                    false => outcome_luck(1.0 - p1, e0, e1),
                };
            }
        }
    }
    let measured = matches!(
        after.end_reason(),
        Some(EndReason::FiftyMoves | EndReason::Repetition)
    );
    if let (true, Some(m), Some(result)) = (
        measured,
        after.expected_measured_result(),
        of_status(after.status()),
    ) {
        luck += result - (1.0 + m) / 2.0;
    }
    luck
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{GameOptions, Status};

    /// A bishop split between b5 and d3, the black king stepped to d7: `b5xd7` is a 50%
    /// capture of it.
    fn shot() -> Game {
        let mut g = Game::standard(GameOptions::default());
        for m in ["e2e4", "d7d5", "f1^b5d3", "e8d7"] {
            g.play(m).expect("legal");
        }
        g
    }

    #[test]
    fn a_move_without_a_measurement_has_no_luck() {
        let before = Game::standard(GameOptions::default());
        let mut after = before.clone();
        let played = after.play("e2e4").expect("legal").clone();
        assert_eq!(of_move(&before, &played, &after), 0.0);
    }

    #[test]
    fn luck_has_no_expectation_and_favours_the_outcome_drawn() {
        let before = shot();
        let mut lucks = Vec::new();
        for outcome in ["b5xd7.m1", "b5xd7.m0"] {
            let mut after = before.clone();
            let played = after.play(outcome).expect("legal").clone();
            let p1 = played.p1.expect("the capture measured");
            assert!((p1 - 0.5).abs() < 1e-9, "{p1}");
            lucks.push((p1, of_move(&before, &played, &after)));
        }
        let [(p1, hit), (_, miss)] = [lucks[0], lucks[1]];
        // The capture takes the black king: good luck for White, bad when it fails.
        assert!(hit > 0.1, "{hit}");
        assert!(miss < -0.1, "{miss}");
        // Weighed by the chances of the outcomes, luck is nothing.
        assert!((p1 * hit + (1.0 - p1) * miss).abs() < 1e-12, "{hit} {miss}");
        // A won game is 1: the hit's luck is half of what the miss leaves to win.
        let mut missed = before.clone();
        missed.play("b5xd7.m0").expect("legal");
        assert!((hit - 0.5 * (1.0 - judge(&missed))).abs() < 1e-12);
    }

    #[test]
    fn the_judge_reads_a_finished_game_as_its_result() {
        let mut g = shot();
        g.play("b5xd7.m1").expect("legal");
        assert_eq!(g.status(), Status::WhiteWins);
        assert_eq!(judge(&g), 1.0);
        let start = judge(&Game::standard(GameOptions::default()));
        assert!((0.45..0.55).contains(&start), "{start}");
    }

    #[test]
    fn the_50_move_rules_measurement_is_luck_too() {
        // Black's king split, half of it taken by the rook: the 50-move rule's
        // measurement at ply 100 finds it (a draw) or not (White wins), half and half.
        let mut seen = [false; 2];
        for seed in 0..32 {
            let opts = GameOptions {
                seed,
                ..GameOptions::default()
            };
            let mut g = Game::from_fen("k6R/8/8/8/8/8/8/K7 b - - 96 1", opts).expect("fen");
            for m in ["a8^a7b8", "h8xb8", "a7a6"] {
                g.play(m).expect("legal");
            }
            let before = g.detached();
            let played = g.play("a1a2").expect("legal").clone();
            assert_eq!(g.end_reason(), Some(EndReason::FiftyMoves));
            let luck = of_move(&before, &played, &g);
            match g.status() {
                Status::WhiteWins => {
                    assert!((luck - 0.25).abs() < 1e-9, "{luck}");
                    seen[0] = true;
                }
                Status::Draw => {
                    assert!((luck + 0.25).abs() < 1e-9, "{luck}");
                    seen[1] = true;
                }
                s => panic!("{s:?}"),
            }
        }
        assert_eq!(seen, [true, true], "both outcomes of the measurement");
    }
}
