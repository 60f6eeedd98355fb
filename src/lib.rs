//! qchess: Quantum Chess in the terminal, on an exact quantum simulator.
pub mod analyze;
pub mod chess;
pub mod cli;
pub mod club;
pub mod config;
pub mod engine;
pub mod files;
pub mod format;
pub mod game;
pub mod learn;
pub mod puzzles;
pub mod qasm;
pub mod rating;
pub mod record;
pub mod review;
pub mod seats;
pub mod server;
pub mod skat;
pub mod style;
pub mod ui;
pub mod uqci;
pub mod variants;

/// The simulator and the seeded source, a crate of their own (`crates/sim`).
pub use qchess_sim::{quantum, seeded};
