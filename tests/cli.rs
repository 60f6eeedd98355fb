//! The command line, one test binary: `qchess club` and the club's storage, `qchess
//! analyze` (with the engine and the QASM export), `qchess config` and the settings, `qchess puzzles`, PGN in and out, the
//! manual pages and completion scripts, the crate as published (ignored), the layers
//! of the source as docs/code-layout.md draws them.

mod support;

#[path = "cli/analyze.rs"]
mod analyze;
#[path = "cli/club.rs"]
mod club;
#[path = "cli/config.rs"]
mod config;
#[path = "cli/engine.rs"]
mod engine;
#[path = "cli/layers.rs"]
mod layers;
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
