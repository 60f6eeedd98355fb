//! How the screens look: the colours of a theme and their mapping to what the terminal
//! can show (its colour tier), shared by the game screen, the Skat lab and the settings.

pub mod color;
pub mod theme;
