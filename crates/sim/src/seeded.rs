//! The seeded random source of every game outcome: measurements, the engine's choices
//! among equal moves, random players and the seeded test games.
//!
//! Saved games replay with their recorded seeds, so a seed must draw the same numbers
//! whatever release of `rand` qchess is built with. The core is ChaCha8 keyed by
//! `seed_from_u64` (a fixed stream: the key from PCG32 over the seed, block counter and
//! stream 0); everything drawn from it (floats, indices, shuffles, choices) is derived
//! here from its 32-bit words, the way rand 0.8 derived them, and not by `rand`'s own
//! distributions, whose algorithms change between releases (rand 0.9 changed ranges,
//! shuffles and choices). `tests/record/before_upgrade.rs` holds it to draws recorded on
//! rand 0.8.

use rand::rngs::ChaCha8Rng;
use rand::{Rng, SeedableRng};

/// ChaCha8 from a `u64` seed, with qchess's own, stable derivations.
#[derive(Debug)]
pub struct SeededRng {
    core: ChaCha8Rng,
}

/// The same source at the same place of its stream (ChaCha8 keeps no `Clone` of its own:
/// its key, stream and word position are its whole state).
impl Clone for SeededRng {
    fn clone(&self) -> SeededRng {
        SeededRng {
            core: ChaCha8Rng::deserialize_state(&self.core.serialize_state()),
        }
    }
}

impl SeededRng {
    /// The source of `seed`.
    pub fn new(seed: u64) -> SeededRng {
        SeededRng {
            core: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The next 32-bit word of the stream.
    fn word(&mut self) -> u32 {
        self.core.next_u32()
    }

    /// The next 64 bits: two words, the first the low half.
    pub fn next_u64(&mut self) -> u64 {
        let low = u64::from(self.word());
        low | u64::from(self.word()) << 32
    }

    /// A number in [0, 1): the top 53 bits of [`SeededRng::next_u64`], scaled.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform index below `len` (at least 1), by widening multiplication with
    /// rejection: one word a try while `len` fits in 32 bits, 64 bits a try beyond.
    pub fn index(&mut self, len: usize) -> usize {
        assert!(len > 0, "an index below 0");
        match u32::try_from(len) {
            Ok(range) => {
                let zone = (range << range.leading_zeros()).wrapping_sub(1);
                loop {
                    let product = u64::from(self.word()) * u64::from(range);
                    if product as u32 <= zone {
                        return (product >> 32) as usize;
                    }
                }
            }
            Err(_) => {
                let range = len as u64;
                let zone = (range << range.leading_zeros()).wrapping_sub(1);
                loop {
                    let product = u128::from(self.next_u64()) * u128::from(range);
                    if product as u64 <= zone {
                        return (product >> 64) as usize;
                    }
                }
            }
        }
    }

    /// Shuffles `items` in place (Fisher–Yates from the last item down).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.index(i + 1));
        }
    }

    /// One of `items`, uniformly; `None` when there is none.
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            return None;
        }
        Some(&items[self.index(items.len())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clone_goes_on_with_the_same_numbers() {
        let mut a = SeededRng::new(9);
        for _ in 0..37 {
            a.word();
        }
        let mut b = a.clone();
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }

    #[test]
    fn indices_stay_below_their_bound_and_reach_every_value() {
        let mut r = SeededRng::new(1);
        let mut seen = [false; 7];
        for _ in 0..500 {
            seen[r.index(7)] = true;
        }
        assert!(seen.iter().all(|&s| s));
        let mut items: Vec<u32> = (0..50).collect();
        r.shuffle(&mut items);
        items.sort_unstable();
        assert_eq!(items, (0..50).collect::<Vec<_>>());
        assert_eq!(r.choose::<u8>(&[]), None);
    }
}
