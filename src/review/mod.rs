//! Game review: the engine's verdict on every position of a finished (or stopped)
//! game, White's expected result over the game, and marks on the moves that gave it
//! away.
//!
//! * [`expected`]: the one mapping from an engine score to White's expected result.
//! * [`run`]: judging the positions, on several threads, stoppable, keeping what is done.
//! * [`verdict`]: the marks, the turns of luck and each player's summary, derived from
//!   a [`Review`] and the game's moves.
//!
//! A [`Review`] is what is kept: saved as the optional `[review]` section of the game's
//! file (its own version number, so a file without one, or with one a later qchess
//! wrote, still loads) and not redone when the file is opened again.

pub mod run;

pub use crate::engine::expected;
pub use crate::record::review::{Judged, Review, VERSION};
pub use crate::record::verdict;
pub use run::{review, Judge};
pub use verdict::{moves_of, verdicts, Mark, Summary, Verdict};

/// How many threads a review judges on by default: one per core the machine offers.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
