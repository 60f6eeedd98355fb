//! qchess's simulator: the quantum state and its two exact backends, and the seeded
//! random source of every outcome. No chess in it: the compiler keeps it below the game.
pub mod quantum;
pub mod seeded;
