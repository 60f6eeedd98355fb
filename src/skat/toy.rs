//! The paper's four-card toy example (section VII.1) played through card-play (CP) and
//! trick-taking (TT) gates: two players A and B, clubs A 10 K Q, two cards each.
//!
//! Encoding (the paper's Table 4): card i has an owner qubit 3i (A = 0, B = 1) and
//! location qubits 3i+1 (table) and 3i+2 (stack): hand 00, table 10, stack 11; its
//! ancilla is qubit 12+i and marks a card taken in an earlier trick. Cards are indexed
//! in trick-taking order (strongest first), so of two cards on the table the one with
//! the lower index takes the trick. Every legal play path counts equally.

use super::analysis::CircuitStage;
use super::cards::{Card, Game, Rank, Suit};
use super::encode::Preparation;
use super::quantum::{measure_favourable, summarize_ops, OpTally};
use crate::quantum::{
    BackendKind, BackendOptions, Bits, Control, Gate, QuantumError, Qubit, Simulator,
};

/// Number of cards in the toy deck.
pub const TOY_CARDS: usize = 4;

const A: bool = false;
const B: bool = true;
const FLAG: Qubit = 16;

fn owner(i: usize) -> Qubit {
    (3 * i) as Qubit
}
fn table(i: usize) -> Qubit {
    (3 * i + 1) as Qubit
}
fn stack(i: usize) -> Qubit {
    (3 * i + 2) as Qubit
}
fn ancilla(i: usize) -> Qubit {
    (12 + i) as Qubit
}

/// The state after one phase of the toy game.
#[derive(Clone, Debug, PartialEq)]
pub struct ToyPhase {
    /// What happened ("A plays a card", ...).
    pub name: String,
    /// The paper's unitary for it.
    pub unitary: String,
    /// The gates applied, summarised.
    pub gates: String,
    /// Basis states with non-zero amplitude (card and ancilla qubits).
    pub basis_states: usize,
    /// Distinct states of the card registers (ancillas traced out): the branches the
    /// paper counts.
    pub branches: usize,
    /// Each card-register state, decoded, with its probability.
    pub states: Vec<(String, f64)>,
}

/// A final outcome: who took which cards.
#[derive(Clone, Debug, PartialEq)]
pub struct ToyOutcome {
    /// Cards on A's stack.
    pub a_stack: Vec<Card>,
    /// Cards on B's stack.
    pub b_stack: Vec<Card>,
    /// A's points.
    pub a_points: u32,
    /// Probability.
    pub probability: f64,
}

/// The whole toy run.
#[derive(Clone, Debug, PartialEq)]
pub struct ToyReport {
    /// The backend it ran on.
    pub backend: BackendKind,
    /// The cards by index (strongest first).
    pub cards: Vec<Card>,
    /// The state after each phase.
    pub phases: Vec<ToyPhase>,
    /// The final outcomes, most likely first.
    pub outcomes: Vec<ToyOutcome>,
    /// <S_A>: A's expected points.
    pub expected_a_points: f64,
    /// A's points needed to win: more than half of those in play.
    pub a_needs: u32,
    /// <P_fav>: probability that A wins, measured with a flag qubit.
    pub p_win_a: f64,
    /// The circuit, stage by stage.
    pub circuit: Vec<CircuitStage>,
}

/// The toy deck in trick-taking order: clubs A, 10, K, Q (a plain suit; the paper
/// treats every game as a spades game).
pub fn toy_cards() -> Vec<Card> {
    let game = Game::Suit(Suit::Spades);
    let mut cards: Vec<Card> = [Rank::Ace, Rank::Ten, Rank::King, Rank::Queen]
        .iter()
        .map(|&r| Card::new(Suit::Clubs, r))
        .collect();
    cards.sort_by_key(|&c| std::cmp::Reverse(game.strength(c)));
    cards
}

/// CP: `player` plays one of their `k` cards in hand, every choice in equal
/// superposition. For each k-subset S of the cards, controlled on S being the player's
/// hand (owner = player and ancilla 0 for each card of S; the player holds exactly k
/// such cards), the W state (one table qubit of S set) is prepared on S's table qubits.
fn card_play(sim: &mut Simulator, player: bool, k: usize) -> Result<(), QuantumError> {
    let subsets = (0u32..1 << TOY_CARDS).filter(|s| s.count_ones() as usize == k);
    for s in subsets {
        let members: Vec<usize> = (0..TOY_CARDS).filter(|i| s >> i & 1 == 1).collect();
        let hand: Vec<Control> = members
            .iter()
            .flat_map(|&i| {
                [
                    Control::Bit(owner(i), player),
                    Control::Bit(ancilla(i), false),
                ]
            })
            .collect();
        let targets: Vec<Qubit> = members.iter().map(|&i| table(i)).collect();
        let w: Vec<u64> = (0..k).map(|j| 1 << j).collect();
        Preparation::uniform(&targets, &w).apply(sim, &hand)?;
    }
    Ok(())
}

/// TT: for each pair i < j of cards both on the table in this trick (table 1, ancilla
/// 0), the owner qubit of j is flipped to i's (the two belong to different players, and
/// i is the stronger card), and both stack qubits are set.
fn trick_taking(sim: &mut Simulator) -> Result<(), QuantumError> {
    for i in 0..TOY_CARDS {
        for j in i + 1..TOY_CARDS {
            let on_table = [
                Control::Bit(table(i), true),
                Control::Bit(ancilla(i), false),
                Control::Bit(table(j), true),
                Control::Bit(ancilla(j), false),
            ];
            sim.apply(Gate::X, &[owner(j)], &on_table)?;
            sim.apply(Gate::X, &[stack(i)], &on_table)?;
            sim.apply(Gate::X, &[stack(j)], &on_table)?;
        }
    }
    Ok(())
}

fn decode(cards: &[Card], b: &Bits) -> String {
    (0..TOY_CARDS)
        .map(|i| {
            let who = if b.get(owner(i) as usize) { 'B' } else { 'A' };
            let place = match (b.get(table(i) as usize), b.get(stack(i) as usize)) {
                (false, _) => "hand",
                (true, false) => "table",
                (true, true) => "stack",
            };
            format!("{}:{who}-{place}", cards[i])
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn snapshot(sim: &mut Simulator, cards: &[Card], name: &str, unitary: &str) -> ToyPhase {
    let gates = summarize_ops(&sim.take_trace());
    let branches = sim.backend().branches();
    let card_mask = Bits::from_qubits(0..3 * TOY_CARDS);
    let mut states: Vec<(Bits, f64)> = Vec::new();
    for (b, a) in &branches {
        let key = b.and(&card_mask);
        match states.iter_mut().find(|s| s.0 == key) {
            Some(s) => s.1 += a.norm_sqr(),
            None => states.push((key, a.norm_sqr())),
        }
    }
    states.sort_by_key(|s| s.0);
    ToyPhase {
        name: name.to_string(),
        unitary: unitary.to_string(),
        gates,
        basis_states: branches.len(),
        branches: states.len(),
        states: states.iter().map(|(b, p)| (decode(cards, b), *p)).collect(),
    }
}

/// Runs the four-card example on `backend`.
pub fn run_toy(backend: BackendKind) -> Result<ToyReport, QuantumError> {
    let cards = toy_cards();
    let mut sim = Simulator::new(backend, Bits::ZERO, 17, 0x70e, BackendOptions::default());
    let mut phases = Vec::new();

    // U_ini: the six ways to give B two of the four cards, in equal superposition.
    let owners: Vec<Qubit> = (0..TOY_CARDS).map(owner).collect();
    let deals: Vec<u64> = (0u64..1 << TOY_CARDS)
        .filter(|s| s.count_ones() == 2)
        .collect();
    Preparation::uniform(&owners, &deals).apply(&mut sim, &[])?;
    phases.push(snapshot(&mut sim, &cards, "initial distributions", "U_ini"));

    for round in 0..2 {
        let k = 2 - round;
        card_play(&mut sim, A, k)?;
        phases.push(snapshot(
            &mut sim,
            &cards,
            &format!("trick {}: A plays", round + 1),
            &format!("U^A_{k} = CP_{k}^4"),
        ));
        card_play(&mut sim, B, k)?;
        phases.push(snapshot(
            &mut sim,
            &cards,
            &format!("trick {}: B plays", round + 1),
            &format!("U^B_{k} = CP_{k}^4"),
        ));
        trick_taking(&mut sim)?;
        phases.push(snapshot(
            &mut sim,
            &cards,
            &format!("trick {}: taken", round + 1),
            "TT_2",
        ));
        if round == 0 {
            // The paper updates the ancillas once, after the first trick.
            for i in 0..TOY_CARDS {
                sim.apply(Gate::X, &[ancilla(i)], &[Control::Bit(stack(i), true)])?;
            }
            phases.push(snapshot(
                &mut sim,
                &cards,
                "ancillas updated",
                "CNOT stack -> ancilla",
            ));
        }
    }

    // Outcomes and the score operator S_A.
    let final_states = sim.backend().branches();
    let mut outcomes: Vec<ToyOutcome> = Vec::new();
    for (b, a) in &final_states {
        let a_stack: Vec<Card> = (0..TOY_CARDS)
            .filter(|&i| !b.get(owner(i) as usize))
            .map(|i| cards[i])
            .collect();
        let p = a.norm_sqr();
        match outcomes.iter_mut().find(|o| o.a_stack == a_stack) {
            Some(o) => o.probability += p,
            None => outcomes.push(ToyOutcome {
                b_stack: cards
                    .iter()
                    .copied()
                    .filter(|c| !a_stack.contains(c))
                    .collect(),
                a_points: a_stack.iter().map(|c| c.points()).sum(),
                a_stack,
                probability: p,
            }),
        }
    }
    outcomes.sort_by(|x, y| {
        y.probability
            .total_cmp(&x.probability)
            .then(y.a_points.cmp(&x.a_points))
    });
    let expected_a_points = (0..TOY_CARDS)
        .map(|i| (1.0 - sim.backend().probability(owner(i))) * cards[i].points() as f64)
        .sum();

    // P_fav: A has more than half the points in play.
    let total: u32 = cards.iter().map(|c| c.points()).sum();
    let a_needs = total / 2 + 1;
    let favourable: Vec<u64> = (0u64..1 << TOY_CARDS)
        .filter(|s| {
            let a: u32 = (0..TOY_CARDS)
                .filter(|i| s >> i & 1 == 0)
                .map(|i| cards[i].points())
                .sum();
            a >= a_needs
        })
        .collect();
    let mut tally = OpTally::default();
    let p_win_a = measure_favourable(
        &mut sim,
        &owners,
        FLAG,
        &favourable,
        &mut tally,
        &mut |_| true,
    )?
    .expect("a tick that never stops");
    let measure_ops = tally.to_string();

    let mut circuit: Vec<CircuitStage> = phases
        .iter()
        .map(|p| CircuitStage {
            stage: p.unitary.clone(),
            detail: format!("{}: {}", p.name, p.gates),
        })
        .collect();
    circuit.push(CircuitStage {
        stage: "P_fav".into(),
        detail: format!("flag q{FLAG} on A's winning owner strings, measured: {measure_ops}"),
    });
    Ok(ToyReport {
        backend,
        cards,
        phases,
        outcomes,
        expected_a_points,
        a_needs,
        p_win_a,
        circuit,
    })
}
