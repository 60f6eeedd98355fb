//! UQCI, the Universal Quantum Chess Interface: UCI over standard input and output with
//! moves in Quantum Chess notation, three rule options (`forceturn`, `forcewin`,
//! `forcemeasure`) and `calcbell`. [`protocol`] reads and writes the lines (for both
//! sides), [`engine`] is `qchess uqci`, [`client`] an external UQCI engine as a player,
//! [`uci`] a classical UCI engine (Stockfish) as a player on the most likely board.

pub mod client;
pub mod engine;
pub mod options;
pub mod protocol;
pub mod uci;
