//! How each lesson's task is judged: from the game after the move and the move, done
//! with what it showed (its numbers read from the state), or not yet with why.

use crate::chess::explain::{Cause, MoveKind};
use crate::chess::threat::king_threat;
use crate::chess::{Game, Kind, PlayedMove, Shape, Square, Status};
use crate::format::percent;

/// What a try at a lesson's task came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Checked {
    /// The task is done; what it showed.
    Done(String),
    /// Not what the task asked; why, and what to do.
    Retry(String),
}

pub(super) fn sq(s: &str) -> Square {
    Square::parse(s).expect("the lessons name real squares")
}

/// The move's source and single target, for a standard move.
fn from_to(m: &PlayedMove) -> Option<(Square, Square)> {
    match m.class.text.shape {
        Shape::Standard { from, to } => Some((from, to)),
        _ => None,
    }
}

/// "the knight on c3 moved, not ..." for a move that was not the one asked.
fn other(m: &PlayedMove, asked: &str) -> Checked {
    Checked::Retry(format!("{} is not {asked}", m.played))
}

pub(super) fn take_king(g: &Game, m: &PlayedMove) -> Checked {
    if g.status() == Status::WhiteWins {
        Checked::Done("the king is gone: White wins. No check was needed, only the capture.".into())
    } else {
        Checked::Retry(format!(
            "{} does not take the king: the rook on e1 reaches e8",
            m.played
        ))
    }
}

pub(super) fn king_safe(g: &Game, _m: &PlayedMove) -> Checked {
    match king_threat(g, crate::chess::Color::White) {
        None => Checked::Done(
            "no black move can capture your king now. The rules would have let you stay, and lose."
                .into(),
        ),
        Some(t) => Checked::Retry(format!(
            "your king can still be captured: {}% by {}",
            percent(t.p),
            t.by
        )),
    }
}

pub(super) fn split_knight(_g: &Game, m: &PlayedMove) -> Checked {
    match m.class.text.shape {
        Shape::Split { from, to1, to2 }
            if from == sq("b1") && [to1, to2].contains(&sq("a3")) && [to1, to2].contains(&sq("c3")) =>
        {
            Checked::Done(
                "the knight stands on a3 and on c3, 50% each: one knight, found on one square only if you look.".into(),
            )
        }
        _ => other(m, "a split of the knight on b1 to a3 and c3"),
    }
}

pub(super) fn split_half(g: &Game, m: &PlayedMove) -> Checked {
    match m.class.text.shape {
        Shape::Split { from, to1, to2 } if from == sq("c3") => {
            let quarter = |s: Square| (g.probability(s) - 0.25).abs() < 1e-9;
            if quarter(to1) && quarter(to2) {
                Checked::Done(format!(
                    "the 50% on c3 is shared: {to1} 25%, {to2} 25%, and a3 keeps its 50%. Together 100%."
                ))
            } else {
                other(m, "a split of the half on c3 to two empty squares")
            }
        }
        _ => other(m, "a split of the half on c3"),
    }
}

pub(super) fn merge_home(g: &Game, m: &PlayedMove) -> Checked {
    match m.class.text.shape {
        Shape::Merge { to, .. } if to == sq("b1") && g.probability(to) > 1.0 - 1e-9 => {
            Checked::Done("the halves came together: the knight is certainly on b1 again.".into())
        }
        // A merge elsewhere may also make the knight whole (b5 is a knight's move from
        // both a3 and c3): say what happened, and what the task asked.
        Shape::Merge { to, .. } if g.probability(to) > 1.0 - 1e-9 => Checked::Retry(format!(
            "the halves merged on {to}: a whole knight again, but on {to}; the task asks to bring it home to b1"
        )),
        Shape::Merge { to, .. } => Checked::Retry(format!(
            "the halves merged on {to}, where the knight now stands {}%: merge them on b1, the square both came from",
            percent(g.probability(to))
        )),
        _ => other(m, "a merge of the two halves on b1"),
    }
}

pub(super) fn slide_through(g: &Game, m: &PlayedMove) -> Checked {
    if m.explained.kind == MoveKind::Slide && from_to(m) == Some((sq("a1"), sq("a5"))) {
        Checked::Done(format!(
            "the rook went only where a3 was empty: a5 {}%, a1 {}%. Find the knight on a3 and the rook never left: they are entangled.",
            percent(g.probability(sq("a5"))),
            percent(g.probability(sq("a1")))
        ))
    } else {
        other(m, "the rook's move from a1 to a5")
    }
}

/// The answer of the move's question, in the lesson's words.
fn answered(m: &PlayedMove, yes: &str, no: &str) -> String {
    match &m.explained.asked {
        Some(a) if a.answer => format!("yes ({}%): {yes}", percent(a.p_answer())),
        Some(a) => format!("no ({}%): {no}", percent(a.p_answer())),
        None => yes.to_string(),
    }
}

pub(super) fn capture_asks(_g: &Game, m: &PlayedMove) -> Checked {
    if from_to(m) == Some((sq("c3"), sq("d5"))) && m.explained.kind == MoveKind::Capture {
        Checked::Done(answered(
            m,
            "the knight was on c3 and took the pawn; the half on a3 vanished, ruled out by the answer",
            "the knight was not on c3, so it is certainly on a3; the capture did not happen and the turn is used",
        ))
    } else {
        other(m, "the knight's capture from c3 on d5")
    }
}

pub(super) fn capture_half(g: &Game, m: &PlayedMove) -> Checked {
    if from_to(m) != Some((sq("e5"), sq("f6"))) {
        return other(m, "the pawn's capture from e5 on f6");
    }
    let taken = m
        .explained
        .with_cause(Cause::Captured)
        .find_map(|c| c.captured)
        .unwrap_or(0.0);
    Checked::Done(format!(
        "the knight was taken only where it stood on f6: {}%. The pawn is on f6 {}% and still on e5 {}%, tied to the knight on h6.",
        percent(taken),
        percent(g.probability(sq("f6"))),
        percent(g.probability(sq("e5")))
    ))
}

pub(super) fn excluded(_g: &Game, m: &PlayedMove) -> Checked {
    if m.explained.kind == MoveKind::Excluded && from_to(m) == Some((sq("c2"), sq("c3"))) {
        Checked::Done(answered(
            m,
            "c3 was empty, so the pawn stepped there and the knight is certainly on a3",
            "c3 was occupied by your knight, so the pawn stayed; the knight is certainly on c3 and the turn is used",
        ))
    } else {
        other(m, "the pawn's step from c2 to c3")
    }
}

pub(super) fn en_passant(_g: &Game, m: &PlayedMove) -> Checked {
    if m.explained.kind == MoveKind::EnPassant {
        Checked::Done("the pawn on d5 is taken as if it had stepped to d6 only.".into())
    } else {
        other(m, "the en passant capture e5 to d6")
    }
}

pub(super) fn promote(_g: &Game, m: &PlayedMove) -> Checked {
    match m.class.text.promotion {
        Some(Kind::Queen) => {
            Checked::Done("the pawn is a queen now, in every case where it arrived.".into())
        }
        Some(k) => Checked::Retry(format!(
            "that made a {}; the task asks for a queen (press q when asked)",
            k.name()
        )),
        None => other(m, "the promotion of the pawn on b7"),
    }
}

pub(super) fn castle(_g: &Game, m: &PlayedMove) -> Checked {
    if m.explained.kind == MoveKind::Castling {
        Checked::Done(
            "king to g1, rook to f1, in one move, though the rook on f8 attacks f1: no check, so no rule about attacked squares."
                .into(),
        )
    } else {
        other(m, "castling on the king's side (king e1 to g1)")
    }
}

/// The chances of `squares` after the move, as "a4 50%, b4 25%".
fn chances(g: &Game, squares: &[Square]) -> String {
    let each: Vec<String> = squares
        .iter()
        .map(|&s| format!("{s} {}%", percent(g.probability(s))))
        .collect();
    each.join(", ")
}

pub(super) fn split_onto_itself(g: &Game, m: &PlayedMove) -> Checked {
    let (a4, a6) = (sq("a4"), sq("a6"));
    match m.class.text.shape {
        // The half swap is with the first square picked, the whole swap with the second.
        Shape::Split { from, to1, to2 } if from == a4 && to2 == a6 => Checked::Done(format!(
            "{}: half of a4 went to {to1}, then a4 and a6 swapped, so the half that stood on a6 is back on a4.",
            chances(g, &[a4, to1, a6])
        )),
        Shape::Split { from, to1, to2 } if from == a4 && to1 == a6 => Checked::Done(format!(
            "{}: the half swap with a6 sent a quarter each way and left 50% on both; then a4's 50% moved on to {to2}.",
            chances(g, &[a6, to2])
        )),
        Shape::Split { from, .. } if from == a4 => {
            other(m, "a split onto a6, where the rook's other half stands")
        }
        _ => other(m, "a split of the half on a4"),
    }
}

pub(super) fn merge_partly(g: &Game, m: &PlayedMove) -> Checked {
    let halves = [sq("a4"), sq("d4")];
    match m.class.text.shape {
        Shape::Merge { from1, from2, to } if halves.contains(&from1) && halves.contains(&from2) => {
            Checked::Done(format!(
                "{}: the half on d4 moved once after the split, a quarter turn out of step, so only part came back. Had the a4 half moved once too, the merge would be whole.",
                chances(g, &[to, from2])
            ))
        }
        _ => other(m, "a merge of the rook's halves on a4 and d4"),
    }
}

pub(super) fn notation(_g: &Game, m: &PlayedMove) -> Checked {
    if m.explained.kind != MoveKind::Excluded || from_to(m) != Some((sq("c2"), sq("c3"))) {
        return other(m, "the pawn's step c2wc3");
    }
    if !m.input.contains('w') {
        return Checked::Retry(format!(
            "{} is the step as squares only; write it with the w that marks a move onto a square that may hold a piece it cannot take",
            m.input
        ));
    }
    let answer = match m.outcome {
        Some(true) => ".m1, its answer yes: c3 was empty and the pawn went on",
        Some(false) => ".m0, its answer no: your knight was on c3 and the pawn stayed",
        None => "no answer written: it was certain",
    };
    Checked::Done(format!(
        "{}: w, a step onto a square your knight may hold; {answer}.",
        m.played
    ))
}
