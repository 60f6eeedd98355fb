//! The computer opponent: an expectimax search on the exact state ([`search()`]), its
//! evaluation ([`eval`]), levels, players (anything that yields a move: the engine,
//! `random`, `greedy`, and the variants' greedy player) and the match runner.
//!
//! A search runs on its own thread behind a [`player::Thinking`] handle: it reports
//! each finished iteration (depth, score, nodes, best line), can be stopped at any time
//! and then answers with the best move so far.

pub mod book;
pub mod choice;
pub mod classical;
pub mod draws;
pub mod eval;
pub mod expected;
pub mod level;
pub mod luck;
pub mod matches;
pub mod moves;
pub mod player;
pub mod search;
pub mod spec;
pub mod strength;
pub mod tally;
pub mod tt;
pub mod uci;
pub mod variant;
pub mod weighed;

pub use choice::{Choice, PlayerError};
pub use player::{Event, Player, Thinking};
pub use search::{search, search_among, Info, Limits, Report};
pub use spec::PlayerSpec;
