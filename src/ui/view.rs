//! Read-only facts about a game that the panes show but the rules do not provide
//! directly: legal targets of a selection, correlations between squares, piece counts.
//! Computed once per change (not per frame) and kept in [`View`].

use crate::chess::movegen::moves_from;
use crate::chess::threat::{king_threat, Threat};
use crate::chess::{Color, Game, Shape, Square};
use crate::quantum::CERTAIN_EPS;

/// Most likely sets of occupied squares the view keeps (more than a pane can show).
const LISTED: usize = 64;

/// What the panes need that is costly to compute: refreshed after every move.
#[derive(Clone, Debug, Default)]
pub struct View {
    /// The probability that each square is occupied (0 where it is empty).
    pub probability: Vec<f64>,
    /// The most likely sets of occupied squares, largest first.
    pub dist: Vec<(u64, f64)>,
    /// How many sets of occupied squares the state has.
    pub occupancies: usize,
    /// Squares in superposition (0 < p < 1), as a bitboard.
    pub superposed: u64,
    /// Expected number of white and black pieces.
    pub count: [f64; 2],
    /// Live basis states in the simulator.
    pub branches: usize,
    /// Correlations of the cursor square with every other superposed square, strongest
    /// first.
    pub correlations: Vec<(Square, f64)>,
    /// The most likely capture of each side's king (white, black) by the other side's
    /// next move; for the side to move, as if it passed.
    pub threats: [Option<Threat>; 2],
}

impl View {
    /// The view of `game`, with correlations for the square `focus`.
    pub fn of(game: &Game, focus: Square) -> View {
        let mut superposed = 0u64;
        let mut count = [0.0; 2];
        let mut probability = vec![0.0; 64];
        for s in Square::all() {
            let p = game.probability(s);
            probability[s.0 as usize] = p;
            if p > CERTAIN_EPS && p < 1.0 - CERTAIN_EPS {
                superposed |= 1 << s.0;
            }
            if let Some(piece) = game.state().piece(s) {
                count[(piece.color == Color::Black) as usize] += p;
            }
        }
        let dist = game.distribution(LISTED);
        let mut v = View {
            probability,
            dist: dist.entries,
            occupancies: dist.sets,
            superposed,
            count,
            branches: game.branch_count(),
            correlations: Vec::new(),
            threats: [Color::White, Color::Black].map(|c| king_threat(game, c)),
        };
        v.focus(game, focus);
        v
    }

    /// The probability that `sq` is occupied.
    pub fn chance(&self, sq: Square) -> f64 {
        self.probability
            .get(sq.0 as usize)
            .copied()
            .unwrap_or_default()
    }

    /// The most likely capture of `color`'s king by the other side's next move.
    pub fn threat(&self, color: Color) -> Option<&Threat> {
        self.threats[(color == Color::Black) as usize].as_ref()
    }

    /// Recomputes the correlations for a new cursor square.
    pub fn focus(&mut self, game: &Game, focus: Square) {
        self.correlations = correlations(self.superposed, game, focus);
    }
}

/// The Pearson correlation of "x is occupied" with "y is occupied" for every superposed
/// square y: +1 always together, -1 never together. Values under 0.005 in size are left
/// out.
pub fn correlations(superposed: u64, game: &Game, x: Square) -> Vec<(Square, f64)> {
    if superposed >> x.0 & 1 == 0 {
        return Vec::new();
    }
    let joint = game.joint_occupancy(x);
    let px = game.probability(x);
    let mut out: Vec<(Square, f64)> = Square::all()
        .filter(|y| *y != x && superposed >> y.0 & 1 == 1)
        .filter_map(|y| {
            let py = game.probability(y);
            let r = (joint[y.index()] - px * py) / (px * (1.0 - px) * py * (1.0 - py)).sqrt();
            (r.abs() >= 0.005).then_some((y, r.clamp(-1.0, 1.0)))
        })
        .collect();
    out.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()).then(a.0.cmp(&b.0)));
    out
}

/// Which part of a move the player is picking squares for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// Target of a standard move from the source.
    Target(Square),
    /// First target of a split from the source.
    SplitFirst(Square),
    /// Second target of a split, given the source and first target.
    SplitSecond(Square, Square),
    /// Second source of a merge, given the first.
    MergeSecond(Square),
    /// Target of a merge, given both sources.
    MergeTarget(Square, Square),
}

/// The squares the rules accept for the next pick, ascending.
pub fn legal_squares(game: &Game, pick: Pick) -> Vec<Square> {
    let free = game.options().free_turns;
    let src = match pick {
        Pick::Target(s) | Pick::SplitFirst(s) | Pick::SplitSecond(s, _) => s,
        Pick::MergeSecond(s) | Pick::MergeTarget(s, _) => s,
    };
    let mut out: Vec<Square> = moves_from(game.state(), src, free)
        .into_iter()
        .filter_map(|m| match (pick, m.text.shape) {
            (Pick::Target(f), Shape::Standard { from, to }) if from == f => Some(to),
            (Pick::SplitFirst(f), Shape::Split { from, to1, .. }) if from == f => Some(to1),
            (Pick::SplitSecond(f, t1), Shape::Split { from, to1, to2 })
                if from == f && to1 == t1 =>
            {
                Some(to2)
            }
            (Pick::MergeSecond(f), Shape::Merge { from1, from2, .. }) if from1 == f => Some(from2),
            (Pick::MergeTarget(f1, f2), Shape::Merge { from1, from2, to })
                if from1 == f1 && from2 == f2 =>
            {
                Some(to)
            }
            _ => None,
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// True when a standard move from `from` to `to` needs a promotion piece.
pub fn promotes(game: &Game, from: Square, to: Square) -> bool {
    moves_from(game.state(), from, game.options().free_turns)
        .iter()
        .any(|m| m.text.shape == Shape::Standard { from, to } && m.text.promotion.is_some())
}

/// The squares of a bitboard, a1..h8.
pub fn squares_of(set: u64) -> impl Iterator<Item = Square> {
    (0..64u8).filter(move |i| set >> i & 1 == 1).map(Square)
}
