//! The prover: the exact value of a puzzle by a full-width expectimax.
//!
//! Every legal move of the side to move is tried (splits in both target orders and
//! merges in both source orders, as [`legal_moves`] lists them), and both outcomes of
//! every measurement, each on a copy of the game with the outcome forced
//! ([`Game::after`]). The solver (the side to move at the start) takes the move of
//! highest value, the defender the move of lowest value (best defence), and a
//! measurement is worth `p1 v1 + p0 v0` with the outcome probabilities the simulator
//! gives. The values at the horizon and of ended games are the goal's
//! ([`Goal::value`]).
//!
//! Three savings keep the value exact:
//!
//! * **Alpha-beta on values in [0, 1]**, with star1 bounds at measurements: a node is
//!   searched within a window (alpha, beta) and its result `v` says the true value `V`
//!   is `<= v` when `v <= alpha`, `>= v` when `v >= beta`, and `= v` otherwise. A
//!   decision node stops once it holds a move at or beyond beta: the opponent one level
//!   up already has a better choice, whatever the rest are worth. At a measurement,
//!   once outcome 1 is known to be worth `v1`, the move lies in `[p1 v1, p1 v1 + p0]`
//!   (every value is in [0, 1]); outcome 1 is searched in the window that makes this
//!   test exact, and outcome 0 is skipped when the interval is outside the window. The
//!   first moves are all searched with the full window, so each has its exact value.
//! * **A transposition table** for the positions one move after the root (the first
//!   moves' children, reached twice by a split in both orders, a merge from both
//!   sources, or two moves to one state), keyed by [`Game::state_hash`], holding what is
//!   known of a position's value as an interval. A hit is used only when the stored
//!   state is the same: the same register, side to move and rights, and a quantum
//!   state equal up to a global phase ([`Signature::matches`]: amplitudes equal to
//!   about 1e-9; unequal states almost never match). Only there is the future of a
//!   position the same whatever the path: its past is the root's and its own, so the
//!   repetition count and the 50-move counter agree; deeper, two paths to one state
//!   have passed through different positions, which repetition would count.
//! * **Quiet last moves are played once**: at the solver's last move of a king or queen
//!   task, a move that does not measure takes nothing, so it is worth what the position
//!   holds already, or 0 when it ends the game in a draw; once one such move (or a
//!   measuring one) is worth that much, the others cannot raise the maximum and are
//!   not played.
//!
//! Nothing is cut by a heuristic: no move ordering, reduction or evaluation changes a
//! value, only how soon the windows close.

use super::goal::{Goal, Task};
use crate::chess::board::{Castling, Register};
use crate::chess::classify::Variant;
use crate::chess::movegen::legal_moves;
use crate::chess::{Classified, Color, Game, Kind, MoveError, MoveText, Shape, Square, Status};
use crate::quantum::{QuantumError, Signature};
use std::collections::HashMap;

/// Two values closer than this are the same value (ties between first moves).
pub const TIE: f64 = 1e-9;

/// The longest task a proof takes, in moves.
pub const MAX_MOVES: u32 = 3;

/// Why a position could not be proved.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ProveError {
    /// The game has ended.
    #[error("the game is over: there is nothing to prove")]
    GameOver,
    /// The side to move has no legal move.
    #[error("the side to move has no legal move")]
    NoMoves,
    /// N out of range.
    #[error("a puzzle is 1 to {MAX_MOVES} moves long, not {0}")]
    Length(u32),
    /// The queen goal without a queen to win.
    #[error("the defender has no queen to win")]
    NoQueen,
    /// A move was refused by the simulator (a size limit).
    #[error("a move could not be played: {0}")]
    Move(#[from] MoveError),
    /// The proof took more nodes than it was allowed.
    #[error("the proof needs more than {0} positions")]
    TooLarge(u64),
}

/// A first move and its exact value against best defence.
#[derive(Clone, Debug, PartialEq)]
pub struct Scored {
    /// The move, canonical, without an outcome.
    pub mv: String,
    /// Its value.
    pub value: f64,
}

/// What a proof found.
#[derive(Clone, Debug, PartialEq)]
pub struct Proof {
    /// The optimum: the value the solver can reach whatever the defence.
    pub value: f64,
    /// Every first move that reaches it (within [`TIE`]).
    pub best: Vec<String>,
    /// The principal line from the first of `best`: best play by both sides, each
    /// measured move with its likelier outcome (`.m1` or `.m0`; none where it was
    /// certain).
    pub line: Vec<String>,
    /// Every first move with its value, best first (ties in the order moves are listed).
    pub first_moves: Vec<Scored>,
    /// Positions the proof played (calls of [`Game::after`]).
    pub nodes: u64,
}

impl Proof {
    /// The best value of a first move that is not one of `best`; `None` when every first
    /// move is one of them.
    pub fn second(&self) -> Option<f64> {
        self.first_moves
            .iter()
            .find(|s| !self.best.contains(&s.mv))
            .map(|s| s.value)
    }

    /// How many different answers reach the optimum: a split or merge written in both
    /// orders is one answer.
    pub fn answers(&self) -> usize {
        let mut keys: Vec<MoveText> = Vec::new();
        for b in &self.best {
            if let Ok(t) = crate::chess::notation::parse(b) {
                let k = answer_key(&t);
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
        }
        keys.len()
    }
}

/// A move with its split targets or merge sources in one order (the lower square
/// first) and no outcome: two moves with the same key are the same answer.
pub fn answer_key(t: &MoveText) -> MoveText {
    let shape = match t.shape {
        Shape::Split { from, to1, to2 } => Shape::Split {
            from,
            to1: to1.min(to2),
            to2: to1.max(to2),
        },
        Shape::Merge { from1, from2, to } => Shape::Merge {
            from1: from1.min(from2),
            from2: from1.max(from2),
            to,
        },
        s => s,
    };
    MoveText {
        shape,
        outcome: None,
        piece: None,
        ..*t
    }
}

/// Proves `task` from `game` (the solver is the side to move): the optimum, the best
/// first moves, the line and every first move's value.
pub fn prove(game: &Game, task: Task) -> Result<Proof, ProveError> {
    prove_within(game, task, None)
}

/// [`prove`], giving up with [`ProveError::TooLarge`] after `limit` positions.
pub fn prove_within(game: &Game, task: Task, limit: Option<u64>) -> Result<Proof, ProveError> {
    check(game, task)?;
    let plies = task.plies();
    let mut p = Prover::new(task.goal, game.to_move(), plies, limit);
    let moves = p.ordered(game);
    if moves.is_empty() {
        return Err(ProveError::NoMoves);
    }
    let mut first_moves = Vec::with_capacity(moves.len());
    for m in &moves {
        let value = p.chance(game, m, plies, OPEN.0, OPEN.1)?;
        first_moves.push(Scored {
            mv: m.text.to_string(),
            value,
        });
    }
    // Stable: equal values keep the order of the list.
    first_moves.sort_by(|a, b| b.value.total_cmp(&a.value));
    let value = first_moves[0].value;
    let best: Vec<String> = first_moves
        .iter()
        .filter(|s| s.value >= value - TIE)
        .map(|s| s.mv.clone())
        .collect();
    let first = moves
        .iter()
        .find(|m| m.text.to_string() == best[0])
        .copied()
        .expect("the best move is one of the moves");
    let line = p.line(game, first, plies)?;
    Ok(Proof {
        value,
        best,
        line,
        first_moves,
        nodes: p.nodes,
    })
}

/// The optimum of `task` from `game` alone, without each first move's value (a search
/// that stops looking at first moves as soon as the others cannot beat the best), giving
/// up with [`ProveError::TooLarge`] after `limit` positions.
pub fn optimum_within(game: &Game, task: Task, limit: Option<u64>) -> Result<f64, ProveError> {
    check(game, task)?;
    let plies = task.plies();
    let mut p = Prover::new(task.goal, game.to_move(), plies, limit);
    if p.ordered(game).is_empty() {
        return Err(ProveError::NoMoves);
    }
    p.node(game, plies, OPEN.0, OPEN.1)
}

/// The defender's best reply in `game` (the defender to move), `plies` plies before the
/// horizon of a puzzle with `goal`: a move that holds the solver to the least (the
/// first such in the prover's order: captures of a king, other measuring moves, king
/// moves, the rest). `None` when the game is over, the defender has no
/// move, or the horizon is reached.
pub fn defence(game: &Game, goal: Goal, plies: u32) -> Result<Option<String>, ProveError> {
    Ok(best_of(game, goal, game.to_move().opposite(), plies)?.map(|(mv, _)| mv))
}

/// The solver's best move in `game` (the solver to move), `plies` plies before the
/// horizon of a puzzle with `goal`, with the exact value it reaches against the best
/// defence: the proved answer a hint gives. `None` as for [`defence`].
pub fn best_move(game: &Game, goal: Goal, plies: u32) -> Result<Option<(String, f64)>, ProveError> {
    best_of(game, goal, game.to_move(), plies)
}

/// The move the side to move chooses, `plies` before the horizon, where `solver` is
/// the side the goal is for, and the position's exact value.
fn best_of(
    game: &Game,
    goal: Goal,
    solver: crate::chess::Color,
    plies: u32,
) -> Result<Option<(String, f64)>, ProveError> {
    if plies == 0 || game.status() != Status::Ongoing {
        return Ok(None);
    }
    let mut p = Prover::new(goal, solver, plies, None);
    let v = p.node(game, plies, OPEN.0, OPEN.1)?;
    Ok(p.choose(game, plies, v)?.map(|m| (m.text.to_string(), v)))
}

/// How a move of the solver's compares with the best one.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// The move judged, canonical.
    pub mv: String,
    /// Its exact value against best defence.
    pub value: f64,
    /// The optimum.
    pub best_value: f64,
    /// A move that reaches the optimum (the move judged when it does).
    pub best: String,
    /// The value of the position before the move: for a goal of taking, how much of
    /// the piece was gone already.
    pub start: f64,
    /// The goal, for the words.
    pub goal: Goal,
}

impl Judgement {
    /// True when the move reaches the optimum (within [`TIE`]).
    pub fn optimal(&self) -> bool {
        self.value >= self.best_value - TIE
    }
}

impl std::fmt::Display for Judgement {
    /// "your line captures the king with 50%; the best captures it with 75%: c3xd5 first";
    /// when part of the piece to take was gone before the move, what each line adds:
    /// "your line adds nothing to the 16% of the queen gone already; the best adds 59%
    /// (75% in all): e1xe8 first".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pc = |v: f64| format!("{}%", crate::format::percent(v));
        let piece = match self.goal {
            Goal::King => Some("king"),
            Goal::Queen => Some("queen"),
            Goal::Survive => None,
        };
        if let Some(piece) = piece.filter(|_| self.start > TIE) {
            let gained = |v: f64| (v - self.start).max(0.0);
            let yours = if gained(self.value) <= TIE {
                "adds nothing".to_string()
            } else {
                format!("adds {}", pc(gained(self.value)))
            };
            let gone = pc(self.start);
            return if self.optimal() {
                write!(
                    f,
                    "your line {yours} to the {gone} of the {piece} gone already ({} in all): the best there is",
                    pc(self.value)
                )
            } else {
                write!(
                    f,
                    "your line {yours} to the {gone} of the {piece} gone already; the best adds {} ({} in all): {} first",
                    pc(gained(self.best_value)),
                    pc(self.best_value),
                    self.best
                )
            };
        }
        let (yours, best) = match self.goal {
            Goal::King => ("captures the king with", "captures it with"),
            Goal::Queen => ("wins the queen with", "wins it with"),
            Goal::Survive => ("keeps your king with", "keeps it with"),
        };
        if self.optimal() {
            write!(f, "your line {yours} {}: the best there is", pc(self.value))
        } else {
            write!(
                f,
                "your line {yours} {}; the best {best} {}: {} first",
                pc(self.value),
                pc(self.best_value),
                self.best
            )
        }
    }
}

/// Judges the solver's move `input` (any notation the game reads) in `game`, the
/// solver to move `plies` plies before the horizon: its exact value against best
/// defence, and the optimum.
pub fn judge(game: &Game, goal: Goal, plies: u32, input: &str) -> Result<Judgement, JudgeError> {
    judge_knowing(game, goal, plies, input, None)
}

/// [`judge`], with the optimum of `game` and a move that reaches it already known (a
/// puzzle's proved value and answer): only the move judged is searched.
pub fn judge_knowing(
    game: &Game,
    goal: Goal,
    plies: u32,
    input: &str,
    known: Option<(f64, &str)>,
) -> Result<Judgement, JudgeError> {
    if game.status() != Status::Ongoing {
        return Err(ProveError::GameOver.into());
    }
    let text = game.read(input)?;
    let plies = plies.max(1);
    let mut p = Prover::new(goal, game.to_move(), plies, None);
    let moves = p.ordered(game);
    let find = |text: &MoveText| {
        let key = answer_key(text);
        moves.iter().find(|m| answer_key(&m.text) == key).copied()
    };
    let Some(chosen) = find(&text) else {
        return Err(JudgeError::Illegal(input.trim().to_string()));
    };
    let known = known.and_then(|(v, mv)| Some((v, find(&game.read(mv).ok()?)?)));
    // The known answer itself is worth the optimum: nothing to search.
    let value = match known {
        Some((v, best)) if best.text == chosen.text => v,
        _ => p.chance(game, &chosen, plies, OPEN.0, OPEN.1)?,
    };
    let best_value = match known {
        Some((v, _)) => v,
        None => p.node(game, plies, OPEN.0, OPEN.1)?,
    }
    .max(value);
    let best = match known {
        _ if value >= best_value - TIE => chosen,
        Some((_, best)) => best,
        None => p.choose(game, plies, best_value)?.unwrap_or(chosen),
    };
    Ok(Judgement {
        mv: chosen.text.to_string(),
        value,
        best_value,
        best: best.text.to_string(),
        start: goal.value(game, game.to_move()),
        goal,
    })
}

/// Why a move could not be judged.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum JudgeError {
    /// Not a move in any notation, or refused by the rules.
    #[error("{0}")]
    Move(#[from] MoveError),
    /// A move the side to move cannot play.
    #[error("\"{0}\" is not a legal move here")]
    Illegal(String),
    /// The proof failed.
    #[error("{0}")]
    Prove(#[from] ProveError),
}

/// The window that makes every value exact (values lie in [0, 1]).
const OPEN: (f64, f64) = (-1.0, 2.0);

/// Checks that `task` can be proved from `game`.
fn check(game: &Game, task: Task) -> Result<(), ProveError> {
    if !(1..=MAX_MOVES).contains(&task.moves) {
        return Err(ProveError::Length(task.moves));
    }
    if game.status() != Status::Ongoing {
        return Err(ProveError::GameOver);
    }
    if task.goal == Goal::Queen && super::goal::queens(game, game.to_move().opposite()) <= 0.0 {
        return Err(ProveError::NoQueen);
    }
    Ok(())
}

/// What is known of a node's value, and the state it belongs to.
#[derive(Clone, Debug)]
struct Entry {
    register: Register,
    to_move: Color,
    castling: Castling,
    en_passant: Option<Square>,
    signature: Signature,
    /// The value lies in [low, high].
    low: f64,
    high: f64,
}

impl Entry {
    fn same_state(&self, g: &Game) -> bool {
        let st = g.state();
        self.register == st.register
            && self.to_move == st.to_move
            && self.castling == st.castling
            && self.en_passant == st.en_passant
            && self.signature.matches(&g.simulator().backend().signature())
    }
}

/// One search, from a root `plies` plies before the horizon.
struct Prover {
    goal: Goal,
    solver: Color,
    plies: u32,
    nodes: u64,
    limit: Option<u64>,
    /// The positions one move after the root, by [`Game::state_hash`].
    table: HashMap<u64, Entry>,
}

impl Prover {
    fn new(goal: Goal, solver: Color, plies: u32, limit: Option<u64>) -> Prover {
        Prover {
            goal,
            solver,
            plies,
            nodes: 0,
            limit,
            table: HashMap::new(),
        }
    }

    /// Plays `m` with `outcome` forced; `None` when that outcome cannot happen.
    fn play(
        &mut self,
        g: &Game,
        m: &Classified,
        outcome: Option<bool>,
    ) -> Result<Option<(Game, Option<f64>)>, ProveError> {
        self.nodes += 1;
        if let Some(limit) = self.limit.filter(|&l| self.nodes > l) {
            return Err(ProveError::TooLarge(limit));
        }
        let mut text = m.text;
        text.outcome = outcome;
        match g.after(&text) {
            Ok(child) => Ok(Some(child)),
            Err(MoveError::Quantum(QuantumError::ImpossibleOutcome { .. })) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// The likelier child of `m` (outcome 1 on a tie), with the outcome when the move
    /// measured and either could happen (a certain one is not written, as the notation
    /// writes none).
    fn likelier(&mut self, g: &Game, m: &Classified) -> Result<(Game, Option<bool>), ProveError> {
        if !m.measures() {
            let (child, _) = self
                .play(g, m, None)?
                .expect("a move that does not measure");
            return Ok((child, None));
        }
        let went_on = self.play(g, m, Some(true))?;
        let certain = match went_on {
            Some((child, p1)) if p1.is_none_or(|p| p >= 1.0) => return Ok((child, None)),
            Some((child, Some(p))) if p >= 0.5 => return Ok((child, Some(true))),
            Some(_) => false,
            None => true,
        };
        let (child, _) = self
            .play(g, m, Some(false))?
            .expect("one outcome can happen");
        Ok((child, (!certain).then_some(false)))
    }

    /// The value of move `m` from `g`, `left` plies before the horizon (the move is one
    /// of them), within the window (alpha, beta).
    fn chance(
        &mut self,
        g: &Game,
        m: &Classified,
        left: u32,
        alpha: f64,
        beta: f64,
    ) -> Result<f64, ProveError> {
        if !m.measures() {
            let (child, _) = self
                .play(g, m, None)?
                .expect("a move that does not measure");
            return self.node(&child, left - 1, alpha, beta);
        }
        let first = self.play(g, m, Some(true))?;
        let p1 = first.as_ref().map_or(0.0, |(_, p)| p.unwrap_or(1.0));
        let c1 = match first {
            Some((c, _)) if p1 >= 1.0 => return self.node(&c, left - 1, alpha, beta),
            Some((c, _)) => c,
            None => {
                let (c0, _) = self
                    .play(g, m, Some(false))?
                    .expect("one outcome can happen");
                return self.node(&c0, left - 1, alpha, beta);
            }
        };
        let p0 = 1.0 - p1;
        // Outcome 1 within the window where the move's interval [p1 v1, p1 v1 + p0]
        // decides the test against (alpha, beta).
        let a1 = (alpha - p0) / p1;
        let b1 = beta / p1;
        if a1 >= 1.0 {
            return Ok(1.0f64.min(p1 + p0));
        }
        if b1 <= 0.0 {
            return Ok(0.0);
        }
        let (a1, b1) = (a1.max(0.0), b1.min(1.0));
        let v1 = self.node(&c1, left - 1, a1, b1)?;
        if v1 <= a1 && a1 > 0.0 {
            return Ok(p1 * v1 + p0);
        }
        if v1 >= b1 && b1 < 1.0 {
            return Ok(p1 * v1);
        }
        let a0 = (alpha - p1 * v1) / p0;
        let b0 = (beta - p1 * v1) / p0;
        if a0 >= 1.0 {
            return Ok(p1 * v1 + p0);
        }
        if b0 <= 0.0 {
            return Ok(p1 * v1);
        }
        let (c0, _) = self.play(g, m, Some(false))?.expect("p1 < 1");
        let v0 = self.node(&c0, left - 1, a0.max(0.0), b0.min(1.0))?;
        Ok(p1 * v1 + p0 * v0)
    }

    /// The value of `g` with `left` plies to the horizon, within (alpha, beta).
    fn node(&mut self, g: &Game, left: u32, alpha: f64, beta: f64) -> Result<f64, ProveError> {
        if left == 0 || g.status() != Status::Ongoing {
            return Ok(self.goal.value(g, self.solver));
        }
        // Only the root's children share their past (the root's and their own
        // positions, which repetition counts) whatever the path: the table holds them.
        let key = (left + 1 == self.plies).then(|| g.state_hash());
        if let Some(e) = key
            .and_then(|k| self.table.get(&k))
            .filter(|e| e.same_state(g))
        {
            if e.low >= beta || e.low == e.high {
                return Ok(e.low);
            }
            if e.high <= alpha {
                return Ok(e.high);
            }
        }
        let moves = self.ordered(g);
        if moves.is_empty() {
            return Ok(self.goal.value(g, self.solver));
        }
        let max = g.to_move() == self.solver;
        // The solver's last move, taking a king or queen: a move that does not measure
        // takes nothing, so it is worth what the position holds now (`held`), or 0 when
        // it draws. Once a move is worth `held`, the other quiet moves change nothing.
        let held = (max && left == 1 && self.goal != Goal::Survive)
            .then(|| self.goal.value(g, self.solver));
        let (mut a, mut b) = (alpha, beta);
        let mut best = if max { 0.0 } else { 1.0 };
        for m in &moves {
            if held.is_some_and(|h| !m.measures() && best >= h) {
                continue;
            }
            let v = self.chance(g, m, left, a, b)?;
            if max {
                best = f64::max(best, v);
                a = a.max(best);
            } else {
                best = f64::min(best, v);
                b = b.min(best);
            }
            if a >= b {
                break;
            }
        }
        if let Some(k) = key {
            self.store(k, g, best, alpha, beta);
        }
        Ok(best)
    }

    /// Keeps what a search within (alpha, beta) that returned `v` says of the node.
    fn store(&mut self, key: u64, g: &Game, v: f64, alpha: f64, beta: f64) {
        let (low, high) = if v <= alpha {
            (0.0, v)
        } else if v >= beta {
            (v, 1.0)
        } else {
            (v, v)
        };
        let st = g.state();
        let fresh = Entry {
            register: st.register,
            to_move: st.to_move,
            castling: st.castling,
            en_passant: st.en_passant,
            signature: g.simulator().backend().signature(),
            low,
            high,
        };
        match self.table.get_mut(&key) {
            Some(e) if e.same_state(g) => {
                e.low = e.low.max(low);
                e.high = e.high.min(high);
            }
            _ => {
                self.table.insert(key, fresh);
            }
        }
    }

    /// The legal moves, those likeliest to close a window first: captures of a king,
    /// other measuring moves, king moves, the rest (in the order they are listed).
    fn ordered(&self, g: &Game) -> Vec<Classified> {
        let mut moves = legal_moves(g.state(), false);
        let st = g.state();
        let king_on = |s: Square| {
            st.piece(s)
                .is_some_and(|p| p.kind == Kind::King && p.color != st.to_move)
        };
        moves.sort_by_key(|m| match (m.variant, m.text.shape) {
            (Variant::Capture, Shape::Standard { to, .. }) if king_on(to) => 0,
            (Variant::Capture | Variant::Excluded, _) => 1,
            _ if m.piece.kind == Kind::King => 2,
            _ => 3,
        });
        moves
    }

    /// A move of the side to move in `g` worth `value` (the node's value), `left` plies
    /// before the horizon: the first in [`Prover::ordered`] order.
    fn choose(
        &mut self,
        g: &Game,
        left: u32,
        value: f64,
    ) -> Result<Option<Classified>, ProveError> {
        let max = g.to_move() == self.solver;
        for m in self.ordered(g) {
            // A narrow window around the value: a move outside it fails at once.
            let v = self.chance(g, &m, left, value - TIE, value + TIE)?;
            if (max && v >= value - TIE) || (!max && v <= value + TIE) {
                return Ok(Some(m));
            }
        }
        Ok(None)
    }

    /// The principal line from first move `m`, `left` plies before the horizon: each
    /// measurement's likelier outcome, then each side's best move in turn.
    fn line(&mut self, g: &Game, m: Classified, left: u32) -> Result<Vec<String>, ProveError> {
        let mut line = Vec::new();
        let mut game = g.detached();
        let mut m = m;
        let mut left = left;
        loop {
            let (child, outcome) = self.likelier(&game, &m)?;
            let mut text = m.text;
            text.outcome = outcome;
            line.push(text.to_string());
            game = child;
            left -= 1;
            if left == 0 || game.status() != Status::Ongoing {
                return Ok(line);
            }
            let v = self.node(&game, left, OPEN.0, OPEN.1)?;
            match self.choose(&game, left, v)? {
                Some(next) => m = next,
                None => return Ok(line),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::GameOptions;

    fn game(fen: &str, setup: &[&str]) -> Game {
        let mut g = Game::from_fen(fen, GameOptions::default()).unwrap();
        for m in setup {
            g.play(m).unwrap();
        }
        g.detached()
    }

    fn task(goal: Goal, moves: u32) -> Task {
        Task { goal, moves }
    }

    fn value_of(p: &Proof, mv: &str) -> f64 {
        p.first_moves.iter().find(|s| s.mv == mv).unwrap().value
    }

    /// The plain expectimax: every move, both outcomes, no window, no table.
    fn naive(g: &Game, goal: Goal, solver: Color, left: u32) -> f64 {
        if left == 0 || g.status() != Status::Ongoing {
            return goal.value(g, solver);
        }
        let values = naive_moves(g, goal, solver, left)
            .into_iter()
            .map(|(_, v)| v);
        match (
            legal_moves(g.state(), false).is_empty(),
            g.to_move() == solver,
        ) {
            (true, _) => goal.value(g, solver),
            (false, true) => values.fold(0.0, f64::max),
            (false, false) => values.fold(1.0, f64::min),
        }
    }

    /// Every move of the side to move in `g` with its plain expectimax value.
    fn naive_moves(g: &Game, goal: Goal, solver: Color, left: u32) -> Vec<(String, f64)> {
        let moves = legal_moves(g.state(), false);
        let value = |m: &Classified| {
            let mut v = 0.0;
            for outcome in [Some(true), Some(false)] {
                let mut t = m.text;
                t.outcome = if m.measures() { outcome } else { None };
                let Ok((child, p1)) = g.after(&t) else {
                    continue;
                };
                let p = match (t.outcome, p1) {
                    (Some(true), Some(p)) => p,
                    (Some(false), Some(p)) => 1.0 - p,
                    _ => 1.0,
                };
                v += p * naive(&child, goal, solver, left - 1);
                if t.outcome.is_none() || p1.is_none() {
                    break;
                }
            }
            v
        };
        moves
            .iter()
            .map(|m| (m.text.to_string(), value(m)))
            .collect()
    }

    /// The prover's value of every first move is the plain expectimax's, and so is the
    /// optimum found alone.
    fn agrees_with_naive(g: &Game, t: Task) {
        let p = prove(g, t).unwrap();
        let plain = naive_moves(g, t.goal, g.to_move(), t.plies());
        assert_eq!(p.first_moves.len(), plain.len());
        let mut best = 0.0f64;
        for (mv, v) in plain {
            let proved = value_of(&p, &mv);
            assert!((proved - v).abs() < 1e-12, "{t:?} {mv}: {proved} {v}");
            best = best.max(v);
        }
        let alone = optimum_within(g, t, None).unwrap();
        assert!((alone - best).abs() < 1e-12, "{t:?}: {alone} {best}");
    }

    #[test]
    fn a_certain_rook_takes_a_certain_king() {
        let g = game("4k3/8/8/8/8/8/8/4R2K w - - 0 1", &[]);
        let p = prove(&g, task(Goal::King, 1)).unwrap();
        assert_eq!(p.value, 1.0);
        assert_eq!(p.best, vec!["e1xe8"]);
        assert_eq!(p.second(), Some(0.0));
        // The capture's measurement is certain: the line writes no outcome.
        assert_eq!(p.line, vec!["e1xe8"]);
    }

    #[test]
    fn a_knight_takes_half_of_a_split_king() {
        // The black king split 50/50 on d8 and f8; the knight on c6 reaches d8 only.
        let g = game("4k3/8/2N5/8/8/8/8/7K b - - 0 1", &["e8^d8f8"]);
        let p = prove(&g, task(Goal::King, 1)).unwrap();
        assert!((p.value - 0.5).abs() < 1e-12, "{}", p.value);
        assert_eq!(p.best, vec!["c6xd8"]);
        assert_eq!(p.second(), Some(0.0));
    }

    #[test]
    fn a_split_knight_forks_a_boxed_king() {
        // Kh8 is boxed by its bishop and pawns. A knight on f7 is taken by the bishop,
        // one on g6 by the pawn; split to both, one half survives any defence and takes
        // the king with its 50%.
        let g = game("6bk/6pp/8/4N3/8/8/8/K7 w - - 0 1", &[]);
        let p = prove(&g, task(Goal::King, 2)).unwrap();
        assert!((p.value - 0.5).abs() < 1e-12, "{}", p.value);
        assert_eq!(p.answers(), 1);
        assert!(p.best.contains(&"e5^f7g6".to_string()), "{:?}", p.best);
        for direct in ["e5f7", "e5g6", "e5d7"] {
            assert_eq!(value_of(&p, direct), 0.0, "{direct}");
        }
        assert_eq!(p.second(), Some(0.0));
        agrees_with_naive(&g, task(Goal::King, 2));
    }

    #[test]
    fn a_king_in_a_net_survives_half_by_splitting() {
        // The white king on h1 is attacked; every square it can step to is attacked;
        // split, it keeps the half the one capture does not take.
        let g = game("4k1rr/8/8/8/8/8/r7/7K w - - 0 1", &[]);
        let p = prove(&g, task(Goal::Survive, 1)).unwrap();
        assert!((p.value - 0.5).abs() < 1e-12, "{}", p.value);
        for step in ["h1g1", "h1g2", "h1h2"] {
            assert_eq!(value_of(&p, step), 0.0, "{step}");
        }
        assert!(p.best.iter().all(|m| m.contains('^')), "{:?}", p.best);
        assert_eq!(p.answers(), 3);
        agrees_with_naive(&g, task(Goal::Survive, 1));
    }

    #[test]
    fn a_knight_takes_half_of_a_split_queen() {
        let g = game("3qk3/8/8/2N5/8/8/8/7K b - - 0 1", &["d8^d7d6"]);
        let p = prove(&g, task(Goal::Queen, 1)).unwrap();
        assert!((p.value - 0.5).abs() < 1e-12, "{}", p.value);
        assert_eq!(p.answers(), 1);
        assert!(p.best[0].starts_with("c5x"), "{:?}", p.best);
        assert!(matches!(
            prove(
                &game("4k3/8/8/8/8/8/8/4R2K w - - 0 1", &[]),
                task(Goal::Queen, 1)
            ),
            Err(ProveError::NoQueen)
        ));
    }

    #[test]
    fn the_windows_and_the_table_change_no_value() {
        // Measured captures of superposed pieces on both sides (three plies: the fork
        // above).
        let g = game(
            "4k3/8/2N5/8/8/8/3n4/4K3 b - - 0 1",
            &["e8^d8f8", "e1^f1f2", "d2xf1"],
        );
        for goal in [Goal::King, Goal::Survive] {
            agrees_with_naive(&g, task(goal, 1));
        }
    }

    #[test]
    fn the_prover_agrees_with_the_plain_expectimax_along_random_games() {
        use crate::seeded::SeededRng;
        let mut compared = [0; 3];
        for (seed, fen) in [
            "k7/p7/8/8/8/8/P6N/K7 w - - 0 1",
            "7k/6pp/8/4N3/8/8/8/K7 w - - 0 1",
            "n6k/7p/8/8/8/8/P7/KN6 b - - 0 1",
            "7k/6p1/8/8/8/8/1p6/K1N5 w - - 0 1",
        ]
        .into_iter()
        .enumerate()
        {
            let mut g = Game::from_fen(fen, GameOptions::default()).unwrap();
            let mut rng = SeededRng::new(seed as u64);
            for _ in 0..10 {
                let Some(m) = crate::chess::random::random_move(&g, &mut rng) else {
                    break;
                };
                g.play(&m.to_string()).unwrap();
                if g.status() != Status::Ongoing {
                    break;
                }
                let width = legal_moves(g.state(), false).len();
                for (i, (goal, n)) in [(Goal::King, 1), (Goal::Survive, 1), (Goal::King, 2)]
                    .into_iter()
                    .enumerate()
                {
                    // The plain expectimax costs width^plies positions.
                    if width > [40, 40, 20][i] {
                        continue;
                    }
                    agrees_with_naive(&g, task(goal, n));
                    compared[i] += 1;
                }
            }
        }
        assert!(compared.iter().all(|&c| c >= 3), "{compared:?}");
    }

    #[test]
    fn a_known_optimum_judges_as_the_search_does() {
        let g = game("6bk/6pp/8/4N3/8/8/8/K7 w - - 0 1", &[]);
        let plies = task(Goal::King, 2).plies();
        let key = |mv: &str| answer_key(&g.read(mv).unwrap());
        for mv in ["e5^g6f7", "e5f7", "a1a2"] {
            let searched = judge(&g, Goal::King, plies, mv).unwrap();
            let known = Some((0.5, "e5^f7g6"));
            let told = judge_knowing(&g, Goal::King, plies, mv, known).unwrap();
            assert_eq!(told.mv, searched.mv);
            assert!((told.value - searched.value).abs() < 1e-12, "{mv}");
            assert!(
                (told.best_value - searched.best_value).abs() < 1e-12,
                "{mv}"
            );
            assert_eq!(key(&told.best), key(&searched.best), "{mv}");
            assert_eq!(told.optimal(), mv == "e5^g6f7");
        }
    }

    #[test]
    fn the_defence_holds_the_solver_to_the_optimum() {
        let g = game("6bk/6pp/8/4N3/8/8/8/K7 w - - 0 1", &["e5^f7g6"]);
        let reply = defence(&g, Goal::King, 2).unwrap().unwrap();
        let (after, _) = g.after(&g.read(&reply).unwrap()).unwrap();
        let p = prove(&after, task(Goal::King, 1)).unwrap();
        assert!((p.value - 0.5).abs() < 1e-12, "{reply}: {}", p.value);
        assert_eq!(defence(&g, Goal::King, 0).unwrap(), None);
    }

    #[test]
    fn judging_a_move_against_the_best() {
        let g = game("6bk/6pp/8/4N3/8/8/8/K7 w - - 0 1", &[]);
        let j = judge(&g, Goal::King, 3, "e5f7").unwrap();
        assert_eq!(j.value, 0.0);
        assert!((j.best_value - 0.5).abs() < 1e-12);
        assert!(!j.optimal());
        assert_eq!(
            j.to_string(),
            format!(
                "your line captures the king with 0%; the best captures it with 50%: {} first",
                j.best
            )
        );
        let good = judge(&g, Goal::King, 3, "e5^g6f7").unwrap();
        assert!(good.optimal());
        assert!(good.to_string().ends_with("the best there is"));
        assert!(matches!(
            judge(&g, Goal::King, 3, "e5e6"),
            Err(JudgeError::Illegal(_))
        ));
        assert!(matches!(
            judge(&g, Goal::King, 3, "zz9"),
            Err(JudgeError::Move(_))
        ));
    }

    #[test]
    fn a_move_is_judged_by_what_it_adds_to_what_was_gone() {
        // Puzzle 095: part of black's queen is gone before white moves.
        let p = crate::puzzles::pack::find("095").unwrap();
        let g = p.game().unwrap();
        let idle = judge(&g, p.goal, p.moves, "a2a3").unwrap();
        assert!(idle.start > 0.1 && (idle.value - idle.start).abs() < 1e-9);
        let words = idle.to_string();
        assert!(
            words.starts_with("your line adds nothing to the 17% of the queen gone already; the best adds 11% (28% in all): "),
            "{words}"
        );
        let best = judge(&g, p.goal, p.moves, &p.best[0]).unwrap();
        assert_eq!(
            best.to_string(),
            "your line adds 11% to the 17% of the queen gone already (28% in all): the best there is"
        );
        // Puzzle 044: the capture takes a quarter of the king, beside the half gone.
        let p = crate::puzzles::pack::find("044").unwrap();
        let g = p.game().unwrap();
        let best = judge(&g, p.goal, p.moves, &p.best[0]).unwrap();
        assert_eq!(
            best.to_string(),
            "your line adds 25% to the 50% of the king gone already (75% in all): the best there is"
        );
    }
}
