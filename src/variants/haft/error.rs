//! Why a haft move is refused, in words a player understands.

use super::notation::SyntaxError;
use crate::chess::Square;
use crate::game::PlayError;

/// A refused move or undo.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HaftError {
    /// The text is not a move.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// Every consistent world has ended.
    #[error("the game is over: {0}")]
    GameOver(String),
    /// Nothing stands on the source square.
    #[error("there is no piece on {0}")]
    Empty(Square),
    /// The piece belongs to the side not on move.
    #[error("the piece on {square} is {owner}'s, and it is {to_move}'s turn")]
    NotYours {
        /// The source square.
        square: Square,
        /// "white" or "black".
        owner: &'static str,
        /// "white" or "black".
        to_move: &'static str,
    },
    /// The target holds a piece of the mover's side.
    #[error("{0} holds one of your own pieces")]
    OwnPiece(Square),
    /// A pawn cannot go there.
    #[error("a pawn on {from} cannot move to {to}")]
    Pawn {
        /// Source.
        from: Square,
        /// Target.
        to: Square,
    },
    /// A promotion letter on a move that does not promote.
    #[error("only a pawn reaching the last rank promotes; leave out the letter")]
    NotAPromotion,
    /// A promotion to a king or pawn.
    #[error("a pawn promotes to a queen, rook, bishop or knight, not to a {0}")]
    BadPromotion(&'static str),
    /// A line move with a piece in the way.
    #[error("the way from {from} to {to} is blocked on {at}")]
    Blocked {
        /// Source.
        from: Square,
        /// Target.
        to: Square,
        /// The first piece in the way.
        at: Square,
    },
    /// No chess piece moves like that.
    #[error("no chess piece moves from {from} to {to} in one move")]
    NoSuchMove {
        /// Source.
        from: Square,
        /// Target.
        to: Square,
    },
    /// The side's own moves already use up every piece of the needed types.
    #[error("no arrangement lets {count} pieces {what}: there are only {roster}")]
    Roster {
        /// "three".
        count: String,
        /// "move like knights".
        what: String,
        /// "two knights".
        roster: String,
    },
    /// The piece has no type in any consistent world that makes this move.
    #[error("no consistent world lets the piece on {from} move to {to}: it can only be {types}")]
    WrongType {
        /// Source.
        from: Square,
        /// Target.
        to: Square,
        /// "a rook or a queen".
        types: String,
    },
    /// The move leaves the mover's king attacked in every world that allows it.
    #[error("that would leave your king in check in every consistent world")]
    Check,
    /// Undo at the start.
    #[error("there is no move to take back")]
    NothingToUndo,
}

impl From<HaftError> for PlayError {
    fn from(e: HaftError) -> Self {
        let words = e.to_string();
        match e {
            HaftError::Syntax(_) => PlayError::Notation(words),
            HaftError::GameOver(_) => PlayError::GameOver(words),
            HaftError::NothingToUndo => PlayError::NothingToUndo,
            _ => PlayError::Illegal(words),
        }
    }
}
