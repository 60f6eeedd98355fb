//! A try at one lesson's task: a move judged by the lesson's check, a key that meets
//! the task, and what is said of either. No screen in it: the game screen takes a move
//! back or shows the words.

use super::checks::Checked;
use super::lessons::{Goal, Lesson, LESSONS};
use crate::chess::{Game, Square};

/// A task met by a key rather than a move, with what the screen showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Met {
    /// The explanation of a move was opened.
    Explained,
    /// The inspector was opened on `at`; the squares it shows tied to it.
    Inspected {
        /// The inspected square.
        at: Square,
        /// The warm squares on the inspector's map.
        warm: Vec<Square>,
    },
    /// A hint is shown, told in these words.
    Hinted(String),
}

/// What a lesson says to a move played for its task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judged {
    /// The task is done: the words that say so, with what comes next.
    Done(String),
    /// Not what the task asked: the move is taken back, and these words say why.
    TakeBack(String),
}

/// A try at the task of lesson `number`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attempt {
    number: usize,
    done: bool,
}

impl Attempt {
    /// A fresh try at lesson `number` (from 1).
    pub fn new(number: usize) -> Attempt {
        Attempt {
            number: number.clamp(1, LESSONS.len()),
            done: false,
        }
    }

    /// The lesson's number, from 1.
    pub fn number(&self) -> usize {
        self.number
    }

    /// The lesson.
    pub fn lesson(&self) -> &'static Lesson {
        &LESSONS[self.number - 1]
    }

    /// Whether the task is done.
    pub fn done(&self) -> bool {
        self.done
    }

    /// Judges the last move of `game` against a move task; `None` when the task is not
    /// a move, is done already, or no move was played.
    pub fn judge(&mut self, game: &Game) -> Option<Judged> {
        let (Goal::Move(check), false) = (self.lesson().goal, self.done) else {
            return None;
        };
        let last = game.history().last()?;
        Some(match check(game, last) {
            Checked::Done(words) => Judged::Done(self.finish(&words)),
            Checked::Retry(why) => Judged::TakeBack(format!(
                "not yet: {why}. The move was taken back; try again."
            )),
        })
    }

    /// A key met the task, when it is this lesson's and not done yet: the words that
    /// say it is done.
    pub fn met(&mut self, met: Met) -> Option<String> {
        if self.done {
            return None;
        }
        let words = match (self.lesson().goal, met) {
            (Goal::Explain, Met::Explained) => {
                "that is the whole story of a move. Any key closes it; [ ] pick another move."
                    .into()
            }
            (Goal::Inspect(want), Met::Inspected { at, warm })
                if Square::parse(want) == Some(at) =>
            {
                // Said from the map on screen, so that the words and the heat agree.
                let warm: Vec<String> = warm.iter().map(Square::to_string).collect();
                match warm.as_slice() {
                    [] => format!("nothing is tied to {at} here."),
                    w => format!("the warm squares are tied to {at}: {}.", w.join(", ")),
                }
            }
            // The hint itself stays in the Done line: it is what the player asked for.
            (Goal::Hint, Met::Hinted(hint)) => {
                format!("{hint}; it is marked * * on the board, Esc hides it.")
            }
            _ => return None,
        };
        Some(self.finish(&words))
    }

    /// Marks the task done; the words that say so, with what comes next.
    fn finish(&mut self, words: &str) -> String {
        self.done = true;
        let next = if self.number < LESSONS.len() {
            "n: next lesson"
        } else {
            "that was the last lesson"
        };
        format!("Done: {words} ({next})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The number of the first lesson whose goal matches.
    fn first(goal: impl Fn(&Goal) -> bool) -> usize {
        LESSONS
            .iter()
            .position(|l| goal(&l.goal))
            .expect("such a lesson")
            + 1
    }

    #[test]
    fn a_wrong_move_is_taken_back_and_a_right_one_is_done_once() {
        // Lesson 1: capture the king with the rook from e1.
        let mut a = Attempt::new(1);
        let start = a.lesson().game(1);
        assert_eq!(a.judge(&start), None, "no move yet");
        let after = |mv: &str| {
            let mut g = start.clone();
            g.play(mv).expect("a legal move");
            g
        };
        assert_eq!(
            a.judge(&after("e1e2")),
            Some(Judged::TakeBack(
                "not yet: e1e2 does not take the king: the rook on e1 reaches e8. The move was taken back; try again.".into()
            ))
        );
        assert!(!a.done());
        let won = after("e1e8");
        let Some(Judged::Done(words)) = a.judge(&won) else {
            panic!("done");
        };
        assert!(
            words.starts_with("Done: the king is gone") && words.ends_with("(n: next lesson)"),
            "{words}"
        );
        assert!(a.done());
        assert_eq!(a.judge(&won), None, "judged once");
    }

    #[test]
    fn keys_meet_only_their_own_task() {
        let n = first(|g| matches!(g, Goal::Inspect(_)));
        let mut a = Attempt::new(n);
        let Goal::Inspect(want) = a.lesson().goal else {
            unreachable!("an inspector lesson");
        };
        let at = Square::parse(want).expect("a square");
        assert_eq!(a.met(Met::Explained), None);
        let elsewhere = Square(if at.0 == 0 { 1 } else { 0 });
        let on = |at| Met::Inspected { at, warm: vec![] };
        assert_eq!(a.met(on(elsewhere)), None);
        assert_eq!(
            a.met(on(at)),
            Some(format!(
                "Done: nothing is tied to {at} here. (n: next lesson)"
            ))
        );
        assert_eq!(a.met(on(at)), None, "done once");

        let mut last = Attempt::new(LESSONS.len());
        let hint = matches!(last.lesson().goal, Goal::Hint);
        let said = last.met(Met::Hinted("hint: e2e4".into()));
        assert_eq!(
            said.is_some(),
            hint,
            "the last lesson takes a hint when its task is one"
        );
        if let Some(said) = said {
            assert!(said.ends_with("(that was the last lesson)"), "{said}");
        }
    }
}
