//! The sparse backend: non-zero branches in a hash map keyed by basis bits.

use super::{
    check_targets, Backend, BackendKind, Bits, Compiled, Complex64, Control, Gate, QuantumError,
    Qubit, CERTAIN_EPS, PRUNE_NORM,
};
use std::collections::HashMap;

type Map = HashMap<Bits, Complex64, foldhash::fast::RandomState>;

/// Branches in a hash map (key = basis bits, value = amplitude). Only the branches a
/// gate touches are rehashed; the hash (foldhash) mixes well even when only the high
/// bits of a board change.
#[derive(Clone, Debug)]
pub struct SparseBackend {
    map: Map,
    scratch: Vec<(Bits, Complex64)>,
}

impl SparseBackend {
    /// A state holding the single basis state `initial`.
    pub fn new(initial: Bits) -> SparseBackend {
        let mut map = Map::default();
        map.insert(initial, Complex64::new(1.0, 0.0));
        SparseBackend {
            map,
            scratch: Vec::new(),
        }
    }

    /// A state with the given branches (amplitudes taken as they are).
    pub fn from_branches(branches: &[(Bits, Complex64)]) -> SparseBackend {
        let mut map = Map::default();
        for &(b, a) in branches {
            *map.entry(b).or_default() += a;
        }
        map.retain(|_, a| a.norm_sqr() >= PRUNE_NORM);
        SparseBackend {
            map,
            scratch: Vec::new(),
        }
    }
}

impl Backend for SparseBackend {
    fn kind(&self) -> BackendKind {
        BackendKind::Sparse
    }

    fn apply(
        &mut self,
        gate: Gate,
        targets: &[Qubit],
        controls: &[Control],
    ) -> Result<(), QuantumError> {
        check_targets(gate, targets, controls)?;
        let ctl = Compiled::new(controls);
        let a = targets[0] as usize;
        let flip = Bits::from_qubits(targets.iter().map(|&q| q as usize));
        let two = targets.len() == 2;
        let b = if two { targets[1] as usize } else { a };
        let m = gate.matrix();
        // Take out the branches the gate acts on, then add their images back.
        let mut work = std::mem::take(&mut self.scratch);
        work.clear();
        self.map.retain(|k, amp| {
            let acts = ctl.holds(k) && (!two || k.get(a) != k.get(b));
            if acts {
                work.push((*k, *amp));
            }
            !acts
        });
        for &(k, amp) in &work {
            let s = k.get(a) as usize;
            for (r, row) in m.iter().enumerate() {
                let c = row[s];
                if c.re == 0.0 && c.im == 0.0 {
                    continue;
                }
                let key = if r == s { k } else { k.xor(&flip) };
                *self.map.entry(key).or_default() += c * amp;
            }
        }
        for &(k, _) in &work {
            for key in [k, k.xor(&flip)] {
                if self
                    .map
                    .get(&key)
                    .is_some_and(|v| v.norm_sqr() < PRUNE_NORM)
                {
                    self.map.remove(&key);
                }
            }
        }
        self.scratch = work;
        Ok(())
    }

    fn phase_flip_where(&mut self, oracle: &dyn Fn(&Bits) -> bool) {
        for (k, a) in self.map.iter_mut() {
            if oracle(k) {
                *a = -*a;
            }
        }
    }

    fn probability_of(&self, predicate: &[Control]) -> f64 {
        let c = Compiled::new(predicate);
        self.map
            .iter()
            .filter(|(k, _)| c.holds(k))
            .map(|(_, a)| a.norm_sqr())
            .sum()
    }

    fn project(&mut self, predicate: &[Control], outcome: bool, p: f64) {
        let c = Compiled::new(predicate);
        let scale = 1.0 / p.sqrt();
        self.map.retain(|k, a| {
            let keep = c.holds(k) == outcome;
            *a *= scale;
            keep
        });
    }

    fn probability(&self, q: Qubit) -> f64 {
        let q = q as usize;
        self.map
            .iter()
            .filter(|(k, _)| k.get(q))
            .map(|(_, a)| a.norm_sqr())
            .sum()
    }

    fn probabilities(&self, n: usize) -> Vec<f64> {
        let mut p = vec![0.0; n];
        for (k, a) in &self.map {
            let w = a.norm_sqr();
            for q in k.ones() {
                if q >= n {
                    break;
                }
                p[q] += w;
            }
        }
        p
    }

    fn branches(&self) -> Vec<(Bits, Complex64)> {
        let mut v: Vec<_> = self.map.iter().map(|(k, a)| (*k, *a)).collect();
        v.sort_unstable_by_key(|x| x.0);
        v
    }

    fn branch_count(&self) -> usize {
        self.map.len()
    }

    fn reset_constant(&mut self, q: Qubit) -> Result<bool, QuantumError> {
        let p = self.probability(q);
        if p > CERTAIN_EPS && p < 1.0 - CERTAIN_EPS {
            return Err(QuantumError::NotConstant(q));
        }
        let qi = q as usize;
        let one = self.map.keys().next().is_some_and(|k| k.get(qi));
        if self.map.keys().any(|k| k.get(qi) != one) {
            return Err(QuantumError::NotConstant(q));
        }
        if one {
            self.map = self
                .map
                .drain()
                .map(|(k, a)| (k.with(qi, false), a))
                .collect();
        }
        Ok(one)
    }

    fn compact(&mut self) {}

    fn live_qubits(&self) -> usize {
        super::MAX_QUBITS
    }

    fn clone_box(&self) -> Box<dyn Backend> {
        Box::new(self.clone())
    }
}
