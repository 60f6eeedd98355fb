//! Who plays a side, as the command line and the screens name it: qchess's engine at a
//! level, its greedy or random player, an external UQCI or UCI engine ([`PlayerSpec`]),
//! how strong each is ([`strength`]), who sits at a side of a game ([`Occupant`]), and
//! matches between two of them ([`matches`]).

pub mod matches;
pub mod occupant;
pub mod spec;
pub mod strength;

pub use occupant::{Occupant, Occupants};
pub use spec::PlayerSpec;
