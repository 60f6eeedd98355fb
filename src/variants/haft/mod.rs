//! Haft Schroedinger Chess (docs/rules/haft.md): each side's eight back-rank majors start with
//! no type and take one on by how they move. A move is legal when at least one pair of
//! Scramble Chess starting arrangements (a "consistent world") makes the whole game so
//! far legal chess without castling, check rules included.
//!
//! The engine never enumerates the 5040^2 pairs: with both kings fixed every constraint
//! is a per-piece type restriction (see [`worlds`]), so the worlds are a union of 64
//! products of per-side bitsets over 5040 arrangements.
//!
//! Decisions where the spec is silent:
//! * A pawn promoting without a letter (`e7e8`) becomes a major of open type (Q, R, B or
//!   N), chosen in each world; with a letter the type is fixed. Worlds are starting
//!   pairs, so a promotion never adds worlds; a promoted piece's share of each type
//!   splits each world evenly among the types it may still have there.
//! * The game ends when no move is legal, that is when every consistent world has ended.
//!   A win needs checkmate in every consistent world; if some worlds are stalemated the
//!   game is a draw (the end reason gives the breakdown). There is no 50-move or
//!   repetition rule.

pub mod arrangements;
pub mod board;
pub mod census;
pub mod error;
pub mod game;
pub mod notation;
pub mod rules;
pub mod types;
mod variant;
mod view;
pub mod words;
pub mod worlds;

pub use error::HaftError;
pub use game::{Finish, HaftGame};
pub use notation::HaftMove;
