//! Saved games, one test binary: round trips, autosaves, replays, Quantum PGN, and
//! faults and bad input.

mod support;

#[path = "record/faults.rs"]
mod faults;
#[path = "record/pgn.rs"]
mod pgn;
#[path = "record/saved.rs"]
mod saved;
