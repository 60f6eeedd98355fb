//! Legal-move generation for the side to move.
//!
//! Every move is checked by [`classify`], the same check a typed move gets; the
//! generator only skips, before classifying, what cannot pass it: targets off the
//! piece's pattern ([`standard_reach`]), the second order of a split when one order is
//! enough (the search), and a merge under its second source when it is listed under
//! its first. A test compares the result with classifying every written move.

use super::board::{Color, Kind, Square};
use super::classify::{classify, pattern, BoardState, Classified};
use super::notation::{MoveText, Shape};

const PROMOTIONS: [Kind; 4] = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight];

/// Which moves a generator lists.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Listing {
    /// Splits in both target orders (else the lower target first only).
    both_split_orders: bool,
    /// Merges naming the square as either source (else as the first only).
    merges_from_either: bool,
}

/// True when a standard move of a `kind` of `color` from `from` to `to` may be legal:
/// on its pattern, a pawn's step, double step or diagonal, or a king's castling step.
/// A cheap superset of what [`classify`] accepts, checked first.
pub fn standard_reach(kind: Kind, color: Color, from: Square, to: Square) -> bool {
    let (df, dr) = (to.file() - from.file(), to.rank() - from.rank());
    match kind {
        Kind::Pawn => {
            let fwd = color.forward();
            (df.abs() <= 1 && dr == fwd) || (df == 0 && dr == 2 * fwd)
        }
        Kind::King => pattern(kind, from, to) || (dr == 0 && df.abs() == 2),
        k => pattern(k, from, to),
    }
}

/// Every legal move from `from` (standard moves with each promotion, splits in both
/// target orders, and merges naming `from` as either source).
pub fn moves_from(st: &BoardState, from: Square, free_turns: bool) -> Vec<Classified> {
    let listing = Listing {
        both_split_orders: true,
        merges_from_either: true,
    };
    let mut out = Vec::new();
    list_from(st, from, free_turns, listing, &mut out);
    out
}

fn list_from(
    st: &BoardState,
    from: Square,
    free_turns: bool,
    listing: Listing,
    out: &mut Vec<Classified>,
) {
    let Some(piece) = st.piece(from) else {
        return;
    };
    if !free_turns && piece.color != st.to_move {
        return;
    }
    let try_push = |out: &mut Vec<Classified>, text: MoveText| {
        if let Ok(c) = classify(st, &text, free_turns) {
            out.push(c);
        }
    };
    let last_rank = piece.color.opposite().back_rank();
    for to in Square::all() {
        if !standard_reach(piece.kind, piece.color, from, to) {
            continue;
        }
        let text = MoveText::standard(from, to);
        if piece.kind == Kind::Pawn && to.rank() == last_rank {
            for k in PROMOTIONS {
                try_push(
                    out,
                    MoveText {
                        promotion: Some(k),
                        ..text
                    },
                );
            }
        } else {
            try_push(out, text);
        }
    }
    if piece.kind == Kind::Pawn {
        return;
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
            if to1 != to2 && (listing.both_split_orders || to1 < to2) {
                try_push(
                    out,
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
            let orders = [(from, other), (other, from)];
            let orders = if listing.merges_from_either {
                &orders[..]
            } else {
                &orders[..1]
            };
            for &(from1, from2) in orders {
                try_push(
                    out,
                    MoveText {
                        shape: Shape::Merge { from1, from2, to },
                        ..MoveText::standard(from, to)
                    },
                );
            }
        }
    }
}

/// Every legal move of the side to move (of both sides when `free_turns`); merges are
/// listed once per source order.
pub fn legal_moves(st: &BoardState, free_turns: bool) -> Vec<Classified> {
    list(st, free_turns, true)
}

/// [`legal_moves`] of the side to move with each split in one target order only, the
/// lower square first (what a search tries), in the same order otherwise.
pub fn legal_moves_one_split_order(st: &BoardState) -> Vec<Classified> {
    list(st, false, false)
}

fn list(st: &BoardState, free_turns: bool, both_split_orders: bool) -> Vec<Classified> {
    let listing = Listing {
        both_split_orders,
        merges_from_either: false,
    };
    let mut out = Vec::new();
    for from in Square::all() {
        list_from(st, from, free_turns, listing, &mut out);
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

    /// Every move `classify` accepts, found by writing every standard move (with and
    /// without each promotion), split and merge of the pieces on the board.
    fn classify_everything(st: &BoardState, free_turns: bool) -> Vec<String> {
        let mut out = Vec::new();
        let mut keep = |text: MoveText| {
            if let Ok(c) = classify(st, &text, free_turns) {
                out.push(c.text.to_string());
            }
        };
        let sources: Vec<Square> = Square::all().filter(|&s| st.piece(s).is_some()).collect();
        for &from in &sources {
            for to in Square::all() {
                let text = MoveText::standard(from, to);
                keep(text);
                for k in PROMOTIONS {
                    keep(MoveText {
                        promotion: Some(k),
                        ..text
                    });
                }
                for to2 in Square::all() {
                    keep(MoveText {
                        shape: Shape::Split { from, to1: to, to2 },
                        ..text
                    });
                }
            }
            for &from2 in &sources {
                for to in Square::all() {
                    keep(MoveText {
                        shape: Shape::Merge {
                            from1: from,
                            from2,
                            to,
                        },
                        ..MoveText::standard(from, to)
                    });
                }
            }
        }
        out.sort();
        out
    }

    fn sorted(moves: &[Classified]) -> Vec<String> {
        let mut out: Vec<String> = moves.iter().map(|m| m.text.to_string()).collect();
        out.sort();
        out
    }

    #[test]
    fn generated_moves_are_exactly_the_classified_ones() {
        let mut positions = vec![
            // Castling both ways, en passant, promotion by step and by capture.
            Game::from_fen(
                "r3k2r/pPpp1ppp/8/3Pp3/8/8/PPPP1PpP/R3K2R w KQkq e6 0 1",
                GameOptions::default(),
            )
            .unwrap(),
            Game::from_fen(
                "r3k2r/pPpp1ppp/8/8/3pP3/8/PPPP1PpP/R3K2R b KQkq e3 0 1",
                GameOptions::default(),
            )
            .unwrap(),
        ];
        for seed in 0..3 {
            let mut g = Game::standard(GameOptions::default());
            for (i, m) in crate::chess::random::seeded_game(seed, 60)
                .iter()
                .enumerate()
            {
                g.play(m).unwrap();
                if i % 15 == 14 {
                    positions.push(g.clone());
                }
            }
        }
        for g in &positions {
            let st = g.state();
            for free in [false, true] {
                assert_eq!(
                    sorted(&legal_moves(st, free)),
                    classify_everything(st, free)
                );
            }
            let one_order: Vec<Classified> = legal_moves(st, false)
                .into_iter()
                .filter(|m| !matches!(m.text.shape, Shape::Split { to1, to2, .. } if to1 > to2))
                .collect();
            assert_eq!(legal_moves_one_split_order(st), one_order);
        }
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
