//! The lessons, in the order a chess player needs them: how a game is won, the king
//! without check, split, the numbers, merge, moving through a maybe-occupied square,
//! captures, taking a piece that is only partly there, excluded moves, en passant,
//! promotion, castling, what happened, the inspector, the computer.

use crate::chess::explain::{Cause, MoveKind};
use crate::chess::threat::king_threat;
use crate::chess::{Game, Kind, PlayedMove, Shape, Square, Status};
use crate::format::percent;

/// What a try at a lesson's task came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The task is done; what it showed.
    Done(String),
    /// Not what the task asked; why, and what to do.
    Retry(String),
}

/// What a lesson asks the player to do.
#[derive(Clone, Copy, Debug)]
pub enum Goal {
    /// A move, judged by this check from the game after it and the move.
    Move(fn(&Game, &PlayedMove) -> Verdict),
    /// Open the explanation of the last move (`e`).
    Explain,
    /// Open the inspector on this square (`i`).
    Inspect(&'static str),
    /// Ask the computer for a hint (`H`).
    Hint,
}

/// One lesson.
#[derive(Clone, Copy, Debug)]
pub struct Lesson {
    /// Its title.
    pub title: &'static str,
    /// The position it starts from.
    pub fen: &'static str,
    /// Moves played from there before the player takes over (outcomes forced).
    pub setup: &'static [&'static str],
    /// What it teaches: at most six lines at 80 columns.
    pub text: &'static str,
    /// The task, in one line.
    pub task: &'static str,
    /// How the task is checked.
    pub goal: Goal,
}

impl Lesson {
    /// The lesson's position, ready for the player (`seed` draws the outcomes of the
    /// player's measurements).
    pub fn game(&self, seed: u64) -> Game {
        let opts = crate::chess::GameOptions {
            seed,
            ..Default::default()
        };
        let mut g = Game::from_fen(self.fen, opts).expect("every lesson's FEN is valid");
        for m in self.setup {
            g.play(m).expect("every lesson's setup moves are legal");
        }
        g
    }
}

fn sq(s: &str) -> Square {
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
fn other(m: &PlayedMove, asked: &str) -> Verdict {
    Verdict::Retry(format!("{} is not {asked}", m.played))
}

fn take_king(g: &Game, m: &PlayedMove) -> Verdict {
    if g.status() == Status::WhiteWins {
        Verdict::Done("the king is gone: White wins. No check was needed, only the capture.".into())
    } else {
        Verdict::Retry(format!(
            "{} does not take the king: the rook on e1 reaches e8",
            m.played
        ))
    }
}

fn king_safe(g: &Game, _m: &PlayedMove) -> Verdict {
    match king_threat(g, crate::chess::Color::White) {
        None => Verdict::Done(
            "no black move can capture your king now. The rules would have let you stay, and lose."
                .into(),
        ),
        Some(t) => Verdict::Retry(format!(
            "your king can still be captured: {}% by {}",
            percent(t.p),
            t.by
        )),
    }
}

fn split_knight(_g: &Game, m: &PlayedMove) -> Verdict {
    match m.class.text.shape {
        Shape::Split { from, to1, to2 }
            if from == sq("b1") && [to1, to2].contains(&sq("a3")) && [to1, to2].contains(&sq("c3")) =>
        {
            Verdict::Done(
                "the knight stands on a3 and on c3, 50% each: one knight, found on one square only if you look.".into(),
            )
        }
        _ => other(m, "a split of the knight on b1 to a3 and c3"),
    }
}

fn split_half(g: &Game, m: &PlayedMove) -> Verdict {
    match m.class.text.shape {
        Shape::Split { from, to1, to2 } if from == sq("c3") => {
            let quarter = |s: Square| (g.probability(s) - 0.25).abs() < 1e-9;
            if quarter(to1) && quarter(to2) {
                Verdict::Done(format!(
                    "the 50% on c3 is shared: {to1} 25%, {to2} 25%, and a3 keeps its 50%. Together 100%."
                ))
            } else {
                other(m, "a split of the half on c3 to two empty squares")
            }
        }
        _ => other(m, "a split of the half on c3"),
    }
}

fn merge_home(g: &Game, m: &PlayedMove) -> Verdict {
    match m.class.text.shape {
        Shape::Merge { to, .. } if to == sq("b1") && g.probability(to) > 1.0 - 1e-9 => {
            Verdict::Done("the halves came together: the knight is certainly on b1 again.".into())
        }
        // A merge elsewhere may also make the knight whole (b5 is a knight's move from
        // both a3 and c3): say what happened, and what the task asked.
        Shape::Merge { to, .. } if g.probability(to) > 1.0 - 1e-9 => Verdict::Retry(format!(
            "the halves merged on {to}: a whole knight again, but on {to}; the task asks to bring it home to b1"
        )),
        Shape::Merge { to, .. } => Verdict::Retry(format!(
            "the halves merged on {to}, where the knight now stands {}%: merge them on b1, the square both came from",
            percent(g.probability(to))
        )),
        _ => other(m, "a merge of the two halves on b1"),
    }
}

fn slide_through(g: &Game, m: &PlayedMove) -> Verdict {
    if m.explained.kind == MoveKind::Slide && from_to(m) == Some((sq("a1"), sq("a5"))) {
        Verdict::Done(format!(
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

fn capture_asks(_g: &Game, m: &PlayedMove) -> Verdict {
    if from_to(m) == Some((sq("c3"), sq("d5"))) && m.explained.kind == MoveKind::Capture {
        Verdict::Done(answered(
            m,
            "the knight was on c3 and took the pawn; the half on a3 vanished, ruled out by the answer",
            "the knight was not on c3, so it is certainly on a3; the capture did not happen and the turn is used",
        ))
    } else {
        other(m, "the knight's capture from c3 on d5")
    }
}

fn capture_half(g: &Game, m: &PlayedMove) -> Verdict {
    if from_to(m) != Some((sq("e5"), sq("f6"))) {
        return other(m, "the pawn's capture from e5 on f6");
    }
    let taken = m
        .explained
        .with_cause(Cause::Captured)
        .find_map(|c| c.captured)
        .unwrap_or(0.0);
    Verdict::Done(format!(
        "the knight was taken only where it stood on f6: {}%. The pawn is on f6 {}% and still on e5 {}%, tied to the knight on h6.",
        percent(taken),
        percent(g.probability(sq("f6"))),
        percent(g.probability(sq("e5")))
    ))
}

fn excluded(_g: &Game, m: &PlayedMove) -> Verdict {
    if m.explained.kind == MoveKind::Excluded && from_to(m) == Some((sq("c2"), sq("c3"))) {
        Verdict::Done(answered(
            m,
            "c3 was empty, so the pawn stepped there and the knight is certainly on a3",
            "c3 was occupied by your knight, so the pawn stayed; the knight is certainly on c3 and the turn is used",
        ))
    } else {
        other(m, "the pawn's step from c2 to c3")
    }
}

fn en_passant(_g: &Game, m: &PlayedMove) -> Verdict {
    if m.explained.kind == MoveKind::EnPassant {
        Verdict::Done("the pawn on d5 is taken as if it had stepped to d6 only.".into())
    } else {
        other(m, "the en passant capture e5 to d6")
    }
}

fn promote(_g: &Game, m: &PlayedMove) -> Verdict {
    match m.class.text.promotion {
        Some(Kind::Queen) => {
            Verdict::Done("the pawn is a queen now, in every case where it arrived.".into())
        }
        Some(k) => Verdict::Retry(format!(
            "that made a {}; the task asks for a queen (press q when asked)",
            k.name()
        )),
        None => other(m, "the promotion of the pawn on b7"),
    }
}

fn castle(_g: &Game, m: &PlayedMove) -> Verdict {
    if m.explained.kind == MoveKind::Castling {
        Verdict::Done("king to g1, rook to f1, in one move, as in chess.".into())
    } else {
        other(m, "castling on the king's side (king e1 to g1)")
    }
}

/// Every lesson, in order.
pub const LESSONS: &[Lesson] = &[
    Lesson {
        title: "Win by taking the king",
        fen: "4k3/8/8/8/8/8/8/4RK2 w - - 0 1",
        setup: &[],
        text: "Quantum Chess is chess with two more moves and one rule less: there is no check \
               and no mate. You win by capturing the king. A game is also over after 50 moves \
               without a capture, or when a position comes back a third time: then every square \
               is looked at, and the result follows from the board that is found.",
        task: "Capture the black king with your rook (pick the rook, then e8).",
        goal: Goal::Move(take_king),
    },
    Lesson {
        title: "No check: mind your king",
        fen: "4r2k/8/8/8/8/8/8/4K3 w - - 0 1",
        setup: &[],
        text: "Nothing stops a king from standing where it can be taken, and nothing forces \
               you to save it. The status line warns you instead: \"king attacked: 100% by \
               e8xe1\", and the king's square is marked. In a game, a move that would leave \
               your safe king open is asked about first (y plays it anyway).",
        task: "Move your king to a square the rook cannot reach.",
        goal: Goal::Move(king_safe),
    },
    Lesson {
        title: "Split",
        fen: "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
        setup: &[],
        text: "A knight, bishop, rook, queen or king may move to two squares at once. It stays \
               one piece: it stands on each square with a chance, 50% and 50% from a square \
               where it was certain. Found on one square, it is not on the other. Pawns never \
               split, and a split never captures.",
        task: "Split the knight on b1 to a3 and c3: press s on it, then a3 and c3.",
        goal: Goal::Move(split_knight),
    },
    Lesson {
        title: "What the numbers mean",
        fen: "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
        setup: &["b1^a3c3", "e8e7"],
        text: "The number on a square is the chance that the piece would be found there if you \
               looked now. The chances of one piece add up to 100%. Split a half again and its \
               share is divided between the two new squares; the other half keeps its own.",
        task: "Split the half on c3 again, to two empty squares (s on c3).",
        goal: Goal::Move(split_half),
    },
    Lesson {
        title: "Merge",
        fen: "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
        setup: &["b1^a3c3", "e8e7"],
        text: "A merge plays a split backwards: the two halves of a piece move to one square. \
               Halves that came from one split and go back where they came from come back \
               whole. A merge never captures.",
        task: "Bring the halves together on b1: m on a3, then c3, then b1.",
        goal: Goal::Move(merge_home),
    },
    Lesson {
        title: "Through a square that may be occupied",
        fen: "4k3/8/8/8/8/8/8/RN2K3 w - - 0 1",
        setup: &["b1^a3c3", "e8e7"],
        text: "A bishop, rook or queen whose path crosses a square that holds a piece with some \
               chance goes only in the cases where that square is empty. Nothing is asked yet: \
               the slider is partly moved and partly home, and its fate is tied to the other \
               piece's. Pieces tied like this are entangled.",
        task: "Move the rook from a1 to a5, past a3 where the knight may stand.",
        goal: Goal::Move(slide_through),
    },
    Lesson {
        title: "A capture asks first",
        fen: "4k3/8/8/3p4/8/8/8/1N2K3 w - - 0 1",
        setup: &["b1^a3c3", "e8e7"],
        text: "A capture first asks whether it can happen: is your piece on its square, and \
               is a slider's path clear? The answer is drawn with its chance, and every piece \
               tied to it changes at once. A \"no\" spends your turn. Either answer is fine \
               here: see what each does.",
        task: "Capture the pawn on d5 with the knight from c3.",
        goal: Goal::Move(capture_asks),
    },
    Lesson {
        title: "Taking a piece that is only partly there",
        fen: "4k1n1/8/8/4P3/8/8/8/4K3 b - - 0 1",
        setup: &["g8^f6h6"],
        text: "A capture takes a piece only in the cases where it stands on the target square. \
               A pawn that captures moves only in those cases and stays home in the others. \
               This capture asks nothing, because your pawn is surely on e5.",
        task: "Capture the knight on f6 with the pawn on e5.",
        goal: Goal::Move(capture_half),
    },
    Lesson {
        title: "Excluded moves",
        fen: "4k3/8/8/8/8/8/2P5/1N2K3 w - - 0 1",
        setup: &["b1^a3c3", "e8e7"],
        text: "A piece cannot move onto a square held by a piece it cannot take: your own \
               piece, or anything in front of a pawn. When that square is only maybe occupied, \
               the move asks first whether it is empty, and goes on only if it is.",
        task: "Step the pawn from c2 to c3, where half of your knight stands.",
        goal: Goal::Move(excluded),
    },
    Lesson {
        title: "Pawns: en passant",
        fen: "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1",
        setup: &["d7d5"],
        text: "Pawns step, push two from home, capture and take en passant as in chess. A \
               pawn's step onto a maybe-occupied square asks whether it is empty; a pawn's \
               capture moves the pawn only where it took something. Black just pushed its \
               pawn past yours.",
        task: "Take it en passant: your pawn from e5 to d6.",
        goal: Goal::Move(en_passant),
    },
    Lesson {
        title: "Pawns: promotion",
        fen: "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
        setup: &[],
        text: "A pawn that reaches the last rank becomes the piece you name, in every case \
               where it arrived. Type it with the move (b7b8q), or pick the square and answer \
               q, r, b or n.",
        task: "Promote the pawn on b7 to a queen.",
        goal: Goal::Move(promote),
    },
    Lesson {
        title: "Castling",
        fen: "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        setup: &[],
        text: "Castling is the king's move two squares towards a rook that never moved, the \
               rook jumping over. When a square between may be occupied, castling asks first \
               whether it is empty, like any move onto a maybe-occupied square.",
        task: "Castle on the king's side: the king from e1 to g1.",
        goal: Goal::Move(castle),
    },
    Lesson {
        title: "Reading what happened",
        fen: "4k3/8/8/3p4/8/8/8/1N2K3 w - - 0 1",
        setup: &["b1^a3c3", "e8e7", "c3xd5.m1"],
        text: "The message line says what the last move did. History lists every move; under \
               one that asked, its answer and what vanished. Circuit draws the gates of the \
               shown move (c: drawing or list). Probabilities shows the square under the \
               cursor and the pieces tied to it. e tells the shown move in full.",
        task: "Press e to read the whole story of the last move.",
        goal: Goal::Explain,
    },
    Lesson {
        title: "The inspector",
        fen: "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
        setup: &["b1^a3c3", "e8e7"],
        text: "The inspector shows how one square is tied to the others: a heat map of how \
               much each square is entangled with it, pair by pair. Press Enter on a second \
               square for their Bell values, the way physicists measure such ties. Here the \
               knight's two halves are tied: found on a3 it is not on c3, so c3 is warm.",
        task: "Put the cursor on a3 and press i.",
        goal: Goal::Inspect("a3"),
    },
    Lesson {
        title: "Playing the computer",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        setup: &[],
        text: "qchess play --engine black --level 3 gives you the computer as Black, from level \
               1 (quick) to 5 (strong). It thinks over the exact chances of every position. \
               H asks it for your best move at any time: the hint shows on the message line and \
               as * * on the board.",
        task: "Press H for a hint.",
        goal: Goal::Hint,
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::wrap;

    #[test]
    fn the_inspector_lesson_shows_what_its_text_says() {
        let l = LESSONS
            .iter()
            .find(|l| l.title == "The inspector")
            .expect("the inspector's lesson");
        assert!(matches!(l.goal, Goal::Inspect("a3")));
        let g = l.game(1);
        let b = g.simulator().backend();
        let with =
            |o: &str| crate::quantum::bell::log_negativity(b, sq("a3").0 as u16, sq(o).0 as u16);
        assert!(
            (with("c3") - 1.0).abs() < 1e-9,
            "c3 is warm: {}",
            with("c3")
        );
        assert!(l.text.contains("c3 is warm"));
    }

    #[test]
    fn a_merge_elsewhere_is_told_as_it_is() {
        let l = LESSONS
            .iter()
            .find(|l| l.title == "Merge")
            .expect("the merge lesson");
        let Goal::Move(check) = l.goal else {
            panic!("a move lesson");
        };
        let mut g = l.game(1);
        let m = g.play("a3c3^b5").unwrap().clone();
        match check(&g, &m) {
            Verdict::Retry(why) => {
                assert!(why.contains("a whole knight again, but on b5"), "{why}")
            }
            v => panic!("{v:?}"),
        }
        let mut g = l.game(1);
        let m = g.play("a3c3^b1").unwrap().clone();
        assert!(matches!(check(&g, &m), Verdict::Done(_)));
    }

    #[test]
    fn every_lesson_starts_and_fits_six_lines_at_80_columns() {
        assert!(LESSONS.len() >= 12);
        for (i, l) in LESSONS.iter().enumerate() {
            let g = l.game(1);
            assert_eq!(g.status(), Status::Ongoing, "lesson {}", i + 1);
            let lines = wrap(l.text, 78);
            assert!(lines.len() <= 6, "lesson {}: {} lines", i + 1, lines.len());
            assert!(l.task.len() <= 78, "lesson {}: task too long", i + 1);
        }
    }
}
