//! The exact quantum simulator the games run on. It knows qubits, gates and
//! measurements, and nothing about chess.
//!
//! Two backends implement [`Backend`]: [`SparseBackend`] (branches in a hash map) and
//! [`DenseBackend`] (a state vector over the live qubits only). [`Factored`] keeps a state
//! as a product of independent factors, each a register of either backend. [`Simulator`]
//! wraps a factored state (or, for comparisons, a single register) with a seeded random
//! source, ancilla allocation and a trace of every operation.

pub mod bell;
pub mod bits;
pub mod control;
pub mod dense;
pub mod factored;
pub mod gate;
pub mod signature;
pub mod simulator;
pub mod sparse;
pub mod trace;

pub use bits::{Bits, MAX_QUBITS};
pub use control::{Compiled, Control};
pub use dense::{DenseBackend, MAX_DENSE_LIMIT_LOG2};
pub use factored::Factored;
pub use gate::Gate;
pub use num_complex::Complex64;
pub use signature::Signature;
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

/// Default largest sparse state, in branches (all factors together). A branch takes about
/// 100 bytes in the hash map; with the copy a move works on and the gate's scratch space,
/// 2^22 branches stay well inside a 2 GB process.
pub const DEFAULT_SPARSE_LIMIT: usize = 1 << 22;

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
    #[error("the quantum state would need 2^{needed} amplitudes, over the limit of 2^{limit}; raise the limit (--dense-limit, or dense_limit_log2 in config.toml) or use the sparse backend")]
    StateTooLarge {
        /// log2 of the amplitudes needed.
        needed: u32,
        /// log2 of the limit.
        limit: u32,
    },
    /// The sparse state would exceed its size limit.
    #[error("the quantum state would need {needed} branches, over the limit of {limit}; raise the limit (--sparse-limit, or sparse_limit in config.toml)")]
    TooManyBranches {
        /// Branches needed (all factors together).
        needed: usize,
        /// The limit.
        limit: usize,
    },
    /// The factors of a state would together exceed twice the size limit.
    #[error("the quantum state's factors would need {needed} {} together, over {allowed} (twice the limit of one factor); raise the limit ({})", .kind.unit(), .kind.limit_setting())]
    TotalTooLarge {
        /// Which backend.
        kind: BackendKind,
        /// Amplitudes (dense) or branches (sparse) needed by all factors.
        needed: usize,
        /// Twice the limit of one factor.
        allowed: usize,
    },
    /// Memory ran out below the size limit.
    #[error("out of memory: {} MiB more for the quantum state could not be allocated, although the size limit was not reached; close other programs or lower the limit", .bytes.div_ceil(1 << 20))]
    OutOfMemory {
        /// Bytes that could not be allocated.
        bytes: usize,
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
pub enum Decide {
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
    /// Both backends.
    pub const ALL: [BackendKind; 2] = [BackendKind::Sparse, BackendKind::Dense];

    /// The lower-case name ("sparse" or "dense").
    pub fn name(&self) -> &'static str {
        match self {
            BackendKind::Sparse => "sparse",
            BackendKind::Dense => "dense",
        }
    }
}

impl BackendKind {
    /// What its size limit counts: "amplitudes" or "branches".
    pub fn unit(&self) -> &'static str {
        match self {
            BackendKind::Sparse => "branches",
            BackendKind::Dense => "amplitudes",
        }
    }

    /// Where its size limit is set.
    pub fn limit_setting(&self) -> &'static str {
        match self {
            BackendKind::Sparse => "--sparse-limit, or sparse_limit in config.toml",
            BackendKind::Dense => "--dense-limit, or dense_limit_log2 in config.toml",
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

/// Which backend simulates a game and how large its state may grow on each: what
/// `--backend`, `--dense-limit` and `--sparse-limit` (or `config.toml`) choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimulatorSettings {
    /// The backend.
    pub backend: BackendKind,
    /// Dense backend: largest state as log2 of the number of amplitudes.
    pub dense_limit_log2: u32,
    /// Sparse backend: largest state in branches.
    pub sparse_limit: usize,
}

impl Default for SimulatorSettings {
    fn default() -> Self {
        SimulatorSettings {
            backend: BackendKind::default(),
            dense_limit_log2: DEFAULT_DENSE_LIMIT_LOG2,
            sparse_limit: DEFAULT_SPARSE_LIMIT,
        }
    }
}

impl SimulatorSettings {
    /// `backend` with the default size limits.
    pub fn on(backend: BackendKind) -> SimulatorSettings {
        SimulatorSettings {
            backend,
            ..SimulatorSettings::default()
        }
    }

    /// The options its backend is built with, its state `factored` or not.
    pub fn backend_options(self, factored: bool) -> BackendOptions {
        BackendOptions {
            dense_limit_log2: self.dense_limit_log2,
            sparse_limit: self.sparse_limit,
            factored,
        }
    }
}

/// What the command line says of the simulator, over what `config.toml` says: each
/// setting it gives (`None` where it says nothing). The three travel together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SimulatorOverrides {
    /// `--backend`.
    pub backend: Option<BackendKind>,
    /// `--dense-limit`.
    pub dense_limit_log2: Option<u32>,
    /// `--sparse-limit`.
    pub sparse_limit: Option<usize>,
}

impl SimulatorOverrides {
    /// `base` with every setting given here in place of its own.
    pub fn over(self, base: SimulatorSettings) -> SimulatorSettings {
        SimulatorSettings {
            backend: self.backend.unwrap_or(base.backend),
            dense_limit_log2: self.dense_limit_log2.unwrap_or(base.dense_limit_log2),
            sparse_limit: self.sparse_limit.unwrap_or(base.sparse_limit),
        }
    }
}

/// Options for building a backend.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BackendOptions {
    /// Dense backend: largest state as log2 of the number of amplitudes (all factors
    /// together).
    pub dense_limit_log2: u32,
    /// Sparse backend: largest state in branches (all factors together).
    pub sparse_limit: usize,
    /// Keep the state as a product of independent factors ([`Factored`]); off only to
    /// compare with a single register.
    pub factored: bool,
}

impl Default for BackendOptions {
    fn default() -> Self {
        BackendOptions {
            dense_limit_log2: DEFAULT_DENSE_LIMIT_LOG2,
            sparse_limit: DEFAULT_SPARSE_LIMIT,
            factored: true,
        }
    }
}

/// Builds a single register of the given kind, starting in the basis state `initial`
/// (`opts.factored` is not looked at; see [`new_state`]).
pub fn new_backend(kind: BackendKind, initial: Bits, opts: BackendOptions) -> Box<dyn Backend> {
    match kind {
        BackendKind::Sparse => Box::new(SparseBackend::with_limit(initial, opts.sparse_limit)),
        BackendKind::Dense => Box::new(DenseBackend::new(initial, opts.dense_limit_log2)),
    }
}

/// Builds the state a simulator holds: factored (the default) or a single register.
pub fn new_state(kind: BackendKind, initial: Bits, opts: BackendOptions) -> Box<dyn Backend> {
    match (opts.factored, kind) {
        (false, _) => new_backend(kind, initial, opts),
        (true, BackendKind::Sparse) => Box::new(Factored::<SparseBackend>::new(initial, opts)),
        (true, BackendKind::Dense) => Box::new(Factored::<DenseBackend>::new(initial, opts)),
    }
}

/// The size of one factor of a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FactorSize {
    /// Qubits in the factor (not constant).
    pub qubits: usize,
    /// Its branches with a non-zero amplitude.
    pub branches: usize,
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
    /// probability `p` of that outcome (which the caller has checked is not 0). A factored
    /// state may have to merge factors first, which can exceed the size limit.
    fn project(&mut self, predicate: &[Control], outcome: bool, p: f64)
        -> Result<(), QuantumError>;

    /// Probability that qubit `q` is 1.
    fn probability(&self, q: Qubit) -> f64;

    /// Probability that each qubit `0..n` is 1.
    fn probabilities(&self, n: usize) -> Vec<f64>;

    /// Every branch with its amplitude, sorted by basis bits. For a factored state this
    /// is the product of all factors, which can be huge: prefer the methods below.
    fn branches(&self) -> Vec<(Bits, Complex64)>;

    /// Number of branches with non-zero amplitude (for a factored state, the product of
    /// the factors' counts, saturating at `usize::MAX`).
    fn branch_count(&self) -> usize;

    /// Branches with a non-zero amplitude, summed over the factors of a factored state
    /// (for one register, [`Backend::branch_count`]): about what a gate on the state
    /// costs, the same number whichever backend holds it.
    fn branch_total(&self) -> usize {
        self.branch_count()
    }

    /// The independent parts of the state that hold `qubits`, each with the qubits it
    /// holds and its branches, in which every qubit outside the part reads its constant
    /// value, or 0 where another part holds it. Reduced states of `qubits` computed from
    /// these are exact: the rest of the state is independent of them. A single register
    /// is one part holding every qubit; a state with all of `qubits` constant gives one
    /// part holding none of them.
    fn parts_holding(&self, qubits: &[Qubit]) -> Vec<(Bits, Vec<(Bits, Complex64)>)> {
        let _ = qubits;
        vec![(Bits::ZERO.complement(), self.branches())]
    }

    /// For each independent part of the state, the probability of each value of its
    /// qubits among 0..64 (the low word), the other qubits summed out. The distribution
    /// of the low word is the product of the parts (values or-ed, probabilities
    /// multiplied).
    fn low_word_parts(&self) -> Vec<Vec<(u64, f64)>> {
        let mut acc: std::collections::HashMap<u64, f64, foldhash::fast::FixedState> =
            Default::default();
        for (b, a) in self.branches() {
            *acc.entry(b.low_word()).or_default() += a.norm_sqr();
        }
        vec![acc.into_iter().collect()]
    }

    /// The size of each factor (one for a single register), largest first.
    fn factor_sizes(&self) -> Vec<FactorSize> {
        let branches = self.branches();
        let mut varying = Bits::ZERO;
        if let Some(&(first, _)) = branches.first() {
            for (b, _) in &branches {
                varying = varying.or(&b.xor(&first));
            }
        }
        vec![FactorSize {
            qubits: varying.count() as usize,
            branches: branches.len(),
        }]
    }

    /// A fingerprint of the state up to a global phase, the same however it is factored.
    fn signature(&self) -> Signature {
        Signature::of_branches(self.branches().iter().map(|(b, a)| (b, a)))
    }

    /// Sets a constant qubit to 0 in every branch; returns the value it had.
    fn reset_constant(&mut self, q: Qubit) -> Result<bool, QuantumError>;

    /// Moves qubits that became constant out of the quantum part (a no-op where the
    /// representation does not distinguish them).
    fn compact(&mut self);

    /// Number of qubits the state is held over (dense: live qubits; sparse: all; factored:
    /// the qubits in its factors).
    fn live_qubits(&self) -> usize;

    /// A boxed copy.
    fn clone_box(&self) -> Box<dyn Backend>;

    /// Measures `predicate`: outcome 1 when it holds. Certain outcomes change nothing.
    fn measure(
        &mut self,
        predicate: &[Control],
        choice: Decide,
    ) -> Result<Measurement, QuantumError> {
        let raw_p1 = self.probability_of(predicate);
        let (outcome, p1, p) = decide(raw_p1, choice)?;
        if p < 1.0 {
            // Renormalise by the kept branches' own probability: 1 - p1 would carry
            // p1's rounding error, relative to a small p, into the norm.
            let kept = if outcome {
                raw_p1
            } else {
                self.probability_fails(predicate)
            };
            self.project(predicate, outcome, kept)?;
        }
        Ok(Measurement { outcome, p1 })
    }
}

/// A measurement's outcome from the probability `raw_p1` of outcome 1: the outcome, p1
/// snapped to 0 or 1 within [`CERTAIN_EPS`], and the probability of the chosen outcome.
pub(crate) fn decide(raw_p1: f64, choice: Decide) -> Result<(bool, f64, f64), QuantumError> {
    let p1 = raw_p1.clamp(0.0, 1.0);
    let p1 = if p1 < CERTAIN_EPS {
        0.0
    } else if p1 > 1.0 - CERTAIN_EPS {
        1.0
    } else {
        p1
    };
    let outcome = match choice {
        Decide::Forced(o) => {
            let p = if o { p1 } else { 1.0 - p1 };
            if p == 0.0 {
                return Err(QuantumError::ImpossibleOutcome { outcome: o as u8 });
            }
            o
        }
        Decide::Draw(r) => r < p1,
    };
    let p = if outcome { p1 } else { 1.0 - p1 };
    Ok((outcome, p1, p))
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
