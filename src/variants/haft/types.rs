//! Sets of major-piece types (king, queen, rook, bishop, knight), and how they are said.

use super::words::join;
use crate::chess::Kind;

/// The five major types, in bit order.
pub const MAJORS: [Kind; 5] = [
    Kind::King,
    Kind::Queen,
    Kind::Rook,
    Kind::Bishop,
    Kind::Knight,
];

/// A set of major-piece types, one bit each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct TypeSet(pub u8);

impl TypeSet {
    /// No type.
    pub const EMPTY: TypeSet = TypeSet(0);
    /// All five types: an original back-rank piece before it has moved.
    pub const ALL: TypeSet = TypeSet(0b1_1111);
    /// Queen, rook, bishop or knight: what a pawn may promote to.
    pub const PROMOTED: TypeSet = TypeSet(0b1_1110);

    /// The set holding one type (empty for a pawn).
    pub fn of(kind: Kind) -> TypeSet {
        match index(kind) {
            Some(i) => TypeSet(1 << i),
            None => TypeSet::EMPTY,
        }
    }

    /// The set of the given types.
    pub fn from_kinds(kinds: &[Kind]) -> TypeSet {
        kinds
            .iter()
            .fold(TypeSet::EMPTY, |s, &k| s.union(TypeSet::of(k)))
    }

    /// Whether `kind` is in the set.
    pub fn contains(self, kind: Kind) -> bool {
        !self.intersect(TypeSet::of(kind)).is_empty()
    }

    /// Types in either set.
    pub fn union(self, other: TypeSet) -> TypeSet {
        TypeSet(self.0 | other.0)
    }

    /// Types in both sets.
    pub fn intersect(self, other: TypeSet) -> TypeSet {
        TypeSet(self.0 & other.0)
    }

    /// Types in `self` but not in `other`.
    pub fn without(self, other: TypeSet) -> TypeSet {
        TypeSet(self.0 & !other.0)
    }

    /// Whether every type of `self` is in `other`.
    pub fn is_subset(self, other: TypeSet) -> bool {
        self.without(other).is_empty()
    }

    /// True when the set holds no type.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of types in the set.
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The types in the set, in [`MAJORS`] order.
    pub fn kinds(self) -> impl Iterator<Item = Kind> {
        MAJORS.into_iter().filter(move |&k| self.contains(k))
    }

    /// The one type of a single-type set.
    pub fn single(self) -> Option<Kind> {
        (self.len() == 1).then(|| self.kinds().next()).flatten()
    }

    /// How many pieces of these types each side has in total (K 1, Q 1, R B N 2 each).
    pub fn roster(self) -> u32 {
        self.kinds().map(roster).sum()
    }

    /// "a rook or a queen", "a knight".
    pub fn describe(self) -> String {
        let names: Vec<String> = self.kinds().map(|k| format!("a {}", k.name())).collect();
        join(&names, "or")
    }

    /// "K, Q or R".
    pub fn letters(self) -> String {
        let letters: Vec<String> = self.kinds().map(|k| k.letter().to_string()).collect();
        join(&letters, "or")
    }
}

/// The bit of a major type (none for a pawn).
pub fn index(kind: Kind) -> Option<usize> {
    MAJORS.iter().position(|&k| k == kind)
}

/// How many pieces of `kind` each side starts with among its eight majors.
pub fn roster(kind: Kind) -> u32 {
    match kind {
        Kind::King | Kind::Queen => 1,
        Kind::Rook | Kind::Bishop | Kind::Knight => 2,
        Kind::Pawn => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_and_words() {
        let rq = TypeSet::from_kinds(&[Kind::Rook, Kind::Queen]);
        assert_eq!(rq.len(), 2);
        assert!(rq.contains(Kind::Queen) && !rq.contains(Kind::King));
        assert_eq!(rq.describe(), "a queen or a rook");
        assert_eq!(rq.letters(), "Q or R");
        assert_eq!(rq.roster(), 3);
        assert_eq!(TypeSet::ALL.roster(), 8);
        assert_eq!(TypeSet::of(Kind::Knight).single(), Some(Kind::Knight));
        assert_eq!(rq.single(), None);
        assert!(TypeSet::of(Kind::Pawn).is_empty());
        assert!(!TypeSet::PROMOTED.contains(Kind::King));
        assert!(rq.is_subset(TypeSet::PROMOTED));
        assert_eq!(
            TypeSet::from_kinds(&[Kind::King, Kind::Rook, Kind::Bishop]).describe(),
            "a king, a rook or a bishop"
        );
    }
}
