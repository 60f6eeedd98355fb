//! `qchess learn`: short lessons that teach Quantum Chess to a chess player, each a
//! position, a few lines of text and a task the game checks. The lessons and their
//! checks live here (no terminal); the screen is in [`crate::ui::lesson`].

pub mod lessons;
pub mod progress;
pub mod solved;

pub use lessons::{Goal, Lesson, Verdict, LESSONS};
pub use progress::Progress;
