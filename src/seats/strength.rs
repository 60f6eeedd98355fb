//! How strongly the computer plays a side, and the name a saved game keeps for it.

use crate::engine::level;
use crate::engine::player::{Engine, Greedy};
use crate::engine::Player;
use crate::uqci::client::UqciPlayer;
use std::time::Duration;

/// How strongly the computer plays a side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Strength {
    /// The engine at a level 1..5.
    Level(u8),
    /// The engine thinking this many milliseconds per move.
    Movetime(u64),
    /// One ply of lookahead (the variants' computer, whatever level was asked).
    Greedy,
    /// An external UQCI engine (Quantum Chess only).
    External(UqciPlayer),
}

impl Strength {
    /// The name saved games keep for the side: "qchess level 3", "qchess 500 ms",
    /// "qchess greedy", "uqci: CMD".
    pub fn name(&self) -> String {
        match self {
            Strength::Level(l) => level::name(*l),
            Strength::Movetime(ms) => format!("qchess {ms} ms"),
            Strength::Greedy => "qchess greedy".into(),
            Strength::External(p) => p.name(),
        }
    }

    /// The strength a player's name stands for, if it is one of the built-in computer's
    /// names (read through [`Occupant::from_name`](super::Occupant::from_name)).
    pub(super) fn from_name(name: &str) -> Option<Strength> {
        let rest = name.trim().strip_prefix("qchess ")?;
        if rest == "greedy" {
            return Some(Strength::Greedy);
        }
        if let Some(n) = rest.strip_prefix("level ") {
            return n
                .parse::<i64>()
                .ok()
                .and_then(|n| level::check(n).ok())
                .map(Strength::Level);
        }
        let ms = rest.strip_suffix(" ms")?.parse::<u64>().ok()?;
        (ms > 0).then_some(Strength::Movetime(ms))
    }

    /// Whether a computer of this strength plays from the opening book (levels 2 to 5 and
    /// a time per move).
    pub fn plays_book(&self) -> bool {
        match self {
            Strength::Level(l) => level::uses_book(*l),
            Strength::Movetime(_) => true,
            Strength::Greedy | Strength::External(_) => false,
        }
    }

    /// A player of this strength giving a hint: a level searches as it judges
    /// ([`Engine::advising`]), the others as they play ([`Strength::player`]).
    pub fn adviser(&self, seed: u64) -> Box<dyn Player> {
        match self {
            Strength::Level(l) => Box::new(Engine::advising(*l, seed)),
            _ => self.player(seed),
        }
    }

    /// A player of this strength choosing among equal moves by `seed` (an external
    /// engine: the same process every time).
    pub fn player(&self, seed: u64) -> Box<dyn Player> {
        match self {
            Strength::Level(l) => Box::new(Engine::in_play(*l, seed)),
            Strength::Movetime(ms) => Box::new(Engine::timed(Duration::from_millis(*ms), seed)),
            Strength::Greedy => Box::new(Greedy::new(seed)),
            Strength::External(p) => Box::new(p.clone()),
        }
    }
}
