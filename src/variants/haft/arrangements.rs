//! The 5040 ways one side's eight majors (K, Q, R, R, B, B, N, N) can stand on its back
//! rank, and sets of them as bitsets.

use super::types::TypeSet;
use std::sync::OnceLock;

/// Number of arrangements: 8! / (2! 2! 2!).
pub const ARRANGEMENTS: usize = 5040;
/// Number of original major pieces per side (slot = starting file).
pub const ORIGINALS: usize = 8;
const WORDS: usize = ARRANGEMENTS.div_ceil(64);

/// A set of arrangements of one side's eight majors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArrangementSet([u64; WORDS]);

impl ArrangementSet {
    const EMPTY: ArrangementSet = ArrangementSet([0; WORDS]);

    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    /// Arrangements in both sets.
    pub fn and(&self, other: &ArrangementSet) -> ArrangementSet {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(&other.0) {
            *a &= b;
        }
        out
    }

    /// Number of arrangements in the set.
    pub fn count(&self) -> u64 {
        self.0.iter().map(|w| w.count_ones() as u64).sum()
    }

    /// Number of arrangements in both sets.
    pub fn and_count(&self, other: &ArrangementSet) -> u64 {
        self.0
            .iter()
            .zip(&other.0)
            .map(|(a, b)| (a & b).count_ones() as u64)
            .sum()
    }

    /// The arrangement numbers in the set, ascending.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &bits)| {
            let mut rest = bits;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let b = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    w * 64 + b
                })
            })
        })
    }
}

/// Every arrangement and, per slot and set of types, the arrangements that agree.
struct Table {
    /// Type index (bit of [`TypeSet`]) of each slot, per arrangement.
    types: Vec<[u8; ORIGINALS]>,
    /// The king's slot, per arrangement.
    king: Vec<u8>,
    /// `by_slot[slot * 32 + mask]`: arrangements whose `slot` has a type in `mask`.
    by_slot: Vec<ArrangementSet>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(build)
}

fn build() -> Table {
    let mut types = Vec::with_capacity(ARRANGEMENTS);
    let mut left = [1u8, 1, 2, 2, 2]; // K Q R B N, in MAJORS order
    let mut current = [0u8; ORIGINALS];
    arrange(0, &mut left, &mut current, &mut types);
    debug_assert_eq!(types.len(), ARRANGEMENTS);
    let king = types
        .iter()
        .map(|a| a.iter().position(|&t| t == 0).unwrap_or_default() as u8)
        .collect();
    let mut by_slot = vec![ArrangementSet::EMPTY; ORIGINALS * 32];
    for (i, a) in types.iter().enumerate() {
        for (slot, &t) in a.iter().enumerate() {
            for mask in 0..32usize {
                if mask & (1 << t) != 0 {
                    by_slot[slot * 32 + mask].insert(i);
                }
            }
        }
    }
    Table {
        types,
        king,
        by_slot,
    }
}

/// Fills the slots from `slot` on with the types still `left`, in lexicographic order.
fn arrange(slot: usize, left: &mut [u8; 5], current: &mut [u8; ORIGINALS], out: &mut Vec<[u8; 8]>) {
    if slot == ORIGINALS {
        out.push(*current);
        return;
    }
    for t in 0..5 {
        if left[t] > 0 {
            left[t] -= 1;
            current[slot] = t as u8;
            arrange(slot + 1, left, current, out);
            left[t] += 1;
        }
    }
}

/// The arrangements giving `slot` a type in `types`.
pub fn with_types(slot: usize, types: TypeSet) -> &'static ArrangementSet {
    &table().by_slot[slot * 32 + types.0 as usize]
}

/// The arrangements giving every slot a type in its set.
pub fn allowed(masks: &[TypeSet]) -> ArrangementSet {
    let mut out = *with_types(0, masks[0]);
    for (slot, &m) in masks.iter().enumerate().take(ORIGINALS).skip(1) {
        out = out.and(with_types(slot, m));
    }
    out
}

/// The slot holding the king in arrangement `i`.
pub fn king_slot(i: usize) -> usize {
    table().king[i] as usize
}

/// The type of `slot` in arrangement `i`, as a bit index of [`TypeSet`].
pub fn type_index(i: usize, slot: usize) -> usize {
    table().types[i][slot] as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Kind;
    use crate::variants::haft::types::MAJORS;

    #[test]
    fn there_are_5040_distinct_arrangements() {
        let t = table();
        assert_eq!(t.types.len(), ARRANGEMENTS);
        let mut seen = std::collections::HashSet::new();
        for a in &t.types {
            assert!(seen.insert(*a));
            let mut counts = [0; 5];
            a.iter().for_each(|&x| counts[x as usize] += 1);
            assert_eq!(counts, [1, 1, 2, 2, 2]);
        }
    }

    #[test]
    fn slot_sets_count_as_expected() {
        // The king stands on a given file in 7!/(2!2!2!) = 630 arrangements.
        assert_eq!(with_types(3, TypeSet::of(Kind::King)).count(), 630);
        // A given file holds a rook in 2 * 7!/(2!2!) / 2 ... = 1260 arrangements.
        assert_eq!(with_types(0, TypeSet::of(Kind::Rook)).count(), 1260);
        assert_eq!(with_types(5, TypeSet::ALL).count(), ARRANGEMENTS as u64);
        // Two fixed knights leave 6!/(2!2!) = 180.
        let mut masks = [TypeSet::ALL; 8];
        masks[1] = TypeSet::of(Kind::Knight);
        masks[6] = TypeSet::of(Kind::Knight);
        let a = allowed(&masks);
        assert_eq!(a.count(), 180);
        assert_eq!(a.iter().count(), 180);
        let kind = |i: usize, slot: usize| MAJORS[type_index(i, slot)];
        assert!(a
            .iter()
            .all(|i| kind(i, 1) == Kind::Knight && kind(i, 6) == Kind::Knight));
        assert!(a.iter().all(|i| kind(i, king_slot(i)) == Kind::King));
        // A third knight is impossible.
        masks[2] = TypeSet::of(Kind::Knight);
        assert_eq!(allowed(&masks).count(), 0);
    }
}
