//! The registry of rule systems: their names, their rules in short, and a new game of
//! each. The one place that knows which rule systems exist.

use super::cancel::CancelFlag;
use super::playable::{PlayError, Playable};
use crate::chess::fen::START_FEN;
use crate::chess::{Game, GameOptions};
use crate::quantum::BackendKind;
use crate::variants::{haft, harmonics};
use std::fmt;
use std::str::FromStr;

/// The rule system a game follows, as named on the command line (`--variant`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RuleSet {
    /// Quantum Chess (Cantwell's rules) on the simulator.
    #[default]
    Quantum,
    /// Weighted classical boards (docs/rules/harmonics.md).
    Harmonics,
    /// Haft Schroedinger Chess (docs/rules/haft.md).
    Haft,
    /// A toy rule system that exists in unit tests only: it shows that a rule system
    /// is a [`Playable`] and a line in each `match` of this file, nothing more.
    #[cfg(test)]
    Toy,
}

impl RuleSet {
    /// Every rule system, in the order help text lists them.
    pub const ALL: [RuleSet; 3] = [RuleSet::Quantum, RuleSet::Harmonics, RuleSet::Haft];

    /// The name used on the command line and in saved games.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Quantum => "quantum",
            RuleSet::Harmonics => "harmonics",
            RuleSet::Haft => "haft",
            #[cfg(test)]
            RuleSet::Toy => "toy",
        }
    }

    /// Whether a game review marks this rule system's mistakes: its evaluation must
    /// value a move by what it gives away. Haft's does not: a piece that moves shows
    /// its type, and a piece of unknown type counts as the mean of a back rank, so a
    /// knight's first move "gives away" the difference to that mean. Its review keeps
    /// the graph of expected results and marks nothing.
    pub fn review_marks(self) -> bool {
        match self {
            RuleSet::Quantum | RuleSet::Harmonics => true,
            RuleSet::Haft => false,
            #[cfg(test)]
            RuleSet::Toy => true,
        }
    }

    /// Whether a game runs on the quantum simulator: a backend to choose, a circuit
    /// (OpenQASM), Bell values and entanglement, free turns, measurement outcomes
    /// written `.m0` / `.m1`. The variants keep states of their own.
    pub fn simulated(self) -> bool {
        matches!(self, RuleSet::Quantum)
    }

    /// Whether qchess's engine searches it at levels 1 to 5 and UQCI engines play it;
    /// elsewhere the computer is the greedy player (one ply).
    pub fn searched(self) -> bool {
        matches!(self, RuleSet::Quantum)
    }

    /// The value of PGN's `Variant` tag for it (qchess's own names for the variants).
    pub fn pgn_variant(self) -> &'static str {
        match self {
            RuleSet::Quantum => "Quantum",
            RuleSet::Harmonics => "qchess harmonics",
            RuleSet::Haft => "qchess haft",
            #[cfg(test)]
            RuleSet::Toy => "qchess toy",
        }
    }

    /// The rules in short, for a chess player: a heading and paragraphs (the help's
    /// rules page; the whole rules are in `docs/rules/`).
    pub fn short_rules(self) -> &'static [&'static str] {
        match self {
            RuleSet::Quantum => &QUANTUM_RULES,
            RuleSet::Harmonics => &HARMONICS_RULES,
            RuleSet::Haft => &HAFT_RULES,
            #[cfg(test)]
            RuleSet::Toy => &super::toy::RULES,
        }
    }
}

const QUANTUM_RULES: [&str; 6] = [
    "Quantum Chess in short (all of it: docs/rules/quantum-chess.md)",
    "Pieces move as in chess. A knight, bishop, rook, queen or king may also split \
     (s, or :b1^a3c3) onto two squares, each with a chance (the number shown); found \
     on one, it is not on the other. Merge (m, or :a3c3^b5) brings the halves together.",
    "A bishop, rook or queen crossing a square that may be occupied moves only where \
     it is empty: the two pieces are then tied together (entangled).",
    "A capture first asks if it can happen (is my piece there, is its path clear?): \
     the answer is drawn with its chance, pieces tied to it change, and a no spends the \
     turn. A piece partly on the target is taken only where it was.",
    "A move onto a square that may hold a piece you cannot take asks if it is empty.",
    "No check: you win by capturing the king (its chance reaches 0). After 50 moves \
     without a change of material, or a third repetition, every square is looked at: \
     a king not found has lost.",
];

const HARMONICS_RULES: [&str; 5] = [
    "Harmonics in short (all of it: docs/rules/harmonics.md)",
    "The game is a list of ordinary boards with weights; a square shows its piece and \
     the weight of the boards where it stands there.",
    "An ordinary move is made on every board that allows it. A quantum move (:b1~d5), \
     to an empty square one or two quiet moves away, splits every such board into a \
     moved and an unmoved half. Pawns never make quantum moves; they never capture.",
    "Two different pieces that would share a square on different boards are a \
     conflict: one is kept, at random by weight, and the other's boards are dropped.",
    "There is no check: you win when the enemy king's chance reaches 0.",
];

const HAFT_RULES: [&str; 5] = [
    "Haft Schroedinger Chess in short (all of it: docs/rules/haft.md)",
    "The back-rank pieces start as undetermined majors (M): K, Q, R, R, B, B, N, N in an \
     order nobody knows. A piece takes on a type by how it moves: after b1c3 it is a \
     knight.",
    "A move is legal when some starting order makes the whole game so far legal chess \
     (no castling, check rules included): those orders are the consistent worlds.",
    "A knight-mover is a knight in every world; three rook-movers are two rooks and the \
     queen; a captured piece was never the king.",
    "You win by checkmate in every consistent world; worlds that disagree make a draw.",
];

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that is not one of [`RuleSet::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant {0:?}: expected quantum, harmonics or haft")]
pub struct UnknownRuleSet(pub String);

impl FromStr for RuleSet {
    type Err = UnknownRuleSet;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RuleSet::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownRuleSet(s.to_string()))
    }
}

/// How a game starts: what a saved game keeps besides its moves.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// The rule system.
    pub rules: RuleSet,
    /// The start position as FEN; `None` for the rule system's own start.
    pub start: Option<String>,
    /// The seed of the random outcomes and, for Quantum Chess, the simulator's backend,
    /// size limits and free turns (the other rule systems use the seed only).
    pub options: GameOptions,
}

impl Setup {
    /// The rule system's own start with `seed` and default options.
    pub fn new(rules: RuleSet, seed: u64) -> Setup {
        Setup {
            rules,
            start: None,
            options: GameOptions {
                seed,
                ..GameOptions::default()
            },
        }
    }

    /// The start `start` (FEN; `None` for the rule system's own) with `seed` and
    /// default options.
    pub fn with_start(rules: RuleSet, start: Option<&str>, seed: u64) -> Setup {
        Setup {
            start: start.map(str::to_string),
            ..Setup::new(rules, seed)
        }
    }

    /// The simulator backend, for the rule system that has one.
    pub fn backend(&self) -> Option<BackendKind> {
        (self.rules == RuleSet::Quantum).then_some(self.options.backend)
    }
}

/// The registry of rule systems: a new game as `setup` says.
pub fn new_game(setup: &Setup) -> Result<Box<dyn Playable>, PlayError> {
    let seed = setup.options.seed;
    match (setup.rules, setup.start.as_deref()) {
        (RuleSet::Quantum, start) => {
            let fen = start.unwrap_or(START_FEN);
            Game::from_fen(fen, setup.options)
                .map(|g| Box::new(g) as Box<dyn Playable>)
                .map_err(|e| PlayError(e.to_string()))
        }
        (RuleSet::Harmonics, None) => Ok(Box::new(harmonics::HarmonicsGame::new(seed))),
        (RuleSet::Harmonics, Some(f)) => Ok(Box::new(harmonics::HarmonicsGame::from_fen(f, seed)?)),
        (RuleSet::Haft, None) => Ok(Box::new(haft::HaftGame::new().with_seed(seed))),
        #[cfg(test)]
        (RuleSet::Toy, _) => Ok(Box::new(super::toy::Toy::new(seed))),
        (RuleSet::Haft, Some(_)) => Err(PlayError(
            "haft always starts from its own position (pawns, and undetermined pieces on the back ranks): a start FEN is not supported".into(),
        )),
    }
}

/// Why a game could not be replayed from its setup and moves.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The start could not be set up.
    #[error("{0}")]
    Start(PlayError),
    /// A move could not be played.
    #[error("move {ply} \"{text}\": {reason}")]
    Move {
        /// 1-based ply of the move.
        ply: usize,
        /// The move as recorded.
        text: String,
        /// Why it was refused.
        reason: PlayError,
    },
}

/// The game `setup` starts with `moves` played in order, watching `cancel` from the
/// start (the game keeps watching it).
pub fn replay(
    setup: &Setup,
    moves: &[String],
    cancel: Option<CancelFlag>,
) -> Result<Box<dyn Playable>, ReplayError> {
    let mut game = new_game(setup).map_err(ReplayError::Start)?;
    game.set_cancel(cancel);
    for (i, text) in moves.iter().enumerate() {
        game.play(text).map_err(|reason| ReplayError::Move {
            ply: i + 1,
            text: text.clone(),
            reason,
        })?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_games() {
        for r in RuleSet::ALL {
            assert_eq!(r.name().parse::<RuleSet>(), Ok(r));
        }
        assert!("chess960".parse::<RuleSet>().is_err());
        for r in RuleSet::ALL {
            let game = new_game(&Setup::new(r, 1)).unwrap();
            assert_eq!(game.rules(), r);
            let setup = game.setup();
            assert_eq!((setup.rules, setup.options.seed), (r, 1));
        }
        let empty = Setup {
            start: Some("8/8/8/8/8/8/8/8 w - - 0 1".into()),
            ..Setup::new(RuleSet::Haft, 1)
        };
        assert!(new_game(&empty).is_err());
    }

    #[test]
    fn replay_names_the_refused_move() {
        let setup = Setup::new(RuleSet::Quantum, 3);
        let moves = ["e2e4".to_string(), "e2e4".to_string()];
        match replay(&setup, &moves, None) {
            Err(ReplayError::Move { ply, text, .. }) => {
                assert_eq!((ply, text.as_str()), (2, "e2e4"))
            }
            other => panic!("expected a refused move, got {:?}", other.map(|g| g.ply())),
        }
        let game = replay(&setup, &moves[..1], None).unwrap();
        assert_eq!(game.ply(), 1);
    }
}
