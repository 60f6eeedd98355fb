//! The replay screen's review: kept with the replay (loaded from the game's file or
//! made here with `R`), run on worker threads with a gauge and stopped with Esc (what
//! is judged is kept), saved into the file the game came from, and the jumps to the
//! marked moves (`[` `]`, a click on the graph).

use super::App;
use crate::review::run::ReviewError;
use crate::review::{expected, Judge, Review};
use crate::ui::layers::review::{Begun, Polled, Reviewing};
use crate::ui::message::Tone;
use crate::ui::panes::review_pane::ReviewModel;
use std::path::PathBuf;

impl App {
    /// This replay with the game's file (where a review is saved) and the review kept
    /// in it, if any.
    pub fn with_review(mut self, source: PathBuf, review: Option<Review>) -> App {
        self.reviewing.source = Some(source);
        if let (Some(r), Some(replay)) = (review, &self.replay) {
            self.reviewing.set(r, replay.full.as_ref());
            let said = match self.reviewing.marked() {
                0 => "replay with its review: no move marked; ← → step, ? help".to_string(),
                1 => "replay with its review: ] goes to the marked move; ← → step, ? help".into(),
                n => format!(
                    "replay with its review: [ ] go to the {n} marked moves; ← → step, ? help"
                ),
            };
            self.say(Tone::Plain, said);
        }
        self
    }

    /// The replay's review state.
    pub fn reviewing(&self) -> &Reviewing {
        &self.reviewing
    }

    /// `R` in replay: reviews the game (the plies an earlier review of this version did
    /// not judge; all of them after an older version's), or stops the review running; in a game, once it is over, steps into its replay
    /// first.
    pub(in crate::ui) fn review_key(&mut self) {
        if self.reviewing.running() {
            return self.stop_review();
        }
        let Some(replay) = &self.replay else {
            return self.review_ended_game();
        };
        let game = replay.full.clone_box();
        let judge = Judge::Level(self.review_level());
        let shared = self.computer.shared_searches();
        match self.reviewing.begin(game, judge, shared.as_deref()) {
            Begun::Complete => self.say(
                Tone::Plain,
                "the game is reviewed: [ ] go to the marked moves",
            ),
            Begun::Busy => self.say(
                Tone::Plain,
                "the server's engines are all busy now: R again in a moment",
            ),
            Begun::Started => self.say(
                Tone::Info,
                "reviewing: the engine judges every position (Esc stops, keeping what is done)",
            ),
        }
    }

    /// The level that judges a review here: the hints' (the computer's level, or
    /// `--level`), at least `qchess review`'s default: a weaker search misses the
    /// two-move blunders a new player makes (a level 2 review of a fool's mate marked
    /// nothing).
    fn review_level(&self) -> u8 {
        self.computer
            .hint_level()
            .max(crate::engine::level::DEFAULT_LEVEL)
    }

    /// Esc while a review runs: stops it; what was judged is kept.
    pub(in crate::ui) fn stop_review(&mut self) {
        if self.reviewing.stop() {
            self.say(Tone::Plain, "stopping the review...");
        }
    }

    /// Takes in the review's news; true when there was some.
    pub(in crate::ui) fn tick_review(&mut self) -> bool {
        let full = self.replay.as_ref().map(|r| r.full.as_ref());
        match self.reviewing.poll(full) {
            Polled::Quiet => false,
            Polled::Changed => true,
            Polled::Done(result) => {
                self.took_review(result);
                true
            }
        }
    }

    /// Waits for the review running to end (tests, and leaving).
    pub fn finish_review(&mut self) {
        while self.reviewing.running() {
            if !self.tick_review() {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        }
    }

    fn took_review(&mut self, result: Result<Review, ReviewError>) {
        let review = match result {
            Ok(r) => r,
            Err(e) => return self.say(Tone::Error, format!("the review failed: {e}")),
        };
        let Some(replay) = &self.replay else {
            return;
        };
        let done = self.reviewing.ended(review.clone(), replay.full.as_ref());
        let saved = self.save_review(review);
        self.say(Tone::Info, format!("{done}{saved}"));
    }

    /// Saves `review` into the replayed game's file; what to add to the message.
    fn save_review(&mut self, review: Review) -> String {
        if self.served {
            // A server's archived game is not saved from its screen.
            return String::new();
        }
        let Some(path) = self.reviewing.source.clone() else {
            return "; w saves the game with it".into();
        };
        if crate::record::pgn::file::is_pgn(&path) {
            return "; w saves the game with it (a PGN file has no place for it)".into();
        }
        let saved = crate::record::load(&path).and_then(|mut saved| {
            saved.review = Some(review);
            crate::record::save(&path, &saved)
        });
        match saved {
            Ok(()) => format!("; kept in {}", path.display()),
            Err(e) => format!("; not saved: {e}"),
        }
    }

    /// `[` / `]` in replay: the previous / next marked move.
    pub(in crate::ui) fn jump_marked(&mut self, dir: i64) {
        let Some(r) = &self.replay else {
            return;
        };
        if self.reviewing.review().is_none() {
            return self.say(Tone::Plain, "no review yet: R reviews the game");
        }
        let now = r.ply;
        match self.reviewing.marked_from(now, dir) {
            Some(p) => self.step_ply(p as i64 - now as i64),
            None => self.say(
                Tone::Plain,
                if dir < 0 {
                    "no marked move before this one"
                } else {
                    "no marked move after this one"
                },
            ),
        }
    }

    /// A click on the graph: shows that ply.
    pub(in crate::ui) fn click_graph(&mut self, ply: usize) {
        if let Some(r) = &self.replay {
            let by = ply as i64 - r.ply as i64;
            self.step_ply(by);
        }
    }

    /// The engine's line of the probabilities pane: in a replay, the review's verdict on
    /// the shown position (none where it is not judged: never the verdict on another
    /// ply, such as the computer's last score at the game's end); else the engine's
    /// last score.
    pub fn engine_words(&self) -> Option<String> {
        let Some(r) = &self.replay else {
            return self.computer.score().map(super::opponent::score_words);
        };
        let j = self.reviewing.review()?.at(r.ply)?;
        Some(format!(
            "{} ({} for white; review, ply {})",
            expected::verdict(j.expected),
            expected::words(j.expected),
            r.ply
        ))
    }

    /// What the review pane shows (replays only).
    pub fn review_model(&self) -> Option<ReviewModel> {
        let r = self.replay.as_ref()?;
        Some(
            self.reviewing
                .model(r.full.ply(), r.ply, self.review_level()),
        )
    }
}
