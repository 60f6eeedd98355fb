//! The command layer: each subcommand's arguments and `run` (one file each), and what
//! they share: how each one ends ([`Outcome`]), the one printer of their errors, writing
//! standard output, and the value parsers of the flags that several subcommands take.
//! It stands above every other module and nothing below imports it; `main` only
//! dispatches.

pub mod analyze;
pub mod club;
pub mod config;
pub mod export;
pub mod matches;
pub mod play;
pub mod puzzles;
pub mod review;
pub mod serve;
pub mod skat;

use crate::chess::Square;
use crate::game::clock::{parse_clock, TimeControl};
use crate::game::RuleSet;
use crate::quantum::BackendKind;
use crate::style::color::ColorChoice;
use clap::builder::{PossibleValue, TypedValueParser};
use std::fmt;
use std::process::ExitCode;

/// What a subcommand's `run` gives back.
pub type Outcome = Result<Done, Failure>;

/// How a subcommand that did its work ends.
#[derive(Debug)]
pub enum Done {
    /// Its output, for standard output.
    Print(String),
    /// It has shown what it had to; the exit code.
    Exit(u8),
}

/// Why a subcommand stopped: one line on standard error and the exit code.
#[derive(Debug)]
pub struct Failure {
    /// Who says it: `qchess`, or a subcommand that has a voice of its own (`qchess
    /// serve`, whose log lines all begin so).
    pub by: &'static str,
    /// What went wrong.
    pub message: String,
    /// The exit code.
    pub code: u8,
}

impl Failure {
    /// `qchess: {e}` with exit code 2: what was asked cannot be done.
    pub fn new(e: impl fmt::Display) -> Failure {
        Failure::with_code(2, e)
    }

    /// `qchess: {e}` with the exit code `code`.
    pub fn with_code(code: u8, e: impl fmt::Display) -> Failure {
        Failure {
            by: "qchess",
            message: e.to_string(),
            code,
        }
    }
}

/// Says a problem that does not stop the subcommand on standard error, as failures
/// are said: `qchess: {message}`.
pub fn warn(message: impl fmt::Display) {
    say("qchess", message);
}

/// The one printer of the command line's errors: `{by}: {message}` on standard error
/// (a terminal that is gone, as after a hangup, is not a reason to panic).
fn say(by: &str, message: impl fmt::Display) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{by}: {message}");
}

/// Ends a subcommand: writes its output or says its failure; the exit code.
pub fn finish(outcome: Outcome) -> ExitCode {
    let ended = outcome.and_then(|done| match done {
        Done::Print(text) => write_stdout(&text).map(|()| 0),
        Done::Exit(code) => Ok(code),
    });
    match ended {
        Ok(code) => ExitCode::from(code),
        Err(f) => {
            say(f.by, &f.message);
            ExitCode::from(f.code)
        }
    }
}

/// Writes `text` on standard output; a reader that closed the pipe early (`| head`) is
/// not an error.
pub fn write_stdout(text: &str) -> Result<(), Failure> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::with_code(
            1,
            format!("cannot write the output: {e}"),
        )),
    }
}

/// A flag's value parser that names the values the flag takes, so that `--help`, the
/// manual pages and the shells' completion scripts offer them. Reading a value (and
/// saying what is wrong with one) is the parsing function's.
#[derive(Clone)]
pub struct Offered<T> {
    parse: fn(&str) -> Result<T, String>,
    values: Vec<&'static str>,
}

impl<T> Offered<T> {
    /// The values `values`, read by `parse`.
    pub fn new(parse: fn(&str) -> Result<T, String>, values: &[&'static str]) -> Offered<T> {
        Offered {
            parse,
            values: values.to_vec(),
        }
    }
}

impl<T: Clone + Send + Sync + 'static> TypedValueParser for Offered<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        self.parse.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.values.iter().map(|v| PossibleValue::new(*v))))
    }
}

/// `--variant`, offering the rule systems.
pub fn variant_flag() -> Offered<RuleSet> {
    Offered::new(parse_variant, &RuleSet::ALL.map(RuleSet::name))
}

/// `--backend`, offering sparse and dense.
pub fn backend_flag() -> Offered<BackendKind> {
    Offered::new(parse_backend, &BackendKind::ALL.map(|b| b.name()))
}

/// `--color`, offering its words.
pub fn color_flag() -> Offered<ColorChoice> {
    Offered::new(parse_color, &ColorChoice::WORDS)
}

/// `--puzzle-theme`, offering the puzzles' themes.
pub fn puzzle_theme_flag() -> Offered<crate::puzzles::Theme> {
    use crate::puzzles::Theme;
    Offered::new(parse_puzzle_theme, &Theme::ALL.map(Theme::name))
}

/// `--level`, offering 1 to 5.
pub fn level_flag() -> Offered<u8> {
    Offered::new(parse_level, &crate::engine::level::LEVEL_NAMES)
}

/// `--theme`, offering the built-in themes (a theme of the user's is taken as well).
pub fn theme_flag() -> Offered<String> {
    Offered::new(
        |s| Ok(s.to_string()),
        &crate::config::themes::BUILT_IN.map(|(name, _)| name),
    )
}

/// A square flag (`a1`..`h8`).
pub fn parse_square(s: &str) -> Result<Square, String> {
    Square::parse(s).ok_or_else(|| format!("\"{s}\" is not a square (a1..h8)"))
}

/// `--backend`: sparse or dense.
fn parse_backend(s: &str) -> Result<BackendKind, String> {
    s.parse()
        .map_err(|e: crate::quantum::QuantumError| e.to_string())
}

/// `--color`: auto, truecolor, 256, 16 or none.
fn parse_color(s: &str) -> Result<ColorChoice, String> {
    s.parse()
        .map_err(|e: crate::style::color::BadColorChoice| e.to_string())
}

/// `--variant`: quantum, harmonics or haft.
fn parse_variant(s: &str) -> Result<RuleSet, String> {
    s.parse()
        .map_err(|e: crate::game::UnknownRuleSet| e.to_string())
}

/// `--puzzle-theme`: one of the puzzles' themes.
fn parse_puzzle_theme(s: &str) -> Result<crate::puzzles::Theme, String> {
    s.parse()
        .map_err(|e: crate::puzzles::theme::UnknownTheme| e.to_string())
}

/// `--level`: the computer's level, 1 to 5.
fn parse_level(s: &str) -> Result<u8, String> {
    crate::engine::level::check(whole_number(s)?).map_err(|e| e.to_string())
}

/// `--dense-limit`: the largest dense state, as log2 of its amplitudes.
pub fn parse_dense_limit(s: &str) -> Result<u32, String> {
    crate::config::file::check_dense_limit(whole_number(s)?).map_err(|e| e.to_string())
}

/// `--sparse-limit`: the largest sparse state, in branches.
pub fn parse_sparse_limit(s: &str) -> Result<usize, String> {
    crate::config::file::check_sparse_limit(whole_number(s)?).map_err(|e| e.to_string())
}

/// `--clock`'s value: a time control, or none (`none`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockFlag(pub Option<TimeControl>);

/// `--clock`: `MIN+INC` or `none`.
pub fn parse_clock_flag(s: &str) -> Result<ClockFlag, String> {
    parse_clock(s).map(ClockFlag).map_err(|e| e.to_string())
}

/// `--game`: a game's number in its file, from 1.
pub fn parse_game_number(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "\"{s}\" is not a game number: games are numbered from 1"
        )),
    }
}

/// A flag's whole number, before its range is checked.
fn whole_number(s: &str) -> Result<i64, String> {
    s.parse()
        .map_err(|_| format!("\"{s}\" is not a whole number"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::builder::TypedValueParser;

    /// The values a flag offers, each read back by the flag.
    fn offered_values<T: Clone + Send + Sync + 'static>(flag: &Offered<T>) -> Vec<(String, T)> {
        let cmd = clap::Command::new("test");
        flag.possible_values()
            .into_iter()
            .flatten()
            .map(|v| {
                let name = v.get_name().to_string();
                let read = flag.parse_ref(&cmd, None, std::ffi::OsStr::new(&name));
                (name.clone(), read.unwrap_or_else(|e| panic!("{name}: {e}")))
            })
            .collect()
    }

    #[test]
    fn every_offered_value_is_read_as_itself() {
        for (name, r) in offered_values(&variant_flag()) {
            assert_eq!(r.name(), name);
        }
        for (name, b) in offered_values(&backend_flag()) {
            assert_eq!(b.name(), name);
        }
        for (name, c) in offered_values(&color_flag()) {
            assert_eq!(c.to_string(), name);
        }
        let levels: Vec<u8> = offered_values(&level_flag())
            .into_iter()
            .map(|l| l.1)
            .collect();
        let all: Vec<u8> =
            (crate::engine::level::MIN_LEVEL..=crate::engine::level::MAX_LEVEL).collect();
        assert_eq!(levels, all);
        assert_eq!(
            offered_values(&theme_flag()).len(),
            crate::config::themes::BUILT_IN.len()
        );
        // A value not offered is still the parsing function's to judge.
        let cmd = clap::Command::new("test");
        let e = level_flag().parse_ref(&cmd, None, std::ffi::OsStr::new("9"));
        assert!(e
            .unwrap_err()
            .to_string()
            .contains("level 9 does not exist"));
        assert!(theme_flag()
            .parse_ref(&cmd, None, std::ffi::OsStr::new("mine"))
            .is_ok());
    }
}
