//! The "harmonics" variant (docs/rules/harmonics.md): the board is a weighted list of ordinary
//! boards. Ordinary moves are made in every harmonic that allows them, quantum moves
//! (`b1~d5`) split each harmonic that allows them into a moved and an unmoved half, and
//! squares claimed by different pieces in different harmonics are measured. A move is
//! legal when at least one harmonic allows it.

pub mod board;
pub mod geometry;
pub mod listing;
pub mod measure;
pub mod notation;
pub mod report;
pub mod rules;
pub mod san;
pub mod superposition;

use self::board::{piece, Board};
use self::rules::{Before, Made};
use self::superposition::{Marginal, Superposition};
use crate::chess::fen::{self, START_FEN};
use crate::chess::{Color, Position, Square, Status};
use crate::game::CancelFlag;
use crate::game::{Cell, Explanation, PlayError, Playable, PlyRecord, RuleSet, Setup};
use crate::seeded::SeededRng;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The most harmonics kept after a move, unless a game sets another bound.
pub const DEFAULT_LIMIT: usize = 1 << 14;

/// The smallest bound a game accepts: above it, two harmonics always differ on some
/// square (at most 32 boards share every square and differ only in castling rights or
/// en passant), so measuring squares can always bring the count down.
pub const MIN_LIMIT: usize = 64;

/// What the engine does when a move leaves more harmonics than the bound, in words for
/// help text and the details pane.
pub const BOUND_RULE: &str = "past it, the least certain square is measured until the count fits";

/// A game under the harmonics rules.
#[derive(Clone, Debug)]
pub struct HarmonicsGame {
    start: Board,
    start_to_move: Color,
    /// The start as given (`None`: the standard start), for saved games.
    start_fen: Option<String>,
    seed: u64,
    limit: usize,
    sp: Superposition,
    marginals: [Marginal; 64],
    to_move: Color,
    rng: SeededRng,
    status: Status,
    end: Option<String>,
    history: Vec<PlyRecord>,
    inputs: Vec<String>,
    /// Once set, a move or take-back in progress stops (see [`Playable::set_cancel`]).
    cancel: Option<Arc<AtomicBool>>,
}

/// Whether the game goes on, and if not who won and why: a side wins when the enemy
/// king's probability is 0, both kings at 0 together is a draw, and so is a position
/// where the side to move has no move in any harmonic.
fn judge(
    sp: &Superposition,
    marginals: &[Marginal; 64],
    to_move: Color,
) -> (Status, Option<String>) {
    let white = sp.king_probability(Color::White) > 0.0;
    let black = sp.king_probability(Color::Black) > 0.0;
    match (white, black) {
        (true, true) if !listing::has_move(sp, marginals, to_move) => (
            Status::Draw,
            Some(format!("{} has no move in any harmonic", to_move.name())),
        ),
        (true, true) => (Status::Ongoing, None),
        (true, false) => (
            Status::WhiteWins,
            Some("the black king's probability reached 0".into()),
        ),
        (false, true) => (
            Status::BlackWins,
            Some("the white king's probability reached 0".into()),
        ),
        (false, false) => (
            Status::Draw,
            Some("both kings' probabilities reached 0 together".into()),
        ),
    }
}

impl HarmonicsGame {
    /// A game from the standard start position; `seed` drives every unforced measurement.
    pub fn new(seed: u64) -> HarmonicsGame {
        let start = fen::parse(START_FEN).expect("the standard start FEN is valid");
        HarmonicsGame::from_position(&start, seed)
    }

    /// A game from a FEN position (side to move, castling rights and en passant included).
    pub fn from_fen(fen: &str, seed: u64) -> Result<HarmonicsGame, PlayError> {
        let position = fen::parse(fen)?;
        let mut game = HarmonicsGame::from_position(&position, seed);
        game.start_fen = Some(fen.to_string());
        Ok(game)
    }

    /// A game from a classical position: one harmonic of weight 1.
    pub fn from_position(position: &Position, seed: u64) -> HarmonicsGame {
        HarmonicsGame::begin(
            Board::from_position(position),
            position.to_move,
            seed,
            DEFAULT_LIMIT,
        )
    }

    fn begin(start: Board, to_move: Color, seed: u64, limit: usize) -> HarmonicsGame {
        let sp = Superposition::single(start);
        let marginals = sp.marginals();
        let (status, end) = judge(&sp, &marginals, to_move);
        HarmonicsGame {
            start,
            start_to_move: to_move,
            start_fen: None,
            seed,
            limit,
            marginals,
            status,
            end,
            sp,
            to_move,
            rng: SeededRng::new(seed),
            history: Vec::new(),
            inputs: Vec::new(),
            cancel: None,
        }
    }

    /// The same game with another bound on the number of harmonics (at least
    /// [`MIN_LIMIT`]); only before the first move.
    pub fn with_limit(mut self, limit: usize) -> Result<HarmonicsGame, PlayError> {
        if limit < MIN_LIMIT {
            return Err(PlayError::Start(format!(
                "the bound on harmonics must be at least {MIN_LIMIT}, not {limit}"
            )));
        }
        if !self.history.is_empty() {
            return Err(PlayError::Start(
                "the bound on harmonics can only be set before the first move".into(),
            ));
        }
        self.limit = limit;
        Ok(self)
    }

    /// The bound on the number of harmonics.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// The seed of the random measurements.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The harmonics and their weights.
    pub fn superposition(&self) -> &Superposition {
        &self.sp
    }

    /// The moves as they were typed (the history holds them with their outcomes).
    pub fn inputs(&self) -> &[String] {
        &self.inputs
    }

    /// The game over again from its start with the recorded texts of the first `plies`
    /// plies (their outcomes forced), keeping what was typed.
    fn replayed(&self, plies: usize) -> Result<HarmonicsGame, PlayError> {
        let mut g = HarmonicsGame::begin(self.start, self.start_to_move, self.seed, self.limit);
        g.cancel = self.cancel.clone();
        g.start_fen = self.start_fen.clone();
        for (record, input) in self.history.iter().zip(&self.inputs).take(plies) {
            g.play(&record.text)?;
            g.inputs.pop();
            g.inputs.push(input.clone());
        }
        Ok(g)
    }
}

impl Playable for HarmonicsGame {
    fn rules(&self) -> RuleSet {
        RuleSet::Harmonics
    }

    fn setup(&self) -> Setup {
        Setup {
            start: self.start_fen.clone(),
            ..Setup::new(RuleSet::Harmonics, self.seed)
        }
    }

    fn cells(&self) -> Vec<(Square, Cell)> {
        Square::all()
            .filter_map(|s| {
                let m = self.marginals[s.index()];
                piece(m.code).map(|p| {
                    (
                        s,
                        Cell {
                            color: p.color,
                            kind: Some(p.kind),
                            probability: m.p,
                        },
                    )
                })
            })
            .collect()
    }

    fn to_move(&self) -> Color {
        self.to_move
    }

    fn status(&self) -> Status {
        self.status
    }

    fn end_reason(&self) -> Option<String> {
        self.end.clone()
    }

    fn legal_moves(&self) -> Vec<String> {
        if self.status != Status::Ongoing {
            return Vec::new();
        }
        listing::legal_moves(&self.sp, &self.marginals, self.to_move)
    }

    fn play(&mut self, text: &str) -> Result<PlyRecord, PlayError> {
        if self.status != Status::Ongoing {
            return Err(PlayError::GameOver(format!(
                "the game is over: {}",
                self.status.describe()
            )));
        }
        let input = notation::parse(text)?;
        let before = Before {
            sp: &self.sp,
            marginals: &self.marginals,
            to_move: self.to_move,
            limit: self.limit,
            cancel: self.cancel.as_deref(),
        };
        let cells_before = self.cells();
        let mut rng = self.rng.clone();
        let Made {
            next,
            outcomes,
            mut trace,
            mut note,
        } = rules::make(&before, &input, &mut rng)?;
        self.rng = rng;
        self.sp = next;
        self.marginals = self.sp.marginals();
        let color = self.to_move;
        self.to_move = color.opposite();
        (self.status, self.end) = judge(&self.sp, &self.marginals, self.to_move);
        if let Some(reason) = &self.end {
            trace.push(format!("game over: {reason}"));
            if !note.is_empty() {
                note.push_str("; ");
            }
            note.push_str(self.status.describe());
        }
        let played = notation::format(input.mv, &outcomes);
        let explanation = Explanation::listed(
            &played,
            &note,
            &trace,
            !outcomes.is_empty(),
            &cells_before,
            &self.cells(),
        );
        self.history.push(PlyRecord {
            text: played,
            color,
            note,
            trace,
            explanation,
        });
        self.inputs.push(text.trim().to_string());
        Ok(self
            .history
            .last()
            .expect("a ply was just recorded")
            .clone())
    }

    fn undo(&mut self) -> Result<(), PlayError> {
        let n = self.history.len();
        if n == 0 {
            return Err(PlayError::NothingToUndo);
        }
        *self = self.replayed(n - 1)?;
        Ok(())
    }

    fn ply(&self) -> usize {
        self.history.len()
    }

    fn history(&self) -> &[PlyRecord] {
        &self.history
    }

    fn typing_hint(&self) -> &'static str {
        "type a move: e2e4 or Nf3, e7e8q, b1~d5 (quantum); Enter plays, Esc cancels"
    }

    fn has_quantum_moves(&self) -> bool {
        true
    }

    fn read_san(&self, typed: &str) -> Option<Result<String, String>> {
        if notation::parse(typed).is_ok() {
            return None;
        }
        san::read(self, typed).map(|r| r.map_err(|e| e.to_string()))
    }

    fn forced_outcome(&self, typed: &str) -> Option<String> {
        notation::parse(typed)
            .ok()
            .filter(|i| !i.forced.is_empty())
            .map(|i| i.forced.iter().map(ToString::to_string).collect())
    }

    fn details(&self, cursor: Square) -> Vec<String> {
        report::details(&self.sp, &self.marginals, self.limit, cursor)
    }

    fn to_json(&self) -> serde_json::Value {
        report::to_json(self)
    }

    fn clone_box(&self) -> Box<dyn Playable> {
        Box::new(self.clone())
    }

    fn set_cancel(&mut self, flag: Option<CancelFlag>) {
        self.cancel = flag;
    }
}
