//! Which sides the computer plays and how strongly, from who sits at each side.

use crate::chess::Color;
use crate::engine::book;
use crate::game::{Playable, PlyRecord};
use crate::seats::strength::Strength;
use crate::seats::{Occupant, Occupants};
use crate::uqci::client::UqciPlayer;

/// Which sides the computer plays, at what strength.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sides {
    /// White's computer, if the computer plays white.
    pub white: Option<Strength>,
    /// Black's computer, if the computer plays black.
    pub black: Option<Strength>,
}

impl Sides {
    /// The sides the occupants give to the computer: qchess's computer, and `external`
    /// where its engine sits when the player gave that engine this time.
    pub fn of_occupants(occupants: &Occupants, external: Option<&UqciPlayer>) -> Sides {
        let of = |seat: &Occupant| match seat {
            Occupant::Computer(s) => Some(s.clone()),
            Occupant::Engine(command) => {
                let p = external?;
                (command == p.command()).then(|| Strength::External(p.clone()))
            }
            Occupant::Person(_) => None,
        };
        Sides {
            white: of(&occupants.white),
            black: of(&occupants.black),
        }
    }

    /// The sides where an external engine other than `external` (the one the player
    /// gave) sits: they are played by hand. What to tell the player, if any.
    pub fn unclaimed(occupants: &Occupants, external: Option<&UqciPlayer>) -> Option<String> {
        let given = external.map(UqciPlayer::command);
        let unclaimed: Vec<(Color, &str)> = [Color::White, Color::Black]
            .into_iter()
            .filter_map(|side| match occupants.of(side) {
                Occupant::Engine(command) => Some((side, command.as_str())),
                _ => None,
            })
            .filter(|(_, command)| Some(*command) != given)
            .collect();
        let (_, command) = unclaimed.first()?;
        let who = match unclaimed.as_slice() {
            [(side, _)] => format!("{} is", side.name()),
            _ => "white and black are".into(),
        };
        Some(format!(
            "{who} played by hand: the engine \"{command}\" plays again only when named \
             again (--engine-cmd), a saved game never starts a program"
        ))
    }

    /// The computer playing `side`, if any.
    pub fn of(&self, side: Color) -> Option<&Strength> {
        match side {
            Color::White => self.white.as_ref(),
            Color::Black => self.black.as_ref(),
        }
    }

    /// Whether the computer plays both sides (a game to watch).
    pub fn both(&self) -> bool {
        self.white.is_some() && self.black.is_some()
    }

    /// Whether the computer plays a side at all.
    pub fn any(&self) -> bool {
        self.white.is_some() || self.black.is_some()
    }

    /// How many plies `u` takes back from a game whose moves were played by `movers`
    /// (in order): the last move; against the computer, back to before the player's
    /// last move (the computer's reply with it), so that it is the player's turn again;
    /// in a watched game one move.
    pub fn take_back(&self, movers: &[Color]) -> Result<usize, &'static str> {
        if movers.is_empty() {
            return Err("there is no move to take back");
        }
        let player = match (&self.white, &self.black) {
            (None, Some(_)) => Color::White,
            (Some(_), None) => Color::Black,
            _ => return Ok(1),
        };
        match movers.iter().rposition(|c| *c == player) {
            Some(i) => Ok(movers.len() - i),
            None => Err("none of the moves is yours to take back"),
        }
    }
}

/// Whether `rec`, the last ply of `game`, was the computer's move from its opening book:
/// the mover's side is held by a computer that plays from the book, and the move is
/// one of the book's in the position before it (where such a computer never searches).
/// So a replay tells it as the live game did.
pub fn last_ply_from_book(game: &dyn Playable, rec: &PlyRecord, occupants: &Occupants) -> bool {
    if !occupants
        .of(rec.color)
        .strength()
        .is_some_and(Strength::plays_book)
    {
        return false;
    }
    // A book move leaves every piece certain: anything else is decided without a copy.
    if game.cells().iter().any(|(_, c)| c.probability < 1.0) {
        return false;
    }
    let mut before = game.clone_box();
    before.undo().is_ok()
        && before
            .quantum()
            .is_some_and(|g| book::is_book_move(g, &rec.text))
}
