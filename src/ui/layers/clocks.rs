//! A game's clocks as the screen keeps them: the running clocks, their record for the
//! saved game, the move entered and not yet played, and the clocks as last drawn.

use crate::chess::Color;
use crate::game::clock::{Clock, ClockTimes, TimeControl};
use crate::record::SavedClock;
use std::time::Instant;

/// A game's clocks on the screen.
#[derive(Debug, Default)]
pub struct Clocks {
    /// The running clocks (none in a game without a time control, and in replay).
    pub(in crate::ui) clock: Option<Clock>,
    /// What the saved game keeps: the control and each mover's time after each ply.
    pub(in crate::ui) record: Option<SavedClock>,
    /// The move entered and not yet played: its mover, and when.
    pub(in crate::ui) entered: Option<(Color, Instant)>,
    /// The clocks as last drawn (the screen is drawn again when they read otherwise).
    pub(in crate::ui) shown: Vec<String>,
}

impl Clocks {
    /// Whether a clock runs.
    pub fn running(&self) -> bool {
        self.clock.as_ref().is_some_and(|c| c.running().is_some())
    }

    /// The clocks' times now, in a game on a clock.
    pub fn times(&self) -> Option<ClockTimes> {
        Some(self.clock.as_ref()?.times(Instant::now()))
    }

    /// The time control, in a game on a clock.
    pub fn control(&self) -> Option<TimeControl> {
        self.clock.as_ref().map(Clock::control)
    }

    /// The saved record of the clocks.
    pub fn record(&self) -> Option<&SavedClock> {
        self.record.as_ref()
    }
}
