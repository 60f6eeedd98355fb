//! qchess: Quantum Chess in the terminal, on an exact quantum simulator.
pub mod analyze;
pub mod chess;
pub mod cli;
pub mod config;
pub mod engine;
pub mod files;
pub mod format;
pub mod game;
pub mod puzzles;
pub mod qasm;
pub mod quantum;
pub mod record;
pub mod server;
pub mod skat;
pub mod ui;
pub mod uqci;
pub mod variants;
