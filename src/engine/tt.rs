//! The transposition table: values of positions already searched, keyed by the game's
//! state hash (the hash threefold repetition compares: register, side to move, rights
//! and the quantum state up to a global phase).

use crate::chess::MoveText;

/// How a stored value relates to the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value is exact.
    Exact,
    /// The true value is at least this (the search failed high).
    Lower,
    /// The true value is at most this (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The full state hash.
    pub key: u64,
    /// Depth searched below the position.
    pub depth: u8,
    /// What the value is.
    pub bound: Bound,
    /// The value for the side to move.
    pub value: f64,
    /// The best move found, tried first next time.
    pub best: Option<MoveText>,
}

/// A fixed-size table, one entry per slot, a new result always replacing the old one.
pub struct Table {
    slots: Vec<Option<Entry>>,
}

impl Table {
    /// A table of `2^log2` slots.
    pub fn new(log2: u32) -> Table {
        Table {
            slots: vec![None; 1 << log2],
        }
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }

    /// The entry stored for `key`, if any.
    pub fn get(&self, key: u64) -> Option<Entry> {
        self.slots[self.slot(key)].filter(|e| e.key == key)
    }

    /// Stores an entry in its key's slot.
    pub fn put(&mut self, e: Entry) {
        let i = self.slot(e.key);
        self.slots[i] = Some(e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_replaces() {
        let mut t = Table::new(4);
        let e = Entry {
            key: 0x35,
            depth: 2,
            bound: Bound::Exact,
            value: 1.5,
            best: None,
        };
        t.put(e);
        assert_eq!(t.get(0x35).map(|e| e.value), Some(1.5));
        assert!(t.get(0x45).is_none(), "same slot, other key");
        t.put(Entry { key: 0x45, ..e });
        assert!(t.get(0x35).is_none());
        assert_eq!(t.get(0x45).map(|e| e.depth), Some(2));
    }
}
