//! The sparse backend: non-zero branches in a hash map keyed by basis bits.

use super::factored::{Register, SPLIT_TOLERANCE};
use super::{
    check_targets, Backend, BackendKind, BackendOptions, Bits, Compiled, Complex64, Control, Gate,
    QuantumError, Qubit, CERTAIN_EPS, DEFAULT_SPARSE_LIMIT, PRUNE_NORM,
};
use std::collections::HashMap;

/// The branches by basis bits. The hasher's seed is fixed, so the map's order, and with
/// it the order of every sum over branches, is the same in every run: probabilities come
/// out bit for bit the same, and so does a search that compares them.
type Map = HashMap<Bits, Complex64, foldhash::fast::FixedState>;

/// Bytes one branch takes in the map's table (key, value and control byte).
const BRANCH_BYTES: usize = std::mem::size_of::<(Bits, Complex64)>() + 1;

/// Branches in a hash map (key = basis bits, value = amplitude). Only the branches a
/// gate touches are rehashed; the hash (foldhash) mixes well even when only the high
/// bits of a board change. A gate that would take the state past `limit` branches is
/// refused before anything is allocated.
#[derive(Clone, Debug)]
pub struct SparseBackend {
    map: Map,
    scratch: Vec<(Bits, Complex64)>,
    limit: usize,
}

/// The error for a failed allocation of `n` more branches.
pub(crate) fn out_of_memory(n: usize) -> QuantumError {
    QuantumError::OutOfMemory {
        bytes: n.saturating_mul(BRANCH_BYTES),
    }
}

impl SparseBackend {
    /// A state holding the single basis state `initial`, with the default size limit.
    pub fn new(initial: Bits) -> SparseBackend {
        SparseBackend::with_limit(initial, DEFAULT_SPARSE_LIMIT)
    }

    /// A state holding the single basis state `initial`, refusing to grow past `limit`
    /// branches.
    pub fn with_limit(initial: Bits, limit: usize) -> SparseBackend {
        let mut map = Map::default();
        map.insert(initial, Complex64::new(1.0, 0.0));
        SparseBackend {
            map,
            scratch: Vec::new(),
            limit,
        }
    }

    /// A state with the given branches (amplitudes taken as they are), with the default
    /// size limit.
    pub fn from_branches(branches: &[(Bits, Complex64)]) -> SparseBackend {
        let mut map = Map::default();
        for &(b, a) in branches {
            *map.entry(b).or_default() += a;
        }
        map.retain(|_, a| a.norm_sqr() >= PRUNE_NORM);
        SparseBackend {
            map,
            scratch: Vec::new(),
            limit: DEFAULT_SPARSE_LIMIT,
        }
    }

    /// Refuses a mixing gate that would take the state past the limit, and reserves
    /// room for the branches it adds. `side0` holds the acting branches whose first
    /// target is 0, `side1` counts the others; the gate adds one branch for each acting
    /// branch whose partner is missing (at most). Counting those takes a lookup per
    /// branch, so it is done only when the quick bound (every acting branch adds one)
    /// passes the limit or the room the map has; returns the room to reserve for the
    /// added branches.
    fn make_room(
        &mut self,
        side0: &[(Bits, Complex64)],
        side1: usize,
        flip: &Bits,
    ) -> Result<usize, QuantumError> {
        let len = self.map.len();
        let bound = side0.len() + side1;
        let free = self.map.capacity() - len;
        if len.saturating_add(bound) <= self.limit && bound <= free {
            return Ok(0);
        }
        let missing0 = side0
            .iter()
            .filter(|(k, _)| !self.map.contains_key(&k.xor(flip)))
            .count();
        let paired = side0.len() - missing0;
        let added = missing0 + (side1 - paired);
        let needed = len.saturating_add(added);
        if needed > self.limit {
            return Err(QuantumError::TooManyBranches {
                needed,
                limit: self.limit,
            });
        }
        self.map
            .try_reserve(added)
            .map_err(|_| out_of_memory(added))?;
        Ok(added)
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
            if work.try_reserve(self.map.len()).is_err() {
                self.scratch = work;
                return Err(out_of_memory(self.map.len()));
            }
            for (k, v) in &self.map {
                if acts(k) {
                    if k.get(a) {
                        side1 += 1;
                    } else {
                        work.push((*k, *v));
                    }
                }
            }
            let room = self.make_room(&work, side1, &flip);
            let mut added = Vec::new();
            if let Err(e) = room.and_then(|n| added.try_reserve(n).map_err(|_| out_of_memory(n))) {
                self.scratch = work;
                return Err(e);
            }
            let zero = Complex64::new(0.0, 0.0);
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

    fn project(
        &mut self,
        predicate: &[Control],
        outcome: bool,
        p: f64,
    ) -> Result<(), QuantumError> {
        let c = Compiled::new(predicate);
        let scale = 1.0 / p.sqrt();
        self.map.retain(|k, a| {
            let keep = c.holds(k) == outcome;
            *a *= scale;
            keep
        });
        Ok(())
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

impl SparseBackend {
    /// Flips the bits `flip` in every key, rehashing the map in place.
    fn rekey(&mut self, flip: &Bits) -> Result<(), QuantumError> {
        let n = self.map.len();
        let mut work = std::mem::take(&mut self.scratch);
        work.clear();
        if work.try_reserve(n).is_err() {
            self.scratch = work;
            return Err(out_of_memory(n));
        }
        work.extend(self.map.drain());
        self.map.extend(work.iter().map(|&(k, a)| (k.xor(flip), a)));
        work.clear();
        self.scratch = work;
        Ok(())
    }
}

impl Register for SparseBackend {
    const KIND: BackendKind = BackendKind::Sparse;

    fn unit(opts: &BackendOptions) -> Self {
        SparseBackend::with_limit(Bits::ZERO, opts.sparse_limit)
    }

    fn limit_units(opts: &BackendOptions) -> usize {
        opts.sparse_limit
    }

    fn too_large(units: usize, opts: &BackendOptions) -> QuantumError {
        QuantumError::TooManyBranches {
            needed: units,
            limit: opts.sparse_limit,
        }
    }

    fn size(&self) -> usize {
        self.map.len()
    }

    fn product_size(&self, other: &Self) -> usize {
        self.map.len().saturating_mul(other.map.len())
    }

    fn set_budget(&mut self, units: usize) {
        self.limit = units;
    }

    fn tensor(&self, other: &Self) -> Result<Self, QuantumError> {
        let n = self.product_size(other);
        let mut map = Map::default();
        map.try_reserve(n).map_err(|_| out_of_memory(n))?;
        for (k1, a1) in &self.map {
            for (k2, a2) in &other.map {
                let v = a1 * a2;
                if v.norm_sqr() >= PRUNE_NORM {
                    map.insert(k1.or(k2), v);
                }
            }
        }
        Ok(SparseBackend {
            map,
            scratch: Vec::new(),
            limit: self.limit,
        })
    }

    fn raise(&mut self, q: Qubit) -> Result<(), QuantumError> {
        self.rekey(&Bits::ZERO.with(q as usize, true))
    }

    fn constants(&self, within: &Bits) -> (Bits, Bits) {
        let mut all = Bits::ZERO.complement();
        let mut any = Bits::ZERO;
        for k in self.map.keys() {
            all = all.and(k);
            any = any.or(k);
        }
        let mask = within.and(&all.xor(&any).complement());
        (mask, all.and(&mask))
    }

    fn lower(&mut self, _mask: &Bits, values: &Bits) -> Result<(), QuantumError> {
        if values.is_zero() {
            return Ok(());
        }
        self.rekey(values)
    }

    fn split(&self, part: &Bits) -> Option<(Self, Self)> {
        let m = self.map.len();
        let rest_mask = part.complement();
        // The support of a product is every combination of the two parts' supports, so
        // counting from any one branch finds most supports that are not: one pass, the
        // common answer when a move leaves a factor entangled.
        let any = *self.map.keys().next()?;
        let (h, r) = (any.and(part), any.and(&rest_mask));
        let (n_h, n_r) = self.map.keys().fold((0usize, 0usize), |(n_h, n_r), k| {
            (
                n_h + usize::from(k.and(&rest_mask) == r),
                n_r + usize::from(k.and(part) == h),
            )
        });
        if n_h.checked_mul(n_r) != Some(m) || n_h < 2 || n_r < 2 {
            return None;
        }
        // The largest branch as the reference, for the division below; counted again
        // from it (the counts from one branch can match by chance where the support is
        // not a product).
        let (&k0, &c) = self
            .map
            .iter()
            .max_by(|x, y| x.1.norm_sqr().total_cmp(&y.1.norm_sqr()))?;
        let (h0, r0) = (k0.and(part), k0.and(&rest_mask));
        let n_h = self.map.keys().filter(|k| k.and(&rest_mask) == r0).count();
        let n_r = self.map.keys().filter(|k| k.and(part) == h0).count();
        if n_h.checked_mul(n_r) != Some(m) {
            return None;
        }
        for (k, a) in &self.map {
            let (h, r) = (k.and(part), k.and(&rest_mask));
            let alpha = self.map.get(&h.or(&r0))?;
            let beta = self.map.get(&h0.or(&r))? / c;
            if (a - alpha * beta).norm() > SPLIT_TOLERANCE {
                return None;
            }
        }
        let alpha: Vec<(Bits, Complex64)> = self
            .map
            .iter()
            .filter(|(k, _)| k.and(&rest_mask) == r0)
            .map(|(k, a)| (k.and(part), *a))
            .collect();
        let norm = alpha.iter().map(|(_, a)| a.norm_sqr()).sum::<f64>().sqrt();
        let beta: Vec<(Bits, Complex64)> = self
            .map
            .iter()
            .filter(|(k, _)| k.and(part) == h0)
            .map(|(k, a)| (k.and(&rest_mask), a / c * norm))
            .collect();
        let alpha: Vec<(Bits, Complex64)> = alpha.into_iter().map(|(k, a)| (k, a / norm)).collect();
        let mut a = SparseBackend::from_branches(&alpha);
        let mut b = SparseBackend::from_branches(&beta);
        a.limit = self.limit;
        b.limit = self.limit;
        Some((a, b))
    }

    fn each_branch(&self, f: &mut dyn FnMut(&Bits, Complex64)) {
        for (k, a) in &self.map {
            f(k, *a);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantum::factored::Register;

    fn state(branches: &[(&[usize], f64)]) -> SparseBackend {
        let b: Vec<(Bits, Complex64)> = branches
            .iter()
            .map(|(qs, a)| {
                (
                    Bits::from_qubits(qs.iter().copied()),
                    Complex64::new(*a, 0.0),
                )
            })
            .collect();
        SparseBackend::from_branches(&b)
    }

    fn branches(s: &SparseBackend) -> Vec<(Bits, Complex64)> {
        let mut out = Vec::new();
        s.each_branch(&mut |b, a| out.push((*b, a)));
        out.sort_by_key(|x| x.0);
        out
    }

    #[test]
    fn a_product_splits_into_its_parts() {
        // (0.6|0> + 0.8|q0>) (|0> + |q1>) / sqrt 2, over qubits 0 and 1.
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let s = state(&[
            (&[], 0.6 * h),
            (&[0], 0.8 * h),
            (&[1], 0.6 * h),
            (&[0, 1], 0.8 * h),
        ]);
        let (a, b) = s.split(&Bits::from_qubits([0])).expect("a product");
        let close = |x: &[(Bits, Complex64)], y: &[(Bits, Complex64)]| {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|(p, q)| p.0 == q.0 && (p.1 - q.1).norm() < 1e-12)
        };
        let (ea, eb) = (
            state(&[(&[], 0.6), (&[0], 0.8)]),
            state(&[(&[], h), (&[1], h)]),
        );
        // Each part may carry a phase the other takes back: their product is the state,
        // as is the product of the two parts written out (a check of the example).
        assert_eq!(branches(&a).len(), 2);
        assert_eq!(branches(&b).len(), 2);
        let product = a.tensor(&b).unwrap();
        assert!(close(&branches(&product), &branches(&s)));
        assert!(close(&branches(&ea.tensor(&eb).unwrap()), &branches(&s)));
    }

    #[test]
    fn entangled_states_do_not_split() {
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let bell = state(&[(&[], h), (&[0, 1], h)]);
        assert!(bell.split(&Bits::from_qubits([0])).is_none());
        // Parts on qubits {0, 1} and {2, 3}: from the branch |0> the support looks like
        // a 2 x 2 product (|0>, |q0> share its second part; |0>, |q2> its first), but
        // |q0 q2> is missing and |q1 q3> has no partner. Whichever branch the check
        // starts from, it must not split.
        let s = state(&[(&[], 0.4), (&[2], 0.4), (&[0], 0.4), (&[1, 3], 0.7)]);
        assert!(s.split(&Bits::from_qubits([0, 1])).is_none());
        assert!(s.split(&Bits::from_qubits([2, 3])).is_none());
    }
}
