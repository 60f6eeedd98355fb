//! What every rule system offers a player: the playable-game trait, the registry of
//! rule systems, cancel flags, and the tables (seats) where screens share one game.
//! Nothing above this module asks which rule system it is playing.

pub mod cancel;
pub mod cell;
pub mod clock;
pub mod explanation;
pub mod playable;
pub mod players;
pub mod rules;
pub mod table;
#[cfg(test)]
pub(crate) mod toy;

pub use cancel::CancelFlag;
pub use cell::Cell;
pub use explanation::Explanation;
pub use playable::{is_set, Move, PlayError, Playable, PlyRecord};
pub use players::Players;
pub use rules::{RuleSet, Setup, UnknownRuleSet};
