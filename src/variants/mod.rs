//! The other rule systems: "harmonics" (weighted classical boards) and "haft" (Haft
//! Schroedinger Chess). Each implements [`VariantGame`], which is all the terminal game,
//! saved games, replay and `qchess analyze` need to know about them.

pub mod haft;
pub mod harmonics;

use crate::chess::{Color, Kind, Square, Status};
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

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
        }
    }

    /// The rules in short, for a chess player: a heading and paragraphs (the help's
    /// rules page; the whole rules are in `docs/rules/`).
    pub fn short_rules(self) -> &'static [&'static str] {
        match self {
            RuleSet::Quantum => &QUANTUM_RULES,
            RuleSet::Harmonics => &HARMONICS_RULES,
            RuleSet::Haft => &HAFT_RULES,
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

/// What the board shows on one square.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cell {
    /// The piece's side.
    pub color: Color,
    /// The piece's type; `None` while it is undetermined (haft's "M").
    pub kind: Option<Kind>,
    /// The probability that the piece stands here (1 for a certain piece).
    pub probability: f64,
}

/// One ply as the history, the trace pane and saved games see it.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyRecord {
    /// The move in the variant's canonical notation, with every random outcome it caused,
    /// so that playing this text again reproduces the ply exactly.
    pub text: String,
    /// The side that moved.
    pub color: Color,
    /// A short remark for the history pane ("locks N on g1", "2 harmonics collapsed"),
    /// empty when there is nothing to say.
    pub note: String,
    /// What the move did, line by line, for the trace pane.
    pub trace: Vec<String>,
}

/// A move the variant refuses, with a reason a player understands.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct VariantError(pub String);

impl VariantError {
    /// A move stopped part-way because its cancel flag was set (the game is unchanged).
    pub fn cancelled() -> VariantError {
        VariantError("the move was cancelled".into())
    }
}

/// Whether a cancel flag given to [`VariantGame::set_cancel`] is set.
pub fn is_set(flag: &Option<Arc<AtomicBool>>) -> bool {
    flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
}

/// A game under one of the other rule systems. Everything a pane shows comes from here.
/// `Send`, so that the terminal can play a move on a worker thread.
pub trait VariantGame: Send {
    /// Which rule system this is.
    fn rules(&self) -> RuleSet;
    /// The board as shown: each occupied square with its piece and probability.
    fn cells(&self) -> Vec<(Square, Cell)>;
    /// The side to move.
    fn to_move(&self) -> Color;
    /// Whether the game is over, and who won.
    fn status(&self) -> Status;
    /// Why the game ended, in words; `None` while it goes on.
    fn end_reason(&self) -> Option<String>;
    /// Every legal move in canonical notation.
    fn legal_moves(&self) -> Vec<String>;
    /// Plays a move typed by a player or read from a saved game.
    fn play(&mut self, text: &str) -> Result<&PlyRecord, VariantError>;
    /// Takes back the last ply; an error when there is none.
    fn undo(&mut self) -> Result<(), VariantError>;
    /// The plies played so far.
    fn history(&self) -> &[PlyRecord];
    /// Lines for the probability pane: the variant's overview (harmonics by weight, world
    /// count) followed by what is known about the piece on `cursor`.
    fn details(&self, cursor: Square) -> Vec<String>;
    /// The `qchess analyze --variant ... --json` object for the current state.
    fn to_json(&self) -> serde_json::Value;
    /// A copy behind a new box (for replay and undo in the UI).
    fn clone_box(&self) -> Box<dyn VariantGame>;
    /// Watches `flag` (or nothing): once it is set, a move (or take-back) being made
    /// stops with [`VariantError::cancelled`] and leaves the game as it was.
    fn set_cancel(&mut self, flag: Option<Arc<AtomicBool>>);
}

/// A new game under `rules` (harmonics or haft) from `fen` (the standard start when
/// `None`; haft has only its own start) with `seed` for random outcomes.
pub fn new_game(
    rules: RuleSet,
    fen: Option<&str>,
    seed: u64,
) -> Result<Box<dyn VariantGame>, VariantError> {
    match (rules, fen) {
        (RuleSet::Harmonics, None) => Ok(Box::new(harmonics::HarmonicsGame::new(seed))),
        (RuleSet::Harmonics, Some(f)) => Ok(Box::new(harmonics::HarmonicsGame::from_fen(f, seed)?)),
        (RuleSet::Haft, None) => Ok(Box::new(haft::HaftGame::new())),
        (RuleSet::Haft, Some(_)) => Err(VariantError(
            "haft always starts from its own position (pawns, and undetermined pieces on the back ranks): a start FEN is not supported".into(),
        )),
        (RuleSet::Quantum, _) => Err(VariantError(
            "Quantum Chess is played on the simulator, not as a variant game".into(),
        )),
    }
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
        let g = new_game(RuleSet::Harmonics, None, 1).unwrap();
        assert_eq!(g.rules(), RuleSet::Harmonics);
        assert_eq!(
            new_game(RuleSet::Haft, None, 1).unwrap().rules(),
            RuleSet::Haft
        );
        assert!(new_game(RuleSet::Haft, Some("8/8/8/8/8/8/8/8 w - - 0 1"), 1).is_err());
        assert!(new_game(RuleSet::Quantum, None, 1).is_err());
    }
}
