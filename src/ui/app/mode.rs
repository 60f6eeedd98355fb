//! What the player is in the middle of on the board, and the replay being stepped
//! through.

use crate::chess::Square;
use crate::game::Playable;

/// What the player is in the middle of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Nothing selected.
    Idle,
    /// Picking the target of a standard move from `from`.
    Source {
        /// The selected piece.
        from: Square,
        /// Its legal targets.
        targets: Vec<Square>,
    },
    /// Picking the first target of a split.
    SplitFirst {
        /// The piece that splits.
        from: Square,
        /// Legal first targets.
        targets: Vec<Square>,
    },
    /// Picking the second target of a split.
    SplitSecond {
        /// The piece that splits.
        from: Square,
        /// The first target.
        to1: Square,
        /// Legal second targets.
        targets: Vec<Square>,
    },
    /// Picking the second source of a merge.
    MergeSecond {
        /// The first source.
        from1: Square,
        /// Legal second sources.
        targets: Vec<Square>,
    },
    /// Picking the target of a merge.
    MergeTarget {
        /// The first source.
        from1: Square,
        /// The second source.
        from2: Square,
        /// Legal targets.
        targets: Vec<Square>,
    },
    /// Waiting for the promotion piece of a pawn move.
    Promotion {
        /// The pawn.
        from: Square,
        /// The last-rank square.
        to: Square,
    },
    /// `s` or `m` was pressed where no split or merge could start: the next pick is
    /// the piece to start from.
    Arm {
        /// A merge (else a split).
        merge: bool,
    },
    /// A piece is picked in a rule system that lists its moves (harmonics, haft): its
    /// legal moves of one kind.
    Moves {
        /// The picked piece.
        from: Square,
        /// Quantum moves (harmonics `~`) instead of ordinary ones.
        quantum: bool,
        /// The legal moves of the piece in this kind, in notation.
        moves: Vec<String>,
        /// Their targets.
        targets: Vec<Square>,
    },
    /// Several listed moves go to the same square (promotion): pick one by its letter.
    Choice {
        /// The moves, in notation.
        moves: Vec<String>,
        /// Their target.
        targets: Vec<Square>,
    },
}

/// Stepping through a finished or saved game: the whole game, and the ply shown.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The whole game.
    pub full: Box<dyn Playable>,
    /// How many plies of it are shown (0 = the start position).
    pub ply: usize,
    /// Whether the game was played here and is reviewed at its end (`R` after the
    /// game-over box), not opened from a file: leaving still says where it is saved.
    pub from_play: bool,
}

impl Mode {
    /// The selected source squares.
    pub fn sources(&self) -> Vec<Square> {
        match self {
            Mode::Source { from, .. }
            | Mode::SplitFirst { from, .. }
            | Mode::SplitSecond { from, .. }
            | Mode::Promotion { from, .. }
            | Mode::Moves { from, .. } => vec![*from],
            Mode::MergeSecond { from1, .. } => vec![*from1],
            Mode::MergeTarget { from1, from2, .. } => vec![*from1, *from2],
            Mode::Idle | Mode::Arm { .. } | Mode::Choice { .. } => Vec::new(),
        }
    }

    /// Squares picked as targets so far (the first target of a split).
    pub fn picked_targets(&self) -> Vec<Square> {
        match self {
            Mode::SplitSecond { to1, .. } => vec![*to1],
            Mode::Promotion { to, .. } => vec![*to],
            _ => Vec::new(),
        }
    }

    /// The squares the next pick may be.
    pub fn targets(&self) -> &[Square] {
        match self {
            Mode::Source { targets, .. }
            | Mode::SplitFirst { targets, .. }
            | Mode::SplitSecond { targets, .. }
            | Mode::MergeSecond { targets, .. }
            | Mode::MergeTarget { targets, .. }
            | Mode::Moves { targets, .. }
            | Mode::Choice { targets, .. } => targets,
            _ => &[],
        }
    }
}
