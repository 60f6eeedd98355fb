//! A toy rule system for tests: two kings on an empty board, each side moving its king
//! one square, and the one who captures the other king wins. It is registered in
//! `rules.rs` under `cfg(test)` and played through the game screen by the UI's tests,
//! which is all a new rule system needs.

use super::cancel::CancelFlag;
use super::cell::Cell;
use super::explanation::Explanation;
use super::playable::{PlayError, Playable, PlyRecord};
use super::rules::{RuleSet, Setup};
use crate::chess::{Color, Kind, Square, Status};

/// A toy game: where each king stands, the moves so far and where the kings stood
/// before each.
#[derive(Clone, Debug)]
pub(crate) struct Toy {
    seed: u64,
    kings: [Square; 2],
    history: Vec<PlyRecord>,
    before: Vec<[Square; 2]>,
}

fn side(c: Color) -> usize {
    (c == Color::Black) as usize
}

impl Toy {
    /// Kings on e1 and e8, white to move.
    pub(crate) fn new(seed: u64) -> Toy {
        let sq = |s| Square::parse(s).expect("a square");
        Toy {
            seed,
            kings: [sq("e1"), sq("e8")],
            history: Vec::new(),
            before: Vec::new(),
        }
    }

    fn captured(&self) -> Option<Color> {
        (self.kings[0] == self.kings[1]).then(|| self.to_move())
    }
}

impl Playable for Toy {
    fn rules(&self) -> RuleSet {
        RuleSet::Toy
    }

    fn setup(&self) -> Setup {
        Setup::new(RuleSet::Toy, self.seed)
    }

    fn cells(&self) -> Vec<(Square, Cell)> {
        let cell = |color| Cell {
            color,
            kind: Some(Kind::King),
            probability: 1.0,
        };
        match self.captured() {
            // The captured side is the one to move; the capturer stands there.
            Some(lost) => vec![(self.kings[0], cell(lost.opposite()))],
            None => vec![
                (self.kings[0], cell(Color::White)),
                (self.kings[1], cell(Color::Black)),
            ],
        }
    }

    fn to_move(&self) -> Color {
        if self.history.len().is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        }
    }

    fn status(&self) -> Status {
        match self.captured() {
            Some(Color::White) => Status::BlackWins,
            Some(Color::Black) => Status::WhiteWins,
            None => Status::Ongoing,
        }
    }

    fn end_reason(&self) -> Option<String> {
        self.captured().map(|_| "a king was captured".into())
    }

    fn legal_moves(&self) -> Vec<String> {
        if self.status() != Status::Ongoing {
            return Vec::new();
        }
        let from = self.kings[side(self.to_move())];
        let mut moves = Vec::new();
        for (dx, dy) in [
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ] {
            if let Some(to) = from.offset(dx, dy) {
                moves.push(format!("{from}{to}"));
            }
        }
        moves
    }

    fn play(&mut self, text: &str) -> Result<PlyRecord, PlayError> {
        let text = text.trim();
        if !self.legal_moves().iter().any(|m| m == text) {
            return Err(PlayError::Illegal(format!(
                "{text} is not a king's step here"
            )));
        }
        let to =
            Square::parse(&text[2..4]).ok_or_else(|| PlayError::Notation("no square".into()))?;
        let cells = self.cells();
        let mut record = PlyRecord {
            text: text.to_string(),
            color: self.to_move(),
            note: String::new(),
            trace: vec![format!("the king steps to {to}")],
            explanation: Explanation::default(),
        };
        let before = self.kings;
        self.kings[side(self.to_move())] = to;
        record.explanation = Explanation::listed(
            &record.text,
            &record.note,
            &record.trace,
            false,
            &cells,
            &self.cells(),
        );
        self.history.push(record.clone());
        self.before.push(before);
        Ok(record)
    }

    fn undo(&mut self) -> Result<(), PlayError> {
        self.kings = self.before.pop().ok_or(PlayError::NothingToUndo)?;
        self.history.pop();
        Ok(())
    }

    fn ply(&self) -> usize {
        self.history.len()
    }

    fn history(&self) -> &[PlyRecord] {
        &self.history
    }

    fn typing_hint(&self) -> &'static str {
        "type a king's step: e1e2"
    }

    fn draws_outcomes(&self) -> bool {
        false
    }

    fn forced_outcome(&self, _typed: &str) -> Option<String> {
        None
    }

    fn details(&self, cursor: Square) -> Vec<String> {
        vec![format!("two kings; the cursor is on {cursor}")]
    }

    fn to_json(&self) -> serde_json::Value {
        serde_json::json!({"kings": [self.kings[0].to_string(), self.kings[1].to_string()]})
    }

    fn clone_box(&self) -> Box<dyn Playable> {
        Box::new(self.clone())
    }

    fn set_cancel(&mut self, _flag: Option<CancelFlag>) {}
}
