//! Runs a read program on the project's simulator.

use super::parse::{Program, QasmError, Stmt};
use crate::quantum::{BackendKind, BackendOptions, Bits, Control, Simulator, MAX_QUBITS};

/// What a run left: the probability that each qubit is 1, and the classical bits.
#[derive(Clone, Debug, PartialEq)]
pub struct Simulation {
    /// Probability of 1 for each declared qubit, in register order.
    pub probabilities: Vec<f64>,
    /// The classical bits at the end.
    pub bits: Vec<bool>,
}

/// Runs `program` on a backend of kind `kind`, from all qubits 0. A measurement into
/// bit k takes the outcome `forced[k]` when given, else a draw from the `seed`ed source.
pub fn simulate(
    program: &Program,
    kind: BackendKind,
    forced: &[bool],
    seed: u64,
) -> Result<Simulation, QasmError> {
    if program.qubits > MAX_QUBITS {
        return Err(QasmError::TooManyQubits(program.qubits));
    }
    let sim = Simulator::new(
        kind,
        Bits::ZERO,
        program.qubits,
        seed,
        BackendOptions::default(),
    );
    let mut run = Execution {
        sim,
        forced,
        bits: vec![false; program.bits],
        compacted: 0,
    };
    run.exec(&program.body)?;
    let Execution { sim, bits, .. } = run;
    Ok(Simulation {
        probabilities: sim.backend().probabilities(program.qubits),
        bits,
    })
}

/// Live qubits the state may gain over its last compaction before it is compacted again.
const GROWTH: usize = 4;

struct Execution<'a> {
    sim: Simulator,
    forced: &'a [bool],
    bits: Vec<bool>,
    /// Live qubits right after the last compaction.
    compacted: usize,
}

impl Execution<'_> {
    fn exec(&mut self, body: &[Stmt]) -> Result<(), QasmError> {
        for s in body {
            match s {
                Stmt::Gate {
                    gate,
                    targets,
                    controls,
                } => {
                    self.sim.apply(*gate, targets, controls)?;
                    // A dense state holds every qubit a gate touched until it is
                    // compacted; the program's many one-qubit gates would blow it up.
                    if self.sim.backend().live_qubits() > self.compacted + GROWTH {
                        self.sim.compact();
                        self.compacted = self.sim.backend().live_qubits();
                    }
                }
                Stmt::Measure { qubit, bit } => {
                    let forced = self.forced.get(*bit).copied();
                    let m = self.sim.measure(&[Control::Bit(*qubit, true)], forced)?;
                    self.bits[*bit] = m.outcome;
                }
                Stmt::If { bit, value, body } => {
                    if self.bits[*bit] == *value {
                        self.exec(body)?;
                    }
                }
            }
        }
        Ok(())
    }
}
