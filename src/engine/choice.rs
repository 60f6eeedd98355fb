//! What a player answers: the move it chose and what it knew, or why it gave none.

use super::search::Info;

/// A move a player chose.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The move in canonical notation, without an outcome.
    pub mv: String,
    /// What the search knew when it chose (players that search).
    pub info: Option<Info>,
    /// Whether the move came from the opening book (no search).
    pub from_book: bool,
    /// White's expected result of the line chosen, its measurement weighed as results
    /// ([`super::weighed::expected_of_line`]): from an engine playing a person; `None`
    /// from the others and without a search.
    pub expected: Option<f64>,
}

/// Why a player gave no move.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PlayerError {
    /// The side to move has no legal move (or the game is over).
    #[error("there is no legal move to play")]
    NoMove,
    /// The player's thread ended without an answer.
    #[error("the player stopped without choosing a move")]
    Gone,
    /// An external engine misbehaved (would not start, crashed, hung, answered an
    /// illegal or unreadable move): what happened, in one line.
    #[error("{0}")]
    Engine(String),
    /// An external engine could not be started (no such command, no handshake in
    /// time): what happened, in one line. No game with it was begun.
    #[error("{0}")]
    NotStarted(String),
}
