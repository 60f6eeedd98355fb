//! Who sits at a side, as a typed value: a person, qchess's computer at a strength, or
//! an external engine; and the one reading of a saved player's name back into one.

use crate::chess::Color;
use crate::game::Players;
use crate::seats::strength::Strength;
use crate::uqci::client::NAME_PREFIX;

/// Who plays a side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Occupant {
    /// A person, by their name.
    Person(String),
    /// qchess's computer at a strength (never an external engine: see [`Occupant::Engine`]).
    Computer(Strength),
    /// An external UQCI engine, by its command (a saved game never starts it).
    Engine(String),
}

impl Occupant {
    /// The name shown and saved for the side: the person's name, "qchess level 3",
    /// "uqci: CMD".
    pub fn name(&self) -> String {
        match self {
            Occupant::Person(name) => name.clone(),
            Occupant::Computer(s) => s.name(),
            Occupant::Engine(command) => format!("{NAME_PREFIX}{command}"),
        }
    }

    /// The computer at `strength`: qchess's own, or the external engine it runs.
    pub fn computer(strength: Strength) -> Occupant {
        match strength {
            Strength::External(p) => Occupant::Engine(p.command().to_string()),
            s => Occupant::Computer(s),
        }
    }

    /// Who a saved player's name stands for, where an old game is loaded: the built-in
    /// computer's names, an external engine's ("uqci: CMD"), else a person.
    pub fn from_name(name: &str) -> Occupant {
        if let Some(s) = Strength::from_name(name) {
            return Occupant::Computer(s);
        }
        match name.trim().strip_prefix(NAME_PREFIX) {
            Some(command) => Occupant::Engine(command.trim().to_string()),
            None => Occupant::Person(name.to_string()),
        }
    }

    /// The computer's strength, when qchess's computer sits here.
    pub fn strength(&self) -> Option<&Strength> {
        match self {
            Occupant::Computer(s) => Some(s),
            _ => None,
        }
    }
}

/// Who sits at each side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occupants {
    /// White's.
    pub white: Occupant,
    /// Black's.
    pub black: Occupant,
}

impl Occupants {
    /// The occupants a saved game's players' names stand for ([`Occupant::from_name`]),
    /// where the game is loaded.
    pub fn of_players(players: &Players) -> Occupants {
        Occupants {
            white: Occupant::from_name(&players.white),
            black: Occupant::from_name(&players.black),
        }
    }

    /// The sides held by `seats` (white's, black's); a free one by a person named as
    /// the side ("White", "Black").
    pub fn or_free(seats: [Option<Occupant>; 2]) -> Occupants {
        let free = Players::default();
        let [white, black] = seats;
        Occupants {
            white: white.unwrap_or(Occupant::Person(free.white)),
            black: black.unwrap_or(Occupant::Person(free.black)),
        }
    }

    /// The names shown and saved for the sides.
    pub fn players(&self) -> Players {
        Players {
            white: self.white.name(),
            black: self.black.name(),
        }
    }

    /// Who sits at `side`.
    pub fn of(&self, side: Color) -> &Occupant {
        match side {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

impl Default for Occupants {
    /// Two people, named as their sides.
    fn default() -> Self {
        Occupants::or_free([None, None])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for s in [
            Strength::Level(1),
            Strength::Level(5),
            Strength::Movetime(250),
            Strength::Greedy,
        ] {
            let seat = Occupant::Computer(s);
            assert_eq!(Occupant::from_name(&seat.name()), seat);
        }
        let engine = Occupant::Engine("my-engine --uqci".into());
        assert_eq!(engine.name(), "uqci: my-engine --uqci");
        assert_eq!(Occupant::from_name(&engine.name()), engine);
        for other in [
            "White",
            "qchess",
            "qchess level 9",
            "qchess 0 ms",
            "qchess x ms",
            "uci: sf",
        ] {
            assert_eq!(
                Occupant::from_name(other),
                Occupant::Person(other.into()),
                "{other}"
            );
        }
    }

    #[test]
    fn a_strength_seats_the_computer_and_free_seats_are_named_as_their_sides() {
        let p = crate::uqci::client::UqciPlayer::new(" eng --uqci ", std::time::Duration::ZERO);
        assert_eq!(
            Occupant::computer(Strength::External(p)),
            Occupant::Engine("eng --uqci".into())
        );
        let level = Occupant::computer(Strength::Level(3));
        assert_eq!(level, Occupant::Computer(Strength::Level(3)));
        let seats = Occupants::or_free([None, Some(level.clone())]);
        assert_eq!(seats.white, Occupant::Person("White".into()));
        assert_eq!(
            seats.players(),
            Players {
                white: "White".into(),
                black: level.name(),
            }
        );
        assert_eq!(Occupants::default().players(), Players::default());
    }
}
