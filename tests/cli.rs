//! The command line, one test binary: `qchess analyze` (with the engine and the QASM
//! export), `qchess config` and the settings, `qchess puzzles`, PGN in and out, the
//! crate as published (ignored).

mod support;

#[path = "cli/analyze.rs"]
mod analyze;
#[path = "cli/config.rs"]
mod config;
#[path = "cli/engine.rs"]
mod engine;
#[path = "cli/package.rs"]
mod package;
#[path = "cli/pgn.rs"]
mod pgn;
#[path = "cli/puzzles.rs"]
mod puzzles;
#[path = "cli/qasm.rs"]
mod qasm;
