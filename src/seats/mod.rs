//! Who plays a side, as the command line and the screens name it: qchess's engine at a
//! level, its greedy or random player, an external UQCI or UCI engine ([`PlayerSpec`]),
//! how strong each is ([`strength`]), and matches between two of them ([`matches`]).

pub mod matches;
pub mod spec;
pub mod strength;

pub use spec::PlayerSpec;
