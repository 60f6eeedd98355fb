//! Legal-move generation for the side to move.

use super::board::{Kind, Square};
use super::classify::{classify, pattern, Classified, State};
use super::notation::{MoveText, Shape};

const PROMOTIONS: [Kind; 4] = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight];

/// Every legal move from `from` (standard moves with each promotion, splits in both
/// target orders, and merges naming `from` as either source).
pub fn moves_from(st: &State, from: Square, free_turns: bool) -> Vec<Classified> {
    let mut out = Vec::new();
    let Some(piece) = st.piece(from) else {
        return out;
    };
    if !free_turns && piece.color != st.to_move {
        return out;
    }
    let try_push = |out: &mut Vec<Classified>, text: MoveText| {
        if let Ok(c) = classify(st, &text, free_turns) {
            out.push(c);
        }
    };
    let last_rank = piece.color.opposite().back_rank();
    for to in Square::all() {
        let text = MoveText::standard(from, to);
        if piece.kind == Kind::Pawn && to.rank() == last_rank {
            for k in PROMOTIONS {
                try_push(
                    &mut out,
                    MoveText {
                        promotion: Some(k),
                        ..text
                    },
                );
            }
        } else {
            try_push(&mut out, text);
        }
    }
    if piece.kind == Kind::Pawn {
        return out;
    }
    // Split and merge targets: empty or the same piece in superposition, and (checked
    // here first because it is cheap) on the piece's pattern from `from`; classify
    // checks the rest.
    let basic_targets: Vec<Square> = Square::all()
        .filter(|&t| t != from && pattern(piece.kind, from, t))
        .filter(|&t| st.piece(t).is_none_or(|o| o == piece && !st.certain(t)))
        .collect();
    for &to1 in &basic_targets {
        for &to2 in &basic_targets {
            if to1 != to2 {
                try_push(
                    &mut out,
                    MoveText {
                        shape: Shape::Split { from, to1, to2 },
                        ..MoveText::standard(from, to1)
                    },
                );
            }
        }
    }
    for other in Square::all() {
        if other == from || st.piece(other) != Some(piece) {
            continue;
        }
        for &to in &basic_targets {
            if to == other || !pattern(piece.kind, other, to) {
                continue;
            }
            for (from1, from2) in [(from, other), (other, from)] {
                try_push(
                    &mut out,
                    MoveText {
                        shape: Shape::Merge { from1, from2, to },
                        ..MoveText::standard(from, to)
                    },
                );
            }
        }
    }
    out
}

/// Every legal move of the side to move (of both sides when `free_turns`); merges are
/// listed once per source order.
pub fn legal_moves(st: &State, free_turns: bool) -> Vec<Classified> {
    let mut out = Vec::new();
    for from in Square::all() {
        for m in moves_from(st, from, free_turns) {
            // A merge appears under both of its sources; keep it under its first.
            if let Shape::Merge { from1, .. } = m.text.shape {
                if from1 != from {
                    continue;
                }
            }
            out.push(m);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Game, GameOptions, MoveType};

    #[test]
    fn start_position_moves() {
        let g = Game::standard(GameOptions::default());
        let moves = legal_moves(g.state(), false);
        let count = |f: fn(MoveType) -> bool| moves.iter().filter(|m| f(m.kind)).count();
        assert_eq!(
            count(|k| matches!(k, MoveType::PawnStep | MoveType::PawnTwoStep)),
            16
        );
        assert_eq!(count(|k| k == MoveType::Jump), 4);
        // Each knight splits to its two squares, in both orders.
        assert_eq!(count(|k| k == MoveType::SplitJump), 4);
        assert_eq!(moves.len(), 24);
    }

    #[test]
    fn merges_listed_once_per_source_order() {
        let mut g = Game::standard(GameOptions::default());
        g.play("g1^f3h3").unwrap();
        g.play("e7e6").unwrap();
        let merges: Vec<String> = legal_moves(g.state(), false)
            .iter()
            .filter(|m| m.kind == MoveType::MergeJump)
            .map(|m| m.text.to_string())
            .collect();
        assert_eq!(merges, vec!["f3h3^g1", "f3h3^g5", "h3f3^g1", "h3f3^g5"]);
        let from_h3 = moves_from(g.state(), Square::parse("h3").unwrap(), false);
        assert!(from_h3.iter().any(|m| m.text.to_string() == "f3h3^g1"));
    }
}
