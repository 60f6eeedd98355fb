//! The Skat lab: the paper "Imperfect-Information Games on Quantum Computers: A Case
//! Study in Skat" (arXiv:2411.15294) on the project's own simulator. An endgame's
//! unknown deal is put in superposition, each card I could lead is scored by the
//! favourable projector, and quantum counting is simulated beside the exact count.

pub mod analysis;
pub mod budget;
pub mod cards;
pub mod deal;
pub mod encode;
pub mod endgame;
pub mod quantum;
pub mod screen;
pub mod solve;
pub mod toy;
pub mod view;

pub use analysis::{analyze, analyze_watched, Analysis, AnalysisError, AnalyzeOptions, CardResult};
pub use budget::{Allowance, Estimate, Progress, Stage, Watch};
pub use cards::{Card, Game, Rank, Suit};
pub use endgame::{Endgame, EndgameError};
