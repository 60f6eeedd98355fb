//! The question before a move that puts the player's own king in danger. A king that is
//! safe (the other side could take it now with a chance below [`SAFE_BELOW`]) and that
//! the move would leave capturable with a chance of [`ASK_AT`] or more is asked about
//! once: `y` plays the move, any other key cancels it and the game is unchanged. A
//! setting turns the question off ([`App::with_king_question`]); lessons and puzzles
//! never ask (their moves are the lesson).
//!
//! The check plays the move on a copy with each outcome of its measurement and weighs
//! the threats by their chances ([`threat_after`]): nothing is drawn, so the question
//! says nothing about how the measurement will come out, and a cancelled move leaves
//! the outcomes as they were. It runs on the worker thread that then plays the move
//! (`App::play`), so a slow move on a big state never blocks the screen; it costs
//! one play of the move on a copy per outcome (one or two) and the threat's captures on
//! each, and only the player's own moves while their king is safe pay it.

use super::App;
use crate::chess::threat::{threat_after, Threat};
use crate::chess::{Game, MoveText};
use crate::format::percent;
use crate::game::Move;
use crate::ui::layers::prompts::Asking;
use crate::ui::layers::question::Question;
use crate::ui::work::{Job, MoveBy};

/// Below this chance of being captured the player's king counts as safe: the status line
/// then shows a small threat at most, which a player may not be watching. From it on the
/// player has seen "king attacked" and is dealing with it, and is not asked again.
pub const SAFE_BELOW: f64 = 0.10;

/// From this chance of the king being captured on the reply the move is asked about (the
/// same chance from which the message line says "Careful" after a move).
pub const ASK_AT: f64 = 0.5;

/// A move to look at before it is played: the game it would be played in (a detached
/// copy) and the move read.
#[derive(Debug)]
pub struct KingCheck {
    board: Game,
    text: MoveText,
}

impl KingCheck {
    /// The threat to the mover's king after the move when it is [`ASK_AT`] or more;
    /// `None` when the move is safe enough or illegal (playing it says why).
    pub fn risk(&self) -> Option<Threat> {
        threat_after(&self.board, &self.text).filter(|t| t.p >= ASK_AT)
    }
}

/// "100% by e4xd3": how likely the king is taken, and by which capture.
fn risk_words(t: &Threat) -> String {
    format!("{}% by {}", percent(t.p), t.by)
}

impl App {
    /// Asks about risky moves of the player (`on`, the default of a new screen is off: a
    /// program driving the screen gets the moves it gives; `qchess play` and the rooms of
    /// `qchess serve` turn it on as the setting says).
    pub fn with_king_question(mut self, on: bool) -> App {
        self.king_question = on;
        self
    }

    /// The check a move `input` given `by` gets before it is played: only the player's
    /// own moves in Quantum Chess (read on the screen), with the question on, outside
    /// lessons and puzzles, and while the mover's king is safe.
    pub(super) fn king_check(&self, input: &Move, by: MoveBy) -> Option<KingCheck> {
        let Move::Quantum { text, .. } = input else {
            return None;
        };
        let asks = self.king_question
            && matches!(by, MoveBy::Typed | MoveBy::Picked)
            && self.lesson.is_none()
            && self.puzzle.is_none();
        let g = self.game.quantum().filter(|_| asks)?;
        let now = self.view.threat(g.to_move()).map_or(0.0, |t| t.p);
        (now < SAFE_BELOW).then(|| KingCheck {
            board: g.detached(),
            text: *text,
        })
    }

    /// The move of `job` was held back because of `threat`: asks about it.
    pub(super) fn ask_king_risk(&mut self, job: Job, threat: &Threat) {
        let Job::Move { input, .. } = job else {
            return;
        };
        self.mode = super::Mode::Idle;
        self.ask(Question::KingRisk {
            input,
            risk: risk_words(threat),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::GameOptions;

    fn check(fen: &str, input: &str) -> Option<Threat> {
        let board = Game::from_fen(fen, GameOptions::default()).unwrap();
        let text = crate::chess::notation::parse(input).unwrap();
        KingCheck { board, text }.risk()
    }

    #[test]
    fn a_king_walking_into_a_pawn_is_a_risk_and_a_quiet_move_is_not() {
        // White's king on e2, a black pawn on e4: d3 is attacked, e1 is not.
        let fen = "4k3/8/8/8/4p3/8/4K3/8 w - - 0 1";
        let t = check(fen, "e2d3").expect("d3 is attacked by the pawn");
        assert_eq!((risk_words(&t), t.p), ("100% by e4xd3".into(), 1.0));
        assert_eq!(check(fen, "e2e1"), None);
    }

    #[test]
    fn the_risk_is_weighed_over_the_outcomes_before_anything_is_drawn() {
        // The knight is half on e2: the king's step there first asks whether e2 is
        // empty. Yes (half the time) puts the king next to the pawn, which takes it;
        // no leaves the king on e1, safe.
        let start = "4k3/8/8/8/8/5p2/8/4K1N1 w - - 0 1";
        let mut board = Game::from_fen(start, GameOptions::default()).unwrap();
        for m in ["g1^e2h3", "e8d8"] {
            board.play(m).unwrap();
        }
        let text = crate::chess::notation::parse("e1e2").unwrap();
        let t = KingCheck { board, text }
            .risk()
            .expect("half the time the king stands next to the pawn");
        assert!((t.p - 0.5).abs() < 1e-9, "{t:?}");
        assert_eq!(t.by, "f3xe2");
    }
}
