//! Player specifications on the command line: `engine:LEVEL`, `random`, `greedy`,
//! `uqci:CMD` (an external UQCI engine run by the command line CMD, quoted as one
//! argument: `uqci:"qchess uqci"`), `uci:CMD` (a classical UCI chess engine playing the
//! most likely classical board, see [`super::uci`]). Each form is a [`PlayerSpec`] variant, an arm in
//! [`PlayerSpec::from_str`] and in [`PlayerSpec::build`].

use crate::engine::level::{self, BadLevel};
use crate::engine::player::{Engine, Greedy, Player, Random};
use crate::uqci::client::{UqciPlayer, DEFAULT_MOVETIME};
use crate::uqci::uci::{UciPlayer, UciSettings};
use std::fmt;
use std::str::FromStr;

/// Which player to build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// The engine at a level 1..5 (`engine:3`; `engine` alone is level 3).
    Engine(u8),
    /// A random legal move (`random`).
    Random,
    /// One ply on king presence and expected material (`greedy`).
    Greedy,
    /// An external UQCI engine run by this command line (`uqci:CMD`), thinking
    /// [`DEFAULT_MOVETIME`] per move.
    Uqci(String),
    /// A classical UCI chess engine run by this command line (`uci:CMD`) on the most
    /// likely classical board, searching as `settings` say.
    Uci {
        /// The command line.
        command: String,
        /// Depth, lines and opening variation.
        settings: UciSettings,
    },
}

/// A player specification that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// Not one of the forms.
    #[error(
        "unknown player \"{0}\": expected engine:LEVEL (1..5), random, greedy, uqci:\"CMD\" or uci:\"CMD\""
    )]
    Unknown(String),
    /// `uqci:` or `uci:` with no command.
    #[error("\"{0}\": give the engine's command after the colon, e.g. uqci:\"qchess uqci\" or uci:stockfish")]
    NoCommand(String),
    /// `engine:` with something that is not a number.
    #[error("\"{0}\": the level after engine: must be a number from 1 to 5")]
    LevelNotNumber(String),
    /// A level out of range.
    #[error(transparent)]
    Level(#[from] BadLevel),
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        let (kind, arg) = match s.split_once(':') {
            Some((k, a)) => (k, Some(a)),
            None => (s, None),
        };
        match (kind.to_ascii_lowercase().as_str(), arg) {
            ("engine", None) => Ok(PlayerSpec::Engine(level::DEFAULT_LEVEL)),
            ("engine", Some(a)) => {
                let n: i64 = a
                    .trim()
                    .parse()
                    .map_err(|_| SpecError::LevelNotNumber(s.to_string()))?;
                Ok(PlayerSpec::Engine(level::check(n)?))
            }
            ("uqci" | "uci", Some(cmd)) if cmd.trim().is_empty() => {
                Err(SpecError::NoCommand(s.into()))
            }
            ("uqci", Some(cmd)) => Ok(PlayerSpec::Uqci(cmd.trim().to_string())),
            ("uci", Some(cmd)) => Ok(PlayerSpec::Uci {
                command: cmd.trim().to_string(),
                settings: UciSettings::default(),
            }),
            ("random", None) => Ok(PlayerSpec::Random),
            ("greedy", None) => Ok(PlayerSpec::Greedy),
            _ => Err(SpecError::Unknown(s.to_string())),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Engine(l) => write!(f, "engine:{l}"),
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::Uqci(cmd) => write!(f, "uqci:{cmd}"),
            PlayerSpec::Uci { command, .. } => write!(f, "uci:{command}"),
        }
    }
}

impl PlayerSpec {
    /// A new player of this kind; `seed` drives its random choices.
    pub fn build(&self, seed: u64) -> Box<dyn Player> {
        match self {
            PlayerSpec::Engine(l) => Box::new(Engine::at_level(*l, seed)),
            PlayerSpec::Random => Box::new(Random::new(seed)),
            PlayerSpec::Greedy => Box::new(Greedy::new(seed)),
            PlayerSpec::Uqci(cmd) => Box::new(UqciPlayer::new(cmd, DEFAULT_MOVETIME)),
            PlayerSpec::Uci { command, settings } => {
                Box::new(UciPlayer::new(command, settings.clone(), seed))
            }
        }
    }

    /// As [`PlayerSpec::build`]; an engine with a book varies its first `book_vary`
    /// moves ([`Engine::varying`]), the other players are unchanged.
    pub fn build_varied(&self, seed: u64, book_vary: u32) -> Box<dyn Player> {
        match self {
            PlayerSpec::Engine(l) => Box::new(Engine::at_level(*l, seed).varying(book_vary)),
            other => other.build(seed),
        }
    }

    /// The same player, a UCI engine searching as `settings` say (the others unchanged).
    pub fn with_uci(self, settings: &UciSettings) -> PlayerSpec {
        match self {
            PlayerSpec::Uci { command, .. } => PlayerSpec::Uci {
                command,
                settings: settings.clone(),
            },
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        for (text, spec) in [
            ("engine:1", PlayerSpec::Engine(1)),
            ("Engine:5", PlayerSpec::Engine(5)),
            ("engine", PlayerSpec::Engine(3)),
            ("random", PlayerSpec::Random),
            (" greedy ", PlayerSpec::Greedy),
            (
                "uqci:./eng --level 2",
                PlayerSpec::Uqci("./eng --level 2".into()),
            ),
            ("UQCI:qchess uqci", PlayerSpec::Uqci("qchess uqci".into())),
            (
                "uci:stockfish",
                PlayerSpec::Uci {
                    command: "stockfish".into(),
                    settings: UciSettings::default(),
                },
            ),
        ] {
            assert_eq!(text.parse::<PlayerSpec>(), Ok(spec.clone()), "{text}");
            assert_eq!(spec.to_string().parse::<PlayerSpec>(), Ok(spec));
        }
        assert!(matches!(
            "engine:6".parse::<PlayerSpec>(),
            Err(SpecError::Level(_))
        ));
        assert!(matches!(
            "engine:x".parse::<PlayerSpec>(),
            Err(SpecError::LevelNotNumber(_))
        ));
        assert!(matches!(
            "stockfish".parse::<PlayerSpec>(),
            Err(SpecError::Unknown(_))
        ));
        assert!(matches!(
            "uqci: ".parse::<PlayerSpec>(),
            Err(SpecError::NoCommand(_))
        ));
        assert!(matches!(
            "uci:".parse::<PlayerSpec>(),
            Err(SpecError::NoCommand(_))
        ));
        assert!(matches!(
            "random:2".parse::<PlayerSpec>(),
            Err(SpecError::Unknown(_))
        ));
        assert_eq!(PlayerSpec::Engine(2).build(0).name(), "qchess level 2");
        assert_eq!(
            PlayerSpec::Uqci("qchess uqci".into()).build(0).name(),
            "uqci: qchess uqci"
        );
        let deep = UciSettings {
            depth: 3,
            ..UciSettings::default()
        };
        assert_eq!(
            "uci:sf".parse::<PlayerSpec>().unwrap().with_uci(&deep),
            PlayerSpec::Uci {
                command: "sf".into(),
                settings: deep.clone()
            }
        );
        assert_eq!(PlayerSpec::Random.with_uci(&deep), PlayerSpec::Random);
        assert_eq!(
            "uci:sf".parse::<PlayerSpec>().unwrap().build(0).name(),
            "uci: sf"
        );
    }
}
