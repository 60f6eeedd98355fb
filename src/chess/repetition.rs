//! The positions a game has passed through, for the repetition rule: each as a hash of
//! the classical part and the quantum state's signature, kept in a list that copies of
//! the game share (a search copies the game at every node; the list grows with the
//! game, and copying it each time cost a node more the longer the game).

use crate::quantum::Signature;
use std::sync::Arc;

/// One occurrence of a position: a hash of the classical register, side to move and
/// rights, and the quantum state's signature (which is the same however the state is
/// factored, and blind to a global phase).
#[derive(Clone, Copy, Debug)]
pub struct Seen {
    /// The classical part's hash.
    pub classical: u64,
    /// The quantum state's signature.
    pub quantum: Signature,
}

impl Seen {
    fn same(&self, o: &Seen) -> bool {
        self.classical == o.classical && self.quantum.matches(&o.quantum)
    }
}

/// The positions so far, newest first; a clone shares them (it costs one reference),
/// and each copy adds its own newer ones.
#[derive(Clone, Debug, Default)]
pub struct SeenList {
    newest: Option<Arc<Node>>,
}

#[derive(Debug)]
struct Node {
    seen: Seen,
    before: SeenList,
}

impl SeenList {
    /// Adds `seen` and says how often its position has now occurred (1 the first time).
    pub fn add(&mut self, seen: Seen) -> usize {
        let n = 1 + self.iter().filter(|s| s.same(&seen)).count();
        self.push(seen);
        n
    }

    fn push(&mut self, seen: Seen) {
        let before = std::mem::take(self);
        self.newest = Some(Arc::new(Node { seen, before }));
    }

    fn iter(&self) -> impl Iterator<Item = &Seen> {
        std::iter::successors(self.newest.as_deref(), |n| n.before.newest.as_deref())
            .map(|n| &n.seen)
    }
}

impl Drop for SeenList {
    /// Frees the nodes no other copy holds one after the other, not recursively (a long
    /// game's list would overflow the stack).
    fn drop(&mut self) {
        let mut next = self.newest.take();
        while let Some(node) = next {
            match Arc::try_unwrap(node) {
                Ok(mut node) => next = node.before.newest.take(),
                Err(_) => break,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Game, GameOptions};

    fn seen(classical: u64) -> Seen {
        let g = Game::standard(GameOptions::default());
        Seen {
            classical,
            quantum: g.simulator().backend().signature(),
        }
    }

    #[test]
    fn counts_occurrences_and_copies_part_ways() {
        let mut a = SeenList::default();
        assert_eq!(a.add(seen(1)), 1);
        assert_eq!(a.add(seen(2)), 1);
        assert_eq!(a.add(seen(1)), 2);
        let mut b = a.clone();
        assert_eq!(b.add(seen(1)), 3);
        // The copy's newer positions are its own.
        assert_eq!(a.add(seen(2)), 2);
        assert_eq!(b.add(seen(2)), 2);
        drop(a);
        assert_eq!(b.add(seen(1)), 4);
    }

    #[test]
    fn a_long_list_is_dropped_without_recursion() {
        // Dropped recursively, 200,000 nodes would need far more than a test thread's
        // stack.
        let one = seen(0);
        let mut a = SeenList::default();
        for i in 0..200_000 {
            a.push(Seen {
                classical: i,
                ..one
            });
        }
        let b = a.clone();
        drop(a);
        assert_eq!(b.iter().count(), 200_000, "a copy keeps what it shares");
        drop(b);
    }
}
