//! The explanation of the shown move, over the game: any key closes it.

use super::Outcome;
use crate::game::Playable;
use crate::ui::input::Action;

/// The explanation while it is open; it explains the move shown when it is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation;

impl Explanation {
    /// Any key closes the explanation.
    pub fn handle(&mut self, _action: Action) -> Outcome {
        Outcome::Close
    }

    /// Who played what at history entry `i` of `game`, and the explanation's lines.
    pub fn of(game: &dyn Playable, i: usize) -> Option<(String, Vec<String>)> {
        let rec = game.history().get(i)?;
        let title = format!("ply {}: {} {}", i + 1, rec.color.name(), rec.text);
        Some((title, rec.explanation.lines()))
    }
}
