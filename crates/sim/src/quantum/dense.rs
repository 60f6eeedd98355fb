//! The dense backend: a complex state vector over the live (non-constant) qubits only,
//! with the constant qubits kept aside as classical bits.

use super::factored::{Register, SPLIT_TOLERANCE};
use super::{
    check_targets, Backend, BackendKind, BackendOptions, Bits, Complex64, Control, Gate,
    QuantumError, Qubit, MAX_QUBITS, PRUNE_NORM,
};

/// Amplitude count above which gate kernels split the work over threads.
const PARALLEL_MIN: usize = 1 << 16;

const NOT_LIVE: u8 = u8::MAX;

/// Largest size limit a dense state accepts, as log2 of the number of amplitudes: beyond
/// it the vector's byte size would not fit in `isize`. A larger requested limit is
/// lowered to this one.
pub const MAX_DENSE_LIMIT_LOG2: u32 = usize::BITS - 6;

/// A state vector over the live qubits. A gate that touches a classical qubit makes it
/// live (the vector doubles); [`Backend::compact`] returns constant qubits to the
/// classical part (the vector halves). A state beyond `limit_log2` live qubits is refused.
#[derive(Clone, Debug)]
pub struct DenseBackend {
    live: Vec<Qubit>,
    pos: Vec<u8>,
    classical: Bits,
    amps: Vec<Complex64>,
    limit_log2: u32,
}

/// Conditions of a gate or predicate, resolved against the classical bits into masks
/// over vector indices.
enum Resolved {
    /// Never holds.
    Never,
    /// Holds where `idx & ones == ones`, `idx & zeros == 0`, and each `any` mask meets idx.
    Masks {
        ones: usize,
        zeros: usize,
        any: Vec<usize>,
    },
}

impl Resolved {
    #[inline]
    fn holds(ones: usize, zeros: usize, any: &[usize], idx: usize) -> bool {
        idx & ones == ones && idx & zeros == 0 && any.iter().all(|m| idx & m != 0)
    }
}

impl DenseBackend {
    /// A state holding the basis state `initial` (no live qubits), refusing to grow past
    /// 2^`limit_log2` amplitudes.
    pub fn new(initial: Bits, limit_log2: u32) -> DenseBackend {
        DenseBackend {
            live: Vec::new(),
            pos: vec![NOT_LIVE; MAX_QUBITS],
            classical: initial,
            amps: vec![Complex64::new(1.0, 0.0)],
            limit_log2: limit_log2.min(MAX_DENSE_LIMIT_LOG2),
        }
    }

    /// A state with the given branches (amplitudes taken as they are, repeated basis
    /// states summed). The qubits that differ between branches are live, the others
    /// classical. Refused when the live qubits exceed the limit; an empty list gives the
    /// all-zero basis state.
    pub fn from_branches(
        branches: &[(Bits, Complex64)],
        limit_log2: u32,
    ) -> Result<DenseBackend, QuantumError> {
        let Some(&(first, _)) = branches.first() else {
            return Ok(DenseBackend::new(Bits::ZERO, limit_log2));
        };
        let mut varying = Bits::ZERO;
        for (b, _) in branches {
            varying = varying.or(&b.xor(&first));
        }
        let mut d = DenseBackend::new(first.and(&varying.complement()), limit_log2);
        let needed = varying.count();
        if needed > d.limit_log2 {
            return Err(QuantumError::StateTooLarge {
                needed,
                limit: d.limit_log2,
            });
        }
        for (j, q) in varying.ones().enumerate() {
            d.pos[q] = j as u8;
            d.live.push(q as Qubit);
        }
        let len = 1usize << needed;
        d.amps = Vec::new();
        d.amps
            .try_reserve_exact(len)
            .map_err(|_| out_of_memory(len))?;
        d.amps.resize(len, Complex64::new(0.0, 0.0));
        for (b, a) in branches {
            let idx = d.index_of(b);
            d.amps[idx] += a;
        }
        for a in &mut d.amps {
            if a.norm_sqr() < PRUNE_NORM {
                *a = Complex64::new(0.0, 0.0);
            }
        }
        Ok(d)
    }

    /// The vector index of the live qubits set in `b`.
    fn index_of(&self, b: &Bits) -> usize {
        self.live
            .iter()
            .enumerate()
            .filter(|(_, &q)| b.get(q as usize))
            .fold(0usize, |idx, (j, _)| idx | 1 << j)
    }

    /// The size limit, as log2 of the number of amplitudes.
    pub fn limit_log2(&self) -> u32 {
        self.limit_log2
    }

    fn resolve(&self, controls: &[Control]) -> Resolved {
        let (mut ones, mut zeros, mut any) = (0usize, 0usize, Vec::new());
        for c in controls {
            match c {
                Control::Bit(q, v) => match self.pos[*q as usize] {
                    NOT_LIVE => {
                        if self.classical.get(*q as usize) != *v {
                            return Resolved::Never;
                        }
                    }
                    j if *v => ones |= 1 << j,
                    j => zeros |= 1 << j,
                },
                Control::Clear(qs) => {
                    for q in qs {
                        match self.pos[*q as usize] {
                            NOT_LIVE if self.classical.get(*q as usize) => return Resolved::Never,
                            NOT_LIVE => {}
                            j => zeros |= 1 << j,
                        }
                    }
                }
                Control::Blocked(qs) => {
                    let mut mask = 0usize;
                    let mut certain = false;
                    for q in qs {
                        match self.pos[*q as usize] {
                            NOT_LIVE => certain |= self.classical.get(*q as usize),
                            j => mask |= 1 << j,
                        }
                    }
                    if !certain {
                        if mask == 0 {
                            return Resolved::Never;
                        }
                        any.push(mask);
                    }
                }
            }
        }
        Resolved::Masks { ones, zeros, any }
    }

    /// Makes classical qubit `q` live (the vector doubles); returns its live position.
    /// The caller has checked the size limit; a failed allocation is refused as too large.
    fn grow(&mut self, q: Qubit) -> Result<usize, QuantumError> {
        let j = self.pos[q as usize];
        if j != NOT_LIVE {
            return Ok(j as usize);
        }
        let len = self.amps.len();
        if self.amps.try_reserve_exact(len).is_err() {
            // Below the limit, but the memory is not there: say so.
            return Err(out_of_memory(len));
        }
        let zero = Complex64::new(0.0, 0.0);
        self.amps.resize(2 * len, zero);
        if self.classical.get(q as usize) {
            self.amps.copy_within(0..len, len);
            self.amps[..len].fill(zero);
        }
        self.classical.set(q as usize, false);
        self.pos[q as usize] = self.live.len() as u8;
        self.live.push(q);
        Ok(self.live.len() - 1)
    }

    /// Removes live position `j`, which holds `value` in every non-zero amplitude.
    fn shrink(&mut self, j: usize, value: bool) {
        let low = (1usize << j) - 1;
        let half = self.amps.len() / 2;
        let v = (value as usize) << j;
        // In place: the source index of k is never below k, so no source is overwritten
        // before it is read.
        for k in 0..half {
            self.amps[k] = self.amps[((k & !low) << 1) | v | (k & low)];
        }
        self.amps.truncate(half);
        self.amps.shrink_to_fit();
        let q = self.live.remove(j);
        self.pos[q as usize] = NOT_LIVE;
        self.classical.set(q as usize, value);
        for (i, &q) in self.live.iter().enumerate().skip(j) {
            self.pos[q as usize] = i as u8;
        }
    }

    /// The value live position `j` has in every non-zero amplitude, if it is constant.
    fn constant_value(&self, j: usize) -> Option<bool> {
        let (mut zero, mut one) = (false, false);
        for (idx, a) in self.amps.iter().enumerate() {
            if a.re != 0.0 || a.im != 0.0 {
                if idx >> j & 1 == 1 {
                    one = true;
                } else {
                    zero = true;
                }
                if zero && one {
                    return None;
                }
            }
        }
        Some(one)
    }

    fn full_bits(&self, idx: usize) -> Bits {
        let mut b = self.classical;
        for (j, &q) in self.live.iter().enumerate() {
            if idx >> j & 1 == 1 {
                b.set(q as usize, true);
            }
        }
        b
    }
}

/// The error for a failed allocation of `n` amplitudes.
fn out_of_memory(n: usize) -> QuantumError {
    QuantumError::OutOfMemory {
        bytes: n.saturating_mul(std::mem::size_of::<Complex64>()),
    }
}

/// Inserts a zero bit at position `p` of `k`.
#[inline]
fn insert_zero(k: usize, p: usize) -> usize {
    ((k >> p) << (p + 1)) | (k & ((1 << p) - 1))
}

/// A raw pointer the gate kernel's threads share; each thread writes disjoint pairs.
#[derive(Clone, Copy)]
struct Shared(*mut Complex64);
// SAFETY: the kernel hands each thread a disjoint range of pair indices, and every pair
// index maps to two amplitude indices owned by that pair alone.
unsafe impl Send for Shared {}
unsafe impl Sync for Shared {}

/// Applies the 2x2 matrix `m` to every pair (idx, idx ^ flip) with `idx` from pair
/// index `k` (zero bits inserted at `holes`, then `side0` set) where the masks hold.
#[allow(clippy::too_many_arguments)]
fn kernel(
    ptr: Shared,
    range: std::ops::Range<usize>,
    holes: &[usize],
    side0: usize,
    flip: usize,
    m: &[[Complex64; 2]; 2],
    masks: (usize, usize, &[usize]),
) {
    let (ones, zeros, any) = masks;
    for k in range {
        let mut idx = k;
        for &h in holes {
            idx = insert_zero(idx, h);
        }
        idx |= side0;
        if !Resolved::holds(ones, zeros, any, idx) {
            continue;
        }
        let p = idx ^ flip;
        // SAFETY: idx and p belong to pair k only; see `Shared`.
        unsafe {
            let x0 = *ptr.0.add(idx);
            let x1 = *ptr.0.add(p);
            let mut y0 = m[0][0] * x0 + m[0][1] * x1;
            let mut y1 = m[1][0] * x0 + m[1][1] * x1;
            if y0.norm_sqr() < PRUNE_NORM {
                y0 = Complex64::new(0.0, 0.0);
            }
            if y1.norm_sqr() < PRUNE_NORM {
                y1 = Complex64::new(0.0, 0.0);
            }
            *ptr.0.add(idx) = y0;
            *ptr.0.add(p) = y1;
        }
    }
}

impl Backend for DenseBackend {
    fn kind(&self) -> BackendKind {
        BackendKind::Dense
    }

    fn apply(
        &mut self,
        gate: Gate,
        targets: &[Qubit],
        controls: &[Control],
    ) -> Result<(), QuantumError> {
        check_targets(gate, targets, controls)?;
        if let Resolved::Never = self.resolve(controls) {
            return Ok(());
        }
        if targets.len() == 2 {
            let (a, b) = (targets[0] as usize, targets[1] as usize);
            if self.pos[a] == NOT_LIVE
                && self.pos[b] == NOT_LIVE
                && self.classical.get(a) == self.classical.get(b)
            {
                return Ok(());
            }
        }
        let new = targets
            .iter()
            .filter(|&&t| self.pos[t as usize] == NOT_LIVE)
            .count() as u32;
        let needed = self.live.len() as u32 + new;
        if needed > self.limit_log2 {
            return Err(QuantumError::StateTooLarge {
                needed,
                limit: self.limit_log2,
            });
        }
        let mut js = Vec::with_capacity(2);
        for &t in targets {
            js.push(self.grow(t)?);
        }
        // Growing moved no live position, but classical controls may now be live.
        let Resolved::Masks { ones, zeros, any } = self.resolve(controls) else {
            return Ok(());
        };
        let (side0, flip) = if js.len() == 2 {
            (1 << js[1], (1 << js[0]) | (1 << js[1]))
        } else {
            (0, 1 << js[0])
        };
        let mut holes = js.clone();
        holes.sort_unstable();
        let m = gate.matrix();
        let pairs = self.amps.len() >> js.len();
        let ptr = Shared(self.amps.as_mut_ptr());
        let threads = if self.amps.len() >= PARALLEL_MIN {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            1
        };
        if threads <= 1 {
            kernel(ptr, 0..pairs, &holes, side0, flip, &m, (ones, zeros, &any));
        } else {
            let chunk = pairs.div_ceil(threads);
            std::thread::scope(|s| {
                for t in 0..threads {
                    let range = (t * chunk)..((t + 1) * chunk).min(pairs);
                    let (holes, m, any) = (&holes, &m, &any);
                    s.spawn(move || kernel(ptr, range, holes, side0, flip, m, (ones, zeros, any)));
                }
            });
        }
        Ok(())
    }

    fn phase_flip_where(&mut self, oracle: &dyn Fn(&Bits) -> bool) {
        for idx in 0..self.amps.len() {
            let a = self.amps[idx];
            if (a.re != 0.0 || a.im != 0.0) && oracle(&self.full_bits(idx)) {
                self.amps[idx] = -a;
            }
        }
    }

    fn probability_of(&self, predicate: &[Control]) -> f64 {
        match self.resolve(predicate) {
            Resolved::Never => 0.0,
            Resolved::Masks { ones, zeros, any } => self
                .amps
                .iter()
                .enumerate()
                .filter(|(i, _)| Resolved::holds(ones, zeros, &any, *i))
                .map(|(_, a)| a.norm_sqr())
                .sum(),
        }
    }

    fn probability_fails(&self, predicate: &[Control]) -> f64 {
        let resolved = self.resolve(predicate);
        self.amps
            .iter()
            .enumerate()
            .filter(|(i, _)| match &resolved {
                Resolved::Never => true,
                Resolved::Masks { ones, zeros, any } => !Resolved::holds(*ones, *zeros, any, *i),
            })
            .map(|(_, a)| a.norm_sqr())
            .sum()
    }

    fn project(
        &mut self,
        predicate: &[Control],
        outcome: bool,
        p: f64,
    ) -> Result<(), QuantumError> {
        let scale = 1.0 / p.sqrt();
        let resolved = self.resolve(predicate);
        for (i, a) in self.amps.iter_mut().enumerate() {
            let holds = match &resolved {
                Resolved::Never => false,
                Resolved::Masks { ones, zeros, any } => Resolved::holds(*ones, *zeros, any, i),
            };
            if holds == outcome {
                *a *= scale;
            } else {
                *a = Complex64::new(0.0, 0.0);
            }
        }
        Ok(())
    }

    fn probability(&self, q: Qubit) -> f64 {
        match self.pos[q as usize] {
            NOT_LIVE => self.classical.get(q as usize) as u8 as f64,
            j => self
                .amps
                .iter()
                .enumerate()
                .filter(|(i, _)| i >> j & 1 == 1)
                .map(|(_, a)| a.norm_sqr())
                .sum(),
        }
    }

    fn probabilities(&self, n: usize) -> Vec<f64> {
        let mut p: Vec<f64> = (0..n).map(|q| self.classical.get(q) as u8 as f64).collect();
        let mut live = vec![0.0; self.live.len()];
        for (idx, a) in self.amps.iter().enumerate() {
            let w = a.norm_sqr();
            if w == 0.0 {
                continue;
            }
            let mut bits = idx;
            while bits != 0 {
                let j = bits.trailing_zeros() as usize;
                live[j] += w;
                bits &= bits - 1;
            }
        }
        for (j, &q) in self.live.iter().enumerate() {
            if (q as usize) < n {
                p[q as usize] = live[j];
            }
        }
        p
    }

    fn branches(&self) -> Vec<(Bits, Complex64)> {
        let mut v: Vec<_> = self
            .amps
            .iter()
            .enumerate()
            .filter(|(_, a)| a.re != 0.0 || a.im != 0.0)
            .map(|(i, a)| (self.full_bits(i), *a))
            .collect();
        v.sort_unstable_by_key(|x| x.0);
        v
    }

    fn branch_count(&self) -> usize {
        self.amps
            .iter()
            .filter(|a| a.re != 0.0 || a.im != 0.0)
            .count()
    }

    fn reset_constant(&mut self, q: Qubit) -> Result<bool, QuantumError> {
        let j = self.pos[q as usize];
        if j != NOT_LIVE {
            let v = self
                .constant_value(j as usize)
                .ok_or(QuantumError::NotConstant(q))?;
            self.shrink(j as usize, v);
        }
        let v = self.classical.get(q as usize);
        self.classical.set(q as usize, false);
        Ok(v)
    }

    fn compact(&mut self) {
        let mut j = 0;
        while j < self.live.len() {
            match self.constant_value(j) {
                Some(v) => self.shrink(j, v),
                None => j += 1,
            }
        }
    }

    fn live_qubits(&self) -> usize {
        self.live.len()
    }

    fn clone_box(&self) -> Box<dyn Backend> {
        Box::new(self.clone())
    }
}

impl Register for DenseBackend {
    const KIND: BackendKind = BackendKind::Dense;

    fn unit(opts: &BackendOptions) -> Self {
        DenseBackend::new(Bits::ZERO, opts.dense_limit_log2)
    }

    fn limit_units(opts: &BackendOptions) -> usize {
        1usize << opts.dense_limit_log2.min(MAX_DENSE_LIMIT_LOG2)
    }

    fn too_large(units: usize, opts: &BackendOptions) -> QuantumError {
        QuantumError::StateTooLarge {
            needed: units
                .checked_next_power_of_two()
                .map_or(usize::BITS, |p| p.trailing_zeros()),
            limit: opts.dense_limit_log2.min(MAX_DENSE_LIMIT_LOG2),
        }
    }

    fn size(&self) -> usize {
        self.amps.len()
    }

    fn product_size(&self, other: &Self) -> usize {
        1usize
            .checked_shl((self.live.len() + other.live.len()) as u32)
            .unwrap_or(usize::MAX)
    }

    fn set_budget(&mut self, units: usize) {
        self.limit_log2 = units.checked_ilog2().unwrap_or(0).min(MAX_DENSE_LIMIT_LOG2);
    }

    fn tensor(&self, other: &Self) -> Result<Self, QuantumError> {
        let n1 = self.live.len();
        let n = self.product_size(other);
        let mut amps = Vec::new();
        amps.try_reserve_exact(n).map_err(|_| out_of_memory(n))?;
        for b in &other.amps {
            for a in &self.amps {
                let v = a * b;
                amps.push(if v.norm_sqr() < PRUNE_NORM {
                    Complex64::new(0.0, 0.0)
                } else {
                    v
                });
            }
        }
        let mut d = DenseBackend {
            live: self.live.clone(),
            pos: self.pos.clone(),
            classical: self.classical.or(&other.classical),
            amps,
            limit_log2: self.limit_log2,
        };
        for (j, &q) in other.live.iter().enumerate() {
            d.pos[q as usize] = (n1 + j) as u8;
            d.live.push(q);
        }
        Ok(d)
    }

    fn raise(&mut self, q: Qubit) -> Result<(), QuantumError> {
        self.classical.set(q as usize, true);
        Ok(())
    }

    fn constants(&self, within: &Bits) -> (Bits, Bits) {
        let (mut all, mut any) = (usize::MAX, 0usize);
        for (idx, a) in self.amps.iter().enumerate() {
            if a.re != 0.0 || a.im != 0.0 {
                all &= idx;
                any |= idx;
            }
        }
        let mut mask = Bits::ZERO;
        let mut values = Bits::ZERO;
        for q in within.ones() {
            let v = match self.pos[q] {
                NOT_LIVE => self.classical.get(q),
                j if (all ^ any) >> j & 1 == 0 => all >> j & 1 == 1,
                _ => continue,
            };
            mask.set(q, true);
            values.set(q, v);
        }
        (mask, values)
    }

    fn lower(&mut self, mask: &Bits, values: &Bits) -> Result<(), QuantumError> {
        let mut js: Vec<(usize, bool)> = mask
            .ones()
            .filter(|&q| self.pos[q] != NOT_LIVE)
            .map(|q| (self.pos[q] as usize, values.get(q)))
            .collect();
        js.sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
        for (j, v) in js {
            self.shrink(j, v);
        }
        self.classical = self.classical.and(&mask.complement());
        Ok(())
    }

    fn split(&self, part: &Bits) -> Option<(Self, Self)> {
        let pmask = self.index_of(part);
        let rmask = (self.amps.len() - 1) & !pmask;
        if pmask == 0 || rmask == 0 {
            return None;
        }
        let (i0, &c) = self
            .amps
            .iter()
            .enumerate()
            .max_by(|x, y| x.1.norm_sqr().total_cmp(&y.1.norm_sqr()))?;
        let (h0, r0) = (i0 & pmask, i0 & rmask);
        for (idx, a) in self.amps.iter().enumerate() {
            let alpha = self.amps[(idx & pmask) | r0];
            let beta = self.amps[h0 | (idx & rmask)] / c;
            if (a - alpha * beta).norm() > SPLIT_TOLERANCE {
                return None;
            }
        }
        let rest = part.complement();
        let mut alpha = Vec::new();
        let mut beta = Vec::new();
        for (idx, a) in self.amps.iter().enumerate() {
            if a.re == 0.0 && a.im == 0.0 {
                continue;
            }
            let b = self.full_bits(idx);
            if idx & rmask == r0 {
                alpha.push((b.and(part), *a));
            }
            if idx & pmask == h0 {
                beta.push((b.and(&rest), a / c));
            }
        }
        let norm = alpha.iter().map(|(_, a)| a.norm_sqr()).sum::<f64>().sqrt();
        alpha.iter_mut().for_each(|(_, a)| *a /= norm);
        beta.iter_mut().for_each(|(_, a)| *a *= norm);
        let a = DenseBackend::from_branches(&alpha, self.limit_log2).ok()?;
        let b = DenseBackend::from_branches(&beta, self.limit_log2).ok()?;
        Some((a, b))
    }

    fn each_branch(&self, f: &mut dyn FnMut(&Bits, Complex64)) {
        for (idx, a) in self.amps.iter().enumerate() {
            if a.re != 0.0 || a.im != 0.0 {
                f(&self.full_bits(idx), *a);
            }
        }
    }
}
