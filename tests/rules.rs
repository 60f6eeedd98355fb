//! The rule systems, one test binary: Quantum Chess (the spec's examples, the rules they
//! miss, random games), harmonics and haft.

#[path = "rules/chess.rs"]
mod chess;
#[path = "rules/explain.rs"]
mod explain;
#[path = "rules/haft.rs"]
mod haft;
#[path = "rules/haft_random.rs"]
mod haft_random;
#[path = "rules/harmonics.rs"]
mod harmonics;
#[path = "rules/harmonics_random.rs"]
mod harmonics_random;
#[path = "rules/random_game.rs"]
mod random_game;
#[path = "rules/spec_examples.rs"]
mod spec_examples;
