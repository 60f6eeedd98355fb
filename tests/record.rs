//! Saved games, one test binary: round trips, autosaves, replays, Quantum PGN
//! (and other chess programs reading it),
//! reviews kept in the file, and faults and bad input.

mod support;

#[path = "record/before_upgrade.rs"]
mod before_upgrade;
#[path = "record/faults.rs"]
mod faults;
#[path = "record/interop.rs"]
mod interop;
#[path = "record/pgn.rs"]
mod pgn;
#[path = "record/reviews.rs"]
mod reviews;
#[path = "record/saved.rs"]
mod saved;
#[path = "record/toml_files.rs"]
mod toml_files;
