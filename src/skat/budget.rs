//! What an analysis may cost, what it is expected to cost, and how far a running one is:
//! the limits (a minute and 1 GiB by default), the cost model behind the estimate, and
//! the progress reports and cancel flag a caller watches a run with.
//!
//! The cost model counts the work of each stage in the units it is made of and turns it
//! into seconds with rates measured on a 2-core machine (see docs/skat.md, "Allowance"):
//! * solving: searched positions of the double-dummy solver, projected from the first
//!   1/32 of the distributions (each solved for every card I hold);
//! * measuring P_fav: one gate per favourable distribution and card over the whole state
//!   (every distribution counted as favourable: an upper bound);
//! * quantum counting: t 2^t 2G gate applications per card over n branches (G gates in
//!   the state preparation, t counting qubits), as the blocks of phase estimation run.
//!
//! Memory: the solver's table (fixed), the distributions, and the largest state (the
//! sparse backend's branches, or the dense vector).

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::quantum::BackendKind;

/// How much an analysis may take before it is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allowance {
    /// Estimated seconds.
    pub seconds: u64,
    /// Estimated bytes of memory.
    pub bytes: u64,
}

impl Allowance {
    /// A minute and 1 GiB.
    pub const DEFAULT: Allowance = Allowance {
        seconds: 60,
        bytes: 1 << 30,
    };
}

impl Default for Allowance {
    fn default() -> Self {
        Allowance::DEFAULT
    }
}

/// What an analysis is expected to cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Distributions in superposition.
    pub distributions: usize,
    /// Seconds in all.
    pub seconds: f64,
    /// Peak bytes of memory.
    pub bytes: u64,
    /// The solver was stopped before its projection was complete: the figures are a
    /// lower bound.
    pub at_least: bool,
}

/// Seconds in words: "40 s", "7 min", "2.5 h", "97 h".
pub fn duration_words(s: f64) -> String {
    if s < 90.0 {
        format!("{:.0} s", s.max(1.0))
    } else if s < 90.0 * 60.0 {
        format!("{:.0} min", s / 60.0)
    } else if s < 10.0 * 3600.0 {
        format!("{:.1} h", s / 3600.0)
    } else {
        format!("{:.0} h", s / 3600.0)
    }
}

/// Bytes in words: "300 MiB", "2.4 GiB".
pub fn bytes_words(b: u64) -> String {
    let b = b as f64;
    let gib = (1u64 << 30) as f64;
    if b < gib {
        format!("{:.0} MiB", (b / (1u64 << 20) as f64).max(1.0))
    } else {
        format!("{:.1} GiB", b / gib)
    }
}

impl fmt::Display for Estimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}about {} and {} for {} distributions",
            if self.at_least { "at least " } else { "" },
            duration_words(self.seconds),
            bytes_words(self.bytes),
            self.distributions
        )
    }
}

/// Positions the double-dummy solver searches per second.
pub const SOLVER_POSITIONS_PER_SECOND: f64 = 5.0e6;
/// Nanoseconds of one gate on one branch of the sparse state, measuring P_fav.
pub const SPARSE_MEASURE_NS: f64 = 12.0;
/// Nanoseconds of one gate on one branch of the sparse state, in quantum counting.
pub const SPARSE_COUNT_NS: f64 = 14.0;
/// Nanoseconds of one gate on one amplitude of the dense state.
pub const DENSE_NS: f64 = 3.0;
/// Bytes of one branch of the sparse state, its scratch copy included.
pub const SPARSE_BRANCH_BYTES: f64 = 200.0;
/// Branches of the counting state per distribution and counting-register value: the
/// preparation run backwards spreads a branch over a few basis states.
pub const COUNT_SPREAD: f64 = 2.0;
/// Bytes besides the states and tables (the program, the deals' bookkeeping).
pub const BASE_BYTES: u64 = 16 << 20;

/// The size of an analysis, as the cost model sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// The backend.
    pub backend: BackendKind,
    /// Distributions.
    pub n: usize,
    /// Cards I could lead.
    pub cards: usize,
    /// Unknown cards (bookkeeping per distribution).
    pub unknown: usize,
    /// Qubits of the distribution register.
    pub data: usize,
    /// Counting qubits.
    pub t: usize,
    /// Gates of the state preparation.
    pub prep_gates: usize,
    /// Bytes of the solver's table.
    pub table_bytes: u64,
}

impl Plan {
    /// Gate-on-state work of the state: branches (sparse) or amplitudes (dense) that one
    /// gate touches, with `extra` more qubits in superposition.
    fn state_size(&self, extra: usize) -> f64 {
        match self.backend {
            BackendKind::Sparse => self.n as f64 * 2f64.powi(extra as i32),
            BackendKind::Dense => 2f64.powi((self.data + extra) as i32),
        }
    }

    fn ns_per(&self, counting: bool) -> f64 {
        match (self.backend, counting) {
            (BackendKind::Dense, _) => DENSE_NS,
            (BackendKind::Sparse, false) => SPARSE_MEASURE_NS,
            (BackendKind::Sparse, true) => SPARSE_COUNT_NS,
        }
    }

    /// Seconds of measuring P_fav with `favourable` marked distributions in all cards:
    /// one gate each, over the prepared state (the flag qubit live on the dense one).
    pub fn measure_seconds(&self, favourable: usize) -> f64 {
        let touched = match self.backend {
            BackendKind::Sparse => self.state_size(0),
            BackendKind::Dense => self.state_size(1),
        };
        favourable as f64 * touched * self.ns_per(false) * 1e-9
    }

    /// Seconds of quantum counting, all cards.
    pub fn count_seconds(&self) -> f64 {
        if self.t == 0 {
            return 0.0;
        }
        // Block k: 2^k applications of G (2G gates) on a state with t - k counting
        // qubits in superposition; for the sparse state each block costs the same.
        let per_card: f64 = (0..self.t)
            .map(|k| {
                let spread = match self.backend {
                    BackendKind::Sparse => COUNT_SPREAD,
                    BackendKind::Dense => 1.0,
                };
                2f64.powi(k as i32)
                    * 2.0
                    * self.prep_gates as f64
                    * self.state_size(self.t - k)
                    * spread
            })
            .sum();
        self.cards as f64 * per_card * self.ns_per(true) * 1e-9
    }

    /// Seconds of solving `positions` solver positions.
    pub fn solve_seconds(positions: u64) -> f64 {
        positions as f64 / SOLVER_POSITIONS_PER_SECOND
    }

    /// Peak bytes: the table, the distributions, and the largest state.
    pub fn bytes(&self) -> u64 {
        let deals = self.n as u64 * (64 + 8 * self.unknown as u64 + 8 * self.cards as u64);
        let states = match self.backend {
            // The prepared state, its copy measured, and the counting state.
            BackendKind::Sparse => {
                SPARSE_BRANCH_BYTES
                    * self.n as f64
                    * (2.0 + COUNT_SPREAD * 2f64.powi(self.t as i32) * (self.t > 0) as u8 as f64)
            }
            BackendKind::Dense => {
                16.0 * (3.0 * 2f64.powi(self.data as i32 + 1)
                    + 2f64.powi((self.data + self.t) as i32))
            }
        };
        BASE_BYTES + self.table_bytes + deals + states as u64
    }

    /// The estimate with the solver's `positions` and `favourable` marked distributions
    /// (all cards).
    pub fn estimate(&self, positions: u64, favourable: usize, at_least: bool) -> Estimate {
        Estimate {
            distributions: self.n,
            seconds: Plan::solve_seconds(positions)
                + self.measure_seconds(favourable)
                + self.count_seconds(),
            bytes: self.bytes(),
            at_least,
        }
    }

    /// Positions the solver may search within `limits`, after the other stages' share
    /// (every distribution counted as favourable); 0 when nothing is left.
    pub fn solver_allowance(&self, limits: &Allowance) -> u64 {
        let rest = limits.seconds as f64
            - self.measure_seconds(self.n * self.cards)
            - self.count_seconds();
        (rest.max(0.0) * SOLVER_POSITIONS_PER_SECOND) as u64
    }
}

/// The stages of an analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The double-dummy values of every distribution and card.
    Solving,
    /// The favourable projector measured on the state, per card.
    Measuring,
    /// Quantum counting simulated, per card.
    Counting,
}

impl Stage {
    /// What the stage does, in a few words.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Solving => "solving the distributions",
            Stage::Measuring => "measuring P_fav",
            Stage::Counting => "quantum counting",
        }
    }
}

/// How far a running analysis is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// The stage running.
    pub stage: Stage,
    /// Steps of the stage done (distributions solved, gates of P_fav, applications of
    /// the Grover operator).
    pub done: u64,
    /// Steps of the stage in all.
    pub total: u64,
    /// The whole analysis done so far, 0 to 1, weighted by the estimate.
    pub fraction: f64,
    /// Time since the analysis started.
    pub elapsed: Duration,
    /// The estimate of the whole run.
    pub estimate: Estimate,
}

/// How a caller watches a running analysis (see [`crate::skat::analyze_watched`]): a
/// progress callback, called on the analysing thread a few times a second and at each
/// stage change, and a cancel flag, which any thread may set; the analysis then stops
/// within a fraction of a second with [`crate::skat::AnalysisError::Cancelled`].
#[derive(Clone, Default)]
pub struct Watch<'a> {
    /// Told how far the analysis is.
    pub progress: Option<&'a dyn Fn(&Progress)>,
    /// Set to stop the analysis.
    pub cancel: Option<Arc<AtomicBool>>,
}

/// How often the progress callback is called at most.
const REPORT_EVERY: Duration = Duration::from_millis(50);

/// A running analysis's bookkeeping: stage weights, the throttled progress reports and
/// the cancel flag.
pub(crate) struct Meter<'a> {
    watch: &'a Watch<'a>,
    started: Instant,
    last: Option<Instant>,
    /// Estimated seconds of each stage.
    weights: [f64; 3],
    pub(crate) estimate: Estimate,
    stage: Stage,
    done: u64,
    total: u64,
}

impl<'a> Meter<'a> {
    pub(crate) fn new(watch: &'a Watch<'a>, estimate: Estimate) -> Meter<'a> {
        Meter {
            watch,
            started: Instant::now(),
            last: None,
            weights: [1.0, 0.0, 0.0],
            estimate,
            stage: Stage::Solving,
            done: 0,
            total: 1,
        }
    }

    /// Whether the caller asked to stop.
    pub(crate) fn cancelled(&self) -> bool {
        self.watch
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Sets the stages' estimated seconds (their weights in the fraction done).
    pub(crate) fn weigh(&mut self, solve: f64, measure: f64, count: f64) {
        self.weights = [solve.max(1e-9), measure.max(0.0), count.max(0.0)];
    }

    /// Starts a stage of `total` steps (reported at once).
    pub(crate) fn stage(&mut self, stage: Stage, total: u64) {
        self.stage = stage;
        self.done = 0;
        self.total = total.max(1);
        self.report(true);
    }

    /// `steps` more steps done; `false` when the caller asked to stop.
    pub(crate) fn step(&mut self, steps: u64) -> bool {
        self.done = (self.done + steps).min(self.total);
        self.report(false);
        !self.cancelled()
    }

    fn fraction(&self) -> f64 {
        let k = self.stage as usize;
        let all: f64 = self.weights.iter().sum();
        let before: f64 = self.weights[..k].iter().sum();
        (before + self.weights[k] * self.done as f64 / self.total as f64) / all
    }

    fn report(&mut self, now: bool) {
        let Some(progress) = self.watch.progress else {
            return;
        };
        let t = Instant::now();
        if !now
            && self
                .last
                .is_some_and(|l| t.duration_since(l) < REPORT_EVERY)
        {
            return;
        }
        self.last = Some(t);
        progress(&Progress {
            stage: self.stage,
            done: self.done,
            total: self.total,
            fraction: self.fraction().clamp(0.0, 1.0),
            elapsed: self.started.elapsed(),
            estimate: self.estimate,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(n: usize, t: usize, g: usize) -> Plan {
        Plan {
            backend: BackendKind::Sparse,
            n,
            cards: 5,
            unknown: 10,
            data: 10,
            t,
            prep_gates: g,
            table_bytes: 1 << 20,
        }
    }

    #[test]
    fn counting_grows_with_its_qubits_and_the_preparation() {
        let small = plan(1000, 6, 100);
        assert!(plan(1000, 7, 100).count_seconds() > 2.0 * small.count_seconds());
        assert!((plan(1000, 6, 200).count_seconds() - 2.0 * small.count_seconds()).abs() < 1e-9);
        assert_eq!(plan(1000, 0, 100).count_seconds(), 0.0);
        assert!(plan(1000, 6, 100).bytes() > plan(1000, 0, 100).bytes());
    }

    #[test]
    fn words() {
        assert_eq!(duration_words(40.2), "40 s");
        assert_eq!(duration_words(420.0), "7 min");
        assert_eq!(duration_words(9000.0), "2.5 h");
        assert_eq!(duration_words(350_000.0), "97 h");
        assert_eq!(bytes_words(300 << 20), "300 MiB");
        assert_eq!(bytes_words(1 << 30), "1.0 GiB");
    }
}
