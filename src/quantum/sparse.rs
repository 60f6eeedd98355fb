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
        let two = targets.len() == 2;
        let b = if two { targets[1] as usize } else { a };
        let acts = |k: &Bits| (!two || k.get(a) != k.get(b)) && ctl.holds(k);
        let flip = Bits::from_qubits(targets.iter().map(|&q| q as usize));
        let m = gate.matrix();
        let is_zero = |c: Complex64| c.re == 0.0 && c.im == 0.0;
        if is_zero(m[0][1]) && is_zero(m[1][0]) {
            // Diagonal: every branch keeps its basis state, so no key is rehashed.
            self.map.retain(|k, amp| {
                if acts(k) {
                    let s = k.get(a) as usize;
                    *amp *= m[s][s];
                    amp.norm_sqr() >= PRUNE_NORM
                } else {
                    true
                }
            });
            return Ok(());
        }
        let mut work = std::mem::take(&mut self.scratch);
        work.clear();
        if is_zero(m[0][0]) && is_zero(m[1][1]) {
            // A permutation with phases. Take out the branches the gate acts on (no
            // hashing), then insert their images: each image gets exactly one
            // contribution and, being a branch the gate acts on, cannot meet a branch
            // that stayed in the map.
            self.map.retain(|k, amp| {
                let acting = acts(k);
                if acting {
                    work.push((*k, *amp));
                }
                !acting
            });
            for &(k, amp) in &work {
                let s = k.get(a) as usize;
                let v = m[1 - s][s] * amp;
                if v.norm_sqr() >= PRUNE_NORM {
                    self.map.insert(k.xor(&flip), v);
                }
            }
        } else {
            // A mixing gate: update each pair in place from its side-0 branch; the
            // images of missing partners are inserted afterwards.
            let mut side1 = 0usize;
            for (k, v) in &self.map {
                if acts(k) {
                    if k.get(a) {
                        side1 += 1;
                    } else {
                        work.push((*k, *v));
                    }
                }
            }
            let zero = Complex64::new(0.0, 0.0);
            let mut added = Vec::new();
            let mut pruned = Vec::new();
            let small = |v: Complex64| v.norm_sqr() < PRUNE_NORM;
            let mut paired = 0usize;
            for &(k, x0) in &work {
                let p = k.xor(&flip);
                let [Some(slot0), slot1] = self.map.get_disjoint_mut([&k, &p]) else {
                    unreachable!("a branch taken from the map is in the map");
                };
                let x1 = slot1.as_deref().copied().unwrap_or(zero);
                let y0 = m[0][0] * x0 + m[0][1] * x1;
                let y1 = m[1][0] * x0 + m[1][1] * x1;
                *slot0 = y0;
                if small(y0) {
                    pruned.push(k);
                }
                match slot1 {
                    Some(slot1) => {
                        paired += 1;
                        *slot1 = y1;
                        if small(y1) {
                            pruned.push(p);
                        }
                    }
                    None if !small(y1) => added.push((p, y1)),
                    None => {}
                }
            }
            if paired < side1 {
                // Side-1 branches without a partner, untouched by the loop above.
                let alone: Vec<(Bits, Complex64)> = self
                    .map
                    .iter()
                    .filter(|(k, _)| k.get(a) && acts(k) && !self.map.contains_key(&k.xor(&flip)))
                    .map(|(k, v)| (*k, *v))
                    .collect();
                for (k, x1) in alone {
                    let y0 = m[0][0] * zero + m[0][1] * x1;
                    let y1 = m[1][0] * zero + m[1][1] * x1;
                    if let Some(slot1) = self.map.get_mut(&k) {
                        *slot1 = y1;
                    }
                    if small(y1) {
                        pruned.push(k);
                    }
                    if !small(y0) {
                        added.push((k.xor(&flip), y0));
                    }
                }
            }
            for k in pruned {
                self.map.remove(&k);
            }
            self.map.extend(added);
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

    fn probability_fails(&self, predicate: &[Control]) -> f64 {
        let c = Compiled::new(predicate);
        self.map
            .iter()
            .filter(|(k, _)| !c.holds(k))
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
