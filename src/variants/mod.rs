//! Every rule system as a [`crate::game::Playable`] game, and the registry that makes
//! one: Quantum Chess (`quantum`: the simulator-backed game of `chess`), "harmonics"
//! (weighted classical boards) and "haft" (Haft Schroedinger Chess), each beside its
//! rules; [`new_game`] and [`replay`] make a game of any of them.

pub mod haft;
pub mod harmonics;
mod quantum;
pub mod registry;

pub use registry::{new_game, replay, ReplayError};
