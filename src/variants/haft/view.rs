//! What the panes and `qchess analyze` show of a haft game: the board, the details of a
//! square, and the JSON object.

use super::board::Man;
use super::game::HaftGame;
use super::words::grouped;
use crate::chess::{Kind, Square};
use crate::format::percent;
use crate::game::Cell;
use serde_json::{json, Map, Value};

impl HaftGame {
    /// Each occupied square: its side, and its type once every consistent world agrees.
    pub fn board_cells(&self) -> Vec<(Square, Cell)> {
        Square::all()
            .filter_map(|s| {
                self.state.board.get(s).map(|u| {
                    let cell = Cell {
                        color: u.color,
                        kind: self.locked(s),
                        probability: 1.0,
                    };
                    (s, cell)
                })
            })
            .collect()
    }

    /// The world count, the side to move, and what is known about the piece on `cursor`.
    pub fn describe(&self, cursor: Square) -> Vec<String> {
        let mover = self.side_to_move();
        let mut lines = vec![
            format!("{} consistent worlds", grouped(self.worlds())),
            format!("{} to move", mover.name()),
        ];
        if self.in_check_worlds() > 0 {
            lines.push(format!(
                "{} in check in {} of them",
                mover.name(),
                grouped(self.in_check_worlds())
            ));
        }
        if let Some(end) = self.ending() {
            lines.push(end.describe());
        }
        lines.push(String::new());
        let Some(unit) = self.state.board.get(cursor) else {
            lines.push(format!("{cursor}: empty"));
            return lines;
        };
        let color = unit.color.name();
        match unit.man {
            Man::Pawn => lines.push(format!("{cursor}: {color} pawn")),
            Man::Major(slot) => {
                let origin = match Square::at(slot as i32, unit.color.back_rank()) {
                    Some(home) if (slot as usize) < 8 => format!("from {home}"),
                    _ => "promoted".to_string(),
                };
                lines.push(format!("{cursor}: {color} major piece ({origin})"));
                for (kind, share) in self.type_fractions(cursor) {
                    lines.push(format!("  {:<7} {:>3}%", kind.name(), percent(share)));
                }
                if let Some(kind) = self.locked(cursor) {
                    lines.push(format!("  locked in: {}", kind.name()));
                }
            }
        }
        lines
    }

    /// The `qchess analyze --variant haft --json` object.
    pub fn json(&self) -> Value {
        let pieces: Map<String, Value> = Square::all()
            .filter(|&s| self.state.board.get(s).is_some())
            .map(|s| {
                let types: Map<String, Value> = self
                    .type_fractions(s)
                    .into_iter()
                    .map(|(k, f): (Kind, f64)| (k.letter().to_string(), json!(f)))
                    .collect();
                (s.to_string(), Value::Object(types))
            })
            .collect();
        let mut out = json!({
            "variant": "haft",
            "worlds": self.worlds(),
            "pieces": pieces,
            "legal_moves": self.legal().iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            "status": self.result().name(),
            "to_move": self.side_to_move().name(),
            "ply": self.history.len(),
            "moves": self.history.iter().map(|r| r.text.clone()).collect::<Vec<_>>(),
        });
        if let Some(end) = self.ending() {
            out["end_reason"] = json!(end.describe());
        }
        out
    }
}
