//! A try at one puzzle: each of the solver's moves judged exactly from the position
//! before it, the defence's best reply until the horizon, and how the try ended, in
//! words. No screen in it: the game screen plays the reply and shows the words.

use super::prove::{defence, judge, JudgeError, Judgement, ProveError};
use super::Goal;
use crate::chess::{Game, Status};

/// A try at one puzzle.
#[derive(Clone, Debug)]
pub struct Attempt {
    goal: Goal,
    /// The position before the solver's next move (what it is judged from).
    before: Game,
    /// Plies left to the puzzle's horizon.
    plies_left: u32,
    /// The judgement of each of the solver's moves so far.
    judged: Vec<Judgement>,
}

/// Where a try stands after the solver's move and the defence's reply.
#[derive(Clone, Debug, PartialEq)]
pub enum TryStep {
    /// The try goes on: what is said of the move just judged (empty, or a sentence
    /// starting with a space).
    GoesOn(String),
    /// The try is over.
    Over(TryEnd),
}

/// How a try ended.
#[derive(Clone, Debug, PartialEq)]
pub struct TryEnd {
    /// Every move of the try reached the optimum.
    pub solved: bool,
    /// The judgement of the first move, in words.
    pub first: String,
    /// What the outcomes drawn this time did to the game, when it is worth saying
    /// (empty, or a sentence starting with a space).
    pub this_time: &'static str,
}

/// Why a move of a try could not be taken further.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AttemptError {
    /// The solver's move could not be judged.
    #[error("the move could not be judged: {0}")]
    Judge(#[from] JudgeError),
    /// The defence's reply could not be found.
    #[error("no reply: {0}")]
    Reply(ProveError),
}

impl Attempt {
    /// A try at a puzzle with `goal` from `start` (the solver to move), `plies` plies
    /// before the horizon.
    pub fn new(goal: Goal, start: Game, plies: u32) -> Attempt {
        Attempt {
            goal,
            before: start,
            plies_left: plies,
            judged: Vec::new(),
        }
    }

    /// The position before the solver's next move.
    pub fn before(&self) -> &Game {
        &self.before
    }

    /// Plies left to the horizon.
    pub fn plies_left(&self) -> u32 {
        self.plies_left
    }

    /// The judgement of each of the solver's moves so far.
    pub fn judged(&self) -> &[Judgement] {
        &self.judged
    }

    /// Judges the solver's move, the last one of `after` (played from
    /// [`Attempt::before`]), and gives the defence's best reply to play when the try
    /// goes on (`None` at the horizon or when the game ended).
    pub fn judge(&mut self, after: &Game) -> Result<Option<String>, AttemptError> {
        let Some(last) = after.history().last() else {
            return Ok(None);
        };
        let mut text = last.class.text;
        text.outcome = None;
        let j = judge(&self.before, self.goal, self.plies_left, &text.to_string())?;
        self.judged.push(j);
        self.plies_left = self.plies_left.saturating_sub(1);
        if self.plies_left == 0 || after.status() != Status::Ongoing {
            return Ok(None);
        }
        // The prover branches from a copy without the moves that led here.
        let reply =
            defence(&after.detached(), self.goal, self.plies_left).map_err(AttemptError::Reply)?;
        self.plies_left = self.plies_left.saturating_sub(1);
        Ok(reply)
    }

    /// Where the try stands with `now` on the board (after the reply, if there was
    /// one): it goes on from `now`, or it is over.
    pub fn verdict(&mut self, now: &Game) -> TryStep {
        if self.plies_left > 0 && now.status() == Status::Ongoing {
            self.before = now.detached();
            // Each move is judged as it is played, not only at the end of the try.
            let said = self.judged.last().map_or_else(String::new, |j| {
                if j.optimal() {
                    format!(
                        " The best move: {}% is still within reach.",
                        crate::format::percent(j.best_value)
                    )
                } else {
                    format!(" Not the best: {j}.")
                }
            });
            return TryStep::GoesOn(said);
        }
        let solved = self.judged.iter().all(Judgement::optimal);
        // A try is judged by its moves; the outcomes drawn this time may still have
        // ended the game either way: said beside the verdict, so they never read as
        // contradicting each other.
        let status = now.status();
        let won = status == Status::won_by(self.before.to_move());
        let this_time = match status {
            Status::Ongoing => "",
            Status::Draw => " This time the game ended drawn.",
            _ if won == solved => "",
            _ if won => " This time the chances fell your way and the game was won; the verdict is on your moves.",
            _ => " This time the chances fell against you and the game was lost; the verdict is on your moves.",
        };
        TryStep::Over(TryEnd {
            solved,
            first: self
                .judged
                .first()
                .map(|j| j.to_string())
                .unwrap_or_default(),
            this_time,
        })
    }
}

impl TryEnd {
    /// The words that close the try, with the solver's `rating` as shown and its
    /// `change`.
    pub fn words(&self, rating: i64, change: i64) -> String {
        let verdict = if self.solved { "Solved" } else { "Not solved" };
        format!(
            "{verdict}: {}.{} Your rating {rating} ({change:+}). b: the best line, r: again, n: next",
            self.first, self.this_time
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::GameOptions;

    fn start(fen: &str) -> Game {
        Game::from_fen(fen, GameOptions::default()).unwrap()
    }

    /// Plays `mv` on `game` for the solver and judges it.
    fn played(a: &mut Attempt, game: &mut Game, mv: &str) -> Option<String> {
        game.play(mv).unwrap();
        a.judge(game).unwrap()
    }

    #[test]
    fn a_one_move_try_is_over_after_the_move() {
        let fen = "4k3/8/8/8/8/8/8/4RK2 w - - 0 1";
        let mut g = start(fen);
        let mut a = Attempt::new(Goal::King, g.detached(), 1);
        assert_eq!(
            played(&mut a, &mut g, "e1e2"),
            None,
            "no reply at the horizon"
        );
        let TryStep::Over(end) = a.verdict(&g) else {
            panic!("the horizon ends the try");
        };
        assert!(!end.solved);
        assert_eq!(
            end.words(1180, -20),
            "Not solved: your line captures the king with 0%; the best captures it with 100%: e1xe8 first. Your rating 1180 (-20). b: the best line, r: again, n: next"
        );

        let mut g = start(fen);
        let mut a = Attempt::new(Goal::King, g.detached(), 1);
        played(&mut a, &mut g, "e1e8");
        let TryStep::Over(end) = a.verdict(&g) else {
            panic!("the horizon ends the try");
        };
        assert!(end.solved && end.this_time.is_empty(), "{end:?}");
        assert!(end.first.ends_with("the best there is"), "{}", end.first);
    }

    #[test]
    fn the_defence_answers_and_the_try_goes_on() {
        let mut g = start("7k/8/8/8/8/8/8/R3K1N1 w - - 0 1");
        let plies = crate::puzzles::Task {
            goal: Goal::King,
            moves: 2,
        }
        .plies();
        let mut a = Attempt::new(Goal::King, g.detached(), plies);
        let best = crate::puzzles::best_move(&g, Goal::King, plies)
            .unwrap()
            .unwrap()
            .0;
        let reply = played(&mut a, &mut g, &best).expect("the defender answers");
        assert_eq!(a.plies_left(), plies - 2);
        g.play(&reply).unwrap();
        let TryStep::GoesOn(said) = a.verdict(&g) else {
            panic!("one more move to go");
        };
        assert!(said.starts_with(" The best move: "), "{said}");
        assert_eq!(a.before().to_move(), g.to_move());
        assert_eq!(a.judged().len(), 1);
    }

    #[test]
    fn a_move_that_cannot_be_judged_is_an_error() {
        let mut a = Attempt::new(Goal::King, start("4k3/8/8/8/8/8/8/4RK2 w - - 0 1"), 1);
        // A move played elsewhere: from the try's position there is no piece on a1.
        let mut g = start("4k3/8/8/8/8/8/8/R4K2 w - - 0 1");
        g.play("a1a2").unwrap();
        let e = a.judge(&g).unwrap_err();
        assert!(
            e.to_string().starts_with("the move could not be judged: "),
            "{e}"
        );
        assert!(a.judged().is_empty());
        assert_eq!(a.plies_left(), 1);
    }
}
