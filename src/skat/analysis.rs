//! Card quality for an endgame: every consistent distribution solved double-dummy for
//! each card I could lead, the distributions put in superposition on a simulator
//! backend, the favourable projector measured per card, and quantum counting simulated
//! beside the exact count.

use super::budget::{Allowance, Estimate, Meter, Plan, Stage, Watch};
use super::cards::Card;
use super::deal::{enumerate, Deal};
use super::encode::{register, EncodingKind, Preparation};
use super::endgame::{Endgame, EndgameError};
use super::quantum::{count, measure_favourable, Counting, Marked, OpTally};
use super::solve::{Solver, Stop, TABLE_ENTRY_BYTES};
use crate::quantum::{
    BackendKind, BackendOptions, Bits, QuantumError, Qubit, Simulator, DEFAULT_DENSE_LIMIT_LOG2,
};

pub use super::quantum::summarize_ops;

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
    /// The analysis would take more time or memory than allowed.
    #[error("too much work: {estimate} (the limits are {} and {}); add constraints or use fewer cards, --encoding index or fewer --counting-qubits, or --no-limit to run it anyway", super::budget::duration_words(limits.seconds as f64), super::budget::bytes_words(limits.bytes))]
    TooMuchWork {
        /// What it would take.
        estimate: Estimate,
        /// What was allowed.
        limits: Allowance,
    },
    /// The caller set the cancel flag.
    #[error("the analysis was cancelled")]
    Cancelled,
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
    /// What the analysis may cost; `None` runs anything (`--no-limit`).
    pub limits: Option<Allowance>,
}

impl Default for AnalyzeOptions {
    fn default() -> Self {
        AnalyzeOptions {
            backend: BackendKind::Sparse,
            counting_qubits: DEFAULT_COUNTING_QUBITS,
            encoding: EncodingKind::Owners,
            limits: Some(Allowance::DEFAULT),
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
    /// What the run was expected to cost (with the solver's real work).
    pub estimate: Estimate,
}

impl Analysis {
    /// The recommended card's result.
    pub fn recommended(&self) -> &CardResult {
        &self.cards[self.recommendation]
    }
}

/// Analyses an endgame: exact card quality per candidate, measured on the chosen
/// backend, and quantum counting beside it. Refused with
/// [`AnalysisError::TooMuchWork`] when it would exceed `opts.limits`; see
/// [`analyze_watched`] to follow its progress or cancel it.
pub fn analyze(eg: &Endgame, opts: &AnalyzeOptions) -> Result<Analysis, AnalysisError> {
    analyze_watched(eg, opts, &Watch::default())
}

/// Distributions whose solving the projection of the solver's work is made from: the
/// first 1/32 of them.
const PROBE_SHARE: usize = 32;

/// [`analyze`], reporting progress to `watch.progress` and stopping with
/// [`AnalysisError::Cancelled`] soon after `watch.cancel` is set.
///
/// The work is estimated before each long stage (see [`super::budget`]): the memory and
/// the quantum stages before anything runs, the solver's share from the first 1/32 of the
/// distributions (which stop early once they alone use up their share of the limit).
/// Whatever is refused is refused within about 1/32 of the time limit.
pub fn analyze_watched(
    eg: &Endgame,
    opts: &AnalyzeOptions,
    watch: &Watch,
) -> Result<Analysis, AnalysisError> {
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
    let cards_n = eg.hand.len();
    let table_bits = table_bits(n * cards_n);
    let mut plan = Plan {
        backend: opts.backend,
        n,
        cards: cards_n,
        unknown: eg.unknown.len(),
        data,
        t,
        prep_gates: 0,
        table_bytes: TABLE_ENTRY_BYTES << table_bits,
    };
    let refuse =
        |estimate: Estimate, limits: Allowance| AnalysisError::TooMuchWork { estimate, limits };
    // Before anything runs: the memory, then (with the preparation's size) the quantum
    // stages, every distribution counted as favourable.
    let over = |e: &Estimate, l: &Allowance| e.bytes > l.bytes || e.seconds > l.seconds as f64;
    if let Some(limits) = opts.limits {
        // Without the preparation (and the solver) the time is a lower bound.
        let estimate = plan.estimate(0, n * cards_n, true);
        if estimate.bytes > limits.bytes {
            return Err(refuse(estimate, limits));
        }
    }
    let qubits: Vec<Qubit> = (0..data as Qubit).collect();
    let prep = Preparation::uniform(&qubits, &keys);
    plan.prep_gates = prep.gates.len();
    let mut estimate = plan.estimate(0, n * cards_n, false);
    if let Some(limits) = opts.limits {
        if over(&estimate, &limits) {
            return Err(refuse(estimate, limits));
        }
    }
    let mut meter = Meter::new(watch, estimate);
    meter.weigh(1.0, plan.measure_seconds(n * cards_n), plan.count_seconds());

    // Classical part: the double-dummy value of every distribution for every lead.
    let defenders: Vec<bool> = (0..eg.seats.len()).map(|s| eg.is_defender(s)).collect();
    let mut solver = Solver::with_table_bits(eg.game, &defenders, table_bits);
    let probe = n.div_ceil(PROBE_SHARE);
    let allowance = opts.limits.map(|l| plan.solver_allowance(&l));
    solver.set_stop(Stop {
        node_budget: allowance.map(|a| (a as u128 * probe as u128 / n as u128) as u64),
        cancel: watch.cancel.clone(),
    });
    let mut values = vec![vec![0u32; n]; cards_n];
    meter.stage(Stage::Solving, n as u64);
    for (di, deal) in deals.iter().enumerate() {
        let hands = deal.hands(eg);
        for (ci, &card) in eg.hand.iter().enumerate() {
            match solver.try_value_after_lead(&hands, eg.me, card) {
                Some(v) => values[ci][di] = v,
                None if meter.cancelled() => return Err(AnalysisError::Cancelled),
                None => {
                    // The probe alone used up its share: the whole is over the limit.
                    let projected = solver.nodes() * n as u64 / (di as u64 + 1);
                    let limits = opts.limits.unwrap_or_default();
                    return Err(refuse(plan.estimate(projected, n * cards_n, true), limits));
                }
            }
        }
        if di + 1 == probe {
            let projected = solver.nodes() * n as u64 / probe as u64;
            estimate = plan.estimate(projected, n * cards_n, false);
            if let Some(limits) = opts.limits {
                if estimate.seconds > limits.seconds as f64 {
                    return Err(refuse(estimate, limits));
                }
            }
            solver.set_stop(Stop {
                node_budget: None,
                cancel: watch.cancel.clone(),
            });
            meter.estimate = estimate;
            meter.weigh(
                Plan::solve_seconds(projected),
                plan.measure_seconds(n * cards_n),
                plan.count_seconds(),
            );
        }
        if !meter.step(1) {
            return Err(AnalysisError::Cancelled);
        }
    }
    let favourable: Vec<Vec<bool>> = values
        .iter()
        .map(|v| v.iter().map(|&x| eg.favourable(x)).collect())
        .collect();
    let marked: usize = favourable.iter().flatten().filter(|&&f| f).count();
    estimate = plan.estimate(solver.nodes(), marked, false);
    meter.estimate = estimate;
    meter.weigh(
        Plan::solve_seconds(solver.nodes()),
        plan.measure_seconds(marked),
        plan.count_seconds(),
    );

    // Quantum part: the distributions in superposition over the owner registers.
    let flag = data as Qubit;
    let mut base = Simulator::new(
        opts.backend,
        Bits::ZERO,
        data + 1 + t,
        SEED,
        BackendOptions::default(),
    );
    prep.apply(&mut base, &[])?;
    let mut prep_tally = OpTally::default();
    prep_tally.drain(&mut base);
    if base.backend().branch_count() != n {
        return Err(AnalysisError::Internal(format!(
            "prepared {} branches for {n} distributions",
            base.backend().branch_count()
        )));
    }
    let mut circuit = vec![CircuitStage {
        stage: "A".into(),
        detail: format!(
            "{n} distributions on {data} {} qubits: {prep_tally}",
            if opts.encoding == EncodingKind::Owners {
                "owner"
            } else {
                "index"
            },
        ),
    }];

    meter.stage(Stage::Measuring, marked as u64);
    let mut p_wins = Vec::with_capacity(cards_n);
    for (ci, &card) in eg.hand.iter().enumerate() {
        let fav_keys: Vec<u64> = keys
            .iter()
            .zip(&favourable[ci])
            .filter(|(_, &f)| f)
            .map(|(&k, _)| k)
            .collect();
        let mut sim = base.clone();
        let mut tally = OpTally::default();
        let p_win = measure_favourable(&mut sim, &qubits, flag, &fav_keys, &mut tally, &mut |k| {
            meter.step(k)
        })?
        .ok_or(AnalysisError::Cancelled)?;
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
                    "per card: flag q{flag} set on the favourable strings, then measured ({tally})"
                ),
            });
        }
        p_wins.push((p_win, wins, fav_keys));
    }

    meter.stage(Stage::Counting, (cards_n as u64) << t);
    let mut cards = Vec::new();
    for (ci, ((&card, (p_win, wins, fav_keys)), favourable)) in
        eg.hand.iter().zip(p_wins).zip(favourable).enumerate()
    {
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
            let mut tally = OpTally::default();
            let c = count(
                &mut qsim,
                &prep,
                data_mask,
                &counting,
                &marked,
                n,
                &mut tally,
                &mut |k| meter.step(k),
            )?
            .ok_or(AnalysisError::Cancelled)?;
            if ci == 0 {
                circuit.push(CircuitStage {
                    stage: "Grover".into(),
                    detail: format!(
                        "G = A·S0·A†·S_f; controlled-G^(2^k) on counting qubit k for k < {t}: {} applications, one S_f oracle call each",
                        c.oracle_calls
                    ),
                });
                circuit.push(CircuitStage {
                    stage: "QPE".into(),
                    detail: format!("whole counting circuit per card: {tally}"),
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
        estimate,
    })
}

/// The solver's table for `solves` double-dummy solves: 2^12 to 2^22 entries (96 KiB to
/// 96 MiB), about 64 per solve.
fn table_bits(solves: usize) -> u32 {
    let want = (solves as u64).saturating_mul(64).max(1);
    (u64::BITS - want.leading_zeros()).clamp(12, 22)
}
