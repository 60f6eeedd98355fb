//! A backend with a seeded random source, ancilla allocation and a recorded trace.

use super::{
    new_state, Backend, BackendKind, BackendOptions, Bits, Control, Decide, Gate, Measurement, Op,
    QuantumError, Qubit, MAX_QUBITS,
};
use crate::seeded::SeededRng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The simulator a game holds: a state (factored unless `opts.factored` is off, see
/// [`super::Factored`]) plus everything around it.
#[derive(Clone, Debug)]
pub struct Simulator {
    backend: Box<dyn Backend>,
    rng: SeededRng,
    trace: Vec<Op>,
    reserved: usize,
    ancillas: Bits,
    /// Set from another thread to stop the work at the next gate or measurement.
    cancel: Option<Arc<AtomicBool>>,
}

impl Simulator {
    /// A simulator starting in the basis state `initial`. Qubits `0..reserved` are the
    /// caller's fixed register (never handed out as ancillas); `seed` drives every
    /// unforced measurement, identically on both backends.
    pub fn new(
        kind: BackendKind,
        initial: Bits,
        reserved: usize,
        seed: u64,
        opts: BackendOptions,
    ) -> Simulator {
        Simulator {
            backend: new_state(kind, initial, opts),
            rng: SeededRng::new(seed),
            trace: Vec::new(),
            reserved,
            ancillas: Bits::ZERO,
            cancel: None,
        }
    }

    /// Watches `flag` (or nothing): once it is set, every further gate and measurement
    /// fails with [`QuantumError::Cancelled`] before it starts. Clones share the flag.
    pub fn set_cancel(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.cancel = flag;
    }

    fn check_cancel(&self) -> Result<(), QuantumError> {
        match &self.cancel {
            Some(f) if f.load(Ordering::Relaxed) => Err(QuantumError::Cancelled),
            _ => Ok(()),
        }
    }

    /// Read access to the backend (probabilities, branches).
    pub fn backend(&self) -> &dyn Backend {
        self.backend.as_ref()
    }

    /// Which backend runs the state.
    pub fn kind(&self) -> BackendKind {
        self.backend.kind()
    }

    /// Applies a gate and records it.
    pub fn apply(
        &mut self,
        gate: Gate,
        targets: &[Qubit],
        controls: &[Control],
    ) -> Result<(), QuantumError> {
        self.check_cancel()?;
        self.backend.apply(gate, targets, controls)?;
        self.trace.push(Op::Gate {
            gate,
            targets: targets.to_vec(),
            controls: controls.to_vec(),
        });
        Ok(())
    }

    /// Measures a predicate (outcome 1 = it holds), forced or drawn from the seeded
    /// source, and records it. Every measurement, forced or not, takes one number from
    /// the random source, so replaying a game with its recorded outcomes forced leaves
    /// the source where the original game left it.
    pub fn measure(
        &mut self,
        predicate: &[Control],
        forced: Option<bool>,
    ) -> Result<Measurement, QuantumError> {
        self.check_cancel()?;
        let draw = self.rng.unit();
        let choice = match forced {
            Some(o) => Decide::Forced(o),
            None => Decide::Draw(draw),
        };
        let m = self.backend.measure(predicate, choice)?;
        self.trace.push(Op::Measure {
            predicate: predicate.to_vec(),
            p1: m.p1,
            outcome: m.outcome,
            forced: forced.is_some(),
        });
        Ok(m)
    }

    /// Applies a phase oracle and records it under `label`.
    pub fn oracle(&mut self, label: &str, marks: &dyn Fn(&Bits) -> bool) {
        self.backend.phase_flip_where(marks);
        self.trace.push(Op::Oracle {
            label: label.to_string(),
        });
    }

    /// A fresh ancilla qubit in |0>.
    pub fn alloc(&mut self) -> Result<Qubit, QuantumError> {
        let q = (self.reserved..MAX_QUBITS)
            .find(|&q| !self.ancillas.get(q))
            .ok_or(QuantumError::OutOfQubits)?;
        self.ancillas.set(q, true);
        let q = q as Qubit;
        self.trace.push(Op::Alloc { qubit: q });
        Ok(q)
    }

    /// The ancillas in use, ascending.
    pub fn ancillas(&self) -> Vec<Qubit> {
        self.ancillas.ones().map(|q| q as Qubit).collect()
    }

    /// Gives back every ancilla that became constant; returns them with their values.
    pub fn release_constant_ancillas(&mut self) -> Vec<(Qubit, bool)> {
        let mut out = Vec::new();
        for q in self.ancillas() {
            if let Ok(v) = self.backend.reset_constant(q) {
                self.ancillas.set(q as usize, false);
                self.trace.push(Op::Release { qubit: q, value: v });
                out.push((q, v));
            }
        }
        out
    }

    /// Moves constant qubits out of the live state (see [`Backend::compact`]).
    pub fn compact(&mut self) {
        self.backend.compact();
    }

    /// The operations recorded since the last call, leaving the trace empty.
    pub fn take_trace(&mut self) -> Vec<Op> {
        std::mem::take(&mut self.trace)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantum::Gate;

    #[test]
    fn a_set_cancel_flag_stops_gates_and_measurements() {
        for kind in [BackendKind::Sparse, BackendKind::Dense] {
            let mut sim = Simulator::new(kind, Bits::ZERO, 2, 1, BackendOptions::default());
            let flag = Arc::new(AtomicBool::new(false));
            sim.set_cancel(Some(Arc::clone(&flag)));
            sim.apply(Gate::X, &[0], &[]).unwrap();
            let copy = sim.clone();
            flag.store(true, Ordering::Relaxed);
            let e = sim.apply(Gate::X, &[1], &[]).unwrap_err();
            assert!(matches!(e, QuantumError::Cancelled), "{e}");
            let e = sim.measure(&[Control::Bit(0, true)], None).unwrap_err();
            assert!(matches!(e, QuantumError::Cancelled), "{e}");
            // Nothing happened to the state, and clones share the flag.
            assert_eq!(sim.backend().probability(1), 0.0);
            assert_eq!(sim.backend().probability(0), 1.0);
            let mut copy = copy;
            assert!(copy.apply(Gate::X, &[1], &[]).is_err());
            sim.set_cancel(None);
            sim.apply(Gate::X, &[1], &[]).unwrap();
            assert_eq!(sim.backend().probability(1), 1.0);
        }
    }
}
