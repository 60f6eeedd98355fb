//! The consistent worlds, factorised.
//!
//! A world is a pair of starting arrangements (one per side). Everything the game so
//! far says about a world is one of:
//!
//! * a piece moved in a certain way: its type is in a set (unary, one side);
//! * after a move by side S, S's king is not attacked. Occupancy is the same in every
//!   world, so "S's king stands on q and is attacked" holds exactly when S's king is
//!   the piece on q and some enemy piece has a type that reaches q. For a fixed S king
//!   this is a conjunction of unary conditions on the enemy's pieces ("the piece on
//!   a5 is not a rook or queen"), or impossible outright when an enemy pawn attacks q.
//!
//! So once both kings are fixed, every constraint is unary, and the worlds with white
//! king `kw` and black king `kb` are a product: (white arrangements with king `kw`
//! whose types fit white's sets for black king `kb`) x (the same for black). Each side
//! therefore keeps, for each possible enemy king (8 original pieces), one set of allowed
//! types per piece; the arrangements fitting them are a bitset over the 5040
//! (see [`super::arrangements`]). World counts are sums of 64 products.
//!
//! Promoted pieces (slots 8..) are never kings; their type is chosen at promotion, so in
//! a world (a starting pair) a promoted piece may have any type its set still allows.
//! A pair counts as a consistent world when each promoted piece has at least one.

use super::arrangements::{self, ArrangementSet, ORIGINALS};
use super::board::side;
use super::types::TypeSet;
use crate::chess::{Color, Kind};

/// Slots per side: eight originals and up to eight promoted pawns.
pub const SLOTS: usize = 16;

/// One side's type sets.
#[derive(Clone, Debug, PartialEq, Eq)]
struct SideTypes {
    /// `rows[k][slot]`: the types `slot` may have in the worlds where the enemy king is
    /// the enemy's original piece `k`.
    rows: [[TypeSet; SLOTS]; ORIGINALS],
    /// The types each slot may have given this side's own moves alone.
    own: [TypeSet; SLOTS],
    /// Slots in use.
    slots: usize,
}

impl SideTypes {
    fn new() -> SideTypes {
        let mut row = [TypeSet::EMPTY; SLOTS];
        row[..ORIGINALS].fill(TypeSet::ALL);
        SideTypes {
            rows: [row; ORIGINALS],
            own: row,
            slots: ORIGINALS,
        }
    }

    /// The arrangements of the originals fitting row `k`, if every promoted piece in it
    /// can still have some type.
    fn allowed(&self, k: usize) -> Option<ArrangementSet> {
        let row = &self.rows[k];
        row[ORIGINALS..self.slots]
            .iter()
            .all(|t| !t.is_empty())
            .then(|| arrangements::allowed(&row[..ORIGINALS]))
    }

    /// `n[king][enemy_king]`: arrangements with this king, given the enemy king (a row
    /// like an earlier one is counted once).
    fn king_counts(&self) -> [[u64; ORIGINALS]; ORIGINALS] {
        let mut n = [[0; ORIGINALS]; ORIGINALS];
        let king = TypeSet::of(Kind::King);
        for k in 0..ORIGINALS {
            if let Some(j) = (0..k).find(|&j| self.rows[j] == self.rows[k]) {
                for row in n.iter_mut() {
                    row[k] = row[j];
                }
            } else if let Some(allowed) = self.allowed(k) {
                for (own_king, row) in n.iter_mut().enumerate() {
                    row[k] = allowed.and_count(arrangements::with_types(own_king, king));
                }
            }
        }
        n
    }
}

/// For each side, how many of its arrangements have a given king, given the enemy king.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingCounts([[[u64; ORIGINALS]; ORIGINALS]; 2]);

impl KingCounts {
    /// Arrangements of `color` with king `king` that fit when the enemy king is `enemy`.
    pub fn get(&self, color: Color, king: usize, enemy: usize) -> u64 {
        self.0[side(color)][king][enemy]
    }

    /// The number of consistent worlds.
    pub fn worlds(&self) -> u64 {
        let (w, b) = (&self.0[0], &self.0[1]);
        (0..ORIGINALS)
            .flat_map(|kw| (0..ORIGINALS).map(move |kb| w[kw][kb] * b[kb][kw]))
            .sum()
    }
}

/// The set of consistent worlds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Worlds {
    sides: [SideTypes; 2],
}

impl Default for Worlds {
    fn default() -> Self {
        Worlds::new()
    }
}

impl Worlds {
    /// All 5040^2 starting pairs.
    pub fn new() -> Worlds {
        Worlds {
            sides: [SideTypes::new(), SideTypes::new()],
        }
    }

    /// Keeps the worlds where `slot` of `color` has a type in `types` (how it moved, or
    /// the type its promotion named).
    pub fn restrict(&mut self, color: Color, slot: u8, types: TypeSet) {
        let s = &mut self.sides[side(color)];
        let slot = slot as usize;
        s.own[slot] = s.own[slot].intersect(types);
        for row in &mut s.rows {
            row[slot] = row[slot].intersect(types);
        }
    }

    /// Adds a promoted piece of `color` in `slot` with the types it may have.
    pub fn add_promoted(&mut self, color: Color, slot: u8, types: TypeSet) {
        let s = &mut self.sides[side(color)];
        debug_assert_eq!(s.slots, slot as usize, "promoted slots come in order");
        let slot = slot as usize;
        s.slots = slot + 1;
        s.own[slot] = types;
        for row in &mut s.rows {
            row[slot] = types;
        }
    }

    /// In the worlds where `king_color`'s king is its piece `king`, the enemy piece in
    /// `attacker` has none of `types` (those that would attack the king).
    pub fn forbid_attack(&mut self, king_color: Color, king: u8, attacker: u8, types: TypeSet) {
        let enemy = &mut self.sides[side(king_color.opposite())];
        let cell = &mut enemy.rows[king as usize][attacker as usize];
        *cell = cell.without(types);
    }

    /// Drops the worlds where `color`'s king is its piece `king` (a pawn attacks it).
    pub fn rule_out_king(&mut self, color: Color, king: u8) {
        let enemy = &mut self.sides[side(color.opposite())];
        enemy.rows[king as usize].fill(TypeSet::EMPTY);
    }

    /// The types each piece of `color` may have given its own moves alone, by slot.
    pub fn own_types(&self, color: Color) -> &[TypeSet] {
        let s = &self.sides[side(color)];
        &s.own[..s.slots]
    }

    /// Slots in use by `color`.
    pub fn slots(&self, color: Color) -> usize {
        self.sides[side(color)].slots
    }

    /// The types `slot` of `color` may have when the enemy king is `enemy_king`.
    pub fn types(&self, color: Color, enemy_king: usize, slot: usize) -> TypeSet {
        self.sides[side(color)].rows[enemy_king][slot]
    }

    /// The arrangements of `color`'s originals fitting its sets when the enemy king is
    /// `enemy_king` (none if a promoted piece has no type left).
    pub fn allowed(&self, color: Color, enemy_king: usize) -> Option<ArrangementSet> {
        self.sides[side(color)].allowed(enemy_king)
    }

    /// The per-king arrangement counts of both sides.
    pub fn king_counts(&self) -> KingCounts {
        KingCounts([self.sides[0].king_counts(), self.sides[1].king_counts()])
    }

    /// The number of consistent worlds.
    pub fn count(&self) -> u64 {
        self.king_counts().worlds()
    }

    /// Whether at least one world is consistent.
    pub fn feasible(&self) -> bool {
        let (w, b) = (self.sides[0].king_counts(), self.sides[1].king_counts());
        (0..ORIGINALS).any(|kw| (0..ORIGINALS).any(|kb| w[kw][kb] > 0 && b[kb][kw] > 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(kinds: &[Kind]) -> TypeSet {
        TypeSet::from_kinds(kinds)
    }

    #[test]
    fn start_has_every_pair() {
        let w = Worlds::new();
        assert_eq!(w.count(), 5040 * 5040);
        assert!(w.feasible());
    }

    #[test]
    fn unary_constraints_multiply() {
        let mut w = Worlds::new();
        w.restrict(Color::White, 1, set(&[Kind::Knight]));
        w.restrict(Color::White, 6, set(&[Kind::Knight]));
        assert_eq!(w.count(), 180 * 5040);
        w.restrict(Color::White, 2, set(&[Kind::Knight]));
        assert_eq!(w.count(), 0);
        assert!(!w.feasible());
    }

    #[test]
    fn conditional_attack_couples_the_sides() {
        // If black's king is its piece 5, white's piece 0 is not a queen.
        let mut w = Worlds::new();
        w.restrict(Color::White, 0, set(&[Kind::Rook, Kind::Queen]));
        w.forbid_attack(Color::Black, 5, 0, set(&[Kind::Queen]));
        // (a1 = Q) x (black king not on f) + (a1 = R) x anything.
        assert_eq!(w.count(), 630 * 4410 + 1260 * 5040);
        w.rule_out_king(Color::Black, 4);
        assert_eq!(w.count(), 630 * (5040 - 2 * 630) + 1260 * 4410);
        assert!(w.feasible());
    }

    #[test]
    fn promoted_pieces_need_a_type() {
        let mut w = Worlds::new();
        w.add_promoted(Color::White, 8, TypeSet::PROMOTED);
        assert_eq!(w.count(), 5040 * 5040);
        // With black's king as piece 3, the promoted piece can be no type at all.
        w.forbid_attack(Color::Black, 3, 8, TypeSet::PROMOTED);
        assert_eq!(w.count(), 5040 * (5040 - 630));
        w.restrict(Color::White, 8, set(&[Kind::Knight]));
        assert_eq!(w.own_types(Color::White)[8], set(&[Kind::Knight]));
        assert_eq!(w.count(), 5040 * (5040 - 630));
    }
}
