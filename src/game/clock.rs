//! Chess clocks: a time control (`5+3`: five minutes each and three seconds added after
//! every move, Fischer's increment), the two clocks of a game, and how a game ends
//! outside its rules (a flag falls, a player resigns, both agree a draw).
//!
//! The clock of the side to move runs from the moment its turn is shown until its
//! move is entered: the simulator's work on a move is on nobody's clock (the mover's
//! clock stops when the move is entered, the other's starts when the move has been
//! played). The increment is added when the move is entered, before the flag is looked
//! at again: a move entered with time left never loses on time.

use crate::chess::{Color, Status};
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// Minutes each and the seconds added after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Each side's time at the start.
    pub base: Duration,
    /// Added to the mover's clock after each move.
    pub increment: Duration,
}

/// A time control that does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{0}\" is not a time control: write MIN+INC (minutes, fractions allowed, and seconds added per move), e.g. 5+3 or 0.5+0, or none")]
pub struct BadTimeControl(pub String);

/// `--clock`: a time control, or `none` for no clocks.
pub fn parse_clock(s: &str) -> Result<Option<TimeControl>, BadTimeControl> {
    if s.trim().eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    s.parse().map(Some)
}

impl FromStr for TimeControl {
    type Err = BadTimeControl;

    fn from_str(s: &str) -> Result<TimeControl, BadTimeControl> {
        let bad = || BadTimeControl(s.to_string());
        let (min, inc) = s.trim().split_once('+').ok_or_else(bad)?;
        let min: f64 = min.trim().parse().map_err(|_| bad())?;
        let inc: f64 = inc.trim().parse().map_err(|_| bad())?;
        TimeControl::of_seconds(min * 60.0, inc).ok_or_else(bad)
    }
}

impl TimeControl {
    /// `base` seconds each and `increment` seconds a move, when in bounds: up to a day
    /// each and an hour's increment (beyond is a typo).
    fn of_seconds(base: f64, increment: f64) -> Option<TimeControl> {
        (base > 0.0 && base <= 86_400.0 && (0.0..=3600.0).contains(&increment)).then(|| {
            TimeControl {
                base: Duration::from_secs_f64(base),
                increment: Duration::from_secs_f64(increment),
            }
        })
    }

    /// The value of PGN's `TimeControl` tag: seconds each and seconds added, `300+3`.
    pub fn pgn(&self) -> String {
        format!(
            "{}+{}",
            trimmed(self.base.as_secs_f64()),
            trimmed(self.increment.as_secs_f64())
        )
    }

    /// A PGN `TimeControl` tag's value (`300+3`, or `600` without increment); `None` for
    /// one qchess does not play: no clock (`-`), unknown (`?`), moves per period
    /// (`40/7200:3600`), a sandglass (`*60`).
    pub fn from_pgn(value: &str) -> Option<TimeControl> {
        let (base, inc) = value.trim().split_once('+').unwrap_or((value.trim(), "0"));
        let number = |s: &str| {
            s.bytes()
                .all(|b| b.is_ascii_digit() || b == b'.')
                .then(|| s.parse::<f64>().ok())
                .flatten()
        };
        // One that its `MIN+INC` cannot write (a hundredth of a second) is none.
        TimeControl::of_seconds(number(base)?, number(inc)?)
            .filter(|t| t.to_string().parse::<TimeControl>().is_ok())
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let min = self.base.as_secs_f64() / 60.0;
        let inc = self.increment.as_secs_f64();
        write!(f, "{}+{}", trimmed(min), trimmed(inc))
    }
}

/// A number without a needless fraction: 5, 0.5, 0.05.
fn trimmed(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The clocks as a player (or an engine) reads them: each side's time left and the
/// increment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockTimes {
    /// White's and Black's time left.
    pub remaining: [Duration; 2],
    /// The increment per move.
    pub increment: Duration,
}

impl ClockTimes {
    /// `side`'s time left.
    pub fn of(&self, side: Color) -> Duration {
        self.remaining[index(side)]
    }
}

fn index(side: Color) -> usize {
    match side {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The two clocks of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    remaining: [Duration; 2],
    /// The side whose clock runs, and since when.
    running: Option<(Color, Instant)>,
}

impl Clock {
    /// Both clocks at the control's base time, stopped.
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            remaining: [control.base; 2],
            running: None,
        }
    }

    /// Clocks resumed with these times left, stopped.
    pub fn resumed(control: TimeControl, remaining: [Duration; 2]) -> Clock {
        Clock {
            control,
            remaining,
            running: None,
        }
    }

    /// The time control.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// Starts `side`'s clock at `now` (stopping the other's, if it ran).
    pub fn start(&mut self, side: Color, now: Instant) {
        self.pause(now);
        self.running = Some((side, now));
    }

    /// Stops the running clock at `now`, taking the time it ran off it.
    pub fn pause(&mut self, now: Instant) {
        if let Some((side, since)) = self.running.take() {
            let i = index(side);
            self.remaining[i] =
                self.remaining[i].saturating_sub(now.saturating_duration_since(since));
        }
    }

    /// `side` entered its move at `now`: its clock stops and gains the increment (a
    /// side whose time had run out gains nothing: it lost first).
    pub fn moved(&mut self, side: Color, now: Instant) {
        self.pause(now);
        let i = index(side);
        if !self.remaining[i].is_zero() {
            self.remaining[i] += self.control.increment;
        }
    }

    /// The side whose clock runs.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(side, _)| side)
    }

    /// The times left at `now`.
    pub fn times(&self, now: Instant) -> ClockTimes {
        let mut remaining = self.remaining;
        if let Some((side, since)) = self.running {
            let i = index(side);
            remaining[i] = remaining[i].saturating_sub(now.saturating_duration_since(since));
        }
        ClockTimes {
            remaining,
            increment: self.control.increment,
        }
    }

    /// The side whose time has run out at `now`, if any.
    pub fn flag(&self, now: Instant) -> Option<Color> {
        let t = self.times(now);
        [Color::White, Color::Black]
            .into_iter()
            .find(|&s| t.of(s).is_zero())
    }
}

/// "4:58", "0:09.7" (tenths under ten seconds), "1:02:03" (an hour or more).
pub fn clock_words(left: Duration) -> String {
    let ms = left.as_millis();
    let s = ms / 1000;
    if s < 10 {
        return format!("0:0{}.{}", s, (ms % 1000) / 100);
    }
    if s >= 3600 {
        return format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
    }
    format!("{}:{:02}", s / 60, s % 60)
}

/// The end of the reason of a game lost on time: "white lost on time".
pub const ON_TIME: &str = "lost on time";
/// The end of the reason of a game whose player left and was claimed against: "black
/// left the game".
pub const LEFT: &str = "left the game";

/// How a game ended outside its rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The result.
    pub status: Status,
    /// Why, as a saved game records it: "white lost on time", "black resigned",
    /// "draw agreed".
    pub reason: String,
}

impl Ending {
    /// `side`'s flag fell.
    pub fn on_time(side: Color) -> Ending {
        Ending {
            status: Status::won_by(side.opposite()),
            reason: format!("{} {ON_TIME}", side.name()),
        }
    }

    /// `side` resigned.
    pub fn resigned(side: Color) -> Ending {
        Ending {
            status: Status::won_by(side.opposite()),
            reason: format!("{} resigned", side.name()),
        }
    }

    /// `side`'s player left the game and did not come back in time after the other
    /// side claimed the win.
    pub fn left(side: Color) -> Ending {
        Ending {
            status: Status::won_by(side.opposite()),
            reason: format!("{} {LEFT}", side.name()),
        }
    }

    /// Both sides agreed a draw.
    pub fn agreed() -> Ending {
        Ending {
            status: Status::Draw,
            reason: "draw agreed".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_and_write() {
        let tc: TimeControl = "5+3".parse().unwrap();
        assert_eq!(tc.base, Duration::from_secs(300));
        assert_eq!(tc.increment, Duration::from_secs(3));
        assert_eq!(tc.to_string(), "5+3");
        let half: TimeControl = " 0.5 + 0 ".parse().unwrap();
        assert_eq!(half.base, Duration::from_secs(30));
        assert_eq!(half.to_string(), "0.5+0");
        assert_eq!(
            "0.05+0".parse::<TimeControl>().unwrap().to_string(),
            "0.05+0"
        );
        assert_eq!(parse_clock("none"), Ok(None));
        for bad in [
            "5", "+3", "5+", "0+3", "-1+0", "5+-1", "x+y", "5+3+1", "2000+0",
        ] {
            let e = bad.parse::<TimeControl>().unwrap_err();
            assert!(e.to_string().contains("MIN+INC"), "{bad}: {e}");
        }
    }

    #[test]
    fn time_controls_in_pgn() {
        let tc: TimeControl = "5+3".parse().unwrap();
        assert_eq!(tc.pgn(), "300+3");
        assert_eq!(TimeControl::from_pgn("300+3"), Some(tc));
        assert_eq!(
            TimeControl::from_pgn("600").map(|t| t.to_string()),
            Some("10+0".into())
        );
        let short: TimeControl = "0.005+0".parse().unwrap();
        assert_eq!(short.pgn(), "0.3+0");
        assert_eq!(TimeControl::from_pgn(&short.pgn()), Some(short));
        for other in [
            "-",
            "?",
            "40/7200:3600",
            "*60",
            "",
            "0+5",
            "300+-1",
            "1e9+0",
        ] {
            assert_eq!(TimeControl::from_pgn(other), None, "{other}");
        }
    }

    #[test]
    fn the_running_clock_loses_time_and_the_mover_gains_the_increment() {
        let t0 = Instant::now();
        let s = Duration::from_secs;
        let mut c = Clock::new("1+2".parse().unwrap());
        c.start(Color::White, t0);
        assert_eq!(c.times(t0 + s(10)).of(Color::White), s(50));
        assert_eq!(c.times(t0 + s(10)).of(Color::Black), s(60));
        c.moved(Color::White, t0 + s(10));
        assert_eq!(c.running(), None);
        assert_eq!(
            c.times(t0 + s(30)).of(Color::White),
            s(52),
            "stopped while the move is played"
        );
        c.start(Color::Black, t0 + s(11));
        assert_eq!(c.flag(t0 + s(70)), None);
        assert_eq!(c.flag(t0 + s(71)), Some(Color::Black));
        // A flag that fell gains no increment.
        c.moved(Color::Black, t0 + s(80));
        assert_eq!(c.times(t0 + s(80)).of(Color::Black), Duration::ZERO);
    }

    #[test]
    fn clocks_in_words() {
        let ms = Duration::from_millis;
        assert_eq!(clock_words(ms(298_400)), "4:58");
        assert_eq!(clock_words(ms(9_740)), "0:09.7");
        assert_eq!(clock_words(ms(10_000)), "0:10");
        assert_eq!(clock_words(ms(3_723_000)), "1:02:03");
        assert_eq!(clock_words(Duration::ZERO), "0:00.0");
    }

    #[test]
    fn endings_name_the_winner_and_the_reason() {
        assert_eq!(Ending::on_time(Color::White).status, Status::BlackWins);
        assert_eq!(Ending::on_time(Color::White).reason, "white lost on time");
        assert_eq!(Ending::resigned(Color::Black).status, Status::WhiteWins);
        assert_eq!(Ending::agreed().status, Status::Draw);
        assert_eq!(Ending::left(Color::Black).status, Status::WhiteWins);
        assert_eq!(Ending::left(Color::Black).reason, "black left the game");
    }
}
