//! A game of Quantum Chess: the position, the simulator, the history and the end rules.

use super::board::{Color, Kind, Position, Register, Square};
use super::circuits;
use super::classify::{check_source, classify, BoardState, Classified, MoveError, MoveType};
use super::distribution::{self, Distribution};
use super::explain::{self, Explained, Snapshot, Stages};
use super::fen::{self, FenError, START_FEN};
use super::notation::{self, MoveText, Shape};
use super::outcome::{EndReason, Status};
use super::repetition::{Seen, SeenList};
use super::san;
use crate::quantum::{Bits, Control, Op, Simulator, SimulatorSettings, CERTAIN_EPS};
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Number of square qubits; ancillas come after them.
pub const SQUARES: usize = 64;

/// The hasher of repetition's fingerprint and of the search's table key: fast, and the
/// same in every run (a fixed seed), so searches repeat.
const FINGERPRINT: foldhash::fast::FixedState = foldhash::fast::FixedState::with_seed(0);

/// What a move that ends the game by the 50-move rule or by repetition does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Closing {
    /// Measures the board, as the rules say.
    Measured,
    /// Leaves it unmeasured with its expected result (a search looking ahead).
    Expected,
}

/// How a game is set up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameOptions {
    /// The simulator's backend and its size limits.
    pub simulator: SimulatorSettings,
    /// Seed of the random measurement outcomes.
    pub seed: u64,
    /// Any side may move (analysis).
    pub free_turns: bool,
    /// Keep the quantum state as independent factors (off only to compare with a single
    /// register).
    pub factored: bool,
    /// No win conditions (UQCI's `forcewin`): a king captured with certainty does not end
    /// the game. The 50-move rule and repetition still end it, as a draw.
    pub no_win: bool,
}

impl Default for GameOptions {
    fn default() -> Self {
        GameOptions {
            simulator: SimulatorSettings::default(),
            seed: 0,
            free_turns: false,
            factored: true,
            no_win: false,
        }
    }
}

/// A move that was played, with everything the history, the circuit pane and saved
/// games need.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedMove {
    /// What was typed.
    pub input: String,
    /// The canonical form, with `.mN` when the move measured (see [`PlayedMove::drawn`]).
    pub played: String,
    /// The move in SAN (`Nf3`, `exd5`, `O-O`) when it is an ordinary chess move: one
    /// source, one target, and no measurement that could have gone either way.
    pub san: Option<String>,
    /// The outcome of the move's measurement, if its circuit made one (also one that
    /// was certain).
    pub outcome: Option<bool>,
    /// Probability of outcome 1 before the measurement.
    pub p1: Option<f64>,
    /// The move's classification.
    pub class: Classified,
    /// Who moved.
    pub color: Color,
    /// The circuit that ran (gates, measurements, ancillas), including any final
    /// measurement of the board that ended the game.
    pub ops: Vec<Op>,
    /// What the move did: its measurement's question and answer, and every square whose
    /// chance changed, with the cause.
    pub explained: Explained,
}

impl PlayedMove {
    /// The outcome the notation writes (`.m0`, `.m1`): the measurement's, when both
    /// outcomes were possible. A certain one (a capture by a piece that is certainly
    /// there, on a clear path) asked nothing: it is left out, and replaying the move
    /// without it draws the same outcome from the same random number.
    pub fn drawn(&self) -> Option<bool> {
        self.outcome.filter(|_| self.p1.is_some_and(had_a_choice))
    }
}

/// Whether a measurement whose outcome 1 had probability `p1` could have gone either
/// way (the simulator snaps a certain one's to exactly 0 or 1).
fn had_a_choice(p1: f64) -> bool {
    p1 > 0.0 && p1 < 1.0
}

/// The chance that each square is occupied in `sim`'s state.
fn probs_of(sim: &Simulator) -> [f64; 64] {
    let v = sim.backend().probabilities(SQUARES);
    let mut p = [0.0; 64];
    for (dst, src) in p.iter_mut().zip(v) {
        *dst = src.clamp(0.0, 1.0);
    }
    p
}

/// A game: clone it to branch off, replay it from its moves.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    opts: GameOptions,
    state: BoardState,
    sim: Simulator,
    history: Vec<PlayedMove>,
    status: Status,
    end: Option<EndReason>,
    halfmove: u32,
    fullmove: u32,
    count_at_reset: f64,
    seen: SeenList,
    /// White's expected result of the board's measurement at a 50-move or repetition
    /// ending (see [`Game::expected_measured_result`]).
    measured_result: Option<f64>,
    /// The flag that stops a move part-way (see [`Game::set_cancel`]).
    cancel: Option<Arc<AtomicBool>>,
}

impl Game {
    /// A game from the standard start position.
    pub fn standard(opts: GameOptions) -> Game {
        Game::from_position(fen::parse(START_FEN).expect("the start FEN is valid"), opts)
    }

    /// A game from a FEN string.
    pub fn from_fen(fen: &str, opts: GameOptions) -> Result<Game, FenError> {
        Ok(Game::from_position(fen::parse(fen)?, opts))
    }

    /// A game from a classical position.
    pub fn from_position(start: Position, opts: GameOptions) -> Game {
        let initial = Bits::from_qubits(start.register.pieces().map(|(s, _)| s.index()));
        let sim = Simulator::new(
            opts.simulator.backend,
            initial,
            SQUARES,
            opts.seed,
            opts.simulator.backend_options(opts.factored),
        );
        let mut probs = [0.0; 64];
        for (s, _) in start.register.pieces() {
            probs[s.index()] = 1.0;
        }
        let state = BoardState {
            register: start.register,
            probs,
            to_move: start.to_move,
            castling: start.castling,
            en_passant: start.en_passant,
        };
        let mut g = Game {
            count_at_reset: probs.iter().sum(),
            halfmove: start.halfmove,
            fullmove: start.fullmove,
            start,
            opts,
            state,
            sim,
            history: Vec::new(),
            status: Status::Ongoing,
            end: None,
            seen: SeenList::default(),
            measured_result: None,
            cancel: None,
        };
        let f = g.fingerprint();
        g.seen.add(f);
        g.check_kings();
        g
    }

    /// Replays `moves` from `start` (recorded outcomes are forced). On failure, the index
    /// of the move that failed and why.
    pub fn replay(
        start: Position,
        opts: GameOptions,
        moves: &[String],
    ) -> Result<Game, (usize, MoveError)> {
        Game::replay_watched(start, opts, moves, None)
    }

    /// [`Game::replay`], stopping with [`crate::quantum::QuantumError::Cancelled`] once
    /// `cancel` is set; the game keeps watching the flag afterwards.
    pub fn replay_watched(
        start: Position,
        opts: GameOptions,
        moves: &[String],
        cancel: Option<Arc<AtomicBool>>,
    ) -> Result<Game, (usize, MoveError)> {
        let mut g = Game::from_position(start, opts);
        g.set_cancel(cancel);
        for (i, m) in moves.iter().enumerate() {
            g.play(m).map_err(|e| (i, e))?;
        }
        Ok(g)
    }

    /// Plays a move written in notation.
    pub fn play(&mut self, input: &str) -> Result<&PlayedMove, MoveError> {
        let text = notation::parse(input)?;
        self.play_text(input, &text)
    }

    /// Reads a typed move: Quantum Chess notation, or standard algebraic notation for an
    /// ordinary move (`Nf3`, `O-O`; see [`san`]), turned into the canonical move it names,
    /// with the outcome written after either (`exd5.m1`).
    pub fn read(&self, input: &str) -> Result<MoveText, MoveError> {
        self.read_as(input).map(|(_, text)| text)
    }

    /// [`Game::read`], with the text the move is played as: `input` itself when it is
    /// in Quantum Chess notation, the canonical move a move in SAN names.
    pub fn read_as(&self, input: &str) -> Result<(String, MoveText), MoveError> {
        match notation::parse(input) {
            Ok(text) => Ok((input.to_string(), text)),
            Err(e) => {
                let (body, outcome) = notation::split_outcome(input.trim());
                match san::parse(body) {
                    Some(s) => {
                        let text = san::resolve(&s, body, &self.state, self.opts.free_turns)?;
                        let text = MoveText { outcome, ..text };
                        Ok((text.to_string(), text))
                    }
                    None => Err(e.into()),
                }
            }
        }
    }

    /// Plays a parsed move; `input` is kept as what the player typed.
    pub fn play_text(&mut self, input: &str, text: &MoveText) -> Result<&PlayedMove, MoveError> {
        self.check_ongoing()?;
        let class = classify(&self.state, text, self.opts.free_turns)?;
        let before = Snapshot::of(&self.state);
        let san = san::write(&self.state, &class, self.opts.free_turns);
        // Work on a copy so a failing circuit (impossible outcome, size limit) changes nothing.
        let mut sim = self.sim.clone();
        let measurement = circuits::measure(&mut sim, &class, text.outcome)?;
        let measured = match measurement {
            Some(_) => probs_of(&sim),
            None => before.probs,
        };
        let (placed, captures) = match measurement {
            Some(m) if !m.outcome => Default::default(),
            _ => circuits::go_on(&mut sim, &class)?,
        };
        let captured: Vec<(Square, f64)> = captures
            .iter()
            .map(|&(s, a)| (s, sim.backend().probability(a)))
            .collect();
        let applied = circuits::Applied {
            measurement,
            placed,
            captures,
        };
        self.sim = sim;
        self.settle(&class, &applied);
        let moved = Snapshot::of(&self.state);
        let ongoing = self.status == Status::Ongoing;
        self.after_move(Closing::Measured)?;
        let after = Snapshot::of(&self.state);
        let ending = self
            .end
            .filter(|r| ongoing && matches!(r, EndReason::FiftyMoves | EndReason::Repetition));
        let explained = explain::explain(
            &class,
            measurement.map(|m| (m.outcome, m.p1)),
            Stages {
                before: &before,
                measured: &measured,
                moved: &moved,
                after: &after,
                captured: &captured,
            },
            ending,
        );
        let mut played_text = class.text;
        played_text.outcome = measurement
            .filter(|m| had_a_choice(m.p1))
            .map(|m| m.outcome);
        self.history.push(PlayedMove {
            input: input.trim().to_string(),
            played: played_text.to_string(),
            // SAN has no outcome: a move that measured keeps the official notation.
            san: san.filter(|_| played_text.outcome.is_none()),
            outcome: measurement.map(|m| m.outcome),
            p1: measurement.map(|m| m.p1),
            class,
            color: class.piece.color,
            ops: self.sim.take_trace(),
            explained,
        });
        let last = self.history.last().expect("a move was just pushed");
        Ok(last)
    }

    /// The game after `text`, played on a [`Game::detached`] copy that records no history
    /// entry and no circuit (the rules and the state, at less cost: what the puzzles'
    /// proofs and the attacked-king check play; the engine's search uses
    /// [`Game::look_ahead`]), with the probability of outcome 1 when the move measured.
    pub fn after(&self, text: &MoveText) -> Result<(Game, Option<f64>), MoveError> {
        self.after_ending(text, Closing::Measured)
    }

    /// As [`Game::after`], for a search looking ahead: a move that ends the game by the
    /// 50-move rule or by repetition leaves the board unmeasured, a draw whose
    /// [`Game::expected_measured_result`] is all a search reads. Measuring every square
    /// of a large state costs far more than the move (with the 50-move counter at 99
    /// nearly every move of a search ends the game), and the expected result is the
    /// same.
    pub fn look_ahead(&self, text: &MoveText) -> Result<(Game, Option<f64>), MoveError> {
        self.after_ending(text, Closing::Expected)
    }

    fn after_ending(
        &self,
        text: &MoveText,
        ending: Closing,
    ) -> Result<(Game, Option<f64>), MoveError> {
        self.check_ongoing()?;
        let class = classify(&self.state, text, self.opts.free_turns)?;
        let mut child = self.detached();
        let applied = circuits::apply(&mut child.sim, &class, text.outcome)?;
        child.settle(&class, &applied);
        child.after_move(ending)?;
        child.sim.take_trace();
        Ok((child, applied.measurement.map(|m| m.p1)))
    }

    /// `text` explained before it is played, on a [`Game::detached`] copy (whose
    /// measurement draws an answer: read what does not depend on it, the move's kind and
    /// the chance that it happens, as [`Explained::foresight`] does). What a hint says of
    /// its move.
    pub fn foresee(&self, text: &MoveText) -> Result<Explained, MoveError> {
        let mut copy = self.detached();
        let mut text = *text;
        text.outcome = None;
        let played = copy.play_text(&text.to_string(), &text)?;
        Ok(played.explained.clone())
    }

    /// The state after `class`'s circuit ran on the simulator: ancillas released, the
    /// probabilities, the register, castling rights, en passant, the side to move.
    fn settle(&mut self, class: &Classified, applied: &circuits::Applied) {
        self.sim.release_constant_ancillas();
        self.sim.compact();
        let went_on = applied.measurement.is_none_or(|m| m.outcome);
        let mover = class.piece.color;
        self.state.probs = self.probs_now();
        for (s, p) in &applied.placed {
            if self.state.occupied(*s) {
                self.state.register.set(*s, Some(*p));
            }
        }
        self.clear_empty_squares();
        let mut en_passant = None;
        if went_on {
            match class.text.shape {
                Shape::Standard { from, to } => {
                    self.state.castling.touch(from);
                    self.state.castling.touch(to);
                    // The square passed is open to en passant only where the pawn
                    // arrived in some branch: a two-step whose path was blocked in
                    // every branch left the pawn at home (decided here; the rules
                    // say only "a pawn two step past the square").
                    if class.kind == MoveType::PawnTwoStep && self.state.occupied(to) {
                        en_passant = from.offset(0, mover.forward());
                    }
                }
                Shape::Split { from, .. } => self.state.castling.touch(from),
                Shape::Merge { from1, from2, .. } => {
                    self.state.castling.touch(from1);
                    self.state.castling.touch(from2);
                }
            }
        }
        self.state.en_passant = en_passant;
        self.state.to_move = mover.opposite();
        if mover == Color::Black {
            self.fullmove += 1;
        }
    }

    fn probs_now(&self) -> [f64; 64] {
        probs_of(&self.sim)
    }

    fn clear_empty_squares(&mut self) {
        for s in Square::all() {
            if !self.state.occupied(s) {
                self.state.register.set(s, None);
            }
        }
    }

    /// Game-end rules after a move: kings, the 50-move counter, repetition.
    fn after_move(&mut self, ending: Closing) -> Result<(), MoveError> {
        if self.check_kings() {
            return Ok(());
        }
        self.halfmove += 1;
        let count: f64 = self.state.probs.iter().sum();
        if (count - self.count_at_reset).abs() >= 1.0 - 1e-9 {
            self.halfmove = 0;
            self.count_at_reset = count;
        }
        let reason = if self.halfmove >= 100 {
            EndReason::FiftyMoves
        } else if self.seen.add(self.fingerprint()) >= 3 {
            EndReason::Repetition
        } else {
            return Ok(());
        };
        match ending {
            Closing::Measured => self.measure_board(reason),
            Closing::Expected => {
                self.measured_result = Some(self.expected_result());
                self.status = Status::Draw;
                self.end = Some(reason);
                Ok(())
            }
        }
    }

    /// White's expected result (win 1, draw 0, loss -1) of measuring the board now.
    fn expected_result(&self) -> f64 {
        // A side wins when its king stays and the other's goes: P(white stays, black
        // goes) - P(black stays, white goes) = p_white - p_black, however the two kings
        // are entangled. Without win conditions the ending is a draw.
        if self.opts.no_win {
            0.0
        } else {
            self.king_presence(Color::White) - self.king_presence(Color::Black)
        }
    }

    /// Measures every superposed square, then decides the game from the classical board.
    fn measure_board(&mut self, reason: EndReason) -> Result<(), MoveError> {
        self.measured_result = Some(self.expected_result());
        for s in Square::all() {
            let p = self.sim.backend().probability(s.0 as u16);
            if p > CERTAIN_EPS && p < 1.0 - CERTAIN_EPS {
                self.sim.measure(&[Control::Bit(s.0 as u16, true)], None)?;
            }
        }
        self.sim.release_constant_ancillas();
        self.sim.compact();
        self.state.probs = self.probs_now();
        self.clear_empty_squares();
        if !self.check_kings() {
            self.status = Status::Draw;
            self.end = Some(reason);
        } else if self.end == Some(EndReason::KingCaptured) {
            self.end = Some(reason);
        }
        Ok(())
    }

    /// The probability that `color`'s king is on the board.
    pub fn king_presence(&self, color: Color) -> f64 {
        self.state
            .register
            .pieces()
            .filter(|(_, p)| p.color == color && p.kind == Kind::King)
            .map(|(s, _)| self.state.probs[s.index()])
            .sum()
    }

    /// For a game ended by the 50-move rule or by repetition: White's expected result
    /// (win 1, draw 0, loss -1) of the board's measurement, as it stood just before
    /// it. `None` for other games.
    pub fn expected_measured_result(&self) -> Option<f64> {
        self.measured_result
    }

    /// Sets the status when a king is gone; true when the game ended.
    fn check_kings(&mut self) -> bool {
        if self.opts.no_win {
            return false;
        }
        let (w, b) = (
            self.king_presence(Color::White) > CERTAIN_EPS,
            self.king_presence(Color::Black) > CERTAIN_EPS,
        );
        let (status, end) = match (w, b) {
            (true, true) => return false,
            (false, false) => (Status::Draw, EndReason::BothKingsCaptured),
            (true, false) => (Status::WhiteWins, EndReason::KingCaptured),
            (false, true) => (Status::BlackWins, EndReason::KingCaptured),
        };
        self.status = status;
        self.end = Some(end);
        true
    }

    /// The classical register, side to move and rights (hashed), and the quantum state
    /// up to a global phase (its signature, factor by factor).
    fn fingerprint(&self) -> Seen {
        let mut h = FINGERPRINT.build_hasher();
        self.state.register.hash(&mut h);
        self.state.to_move.hash(&mut h);
        self.state.castling.hash(&mut h);
        self.state.en_passant.hash(&mut h);
        Seen {
            classical: h.finish(),
            quantum: self.sim.backend().signature(),
        }
    }

    /// An error once the game is over.
    fn check_ongoing(&self) -> Result<(), MoveError> {
        match self.status {
            Status::Ongoing => Ok(()),
            s => Err(MoveError::GameOver(s.describe().to_string())),
        }
    }

    /// The piece on `sq` if a move may start there now, else why not.
    pub fn check_source(&self, sq: Square) -> Result<super::board::Piece, MoveError> {
        self.check_ongoing()?;
        check_source(&self.state, sq, self.opts.free_turns)
    }

    /// Undoes the last move by replaying the others with their recorded outcomes; `None`
    /// when there is no move, or when the cancel flag stopped the replay (the game is
    /// then unchanged).
    pub fn undo(&mut self) -> Option<PlayedMove> {
        let last = self.history.last()?.clone();
        let moves: Vec<String> = self.history[..self.history.len() - 1]
            .iter()
            .map(|m| m.played.clone())
            .collect();
        let g = Game::replay_watched(self.start.clone(), self.opts, &moves, self.cancel.clone())
            .ok()?;
        *self = g;
        Some(last)
    }

    /// A hash of what threefold repetition compares: classical register, side to move,
    /// castling and en passant rights, and the quantum state's signature up to a global
    /// phase (rounded, see the signature's `Hash`). The signature is cached per factor, so
    /// this costs little once the state has been fingerprinted.
    pub fn state_hash(&self) -> u64 {
        let seen = self.fingerprint();
        let mut h = FINGERPRINT.build_hasher();
        seen.classical.hash(&mut h);
        seen.quantum.hash(&mut h);
        h.finish()
    }

    /// A copy of the current state without the moves that led to it: the history is
    /// empty (so undo, replay and export see no moves), the repetition counts and the
    /// 50-move counter are kept. Cloning it costs the same at any length of game: a
    /// search branches from it. It watches no cancel flag (a search has its own stop).
    pub fn detached(&self) -> Game {
        let mut sim = self.sim.clone();
        sim.set_cancel(None);
        Game {
            start: self.start.clone(),
            opts: self.opts,
            state: self.state.clone(),
            sim,
            history: Vec::new(),
            status: self.status,
            end: self.end,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            count_at_reset: self.count_at_reset,
            seen: self.seen.clone(),
            measured_result: self.measured_result,
            // A search's copy answers to its own stop flag, not to the screen's.
            cancel: None,
        }
    }

    /// A [`Game::detached`] copy in which the other side is to move, as if the side to
    /// move had passed (no en passant right): what it threatens.
    pub fn passed(&self) -> Game {
        let mut g = self.detached();
        g.state.to_move = g.state.to_move.opposite();
        g.state.en_passant = None;
        g
    }

    /// The rules' view of the state (register, probabilities, side, rights).
    pub fn state(&self) -> &BoardState {
        &self.state
    }

    /// The simulator (branches, trace).
    pub fn simulator(&self) -> &Simulator {
        &self.sim
    }

    /// The moves played so far.
    pub fn history(&self) -> &[PlayedMove] {
        &self.history
    }

    /// Number of plies played.
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// The game's status.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Why the game ended, once it has.
    pub fn end_reason(&self) -> Option<EndReason> {
        self.end
    }

    /// Side to move.
    pub fn to_move(&self) -> Color {
        self.state.to_move
    }

    /// The 50-move counter (plies since the piece count last changed by one).
    pub fn fifty_counter(&self) -> u32 {
        self.halfmove
    }

    /// Watches `flag` (or nothing): once it is set, the move being played stops at its
    /// next gate or measurement with [`crate::quantum::QuantumError::Cancelled`]. A move
    /// stopped inside the end-of-game measurement leaves the game part-way, so cancel
    /// only moves played on a copy (as the terminal game does).
    pub fn set_cancel(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.sim.set_cancel(flag.clone());
        self.cancel = flag;
    }

    /// The options the game was made with.
    pub fn options(&self) -> GameOptions {
        self.opts
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// Probability that a square is occupied.
    pub fn probability(&self, s: Square) -> f64 {
        self.state.probs[s.index()]
    }

    /// The classical register.
    pub fn register(&self) -> &Register {
        &self.state.register
    }

    /// Live basis states in the simulator: the product of its factors' branch counts,
    /// saturating at `usize::MAX`.
    pub fn branch_count(&self) -> usize {
        self.sim.backend().branch_count()
    }

    /// The classical register's view of the current state as FEN.
    pub fn fen(&self) -> String {
        fen::format(&Position {
            register: self.state.register,
            to_move: self.state.to_move,
            castling: self.state.castling,
            en_passant: self.state.en_passant,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
        })
    }

    /// The probability of each set of occupied squares (as a bitboard, a1 = bit 0),
    /// summed over ancillas, largest first (to 1e-12; ties by the set), sets under 1e-12
    /// left out: the first `limit` of them, computed factor by factor (the full list
    /// can have as many entries as the state has branches).
    pub fn distribution(&self, limit: usize) -> Distribution {
        distribution::top(&self.sim.backend().low_word_parts(), limit)
    }

    /// For every square y, the probability that `x` and y are both occupied (computed
    /// within the factor holding `x`; squares in other factors are independent of it).
    pub fn joint_occupancy(&self, x: Square) -> [f64; 64] {
        let parts = self.sim.backend().low_word_parts();
        let bit = 1u64 << x.0;
        let mut marginal = [0.0f64; 64];
        let mut shared = 0u64;
        let mut joint = [0.0f64; 64];
        for part in &parts {
            let holds_x = part.iter().any(|(set, _)| set & bit != 0);
            for &(set, p) in part {
                let mut rest = set;
                while rest != 0 {
                    let y = rest.trailing_zeros() as usize;
                    marginal[y] += p;
                    if holds_x && set & bit != 0 {
                        joint[y] += p;
                    }
                    rest &= rest - 1;
                }
                if holds_x {
                    shared |= set;
                }
            }
        }
        let px = marginal[x.index()];
        for y in 0..64 {
            if shared >> y & 1 == 0 {
                joint[y] = px * marginal[y];
            }
        }
        joint.map(|p| p.clamp(0.0, 1.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn looking_ahead_a_fifty_move_ending_leaves_the_board_unmeasured() {
        // The 100th half-move without a change of material is a king's split.
        let g = Game::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 60", GameOptions::default()).unwrap();
        let split = g.read("e1^d1f1").unwrap();
        let (ruled, _) = g.after(&split).unwrap();
        let (ahead, _) = g.look_ahead(&split).unwrap();
        for child in [&ruled, &ahead] {
            assert_eq!(child.end_reason(), Some(EndReason::FiftyMoves));
            assert!(child.expected_measured_result().unwrap().abs() < 1e-9);
        }
        // The rules measured the king onto one square; the look ahead left both halves.
        let branches = |g: &Game| g.simulator().backend().branch_total();
        assert!(branches(&ruled) < 2, "{}", branches(&ruled));
        assert_eq!(branches(&ahead), 2);
        assert_eq!(ahead.status(), Status::Draw);
        // White's king half taken on d1: White is expected to lose half a game.
        let mut g =
            Game::from_fen("4k3/8/8/8/8/8/8/r3K3 w - - 0 1", GameOptions::default()).unwrap();
        g.play("e1^d1f1").unwrap();
        g.play("a1xd1").unwrap();
        assert!((g.king_presence(Color::White) - 0.5).abs() < 1e-9);
        g.halfmove = 99;
        let (ahead, _) = g.look_ahead(&g.read("f1f2").unwrap()).unwrap();
        assert_eq!(ahead.end_reason(), Some(EndReason::FiftyMoves));
        assert!((ahead.expected_measured_result().unwrap() + 0.5).abs() < 1e-9);
    }

    #[test]
    fn only_a_measurement_that_could_go_either_way_is_written() {
        let moves = |list: &[&str]| list.iter().map(|m| m.to_string()).collect::<Vec<_>>();
        let start = fen::parse(START_FEN).unwrap();
        for seed in 0..4 {
            let opts = GameOptions {
                seed,
                ..GameOptions::default()
            };
            // A pawn certainly on e4 takes a pawn certainly on d5: the circuit's
            // measurement was certain, and asked nothing.
            let played = moves(&["e2e4", "d7d5", "e4xd5", "b8^a6c6", "d2d4", "c6xd4"]);
            let g = Game::replay(start.clone(), opts, &played).unwrap();
            let capture = &g.history()[2];
            assert_eq!(capture.played, "e4xd5");
            assert_eq!(capture.san.as_deref(), Some("exd5"));
            assert_eq!((capture.outcome, capture.p1), (Some(true), Some(1.0)));
            assert_eq!(capture.drawn(), None);
            // The half knight's capture asks whether it was on c6: it keeps its outcome.
            let measured = &g.history()[5];
            assert_eq!(measured.drawn(), measured.outcome);
            let o = u8::from(measured.outcome.unwrap());
            assert_eq!(measured.played, format!("c6xd4.m{o}"));
            assert_eq!(measured.san, None);
            // A file of today writes `.m1` on the certain capture: it replays to the same
            // game, drawing the half knight's outcome from the same random number.
            let mut old = played.clone();
            old[2] = "e4xd5.m1".into();
            let again = Game::replay(start.clone(), opts, &old).unwrap();
            let texts = |g: &Game| {
                g.history()
                    .iter()
                    .map(|m| m.played.clone())
                    .collect::<Vec<_>>()
            };
            assert_eq!(texts(&again), texts(&g));
            assert_eq!(again.state_hash(), g.state_hash());
            assert_eq!(again.state().probs, g.state().probs);
        }
    }

    #[test]
    fn a_move_foreseen_says_what_it_does_and_its_chance() {
        let mut g = Game::standard(GameOptions::default());
        for m in ["b1^a3c3", "d7d5"] {
            g.play(m).unwrap();
        }
        let foresight =
            |g: &Game, m: &str| g.foresee(&notation::parse(m).unwrap()).unwrap().foresight();
        // The knight takes on d5 only if it is on c3.
        assert_eq!(
            foresight(&g, "c3xd5").as_deref(),
            Some("capture: the knight on c3 takes on d5; happens with a 50% chance")
        );
        assert_eq!(foresight(&g, "e2e4"), None, "a plain move needs no words");
        assert_eq!(
            foresight(&g, "a3c3^b5").as_deref(),
            Some("merge: the knight on a3 and c3 comes together on b5")
        );
        let before = g.history().len();
        assert!(g.foresee(&notation::parse("e2e5").unwrap()).is_err());
        assert_eq!(g.history().len(), before, "nothing is played");
    }

    #[test]
    fn after_leads_where_play_does() {
        for seed in 0..8 {
            let mut g = Game::standard(GameOptions {
                seed,
                ..GameOptions::default()
            });
            let mut again = Game::standard(g.options());
            for m in crate::chess::random::seeded_game(seed, 120) {
                let text = super::super::notation::parse(&m).unwrap();
                let (child, p1) = g.after(&text).unwrap();
                let played = g.play(&m).unwrap().p1;
                again.play(&m).unwrap();
                assert_eq!(again.state().probs, g.state().probs, "{m}");
                // Bit for bit: the backends sum in the same order every time.
                assert_eq!(p1, played, "{m}");
                assert_eq!(child.state().probs, g.state().probs, "{m}");
                assert_eq!(
                    child.state().register.pieces().collect::<Vec<_>>(),
                    g.state().register.pieces().collect::<Vec<_>>()
                );
                assert_eq!(child.state().to_move, g.state().to_move);
                assert_eq!(
                    (child.status(), child.end_reason()),
                    (g.status(), g.end_reason())
                );
                assert_eq!(child.state_hash(), g.state_hash(), "{m}");
                assert!(child.history().is_empty());
                if g.status() != Status::Ongoing {
                    break;
                }
            }
        }
    }
}
