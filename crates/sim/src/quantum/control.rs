//! Controls of a gate and predicates of a measurement, over basis bits.

use super::bits::Bits;
use super::Qubit;
use serde::{Deserialize, Serialize};

/// One condition on a basis state. A gate acts only on branches where all its controls
/// hold; a measurement asks whether all conditions of its predicate hold.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Control {
    /// The qubit has this value.
    Bit(Qubit, bool),
    /// Every listed qubit is 0 (a clear path).
    Clear(Vec<Qubit>),
    /// At least one listed qubit is 1 (a blocked path; the negation of `Clear`).
    Blocked(Vec<Qubit>),
}

impl Control {
    /// The qubits this condition reads.
    pub fn qubits(&self) -> Vec<Qubit> {
        match self {
            Control::Bit(q, _) => vec![*q],
            Control::Clear(v) | Control::Blocked(v) => v.clone(),
        }
    }
}

/// A conjunction of controls compiled to masks, for fast tests on basis states.
#[derive(Clone, Debug, Default)]
pub struct Compiled {
    ones: Bits,
    zeros: Bits,
    any: Vec<Bits>,
}

impl Compiled {
    /// Compiles a conjunction of controls.
    pub fn new(controls: &[Control]) -> Compiled {
        let mut c = Compiled::default();
        for ctl in controls {
            match ctl {
                Control::Bit(q, true) => c.ones.set(*q as usize, true),
                Control::Bit(q, false) => c.zeros.set(*q as usize, true),
                Control::Clear(qs) => {
                    for q in qs {
                        c.zeros.set(*q as usize, true);
                    }
                }
                Control::Blocked(qs) => c
                    .any
                    .push(Bits::from_qubits(qs.iter().map(|&q| q as usize))),
            }
        }
        c
    }

    /// True when the basis state satisfies every condition.
    #[inline]
    pub fn holds(&self, b: &Bits) -> bool {
        b.and(&self.ones) == self.ones
            && !b.intersects(&self.zeros)
            && self.any.iter().all(|m| b.intersects(m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conjunction() {
        let c = Compiled::new(&[
            Control::Bit(1, true),
            Control::Clear(vec![2, 3]),
            Control::Blocked(vec![4, 5]),
        ]);
        assert!(c.holds(&Bits::from_qubits([1, 4])));
        assert!(c.holds(&Bits::from_qubits([1, 5, 70])));
        assert!(!c.holds(&Bits::from_qubits([1])));
        assert!(!c.holds(&Bits::from_qubits([1, 3, 4])));
        assert!(!c.holds(&Bits::from_qubits([4])));
        assert!(Compiled::new(&[]).holds(&Bits::ZERO));
    }
}
