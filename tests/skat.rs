//! The Skat lab's analyses, one test binary: endgame files, limits, the paper's examples
//! and quantum counting (its screen is tested with the other screens in `tests/ui.rs`).

#[path = "skat/endgames.rs"]
mod endgames;
#[path = "skat/limits.rs"]
mod limits;
#[path = "skat/paper.rs"]
mod paper;
#[path = "skat/quantum.rs"]
mod quantum;
