//! A state kept as a product of independent factors, so that its cost is the
//! entanglement, not the number of qubits in superposition.
//!
//! Every qubit is either classical (a known value, kept in a bit set) or belongs to one
//! factor: a register of the chosen backend holding the branches of that factor's qubits
//! only (every other bit 0). The whole state is the product of the factors, times a
//! global phase, with the classical bits set.
//!
//! * A gate or measurement that spans factors merges them (tensor product) first; a gate
//!   on classical qubits alone that only permutes or phases them never makes a factor.
//! * [`Backend::compact`] takes the qubits that became constant out of the factors it
//!   touched (a factor left without qubits becomes part of the global phase) and then
//!   tries to split the factors where a measurement projected or qubits left: the cuts
//!   tried are the factors it was merged from (its last 16 merges), each checked exactly
//!   (the state must equal the product of the two parts to 1e-12 per amplitude). A
//!   product that never existed as separate factors is not found; it stays one factor,
//!   which costs time and memory, never exactness.
//! * Size limits: each factor must fit in the backend's limit (2^`dense_limit_log2`
//!   amplitudes or `sparse_limit` branches), and all factors together in twice that, so
//!   that many factors each under the limit cannot take unbounded memory.
//! * Factors sit behind `Arc`: a cloned state shares them, and a move copies only the
//!   factors it changes.

use super::{
    check_targets, decide, Backend, BackendKind, BackendOptions, Bits, Complex64, Control, Decide,
    FactorSize, Gate, Measurement, QuantumError, Qubit, Signature, MAX_QUBITS,
};
use crate::quantum::signature::Accumulator;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

/// Largest amplitude difference allowed between a factor and the product it splits into.
pub(crate) const SPLIT_TOLERANCE: f64 = 1e-12;

/// How many of the sets a factor was merged from it remembers as cuts to try.
const HISTORY: usize = 16;

/// Owner of a classical qubit.
const CLASSICAL: u16 = u16::MAX;

/// A backend that can hold one factor of a [`Factored`] state.
pub trait Register: Backend + Clone + 'static {
    /// Which backend this is.
    const KIND: BackendKind;
    /// The all-zero basis state with amplitude 1, under the limit of `opts`.
    fn unit(opts: &BackendOptions) -> Self;
    /// Size limit of one factor, in the units of [`Register::size`].
    fn limit_units(opts: &BackendOptions) -> usize;
    /// The error for a factor that would need `units`.
    fn too_large(units: usize, opts: &BackendOptions) -> QuantumError;
    /// Memory the state takes: branches (sparse) or amplitudes (dense).
    fn size(&self) -> usize;
    /// The size of the tensor product with `other`, saturating.
    fn product_size(&self, other: &Self) -> usize;
    /// The size later gates may take the state to.
    fn set_budget(&mut self, units: usize);
    /// The tensor product with a state over other qubits.
    fn tensor(&self, other: &Self) -> Result<Self, QuantumError>;
    /// Sets qubit `q`, 0 in every branch, to 1 in every branch.
    fn raise(&mut self, q: Qubit) -> Result<(), QuantumError>;
    /// The qubits of `within` that have the same value in every branch, and their values.
    fn constants(&self, within: &Bits) -> (Bits, Bits);
    /// Sets the constant qubits `mask` (whose values are `values`) to 0 in every branch
    /// and drops them from the register.
    fn lower(&mut self, mask: &Bits, values: &Bits) -> Result<(), QuantumError>;
    /// The state as (the state of the qubits `part`, the state of the others) when it is
    /// their product to [`SPLIT_TOLERANCE`]; both parts hold qubits in superposition.
    fn split(&self, part: &Bits) -> Option<(Self, Self)>;
    /// Calls `f` on every branch with a non-zero amplitude, in no particular order.
    fn each_branch(&self, f: &mut dyn FnMut(&Bits, Complex64));
}

/// One factor: its qubits, their register, the cuts to try, and cached readings.
#[derive(Clone, Debug)]
struct Factor<B> {
    qubits: Bits,
    state: B,
    /// Qubit sets of the factors this one was merged from, newest last.
    history: Vec<Bits>,
    /// Changed since the last compaction: constants may have appeared.
    touched: bool,
    /// Projected, or lost qubits, since the last compaction: it may split.
    unsettled: bool,
    sig: OnceLock<Signature>,
    probs: OnceLock<Vec<(Qubit, f64)>>,
}

impl<B: Register> Factor<B> {
    fn new(qubits: Bits, state: B, history: Vec<Bits>) -> Factor<B> {
        Factor {
            qubits,
            state,
            history,
            touched: true,
            unsettled: false,
            sig: OnceLock::new(),
            probs: OnceLock::new(),
        }
    }

    fn signature(&self) -> Signature {
        *self.sig.get_or_init(|| {
            let mut acc = Accumulator::default();
            self.state.each_branch(&mut |b, a| acc.add(b, a));
            acc.finish()
        })
    }

    fn probs(&self) -> &[(Qubit, f64)] {
        self.probs.get_or_init(|| {
            let n = self.qubits.ones().last().map_or(0, |q| q + 1);
            let p = self.state.probabilities(n);
            self.qubits.ones().map(|q| (q as Qubit, p[q])).collect()
        })
    }

    /// Keeps only the cuts that still divide the factor.
    fn tidy_history(&mut self) {
        let all = self.qubits;
        let mut kept: Vec<Bits> = Vec::with_capacity(self.history.len());
        for h in self.history.iter().rev() {
            let h = h.and(&all);
            if !h.is_zero() && h != all && !kept.contains(&h) {
                kept.push(h);
            }
        }
        kept.truncate(HISTORY);
        kept.reverse();
        self.history = kept;
    }
}

/// A state as a product of independent factors over a backend `B` (see the module).
#[derive(Clone, Debug)]
pub struct Factored<B: Register> {
    classical: Bits,
    phase: Complex64,
    factors: Vec<Arc<Factor<B>>>,
    owner: [u16; MAX_QUBITS],
    opts: BackendOptions,
}

/// The factors a gate acts in.
enum Involved {
    /// None: every qubit it reads is classical.
    None,
    /// One factor.
    One(usize),
    /// Several factors (repeated, unsorted).
    Several(Vec<usize>),
}

/// The qubits a condition reads, without allocating.
fn each_qubit(c: &Control) -> impl Iterator<Item = Qubit> + '_ {
    let (one, many): (Option<Qubit>, &[Qubit]) = match c {
        Control::Bit(q, _) => (Some(*q), &[]),
        Control::Clear(qs) | Control::Blocked(qs) => (None, qs),
    };
    one.into_iter().chain(many.iter().copied())
}

/// A predicate resolved against the classical bits and grouped by factor.
struct Grouped {
    /// The conditions read by each factor (by index), each local to it.
    local: BTreeMap<usize, Vec<Control>>,
    /// `Blocked` conditions whose qubits lie in more than one factor.
    spanning: Vec<Vec<Qubit>>,
}

impl<B: Register> Factored<B> {
    /// The basis state `initial`, every qubit classical.
    pub fn new(initial: Bits, opts: BackendOptions) -> Factored<B> {
        Factored {
            classical: initial,
            phase: Complex64::new(1.0, 0.0),
            factors: Vec::new(),
            owner: [CLASSICAL; MAX_QUBITS],
            opts,
        }
    }

    fn is_classical(&self, q: Qubit) -> bool {
        self.owner[q as usize] == CLASSICAL
    }

    fn total_size(&self) -> usize {
        self.factors
            .iter()
            .fold(0usize, |t, f| t.saturating_add(f.state.size()))
    }

    /// Write access to factor `i`, copied first if shared; drops its cached readings.
    fn factor_mut(&mut self, i: usize) -> &mut Factor<B> {
        let f = Arc::make_mut(&mut self.factors[i]);
        f.sig = OnceLock::new();
        f.probs = OnceLock::new();
        f.touched = true;
        f
    }

    fn reindex(&mut self) {
        self.owner = [CLASSICAL; MAX_QUBITS];
        for (i, f) in self.factors.iter().enumerate() {
            for q in f.qubits.ones() {
                self.owner[q] = i as u16;
            }
        }
    }

    /// The conditions with the classical qubits read off: `None` when one fails; the
    /// rest mention only qubits in factors (the conditions as given when they already
    /// do).
    fn resolve<'a>(&self, controls: &'a [Control]) -> Option<Cow<'a, [Control]>> {
        let reads_classical = controls
            .iter()
            .any(|c| each_qubit(c).any(|q| self.is_classical(q)));
        if !reads_classical {
            return Some(Cow::Borrowed(controls));
        }
        let mut out = Vec::with_capacity(controls.len());
        for c in controls {
            match c {
                Control::Bit(q, v) => {
                    if !self.is_classical(*q) {
                        out.push(c.clone());
                    } else if self.classical.get(*q as usize) != *v {
                        return None;
                    }
                }
                Control::Clear(qs) => {
                    let mut quantum = Vec::new();
                    for &q in qs {
                        if !self.is_classical(q) {
                            quantum.push(q);
                        } else if self.classical.get(q as usize) {
                            return None;
                        }
                    }
                    if !quantum.is_empty() {
                        out.push(Control::Clear(quantum));
                    }
                }
                Control::Blocked(qs) => {
                    if qs
                        .iter()
                        .any(|&q| self.is_classical(q) && self.classical.get(q as usize))
                    {
                        continue;
                    }
                    let quantum: Vec<Qubit> = qs
                        .iter()
                        .copied()
                        .filter(|&q| !self.is_classical(q))
                        .collect();
                    if quantum.is_empty() {
                        return None;
                    }
                    out.push(Control::Blocked(quantum));
                }
            }
        }
        Some(Cow::Owned(out))
    }

    /// The factors a gate on `targets` with (resolved) `controls` acts in: the first
    /// qubit in a factor (which decides the cuts a classical target joins), and the
    /// factor when there is one, or all of them (unsorted, repeated) when there are more.
    fn involved(&self, targets: &[Qubit], controls: &[Control]) -> (Option<Qubit>, Involved) {
        let mut anchor = None;
        let mut found = Involved::None;
        let qubits = targets
            .iter()
            .copied()
            .chain(controls.iter().flat_map(each_qubit));
        for q in qubits.filter(|&q| !self.is_classical(q)) {
            anchor.get_or_insert(q);
            let o = self.owner[q as usize] as usize;
            found = match found {
                Involved::None => Involved::One(o),
                Involved::One(f) if f == o => Involved::One(f),
                Involved::One(f) => Involved::Several(vec![f, o]),
                Involved::Several(mut v) => {
                    v.push(o);
                    Involved::Several(v)
                }
            };
        }
        (anchor, found)
    }

    /// A gate on classical targets without quantum controls that only permutes or
    /// phases basis states: applied to the classical bits and the global phase. False
    /// when the gate mixes (it needs a factor).
    fn classical_gate(&mut self, gate: Gate, targets: &[Qubit]) -> bool {
        let m = gate.matrix();
        let zero = |c: Complex64| c.re == 0.0 && c.im == 0.0;
        let diagonal = zero(m[0][1]) && zero(m[1][0]);
        let swaps = zero(m[0][0]) && zero(m[1][1]);
        if !diagonal && !swaps {
            return false;
        }
        // Two equal targets were handled by the caller: here the pair is |01> or |10>.
        let s = self.classical.get(targets[0] as usize) as usize;
        if diagonal {
            self.phase *= m[s][s];
        } else {
            self.phase *= m[1 - s][s];
            for &t in targets {
                let t = t as usize;
                self.classical.set(t, !self.classical.get(t));
            }
        }
        true
    }

    /// The error for a factor of `units` when the others take `others`: over the limit
    /// of one factor, or over twice the limit together.
    fn refusal(&self, units: usize, others: usize) -> QuantumError {
        let limit = B::limit_units(&self.opts);
        if units > limit {
            B::too_large(units, &self.opts)
        } else {
            QuantumError::TotalTooLarge {
                kind: self.kind(),
                needed: others.saturating_add(units),
                allowed: limit.saturating_mul(2),
            }
        }
    }

    /// Checks that a factor of `units` fits next to factors taking `others`.
    fn check_fits(&self, units: usize, others: usize) -> Result<(), QuantumError> {
        let limit = B::limit_units(&self.opts);
        if units > limit || others.saturating_add(units) > limit.saturating_mul(2) {
            return Err(self.refusal(units, others));
        }
        Ok(())
    }

    /// Merges the factors `idx` (at least one) into one; returns its index. With
    /// `checked`, refuses a product over the size limits before allocating it.
    fn merge(&mut self, idx: &[usize], checked: bool) -> Result<usize, QuantumError> {
        let mut idx = idx.to_vec();
        idx.sort_unstable();
        idx.dedup();
        if idx.len() == 1 {
            return Ok(idx[0]);
        }
        // Smallest first keeps the intermediate products small.
        idx.sort_by_key(|&i| self.factors[i].state.size());
        let merged_size: usize = idx.iter().map(|&i| self.factors[i].state.size()).sum();
        let others = self.total_size() - merged_size;
        let mut state = self.factors[idx[0]].state.clone();
        let mut qubits = self.factors[idx[0]].qubits;
        let mut history = Vec::new();
        for (n, &i) in idx.iter().enumerate() {
            let f = &self.factors[i];
            if n > 0 {
                if checked {
                    self.check_fits(state.product_size(&f.state), others)?;
                }
                state = state.tensor(&f.state)?;
                qubits = qubits.or(&f.qubits);
            }
            history.extend(f.history.iter().copied());
            history.push(f.qubits);
        }
        let mut factor = Factor::new(qubits, state, history);
        factor.tidy_history();
        let mut removing = idx.clone();
        removing.sort_unstable_by(|a, b| b.cmp(a));
        for i in removing {
            self.factors.swap_remove(i);
        }
        self.factors.push(Arc::new(factor));
        self.reindex();
        Ok(self.factors.len() - 1)
    }

    /// Moves classical qubit `q` into factor `f`; `anchor`, a qubit of the factor that
    /// the gate bringing `q` in acts with, decides which cuts `q` joins.
    fn join(&mut self, f: usize, q: Qubit, anchor: Option<Qubit>) -> Result<(), QuantumError> {
        let one = self.classical.get(q as usize);
        let factor = self.factor_mut(f);
        if one {
            factor.state.raise(q)?;
        }
        factor.qubits.set(q as usize, true);
        if let Some(a) = anchor {
            for h in factor.history.iter_mut() {
                if h.get(a as usize) {
                    h.set(q as usize, true);
                }
            }
        }
        self.classical.set(q as usize, false);
        self.owner[q as usize] = f as u16;
        Ok(())
    }

    /// A new factor holding nothing yet (the all-zero state of no qubits).
    fn new_factor(&mut self) -> usize {
        self.factors.push(Arc::new(Factor::new(
            Bits::ZERO,
            B::unit(&self.opts),
            Vec::new(),
        )));
        self.factors.len() - 1
    }

    /// Groups a resolved predicate by factor: each `Bit` and each factor's share of a
    /// `Clear` is local; a `Blocked` is local when its qubits share one factor.
    fn group(&self, pred: &[Control]) -> Grouped {
        let mut local: BTreeMap<usize, Vec<Control>> = BTreeMap::new();
        let mut spanning = Vec::new();
        let owner = |q: Qubit| self.owner[q as usize] as usize;
        for c in pred {
            match c {
                Control::Bit(q, _) => local.entry(owner(*q)).or_default().push(c.clone()),
                Control::Clear(qs) => {
                    let mut by: BTreeMap<usize, Vec<Qubit>> = BTreeMap::new();
                    for &q in qs {
                        by.entry(owner(q)).or_default().push(q);
                    }
                    for (f, qs) in by {
                        local.entry(f).or_default().push(Control::Clear(qs));
                    }
                }
                Control::Blocked(qs) => {
                    let f = owner(qs[0]);
                    if qs.iter().all(|&q| owner(q) == f) {
                        local.entry(f).or_default().push(c.clone());
                    } else {
                        spanning.push(qs.clone());
                    }
                }
            }
        }
        Grouped { local, spanning }
    }

    /// Merges the factors of every spanning `Blocked` of a resolved predicate, so that
    /// it groups into local conditions only.
    fn localize(
        &mut self,
        pred: &[Control],
    ) -> Result<BTreeMap<usize, Vec<Control>>, QuantumError> {
        loop {
            let g = self.group(pred);
            let Some(qs) = g.spanning.first() else {
                return Ok(g.local);
            };
            let idx: Vec<usize> = qs
                .iter()
                .map(|&q| self.owner[q as usize] as usize)
                .collect();
            self.merge(&idx, true)?;
        }
    }

    /// Probability that every local condition holds: the product over factors.
    fn local_probability(&self, local: &BTreeMap<usize, Vec<Control>>) -> f64 {
        local
            .iter()
            .map(|(&f, c)| self.factors[f].state.probability_of(c))
            .product()
    }

    /// Probability that some local condition fails, summed without cancellation:
    /// F1 + P1 F2 + P1 P2 F3 + ...
    fn local_failure(&self, local: &BTreeMap<usize, Vec<Control>>) -> f64 {
        let mut held = 1.0;
        let mut fails = 0.0;
        for (&f, c) in local {
            let s = &self.factors[f].state;
            fails += held * s.probability_fails(c);
            held *= s.probability_of(c);
        }
        fails
    }

    /// Probability of a resolved predicate: inclusion-exclusion over its spanning
    /// `Blocked` conditions (each the negation of a `Clear`, which is local), so that no
    /// factors are merged.
    fn resolved_probability(&self, pred: &[Control]) -> f64 {
        let g = self.group(pred);
        let n = g.spanning.len();
        let mut total = 0.0;
        for subset in 0u32..(1 << n) {
            let mut conj: Vec<Control> = pred
                .iter()
                .filter(|c| match c {
                    Control::Blocked(qs) => !g.spanning.contains(qs),
                    _ => true,
                })
                .cloned()
                .collect();
            for (j, qs) in g.spanning.iter().enumerate() {
                if subset >> j & 1 == 1 {
                    conj.push(Control::Clear(qs.clone()));
                }
            }
            let term = self.local_probability(&self.group(&conj).local);
            if subset.count_ones() % 2 == 0 {
                total += term;
            } else {
                total -= term;
            }
        }
        total
    }

    /// Projects onto `outcome` of the predicate whose local conditions are `local` (each
    /// factor renormalised by its own probability); merges the factors that fail
    /// together when the outcome is 0.
    fn project_local(
        &mut self,
        local: BTreeMap<usize, Vec<Control>>,
        outcome: bool,
    ) -> Result<(), QuantumError> {
        if outcome {
            for (f, c) in local {
                let s = &self.factors[f].state;
                if s.probability_fails(&c) > 0.0 {
                    let p = s.probability_of(&c);
                    let factor = self.factor_mut(f);
                    factor.state.project(&c, true, p)?;
                    factor.unsettled = true;
                }
            }
            return Ok(());
        }
        // Factors where some branch fails; where none does, their conditions always hold.
        let failing: Vec<usize> = local
            .iter()
            .filter(|(&f, c)| self.factors[f].state.probability_fails(c) > 0.0)
            .map(|(&f, _)| f)
            .collect();
        if failing.is_empty() {
            return Ok(());
        }
        let conds: Vec<Control> = failing
            .iter()
            .flat_map(|f| local[f].iter().cloned())
            .collect();
        let f = self.merge(&failing, true)?;
        let p = self.factors[f].state.probability_fails(&conds);
        let factor = self.factor_mut(f);
        factor.state.project(&conds, false, p)?;
        factor.unsettled = true;
        Ok(())
    }

    /// Turns factor `i`, all of whose qubits left, into part of the global phase.
    fn dissolve(&mut self, i: usize) {
        let f = self.factors.swap_remove(i);
        let mut amp = Complex64::new(0.0, 0.0);
        f.state.each_branch(&mut |_, a| amp += a);
        self.phase *= amp;
        self.reindex();
    }

    /// Takes the constant qubits out of factor `i`; true when it lost any.
    fn take_constants(&mut self, i: usize) -> bool {
        let (mask, values) = self.factors[i].state.constants(&self.factors[i].qubits);
        if mask.is_zero() {
            return false;
        }
        let factor = self.factor_mut(i);
        if factor.state.lower(&mask, &values).is_err() {
            // No memory to rewrite the branches: the constants stay in the factor,
            // which is still exact.
            return false;
        }
        factor.qubits = factor.qubits.and(&mask.complement());
        factor.unsettled = true;
        factor.tidy_history();
        self.classical = self.classical.or(&values);
        for q in mask.ones() {
            self.owner[q] = CLASSICAL;
        }
        true
    }

    /// Splits factor `i` along the cuts it remembers, as long as one holds.
    fn try_splits(&mut self, i: usize) {
        let mut work = vec![i];
        while let Some(i) = work.pop() {
            let cuts = self.factors[i].history.clone();
            for cut in cuts {
                let f = &self.factors[i];
                let cut = cut.and(&f.qubits);
                if cut.is_zero() || cut == f.qubits {
                    continue;
                }
                let Some((a, b)) = f.state.split(&cut) else {
                    continue;
                };
                let rest = f.qubits.and(&cut.complement());
                let history = f.history.clone();
                let mut fa = Factor::new(cut, a, history.clone());
                let mut fb = Factor::new(rest, b, history);
                fa.tidy_history();
                fb.tidy_history();
                fa.touched = false;
                fb.touched = false;
                self.factors[i] = Arc::new(fa);
                self.factors.push(Arc::new(fb));
                self.reindex();
                work.push(i);
                work.push(self.factors.len() - 1);
                break;
            }
        }
    }

    /// The product of all factors as branches, with the classical bits set and the
    /// global phase applied.
    fn product_branches(&self) -> Vec<(Bits, Complex64)> {
        let mut out = vec![(self.classical, self.phase)];
        for f in &self.factors {
            let mut part = Vec::new();
            f.state.each_branch(&mut |b, a| part.push((*b, a)));
            let mut next = Vec::with_capacity(out.len() * part.len());
            for (b, a) in &out {
                for (c, x) in &part {
                    next.push((b.or(c), a * x));
                }
            }
            out = next;
        }
        out.sort_unstable_by_key(|x| x.0);
        out
    }
}

impl<B: Register> Backend for Factored<B> {
    fn kind(&self) -> BackendKind {
        B::KIND
    }

    fn apply(
        &mut self,
        gate: Gate,
        targets: &[Qubit],
        controls: &[Control],
    ) -> Result<(), QuantumError> {
        check_targets(gate, targets, controls)?;
        let Some(controls) = self.resolve(controls) else {
            return Ok(());
        };
        let all_classical = targets.iter().all(|&t| self.is_classical(t));
        if all_classical
            && targets.len() == 2
            && self.classical.get(targets[0] as usize) == self.classical.get(targets[1] as usize)
        {
            // Two-qubit gates act on |01> and |10> only.
            return Ok(());
        }
        if controls.is_empty() && all_classical && self.classical_gate(gate, targets) {
            return Ok(());
        }
        let (anchor, involved) = self.involved(targets, &controls);
        let f = match involved {
            Involved::None => self.new_factor(),
            Involved::One(f) => f,
            Involved::Several(v) => self.merge(&v, true)?,
        };
        for &t in targets {
            if self.is_classical(t) {
                self.join(f, t, anchor)?;
            }
        }
        let others = self.total_size() - self.factors[f].state.size();
        let limit = B::limit_units(&self.opts);
        let budget = limit.min(limit.saturating_mul(2).saturating_sub(others));
        let factor = self.factor_mut(f);
        factor.state.set_budget(budget);
        let result = factor.state.apply(gate, targets, &controls);
        factor.state.set_budget(limit);
        result.map_err(|e| match e {
            QuantumError::StateTooLarge { needed, .. } => {
                self.refusal(1usize.checked_shl(needed).unwrap_or(usize::MAX), others)
            }
            QuantumError::TooManyBranches { needed, .. } => self.refusal(needed, others),
            e => e,
        })
    }

    fn phase_flip_where(&mut self, oracle: &dyn Fn(&Bits) -> bool) {
        // An oracle reads whole basis states: every factor is merged first. The size
        // limit is not applied to this merge (an oracle cannot fail); running out of
        // memory panics, as any allocation of the old single register did.
        if self.factors.is_empty() {
            if oracle(&self.classical) {
                self.phase = -self.phase;
            }
            return;
        }
        let all: Vec<usize> = (0..self.factors.len()).collect();
        let f = self
            .merge(&all, false)
            .expect("memory for the merged state an oracle reads");
        let classical = self.classical;
        self.factor_mut(f)
            .state
            .phase_flip_where(&|b: &Bits| oracle(&b.or(&classical)));
    }

    fn probability_of(&self, predicate: &[Control]) -> f64 {
        match self.resolve(predicate) {
            None => 0.0,
            Some(pred) => self.resolved_probability(&pred),
        }
    }

    fn probability_fails(&self, predicate: &[Control]) -> f64 {
        let Some(pred) = self.resolve(predicate) else {
            return 1.0;
        };
        let g = self.group(&pred);
        if g.spanning.is_empty() {
            self.local_failure(&g.local)
        } else {
            (1.0 - self.resolved_probability(&pred)).clamp(0.0, 1.0)
        }
    }

    /// Each factor is renormalised by its own probability, so `p` is not needed.
    fn project(
        &mut self,
        predicate: &[Control],
        outcome: bool,
        _p: f64,
    ) -> Result<(), QuantumError> {
        let Some(pred) = self.resolve(predicate) else {
            return Ok(());
        };
        let local = self.localize(&pred)?;
        self.project_local(local, outcome)
    }

    fn measure(
        &mut self,
        predicate: &[Control],
        choice: Decide,
    ) -> Result<Measurement, QuantumError> {
        let Some(pred) = self.resolve(predicate) else {
            let (outcome, p1, _) = decide(0.0, choice)?;
            return Ok(Measurement { outcome, p1 });
        };
        let local = self.localize(&pred)?;
        let (outcome, p1, p) = decide(self.local_probability(&local), choice)?;
        if p < 1.0 {
            self.project_local(local, outcome)?;
        }
        Ok(Measurement { outcome, p1 })
    }

    fn probability(&self, q: Qubit) -> f64 {
        match self.owner[q as usize] {
            CLASSICAL => self.classical.get(q as usize) as u8 as f64,
            f => self.factors[f as usize]
                .probs()
                .iter()
                .find(|(x, _)| *x == q)
                .map_or(0.0, |(_, p)| *p),
        }
    }

    fn probabilities(&self, n: usize) -> Vec<f64> {
        let mut p: Vec<f64> = (0..n).map(|q| self.classical.get(q) as u8 as f64).collect();
        for f in &self.factors {
            for &(q, v) in f.probs() {
                if (q as usize) < n {
                    p[q as usize] = v;
                }
            }
        }
        p
    }

    fn branches(&self) -> Vec<(Bits, Complex64)> {
        self.product_branches()
    }

    fn branch_count(&self) -> usize {
        self.factors
            .iter()
            .fold(1usize, |n, f| n.saturating_mul(f.state.branch_count()))
    }

    fn branch_total(&self) -> usize {
        self.factors
            .iter()
            .fold(0usize, |n, f| n.saturating_add(f.state.branch_count()))
    }

    fn parts_holding(&self, qubits: &[Qubit]) -> Vec<(Bits, Vec<(Bits, Complex64)>)> {
        let mut idx: Vec<usize> = qubits
            .iter()
            .filter(|&&q| !self.is_classical(q))
            .map(|&q| self.owner[q as usize] as usize)
            .collect();
        idx.sort_unstable();
        idx.dedup();
        if idx.is_empty() {
            return vec![(Bits::ZERO, vec![(self.classical, self.phase)])];
        }
        idx.iter()
            .enumerate()
            .map(|(n, &i)| {
                let f = &self.factors[i];
                let phase = if n == 0 {
                    self.phase
                } else {
                    Complex64::new(1.0, 0.0)
                };
                let mut branches = Vec::with_capacity(f.state.branch_count());
                f.state
                    .each_branch(&mut |b, a| branches.push((b.or(&self.classical), a * phase)));
                branches.sort_unstable_by_key(|x| x.0);
                (f.qubits, branches)
            })
            .collect()
    }

    fn low_word_parts(&self) -> Vec<Vec<(u64, f64)>> {
        let mut parts = vec![vec![(self.classical.low_word(), 1.0)]];
        for f in &self.factors {
            if f.qubits.low_word() == 0 {
                continue;
            }
            let mut acc: std::collections::HashMap<u64, f64, foldhash::fast::FixedState> =
                Default::default();
            f.state
                .each_branch(&mut |b, a| *acc.entry(b.low_word()).or_default() += a.norm_sqr());
            parts.push(acc.into_iter().collect());
        }
        parts
    }

    fn factor_sizes(&self) -> Vec<FactorSize> {
        let mut v: Vec<FactorSize> = self
            .factors
            .iter()
            .map(|f| FactorSize {
                qubits: f.qubits.count() as usize,
                branches: f.state.branch_count(),
            })
            .collect();
        v.sort_by(|a, b| b.branches.cmp(&a.branches).then(b.qubits.cmp(&a.qubits)));
        v
    }

    fn signature(&self) -> Signature {
        self.factors
            .iter()
            .fold(Signature::of_basis(&self.classical, self.phase), |s, f| {
                s.times(&f.signature())
            })
    }

    fn reset_constant(&mut self, q: Qubit) -> Result<bool, QuantumError> {
        let f = match self.owner[q as usize] {
            CLASSICAL => {
                let v = self.classical.get(q as usize);
                self.classical.set(q as usize, false);
                return Ok(v);
            }
            f => f as usize,
        };
        let only = Bits::ZERO.with(q as usize, true);
        let (mask, values) = self.factors[f].state.constants(&only);
        if mask.is_zero() {
            return Err(QuantumError::NotConstant(q));
        }
        let factor = self.factor_mut(f);
        factor.state.lower(&mask, &values)?;
        factor.qubits.set(q as usize, false);
        factor.unsettled = true;
        factor.tidy_history();
        let empty = factor.qubits.is_zero();
        self.owner[q as usize] = CLASSICAL;
        if empty {
            self.dissolve(f);
        }
        Ok(values.get(q as usize))
    }

    fn compact(&mut self) {
        let mut i = 0;
        while i < self.factors.len() {
            if self.factors[i].touched {
                self.take_constants(i);
                if self.factors[i].qubits.is_zero() {
                    self.dissolve(i);
                    continue;
                }
            }
            i += 1;
        }
        for i in 0..self.factors.len() {
            if self.factors[i].unsettled {
                self.try_splits(i);
            }
        }
        for f in &mut self.factors {
            if f.touched || f.unsettled {
                let f = Arc::make_mut(f);
                f.touched = false;
                f.unsettled = false;
            }
        }
    }

    fn live_qubits(&self) -> usize {
        self.factors.iter().map(|f| f.qubits.count() as usize).sum()
    }

    fn clone_box(&self) -> Box<dyn Backend> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantum::{DenseBackend, SparseBackend};

    fn opts(sparse_limit: usize, dense_limit_log2: u32) -> BackendOptions {
        BackendOptions {
            sparse_limit,
            dense_limit_log2,
            factored: true,
        }
    }

    /// The same steps on a factored state and a single register agree branch by branch.
    fn same_as_single<B: Register>(f: &Factored<B>, single: &dyn Backend) {
        let (a, b) = (f.branches(), single.branches());
        assert_eq!(a.len(), b.len());
        for ((k, x), (k2, y)) in a.iter().zip(&b) {
            assert_eq!(k, k2);
            assert!((x - y).norm() < 1e-12, "{k:?}: {x} vs {y}");
        }
        assert!(f.signature().matches(&single.signature()));
    }

    fn merge_and_split<B: Register>() {
        let o = opts(1 << 10, 10);
        let mut f = Factored::<B>::new(Bits::ZERO, o);
        let mut single = crate::quantum::new_backend(B::KIND, Bits::ZERO, o);
        let mut both = |g: Gate, t: &[Qubit], c: &[Control]| {
            f.apply(g, t, c).unwrap();
            single.apply(g, t, c).unwrap();
        };
        for q in [0, 1, 2] {
            both(Gate::H, &[q], &[]);
        }
        // X on |+> changes nothing, but the control makes one factor of three.
        both(Gate::X, &[1], &[Control::Bit(0, true)]);
        both(Gate::X, &[2], &[Control::Bit(0, true)]);
        assert_eq!(f.factors.len(), 1);
        let m = f
            .measure(&[Control::Bit(2, true)], Decide::Forced(true))
            .unwrap();
        single
            .measure(&[Control::Bit(2, true)], Decide::Forced(true))
            .unwrap();
        assert!((m.p1 - 0.5).abs() < 1e-12);
        f.compact();
        // Qubit 2 is constant and leaves; the rest splits along the merge.
        assert_eq!(f.factors.len(), 2);
        assert_eq!(f.live_qubits(), 2);
        same_as_single(&f, single.as_ref());
        // An entangled pair does not split.
        let mut g = Factored::<B>::new(Bits::ZERO, o);
        g.apply(Gate::H, &[0], &[]).unwrap();
        g.apply(Gate::H, &[1], &[]).unwrap();
        g.apply(Gate::X, &[2], &[Control::Bit(0, true)]).unwrap();
        g.apply(Gate::X, &[2], &[Control::Bit(1, true)]).unwrap();
        g.measure(&[Control::Bit(2, true)], Decide::Forced(false))
            .unwrap();
        g.compact();
        assert_eq!(g.factors.len(), 1);
        assert_eq!(g.branch_count(), 2);
    }

    #[test]
    fn factors_merge_and_split_again() {
        merge_and_split::<SparseBackend>();
        merge_and_split::<DenseBackend>();
    }

    fn limits<B: Register>(limit_units: usize) {
        // A factor of 8 branches (amplitudes) fits a limit of 8; one more qubit in it
        // does not, and neither do three such factors together (over twice the limit).
        let o = opts(8, 3);
        assert_eq!(B::limit_units(&o), limit_units);
        let mut f = Factored::<B>::new(Bits::ZERO, o);
        for q in [0, 1, 2] {
            f.apply(Gate::H, &[q], &[]).unwrap();
        }
        f.apply(Gate::X, &[1], &[Control::Bit(0, true)]).unwrap();
        f.apply(Gate::X, &[2], &[Control::Bit(1, true)]).unwrap();
        let before = f.branches();
        let err = f
            .apply(Gate::H, &[3], &[Control::Bit(2, true)])
            .unwrap_err();
        let per_factor = match B::KIND {
            // The gate acts where qubit 2 is 1: 4 more branches.
            BackendKind::Sparse => QuantumError::TooManyBranches {
                needed: 12,
                limit: 8,
            },
            BackendKind::Dense => QuantumError::StateTooLarge {
                needed: 4,
                limit: 3,
            },
        };
        assert_eq!(err, per_factor);
        assert_eq!(f.branches(), before, "a refused gate changes nothing");
        for q in [10, 11, 12] {
            f.apply(Gate::H, &[q], &[]).unwrap();
        }
        f.apply(Gate::X, &[11], &[Control::Bit(10, true)]).unwrap();
        f.apply(Gate::X, &[12], &[Control::Bit(11, true)]).unwrap();
        assert_eq!(f.factors.len(), 2);
        let err = f.apply(Gate::H, &[20], &[]).unwrap_err();
        assert_eq!(
            err,
            QuantumError::TotalTooLarge {
                kind: B::KIND,
                needed: 18,
                allowed: 16
            }
        );
        assert!(err.to_string().contains("twice the limit"), "{err}");
    }

    #[test]
    fn limits_apply_per_factor_and_to_the_total() {
        limits::<SparseBackend>(8);
        limits::<DenseBackend>(8);
    }

    #[test]
    fn clones_share_the_factors_a_gate_does_not_touch() {
        let mut f = Factored::<SparseBackend>::new(Bits::ZERO, BackendOptions::default());
        for q in [0, 5, 9] {
            f.apply(Gate::H, &[q], &[]).unwrap();
        }
        let mut g = f.clone();
        g.apply(Gate::SqrtISwap, &[5, 6], &[]).unwrap();
        let shared = f
            .factors
            .iter()
            .filter(|a| g.factors.iter().any(|b| Arc::ptr_eq(a, b)))
            .count();
        assert_eq!(shared, 2);
        assert_eq!(f.branch_count(), 8);
        assert_eq!(g.branch_count(), 12);
    }

    #[test]
    fn classical_gates_need_no_factor() {
        let mut f =
            Factored::<DenseBackend>::new(Bits::from_qubits([3]), BackendOptions::default());
        f.apply(Gate::ISwap, &[3, 4], &[]).unwrap();
        f.apply(Gate::Z, &[4], &[]).unwrap();
        assert_eq!(f.factors.len(), 0);
        assert_eq!(
            f.branches(),
            vec![(Bits::from_qubits([4]), Complex64::new(0.0, -1.0))]
        );
        // A control on a classical qubit that fails: nothing happens, nothing merges.
        f.apply(Gate::H, &[7], &[Control::Bit(3, true)]).unwrap();
        assert_eq!(f.factors.len(), 0);
    }
}
