//! What the test binaries share: running the qchess binary, the driver of the screens,
//! scripted fake engines and SSH terminals, random circuits, and the positions the
//! benchmarks measure too (`benches/` and `examples/` include those files by path).

// Each test binary uses a part of it.
#![allow(dead_code)]

pub mod circuits;
pub mod cli;
pub mod driver;
pub mod fake_engine;
pub mod late_endgame;
pub mod review_game;
pub mod ssh_term;
pub mod storms;
