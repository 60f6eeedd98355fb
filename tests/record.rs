//! Saved games, one test binary: round trips, autosaves, replays, and faults and bad
//! input.

mod support;

#[path = "record/faults.rs"]
mod faults;
#[path = "record/saved.rs"]
mod saved;
