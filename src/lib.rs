//! qchess: Quantum Chess in the terminal.
pub mod quantum;
pub mod skat;
