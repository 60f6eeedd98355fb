//! OpenQASM 3 for a game's circuit: the exporter, and a reader that runs the subset it
//! writes on the project's own simulator (so an export can be checked without other
//! tools).

pub mod export;
pub mod file;
pub mod gates;
pub mod parse;
pub mod run;

pub use export::{export, program, Exported};
pub use file::{write, WriteError};
pub use parse::{parse, Program, QasmError, Stmt};
pub use run::{simulate, Simulation};
