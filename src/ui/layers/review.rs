//! A replay's review as the screen keeps it: the review, whole or in part, its verdict
//! on each ply, the file it is saved into, and the run on worker threads.

use crate::engine::player::{SearchSlots, Slot};
use crate::game::Playable;
use crate::review::expected;
use crate::review::run::ReviewError;
use crate::review::{moves_of, review, verdicts, Judge, Review, Verdict};
use crate::ui::panes::review_pane::{Marker, ReviewModel};
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
    pub(in crate::ui) source: Option<PathBuf>,
    /// The review being made.
    run: Option<Run>,
}

/// Whether a review began.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Begun {
    /// It runs.
    Started,
    /// The review kept already judges every move: nothing to do.
    Complete,
    /// The server's searches are all taken: try again later.
    Busy,
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

    /// The plies whose moves the review marked, in order.
    pub fn marked_plies(&self) -> impl DoubleEndedIterator<Item = usize> + '_ {
        self.verdicts
            .iter()
            .flatten()
            .filter(|v| v.marked())
            .map(|v| v.ply)
    }

    /// How many moves the review marked.
    pub(in crate::ui) fn marked(&self) -> usize {
        self.verdicts
            .iter()
            .flatten()
            .filter(|v| v.marked())
            .count()
    }

    /// The marked ply nearest `now` before it (`dir` < 0) or after it.
    pub fn marked_from(&self, now: usize, dir: i64) -> Option<usize> {
        let mut marked = self.marked_plies();
        if dir < 0 {
            marked.rfind(|&p| p < now)
        } else {
            marked.find(|&p| p > now)
        }
    }

    /// Starts reviewing `game` with `judge`, going on from the review kept (one by an
    /// older judge is judged again). With `shared` (a server's searches), the review
    /// takes one of them and runs on one thread; it does not start when all are taken.
    pub fn begin(
        &mut self,
        game: Box<dyn Playable>,
        judge: Judge,
        shared: Option<&SearchSlots>,
    ) -> Begun {
        let earlier = self.review.clone();
        if earlier.as_ref().is_some_and(|r| {
            r.version == crate::review::VERSION
                && r.missing(&moves_to_texts(game.as_ref())).is_empty()
        }) {
            return Begun::Complete;
        }
        let (slot, threads) = match shared {
            None => (None, crate::review::default_threads()),
            Some(slots) => match slots.claim() {
                Some(slot) => (Some(slot), 1),
                None => return Begun::Busy,
            },
        };
        self.start(game, judge, earlier, threads, slot);
        Begun::Started
    }

    /// Keeps the `review` that ended, of the replayed game `full`; the words that say
    /// how far it went and what it marked.
    pub(in crate::ui) fn ended(&mut self, review: Review, full: &dyn Playable) -> String {
        let whole = review.complete(full.ply());
        self.set(review, full);
        if !whole {
            return "review stopped: R goes on from where it stopped".to_string();
        }
        match self.marked() {
            0 => "reviewed: no move marked".to_string(),
            1 => "reviewed: 1 marked move, ] goes to it".to_string(),
            n => format!("reviewed: {n} marked moves, [ ] go to them"),
        }
    }

    /// Starts reviewing `game` with `judge` on worker threads, going on from `earlier`.
    fn start(
        &mut self,
        game: Box<dyn Playable>,
        judge: Judge,
        earlier: Option<Review>,
        threads: usize,
        slot: Option<Slot>,
    ) {
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, news) = mpsc::channel();
        let flag = Arc::clone(&stop);
        std::thread::spawn(move || {
            let _slot = slot;
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
        self.run = Some(Run {
            stop,
            news,
            progress: (0, 0),
        });
    }

    /// Positions judged and to judge, while a review is being made.
    pub fn progress(&self) -> Option<(usize, usize)> {
        self.run.as_ref().map(|run| run.progress)
    }

    /// Asks the review running to stop (what is judged is kept); false when none runs.
    pub fn stop(&self) -> bool {
        let Some(run) = &self.run else {
            return false;
        };
        run.stop.store(true, Ordering::Relaxed);
        true
    }

    /// Takes in the review's news; the review so far is kept against `full`, the
    /// replayed game, when there is one.
    pub fn poll(&mut self, full: Option<&dyn Playable>) -> Polled {
        let mut polled = Polled::Quiet;
        loop {
            let Some(run) = &mut self.run else {
                return polled;
            };
            match run.news.try_recv() {
                Ok(News::Progress(d, t, so_far)) => {
                    run.progress = (d, t);
                    // The graph and marks fill in as the positions are judged.
                    if let Some(full) = full {
                        self.set(so_far, full);
                    }
                    polled = Polled::Changed;
                }
                Ok(News::Done(result)) => {
                    self.run = None;
                    return Polled::Done(result);
                }
                Err(TryRecvError::Empty) => return polled,
                Err(TryRecvError::Disconnected) => {
                    self.run = None;
                    return Polled::Changed;
                }
            }
        }
    }

    /// Keeps `review` of `game` and its verdict on each ply.
    pub(in crate::ui) fn set(&mut self, review: Review, game: &dyn Playable) {
        self.verdicts = verdicts(&review, &moves_of(game));
        self.review = Some(review);
    }

    /// What the review pane shows of a replayed game of `n` plies at ply `shown`; a
    /// review not made yet would be judged at `level`.
    pub fn model(&self, n: usize, shown: usize, level: u8) -> ReviewModel {
        let rv = self;
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
        let line = match (&rv.review, rv.verdict(shown)) {
            (None, _) => format!(
                "R: review the game. The engine (level {}) judges every move: who was \
                 winning, the mistakes and the luck.",
                level
            ),
            (Some(_), Some(v)) if v.said() => v.short(),
            (Some(review), _) => match review.at(shown) {
                Some(j) => format!(
                    "{} ({})",
                    expected::verdict(j.expected),
                    expected::words(j.expected)
                ),
                None => "not judged: R goes on".into(),
            },
        };
        ReviewModel {
            title,
            curve,
            markers,
            shown,
            line,
            progress: rv.progress(),
        }
    }
}

impl Drop for Reviewing {
    fn drop(&mut self) {
        if let Some(run) = &self.run {
            run.stop.store(true, Ordering::Relaxed);
        }
    }
}

/// What polling a review brought.
#[derive(Debug)]
pub enum Polled {
    /// Nothing new.
    Quiet,
    /// Progress: the graph and marks changed.
    Changed,
    /// The review ended, whole or stopped, or failed.
    Done(Result<Review, ReviewError>),
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

/// The moves of `game`, in notation.
pub(in crate::ui) fn moves_to_texts(game: &dyn Playable) -> Vec<String> {
    game.history().iter().map(|r| r.text.clone()).collect()
}
