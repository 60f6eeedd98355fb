//! The engine's UQCI options: what `uci` lists and `setoption` changes.

use super::protocol::{OptionKind, OptionSpec};
use crate::chess::GameOptions;
use crate::engine::level;
use crate::quantum::{BackendKind, SimulatorSettings};

/// Largest `Seed` (UQCI spins are often read as 32-bit numbers by front ends).
pub const MAX_SEED: i64 = i32::MAX as i64;

/// The options and their values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// `forceturn`: no turn order (any side may move, as `analyze --free-turns`).
    pub forceturn: bool,
    /// `forcewin`: no win conditions (a king captured with certainty does not end the
    /// game).
    pub forcewin: bool,
    /// `forcemeasure`: every measuring move in `position` must say its outcome (`.mN`).
    pub forcemeasure: bool,
    /// `Level`: 1..5, the limits of a `go` that gives none.
    pub level: u8,
    /// `Backend`: the simulator.
    pub backend: BackendKind,
    /// `Seed`: draws the outcomes of measuring moves given without `.mN`, and chooses
    /// among equal moves.
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            forceturn: false,
            forcewin: false,
            forcemeasure: false,
            level: level::DEFAULT_LEVEL,
            backend: BackendKind::Sparse,
            seed: 0,
        }
    }
}

/// A `setoption` that cannot be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No such option.
    #[error("there is no option \"{0}\" (the options: forceturn, forcewin, forcemeasure, Level, Backend, Seed)")]
    Unknown(String),
    /// A value the option does not take.
    #[error("option {name} does not take the value \"{value}\": {expected}")]
    BadValue {
        /// The option.
        name: &'static str,
        /// The value given.
        value: String,
        /// What it takes.
        expected: &'static str,
    },
}

impl Options {
    /// The `option` lines of `uci`, with the defaults.
    pub fn specs() -> Vec<OptionSpec> {
        let d = Options::default();
        let check = |name: &str, default| OptionSpec {
            name: name.into(),
            kind: OptionKind::Check(default),
        };
        vec![
            check("forceturn", d.forceturn),
            check("forcewin", d.forcewin),
            check("forcemeasure", d.forcemeasure),
            OptionSpec {
                name: "Level".into(),
                kind: OptionKind::Spin {
                    default: d.level.into(),
                    min: level::MIN_LEVEL.into(),
                    max: level::MAX_LEVEL.into(),
                },
            },
            OptionSpec {
                name: "Backend".into(),
                kind: OptionKind::Combo {
                    default: d.backend.name().into(),
                    vars: vec!["sparse".into(), "dense".into()],
                },
            },
            OptionSpec {
                name: "Seed".into(),
                kind: OptionKind::Spin {
                    default: d.seed as i64,
                    min: 0,
                    max: MAX_SEED,
                },
            },
        ]
    }

    /// Applies `setoption name NAME value VALUE` (names and values case-insensitive; a
    /// check without a value is set to true).
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        let value = value.unwrap_or("").trim();
        let lower = value.to_ascii_lowercase();
        let check = |name: &'static str| match lower.as_str() {
            "true" | "" => Ok(true),
            "false" => Ok(false),
            _ => Err(OptionError::BadValue {
                name,
                value: value.into(),
                expected: "true or false",
            }),
        };
        match name.trim().to_ascii_lowercase().as_str() {
            "forceturn" => self.forceturn = check("forceturn")?,
            "forcewin" => self.forcewin = check("forcewin")?,
            "forcemeasure" => self.forcemeasure = check("forcemeasure")?,
            "level" => {
                let bad = || OptionError::BadValue {
                    name: "Level",
                    value: value.into(),
                    expected: "a level from 1 (weakest) to 5 (strongest)",
                };
                let n: i64 = value.parse().map_err(|_| bad())?;
                self.level = level::check(n).map_err(|_| bad())?;
            }
            "backend" => {
                self.backend = lower.parse().map_err(|_| OptionError::BadValue {
                    name: "Backend",
                    value: value.into(),
                    expected: "sparse or dense",
                })?
            }
            "seed" => {
                self.seed = value
                    .parse::<u64>()
                    .ok()
                    .filter(|&n| n <= MAX_SEED as u64)
                    .ok_or_else(|| OptionError::BadValue {
                        name: "Seed",
                        value: value.into(),
                        expected: "a whole number from 0 to 2147483647",
                    })?
            }
            _ => return Err(OptionError::Unknown(name.trim().into())),
        }
        Ok(())
    }

    /// The options of the games `position` sets up.
    pub fn game_options(&self) -> GameOptions {
        GameOptions {
            simulator: SimulatorSettings::on(self.backend),
            seed: self.seed,
            free_turns: self.forceturn,
            no_win: self.forcewin,
            ..GameOptions::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_case_insensitive_and_values_checked() {
        let mut o = Options::default();
        o.set("ForceTurn", Some("TRUE")).unwrap();
        o.set("FORCEWIN", Some("true")).unwrap();
        o.set("forcemeasure", None).unwrap();
        o.set("level", Some("5")).unwrap();
        o.set("backend", Some("Dense")).unwrap();
        o.set("seed", Some("42")).unwrap();
        assert_eq!(
            o,
            Options {
                forceturn: true,
                forcewin: true,
                forcemeasure: true,
                level: 5,
                backend: BackendKind::Dense,
                seed: 42,
            }
        );
        let g = o.game_options();
        assert!(g.free_turns && g.no_win);
        assert_eq!((g.simulator.backend, g.seed), (BackendKind::Dense, 42));
        o.set("forceturn", Some("false")).unwrap();
        assert!(!o.forceturn);
    }

    #[test]
    fn bad_settings_change_nothing() {
        let mut o = Options::default();
        for (name, value) in [
            ("Level", "0"),
            ("Level", "6"),
            ("Level", "three"),
            ("Backend", "gpu"),
            ("forceturn", "yes"),
            ("Seed", "-1"),
            ("Seed", "4294967296"),
        ] {
            assert!(
                matches!(o.set(name, Some(value)), Err(OptionError::BadValue { .. })),
                "{name} {value}"
            );
        }
        assert_eq!(
            o.set("Hash", Some("16")),
            Err(OptionError::Unknown("Hash".into()))
        );
        assert_eq!(o, Options::default());
    }

    #[test]
    fn the_option_lines() {
        let lines: Vec<String> = Options::specs()
            .into_iter()
            .map(|s| super::super::protocol::Output::Option(s).to_string())
            .collect();
        assert_eq!(
            lines,
            [
                "option name forceturn type check default false",
                "option name forcewin type check default false",
                "option name forcemeasure type check default false",
                "option name Level type spin default 3 min 1 max 5",
                "option name Backend type combo default sparse var sparse var dense",
                "option name Seed type spin default 0 min 0 max 2147483647",
            ]
        );
    }
}
