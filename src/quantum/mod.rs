//! The exact quantum simulator the games run on. It knows qubits, gates and
//! measurements, and nothing about chess.
//!
//! Two backends implement [`Backend`]: [`SparseBackend`] (branches in a hash map) and
//! [`DenseBackend`] (a state vector over the live qubits only). [`Simulator`] wraps either
//! one with a seeded random source, ancilla allocation and a trace of every operation.

pub mod bell;
pub mod bits;
pub mod control;
pub mod dense;
pub mod gate;
pub mod simulator;
pub mod sparse;
pub mod trace;

pub use bits::{Bits, MAX_QUBITS};
pub use control::{Compiled, Control};
pub use dense::{DenseBackend, MAX_DENSE_LIMIT_LOG2};
pub use gate::Gate;
pub use num_complex::Complex64;
pub use simulator::Simulator;
pub use sparse::SparseBackend;
pub use trace::Op;

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Index of a qubit.
pub type Qubit = u16;

/// Branches whose |amplitude|^2 falls below this are exact cancellations and are dropped.
pub const PRUNE_NORM: f64 = 1e-24;

/// A probability below this (or within it of 1) is treated as certain.
pub const CERTAIN_EPS: f64 = 1e-12;

/// Default largest dense state, as log2 of the number of amplitudes.
pub const DEFAULT_DENSE_LIMIT_LOG2: u32 = 26;

/// What went wrong in the simulator.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum QuantumError {
    /// A forced measurement outcome that has probability 0.
    #[error("outcome {outcome} is impossible here (probability 0)")]
    ImpossibleOutcome {
        /// The outcome that was asked for.
        outcome: u8,
    },
    /// The dense state would exceed its size limit.
    #[error("the quantum state would need 2^{needed} amplitudes, over the limit of 2^{limit}; use the sparse backend or raise the limit")]
    StateTooLarge {
        /// log2 of the amplitudes needed.
        needed: u32,
        /// log2 of the limit.
        limit: u32,
    },
    /// A qubit index beyond the simulator's capacity.
    #[error("qubit {0} is out of range (at most {MAX_QUBITS} qubits)")]
    QubitOutOfRange(usize),
    /// A gate given the wrong targets.
    #[error("gate {gate} needs {needed} distinct target qubit(s) not used as controls")]
    BadTargets {
        /// Gate name.
        gate: String,
        /// Number of targets it needs.
        needed: usize,
    },
    /// Release of a qubit that is still in superposition.
    #[error("qubit {0} is not constant and cannot be released")]
    NotConstant(Qubit),
    /// No more ancilla qubits.
    #[error("all {MAX_QUBITS} qubits are in use")]
    OutOfQubits,
    /// Unknown backend name.
    #[error("unknown backend \"{0}\" (choose sparse or dense)")]
    UnknownBackend(String),
    /// The work was cancelled through the simulator's cancel flag.
    #[error("cancelled")]
    Cancelled,
}

/// How a measurement's outcome is chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Choice {
    /// The caller forces this outcome (an outcome of probability 0 is an error).
    Forced(bool),
    /// A uniform number in [0, 1): the outcome is 1 when it is below p1.
    Draw(f64),
}

/// The result of a measurement.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    /// The outcome: true = the predicate holds.
    pub outcome: bool,
    /// The probability the predicate held before the measurement.
    pub p1: f64,
}

/// Which backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BackendKind {
    /// Hash map of branches.
    #[default]
    Sparse,
    /// State vector over live qubits.
    Dense,
}

impl BackendKind {
    /// The lower-case name ("sparse" or "dense").
    pub fn name(&self) -> &'static str {
        match self {
            BackendKind::Sparse => "sparse",
            BackendKind::Dense => "dense",
        }
    }
}

impl fmt::Display for BackendKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BackendKind {
    type Err = QuantumError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "sparse" => Ok(BackendKind::Sparse),
            "dense" => Ok(BackendKind::Dense),
            _ => Err(QuantumError::UnknownBackend(s.to_string())),
        }
    }
}

/// Options for building a backend.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BackendOptions {
    /// Dense backend: largest state as log2 of the number of amplitudes.
    pub dense_limit_log2: u32,
}

impl Default for BackendOptions {
    fn default() -> Self {
        BackendOptions {
            dense_limit_log2: DEFAULT_DENSE_LIMIT_LOG2,
        }
    }
}

/// Builds a backend of the given kind, starting in the basis state `initial`.
pub fn new_backend(kind: BackendKind, initial: Bits, opts: BackendOptions) -> Box<dyn Backend> {
    match kind {
        BackendKind::Sparse => Box::new(SparseBackend::new(initial)),
        BackendKind::Dense => Box::new(DenseBackend::new(initial, opts.dense_limit_log2)),
    }
}

/// A gate-level exact simulator. Amplitudes are complex128. Implementations must agree
/// on every probability to 1e-9 and keep exact cancellations out of their state.
pub trait Backend: Send + Sync + fmt::Debug {
    /// Which backend this is.
    fn kind(&self) -> BackendKind;

    /// Applies `gate` to `targets` (one or two qubits) in the branches where every
    /// control holds. Controls must not read the targets.
    fn apply(
        &mut self,
        gate: Gate,
        targets: &[Qubit],
        controls: &[Control],
    ) -> Result<(), QuantumError>;

    /// Multiplies by -1 every branch whose basis bits satisfy `oracle` (a phase oracle).
    fn phase_flip_where(&mut self, oracle: &dyn Fn(&Bits) -> bool);

    /// Probability that every condition of `predicate` holds.
    fn probability_of(&self, predicate: &[Control]) -> f64;

    /// Probability that some condition of `predicate` fails (summed over those branches,
    /// not taken as 1 minus [`Backend::probability_of`], which loses precision near 1).
    fn probability_fails(&self, predicate: &[Control]) -> f64;

    /// Keeps the branches where `predicate` evaluates to `outcome`, renormalised by the
    /// probability `p` of that outcome (which the caller has checked is not 0).
    fn project(&mut self, predicate: &[Control], outcome: bool, p: f64);

    /// Probability that qubit `q` is 1.
    fn probability(&self, q: Qubit) -> f64;

    /// Probability that each qubit `0..n` is 1.
    fn probabilities(&self, n: usize) -> Vec<f64>;

    /// Every branch with its amplitude, sorted by basis bits.
    fn branches(&self) -> Vec<(Bits, Complex64)>;

    /// Number of branches with non-zero amplitude.
    fn branch_count(&self) -> usize;

    /// Sets a constant qubit to 0 in every branch; returns the value it had.
    fn reset_constant(&mut self, q: Qubit) -> Result<bool, QuantumError>;

    /// Moves qubits that became constant out of the quantum part (a no-op where the
    /// representation does not distinguish them).
    fn compact(&mut self);

    /// Number of qubits the state is held over (dense: live qubits; sparse: all).
    fn live_qubits(&self) -> usize;

    /// A boxed copy.
    fn clone_box(&self) -> Box<dyn Backend>;

    /// Measures `predicate`: outcome 1 when it holds. Certain outcomes change nothing.
    fn measure(
        &mut self,
        predicate: &[Control],
        choice: Choice,
    ) -> Result<Measurement, QuantumError> {
        let raw_p1 = self.probability_of(predicate);
        let p1 = raw_p1.clamp(0.0, 1.0);
        let p1 = if p1 < CERTAIN_EPS {
            0.0
        } else if p1 > 1.0 - CERTAIN_EPS {
            1.0
        } else {
            p1
        };
        let outcome = match choice {
            Choice::Forced(o) => {
                let p = if o { p1 } else { 1.0 - p1 };
                if p == 0.0 {
                    return Err(QuantumError::ImpossibleOutcome { outcome: o as u8 });
                }
                o
            }
            Choice::Draw(r) => r < p1,
        };
        let p = if outcome { p1 } else { 1.0 - p1 };
        if p < 1.0 {
            // Renormalise by the kept branches' own probability: 1 - p1 would carry
            // p1's rounding error, relative to a small p, into the norm.
            let kept = if outcome {
                raw_p1
            } else {
                self.probability_fails(predicate)
            };
            self.project(predicate, outcome, kept);
        }
        Ok(Measurement { outcome, p1 })
    }
}

impl Clone for Box<dyn Backend> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// Checks a gate's targets against its arity, the qubit range and its controls.
pub(crate) fn check_targets(
    gate: Gate,
    targets: &[Qubit],
    controls: &[Control],
) -> Result<(), QuantumError> {
    let bad = || QuantumError::BadTargets {
        gate: gate.name(),
        needed: gate.arity(),
    };
    if targets.len() != gate.arity() || (targets.len() == 2 && targets[0] == targets[1]) {
        return Err(bad());
    }
    for &q in targets {
        if q as usize >= MAX_QUBITS {
            return Err(QuantumError::QubitOutOfRange(q as usize));
        }
    }
    for c in controls {
        for q in c.qubits() {
            if q as usize >= MAX_QUBITS {
                return Err(QuantumError::QubitOutOfRange(q as usize));
            }
            if targets.contains(&q) {
                return Err(bad());
            }
        }
    }
    Ok(())
}
