//! The other rule systems: "harmonics" (weighted classical boards) and "haft" (Haft
//! Schroedinger Chess). Each implements [`crate::game::Playable`] and is registered in
//! [`crate::game::rules`].

pub mod haft;
pub mod harmonics;
