//! The computer's answer to a draw offer: from move 20 on, it accepts when its static
//! evaluation of the position, read as its expected result, is a little below a draw's
//! half point. The same rule at one keyboard and in a server room.

use super::expected;
use crate::chess::Color;
use crate::game::Playable;

/// The computer accepts no draw before each side has made this many moves: an offer
/// at the start is declined whatever the evaluation says (a chess player does not
/// agree a draw at move 1 either).
pub const FIRST_DRAW_MOVE: usize = 20;

/// How far below a draw's half point the computer's own expected result must be for it
/// to accept: its static evaluation is a guess, so it accepts when it expects a little
/// less than a draw (0.48: about 25 centipawns worse), not at every even-looking moment.
pub const MARGIN: f64 = 0.02;

/// The static evaluation of `game` for `side`, in centipawns.
fn value_for(game: &dyn Playable, side: Color) -> f64 {
    match game.quantum() {
        Some(g) => {
            let v = super::eval::evaluate(g, super::eval::Style::Full);
            if g.to_move() == side {
                v
            } else {
                -v
            }
        }
        None => super::variant::variant_value(game, side),
    }
}

/// The answer of the computer playing `side` to a draw offer in `game`: `Ok` accepts;
/// a decline says why, in words for the players. It accepts from move
/// [`FIRST_DRAW_MOVE`] on, when its own expected result is at most a draw's less
/// [`MARGIN`].
pub fn answer_draw(game: &dyn Playable, side: Color) -> Result<(), String> {
    let expects = expected::for_side(expected::from_side(value_for(game, side), side), side);
    answer(expects, game.ply() / 2, side)
}

/// The answer of `side`, which expects `expects` of a point, after `moves` moves of
/// each side.
fn answer(expects: f64, moves: usize, side: Color) -> Result<(), String> {
    if moves < FIRST_DRAW_MOVE {
        return Err(format!(
            "{} declines the draw: it agrees no draw before move {FIRST_DRAW_MOVE}",
            side.name()
        ));
    }
    if expects <= 0.5 - MARGIN {
        return Ok(());
    }
    Err(format!(
        "{} declines the draw: it thinks it stands as well or better (it expects {} of a point)",
        side.name(),
        expected::words(expects)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Game, GameOptions};

    #[test]
    fn no_draw_is_agreed_before_move_twenty() {
        let start: Box<dyn Playable> = Game::standard(GameOptions::default()).into();
        for side in [Color::White, Color::Black] {
            let no = answer_draw(start.as_ref(), side).unwrap_err();
            assert!(no.contains("no draw before move 20"), "{no}");
        }
        assert!(answer(0.2, FIRST_DRAW_MOVE - 1, Color::Black).is_err());
        assert_eq!(answer(0.2, FIRST_DRAW_MOVE, Color::Black), Ok(()));
    }

    #[test]
    fn a_draw_is_accepted_only_a_little_below_half_a_point() {
        let moves = FIRST_DRAW_MOVE + 5;
        assert_eq!(answer(0.5 - MARGIN, moves, Color::White), Ok(()));
        assert_eq!(answer(0.3, moves, Color::White), Ok(()));
        for better in [0.5, 0.5 - MARGIN + 0.005, 0.81] {
            let no = answer(better, moves, Color::White).unwrap_err();
            assert!(no.starts_with("white declines the draw"), "{no}");
            assert!(no.contains(&expected::words(better)), "{no}");
        }
    }
}
