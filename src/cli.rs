//! What the subcommands of the command line share: how each one ends ([`Outcome`]), the
//! one printer of their errors, writing standard output, and the value parsers of the
//! flags that several subcommands take. Each subcommand's arguments and `run` live with
//! its module (`ui::cli`, `analyze::cli`, `server::cli`, …); `main` only dispatches.

use crate::chess::Square;
use crate::game::clock::{parse_clock, TimeControl};
use crate::game::RuleSet;
use crate::quantum::BackendKind;
use crate::ui::color::ColorChoice;
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

/// A square flag (`a1`..`h8`).
pub fn parse_square(s: &str) -> Result<Square, String> {
    Square::parse(s).ok_or_else(|| format!("\"{s}\" is not a square (a1..h8)"))
}

/// `--backend`: sparse or dense.
pub fn parse_backend(s: &str) -> Result<BackendKind, String> {
    s.parse()
        .map_err(|e: crate::quantum::QuantumError| e.to_string())
}

/// `--color`: auto, truecolor, 256, 16 or none.
pub fn parse_color(s: &str) -> Result<ColorChoice, String> {
    s.parse()
        .map_err(|e: crate::ui::color::BadColorChoice| e.to_string())
}

/// `--variant`: quantum, harmonics or haft.
pub fn parse_variant(s: &str) -> Result<RuleSet, String> {
    s.parse()
        .map_err(|e: crate::game::rules::UnknownRuleSet| e.to_string())
}

/// `--level`: the computer's level, 1 to 5.
pub fn parse_level(s: &str) -> Result<u8, String> {
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
