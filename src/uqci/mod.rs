//! UQCI, the Universal Quantum Chess Interface: UCI over standard input and output with
//! moves in Quantum Chess notation, three rule options (`forceturn`, `forcewin`,
//! `forcemeasure`) and `calcbell`. [`protocol`] reads and writes the lines (for both
//! sides), [`engine`] is `qchess uqci`.

pub mod budget;
pub mod engine;
pub mod options;
pub mod protocol;
