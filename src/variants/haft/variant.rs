//! [`Playable`] for [`HaftGame`]: what the screen, saved games, rooms and `qchess
//! analyze` use.

use super::game::HaftGame;
use crate::chess::{Color, Square, Status};
use crate::game::{is_set, CancelFlag, Cell, PlayError, Playable, PlyRecord, RuleSet, Setup};

impl Playable for HaftGame {
    fn rules(&self) -> RuleSet {
        RuleSet::Haft
    }

    fn setup(&self) -> Setup {
        Setup::new(RuleSet::Haft, self.seed)
    }

    fn cells(&self) -> Vec<(Square, Cell)> {
        self.board_cells()
    }

    fn to_move(&self) -> Color {
        self.side_to_move()
    }

    fn status(&self) -> Status {
        self.result()
    }

    fn end_reason(&self) -> Option<String> {
        self.ending().map(|e| e.describe())
    }

    fn legal_moves(&self) -> Vec<String> {
        self.legal().iter().map(|m| m.to_string()).collect()
    }

    fn play(&mut self, text: &str) -> Result<PlyRecord, PlayError> {
        if is_set(&self.cancel) {
            return Err(PlayError::Cancelled);
        }
        self.play_move(text).cloned().map_err(PlayError::from)
    }

    fn undo(&mut self) -> Result<(), PlayError> {
        self.take_back().map_err(PlayError::from)
    }

    fn ply(&self) -> usize {
        self.history.len()
    }

    fn history(&self) -> &[PlyRecord] {
        &self.history
    }

    fn typing_hint(&self) -> &'static str {
        "type a move: e2e4, b1c3, e7e8 (type left open) or e7e8q"
    }

    fn draws_outcomes(&self) -> bool {
        false
    }

    fn forced_outcome(&self, _typed: &str) -> Option<String> {
        // A haft move has no random outcome: the rules decide which worlds remain.
        None
    }

    fn details(&self, cursor: Square) -> Vec<String> {
        self.describe(cursor)
    }

    fn to_json(&self) -> serde_json::Value {
        self.json()
    }

    fn clone_box(&self) -> Box<dyn Playable> {
        Box::new(self.clone())
    }

    fn set_cancel(&mut self, flag: Option<CancelFlag>) {
        self.cancel = flag;
    }
}
