//! The game screen's clocks and the endings outside the rules: the time control's two
//! clocks (stopped while a move is computed), a flag that falls, resigning (`X`, asks
//! first) and draw offers (`D`: the other player answers at the keyboard; the computer
//! answers by its evaluation), all recorded in the saved game.

use super::app::App;
use super::message::Tone;
use super::prompts::Question;
use crate::chess::{Color, Status};
use crate::game::clock::{clock_words, Clock, ClockTimes, Ending, TimeControl};
use crate::record::{SavedClock, CLOCK_VERSION};
use crate::review::expected;
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

/// The computer accepts a draw when its evaluation of the position, from its side, is
/// at most this (centipawns): even or worse for it.
pub const ACCEPTS_DRAW_AT: f64 = 0.0;

impl App {
    /// This game on the clock `control`, with `saved`'s times when it is resumed; the
    /// clock of the side to move starts at once.
    pub fn with_clock(mut self, control: TimeControl, saved: Option<SavedClock>) -> App {
        self.set_clock(control, saved);
        self
    }

    /// Puts the game on the clock `control` (see [`App::with_clock`]).
    pub(super) fn set_clock(&mut self, control: TimeControl, saved: Option<SavedClock>) {
        let record = saved.unwrap_or(SavedClock {
            version: CLOCK_VERSION,
            control: control.to_string(),
            left: Vec::new(),
        });
        let history = self.game.history();
        let first = history.first().map_or(self.game.to_move(), |r| r.color);
        let left = record.left_after(control, history.len(), first);
        let mut clock = Clock::resumed(control, left);
        if self.replay.is_none() && self.status() == Status::Ongoing {
            clock.start(self.game.to_move(), Instant::now());
        }
        self.clocks.clock = Some(clock).filter(|_| self.replay.is_none());
        self.clocks.record = Some(record);
        self.clocks.entered = None;
    }

    /// The game's clocks.
    pub fn clocks(&self) -> &Clocks {
        &self.clocks
    }

    /// This game ended as `ending` said (a saved game's recorded reason).
    pub fn with_ending(mut self, ending: Option<Ending>) -> App {
        self.ending = ending;
        self
    }

    /// The game's result: its rules', or how it ended outside them (in replay, once
    /// the last ply is shown).
    pub fn status(&self) -> Status {
        let at_end = self.replay.as_ref().is_none_or(|r| r.ply == r.full.ply());
        match &self.ending {
            Some(e) if at_end => e.status,
            _ => self.game.status(),
        }
    }

    /// Why the game ended outside its rules, when it did.
    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// The clocks for the status line: "▶white 4:58", "black 5:00" (the running one
    /// marked); in replay, as they were after the shown ply.
    pub fn clock_facts(&self) -> Vec<String> {
        let now = Instant::now();
        let (times, running) = match (&self.clocks.clock, &self.clocks.record, &self.replay) {
            (Some(c), _, None) => (c.times(now).remaining, c.running()),
            (_, Some(rec), Some(r)) => {
                let Ok(control) = rec.control.parse::<TimeControl>() else {
                    return Vec::new();
                };
                let first = r.full.history().first().map_or(Color::White, |m| m.color);
                (rec.left_after(control, r.ply, first), None)
            }
            _ => return Vec::new(),
        };
        let mark = if self.paint.ascii { ">" } else { "▶" };
        [(Color::White, times[0]), (Color::Black, times[1])]
            .into_iter()
            .map(|(side, left)| {
                let on = if running == Some(side) { mark } else { "" };
                format!("{on}{} {}", side.name(), clock_words(left))
            })
            .collect()
    }

    /// A move was entered: the mover's clock stops (the simulator's work is on nobody's
    /// clock).
    pub(super) fn clock_entered(&mut self) {
        let side = self.game.to_move();
        if let Some(c) = &mut self.clocks.clock {
            let now = Instant::now();
            c.pause(now);
            self.clocks.entered = Some((side, now));
        }
    }

    /// The entered move was played: the mover gains the increment, the other side's
    /// clock starts.
    pub(super) fn clock_moved(&mut self) {
        let (Some(c), Some((side, at))) = (&mut self.clocks.clock, self.clocks.entered.take())
        else {
            return;
        };
        c.moved(side, at);
        let left = c.times(at).of(side);
        if let Some(rec) = &mut self.clocks.record {
            rec.left.truncate(self.game.ply().saturating_sub(1));
            rec.left.push(left.as_millis() as u64);
        }
        let next = self.game.to_move();
        if self.status() == Status::Ongoing {
            if let Some(c) = &mut self.clocks.clock {
                c.start(next, Instant::now());
            }
        }
    }

    /// The entered move was refused: the mover's clock runs again.
    pub(super) fn clock_refused(&mut self) {
        if let (Some(c), Some((side, _))) = (&mut self.clocks.clock, self.clocks.entered.take()) {
            c.start(side, Instant::now());
        }
    }

    /// Looks at the flags; true while a clock runs (the screen redraws it).
    pub(super) fn tick_clock(&mut self) -> bool {
        let Some(c) = &self.clocks.clock else {
            return false;
        };
        if self.clocks.entered.is_none() && self.ending.is_none() {
            if let Some(side) = c.flag(Instant::now()) {
                self.end(Ending::on_time(side));
                return true;
            }
        }
        self.clocks.running()
    }

    /// Ends the game outside its rules: the clocks stop, the computer stops thinking,
    /// the result shows and is saved.
    pub(super) fn end(&mut self, ending: Ending) {
        if let Some(c) = &mut self.clocks.clock {
            c.pause(Instant::now());
        }
        self.computer.forget();
        let reason = ending.reason.clone();
        self.ending = Some(ending);
        self.mode = super::app::Mode::Idle;
        self.game_over_popup = self.lesson.is_none() && self.puzzle.is_none();
        self.say(
            Tone::Info,
            format!("Game over: {}, {reason}", self.result_words()),
        );
        self.autosave();
    }

    /// The side the player at this keyboard plays for a resignation or a draw offer:
    /// the side to move, or against the computer the other one.
    fn player_side(&self) -> Option<Color> {
        let to_move = self.game.to_move();
        match (
            self.computer.plays(to_move),
            self.computer.plays(to_move.opposite()),
        ) {
            (true, true) => None,
            (true, false) => Some(to_move.opposite()),
            _ => Some(to_move),
        }
    }

    /// Why a resignation or a draw offer makes no sense now, if it does not.
    fn decision_error(&self) -> Option<&'static str> {
        if self.replay.is_some() {
            Some("this is a replay: the game's result is recorded")
        } else if self.status() != Status::Ongoing {
            Some("the game is over")
        } else if self.place().is_some() {
            Some("in a room the game's seats decide: not from here yet")
        } else if self.lesson.is_some() || self.puzzle.is_some() {
            Some("lessons and puzzles have no result to give away")
        } else {
            None
        }
    }

    /// `X`: resign (asks first).
    pub(super) fn resign_key(&mut self) {
        if let Some(why) = self.decision_error() {
            return self.say(Tone::Error, why);
        }
        let Some(side) = self.player_side() else {
            return self.say(
                Tone::Error,
                "the computer plays both sides: nobody to resign",
            );
        };
        self.ask_decision(Question::Resign { side });
    }

    /// `D`: offer a draw. At one keyboard the other player answers; the computer
    /// answers at once by its evaluation ([`ACCEPTS_DRAW_AT`]).
    pub(super) fn draw_key(&mut self) {
        if let Some(why) = self.decision_error() {
            return self.say(Tone::Error, why);
        }
        let Some(side) = self.player_side() else {
            return self.say(
                Tone::Error,
                "the computer plays both sides: nobody to offer a draw",
            );
        };
        let other = side.opposite();
        if !self.computer.plays(other) {
            return self.ask_decision(Question::Draw { by: side });
        }
        let value = self.evaluation_for(other);
        if value <= ACCEPTS_DRAW_AT {
            self.end(Ending::agreed());
        } else {
            self.say(
                Tone::Plain,
                format!(
                    "{} declines the draw: it thinks it stands better (it expects {} of a point)",
                    other.name(),
                    expected::words(expected::for_side(expected::from_side(value, other), other))
                ),
            );
        }
    }

    /// The static evaluation of the position for `side`, in centipawns.
    fn evaluation_for(&self, side: Color) -> f64 {
        match self.game.quantum() {
            Some(g) => {
                let v = crate::engine::eval::evaluate(g, crate::engine::eval::Style::Full);
                if g.to_move() == side {
                    v
                } else {
                    -v
                }
            }
            None => crate::engine::variant::variant_value(self.game.as_ref(), side),
        }
    }

    fn ask_decision(&mut self, q: Question) {
        use super::prompts::Asking;
        self.ask(q);
    }

    /// The answer to a resignation or a draw offer.
    pub(super) fn answer_decision(&mut self, q: Question, action: super::input::Action) {
        use super::input::Action;
        match (q, action) {
            (Question::Resign { side }, Action::Yes) => self.end(Ending::resigned(side)),
            (Question::Draw { .. }, Action::Yes) => self.end(Ending::agreed()),
            (Question::Resign { .. }, Action::No | Action::Cancel) => {
                self.say(Tone::Plain, "not resigned: play on")
            }
            (Question::Draw { by }, Action::No | Action::Cancel) => self.say(
                Tone::Plain,
                format!("{} declines the draw: play on", by.opposite().name()),
            ),
            (q, _) => self.question = Some(q),
        }
    }
}
