//! Move classification: from a written move and the current state, the move's type,
//! variant and legality (Quantum Chess rules, spec section 3).

use super::board::{Castling, Color, Kind, Piece, Register, Square};
use super::notation::{Marker, MoveText, Shape};
use crate::quantum::CERTAIN_EPS;

/// The type of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveType {
    /// Knight or king, one target.
    Jump,
    /// Bishop, rook or queen, one target.
    Slide,
    /// Knight or king, two targets.
    SplitJump,
    /// Bishop, rook or queen, two targets.
    SplitSlide,
    /// Knight or king, two sources.
    MergeJump,
    /// Bishop, rook or queen, two sources.
    MergeSlide,
    /// Pawn one square forward.
    PawnStep,
    /// Pawn two squares forward from its start rank.
    PawnTwoStep,
    /// Pawn diagonal capture.
    PawnCapture,
    /// Pawn capture en passant.
    EnPassant,
    /// O-O.
    CastleKingSide,
    /// O-O-O.
    CastleQueenSide,
}

/// The variant of a move, from its target square(s).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Target empty or holding the same kind of piece.
    Basic,
    /// Target held in superposition by a piece that can't be captured: measured empty first.
    Excluded,
    /// Target holds an enemy piece: the source is measured first.
    Capture,
}

/// What the rules need to know of the current state.
#[derive(Clone, Debug)]
pub struct BoardState {
    /// The classical register.
    pub register: Register,
    /// Probability that each square is occupied.
    pub probs: [f64; 64],
    /// Side to move.
    pub to_move: Color,
    /// Castling rights.
    pub castling: Castling,
    /// En passant target square, if the previous move was a pawn two-step.
    pub en_passant: Option<Square>,
}

impl BoardState {
    /// True when the square may hold a piece (p > 0).
    pub fn occupied(&self, s: Square) -> bool {
        self.probs[s.index()] > CERTAIN_EPS
    }

    /// True when the square certainly holds a piece (p = 1).
    pub fn certain(&self, s: Square) -> bool {
        self.probs[s.index()] > 1.0 - CERTAIN_EPS
    }

    /// The piece that may stand on a square (p > 0).
    pub fn piece(&self, s: Square) -> Option<Piece> {
        if self.occupied(s) {
            self.register.get(s)
        } else {
            None
        }
    }
}

/// A move the rules accept, with everything the circuit needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Classified {
    /// The move in canonical form (marker and promotion filled in, no outcome).
    pub text: MoveText,
    /// Its type.
    pub kind: MoveType,
    /// Its variant.
    pub variant: Variant,
    /// The moving piece.
    pub piece: Piece,
}

impl Classified {
    /// True when the move's circuit starts with a measurement.
    pub fn measures(&self) -> bool {
        self.variant != Variant::Basic
    }
}

/// Why a move can't be played.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MoveError {
    /// No piece on the source.
    #[error("there is no piece on {0}")]
    NoPiece(Square),
    /// The piece belongs to the other side.
    #[error("the {piece} on {square} is not yours: it is {to_move}'s turn")]
    NotYourPiece {
        /// Described piece.
        piece: String,
        /// Its square.
        square: Square,
        /// Side to move.
        to_move: &'static str,
    },
    /// The written piece letter does not match.
    #[error("{square} holds a {actual}, not a {written}")]
    WrongLetter {
        /// Square.
        square: Square,
        /// Piece there.
        actual: &'static str,
        /// Piece written.
        written: &'static str,
    },
    /// The piece's pattern does not reach the target.
    #[error("the {piece} on {from} cannot reach {to}")]
    CannotReach {
        /// Piece name.
        piece: &'static str,
        /// Source.
        from: Square,
        /// Target.
        to: Square,
    },
    /// A square on the path is certainly occupied.
    #[error("the path from {from} to {to} is blocked: {at} is certainly occupied")]
    Blocked {
        /// Source.
        from: Square,
        /// Target.
        to: Square,
        /// Blocking square.
        at: Square,
    },
    /// The target is certainly occupied by a piece that can't be captured.
    #[error("{square} is certainly occupied by {what}")]
    Occupied {
        /// Target.
        square: Square,
        /// What stands there.
        what: String,
    },
    /// A pawn's diagonal move with nothing to capture.
    #[error(
        "the pawn on {from} moves diagonally only to capture, and there is no enemy piece on {to}"
    )]
    NothingToCapture {
        /// Source.
        from: Square,
        /// Target.
        to: Square,
    },
    /// A pawn reaching the last rank without a promotion letter.
    #[error("the pawn reaches the last rank: name the new piece, e.g. {0}q")]
    PromotionNeeded(String),
    /// A promotion letter on a move that doesn't promote.
    #[error("only a pawn reaching the last rank promotes")]
    NoPromotion,
    /// Split or merge of a pawn.
    #[error("pawns cannot split or merge")]
    PawnSplit,
    /// Split/merge squares repeated.
    #[error("the squares of a split or merge must all be different")]
    RepeatedSquares,
    /// A split or merge target that is not empty or of the same kind.
    #[error("split and merge moves never capture or measure: {square} holds {what}")]
    SplitTarget {
        /// Target.
        square: Square,
        /// What stands there.
        what: String,
    },
    /// Merge sources holding different pieces.
    #[error(
        "a merge needs the same piece on both sources: {from1} holds {p1}, {from2} holds {p2}"
    )]
    MergeSources {
        /// First source.
        from1: Square,
        /// Its piece.
        p1: String,
        /// Second source.
        from2: Square,
        /// Its piece.
        p2: String,
    },
    /// Castling not available.
    #[error("{0}")]
    Castling(String),
    /// The written variant marker disagrees with the position.
    #[error("{written} does not fit: {why}")]
    MarkerMismatch {
        /// The marker written.
        written: &'static str,
        /// The variant found.
        why: String,
    },
    /// An outcome written on a move that measures nothing.
    #[error("this move makes no measurement, so .m{0} does not apply")]
    NoMeasurement(u8),
    /// An impossible forced outcome or a simulator limit.
    #[error("{0}")]
    Quantum(#[from] crate::quantum::QuantumError),
    /// Move after the end of the game.
    #[error("the game is over ({0})")]
    GameOver(String),
    /// Text that is not a move.
    #[error("{0}")]
    Notation(#[from] super::notation::NotationError),
    /// A move in standard algebraic notation that names no legal move, or several.
    #[error("{0}")]
    San(#[from] super::notation::SanError),
}

/// Squares strictly between two squares on a line (empty for adjacent squares).
pub fn between(a: Square, b: Square) -> Vec<Square> {
    let (df, dr) = (b.file() - a.file(), b.rank() - a.rank());
    let n = df.abs().max(dr.abs());
    if n < 2 || !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
        return Vec::new();
    }
    let (sf, sr) = (df.signum(), dr.signum());
    (1..n).filter_map(|i| a.offset(sf * i, sr * i)).collect()
}

/// True when `kind`'s move pattern (not castling, not pawns) goes from `a` to `b`.
pub fn pattern(kind: Kind, a: Square, b: Square) -> bool {
    let (df, dr) = ((b.file() - a.file()).abs(), (b.rank() - a.rank()).abs());
    if df == 0 && dr == 0 {
        return false;
    }
    match kind {
        Kind::Knight => (df, dr) == (1, 2) || (df, dr) == (2, 1),
        Kind::King => df <= 1 && dr <= 1,
        Kind::Bishop => df == dr,
        Kind::Rook => df == 0 || dr == 0,
        Kind::Queen => df == dr || df == 0 || dr == 0,
        Kind::Pawn => false,
    }
}

fn describe(st: &BoardState, s: Square) -> String {
    match st.register.get(s) {
        Some(p) => format!("a {}", p.describe()),
        None => "a piece".into(),
    }
}

/// The path squares of a slide from `a` to `b`, skipping `skip`; an error if one is
/// certainly occupied.
fn clear_path(
    st: &BoardState,
    a: Square,
    b: Square,
    skip: Option<Square>,
) -> Result<(), MoveError> {
    for s in between(a, b) {
        if Some(s) != skip && st.certain(s) {
            return Err(MoveError::Blocked {
                from: a,
                to: b,
                at: s,
            });
        }
    }
    Ok(())
}

/// The variant of a non-split move of `mover` onto `t`. `pawn_step`: the mover is a
/// pawn moving forward, which captures nothing.
fn target_variant(
    st: &BoardState,
    mover: Piece,
    t: Square,
    pawn_step: bool,
) -> Result<Variant, MoveError> {
    let Some(o) = st.piece(t) else {
        return Ok(Variant::Basic);
    };
    let certain = st.certain(t);
    if o.color != mover.color && !pawn_step {
        return Ok(Variant::Capture);
    }
    if certain {
        return Err(MoveError::Occupied {
            square: t,
            what: describe(st, t),
        });
    }
    Ok(if o == mover {
        Variant::Basic
    } else {
        Variant::Excluded
    })
}

/// Checks a split or merge target: empty or the same piece in superposition.
fn split_target(st: &BoardState, mover: Piece, t: Square) -> Result<(), MoveError> {
    match st.piece(t) {
        None => Ok(()),
        Some(o) if o == mover && !st.certain(t) => Ok(()),
        Some(_) => Err(MoveError::SplitTarget {
            square: t,
            what: describe(st, t),
        }),
    }
}

/// The piece on `sq` if the side to move (any side when `free_turns`) may move it.
pub fn check_source(st: &BoardState, sq: Square, free_turns: bool) -> Result<Piece, MoveError> {
    let piece = st.piece(sq).ok_or(MoveError::NoPiece(sq))?;
    if !free_turns && piece.color != st.to_move {
        return Err(MoveError::NotYourPiece {
            piece: piece.describe(),
            square: sq,
            to_move: st.to_move.name(),
        });
    }
    Ok(piece)
}

/// Classifies a written move for the side to move (any side when `free_turns`).
pub fn classify(
    st: &BoardState,
    text: &MoveText,
    free_turns: bool,
) -> Result<Classified, MoveError> {
    let src = text.shape.source();
    let piece = check_source(st, src, free_turns)?;
    if let Some(k) = text.piece {
        if k != piece.kind {
            return Err(MoveError::WrongLetter {
                square: src,
                actual: piece.kind.name(),
                written: k.name(),
            });
        }
    }
    let mut out = Classified {
        text: MoveText {
            piece: None,
            outcome: None,
            ..*text
        },
        kind: MoveType::Jump,
        variant: Variant::Basic,
        piece,
    };
    match text.shape {
        Shape::Standard { from, to } => classify_standard(st, piece, from, to, &mut out)?,
        Shape::Split { from, to1, to2 } => {
            if piece.kind == Kind::Pawn {
                return Err(MoveError::PawnSplit);
            }
            if to1 == to2 || to1 == from || to2 == from {
                return Err(MoveError::RepeatedSquares);
            }
            for (t, other) in [(to1, to2), (to2, to1)] {
                if !pattern(piece.kind, from, t) {
                    return Err(MoveError::CannotReach {
                        piece: piece.kind.name(),
                        from,
                        to: t,
                    });
                }
                if !piece.kind.jumps() {
                    clear_path(st, from, t, Some(other))?;
                }
                split_target(st, piece, t)?;
            }
            out.kind = if piece.kind.jumps() {
                MoveType::SplitJump
            } else {
                MoveType::SplitSlide
            };
        }
        Shape::Merge { from1, from2, to } => {
            if piece.kind == Kind::Pawn {
                return Err(MoveError::PawnSplit);
            }
            if from1 == from2 || to == from1 || to == from2 {
                return Err(MoveError::RepeatedSquares);
            }
            let p2 = st.piece(from2).ok_or(MoveError::NoPiece(from2))?;
            if p2 != piece {
                return Err(MoveError::MergeSources {
                    from1,
                    p1: piece.describe(),
                    from2,
                    p2: p2.describe(),
                });
            }
            for (s, other) in [(from1, from2), (from2, from1)] {
                if !pattern(piece.kind, s, to) {
                    return Err(MoveError::CannotReach {
                        piece: piece.kind.name(),
                        from: s,
                        to,
                    });
                }
                if !piece.kind.jumps() {
                    clear_path(st, s, to, Some(other))?;
                }
            }
            split_target(st, piece, to)?;
            out.kind = if piece.kind.jumps() {
                MoveType::MergeJump
            } else {
                MoveType::MergeSlide
            };
        }
    }
    let promotes = matches!(out.kind, MoveType::PawnStep | MoveType::PawnCapture)
        && matches!(text.shape, Shape::Standard { to, .. } if to.rank() == piece.color.opposite().back_rank());
    match (promotes, text.promotion) {
        (true, None) => return Err(MoveError::PromotionNeeded(text.shape_string())),
        (false, Some(_)) => return Err(MoveError::NoPromotion),
        _ => {}
    }
    check_marker(text.marker, out.variant)?;
    out.text.marker = match out.variant {
        Variant::Basic => None,
        Variant::Excluded => Some(Marker::Excluded),
        Variant::Capture => Some(Marker::Capture),
    };
    if let (Some(o), Variant::Basic) = (text.outcome, out.variant) {
        return Err(MoveError::NoMeasurement(o as u8));
    }
    Ok(out)
}

fn check_marker(written: Option<Marker>, v: Variant) -> Result<(), MoveError> {
    let found = match v {
        Variant::Basic => "the target is empty or holds the same piece (a basic move)",
        Variant::Excluded => {
            "the target may hold a piece that can't be captured (an excluded move, w)"
        }
        Variant::Capture => "the target may hold an enemy piece (a capture, x)",
    };
    match (written, v) {
        (Some(Marker::Capture), Variant::Capture)
        | (Some(Marker::Excluded), Variant::Excluded)
        | (None, _) => Ok(()),
        (Some(Marker::Capture), _) => Err(MoveError::MarkerMismatch {
            written: "x (capture)",
            why: found.into(),
        }),
        (Some(Marker::Excluded), _) => Err(MoveError::MarkerMismatch {
            written: "w (excluded)",
            why: found.into(),
        }),
    }
}

fn classify_standard(
    st: &BoardState,
    piece: Piece,
    from: Square,
    to: Square,
    out: &mut Classified,
) -> Result<(), MoveError> {
    let cannot = || MoveError::CannotReach {
        piece: piece.kind.name(),
        from,
        to,
    };
    let (df, dr) = (to.file() - from.file(), to.rank() - from.rank());
    match piece.kind {
        Kind::Pawn => {
            let fwd = piece.color.forward();
            let start_rank = piece.color.back_rank() + fwd;
            if df == 0 && dr == fwd {
                out.kind = MoveType::PawnStep;
                out.variant = target_variant(st, piece, to, true)?;
            } else if df == 0 && dr == 2 * fwd && from.rank() == start_rank {
                clear_path(st, from, to, None)?;
                out.kind = MoveType::PawnTwoStep;
                out.variant = target_variant(st, piece, to, true)?;
            } else if df.abs() == 1 && dr == fwd {
                let ep_pawn = to.offset(0, -fwd).filter(|&e| {
                    st.en_passant == Some(to)
                        && st.piece(e) == Some(Piece::new(piece.color.opposite(), Kind::Pawn))
                });
                if ep_pawn.is_some() {
                    out.kind = MoveType::EnPassant;
                    out.variant = match st.piece(to) {
                        None => Variant::Basic,
                        Some(o) if o.color != piece.color => Variant::Capture,
                        Some(_) => target_variant(st, piece, to, false)?,
                    };
                } else {
                    match st.piece(to) {
                        Some(o) if o.color != piece.color => {
                            out.kind = MoveType::PawnCapture;
                            out.variant = Variant::Capture;
                        }
                        _ => return Err(MoveError::NothingToCapture { from, to }),
                    }
                }
            } else {
                return Err(cannot());
            }
        }
        Kind::King
            if dr == 0
                && df.abs() == 2
                && from.rank() == piece.color.back_rank()
                && from.file() == 4 =>
        {
            classify_castle(st, piece, from, df > 0, out)?;
        }
        k => {
            if !pattern(k, from, to) {
                return Err(cannot());
            }
            if k.jumps() {
                out.kind = MoveType::Jump;
            } else {
                clear_path(st, from, to, None)?;
                out.kind = MoveType::Slide;
            }
            out.variant = target_variant(st, piece, to, false)?;
        }
    }
    Ok(())
}

/// The squares of a castle: (king from, king to, rook from, rook to, must-be-empty extra).
pub fn castle_squares(
    color: Color,
    king_side: bool,
) -> (Square, Square, Square, Square, Option<Square>) {
    let r = color.back_rank();
    let sq = |f| Square::at(f, r).expect("castling squares are on the board");
    if king_side {
        (sq(4), sq(6), sq(7), sq(5), None)
    } else {
        (sq(4), sq(2), sq(0), sq(3), Some(sq(1)))
    }
}

fn classify_castle(
    st: &BoardState,
    king: Piece,
    from: Square,
    king_side: bool,
    out: &mut Classified,
) -> Result<(), MoveError> {
    let side = if king_side { "king side" } else { "queen side" };
    let color = king.color;
    if !st.castling.get(color, king_side) {
        return Err(MoveError::Castling(format!(
            "{} may no longer castle {side}: the king or that rook has moved",
            color.name()
        )));
    }
    let (_, kt, rf, rt, b) = castle_squares(color, king_side);
    debug_assert_eq!(from.file(), 4);
    let rook = Piece::new(color, Kind::Rook);
    if st.piece(rf) != Some(rook) {
        return Err(MoveError::Castling(format!(
            "there is no {} on {rf} to castle with",
            rook.describe()
        )));
    }
    let mut excluded = false;
    for s in [kt, rt] {
        if let Some(o) = st.piece(s) {
            if st.certain(s) {
                return Err(MoveError::Castling(format!(
                    "castling {side} needs {s} empty, and it certainly holds a {}",
                    o.describe()
                )));
            }
            // The rook's landing square may hold a superposed rook of the same side.
            if !(s == rt && o == rook) {
                excluded = true;
            }
        }
    }
    if let Some(b) = b {
        if st.certain(b) {
            return Err(MoveError::Castling(format!(
                "castling queen side needs {b} empty, and it certainly holds {}",
                describe(st, b)
            )));
        }
    }
    out.kind = if king_side {
        MoveType::CastleKingSide
    } else {
        MoveType::CastleQueenSide
    };
    out.variant = if excluded {
        Variant::Excluded
    } else {
        Variant::Basic
    };
    Ok(())
}
