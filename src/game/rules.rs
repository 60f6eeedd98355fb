//! The names of the rule systems and what a player and the screens need to know of each
//! (its rules in short, whether it runs on the simulator, whether the engine searches
//! it), and how a game starts ([`Setup`]). Making a game of each is
//! [`crate::variants::new_game`].

use crate::chess::GameOptions;
use crate::quantum::BackendKind;
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
    /// is a [`super::Playable`] and a line in each `match` of this file and of
    /// [`crate::variants::new_game`], nothing more.
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
            RuleSet::Toy => &TOY_RULES,
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

/// The toy's rules in short.
#[cfg(test)]
const TOY_RULES: [&str; 2] = [
    "Kings only (a test's rule system)",
    "Each side moves its king one square; capturing the other king wins.",
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
        (self.rules == RuleSet::Quantum).then_some(self.options.simulator.backend)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for r in RuleSet::ALL {
            assert_eq!(r.name().parse::<RuleSet>(), Ok(r));
        }
        assert!("chess960".parse::<RuleSet>().is_err());
    }
}
