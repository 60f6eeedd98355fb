//! A fixed-width set of basis bits: one computational-basis state of all qubits.

use std::hash::{Hash, Hasher};

/// Number of qubits a basis state can hold (squares plus ancillas, or any register).
pub const MAX_QUBITS: usize = 256;

const WORDS: usize = MAX_QUBITS / 64;

/// One basis state: bit `q` is the value of qubit `q`.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Bits([u64; WORDS]);

impl Bits {
    /// The all-zero basis state.
    pub const ZERO: Bits = Bits([0; WORDS]);

    /// Value of qubit `q`.
    #[inline]
    pub fn get(&self, q: usize) -> bool {
        (self.0[q >> 6] >> (q & 63)) & 1 == 1
    }

    /// Sets qubit `q` to `v`.
    #[inline]
    pub fn set(&mut self, q: usize, v: bool) {
        let m = 1u64 << (q & 63);
        if v {
            self.0[q >> 6] |= m;
        } else {
            self.0[q >> 6] &= !m;
        }
    }

    /// This state with qubit `q` set to `v`.
    #[inline]
    pub fn with(mut self, q: usize, v: bool) -> Bits {
        self.set(q, v);
        self
    }

    /// A state with exactly the given qubits set.
    pub fn from_qubits<I: IntoIterator<Item = usize>>(qs: I) -> Bits {
        let mut b = Bits::ZERO;
        for q in qs {
            b.set(q, true);
        }
        b
    }

    /// The low 64 bits (for chess: the 64 squares).
    #[inline]
    pub fn low_word(&self) -> u64 {
        self.0[0]
    }

    /// Bitwise and.
    #[inline]
    pub fn and(&self, o: &Bits) -> Bits {
        let mut r = *self;
        for i in 0..WORDS {
            r.0[i] &= o.0[i];
        }
        r
    }

    /// Bitwise or.
    #[inline]
    pub fn or(&self, o: &Bits) -> Bits {
        let mut r = *self;
        for i in 0..WORDS {
            r.0[i] |= o.0[i];
        }
        r
    }

    /// Bitwise complement.
    #[inline]
    pub fn complement(&self) -> Bits {
        Bits(self.0.map(|w| !w))
    }

    /// Bitwise exclusive or.
    #[inline]
    pub fn xor(&self, o: &Bits) -> Bits {
        let mut r = *self;
        for i in 0..WORDS {
            r.0[i] ^= o.0[i];
        }
        r
    }

    /// True when no bit is set.
    #[inline]
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// True when `self & mask` is not zero.
    #[inline]
    pub fn intersects(&self, mask: &Bits) -> bool {
        (0..WORDS).any(|i| self.0[i] & mask.0[i] != 0)
    }

    /// Number of set bits.
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Indices of the set bits, ascending.
    pub fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    None
                } else {
                    let t = w.trailing_zeros() as usize;
                    w &= w - 1;
                    Some(i * 64 + t)
                }
            })
        })
    }
}

impl Hash for Bits {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        for w in self.0 {
            state.write_u64(w);
        }
    }
}

impl std::fmt::Debug for Bits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.ones()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_get_and_ones() {
        let b = Bits::from_qubits([0, 63, 64, 200]);
        assert!(b.get(0) && b.get(63) && b.get(64) && b.get(200));
        assert!(!b.get(1));
        assert_eq!(b.ones().collect::<Vec<_>>(), vec![0, 63, 64, 200]);
        assert_eq!(b.count(), 4);
        assert_eq!(b.with(63, false).count(), 3);
        assert_eq!(b.low_word(), 1 | (1 << 63));
    }
}
