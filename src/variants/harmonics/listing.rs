//! The legal moves of the side to move: every ordinary and quantum move that at least one
//! harmonic allows, in canonical notation; and whether there is any.

use super::board::{piece, squares_of};
use super::geometry::{ordinary_targets, quantum_targets};
use super::notation::Move;
use super::superposition::{Marginal, Superposition};
use crate::chess::{Color, Kind, Square};

const PROMOTIONS: [Kind; 4] = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight];

/// The squares holding `color`'s pieces (every harmonic agrees on which piece a square
/// may hold), with their kinds.
fn own_pieces(marginals: &[Marginal; 64], color: Color) -> Vec<(Square, Kind)> {
    Square::all()
        .filter_map(|s| {
            piece(marginals[s.index()].code)
                .filter(|p| p.color == color)
                .map(|p| (s, p.kind))
        })
        .collect()
}

/// True when some harmonic allows `color` some move (usually the first one looked at).
pub fn has_move(sp: &Superposition, marginals: &[Marginal; 64], color: Color) -> bool {
    let own = own_pieces(marginals, color);
    sp.iter().any(|(b, _)| {
        own.iter().any(|&(s, _)| {
            b.get(s).is_some() && (ordinary_targets(b, s) | quantum_targets(b, s)) != 0
        })
    })
}

/// Every move of `color` legal in at least one harmonic: by source square, ordinary moves
/// first (promotions as q, r, b, n), then quantum moves, targets a1..h8.
pub fn legal_moves(sp: &Superposition, marginals: &[Marginal; 64], color: Color) -> Vec<String> {
    let own = own_pieces(marginals, color);
    let mut ordinary = vec![0u64; own.len()];
    let mut quantum = vec![0u64; own.len()];
    for (b, _) in sp.iter() {
        for (i, &(s, _)) in own.iter().enumerate() {
            if b.get(s).is_some() {
                ordinary[i] |= ordinary_targets(b, s);
                quantum[i] |= quantum_targets(b, s);
            }
        }
    }
    let mut out = Vec::new();
    for (i, &(from, kind)) in own.iter().enumerate() {
        for to in squares_of(ordinary[i]) {
            let promotes = kind == Kind::Pawn && to.rank() == color.opposite().back_rank();
            let choices = if promotes {
                PROMOTIONS.map(Some).to_vec()
            } else {
                vec![None]
            };
            out.extend(choices.into_iter().map(|promotion| {
                Move::Ordinary {
                    from,
                    to,
                    promotion,
                }
                .to_string()
            }));
        }
        out.extend(squares_of(quantum[i]).map(|to| Move::Quantum { from, to }.to_string()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen;
    use crate::variants::harmonics::board::Board;

    fn moves(f: &str) -> Vec<String> {
        let position = fen::parse(f).unwrap();
        let sp = Superposition::single(Board::from_position(&position));
        legal_moves(&sp, &sp.marginals(), position.to_move)
    }

    #[test]
    fn promotions_castling_and_quantum_moves_are_listed() {
        let m = moves("4k3/1P6/8/8/8/8/8/4K2R w K - 0 1");
        for t in ["b7b8q", "b7b8r", "b7b8b", "b7b8n", "e1g1", "e1~g1", "h1~c6"] {
            assert!(m.contains(&t.to_string()), "{t}: {m:?}");
        }
        assert!(
            !m.iter().any(|t| t.starts_with("b7~")),
            "pawns make no quantum moves"
        );
        assert!(!m.contains(&"h1~e1".to_string()), "e1 is occupied");
    }

    #[test]
    fn a_side_without_moves_has_none() {
        // The white king on a8 is walled in by its own pieces: the pawns on the seventh
        // rank are blocked by the bishops in front of them and have nothing to capture,
        // and every bishop's diagonals start on a square of its own pawns.
        let f = "KBBBBBBB/PPPPPPPP/8/8/8/8/8/7k w - - 0 1";
        assert!(moves(f).is_empty());
        let position = fen::parse(f).unwrap();
        let sp = Superposition::single(Board::from_position(&position));
        assert!(!has_move(&sp, &sp.marginals(), Color::White));
        assert!(has_move(&sp, &sp.marginals(), Color::Black));
    }
}
