//! The quantum side of an analysis: the favourable projector measured on the prepared
//! state, and quantum counting (phase estimation on the Grover operator) simulated.

use super::encode::Preparation;
use crate::quantum::{Bits, Control, Gate, Op, QuantumError, Qubit, Simulator};
use std::collections::HashSet;
use std::f64::consts::PI;
use std::fmt;

/// Basis strings of the owner registers that are favourable, for fast oracle lookups.
pub type Marked = HashSet<u64, foldhash::fast::RandomState>;

/// Told how many steps of a long loop were done since the last call; returns `false` to
/// stop the loop (cancelled).
pub type Tick<'a> = &'a mut dyn FnMut(u64) -> bool;

/// Gates counted by name and number of controls ("2 Ry, 3 C2-X"), gathered from a
/// simulator's trace as it is drained, so a long run keeps no trace in memory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpTally {
    counts: Vec<(String, usize)>,
}

impl OpTally {
    /// Counts `ops`.
    pub fn add(&mut self, ops: &[Op]) {
        for op in ops {
            let name = match op {
                Op::Gate { gate, controls, .. } => {
                    let base = gate
                        .name()
                        .split('(')
                        .next()
                        .unwrap_or_default()
                        .to_string();
                    match controls.len() {
                        0 => base,
                        1 => format!("C-{base}"),
                        n => format!("C{n}-{base}"),
                    }
                }
                Op::Oracle { label } => format!("oracle {label}"),
                Op::Measure { .. } => "measure".to_string(),
                Op::Alloc { .. } | Op::Release { .. } => continue,
            };
            match self.counts.iter_mut().find(|c| c.0 == name) {
                Some(c) => c.1 += 1,
                None => self.counts.push((name, 1)),
            }
        }
    }

    /// Counts what `sim` recorded and clears its trace.
    pub fn drain(&mut self, sim: &mut Simulator) {
        self.add(&sim.take_trace());
    }
}

impl fmt::Display for OpTally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .counts
            .iter()
            .map(|(n, k)| format!("{k} {n}"))
            .collect();
        f.write_str(&parts.join(", "))
    }
}

/// Counts gates in a trace by name and number of controls, e.g. "2 Ry, 3 C2-X".
pub fn summarize_ops(ops: &[Op]) -> String {
    let mut tally = OpTally::default();
    tally.add(ops);
    tally.to_string()
}

/// How many gates run between two looks at the tick (and trace drains).
const GATES_PER_TICK: usize = 256;

/// Marks a flag qubit on the favourable strings and measures it: the probability of
/// outcome 1 is <psi|P_fav|psi>. Bit i of a string is qubit `qubits[i]`; the flag is
/// qubit `flag` (in |0>). One multi-controlled X per favourable string writes the flag.
/// The gates are counted into `tally`; `tick` hears of every 256 gates and may stop the
/// loop (then `Ok(None)`).
pub fn measure_favourable(
    sim: &mut Simulator,
    qubits: &[Qubit],
    flag: Qubit,
    favourable: &[u64],
    tally: &mut OpTally,
    tick: Tick,
) -> Result<Option<f64>, QuantumError> {
    for chunk in favourable.chunks(GATES_PER_TICK) {
        for &s in chunk {
            let controls: Vec<Control> = qubits
                .iter()
                .enumerate()
                .map(|(i, &q)| Control::Bit(q, s >> i & 1 == 1))
                .collect();
            sim.apply(Gate::X, &[flag], &controls)?;
        }
        tally.drain(sim);
        if !tick(chunk.len() as u64) {
            return Ok(None);
        }
    }
    let p = sim.measure(&[Control::Bit(flag, true)], None)?.p1;
    tally.drain(sim);
    Ok(Some(p))
}

/// The outcome of simulated quantum counting.
#[derive(Clone, Debug, PartialEq)]
pub struct Counting {
    /// Counting qubits t.
    pub counting_qubits: usize,
    /// Applications of the (controlled) Grover operator, each calling the oracle once:
    /// 2^t - 1.
    pub oracle_calls: u64,
    /// The most likely counting-register value y.
    pub outcome: u64,
    /// Its probability.
    pub outcome_probability: f64,
    /// The count read from it: N sin^2(pi y / 2^t).
    pub estimate: f64,
    /// The standard bound on |estimate - M| (Brassard, Hoyer, Mosca, Tapp), evaluated
    /// at the estimate: 2 pi sqrt(M (N - M)) / 2^t + pi^2 N / 4^t.
    pub error_bound: f64,
    /// The counting register's distribution: (y, probability), most likely first,
    /// probabilities above 1e-6 only.
    pub distribution: Vec<(u64, f64)>,
}

/// The standard quantum counting error bound for count `m` of `n` with `t` counting
/// qubits: 2 pi sqrt(m (n - m)) / 2^t + pi^2 n / 4^t.
pub fn error_bound(m: f64, n: f64, t: usize) -> f64 {
    let s = (1u64 << t) as f64;
    2.0 * PI * (m * (n - m)).max(0.0).sqrt() / s + PI * PI * n / (s * s)
}

/// The gates of the quantum Fourier transform on `qubits` (qubits[k] has weight 2^k):
/// |x> -> 2^{-t/2} sum_y e^{2 pi i x y / 2^t} |y>, as (gate, targets, controls).
pub fn qft_gates(qubits: &[Qubit]) -> Vec<(Gate, Vec<Qubit>, Vec<Control>)> {
    let t = qubits.len();
    let mut gates = Vec::new();
    for b in (0..t).rev() {
        gates.push((Gate::H, vec![qubits[b]], Vec::new()));
        for m in (0..b).rev() {
            let phase = 2.0 * PI / (1u64 << (b - m + 1)) as f64;
            gates.push((
                Gate::Phase(phase),
                vec![qubits[b]],
                vec![Control::Bit(qubits[m], true)],
            ));
        }
    }
    for b in 0..t / 2 {
        gates.push((Gate::Swap, vec![qubits[b], qubits[t - 1 - b]], Vec::new()));
    }
    gates
}

/// Applies the inverse QFT on `qubits`.
pub fn inverse_qft(sim: &mut Simulator, qubits: &[Qubit]) -> Result<(), QuantumError> {
    for (g, targets, controls) in qft_gates(qubits).into_iter().rev() {
        sim.apply(g.inverse(), &targets, &controls)?;
    }
    Ok(())
}

/// Quantum counting of the favourable strings, simulated on `sim`.
///
/// `sim` starts in |0...0>; the owner qubits are `0..data` with `data_mask` their
/// bits, the counting qubits `counting` (t of them, all below 64). The Grover operator
/// is G = A S0 A^-1 S_f with A = `prep`, S_f = I - 2 P_fav (the oracle) and
/// S0 = 2|0><0| - I, so G rotates by theta with sin^2(theta/2) = M/N. Phase estimation
/// applies controlled-G^(2^k) with counting qubit k as control, then the inverse QFT.
/// Only the two reflections need the control: with the control off, A A^-1 = I.
///
/// The gates are counted into `tally`; `tick` hears of every application of G and may
/// stop the run (then `Ok(None)`).
#[allow(clippy::too_many_arguments)]
pub fn count(
    sim: &mut Simulator,
    prep: &Preparation,
    data_mask: u64,
    counting: &[Qubit],
    marked: &Marked,
    total: usize,
    tally: &mut OpTally,
    tick: Tick,
) -> Result<Option<Counting>, QuantumError> {
    let t = counting.len();
    prep.apply(sim, &[])?;
    // The controlled powers of G commute, so the blocks run from the largest power
    // down, and counting qubit k, read only by its own block, gets its H just before
    // it: the 2^(t-1) applications of the first block see a state with one counting
    // qubit in superposition, the last single application all t. The circuit is the
    // textbook one with commuting gates reordered.
    for (k, &c) in counting.iter().enumerate().rev() {
        sim.apply(Gate::H, &[c], &[])?;
        let on = 1u64 << c;
        for _ in 0..(1u64 << k) {
            let sf = |b: &Bits| {
                let w = b.low_word();
                w & on != 0 && marked.contains(&(w & data_mask))
            };
            sim.oracle("S_f", &sf);
            prep.apply_inverse(sim)?;
            let s0 = |b: &Bits| {
                let w = b.low_word();
                w & on != 0 && w & data_mask != 0
            };
            sim.oracle("S_0", &s0);
            prep.apply(sim, &[])?;
            tally.drain(sim);
            if !tick(1) {
                return Ok(None);
            }
        }
    }
    inverse_qft(sim, counting)?;
    tally.drain(sim);

    let mut dist = vec![0.0f64; 1 << t];
    for (b, a) in sim.backend().branches() {
        let y = counting
            .iter()
            .enumerate()
            .fold(0usize, |y, (k, &q)| y | (b.get(q as usize) as usize) << k);
        dist[y] += a.norm_sqr();
    }
    let (outcome, p) =
        dist.iter().enumerate().fold(
            (0, -1.0),
            |best, (y, &p)| if p > best.1 + 1e-12 { (y, p) } else { best },
        );
    let n = total as f64;
    let estimate = n * (PI * outcome as f64 / (1u64 << t) as f64).sin().powi(2);
    let mut distribution: Vec<(u64, f64)> = dist
        .iter()
        .enumerate()
        .filter(|(_, &p)| p > 1e-6)
        .map(|(y, &p)| (y as u64, p))
        .collect();
    distribution.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    Ok(Some(Counting {
        counting_qubits: t,
        oracle_calls: (1u64 << t) - 1,
        outcome: outcome as u64,
        outcome_probability: p,
        estimate,
        error_bound: error_bound(estimate, n, t),
        distribution,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantum::{BackendKind, BackendOptions};

    #[test]
    fn qft_matches_its_definition() {
        let t = 4;
        let qubits: Vec<Qubit> = (0..t as Qubit).collect();
        for kind in [BackendKind::Sparse, BackendKind::Dense] {
            for x in [0u64, 1, 5, 12] {
                let init = Bits::from_qubits((0..t).filter(|k| x >> k & 1 == 1));
                let mut sim = Simulator::new(kind, init, t, 0, BackendOptions::default());
                for (g, tg, c) in qft_gates(&qubits) {
                    sim.apply(g, &tg, &c).unwrap();
                }
                let br = sim.backend().branches();
                assert_eq!(br.len(), 1 << t);
                for (b, a) in br {
                    let y = b.low_word() as f64;
                    let want =
                        num_complex::Complex64::from_polar(0.25, 2.0 * PI * x as f64 * y / 16.0);
                    assert!((a - want).norm() < 1e-12, "x={x} y={y} {a} {want}");
                }
                inverse_qft(&mut sim, &qubits).unwrap();
                let br = sim.backend().branches();
                assert_eq!(br.len(), 1);
                assert_eq!(br[0].0.low_word(), x);
            }
        }
    }
}
