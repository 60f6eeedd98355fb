//! A game's clocks as the screen keeps them: the running clocks, their record for the
//! saved game, the move entered and not yet played, and the clocks as last drawn.

use crate::chess::Color;
use crate::game::clock::{clock_words, Clock, ClockTimes, TimeControl};
use crate::record::SavedClock;
use std::time::Instant;

/// A game's clocks on the screen.
#[derive(Debug, Default)]
pub struct Clocks {
    /// The running clocks (none in a game without a time control, and in replay).
    clock: Option<Clock>,
    /// What the saved game keeps: the control and each mover's time after each ply.
    record: Option<SavedClock>,
    /// The move entered and not yet played: its mover, and when.
    entered: Option<(Color, Instant)>,
    /// The clocks as last drawn (the screen is drawn again when they read otherwise).
    shown: Vec<String>,
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

    /// Puts the game on `clock` (none in replay), keeping `record`.
    pub fn set(&mut self, clock: Option<Clock>, record: SavedClock) {
        self.clock = clock;
        self.record = Some(record);
        self.entered = None;
    }

    /// Takes the clocks of a table, which runs them.
    pub fn take_table(&mut self, clock: Option<Clock>) {
        self.clock = clock;
    }

    /// A move by `side` was entered: its clock stops while the move is computed.
    pub fn entered(&mut self, side: Color) {
        if let Some(c) = &mut self.clock {
            let now = Instant::now();
            c.pause(now);
            self.entered = Some((side, now));
        }
    }

    /// The entered move was played, leading to ply `ply`: the mover gains the
    /// increment, its time is recorded, and the clock of `next` starts (none when the
    /// game is over).
    pub fn moved(&mut self, ply: usize, next: Option<Color>) {
        let (Some(c), Some((side, at))) = (&mut self.clock, self.entered.take()) else {
            return;
        };
        c.moved(side, at);
        let left = c.times(at).of(side);
        if let Some(rec) = &mut self.record {
            rec.left.truncate(ply.saturating_sub(1));
            rec.left.push(left.as_millis() as u64);
        }
        if let (Some(next), Some(c)) = (next, &mut self.clock) {
            c.start(next, Instant::now());
        }
    }

    /// The entered move was refused: the mover's clock runs again.
    pub fn refused(&mut self) {
        if let (Some(c), Some((side, _))) = (&mut self.clock, self.entered.take()) {
            c.start(side, Instant::now());
        }
    }

    /// Stops the clocks (the game ended).
    pub fn stop(&mut self) {
        if let Some(c) = &mut self.clock {
            c.pause(Instant::now());
        }
    }

    /// The side whose flag fell, while no move is being computed.
    pub fn fallen(&self) -> Option<Color> {
        let c = self.clock.as_ref()?;
        self.entered.is_none().then(|| c.flag(Instant::now()))?
    }

    /// The clocks for the status line: "▶white 4:58", "black 5:00" (the running one
    /// marked with `mark`); in a replay (`shown`: its first mover and the ply shown), as
    /// they were after the shown ply.
    pub fn facts(&self, shown: Option<(Color, usize)>, mark: &str) -> Vec<String> {
        let now = Instant::now();
        let (times, running) = match (&self.clock, &self.record, shown) {
            (Some(c), _, None) => (c.times(now).remaining, c.running()),
            (_, Some(rec), Some((first, ply))) => {
                let Ok(control) = rec.control.parse::<TimeControl>() else {
                    return Vec::new();
                };
                (rec.left_after(control, ply, first), None)
            }
            _ => return Vec::new(),
        };
        [(Color::White, times[0]), (Color::Black, times[1])]
            .into_iter()
            .map(|(side, left)| {
                let on = if running == Some(side) { mark } else { "" };
                format!("{on}{} {}", side.name(), clock_words(left))
            })
            .collect()
    }

    /// Keeps `facts` as the clocks drawn; true when they read otherwise than before.
    pub fn show(&mut self, facts: Vec<String>) -> bool {
        if facts == self.shown {
            return false;
        }
        self.shown = facts;
        true
    }
}
