//! The split storms: independent pieces each spread over squares no other
//! piece uses, so that a single register grows as the product of their spreads while a
//! factored state holds one small factor per piece. Shared by `benches/game.rs`,
//! `examples/storm.rs` and `tests/quantum/storms.rs`.

#![allow(dead_code)]

use qchess::chess::{fen, Game, GameOptions};

/// 12 pawn moves, then 27 splits of the knights, bishops and rooks (nine end on three
/// squares, three on four).
pub const SPLIT_STORM: &str = "a2a4 a7a5 h2h4 h7h5 e2e3 e7e6 d2d3 d7d6 g2g3 g7g6 b2b3 b7b6 \
    f1^g2e2 g8^f6h6 g1^h3f3 c8^a6b7 c1^a3d2 b8^d7c6 h1^h2g1 h8^h7g8 f3^g5e5 f8^e7g7 \
    g2^f1f3 a8^c8a7 a3^b4c5 g7^h8f8 b1^a3c3 a6^c4b5 a1^c1a2 h6^g4f5 h2^g2h1 h7^g7h6 \
    c3^e4d5 a7^a8a6 c1^a1b1 c6^d4a7 d5^c3f4 f6^h7d5 b1^c1b2";

/// Branches of the split storm's final state: 3^9 * 4^3.
pub const SPLIT_STORM_BRANCHES: usize = 1_259_712;

/// Fourteen knights and the two kings.
pub const KNIGHT_STORM_FEN: &str = "8/6NN/2N1N3/2n5/n3n3/1N2nN2/n7/1n1kN1nK w - - 0 1";

/// 34 knight splits: six knights end on four squares, eight on three.
pub const KNIGHT_STORM: &str = "b3^d2a1 g1^e2h3 d2^b3c4 e2^g1g3 c4^d2e5 g3^e2f1 e6^d8f4 \
    e4^f6d6 d8^e6f7 f6^e4g4 f7^d8h8 g4^f6h2 c6^e7a5 e3^f5c2 e7^c6c8 f5^e3h6 c8^e7a7 \
    h6^f5g8 f3^h4d4 c5^a6b7 h4^f3g6 a6^c5b8 h7^f8g5 a4^b6b2 f8^h7d7 b6^a4a8 g7^e8h5 \
    a2^b4c1 e8^g7c7 b4^a2d5 e1^d3g2 b1^a3c3 d3^e1f2 a3^b1b5";

/// Branches of the knight storm's final state: 4^6 * 3^8.
pub const KNIGHT_STORM_BRANCHES: usize = 26_873_856;

/// A storm: its start position and moves.
#[derive(Clone, Copy, Debug)]
pub struct Storm {
    /// Name in reports.
    pub name: &'static str,
    /// Start position.
    pub fen: &'static str,
    /// The moves.
    pub moves: &'static str,
    /// Branches of the final state.
    pub branches: usize,
    /// Independent pieces at the end (one factor each).
    pub factors: usize,
}

/// The split storm.
pub const SPLIT: Storm = Storm {
    name: "split_storm",
    fen: fen::START_FEN,
    moves: SPLIT_STORM,
    branches: SPLIT_STORM_BRANCHES,
    factors: 12,
};

/// The knight storm.
pub const KNIGHTS: Storm = Storm {
    name: "knight_storm",
    fen: KNIGHT_STORM_FEN,
    moves: KNIGHT_STORM,
    branches: KNIGHT_STORM_BRANCHES,
    factors: 14,
};

impl Storm {
    /// The moves, one by one.
    pub fn moves(&self) -> Vec<&'static str> {
        self.moves.split_whitespace().collect()
    }

    /// The start of a game of this storm.
    pub fn start(&self, opts: GameOptions) -> Game {
        Game::from_fen(self.fen, opts).expect("the storm's FEN is valid")
    }

    /// The game after the first `plies` moves.
    pub fn play(&self, opts: GameOptions, plies: usize) -> Game {
        let mut g = self.start(opts);
        for m in self.moves().into_iter().take(plies) {
            g.play(m)
                .unwrap_or_else(|e| panic!("{} {m}: {e}", self.name));
        }
        g
    }
}
