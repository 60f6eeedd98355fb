//! Every operation applied to the simulator, recorded as data for circuit drawings and
//! export.

use super::control::Control;
use super::gate::Gate;
use super::Qubit;
use serde::{Deserialize, Serialize};

/// One recorded operation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Op {
    /// A gate on one or two targets with its controls.
    Gate {
        /// The gate.
        gate: Gate,
        /// Its targets.
        targets: Vec<Qubit>,
        /// Conditions under which it acts.
        controls: Vec<Control>,
    },
    /// A two-outcome measurement of a predicate.
    Measure {
        /// The conjunction measured.
        predicate: Vec<Control>,
        /// Probability of outcome 1 before the measurement.
        p1: f64,
        /// The outcome (true = 1).
        outcome: bool,
        /// Whether the caller forced the outcome.
        forced: bool,
    },
    /// A phase oracle (-1 on the marked branches), with a label saying what it marks.
    Oracle {
        /// What the oracle marks.
        label: String,
    },
    /// A fresh ancilla in |0>.
    Alloc {
        /// The new qubit.
        qubit: Qubit,
    },
    /// A constant qubit given back, with the value it had.
    Release {
        /// The qubit.
        qubit: Qubit,
        /// Its constant value.
        value: bool,
    },
}

impl Op {
    /// Every qubit the operation touches or reads.
    pub fn qubits(&self) -> Vec<Qubit> {
        let mut v = match self {
            Op::Gate {
                targets, controls, ..
            } => {
                let mut v = targets.clone();
                v.extend(controls.iter().flat_map(|c| c.qubits()));
                v
            }
            Op::Measure { predicate, .. } => predicate.iter().flat_map(|c| c.qubits()).collect(),
            Op::Oracle { .. } => Vec::new(),
            Op::Alloc { qubit } | Op::Release { qubit, .. } => vec![*qubit],
        };
        v.sort_unstable();
        v.dedup();
        v
    }
}
