//! The computer's answer to a draw offer: it accepts when its static evaluation of the
//! position, from its side, says the game is even or worse for it. The same rule at one
//! keyboard and in a server room.

use super::expected;
use crate::chess::Color;
use crate::game::Playable;

/// The computer accepts a draw when its evaluation of the position, from its side, is
/// at most this (centipawns): even or worse for it.
pub const ACCEPTS_DRAW_AT: f64 = 0.0;

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

/// The answer of the computer playing `side` to a draw offer: `Ok` accepts; a decline
/// says why, in words for the players.
pub fn answer_draw(game: &dyn Playable, side: Color) -> Result<(), String> {
    let value = value_for(game, side);
    if value <= ACCEPTS_DRAW_AT {
        return Ok(());
    }
    let expects = expected::for_side(expected::from_side(value, side), side);
    Err(format!(
        "{} declines the draw: it thinks it stands better (it expects {} of a point)",
        side.name(),
        expected::words(expects)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Game, GameOptions};

    #[test]
    fn even_positions_are_drawn_and_better_ones_played_on() {
        let start: Box<dyn Playable> = Box::new(Game::standard(GameOptions::default()));
        let white = value_for(start.as_ref(), Color::White);
        assert_eq!(white, -value_for(start.as_ref(), Color::Black));
        // Whoever the start favours declines; the other accepts.
        let (better, worse) = if white > 0.0 {
            (Color::White, Color::Black)
        } else {
            (Color::Black, Color::White)
        };
        assert_eq!(answer_draw(start.as_ref(), worse), Ok(()));
        if value_for(start.as_ref(), better) > ACCEPTS_DRAW_AT {
            let no = answer_draw(start.as_ref(), better).unwrap_err();
            assert!(no.contains("declines the draw"), "{no}");
        }
    }
}
