//! Quantum Chess rules (docs/rules/quantum-chess.md) on the simulator: board, FEN, notation,
//! classification, circuits, the game, the repetition record, legal-move generation, and
//! standard algebraic notation for ordinary moves.

pub mod board;
pub mod circuits;
pub mod classify;
pub mod distribution;
pub mod explain;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod notation;
pub mod outcome;
pub mod random;
mod repetition;
pub mod report;
pub mod san;
pub mod threat;

pub use board::{Color, Kind, Piece, Position, Square};
pub use classify::{Classified, MoveError, MoveType, Variant};
pub use game::{Game, GameOptions, PlayedMove};
pub use notation::{MoveText, Shape};
pub use outcome::{EndReason, Status};
