//! [`VariantGame`] for [`HaftGame`]: what the terminal game, saved games, replay and
//! `qchess analyze` use.

use super::game::HaftGame;
use crate::chess::{Color, Square, Status};
use crate::variants::{is_set, Cell, PlyRecord, RuleSet, VariantError, VariantGame};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

impl VariantGame for HaftGame {
    fn rules(&self) -> RuleSet {
        RuleSet::Haft
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

    fn play(&mut self, text: &str) -> Result<&PlyRecord, VariantError> {
        if is_set(&self.cancel) {
            return Err(VariantError::cancelled());
        }
        self.play_move(text).map_err(VariantError::from)
    }

    fn undo(&mut self) -> Result<(), VariantError> {
        self.take_back().map_err(VariantError::from)
    }

    fn history(&self) -> &[PlyRecord] {
        &self.history
    }

    fn details(&self, cursor: Square) -> Vec<String> {
        self.describe(cursor)
    }

    fn to_json(&self) -> serde_json::Value {
        self.json()
    }

    fn clone_box(&self) -> Box<dyn VariantGame> {
        Box::new(self.clone())
    }

    fn set_cancel(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.cancel = flag;
    }
}
