//! The command line, one test binary: `qchess analyze` (with the engine and the QASM
//! export), `qchess config` and the settings, `qchess puzzles`, PGN in and out, the
//! manual pages and completion scripts, the crate as published (ignored).

mod support;

#[path = "cli/analyze.rs"]
mod analyze;
#[path = "cli/config.rs"]
mod config;
#[path = "cli/engine.rs"]
mod engine;
#[path = "cli/manual.rs"]
mod manual;
#[path = "cli/package.rs"]
mod package;
#[path = "cli/pgn.rs"]
mod pgn;
#[path = "cli/puzzles.rs"]
mod puzzles;
#[path = "cli/qasm.rs"]
mod qasm;
