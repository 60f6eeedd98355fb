//! What the panes and `qchess analyze --json` show: the harmonics by weight, where the
//! piece under the cursor may stand, and the JSON object of the current state.

use super::board::{piece, Board};
use super::superposition::{Marginal, Superposition};
use super::{HarmonicsGame, BOUND_RULE};
use crate::chess::distribution::MAX_DISTRIBUTION;
use crate::chess::{Piece, Square};
use crate::format::percent;
use crate::game::Playable;
use serde_json::{json, Map, Value};

/// "1 harmonic", "3 harmonics".
pub fn harmonics(n: usize) -> String {
    format!("{n} harmonic{}", if n == 1 { "" } else { "s" })
}

/// Most harmonics listed one per line in the details.
pub const LISTED: usize = 8;

/// Most differences named on one harmonic's line.
const DIFFERENCES: usize = 6;

/// How `b` differs from `top`: "Nc3" where it has a piece the top board lacks there,
/// "-b1" where it has none; "same pieces" when only castling rights or en passant differ.
pub fn difference(b: &Board, top: &Board) -> String {
    let diffs: Vec<String> = Square::all()
        .filter(|s| b.code(*s) != top.code(*s))
        .map(|s| match b.get(s) {
            Some(p) => format!("{}{s}", p.fen_char()),
            None => format!("-{s}"),
        })
        .collect();
    if diffs.is_empty() {
        return "same pieces, other castling rights or en passant".into();
    }
    let mut line = diffs[..diffs.len().min(DIFFERENCES)].join(" ");
    if diffs.len() > DIFFERENCES {
        line.push_str(&format!(" +{} more", diffs.len() - DIFFERENCES));
    }
    line
}

/// The probability pane: the harmonics by weight (at most [`LISTED`] lines, each with how
/// it differs from the heaviest), then the piece on `cursor` and where else it may stand.
pub fn details(
    sp: &Superposition,
    marginals: &[Marginal; 64],
    limit: usize,
    cursor: Square,
) -> Vec<String> {
    let order = sp.by_weight();
    let mut lines = vec![format!(
        "{} (bound {limit}; {BOUND_RULE})",
        harmonics(sp.len())
    )];
    let top = sp.get(order[0]).0;
    for (rank, &i) in order.iter().take(LISTED).enumerate() {
        let (b, w) = sp.get(i);
        let what = if rank == 0 {
            "the most likely board".to_string()
        } else {
            difference(b, top)
        };
        lines.push(format!("{:>2}. {:>3}%  {what}", rank + 1, percent(w)));
    }
    if order.len() > LISTED {
        let rest: f64 = order[LISTED..].iter().map(|&i| sp.get(i).1).sum();
        lines.push(format!(
            "    +{} more ({}% together)",
            order.len() - LISTED,
            percent(rest)
        ));
    }
    lines.extend(cursor_lines(sp, marginals, cursor));
    lines
}

/// The piece on `cursor`, its probability, and the squares where it may stand instead:
/// those where the same kind of piece is likelier in the harmonics without it on `cursor`
/// than in those with it.
fn cursor_lines(sp: &Superposition, marginals: &[Marginal; 64], cursor: Square) -> Vec<String> {
    let m = marginals[cursor.index()];
    let Some(p) = piece(m.code) else {
        return vec![format!("{cursor}: empty in every harmonic")];
    };
    let mut lines = vec![format!("{cursor}: {} {}%", p.describe(), percent(m.p))];
    if m.p >= 1.0 {
        lines.push("  certainly here".into());
        return lines;
    }
    let (mut with, mut without) = ([0.0f64; 64], [0.0f64; 64]);
    let (mut w_in, mut w_out) = (0.0, 0.0);
    for (b, w) in sp.iter() {
        let here = b.code(cursor) == m.code;
        let (acc, total) = if here {
            (&mut with, &mut w_in)
        } else {
            (&mut without, &mut w_out)
        };
        *total += w;
        for (a, &c) in acc.iter_mut().zip(b.squares.iter()) {
            if c == m.code {
                *a += w;
            }
        }
    }
    let mut elsewhere: Vec<(Square, f64)> = Square::all()
        .filter(|&s| s != cursor && without[s.index()] / w_out > with[s.index()] / w_in + 1e-12)
        .map(|s| (s, marginals[s.index()].p))
        .collect();
    elsewhere.sort_by(|a, b| b.1.total_cmp(&a.1));
    if elsewhere.is_empty() {
        lines.push("  where it is not here, it is gone".into());
    } else {
        let list: Vec<String> = elsewhere
            .iter()
            .map(|(s, p)| format!("{s} {}%", percent(*p)))
            .collect();
        lines.push(format!("  or else on {}", list.join(", ")));
    }
    lines
}

/// The `qchess analyze --variant harmonics --json` object (docs/rules/notation.md's fields
/// without "fen", plus "variant", "harmonics" and "bound").
pub fn to_json(game: &HarmonicsGame) -> Value {
    let moves: Vec<Value> = game
        .inputs()
        .iter()
        .zip(game.history())
        .map(|(input, r)| json!({"input": input, "played": r.text}))
        .collect();
    let mut squares = Map::new();
    for (s, cell) in game.cells() {
        let letter = cell
            .kind
            .map(|k| Piece::new(cell.color, k).fen_char().to_string());
        squares.insert(
            s.to_string(),
            json!({"piece": letter, "p": cell.probability}),
        );
    }
    let dist = game.superposition().distribution();
    let distribution: Vec<Value> = dist
        .iter()
        .filter(|(_, p)| *p >= 1e-12)
        .take(MAX_DISTRIBUTION)
        .map(|(set, p)| {
            let occupied: Vec<String> = super::board::squares_of(*set)
                .map(|s| s.to_string())
                .collect();
            json!({"occupied": occupied, "p": p})
        })
        .collect();
    let mut out = json!({
        "variant": "harmonics",
        "to_move": game.to_move().name(),
        "ply": game.history().len(),
        "status": game.status().name(),
        "moves": moves,
        "squares": squares,
        "distribution": distribution,
        "harmonics": game.superposition().len(),
        "bound": game.limit(),
    });
    if dist.len() > MAX_DISTRIBUTION {
        out["truncated"] = json!(true);
    }
    if let Some(reason) = game.end_reason() {
        out["end_reason"] = json!(reason);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen;
    use crate::variants::harmonics::board::EMPTY;

    #[test]
    fn differences_name_pieces_and_empty_squares() {
        let top = Board::from_position(&fen::parse(fen::START_FEN).unwrap());
        let mut b = top;
        b.squares[18] = b.squares[1];
        b.squares[1] = EMPTY;
        assert_eq!(difference(&b, &top), "-b1 Nc3");
        let mut c = top;
        c.castling.white_king = false;
        assert!(difference(&c, &top).starts_with("same pieces"));
        let mut d = top;
        for i in 8..16 {
            d.squares[i] = EMPTY;
        }
        assert_eq!(difference(&d, &top), "-a2 -b2 -c2 -d2 -e2 -f2 +2 more");
    }
}
