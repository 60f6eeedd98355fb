//! A try at one puzzle: each of the solver's moves judged exactly from the position
//! before it, the defence's best reply until the horizon, and how the try ended, in
//! words. No screen in it: the game screen plays the reply and shows the words.

use super::prove::{defence, judge_knowing, JudgeError, Judgement, ProveError};
use super::Goal;
use crate::chess::notation::parse;
use crate::chess::{Game, MoveText, PlayedMove, Status};

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
    /// What a puzzle's proof knows of the start: the optimum, a move that reaches it
    /// and the principal line, so that the first move and the reply to the line's
    /// first move need no search.
    known: Option<Known>,
}

/// A puzzle's proof of its start position.
#[derive(Clone, Debug)]
struct Known {
    value: f64,
    best: String,
    line: Vec<String>,
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

/// The principal line's reply when the move `last` that led to `after` is the line's
/// first move with the line's outcome: the reply the prover would choose, without the
/// search.
fn line_reply(line: &[String], last: &PlayedMove, after: &Game) -> Option<String> {
    let first = parse(line.first()?).ok()?;
    let same_move = MoveText {
        outcome: None,
        ..first
    } == last.class.text;
    if !same_move || first.outcome.is_some_and(|o| last.outcome != Some(o)) {
        return None;
    }
    let reply = MoveText {
        outcome: None,
        ..parse(line.get(1)?).ok()?
    };
    after.read(&reply.to_string()).ok()?;
    Some(reply.to_string())
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
            known: None,
        }
    }

    /// [`Attempt::new`], knowing the start's optimum `value`, a move `best` that
    /// reaches it and the principal `line` from it (a puzzle's proof).
    pub fn knowing(
        goal: Goal,
        start: Game,
        plies: u32,
        value: f64,
        best: &str,
        line: &[String],
    ) -> Attempt {
        Attempt {
            known: Some(Known {
                value,
                best: best.to_string(),
                line: line.to_vec(),
            }),
            ..Attempt::new(goal, start, plies)
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

    /// The proved best first move and the optimum, while the first move is still to
    /// play and the proof is known.
    pub fn known_best(&self) -> Option<(&str, f64)> {
        self.known.as_ref().map(|k| (k.best.as_str(), k.value))
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
        // Known only before the first move: taken by it.
        let known = self.known.take();
        let j = judge_knowing(
            &self.before,
            self.goal,
            self.plies_left,
            &text.to_string(),
            known.as_ref().map(|k| (k.value, k.best.as_str())),
        )?;
        self.judged.push(j);
        self.plies_left = self.plies_left.saturating_sub(1);
        if self.plies_left == 0 || after.status() != Status::Ongoing {
            return Ok(None);
        }
        let reply = match known.and_then(|k| line_reply(&k.line, last, after)) {
            Some(reply) => Some(reply),
            // The prover branches from a copy without the moves that led here.
            None => defence(&after.detached(), self.goal, self.plies_left)
                .map_err(AttemptError::Reply)?,
        };
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
    fn a_proof_known_judges_and_answers_as_the_search_does() {
        use crate::puzzles::prove::judge;
        let two_moves = || {
            let pack = crate::puzzles::pack().iter();
            pack.filter(|p| p.moves == 2 && p.line.len() > 1)
        };
        let measures = |p: &&crate::puzzles::Puzzle| p.line[0].contains(".m");
        let some = two_moves().filter(measures).take(6);
        let mut measured = 0;
        for p in some.chain(two_moves().filter(|p| !measures(p)).take(6)) {
            let plies = p.task().plies();
            let mut g = p.game().unwrap();
            let mut a = Attempt::knowing(p.goal, g.detached(), plies, p.value, &p.best[0], &p.line);
            let searched = judge(&g.detached(), p.goal, plies, &p.best[0]).unwrap();
            // The line's first move with its outcome: the line's reply, no search.
            let reply = played(&mut a, &mut g, &p.line[0]).expect("a reply");
            let defended = defence(&g.detached(), p.goal, plies - 1).unwrap();
            assert_eq!(Some(reply), defended, "{}", p.id);
            let told = &a.judged()[0];
            assert!((told.value - searched.value).abs() < 1e-9, "{}", p.id);
            assert!((told.best_value - searched.best_value).abs() < 1e-9);
            assert!(told.optimal());
            measured += usize::from(p.line[0].contains(".m"));
        }
        assert!(
            measured > 0,
            "a line that starts with a measurement is among them"
        );
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
