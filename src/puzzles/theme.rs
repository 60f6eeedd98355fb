//! A puzzle's theme: the idea its proved best line turns on, decided by one rule from
//! the position and the line (docs/puzzles.md#themes).
//!
//! The solver's moves of the line are looked at in turn, the first that says something
//! naming the theme; a move that says nothing (a quiet move) hands on to the solver's
//! next move of the line. What a move says, the first that holds:
//!
//! 1. an excluded move: **excluded move**;
//! 2. a merge whose piece could be captured on one of its sources and cannot be on its
//!    target: **merge to safety**;
//! 3. a split whose two targets both attack the defender's king or queen: **split
//!    fork**; any other split of a piece that could be captured where it stands:
//!    **split escape**;
//! 4. a bishop's, rook's or queen's move through a square that is occupied in some
//!    branches only: **maybe-occupied path**;
//! 5. a capture of a piece whose square is entangled with a square of another piece
//!    (their occupancies are correlated): **entangled defender**;
//! 6. any other capture that measures a piece in superposition (the capturer or the
//!    captured): **measure to win**;
//! 7. a king's move when the goal is to survive: **king walk**;
//! 8. a capture of a certain piece by a certain piece: **plain capture**.
//!
//! A line whose solver's moves all say nothing is a **quiet move**.

use super::goal::Goal;
use crate::chess::board::{Color, Kind, Square};
use crate::chess::classify::{between, Classified, MoveType, Variant};
use crate::chess::movegen::legal_moves;
use crate::chess::{Game, Shape};
use crate::quantum::CERTAIN_EPS;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The idea a puzzle turns on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Theme {
    /// A capture whose measurement decides.
    MeasureToWin,
    /// A split whose two halves both attack the king or the queen.
    SplitFork,
    /// A split taking an attacked piece out of reach, half at a time.
    SplitEscape,
    /// A capture of a piece entangled with another.
    EntangledDefender,
    /// A merge taking a piece out of attack.
    MergeToSafety,
    /// An excluded move: the target measured empty first.
    ExcludedMove,
    /// A slide through a square occupied in some branches only.
    MaybeOccupiedPath,
    /// The king stepping out of reach.
    KingWalk,
    /// A certain capture.
    PlainCapture,
    /// Moves that prepare without capturing, splitting or merging.
    QuietMove,
}

impl Theme {
    /// Every theme, in the order of the list.
    pub const ALL: [Theme; 10] = [
        Theme::MeasureToWin,
        Theme::SplitFork,
        Theme::SplitEscape,
        Theme::EntangledDefender,
        Theme::MergeToSafety,
        Theme::ExcludedMove,
        Theme::MaybeOccupiedPath,
        Theme::KingWalk,
        Theme::PlainCapture,
        Theme::QuietMove,
    ];

    /// Its name in the pack and on the command line: "split-fork".
    pub fn name(self) -> &'static str {
        match self {
            Theme::MeasureToWin => "measure-to-win",
            Theme::SplitFork => "split-fork",
            Theme::SplitEscape => "split-escape",
            Theme::EntangledDefender => "entangled-defender",
            Theme::MergeToSafety => "merge-to-safety",
            Theme::ExcludedMove => "excluded-move",
            Theme::MaybeOccupiedPath => "maybe-occupied-path",
            Theme::KingWalk => "king-walk",
            Theme::PlainCapture => "plain-capture",
            Theme::QuietMove => "quiet-move",
        }
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A theme that is not one of the list.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{0}\" is not a theme; the themes are: {list}", list = names())]
pub struct UnknownTheme(pub String);

/// The themes' names, comma separated.
fn names() -> String {
    Theme::ALL.map(Theme::name).join(", ")
}

impl FromStr for Theme {
    type Err = UnknownTheme;

    fn from_str(s: &str) -> Result<Theme, UnknownTheme> {
        let s = s.trim();
        Theme::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| UnknownTheme(s.to_string()))
    }
}

/// The theme of a puzzle with `goal` from `game` (the solver to move) whose proved
/// best line is `line` (moves with their outcomes, as the pack writes it); a line
/// that does not replay is read as far as it goes.
pub fn theme(game: &Game, goal: Goal, line: &[String]) -> Theme {
    let solver = game.to_move();
    let mut g = game.detached();
    for text in line {
        let Ok(t) = g.read(text) else { break };
        if g.to_move() == solver {
            let Some(m) = legal_moves(g.state(), false)
                .into_iter()
                .find(|m| m.text.shape == t.shape)
            else {
                break;
            };
            if let Some(theme) = said(&g, goal, &m) {
                return theme;
            }
        }
        match g.after(&t) {
            Ok((next, _)) => g = next,
            Err(_) => break,
        }
    }
    Theme::QuietMove
}

/// What the solver's move `m` in `g` says of the theme (the module's list); `None` for
/// a quiet move.
fn said(g: &Game, goal: Goal, m: &Classified) -> Option<Theme> {
    let st = g.state();
    let maybe = |s: Square| (CERTAIN_EPS..=1.0 - CERTAIN_EPS).contains(&st.probs[s.index()]);
    let solver = g.to_move();
    if m.variant == Variant::Excluded {
        return Some(Theme::ExcludedMove);
    }
    match m.text.shape {
        Shape::Merge { from1, from2, to } => {
            let threatened = attacked(g, solver.opposite(), &[from1, from2]);
            let safe = g
                .after(&m.text)
                .is_ok_and(|(after, _)| !attacked(&after, solver.opposite(), &[to]));
            (threatened && safe).then_some(Theme::MergeToSafety)
        }
        Shape::Split { from, to1, to2 } => {
            let forks = g.after(&m.text).is_ok_and(|(after, _)| {
                let mine = after.passed();
                strikes(&mine, to1) && strikes(&mine, to2)
            });
            if forks {
                Some(Theme::SplitFork)
            } else {
                attacked(g, solver.opposite(), &[from]).then_some(Theme::SplitEscape)
            }
        }
        Shape::Standard { from, to } => {
            let slides = matches!(m.kind, MoveType::Slide);
            if slides && between(from, to).into_iter().any(maybe) {
                return Some(Theme::MaybeOccupiedPath);
            }
            let captures = st
                .piece(to)
                .is_some_and(|p| p.color != solver && m.variant == Variant::Capture)
                || m.kind == MoveType::EnPassant;
            if captures && entangled(g, to) {
                return Some(Theme::EntangledDefender);
            }
            if captures && (maybe(from) || maybe(to)) {
                return Some(Theme::MeasureToWin);
            }
            if m.piece.kind == Kind::King && goal == Goal::Survive {
                return Some(Theme::KingWalk);
            }
            captures.then_some(Theme::PlainCapture)
        }
    }
}

/// True when `by` has a capture onto one of `squares` in `g` (as if it were to move).
fn attacked(g: &Game, by: Color, squares: &[Square]) -> bool {
    let board = if g.to_move() == by {
        g.detached()
    } else {
        g.passed()
    };
    legal_moves(board.state(), false).iter().any(|m| {
        m.variant == Variant::Capture
            && matches!(m.text.shape, Shape::Standard { to, .. } if squares.contains(&to))
    })
}

/// True when the piece on `from` in `g` (its side to move) has a capture of the other
/// side's king or queen.
fn strikes(g: &Game, from: Square) -> bool {
    let st = g.state();
    legal_moves(st, false).iter().any(|m| match m.text.shape {
        Shape::Standard { from: f, to } if f == from && m.variant == Variant::Capture => st
            .piece(to)
            .is_some_and(|p| matches!(p.kind, Kind::King | Kind::Queen)),
        _ => false,
    })
}

/// True when the occupancy of `sq` is correlated with that of a square holding another
/// piece (of another kind or side): the two are entangled. The halves of one split
/// piece (the same kind and side) do not count.
fn entangled(g: &Game, sq: Square) -> bool {
    let st = g.state();
    let Some(piece) = st.piece(sq) else {
        return false;
    };
    let px = st.probs[sq.index()];
    if !(CERTAIN_EPS..=1.0 - CERTAIN_EPS).contains(&px) {
        return false;
    }
    let joint = g.joint_occupancy(sq);
    Square::all().filter(|&y| y != sq).any(|y| {
        let py = st.probs[y.index()];
        let other = st.piece(y).is_some_and(|p| p != piece);
        other
            && (CERTAIN_EPS..=1.0 - CERTAIN_EPS).contains(&py)
            && (joint[y.index()] - px * py).abs() > 1e-6
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::pack::position;

    /// The theme of `line` for `goal` from `fen` with `setup` played.
    fn of(fen: &str, setup: &[&str], goal: Goal, line: &[&str]) -> Theme {
        let setup: Vec<String> = setup.iter().map(|s| s.to_string()).collect();
        let g = position(fen, &setup).unwrap();
        let line: Vec<String> = line.iter().map(|s| s.to_string()).collect();
        theme(&g, goal, &line)
    }

    /// White's knight split to a3 and c3, Black to move once more.
    const KNIGHT_HALVES: [&str; 2] = ["b1^a3c3", "e8d8"];

    #[test]
    fn each_rule_names_its_theme() {
        let knight = "4k3/8/8/8/8/8/8/RN2K3 w - - 0 1";
        // The rook onto its own knight's half: measured empty first.
        assert_eq!(
            of(knight, &KNIGHT_HALVES, Goal::Queen, &["a1a3"]),
            Theme::ExcludedMove
        );
        // The rook past the half on a3.
        assert_eq!(
            of(knight, &KNIGHT_HALVES, Goal::King, &["a1a5"]),
            Theme::MaybeOccupiedPath
        );
        // The rook on a8 attacks the half on a3; b1 is out of its reach.
        let rook = "r3k3/8/8/8/8/8/8/1N2K3 w - - 0 1";
        assert_eq!(
            of(rook, &KNIGHT_HALVES, Goal::Survive, &["a3c3^b1"]),
            Theme::MergeToSafety
        );
        // c6 attacks the queen on b8, f5 the king on g7.
        let fork = "1q6/p5k1/8/8/3N4/8/8/4K3 w - - 0 1";
        assert_eq!(of(fork, &[], Goal::Queen, &["d4^c6f5"]), Theme::SplitFork);
        // A quiet move hands on to the solver's next move of the line.
        assert_eq!(
            of(fork, &[], Goal::Queen, &["e1f1", "a7a6", "d4^c6f5"]),
            Theme::SplitFork
        );
        assert_eq!(of(fork, &[], Goal::King, &["e1f1"]), Theme::QuietMove);
        // The queen attacked by the rook on a1 splits away from it.
        let attacked = "4k3/8/8/8/8/8/8/r2QK3 w - - 0 1";
        assert_eq!(
            of(attacked, &[], Goal::Survive, &["d1^d4d6"]),
            Theme::SplitEscape
        );
        // The king steps off the rook's rank.
        assert_eq!(of(attacked, &[], Goal::Survive, &["e1e2"]), Theme::KingWalk);
        // A certain rook takes a certain queen.
        assert_eq!(
            of(
                "4k2q/8/8/8/8/8/8/4K2R w - - 0 1",
                &[],
                Goal::Queen,
                &["h1xh8"]
            ),
            Theme::PlainCapture
        );
        // Half a king taken: the measurement decides.
        assert_eq!(
            of(
                "3qk3/8/2N5/8/8/8/8/4K3 b - - 0 1",
                &["e8^e7f8"],
                Goal::King,
                &["c6xe7"]
            ),
            Theme::MeasureToWin
        );
        // The rook went a8-a4 past the knight's half on a6: it stands on a4 exactly
        // when the knight is not on a6.
        assert_eq!(
            of(
                "rn2k3/8/8/8/7R/8/8/4K3 b - - 0 1",
                &["b8^a6c6", "e1e2", "a8a4"],
                Goal::Queen,
                &["h4xa4"]
            ),
            Theme::EntangledDefender
        );
    }

    #[test]
    fn themes_read_back_their_names() {
        for t in Theme::ALL {
            assert_eq!(t.name().parse::<Theme>(), Ok(t));
            assert_eq!(t.to_string(), t.name());
        }
        let e = "fork".parse::<Theme>().unwrap_err().to_string();
        assert!(e.contains("split-fork") && e.contains("\"fork\""), "{e}");
    }
}
