//! What a review says about each move: how much expected result it gave away against
//! the best move (the marks), how much its measurement's outcome changed (luck), and a
//! summary per player.
//!
//! A move's **loss** is, from its mover's side, the expected result of the best move
//! minus that of the move played, both judged before the outcome of any measurement
//! (a capture that may fail is worth its chances): never below 0 (a move the engine
//! judged better than its own best is no loss). Marks: inaccuracy from [`INACCURACY`],
//! mistake from [`MISTAKE`], blunder from [`BLUNDER`]. Two things a chess player counts
//! whatever the expected result's scale (which is flat near a won or lost game: a rook
//! hung there moves it by 0.01):
//!
//! * a move that turns a game not lost by force into one the other side wins by force
//!   (a certain king capture on the judge's line) is a blunder, "allowed the king to be
//!   captured"; where the game was already lost by force the review says so, unmarked;
//! * a move that gives away [`MATERIAL`] centipawns or more against the best move, both
//!   lines certain (no move of them measures with a chance either way), is at least a
//!   mistake: material given away for nothing.
//!
//! A measuring move's **luck** is what its outcome changed: the expected result after
//! it minus the mean over its outcomes. From [`LUCK`] either way it is marked as a turn
//! of luck, with the outcome's chance, apart from the marks (a lucky blunder is both).

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
/// Change by a measurement's outcome from which it is a turn of luck (a 50% capture
/// that wins a rook in an even position moves it by about 0.15 to 0.2).
pub const LUCK: f64 = 0.15;
/// Centipawns given away on a certain line from which a move is at least a mistake:
/// a minor piece (a knight is 310) less what the position's terms may say otherwise.
pub const MATERIAL: f64 = 250.0;

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// Gave away at least [`INACCURACY`].
    Inaccuracy,
    /// Gave away at least [`MISTAKE`], or [`MATERIAL`] for nothing.
    Mistake,
    /// Gave away at least [`BLUNDER`], or allowed the king to be captured.
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

/// A game decided by force around a move, from its mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forced {
    /// The move let the other side win by force (a certain capture of the king on the
    /// judge's line) where the game was not lost by force before it.
    AllowedKingCapture,
    /// The game was already lost by force before the move.
    AlreadyLost,
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
    /// The move the other side played next, as recorded.
    pub answer: Option<String>,
    /// The other side's best reply to the move, as the judge expected it (without an
    /// outcome), when the judge's line after the move played has one in the outcome
    /// that was drawn.
    pub best_reply: Option<String>,
    /// Expected result the move gave away, from the mover's side (0 or more).
    pub loss: f64,
    /// Pawns' worth of material given away for nothing (both lines certain), when
    /// [`MATERIAL`] or more.
    pub material: Option<f64>,
    /// Whether the game was decided by force around the move.
    pub forced: Option<Forced>,
    /// The mark the move earns.
    pub mark: Option<Mark>,
    /// What the outcome of its measurement changed, from the mover's side, when
    /// [`LUCK`] or more either way.
    pub luck: Option<f64>,
    /// The chance of the outcome its measurement drew, where known.
    pub chance: Option<f64>,
}

impl Verdict {
    /// Whether the move is marked (a mark or a turn of luck).
    pub fn marked(&self) -> bool {
        self.mark.is_some() || self.luck.is_some()
    }

    /// Whether the review has something to say of the move: a mark, a turn of luck, or
    /// a game already lost by force.
    pub fn said(&self) -> bool {
        self.marked() || self.forced.is_some()
    }

    /// "blunder: allowed the king to be captured (gave away 0.15 of a point), met by
    /// c8xd7 (best reply b8xd7); best g1f3", "lucky: the 50% outcome won 0.20 of a
    /// point (0.15 or more counts as luck)": the verdict in a chess player's words (a
    /// win is one point), empty for a move with nothing to say.
    pub fn words(&self) -> String {
        let mut parts = Vec::new();
        if self.forced == Some(Forced::AlreadyLost) {
            parts.push("the game was already lost by force".to_string());
        }
        if let Some(m) = self.mark {
            let what = match (self.forced, self.material) {
                (Some(Forced::AllowedKingCapture), _) => format!(
                    "allowed the king to be captured (gave away {:.2} of a point)",
                    self.loss
                ),
                (_, Some(pawns)) => format!(
                    "gave away {pawns:.1} pawns' worth for nothing ({:.2} of a point)",
                    self.loss
                ),
                _ => format!("gave away {:.2} of a point", self.loss),
            };
            let best = self
                .best
                .as_deref()
                .map(|b| format!("; best {b}"))
                .unwrap_or_default();
            parts.push(format!("{}: {what}{}{best}", m.name(), self.replies()));
        }
        if let Some(l) = self.luck {
            let what = match self.chance {
                Some(p) => format!("the {}% outcome", crate::format::percent(p)),
                None => "the measurement".to_string(),
            };
            let how = if l > 0.0 {
                format!("lucky: {what} won")
            } else {
                format!("unlucky: {what} cost")
            };
            parts.push(format!(
                "{how} {:.2} of a point ({LUCK:.2} or more counts as luck)",
                l.abs()
            ));
        }
        parts.join("; ")
    }

    /// ", met by c8xd7 (best reply b8xd7)": the move the other side played, and the
    /// reply the judge expected when it was another.
    fn replies(&self) -> String {
        let same = |a: &str, b: &str| match (notation::parse(a), notation::parse(b)) {
            (Ok(a), Ok(b)) => a.same_move(&b),
            _ => a == b,
        };
        match (&self.answer, &self.best_reply) {
            (Some(a), Some(b)) if same(a, b) => format!(", met by {a} (the best reply)"),
            (Some(a), Some(b)) => format!(", met by {a} (best reply {b})"),
            (Some(a), None) => format!(", met by {a}"),
            (None, Some(b)) => format!("; best reply {b}"),
            (None, None) => String::new(),
        }
    }

    /// The verdict in a narrow pane: "d1e2?! -0.18 best e4xd5", "e1e2?? allows Kx best
    /// a1a8", "a1e1? -5 pawns best a1a2", "h5xe8.m0 unlucky -0.44 (50%)".
    pub fn short(&self) -> String {
        let mut out = self.mv.clone();
        if self.forced == Some(Forced::AlreadyLost) {
            out += " lost by force already";
        }
        if let Some(m) = self.mark {
            out += m.symbol();
            out += &match (self.forced, self.material) {
                (Some(Forced::AllowedKingCapture), _) => " allows Kx".to_string(),
                (_, Some(pawns)) => format!(" -{pawns:.0} pawns"),
                _ => format!(" -{:.2}", self.loss),
            };
            if let Some(b) = &self.best {
                out += &format!(" best {b}");
            }
        }
        if let Some(l) = self.luck {
            let how = if l > 0.0 { "lucky" } else { "unlucky" };
            out += &format!(" {how} {l:+.2}");
            if let Some(p) = self.chance {
                out += &format!(" ({}%)", crate::format::percent(p));
            }
        }
        out
    }

    /// The verdict for scripts: `ply`, `move`, `expected`, `best`, `best_line`,
    /// `answer`, `best_reply`, `loss`, `material`, `forced`, `mark`, `luck`, `chance`.
    pub fn to_json(&self) -> serde_json::Value {
        json!({
            "ply": self.ply,
            "side": self.mover.name(),
            "move": self.mv,
            "expected": round(self.expected),
            "best": self.best,
            "best_line": self.best_line,
            "answer": self.answer,
            "best_reply": self.best_reply,
            "loss": round(self.loss),
            "material": self.material.map(round),
            "forced": self.forced.map(|f| match f {
                Forced::AllowedKingCapture => "allowed_king_capture",
                Forced::AlreadyLost => "already_lost",
            }),
            "mark": self.mark.map(Mark::name),
            "luck": self.luck.map(round),
            "chance": self.chance.filter(|_| self.luck.is_some()),
        })
    }
}

/// The moves of `game` as a review reads them: each as recorded, with who played it.
pub fn moves_of(game: &dyn Playable) -> Vec<(String, Color)> {
    game.history()
        .iter()
        .map(|r| (r.text.clone(), r.color))
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
            // A result of exactly 0 is a game lost by force: the curve gives it only
            // to a finished game or a king capture the search proved.
            let lost = |white: f64| for_side(white, mover) == 0.0;
            let forced = if lost(before.expected) {
                Some(Forced::AlreadyLost)
            } else if lost(played) {
                Some(Forced::AllowedKingCapture)
            } else {
                None
            }
            .filter(|_| review.marks);
            let material = material_given(before, mover);
            let mark = match forced {
                Some(Forced::AlreadyLost) => None,
                Some(Forced::AllowedKingCapture) => Some(Mark::Blunder),
                None => Mark::of(loss).max(material.map(|_| Mark::Mistake)),
            };
            Some(Verdict {
                ply: i + 1,
                mover,
                mv: mv.clone(),
                expected: after.expected,
                before: before.expected,
                best: before.best.clone(),
                best_line: before.line.clone(),
                answer: moves.get(i + 1).map(|(m, _)| m.clone()),
                best_reply: reply(before, mv),
                loss,
                material,
                forced,
                mark: mark.filter(|_| review.marks),
                luck: change.filter(|c| c.abs() >= LUCK),
                chance: before.drawn_chance,
            })
        })();
        out.push(v);
    }
    out
}

/// The pawns' worth the move played from `before` gave away against the best move,
/// from `mover`'s side, when both lines are certain, neither is a game decided by force
/// (whose scores are not material), and it is [`MATERIAL`] or more.
fn material_given(before: &Judged, mover: Color) -> Option<f64> {
    let decided = |white: f64| white == 0.0 || white == 1.0;
    if decided(before.expected) || before.played_expected.is_none_or(decided) {
        return None;
    }
    let given = for_side_cp(before.best_cp? - before.played_cp?, mover);
    (given >= MATERIAL).then_some(given / 100.0)
}

/// Centipawns for White seen from `side`.
fn for_side_cp(white: f64, side: Color) -> f64 {
    match side {
        Color::White => white,
        Color::Black => -white,
    }
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
            best_cp: None,
            played_cp: None,
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
                // falls from 0.25 to 0.05: +0.20 for Black, a turn of luck.
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
        assert!((second.luck.unwrap() - 0.2).abs() < 1e-9);
        // Ply 3 has no position after it.
        assert!(v[2].is_none());
        assert_eq!(
            first.words(),
            "blunder: gave away 0.35 of a point, met by d8xh4.m1; best best"
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
        assert_eq!(
            v.words(),
            "lucky: the measurement won 0.40 of a point (0.15 or more counts as luck)"
        );
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
        // The game went c3xd5.m0, not the judge's h8xh5: the move played is named,
        // the judge's as the best reply.
        assert_eq!(first.best_reply.as_deref(), Some("h8xh5"));
        assert_eq!(first.answer.as_deref(), Some("c3xd5.m0"));
        assert_eq!(
            first.words(),
            "blunder: gave away 0.60 of a point, met by c3xd5.m0 (best reply h8xh5); best best"
        );
        assert_eq!(first.to_json()["best_reply"], "h8xh5");
        assert_eq!(first.to_json()["answer"], "c3xd5.m0");
        let second = v[1].as_ref().unwrap();
        assert_eq!(second.mark, Some(Mark::Blunder));
        assert_eq!(second.best_reply, None);
        assert_eq!(second.answer, None, "the last move");
        // The answer the judge expected, played: named once.
        let mut met = first.clone();
        met.answer = Some("h8xh5.m1".into());
        assert!(
            met.words()
                .contains(", met by h8xh5.m1 (the best reply); best"),
            "{}",
            met.words()
        );
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

    /// A review of one move, `mv` by White, from a position worth `before` to White
    /// with the move played worth `played`, White's result `after` it.
    fn one_move(mv: &str, before: f64, played: f64, after: f64) -> Review {
        Review {
            version: VERSION,
            by: "test".into(),
            marks: true,
            positions: vec![at(0, before, Some((mv, played))), at(1, after, None)],
        }
    }

    fn verdict_of(review: &Review) -> Verdict {
        let mv = review.positions[0].played.clone().unwrap();
        verdicts(review, &with_movers(&[&mv]))[0].clone().unwrap()
    }

    #[test]
    fn letting_the_king_be_captured_is_a_blunder_from_a_bad_position_too() {
        // White stood badly (0.15) and left the king to a certain capture: 0.15 given
        // away, an inaccuracy by the loss alone.
        let v = verdict_of(&one_move("e1e2", 0.15, 0.0, 0.0));
        assert_eq!(v.forced, Some(Forced::AllowedKingCapture));
        assert_eq!(v.mark, Some(Mark::Blunder));
        assert!(
            v.words().starts_with(
                "blunder: allowed the king to be captured (gave away 0.15 of a point)"
            ),
            "{}",
            v.words()
        );
        assert_eq!(v.short(), "e1e2?? allows Kx best best");
        assert_eq!(v.to_json()["forced"], "allowed_king_capture");
        // Lost by force already: said, not marked, and not counted.
        let v = verdict_of(&one_move("e1e2", 0.0, 0.0, 0.0));
        assert_eq!(v.forced, Some(Forced::AlreadyLost));
        assert_eq!(v.mark, None);
        assert!(v.said() && !v.marked());
        assert_eq!(v.words(), "the game was already lost by force");
        assert_eq!(Summary::of(&[Some(v)], Color::White).marks, [0, 0, 0]);
        // A game still going on, not proved lost: marked by its loss.
        let v = verdict_of(&one_move("e1e2", 0.15, 0.01, 0.01));
        assert_eq!((v.forced, v.mark), (None, Some(Mark::Inaccuracy)));
    }

    #[test]
    fn material_given_away_on_a_certain_line_is_at_least_a_mistake() {
        // White is lost (a queen down: 0.11) and hangs a rook: 0.01 of a point, 5
        // pawns of material.
        let mut review = one_move("a1a6", 0.11, 0.10, 0.10);
        review.positions[0].best_cp = Some(-1_480.0);
        review.positions[0].played_cp = Some(-1_990.0);
        let v = verdict_of(&review);
        assert_eq!(v.mark, Some(Mark::Mistake));
        assert_eq!(v.material, Some(5.1));
        assert!(
            v.words()
                .starts_with("mistake: gave away 5.1 pawns' worth for nothing (0.01 of a point)"),
            "{}",
            v.words()
        );
        assert_eq!(v.short(), "a1a6? -5 pawns best best");
        // Black's side: its centipawns count the other way.
        let mut black = review.clone();
        black.positions[0].best_cp = Some(1_990.0);
        black.positions[0].played_cp = Some(1_480.0);
        let v = verdicts(&black, &[("a8a3".into(), Color::Black)])[0]
            .clone()
            .unwrap();
        assert_eq!(v.material, None, "Black gained");
        // A line through a measurement has no centipawns kept: the loss alone marks.
        review.positions[0].played_cp = None;
        assert_eq!(verdict_of(&review).mark, None);
        // A pawn is not a piece.
        review.positions[0].played_cp = Some(-1_580.0);
        assert_eq!(verdict_of(&review).mark, None);
    }

    #[test]
    fn a_lucky_outcome_says_its_chance() {
        let mut review = one_move("b5xe8.m1", 0.5, 0.5, 0.6);
        review.positions[0].drawn_chance = Some(0.5);
        review.positions[0].other_expected = Some(0.2);
        let v = verdict_of(&review);
        // Half of the 0.4 between the outcomes: 0.20, a turn of luck.
        assert!((v.luck.unwrap() - 0.2).abs() < 1e-9);
        assert_eq!(v.chance, Some(0.5));
        assert_eq!(
            v.words(),
            "lucky: the 50% outcome won 0.20 of a point (0.15 or more counts as luck)"
        );
        assert_eq!(v.short(), "b5xe8.m1 lucky +0.20 (50%)");
        // Under the threshold: no turn of luck.
        review.positions[0].other_expected = Some(0.35);
        assert_eq!(verdict_of(&review).luck, None);
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
