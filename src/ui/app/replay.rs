//! Stepping through a game: the ply shown, going to a ply, playing on from it, and
//! the review of a game once it is over.

use super::{App, Mode, Replay};
use crate::chess::Status;
use crate::ui::app::steps;
use crate::ui::message::Tone;
use crate::ui::opponent::{self, Plays};
use crate::ui::view::View;
use crate::ui::work::Job;
use crate::variants::ReplayError;

const REPLAY_WELCOME: &str =
    "replay: ← → step, Home End, g go to ply, p play on from here, ? help, q quit";

impl App {
    /// Steps through the game played so far, from its start position.
    pub fn into_replay(mut self) -> App {
        let full = self.game.clone_box();
        self.replay = Some(Replay {
            full,
            ply: 0,
            from_play: false,
        });
        self.show_ply(0);
        self.finish_work();
        self.say(Tone::Plain, REPLAY_WELCOME);
        self
    }

    /// The screen as `qchess serve` shows a game of its archive: stepping through it
    /// and its review (on the server's shared searches, not saved); no saving on the
    /// server, no play on from it.
    pub fn served(mut self) -> App {
        self.served = true;
        self
    }

    /// `R` once a game played here is over: the game's replay, at its last ply, and its
    /// review there, kept in the file the game is saved in. Refused while the game goes
    /// on, in a lesson or puzzle, and at a table of `qchess serve` (whose reviews are
    /// made from the room's saved file, off the server).
    pub(in crate::ui) fn review_ended_game(&mut self) {
        let refusal = if self.place.is_some() {
            Some("no reviews at a table: the server keeps its cores for the games")
        } else if self.lesson.is_some() || self.puzzle.is_some() {
            Some("lessons and puzzles have no review: R reviews a game once it is over")
        } else if self.status() == Status::Ongoing {
            Some("R reviews the game once it is over")
        } else {
            None
        };
        if let Some(r) = refusal {
            return self.say(Tone::Plain, r);
        }
        self.mode = Mode::Idle;
        self.focus.unpick();
        self.game_over_popup = false;
        self.replay = Some(Replay {
            full: self.game.clone_box(),
            ply: self.game.ply(),
            from_play: true,
        });
        self.reviewing.source =
            crate::ui::layers::kept::kept_in(&self.recorder).map(|k| k.file().to_path_buf());
        self.review_key();
    }

    /// Shows ply `ply` of the replayed game (clamped to the game), replayed here or on a
    /// worker thread.
    pub(super) fn show_ply(&mut self, ply: usize) {
        let Some(r) = &self.replay else {
            return;
        };
        let texts: Vec<String> = r.full.history().iter().map(|p| p.text.clone()).collect();
        let ply = ply.min(texts.len());
        // Forward by one ply plays one move on the shown state; anything else replays.
        if ply == r.ply + 1 && self.game.ply() == r.ply {
            let text = texts[ply - 1].clone();
            return self.on_copy(Job::Ply { ply }, self.game.clone_box(), move |g| {
                g.play(&text)
                    .map(|_| ())
                    .map_err(|e| format!("ply {ply} does not replay: {e}"))
            });
        }
        let setup = r.full.setup();
        self.run_job(Job::Ply { ply }, move |cancel| {
            let mut game = crate::variants::replay(&setup, &texts[..ply], Some(cancel)).map_err(
                |e| match e {
                    ReplayError::Move { ply, reason, .. } => {
                        format!("ply {ply} does not replay: {reason}")
                    }
                    e => e.to_string(),
                },
            )?;
            game.set_cancel(None);
            Ok(game)
        });
    }

    /// Takes in the replay's state at `ply`.
    pub(super) fn took_in_ply(&mut self, ply: usize, view: View) {
        let Some(r) = &mut self.replay else {
            return;
        };
        r.ply = ply;
        let n = r.full.ply();
        if let (Some(ins), Some(g)) = (&mut self.inspector, self.game.quantum()) {
            ins.refresh(g);
        }
        self.mode = Mode::Idle;
        self.focus.follow_last();
        self.view = view;
        self.game_over_popup = false;
        let last = self.game.history().last().cloned();
        let book = last.as_ref().is_some_and(|rec| {
            opponent::last_ply_from_book(self.game.as_ref(), rec, &self.occupants)
        });
        let mut said = steps::ply_said(ply, n, last.as_ref(), book);
        if let Some(v) = self.reviewing.verdict(ply).filter(|v| v.said()) {
            said = format!("{} · {said}", v.words());
        }
        if let Some(e) = self.ending.as_ref().filter(|_| ply == n) {
            said = format!("{said}; then {}", e.reason);
        }
        self.say(Tone::Info, said);
    }

    /// Steps the replay `by` plies (clamped to the game).
    pub(in crate::ui) fn step_ply(&mut self, by: i64) {
        let Some(r) = &self.replay else {
            return;
        };
        let n = r.full.ply();
        self.show_ply(steps::ply_after(r.ply, by, n));
    }

    /// Leaves the replay and plays on from the shown ply as a new game.
    pub(super) fn play_from_here(&mut self) {
        let Some(r) = self.replay.take() else {
            return;
        };
        self.recorder.restart(crate::record::now_secs());
        self.after_change();
        let said = match self.status() {
            Status::Ongoing => format!(
                "a new game from ply {}: {} to move",
                r.ply,
                self.game.to_move().name()
            ),
            s => format!(
                "a new game from ply {}, already over: {}",
                r.ply,
                s.describe()
            ),
        };
        self.say(Tone::Info, said);
        self.autosave();
        self.computer_turn();
    }

    /// Shows the ply typed on the go-to line.
    pub(super) fn goto_ply(&mut self, typed: &str) {
        match typed.parse::<usize>() {
            Ok(p) => {
                let current = self.replay.as_ref().map_or(0, |r| r.ply) as i64;
                self.layers.close_line();
                self.step_ply(p as i64 - current);
            }
            Err(_) => self.say(
                Tone::Error,
                format!("{typed:?} is not a ply number (0 is the start)"),
            ),
        }
    }
}
