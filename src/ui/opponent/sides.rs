//! Which sides the computer plays and how strongly, read from the players' names.

use crate::chess::Color;
use crate::engine::book;
use crate::game::{Playable, PlyRecord};
use crate::record::Players;
use crate::seats::strength::Strength;
use crate::uqci::client::{UqciPlayer, NAME_PREFIX};

/// The command of an external engine a player's name stands for ("uqci: CMD").
pub(super) fn engine_command(name: &str) -> Option<&str> {
    name.trim().strip_prefix(NAME_PREFIX).map(str::trim)
}

/// Which sides the computer plays, at what strength.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sides {
    /// White's computer, if the computer plays white.
    pub white: Option<Strength>,
    /// Black's computer, if the computer plays black.
    pub black: Option<Strength>,
}

impl Sides {
    /// The sides the players' names give to the computer: the built-in engine's names,
    /// and `external`'s name ("uqci: CMD") when the player gave that engine this time.
    pub fn of_players(players: &Players, external: Option<&UqciPlayer>) -> Sides {
        let of = |name: &str| {
            Strength::from_name(name).or_else(|| {
                let p = external?;
                (engine_command(name) == Some(p.command())).then(|| Strength::External(p.clone()))
            })
        };
        Sides {
            white: of(&players.white),
            black: of(&players.black),
        }
    }

    /// The sides named after an external engine other than `external` (the one the
    /// player gave): they are played by hand. What to tell the player, if any.
    pub fn unclaimed(players: &Players, external: Option<&UqciPlayer>) -> Option<String> {
        let given = external.map(UqciPlayer::command);
        let unclaimed: Vec<(Color, &str)> = [
            (Color::White, players.white.as_str()),
            (Color::Black, players.black.as_str()),
        ]
        .into_iter()
        .filter_map(|(side, name)| Some((side, engine_command(name)?)))
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
/// the mover's side is named after a computer that plays from the book, and the move is
/// one of the book's in the position before it (where such a computer never searches).
/// So a replay tells it as the live game did.
pub fn last_ply_from_book(game: &dyn Playable, rec: &PlyRecord, players: &Players) -> bool {
    let sides = Sides::of_players(players, None);
    if !sides.of(rec.color).is_some_and(Strength::plays_book) {
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
