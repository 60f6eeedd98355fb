//! What the consistent worlds say about each piece: in how many of them it has each type.

use super::arrangements::{self, ArrangementSet, ORIGINALS};
use super::board::side;
use super::types::{index, TypeSet, MAJORS};
use super::worlds::{Worlds, SLOTS};
use crate::chess::{Color, Kind};

/// The number of consistent worlds and, per piece, the share of them giving it each type.
#[derive(Clone, Debug, PartialEq)]
pub struct Census {
    worlds: u64,
    /// `weights[side][slot][type bit]`: worlds in which the piece has that type. A
    /// promoted piece's open type splits its worlds evenly among the types it may have.
    weights: [[[f64; 5]; SLOTS]; 2],
}

/// For one row of a side's type sets, the arrangements fitting it counted by their king
/// slot, then by slot and type: `n[king][slot][type bit]`.
type RowCounts = [[[u64; 5]; ORIGINALS]; ORIGINALS];

fn row_counts(allowed: &ArrangementSet) -> RowCounts {
    let mut n = [[[0; 5]; ORIGINALS]; ORIGINALS];
    for a in allowed.iter() {
        let by_slot = &mut n[arrangements::king_slot(a)];
        for (slot, types) in by_slot.iter_mut().enumerate() {
            types[arrangements::type_index(a, slot)] += 1;
        }
    }
    n
}

impl Census {
    /// Counts `worlds`. A side's rows (one per enemy king) are mostly alike, so each
    /// distinct row's arrangements are counted once, by king, slot and type, and then
    /// weighed by the other side's worlds for each king.
    pub fn new(worlds: &Worlds) -> Census {
        let counts = worlds.king_counts();
        let mut weights = [[[0.0; 5]; SLOTS]; 2];
        for color in [Color::White, Color::Black] {
            let out = &mut weights[side(color)];
            // Each distinct row (promoted slots included: one left without a type rules
            // the row out) with its counts, worked out once.
            let mut seen: Vec<([TypeSet; SLOTS], Option<RowCounts>)> = Vec::new();
            for enemy_king in 0..ORIGINALS {
                let key: [TypeSet; SLOTS] =
                    std::array::from_fn(|slot| worlds.types(color, enemy_king, slot));
                let i = match seen.iter().position(|(k, _)| *k == key) {
                    Some(i) => i,
                    None => {
                        let counted = worlds.allowed(color, enemy_king).map(|a| row_counts(&a));
                        seen.push((key, counted));
                        seen.len() - 1
                    }
                };
                let Some(n) = &seen[i].1 else {
                    continue;
                };
                let mut row_weight = 0.0;
                for (king, by_slot) in n.iter().enumerate() {
                    let w = counts.get(color.opposite(), enemy_king, king) as f64;
                    if w == 0.0 {
                        continue;
                    }
                    row_weight += w * by_slot[0].iter().sum::<u64>() as f64;
                    for (types, counted) in out.iter_mut().zip(by_slot) {
                        for (t, &c) in types.iter_mut().zip(counted) {
                            *t += w * c as f64;
                        }
                    }
                }
                for (slot, types) in out
                    .iter_mut()
                    .enumerate()
                    .take(worlds.slots(color))
                    .skip(ORIGINALS)
                {
                    let open = worlds.types(color, enemy_king, slot);
                    for k in open.kinds() {
                        if let Some(i) = index(k) {
                            types[i] += row_weight / open.len() as f64;
                        }
                    }
                }
            }
        }
        Census {
            worlds: counts.worlds(),
            weights,
        }
    }

    /// The number of consistent worlds.
    pub fn worlds(&self) -> u64 {
        self.worlds
    }

    /// The types `slot` of `color` has in some consistent world, with the share of
    /// worlds for each, in K Q R B N order.
    pub fn fractions(&self, color: Color, slot: u8) -> Vec<(Kind, f64)> {
        let w = &self.weights[side(color)][slot as usize];
        MAJORS
            .into_iter()
            .zip(w)
            .filter(|(_, &x)| x > 0.0)
            .map(|(k, &x)| (k, x / self.worlds as f64))
            .collect()
    }

    /// The types `slot` of `color` has in some consistent world.
    pub fn types(&self, color: Color, slot: u8) -> TypeSet {
        let kinds: Vec<Kind> = self.fractions(color, slot).iter().map(|f| f.0).collect();
        TypeSet::from_kinds(&kinds)
    }

    /// The type every consistent world gives `slot` of `color`, if they agree.
    pub fn locked(&self, color: Color, slot: u8) -> Option<Kind> {
        self.types(color, slot).single()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_fractions() {
        let c = Census::new(&Worlds::new());
        assert_eq!(c.worlds(), 5040 * 5040);
        let f = c.fractions(Color::White, 0);
        let expect = [1.0 / 8.0, 1.0 / 8.0, 0.25, 0.25, 0.25];
        assert_eq!(f.len(), 5);
        for ((_, x), e) in f.iter().zip(expect) {
            assert!((x - e).abs() < 1e-12);
        }
        assert_eq!(c.locked(Color::Black, 4), None);
    }

    #[test]
    fn conditional_fractions() {
        // White a1 is a rook or queen; if it is the queen, black's king is not piece 5.
        let mut w = Worlds::new();
        w.restrict(
            Color::White,
            0,
            TypeSet::from_kinds(&[Kind::Rook, Kind::Queen]),
        );
        w.forbid_attack(Color::Black, 5, 0, TypeSet::of(Kind::Queen));
        let c = Census::new(&w);
        let total = (630 * 4410 + 1260 * 5040) as f64;
        let f = c.fractions(Color::White, 0);
        assert_eq!(f[0].0, Kind::Queen);
        assert!((f[0].1 - 630.0 * 4410.0 / total).abs() < 1e-12);
        let k5 = c.fractions(Color::Black, 5)[0];
        assert_eq!(k5.0, Kind::King);
        assert!((k5.1 - 1260.0 * 630.0 / total).abs() < 1e-12);
        let sum: f64 = c.fractions(Color::Black, 5).iter().map(|x| x.1).sum();
        assert!((sum - 1.0).abs() < 1e-12);
    }

    #[test]
    fn promoted_types_split_evenly() {
        let mut w = Worlds::new();
        w.add_promoted(Color::Black, 8, TypeSet::PROMOTED);
        w.forbid_attack(
            Color::White,
            2,
            8,
            TypeSet::from_kinds(&[Kind::Queen, Kind::Rook]),
        );
        let c = Census::new(&w);
        let f = c.fractions(Color::Black, 8);
        // 1/8 of the worlds (white king = piece 2) allow B or N only.
        let q = f.iter().find(|x| x.0 == Kind::Queen).map(|x| x.1);
        assert!((q.unwrap_or_default() - 7.0 / 8.0 / 4.0).abs() < 1e-12);
        let n = f.iter().find(|x| x.0 == Kind::Knight).map(|x| x.1);
        assert!((n.unwrap_or_default() - (7.0 / 32.0 + 1.0 / 16.0)).abs() < 1e-12);
    }
}
