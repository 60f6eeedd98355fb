//! The computer opponent: an expectimax search on the exact state ([`search()`]), its
//! evaluation ([`eval`]), levels, players (anything that yields a move: the engine,
//! `random`, `greedy`, and the variants' greedy player) and time management
//! ([`budget`]). External engines and matches stand above it (`uqci`, `seats`).
//!
//! A search runs on its own thread behind a [`player::Thinking`] handle: it reports
//! each finished iteration (depth, score, nodes, best line), can be stopped at any time
//! and then answers with the best move so far.

pub mod book;
pub mod budget;
pub mod choice;
pub mod classical;
pub mod draws;
pub mod eval;
pub mod expected;
pub mod level;
pub mod luck;
pub mod moves;
pub mod player;
pub mod search;
pub mod tally;
pub mod tt;
pub mod variant;
pub mod weighed;

pub use choice::{Choice, PlayerError};
pub use player::{Event, Player, Thinking};
pub use search::{search, search_among, Info, Limits, Report};
