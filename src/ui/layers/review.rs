//! A replay's review as the screen keeps it: the review, whole or in part, its verdict
//! on each ply, the file it is saved into, and the run on worker threads.

use crate::game::Playable;
use crate::review::run::ReviewError;
use crate::review::{moves_of, verdicts, Review, Verdict};
use crate::ui::panes::review_pane::Marker;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::Arc;

/// A replay's review and the work on it.
#[derive(Debug, Default)]
pub struct Reviewing {
    /// The review, whole or in part.
    pub(in crate::ui) review: Option<Review>,
    /// Its verdict on each ply of the replayed game.
    pub(in crate::ui) verdicts: Vec<Option<Verdict>>,
    /// The file the replayed game came from: the review is saved into it.
    pub(in crate::ui) source: Option<PathBuf>,
    /// The review being made.
    pub(in crate::ui) run: Option<Run>,
}

/// A review being made on worker threads.
#[derive(Debug)]
pub(in crate::ui) struct Run {
    pub(in crate::ui) stop: Arc<AtomicBool>,
    pub(in crate::ui) news: Receiver<News>,
    pub(in crate::ui) progress: (usize, usize),
}

/// What the review's thread reports.
#[derive(Debug)]
pub(in crate::ui) enum News {
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
    pub(in crate::ui) fn marked(&self) -> usize {
        self.verdicts
            .iter()
            .flatten()
            .filter(|v| v.marked())
            .count()
    }

    pub(in crate::ui) fn set(&mut self, review: Review, game: &dyn Playable) {
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
pub(in crate::ui) fn marker(v: &Verdict) -> Option<Marker> {
    use crate::review::Mark;
    match v.mark {
        Some(Mark::Blunder) => Some(Marker::Blunder),
        Some(Mark::Mistake) => Some(Marker::Mistake),
        Some(Mark::Inaccuracy) => Some(Marker::Inaccuracy),
        None => v.luck.map(|_| Marker::Luck),
    }
}

pub(in crate::ui) fn moves_to_texts(game: &dyn Playable) -> Vec<String> {
    game.history().iter().map(|r| r.text.clone()).collect()
}
