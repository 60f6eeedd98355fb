//! Card quality for an endgame: every consistent distribution solved double-dummy for
//! each card I could lead, the distributions put in superposition on a simulator
//! backend, the favourable projector measured per card, and quantum counting simulated
//! beside the exact count.

use super::cards::Card;
use super::deal::{enumerate, Deal};
use super::encode::{register, EncodingKind, Preparation};
use super::endgame::{Endgame, EndgameError};
use super::quantum::{count, measure_favourable, Counting, Marked};
use super::solve::Solver;
use crate::quantum::{
    BackendKind, BackendOptions, Bits, Op, QuantumError, Qubit, Simulator, DEFAULT_DENSE_LIMIT_LOG2,
};

/// Default number of counting qubits: the estimate for the nine-card endgame is then
/// within about 0.4 of the count, and the state stays small on the dense backend.
pub const DEFAULT_COUNTING_QUBITS: usize = 6;

/// Most counting qubits accepted.
pub const MAX_COUNTING_QUBITS: usize = 12;

/// Seed of the simulator's random source (the P_fav measurement draws from it).
const SEED: u64 = 0x5ca7;

/// Why an analysis failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum AnalysisError {
    /// The endgame is invalid or too large.
    #[error(transparent)]
    Endgame(#[from] EndgameError),
    /// The simulator refused (e.g. the dense state would be too large).
    #[error("simulator: {0}")]
    Quantum(#[from] QuantumError),
    /// The measured probability disagrees with the classical tally: a bug.
    #[error("internal error: {0}")]
    Internal(String),
}

/// How to run an analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalyzeOptions {
    /// The simulator backend.
    pub backend: BackendKind,
    /// Counting qubits for quantum counting; 0 skips quantum counting.
    pub counting_qubits: usize,
    /// How the distributions are written into qubits.
    pub encoding: EncodingKind,
}

impl Default for AnalyzeOptions {
    fn default() -> Self {
        AnalyzeOptions {
            backend: BackendKind::Sparse,
            counting_qubits: DEFAULT_COUNTING_QUBITS,
            encoding: EncodingKind::Owners,
        }
    }
}

/// The result for one card I could lead.
#[derive(Clone, Debug, PartialEq)]
pub struct CardResult {
    /// The card.
    pub card: Card,
    /// Per distribution (in [`Analysis::deals`] order): points the defenders take in
    /// the remaining play, double-dummy.
    pub values: Vec<u32>,
    /// Per distribution: whether the outcome is favourable.
    pub favourable: Vec<bool>,
    /// Favourable distributions, read from the measured probability (p_win * N).
    pub wins: usize,
    /// <psi|P_fav|psi> measured on the backend.
    pub p_win: f64,
    /// My side's mean final points over the distributions.
    pub mean_points: f64,
    /// Simulated quantum counting, unless switched off.
    pub quantum: Option<Counting>,
}

/// One summarised stage of the circuits run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CircuitStage {
    /// Short name (A, P_fav, Grover, QFT†, ...).
    pub stage: String,
    /// What it consists of.
    pub detail: String,
}

/// A complete analysis of an endgame.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The endgame.
    pub endgame: Endgame,
    /// The consistent distributions.
    pub deals: Vec<Deal>,
    /// The backend the state ran on.
    pub backend: BackendKind,
    /// How the distributions were written into qubits.
    pub encoding: EncodingKind,
    /// Qubits of the distribution register (qubits `0..data_qubits`).
    pub data_qubits: usize,
    /// The state preparation A.
    pub preparation: Preparation,
    /// One result per card in my hand, in hand order.
    pub cards: Vec<CardResult>,
    /// Index into `cards` of the recommended card.
    pub recommendation: usize,
    /// The circuits, summarised stage by stage.
    pub circuit: Vec<CircuitStage>,
}

impl Analysis {
    /// The recommended card's result.
    pub fn recommended(&self) -> &CardResult {
        &self.cards[self.recommendation]
    }
}

/// Counts gates in a trace by name and number of controls, e.g. "2 Ry, 3 C²-X".
pub fn summarize_ops(ops: &[Op]) -> String {
    let mut counts: Vec<(String, usize)> = Vec::new();
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
        match counts.iter_mut().find(|c| c.0 == name) {
            Some(c) => c.1 += 1,
            None => counts.push((name, 1)),
        }
    }
    counts
        .iter()
        .map(|(n, k)| format!("{k} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Analyses an endgame: exact card quality per candidate, measured on the chosen
/// backend, and quantum counting beside it.
pub fn analyze(eg: &Endgame, opts: &AnalyzeOptions) -> Result<Analysis, AnalysisError> {
    let t = opts.counting_qubits;
    if t > MAX_COUNTING_QUBITS {
        return Err(EndgameError::TooLarge(format!(
            "{t} counting qubits asked for, at most {MAX_COUNTING_QUBITS}"
        ))
        .into());
    }
    let deals = enumerate(eg)?;
    let n = deals.len();
    let (data, keys) = register(opts.encoding, eg, &deals)?;
    // Refuse a dense state that would not fit before the (possibly long) solving.
    let needed = (data + t.max(1)) as u32;
    if opts.backend == BackendKind::Dense && needed > DEFAULT_DENSE_LIMIT_LOG2 {
        return Err(QuantumError::StateTooLarge {
            needed,
            limit: DEFAULT_DENSE_LIMIT_LOG2,
        }
        .into());
    }

    // Classical part: the double-dummy value of every distribution for every lead.
    let defenders: Vec<bool> = (0..eg.seats.len()).map(|s| eg.is_defender(s)).collect();
    let mut solver = Solver::new(eg.game, &defenders);
    let hands: Vec<Vec<u32>> = deals.iter().map(|d| d.hands(eg)).collect();
    let values: Vec<Vec<u32>> = eg
        .hand
        .iter()
        .map(|&c| {
            hands
                .iter()
                .map(|h| solver.value_after_lead(h, eg.me, c))
                .collect()
        })
        .collect();

    // Quantum part: the distributions in superposition over the owner registers.
    let qubits: Vec<Qubit> = (0..data as Qubit).collect();
    let prep = Preparation::uniform(&qubits, &keys);
    let flag = data as Qubit;
    let mut base = Simulator::new(
        opts.backend,
        Bits::ZERO,
        data + 1 + t,
        SEED,
        BackendOptions::default(),
    );
    prep.apply(&mut base, &[])?;
    let prep_ops = base.take_trace();
    if base.backend().branch_count() != n {
        return Err(AnalysisError::Internal(format!(
            "prepared {} branches for {n} distributions",
            base.backend().branch_count()
        )));
    }
    let mut circuit = vec![CircuitStage {
        stage: "A".into(),
        detail: format!(
            "{n} distributions on {data} {} qubits: {}",
            if opts.encoding == EncodingKind::Owners {
                "owner"
            } else {
                "index"
            },
            summarize_ops(&prep_ops)
        ),
    }];

    let mut cards = Vec::new();
    for (ci, &card) in eg.hand.iter().enumerate() {
        let favourable: Vec<bool> = values[ci].iter().map(|&v| eg.favourable(v)).collect();
        let fav_keys: Vec<u64> = keys
            .iter()
            .zip(&favourable)
            .filter(|(_, &f)| f)
            .map(|(&k, _)| k)
            .collect();
        let mut sim = base.clone();
        let p_win = measure_favourable(&mut sim, &qubits, flag, &fav_keys)?;
        let wins = (p_win * n as f64).round() as usize;
        if wins != fav_keys.len() || (p_win * n as f64 - wins as f64).abs() > 1e-6 {
            return Err(AnalysisError::Internal(format!(
                "{card}: measured p = {p_win} of {n}, but {} favourable distributions",
                fav_keys.len()
            )));
        }
        if ci == 0 {
            circuit.push(CircuitStage {
                stage: "P_fav".into(),
                detail: format!(
                    "per card: flag q{flag} set on the favourable strings, then measured ({})",
                    summarize_ops(&sim.take_trace())
                ),
            });
        }
        let quantum = if t == 0 {
            None
        } else {
            let counting: Vec<Qubit> = (0..t).map(|k| (data + 1 + k) as Qubit).collect();
            let marked: Marked = fav_keys.iter().copied().collect();
            let mut qsim = Simulator::new(
                opts.backend,
                Bits::ZERO,
                data + 1 + t,
                SEED,
                BackendOptions::default(),
            );
            let data_mask = if data == 64 {
                u64::MAX
            } else {
                (1u64 << data) - 1
            };
            let c = count(&mut qsim, &prep, data_mask, &counting, &marked, n)?;
            if ci == 0 {
                let ops = qsim.take_trace();
                circuit.push(CircuitStage {
                    stage: "Grover".into(),
                    detail: format!(
                        "G = A·S0·A†·S_f; controlled-G^(2^k) on counting qubit k for k < {t}: {} applications, one S_f oracle call each",
                        c.oracle_calls
                    ),
                });
                circuit.push(CircuitStage {
                    stage: "QPE".into(),
                    detail: format!("whole counting circuit per card: {}", summarize_ops(&ops)),
                });
                let qft = super::quantum::qft_gates(&counting);
                circuit.push(CircuitStage {
                    stage: "QFT†".into(),
                    detail: format!(
                        "inverse QFT on q{}..q{}: {} gates (H, controlled phases, swaps)",
                        counting[0],
                        counting[t - 1],
                        qft.len()
                    ),
                });
            }
            Some(c)
        };
        let mean_points = values[ci]
            .iter()
            .map(|&v| eg.my_side_points(v) as f64)
            .sum::<f64>()
            / n as f64;
        cards.push(CardResult {
            card,
            values: values[ci].clone(),
            favourable,
            wins,
            p_win,
            mean_points,
            quantum,
        });
    }

    // The most distributions won; ties go to more points for my side on average, then
    // to the earlier card in my hand.
    let mut recommendation = 0;
    for (i, c) in cards.iter().enumerate().skip(1) {
        let b = &cards[recommendation];
        if c.wins > b.wins || (c.wins == b.wins && c.mean_points > b.mean_points + 1e-9) {
            recommendation = i;
        }
    }
    Ok(Analysis {
        endgame: eg.clone(),
        deals,
        backend: opts.backend,
        encoding: opts.encoding,
        data_qubits: data,
        preparation: prep,
        cards,
        recommendation,
        circuit,
    })
}
