//! The replay screen's review: kept with the replay (loaded from the game's file or
//! made here with `R`), run on worker threads with a gauge and stopped with Esc (what
//! is judged is kept), saved into the file the game came from, and the jumps to the
//! marked moves (`[` `]`, a click on the graph).

use super::app::App;
use super::message::Tone;
use super::review_pane::{Marker, ReviewModel};
use crate::game::Playable;
use crate::review::run::ReviewError;
use crate::review::{expected, moves_of, review, verdicts, Judge, Review, Verdict};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::Arc;

/// A replay's review and the work on it.
#[derive(Debug, Default)]
pub struct Reviewing {
    /// The review, whole or in part.
    review: Option<Review>,
    /// Its verdict on each ply of the replayed game.
    verdicts: Vec<Option<Verdict>>,
    /// The file the replayed game came from: the review is saved into it.
    pub(super) source: Option<PathBuf>,
    /// The review being made.
    run: Option<Run>,
}

/// A review being made on worker threads.
#[derive(Debug)]
struct Run {
    stop: Arc<AtomicBool>,
    news: Receiver<News>,
    progress: (usize, usize),
}

/// What the review's thread reports.
#[derive(Debug)]
enum News {
    /// Positions judged, to judge, and the review so far.
    Progress(usize, usize, Review),
    Done(Result<Review, ReviewError>),
}

impl Reviewing {
    /// Whether a review is being made.
    pub fn running(&self) -> bool {
        self.run.is_some()
    }

    /// The verdict on ply `ply` (from 1), if judged.
    pub fn verdict(&self, ply: usize) -> Option<&Verdict> {
        self.verdicts.get(ply.checked_sub(1)?)?.as_ref()
    }

    /// The review, whole or in part.
    pub fn review(&self) -> Option<&Review> {
        self.review.as_ref()
    }

    /// How many moves the review marked.
    fn marked(&self) -> usize {
        self.verdicts
            .iter()
            .flatten()
            .filter(|v| v.marked())
            .count()
    }

    fn set(&mut self, review: Review, game: &dyn Playable) {
        self.verdicts = verdicts(&review, &moves_of(game));
        self.review = Some(review);
    }
}

impl Drop for Reviewing {
    fn drop(&mut self) {
        if let Some(run) = &self.run {
            run.stop.store(true, Ordering::Relaxed);
        }
    }
}

/// The marker a verdict puts on the graph.
fn marker(v: &Verdict) -> Option<Marker> {
    use crate::review::Mark;
    match v.mark {
        Some(Mark::Blunder) => Some(Marker::Blunder),
        Some(Mark::Mistake) => Some(Marker::Mistake),
        Some(Mark::Inaccuracy) => Some(Marker::Inaccuracy),
        None => v.luck.map(|_| Marker::Luck),
    }
}

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
    pub(super) fn review_key(&mut self) {
        if self.reviewing.running() {
            return self.stop_review();
        }
        let Some(replay) = &self.replay else {
            return self.review_ended_game();
        };
        let game = replay.full.clone_box();
        let earlier = self.reviewing.review.clone();
        // A review by an older judge (an earlier version) is judged again.
        if earlier.as_ref().is_some_and(|r| {
            r.version == crate::review::VERSION
                && r.missing(&moves_to_texts(game.as_ref())).is_empty()
        }) {
            return self.say(
                Tone::Plain,
                "the game is reviewed: [ ] go to the marked moves",
            );
        }
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, news) = mpsc::channel();
        let flag = Arc::clone(&stop);
        let judge = Judge::Level(self.review_level());
        let threads = crate::review::default_threads();
        std::thread::spawn(move || {
            let progress = tx.clone();
            let result = review(
                game.as_ref(),
                judge,
                threads,
                earlier,
                &flag,
                &mut |d, t, so_far| {
                    let _ = progress.send(News::Progress(d, t, so_far.clone()));
                },
            );
            let _ = tx.send(News::Done(result));
        });
        self.reviewing.run = Some(Run {
            stop,
            news,
            progress: (0, 0),
        });
        self.say(
            Tone::Info,
            "reviewing: the engine judges every position (Esc stops, keeping what is done)",
        );
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
    pub(super) fn stop_review(&mut self) {
        if let Some(run) = &self.reviewing.run {
            run.stop.store(true, Ordering::Relaxed);
            self.say(Tone::Plain, "stopping the review...");
        }
    }

    /// Takes in the review's news; true when there was some.
    pub(super) fn tick_review(&mut self) -> bool {
        let mut changed = false;
        loop {
            let Some(run) = &mut self.reviewing.run else {
                return changed;
            };
            match run.news.try_recv() {
                Ok(News::Progress(d, t, so_far)) => {
                    run.progress = (d, t);
                    // The graph and marks fill in as the positions are judged.
                    if let Some(replay) = &self.replay {
                        self.reviewing.set(so_far, replay.full.as_ref());
                    }
                    changed = true;
                }
                Ok(News::Done(result)) => {
                    self.reviewing.run = None;
                    self.took_review(result);
                    return true;
                }
                Err(TryRecvError::Empty) => return changed,
                Err(TryRecvError::Disconnected) => {
                    self.reviewing.run = None;
                    return true;
                }
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
        let plies = replay.full.ply();
        let whole = review.complete(plies);
        let full = replay.full.clone_box();
        self.reviewing.set(review.clone(), full.as_ref());
        let saved = self.save_review(review);
        let done = if whole {
            match self.reviewing.marked() {
                0 => "reviewed: no move marked".to_string(),
                1 => "reviewed: 1 marked move, ] goes to it".to_string(),
                n => format!("reviewed: {n} marked moves, [ ] go to them"),
            }
        } else {
            "review stopped: R goes on from where it stopped".to_string()
        };
        self.say(Tone::Info, format!("{done}{saved}"));
    }

    /// Saves `review` into the replayed game's file; what to add to the message.
    fn save_review(&mut self, review: Review) -> String {
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
    pub(super) fn jump_marked(&mut self, dir: i64) {
        let Some(r) = &self.replay else {
            return;
        };
        if self.reviewing.review.is_none() {
            return self.say(Tone::Plain, "no review yet: R reviews the game");
        }
        let now = r.ply;
        let mut marked = self
            .reviewing
            .verdicts
            .iter()
            .flatten()
            .filter(|v| v.marked())
            .map(|v| v.ply);
        let target = if dir < 0 {
            marked.rfind(|&p| p < now)
        } else {
            marked.find(|&p| p > now)
        };
        match target {
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
    pub(super) fn click_graph(&mut self, ply: usize) {
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
        let j = self.reviewing.review.as_ref()?.at(r.ply)?;
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
        let n = r.full.ply();
        let rv = &self.reviewing;
        let title = rv
            .review
            .as_ref()
            .map_or("Review".to_string(), |x| format!("Review · {}", x.by));
        let mut curve = vec![None; n + 1];
        let mut markers = vec![None; n + 1];
        if let Some(review) = &rv.review {
            for j in review.positions.iter().filter(|j| j.ply <= n) {
                curve[j.ply] = Some(j.expected);
            }
        }
        for v in rv.verdicts.iter().flatten() {
            if let Some(m) = markers.get_mut(v.ply) {
                *m = marker(v);
            }
        }
        let line = match (&rv.review, rv.verdict(r.ply)) {
            (None, _) => format!(
                "R: review the game. The engine (level {}) judges every move: who was \
                 winning, the mistakes and the luck.",
                self.review_level()
            ),
            (Some(_), Some(v)) if v.said() => v.short(),
            (Some(review), _) => match review.at(r.ply) {
                Some(j) => format!(
                    "{} ({})",
                    expected::verdict(j.expected),
                    expected::words(j.expected)
                ),
                None => "not judged: R goes on".into(),
            },
        };
        Some(ReviewModel {
            title,
            curve,
            markers,
            shown: r.ply,
            line,
            progress: rv.run.as_ref().map(|run| run.progress),
        })
    }
}

fn moves_to_texts(game: &dyn Playable) -> Vec<String> {
    game.history().iter().map(|r| r.text.clone()).collect()
}
