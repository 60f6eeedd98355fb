//! Puzzles whose answers are proved: the goals, the prover, the pack shipped with the
//! binary and the generator that finds more in engine games (docs/puzzles.md).
//!
//! For a play screen: [`pack`] lists the puzzles, [`Puzzle::game`] sets one up, and an
//! [`Attempt`] judges each of the player's moves against the optimum ([`judge`]),
//! answers it with the proof's best defence ([`defence`]) and says how the try ended.

pub mod attempt;
pub mod choose;
pub mod generate;
pub mod goal;
pub mod pack;
pub mod prove;
pub mod rating;
pub mod theme;

pub use attempt::{Attempt, AttemptError, TryEnd, TryStep};
pub use choose::{next, Filter, RatingRange};
pub use goal::{Goal, Task};
pub use pack::{find, pack, PackError, Puzzle};
pub use prove::{best_move, defence, judge, prove, JudgeError, Judgement, Proof, ProveError};
pub use theme::{theme, Theme};
