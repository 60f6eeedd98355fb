//! The playable-game trait: what every rule system offers a screen, a saved game, a
//! server room and the engine's players.

use super::cancel::CancelFlag;
use super::cell::Cell;
use super::explanation::Explanation;
use super::rules::{RuleSet, Setup};
use crate::chess::fen::FenError;
use crate::chess::{Color, Game, MoveText, Square, Status};
use std::fmt;

/// One ply as the history, the trace pane and saved games see it.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyRecord {
    /// The move in the rule system's canonical notation, with every random outcome it
    /// caused, so that playing this text again reproduces the ply exactly.
    pub text: String,
    /// The side that moved.
    pub color: Color,
    /// A short remark for the history pane ("locks N on g1", "2 harmonics collapsed"),
    /// empty when there is nothing to say.
    pub note: String,
    /// What the move did, line by line, for the trace pane.
    pub trace: Vec<String>,
    /// What the move did, told to a player (message line, explanation popup, marks).
    pub explanation: Explanation,
}

/// A move as a screen hands it to its game. A move typed or picked in Quantum Chess is
/// read from its text once, on the screen, and the game plays the move read
/// ([`Move::Quantum`]), never its text again; a move of another rule system, or one the
/// screen has not read, is text its game reads as it plays it ([`Playable::play`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Move {
    /// Text the game reads as it plays it.
    Text(String),
    /// A Quantum Chess move read already.
    Quantum {
        /// The move as given: kept as typed, and what is said about it.
        given: String,
        /// The move it names.
        text: MoveText,
    },
}

impl Move {
    /// The move as given.
    pub fn given(&self) -> &str {
        match self {
            Move::Text(given) | Move::Quantum { given, .. } => given,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.given())
    }
}

/// A move, take-back or start the rules refuse: what kind of refusal it is, with the
/// words a player reads.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The text is not a move in the rule system's notation.
    #[error("{0}")]
    Notation(String),
    /// The move is not legal in this position, and why.
    #[error("{0}")]
    Illegal(String),
    /// An outcome written with the move cannot happen here.
    #[error("{0}")]
    Outcome(String),
    /// The game is over, and how it ended.
    #[error("{0}")]
    GameOver(String),
    /// The move would take the simulator past its size limit (or its memory).
    #[error("{0}")]
    Simulator(String),
    /// Take-back at the start.
    #[error("there is no move to take back")]
    NothingToUndo,
    /// A move stopped part-way because its cancel flag was set (the game is unchanged).
    #[error("the move was cancelled")]
    Cancelled,
    /// The game cannot start as asked (its start position or a setting), and why.
    #[error("{0}")]
    Start(String),
}

impl From<FenError> for PlayError {
    fn from(e: FenError) -> Self {
        PlayError::Start(e.to_string())
    }
}

/// A game under one rule system. Everything a screen shows comes from here; a feature
/// that exists for Quantum Chess only (the circuit, the inspector, the engine's search)
/// reaches its game through [`Playable::quantum`]. `Send`, so that a move can be played
/// on a worker thread.
pub trait Playable: Send {
    /// Which rule system this is.
    fn rules(&self) -> RuleSet;
    /// How the game was started: what a saved game keeps besides the moves.
    fn setup(&self) -> Setup;
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
    fn play(&mut self, text: &str) -> Result<PlyRecord, PlayError>;
    /// Plays a move a screen hands over; a game that reads no move ahead of playing it
    /// plays the move as given.
    fn play_move(&mut self, mv: &Move) -> Result<PlyRecord, PlayError> {
        self.play(mv.given())
    }
    /// Takes back the last ply; an error when there is none.
    fn undo(&mut self) -> Result<(), PlayError>;
    /// Plies played so far.
    fn ply(&self) -> usize;
    /// The records of the plies played so far, kept as they were played.
    fn history(&self) -> &[PlyRecord];
    /// How a move is typed here, by example, for the move line's hint.
    fn typing_hint(&self) -> &'static str;
    /// Whether pieces may make quantum moves written with `~` (harmonics' `b1~d5`).
    fn has_quantum_moves(&self) -> bool {
        false
    }
    /// Whether moves draw random outcomes (a copy of the game would then draw the same
    /// ones the game will).
    fn draws_outcomes(&self) -> bool {
        true
    }
    /// A move typed in standard algebraic notation (`Nf3`), as the canonical move it
    /// names, or why it names none; `None` when the text is not such a move here.
    fn read_san(&self, typed: &str) -> Option<Result<String, String>> {
        let _ = typed;
        None
    }
    /// The outcome a typed move forces (harmonics' `.c3=N`), which only the one who
    /// draws outcomes may name; `None` when the text names none.
    fn forced_outcome(&self, typed: &str) -> Option<String>;
    /// Lines for the side pane: the rule system's overview followed by what is known
    /// about the piece on `cursor`.
    fn details(&self, cursor: Square) -> Vec<String>;
    /// The `qchess analyze --json` object for the current state.
    fn to_json(&self) -> serde_json::Value;
    /// A copy behind a new box.
    fn clone_box(&self) -> Box<dyn Playable>;
    /// Watches `flag` (or nothing): once it is set, a move (or take-back) being made
    /// stops with [`PlayError::Cancelled`] and leaves the game as it was.
    fn set_cancel(&mut self, flag: Option<CancelFlag>);
    /// The Quantum Chess game, for the features that exist only there.
    fn quantum(&self) -> Option<&Game> {
        None
    }
}

impl Clone for Box<dyn Playable> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

impl std::fmt::Debug for dyn Playable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Playable")
            .field("rules", &self.rules())
            .field("ply", &self.ply())
            .finish()
    }
}

/// Whether a cancel flag given to [`Playable::set_cancel`] is set.
pub fn is_set(flag: &Option<CancelFlag>) -> bool {
    flag.as_ref()
        .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
}
