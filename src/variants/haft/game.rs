//! A game of Haft Schroedinger Chess: the position, the consistent worlds, the history,
//! take-backs and the end of the game.

use super::board::{Board, Man};
use super::census::Census;
use super::error::HaftError;
use super::notation::HaftMove;
use super::rules::{self, Transition};
use super::words::grouped;
use super::worlds::Worlds;
use crate::chess::{Color, Kind, Square, Status};
use crate::game::{Explanation, PlyRecord};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

/// A position with everything derived from it. The list of legal moves and the worlds
/// in check are worked out when first asked for: a player trying moves on copies asks
/// most positions only whether the game goes on.
#[derive(Clone, Debug)]
pub(super) struct Situation {
    pub(super) board: Board,
    worlds: Worlds,
    pub(super) census: Census,
    /// Whether the side to move has a legal move.
    can_move: bool,
    /// Consistent worlds in which the side to move is in check.
    in_check: OnceLock<u64>,
    legal: OnceLock<Vec<HaftMove>>,
}

impl Situation {
    fn new(board: Board, worlds: Worlds) -> Situation {
        let census = Census::new(&worlds);
        let can_move = rules::has_legal_move(&board, &worlds);
        Situation {
            board,
            worlds,
            census,
            can_move,
            in_check: OnceLock::new(),
            legal: OnceLock::new(),
        }
    }

    /// Consistent worlds in which the side to move is in check.
    fn in_check(&self) -> u64 {
        *self.in_check.get_or_init(|| {
            self.census.worlds() - rules::not_in_check(&self.worlds, &self.board).count()
        })
    }

    /// The legal moves of the side to move.
    fn legal(&self) -> &[HaftMove] {
        self.legal
            .get_or_init(|| rules::legal_moves(&self.board, &self.worlds))
    }
}

/// How the worlds ended, once every one of them has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finish {
    /// Worlds in which the side to move is checkmated.
    pub checkmates: u64,
    /// Worlds in which it is stalemated.
    pub stalemates: u64,
    /// The side that would win in the checkmated worlds.
    pub winner: Color,
}

impl Finish {
    /// The result: a win needs checkmate in every consistent world; any stalemated world
    /// makes the game a draw.
    pub fn status(&self) -> Status {
        match (self.stalemates, self.winner) {
            (0, Color::White) => Status::WhiteWins,
            (0, Color::Black) => Status::BlackWins,
            _ => Status::Draw,
        }
    }

    /// The result with the breakdown of worlds, in words.
    pub fn describe(&self) -> String {
        let (m, s) = (self.checkmates, self.stalemates);
        let winner = self.winner.name();
        match (m, s) {
            (_, 0) => format!(
                "checkmate in every consistent world ({}): {winner} wins",
                grouped(m)
            ),
            (0, _) => format!("stalemate in every consistent world ({}): draw", grouped(s)),
            _ => format!(
                "every consistent world has ended: checkmate in {} ({winner} would win), \
                 stalemate in {}; a win needs checkmate in every world, so it is a draw",
                grouped(m),
                grouped(s)
            ),
        }
    }
}

/// A game of Haft Schroedinger Chess (docs/rules/haft.md) from the starting position: pawns as
/// usual, eight undetermined majors per side on the back rank.
#[derive(Clone, Debug)]
pub struct HaftGame {
    pub(super) state: Situation,
    past: Vec<Situation>,
    pub(super) history: Vec<PlyRecord>,
    /// Set to refuse further moves (a replay being cancelled): a move takes a few
    /// milliseconds, so it is looked at before each one rather than inside it.
    pub(super) cancel: Option<Arc<AtomicBool>>,
    /// The seed the game was started with: haft draws nothing, but a saved game keeps it.
    pub(super) seed: u64,
}

impl Default for HaftGame {
    fn default() -> Self {
        HaftGame::new()
    }
}

impl HaftGame {
    /// A new game: 5040^2 consistent worlds, white to move.
    pub fn new() -> HaftGame {
        HaftGame {
            state: Situation::new(Board::start(), Worlds::new()),
            past: Vec::new(),
            history: Vec::new(),
            cancel: None,
            seed: 0,
        }
    }

    /// The same game, recorded as started with `seed`.
    pub fn with_seed(mut self, seed: u64) -> HaftGame {
        self.seed = seed;
        self
    }

    /// The number of consistent worlds (starting pairs).
    pub fn worlds(&self) -> u64 {
        self.state.census.worlds()
    }

    /// The consistent worlds in which the side to move is in check.
    pub fn in_check_worlds(&self) -> u64 {
        self.state.in_check()
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.state.board.to_move
    }

    /// The types the piece on `s` has across the consistent worlds, with the share of
    /// worlds for each (a pawn is a pawn in all of them; empty for an empty square).
    pub fn type_fractions(&self, s: Square) -> Vec<(Kind, f64)> {
        match self.state.board.get(s) {
            None => Vec::new(),
            Some(u) => match u.man {
                Man::Pawn => vec![(Kind::Pawn, 1.0)],
                Man::Major(slot) => self.state.census.fractions(u.color, slot),
            },
        }
    }

    /// The type of the piece on `s` if every consistent world agrees on it.
    pub fn locked(&self, s: Square) -> Option<Kind> {
        let u = self.state.board.get(s)?;
        match u.man {
            Man::Pawn => Some(Kind::Pawn),
            Man::Major(slot) => self.state.census.locked(u.color, slot),
        }
    }

    /// The legal moves of the side to move.
    pub fn legal(&self) -> &[HaftMove] {
        self.state.legal()
    }

    /// How the worlds ended, once every consistent world has ended.
    pub fn ending(&self) -> Option<Finish> {
        (!self.state.can_move).then(|| Finish {
            checkmates: self.state.in_check(),
            stalemates: self.state.census.worlds() - self.state.in_check(),
            winner: self.state.board.to_move.opposite(),
        })
    }

    /// Whether the game goes on, and who won.
    pub fn result(&self) -> Status {
        self.ending().map_or(Status::Ongoing, |e| e.status())
    }

    /// Plays a move in long algebraic notation, or says why it is refused.
    pub fn play_move(&mut self, text: &str) -> Result<&PlyRecord, HaftError> {
        let mv: HaftMove = text.parse()?;
        if let Some(end) = self.ending() {
            return Err(HaftError::GameOver(end.describe()));
        }
        let cells_before = self.board_cells();
        let before = &self.state;
        let t = rules::transition(&before.board, mv)?;
        let shaped = rules::shaped(&before.worlds, &t);
        let mut after = shaped.clone();
        rules::guard_king(&mut after, &t.board, t.mover.color);
        if !after.feasible() {
            return Err(rules::refusal(&before.worlds, &before.census, &t));
        }
        let next = Situation::new(t.board.clone(), after);
        let record = PlyRecord {
            text: mv.to_string(),
            color: t.mover.color,
            note: locks_note(before, &next),
            trace: trace(
                &t,
                before.census.worlds(),
                shaped.count(),
                next.census.worlds(),
            ),
            explanation: Explanation::default(),
        };
        let previous = std::mem::replace(&mut self.state, next);
        self.past.push(previous);
        let mut record = record;
        // Haft draws nothing at random: the rules rule worlds out and fix types.
        record.explanation = Explanation::listed(
            &record.text,
            &record.note,
            &record.trace,
            false,
            &cells_before,
            &self.board_cells(),
        );
        self.history.push(record);
        Ok(self.history.last().expect("a ply was just recorded"))
    }

    /// Takes back the last ply.
    pub fn take_back(&mut self) -> Result<(), HaftError> {
        let previous = self.past.pop().ok_or(HaftError::NothingToUndo)?;
        self.state = previous;
        self.history.pop();
        Ok(())
    }
}

/// "locks N on c3, R on a1": the majors on the board whose type every world agrees on
/// after the ply but not before.
fn locks_note(before: &Situation, after: &Situation) -> String {
    let mut locks = Vec::new();
    for color in [Color::White, Color::Black] {
        for (square, unit) in after.board.units(color) {
            let Man::Major(slot) = unit.man else {
                continue;
            };
            let Some(kind) = after.census.locked(color, slot) else {
                continue;
            };
            let existed = before.board.next_slot(color) > slot;
            if !existed || before.census.locked(color, slot).is_none() {
                locks.push(format!("{} on {square}", kind.letter()));
            }
        }
    }
    if locks.is_empty() {
        String::new()
    } else {
        format!("locks {}", locks.join(", "))
    }
}

/// The trace lines: what the move was, and how the world count changed and why.
fn trace(t: &Transition, before: u64, shaped: u64, after: u64) -> Vec<String> {
    let (from, to) = (t.mv.from, t.mv.to);
    let color = t.mover.color;
    let mut lines = vec![match t.shape {
        Some(shape) => format!(
            "{}: the piece on {from} moved {}",
            t.mv,
            rules::move_phrase(shape)
        ),
        None => format!("{}: pawn from {from} to {to}", t.mv),
    }];
    if let Some((square, unit)) = t.captured {
        let side = unit.color.name();
        lines.push(match unit.man {
            Man::Pawn => format!("captures {side}'s pawn on {square}"),
            Man::Major(_) => {
                format!("captures {side}'s piece on {square} (so it was not {side}'s king)")
            }
        });
    }
    if let Some((_, types)) = t.promoted {
        lines.push(match types.single() {
            Some(k) => format!("promotes to a {}", k.name()),
            None => format!(
                "promotes to a major piece of open type ({}) in every world",
                types.letters()
            ),
        });
    }
    lines.push(format!(
        "{} consistent worlds before the move",
        grouped(before)
    ));
    if t.shape.is_some() {
        lines.push(format!(
            "{} of them let the piece on {from} move that way",
            grouped(shaped)
        ));
    }
    lines.push(format!(
        "{} of those leave {}'s king out of check",
        grouped(after),
        color.name()
    ));
    lines.push(format!(
        "consistent worlds: {} -> {}",
        grouped(before),
        grouped(after)
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ending(checkmates: u64, stalemates: u64) -> Finish {
        Finish {
            checkmates,
            stalemates,
            winner: Color::Black,
        }
    }

    #[test]
    fn a_win_needs_checkmate_in_every_world() {
        assert_eq!(ending(5, 0).status(), Status::BlackWins);
        assert_eq!(
            ending(1_234, 0).describe(),
            "checkmate in every consistent world (1,234): black wins"
        );
        assert_eq!(ending(0, 3).status(), Status::Draw);
        assert_eq!(
            ending(0, 3).describe(),
            "stalemate in every consistent world (3): draw"
        );
        let mixed = ending(10, 2);
        assert_eq!(mixed.status(), Status::Draw);
        assert_eq!(
            mixed.describe(),
            "every consistent world has ended: checkmate in 10 (black would win), stalemate \
             in 2; a win needs checkmate in every world, so it is a draw"
        );
        let white = Finish {
            winner: Color::White,
            ..ending(1, 0)
        };
        assert_eq!(white.status(), Status::WhiteWins);
    }
}
