//! What a review says about each move: how much expected result it gave away against
//! the best move (the marks), how much its measurement's outcome changed (luck), and a
//! summary per player.
//!
//! A move's **loss** is, from its mover's side, the expected result of the best move
//! minus that of the move played, both judged before the outcome of any measurement
//! (a capture that may fail is worth its chances): never below 0 (a move the engine
//! judged better than its own best is no loss). Marks: inaccuracy from [`INACCURACY`],
//! mistake from [`MISTAKE`], blunder from [`BLUNDER`].
//!
//! A measuring move's **luck** is what its outcome changed: the expected result after
//! it minus the move's own expected result before the draw. Beyond [`LUCK`] either way
//! it is marked as a turn of luck, apart from the marks (a lucky blunder is both).

use super::review::{for_side, outcome_luck, rounded as round, Judged, Review};
use crate::chess::{notation, Color};
use crate::game::Playable;
use serde_json::json;

/// Loss at which a move is an inaccuracy.
pub const INACCURACY: f64 = 0.10;
/// Loss at which a move is a mistake.
pub const MISTAKE: f64 = 0.20;
/// Loss at which a move is a blunder.
pub const BLUNDER: f64 = 0.30;
/// Change by a measurement's outcome beyond which it is a turn of luck.
pub const LUCK: f64 = 0.30;

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// Gave away at least [`INACCURACY`].
    Inaccuracy,
    /// Gave away at least [`MISTAKE`].
    Mistake,
    /// Gave away at least [`BLUNDER`].
    Blunder,
}

impl Mark {
    /// The mark of a move that gave away `loss`, if any.
    pub fn of(loss: f64) -> Option<Mark> {
        if loss >= BLUNDER {
            Some(Mark::Blunder)
        } else if loss >= MISTAKE {
            Some(Mark::Mistake)
        } else if loss >= INACCURACY {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// "blunder".
    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// The move's numeric annotation in PGN (NAG): `$6` (`?!`), `$2` (`?`), `$4` (`??`).
    pub fn nag(self) -> u8 {
        match self {
            Mark::Inaccuracy => 6,
            Mark::Mistake => 2,
            Mark::Blunder => 4,
        }
    }

    /// The annotation chess players write after such a move: `?!`, `?`, `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
}

/// The review's verdict on one ply.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// The ply, from 1.
    pub ply: usize,
    /// Who played it.
    pub mover: Color,
    /// The move as recorded.
    pub mv: String,
    /// White's expected result after it (its outcome included).
    pub expected: f64,
    /// White's expected result before it.
    pub before: f64,
    /// The best move there, and the line after it.
    pub best: Option<String>,
    /// The best line, the best move first.
    pub best_line: Vec<String>,
    /// The other side's answer to the move the engine expects (without an outcome),
    /// when the judge's line after the move played has one in the outcome that was
    /// drawn.
    pub reply: Option<String>,
    /// Expected result the move gave away, from the mover's side (0 or more).
    pub loss: f64,
    /// The mark the loss earns.
    pub mark: Option<Mark>,
    /// What the outcome of its measurement changed, from the mover's side, when beyond
    /// [`LUCK`] either way.
    pub luck: Option<f64>,
}

impl Verdict {
    /// Whether the move is marked (a mark or a turn of luck).
    pub fn marked(&self) -> bool {
        self.mark.is_some() || self.luck.is_some()
    }

    /// "blunder: gave away 0.42 of a point, met by d8h4; best g1f3", "lucky: the measurement won
    /// 0.35 of a point": the verdict in a chess player's words (a win is one point),
    /// empty for an unmarked move.
    pub fn words(&self) -> String {
        let mut parts = Vec::new();
        if let Some(m) = self.mark {
            let best = self
                .best
                .as_deref()
                .map(|b| format!("; best {b}"))
                .unwrap_or_default();
            let reply = self
                .reply
                .as_deref()
                .map(|r| format!(", met by {r}"))
                .unwrap_or_default();
            parts.push(format!(
                "{}: gave away {:.2} of a point{reply}{best}",
                m.name(),
                self.loss
            ));
        }
        if let Some(l) = self.luck {
            let how = if l > 0.0 {
                "lucky: the measurement won"
            } else {
                "unlucky: the measurement cost"
            };
            parts.push(format!("{how} {:.2} of a point", l.abs()));
        }
        parts.join("; ")
    }

    /// The verdict in a narrow pane: "d1e2?! -0.18 best e4xd5", "h5xe8.m0 unlucky -0.44".
    pub fn short(&self) -> String {
        let mut out = self.mv.clone();
        if let Some(m) = self.mark {
            out += &format!("{} -{:.2}", m.symbol(), self.loss);
            if let Some(b) = &self.best {
                out += &format!(" best {b}");
            }
        }
        if let Some(l) = self.luck {
            let how = if l > 0.0 { "lucky" } else { "unlucky" };
            out += &format!(" {how} {l:+.2}");
        }
        out
    }

    /// The verdict for scripts: `ply`, `move`, `expected`, `best`, `best_line`, `reply`,
    /// `loss`, `mark`, `luck`.
    pub fn to_json(&self) -> serde_json::Value {
        json!({
            "ply": self.ply,
            "side": self.mover.name(),
            "move": self.mv,
            "expected": round(self.expected),
            "best": self.best,
            "best_line": self.best_line,
            "reply": self.reply,
            "loss": round(self.loss),
            "mark": self.mark.map(Mark::name),
            "luck": self.luck.map(round),
        })
    }
}

/// The moves of `game` as a review reads them: each as recorded, with who played it.
pub fn moves_of(game: &dyn Playable) -> Vec<(String, Color)> {
    game.history()
        .into_iter()
        .map(|r| (r.text, r.color))
        .collect()
}

/// The verdict on every ply of a game with `moves` (each with its mover), where both
/// positions around it are judged (`None` where one is not).
pub fn verdicts(review: &Review, moves: &[(String, Color)]) -> Vec<Option<Verdict>> {
    let mut out = Vec::with_capacity(moves.len());
    for (i, (mv, mover)) in moves.iter().enumerate() {
        let mover = *mover;
        let v = (|| {
            let before = review.at(i)?;
            let after = review.at(i + 1)?;
            let played = before.played_expected?;
            let loss = (for_side(before.expected, mover) - for_side(played, mover)).max(0.0);
            // White's gain is the mover's when White moved, its loss otherwise.
            let sign = if mover == Color::White { 1.0 } else { -1.0 };
            let change = luck(before, after.expected, mv).map(|l| sign * l);
            Some(Verdict {
                ply: i + 1,
                mover,
                mv: mv.clone(),
                expected: after.expected,
                before: before.expected,
                best: before.best.clone(),
                best_line: before.line.clone(),
                reply: reply(before, mv),
                loss,
                mark: Mark::of(loss).filter(|_| review.marks),
                luck: change.filter(|c| c.abs() > LUCK),
            })
        })();
        out.push(v);
    }
    out
}

/// The answer the judge expected to the move `played` from `before`: the second move
/// of its line after that move (`played_line`, or `line` when the best was played),
/// without its outcome; `None` when the line is another move's, or went through the
/// outcome the move did not draw (it answers a position the game never reached).
fn reply(before: &Judged, played: &str) -> Option<String> {
    let line = match before.played_line.is_empty() {
        true => &before.line,
        false => &before.played_line,
    };
    let played = notation::parse(played).ok()?;
    let first = notation::parse(line.first()?).ok()?;
    if !first.same_move(&played) || (played.outcome.is_some() && first.outcome != played.outcome) {
        return None;
    }
    notation::without_outcome(line.get(1)?)
}

/// What the outcome drawn by the move played from `before` changed in White's expected
/// result, `after` being the result with it: with both outcomes judged, the result
/// after it less the mean over the outcomes (`(1 - p) * (after - other)`, `p` the
/// chance of the outcome drawn); for a rule system whose chances are not known (a
/// move recorded with drawn outcomes, `b1~d4.d4=n`), less the move's value before the
/// draw. `None` for a move that drew nothing.
fn luck(before: &Judged, after: f64, mv: &str) -> Option<f64> {
    match (before.drawn_chance, before.other_expected) {
        (Some(p), Some(other)) => Some(outcome_luck(p, after, other)),
        (Some(_), None) => None,
        (None, _) if mv.contains('.') => before.played_expected.map(|e| after - e),
        (None, _) => None,
    }
}

/// One player's review in numbers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Moves judged.
    pub moves: usize,
    /// Mean loss over them.
    pub average_loss: f64,
    /// Inaccuracies, mistakes, blunders.
    pub marks: [usize; 3],
    /// Turns of luck, for and against.
    pub luck: [usize; 2],
    /// The ply whose move changed White's expected result the most, and by how much
    /// (from the player's side).
    pub biggest_swing: Option<(usize, f64)>,
}

impl Summary {
    /// The summary of `side`'s moves.
    pub fn of(verdicts: &[Option<Verdict>], side: Color) -> Summary {
        let mut s = Summary::default();
        let mut total = 0.0;
        for v in verdicts.iter().flatten().filter(|v| v.mover == side) {
            s.moves += 1;
            total += v.loss;
            if let Some(m) = v.mark {
                s.marks[m as usize] += 1;
            }
            if let Some(l) = v.luck {
                s.luck[usize::from(l < 0.0)] += 1;
            }
            let swing = for_side(v.expected, side) - for_side(v.before, side);
            if s.biggest_swing.is_none_or(|(_, b)| swing.abs() > b.abs()) {
                s.biggest_swing = Some((v.ply, swing));
            }
        }
        if s.moves > 0 {
            s.average_loss = total / s.moves as f64;
        }
        s
    }

    /// "average loss 0.04; 1 inaccuracy, 0 mistakes, 1 blunder; luck 1 for, 0
    /// against; biggest swing -0.48 at ply 23".
    pub fn words(&self) -> String {
        let swing = self
            .biggest_swing
            .map(|(p, d)| format!("; biggest swing {d:+.2} at ply {p}"))
            .unwrap_or_default();
        format!(
            "average loss {:.2}; {} {}, {} {}, {} {}; luck {} for, {} against{swing}",
            self.average_loss,
            self.marks[0],
            plural(self.marks[0], "inaccuracy", "inaccuracies"),
            self.marks[1],
            plural(self.marks[1], "mistake", "mistakes"),
            self.marks[2],
            plural(self.marks[2], "blunder", "blunders"),
            self.luck[0],
            self.luck[1],
        )
    }

    /// The summary for scripts.
    pub fn to_json(&self) -> serde_json::Value {
        json!({
            "moves": self.moves,
            "average_loss": round(self.average_loss),
            "inaccuracies": self.marks[0],
            "mistakes": self.marks[1],
            "blunders": self.marks[2],
            "lucky": self.luck[0],
            "unlucky": self.luck[1],
            "biggest_swing": self.biggest_swing.map(|(p, d)| json!({"ply": p, "change": round(d)})),
        })
    }
}

fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

#[cfg(test)]
mod tests {
    use super::super::review::VERSION;
    use super::*;

    fn with_movers(moves: &[&str]) -> Vec<(String, Color)> {
        let side = |i: usize| {
            if i.is_multiple_of(2) {
                Color::White
            } else {
                Color::Black
            }
        };
        moves
            .iter()
            .enumerate()
            .map(|(i, m)| (m.to_string(), side(i)))
            .collect()
    }

    fn at(ply: usize, expected: f64, played: Option<(&str, f64)>) -> Judged {
        Judged {
            ply,
            expected,
            best: Some("best".into()),
            line: vec!["best".into()],
            played: played.map(|p| p.0.to_string()),
            played_expected: played.map(|p| p.1),
            drawn_chance: None,
            other_expected: None,
            played_line: Vec::new(),
        }
    }

    #[test]
    fn losses_are_marked_from_the_movers_side_and_luck_apart() {
        let moves = with_movers(&["e2e4", "d8xh4.m1", "a2a3"]);
        let review = Review {
            version: 1,
            by: "test".into(),
            marks: true,
            positions: vec![
                // White gives away 0.35: a blunder.
                at(0, 0.6, Some(("e2e4", 0.25))),
                // Black's capture is its best move; it came off and White's result
                // falls from 0.25 to 0.05: +0.20 for Black, not a turn of luck.
                at(1, 0.25, Some(("d8xh4.m1", 0.25))),
                // Ply 3 is not judged: no position after it.
                at(2, 0.05, Some(("a2a3", 0.04))),
            ],
        };
        let v = verdicts(&review, &moves);
        let first = v[0].as_ref().unwrap();
        assert_eq!(first.mark, Some(Mark::Blunder));
        assert!((first.loss - 0.35).abs() < 1e-9);
        assert_eq!(first.luck, None);
        let second = v[1].as_ref().unwrap();
        assert_eq!(second.mover, Color::Black);
        assert_eq!(second.mark, None);
        assert_eq!(second.luck, None);
        // Ply 3 has no position after it.
        assert!(v[2].is_none());
        assert_eq!(
            first.words(),
            "blunder: gave away 0.35 of a point; best best"
        );
        assert_eq!(first.short(), "e2e4?? -0.35 best best");
    }

    #[test]
    fn a_lucky_outcome_is_luck_not_a_mistake() {
        let moves = with_movers(&["c3xd5.m1"]);
        let review = Review {
            version: 1,
            by: "test".into(),
            marks: true,
            positions: vec![at(0, 0.5, Some(("c3xd5.m1", 0.5))), at(1, 0.9, None)],
        };
        let v = verdicts(&review, &moves);
        let v = v[0].as_ref().unwrap();
        assert_eq!(v.mark, None);
        assert!((v.luck.unwrap() - 0.4).abs() < 1e-9);
        assert_eq!(v.words(), "lucky: the measurement won 0.40 of a point");
        assert_eq!(v.short(), "c3xd5.m1 lucky +0.40");
        let s = Summary::of(&[Some(v.clone())], Color::White);
        assert_eq!(s.luck, [1, 0]);
        assert_eq!(s.biggest_swing.map(|b| b.0), Some(1));
    }

    #[test]
    fn the_answer_the_judge_expected_is_named_where_the_game_went() {
        let moves = with_movers(&["d1^d5h5", "c3xd5.m0"]);
        let mut first = at(0, 0.8, Some(("d1^d5h5", 0.2)));
        first.played_line = vec!["d1^d5h5".into(), "h8xh5.m1".into(), "d5xa8.m1".into()];
        let mut second = at(1, 0.2, Some(("c3xd5.m0", 0.7)));
        // The judge's line went through the outcome that was not drawn.
        second.played_line = vec!["c3xd5.m1".into(), "e8d7".into()];
        let review = Review {
            version: VERSION,
            by: "test".into(),
            marks: true,
            positions: vec![first, second, at(2, 0.2, None)],
        };
        let v = verdicts(&review, &moves);
        let first = v[0].as_ref().unwrap();
        assert_eq!(first.reply.as_deref(), Some("h8xh5"));
        assert_eq!(
            first.words(),
            "blunder: gave away 0.60 of a point, met by h8xh5; best best"
        );
        assert_eq!(first.to_json()["reply"], "h8xh5");
        let second = v[1].as_ref().unwrap();
        assert_eq!(second.mark, Some(Mark::Blunder));
        assert_eq!(second.reply, None);
        let with_line = |line: &[&str]| Judged {
            played_line: line.iter().map(|m| m.to_string()).collect(),
            ..at(0, 0.5, None)
        };
        assert_eq!(
            reply(&with_line(&["c3xd5.m0", "e8d7"]), "c3xd5.m0").as_deref(),
            Some("e8d7")
        );
        assert_eq!(
            reply(&with_line(&["e2e4"]), "e2e4"),
            None,
            "the game ended there"
        );
        // The best move played: its answer is the best line's second move.
        let best = Judged {
            line: vec!["e2e4".into(), "e7e5".into()],
            ..at(0, 0.5, None)
        };
        assert_eq!(reply(&best, "e2e4").as_deref(), Some("e7e5"));
        assert_eq!(reply(&best, "d2d4"), None, "the line of another move");
    }

    #[test]
    fn marks_by_threshold() {
        assert_eq!(Mark::of(0.05), None);
        assert_eq!(Mark::of(0.1), Some(Mark::Inaccuracy));
        assert_eq!(Mark::of(0.25), Some(Mark::Mistake));
        assert_eq!(Mark::of(0.3), Some(Mark::Blunder));
        assert_eq!(Mark::Blunder.symbol(), "??");
    }
}
