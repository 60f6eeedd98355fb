//! The circuit of every move type and variant (spec section 3), applied to the simulator.

use super::board::{Kind, Piece, Square};
use super::classify::{between, castle_squares, Classified, MoveType, Variant};
use super::notation::Shape;
use crate::quantum::{Control, Gate, Measurement, QuantumError, Qubit, Simulator};

/// What a move's circuit did.
#[derive(Clone, Debug, PartialEq)]
pub struct Applied {
    /// The measurement the move made, if any.
    pub measurement: Option<Measurement>,
    /// The squares the move may have put a piece on, with that piece (empty when a
    /// measurement stopped the move).
    pub placed: Vec<(Square, Piece)>,
    /// The ancillas that took a captured piece, with the square each was taken from.
    pub captures: Vec<(Square, Qubit)>,
}

/// What a move's unitary part did: the squares it may have put a piece on, with that
/// piece, and the ancillas that took a captured piece, with the square each was taken
/// from.
pub type Moved = (Vec<(Square, Piece)>, Vec<(Square, Qubit)>);

fn q(s: Square) -> Qubit {
    s.0 as Qubit
}

fn qs(v: &[Square]) -> Vec<Qubit> {
    v.iter().map(|&s| q(s)).collect()
}

/// `Clear(path)` as a control list (none for an empty path).
fn clear(path: &[Square]) -> Vec<Control> {
    if path.is_empty() {
        Vec::new()
    } else {
        vec![Control::Clear(qs(path))]
    }
}

/// The path of a slide from `a` to `b` without `skip` (the other split target or merge source).
fn path(a: Square, b: Square, skip: Option<Square>) -> Vec<Square> {
    between(a, b)
        .into_iter()
        .filter(|&s| Some(s) != skip)
        .collect()
}

/// The condition a move's measurement asks, as controls that all hold when the move
/// goes on (outcome 1); empty for a move that does not measure.
pub fn condition(mv: &Classified) -> Vec<Control> {
    match (mv.variant, mv.text.shape) {
        (Variant::Basic, _) => Vec::new(),
        (Variant::Excluded, Shape::Standard { to, .. }) => match mv.kind {
            MoveType::CastleKingSide | MoveType::CastleQueenSide => {
                let (_, kt, _, rt, _) =
                    castle_squares(mv.piece.color, mv.kind == MoveType::CastleKingSide);
                vec![Control::Bit(q(rt), false), Control::Bit(q(kt), false)]
            }
            _ => vec![Control::Bit(q(to), false)],
        },
        (Variant::Capture, Shape::Standard { from, to }) => {
            let mut v = vec![Control::Bit(q(from), true)];
            if mv.kind == MoveType::Slide {
                v.extend(clear(&between(from, to)));
            }
            v
        }
        (_, shape) => unreachable!("split and merge moves are basic: {shape:?}"),
    }
}

/// Runs the circuit of a classified move. `forced` forces the outcome of its measurement.
pub fn apply(
    sim: &mut Simulator,
    mv: &Classified,
    forced: Option<bool>,
) -> Result<Applied, QuantumError> {
    let measurement = measure(sim, mv, forced)?;
    if measurement.is_some_and(|m| !m.outcome) {
        return Ok(Applied {
            measurement,
            placed: Vec::new(),
            captures: Vec::new(),
        });
    }
    let (placed, captures) = go_on(sim, mv)?;
    Ok(Applied {
        measurement,
        placed,
        captures,
    })
}

/// The measurement of a move's [`condition`], if it has one: outcome 1 = the move goes on.
pub fn measure(
    sim: &mut Simulator,
    mv: &Classified,
    forced: Option<bool>,
) -> Result<Option<Measurement>, QuantumError> {
    let pre = condition(mv);
    if pre.is_empty() {
        return Ok(None);
    }
    sim.measure(&pre, forced).map(Some)
}

/// What a move does once its measurement (if any) said it goes on: the squares it may
/// have put a piece on, and the ancillas that took a captured piece, each with the square
/// it was taken from.
pub fn go_on(sim: &mut Simulator, mv: &Classified) -> Result<Moved, QuantumError> {
    let iswap = Gate::ISwap;
    let piece = mv.piece;
    let landed = match mv.text.promotion {
        Some(k) => Piece::new(piece.color, k),
        None => piece,
    };
    let placed = match mv.text.shape {
        Shape::Standard { from, to } => standard(sim, mv, from, to, landed)?,
        Shape::Split { from, to1, to2 } => {
            if mv.kind == MoveType::SplitJump {
                sim.apply(Gate::SqrtISwap, &[q(from), q(to1)], &[])?;
                sim.apply(iswap, &[q(from), q(to2)], &[])?;
            } else {
                let p1 = path(from, to1, Some(to2));
                let p2 = path(from, to2, Some(to1));
                let both: Vec<Control> = clear(&p1).into_iter().chain(clear(&p2)).collect();
                sim.apply(Gate::SqrtISwap, &[q(from), q(to1)], &both)?;
                sim.apply(iswap, &[q(from), q(to2)], &both)?;
                if !p1.is_empty() {
                    let mut c = vec![Control::Blocked(qs(&p1))];
                    c.extend(clear(&p2));
                    sim.apply(iswap, &[q(from), q(to2)], &c)?;
                }
                if !p2.is_empty() {
                    let mut c = clear(&p1);
                    c.push(Control::Blocked(qs(&p2)));
                    sim.apply(iswap, &[q(from), q(to1)], &c)?;
                }
            }
            (vec![(to1, piece), (to2, piece)], Vec::new())
        }
        Shape::Merge { from1, from2, to } => {
            if mv.kind == MoveType::MergeJump {
                sim.apply(Gate::ISwapInv, &[q(to), q(from1)], &[])?;
                sim.apply(Gate::SqrtISwapInv, &[q(to), q(from2)], &[])?;
            } else {
                let p1 = path(from1, to, Some(from2));
                let p2 = path(from2, to, Some(from1));
                let both: Vec<Control> = clear(&p1).into_iter().chain(clear(&p2)).collect();
                sim.apply(Gate::ISwapInv, &[q(to), q(from1)], &both)?;
                sim.apply(Gate::SqrtISwapInv, &[q(to), q(from2)], &both)?;
                if !p1.is_empty() {
                    let mut c = vec![Control::Blocked(qs(&p1))];
                    c.extend(clear(&p2));
                    sim.apply(Gate::ISwapInv, &[q(from2), q(to)], &c)?;
                }
                if !p2.is_empty() {
                    let mut c = clear(&p1);
                    c.push(Control::Blocked(qs(&p2)));
                    sim.apply(Gate::ISwapInv, &[q(from1), q(to)], &c)?;
                }
            }
            (vec![(to, piece)], Vec::new())
        }
    };
    Ok(placed)
}

/// The unitary part of a one-source, one-target move (after its measurement went on).
fn standard(
    sim: &mut Simulator,
    mv: &Classified,
    from: Square,
    to: Square,
    landed: Piece,
) -> Result<Moved, QuantumError> {
    let iswap = Gate::ISwap;
    let (s, t) = (q(from), q(to));
    let mut captures = Vec::new();
    match (mv.kind, mv.variant) {
        (MoveType::Jump | MoveType::PawnStep, Variant::Basic | Variant::Excluded) => {
            sim.apply(iswap, &[s, t], &[])?;
        }
        (MoveType::Slide | MoveType::PawnTwoStep, Variant::Basic | Variant::Excluded) => {
            sim.apply(iswap, &[s, t], &clear(&between(from, to)))?;
        }
        (MoveType::Jump | MoveType::Slide, Variant::Capture) => {
            let a = sim.alloc()?;
            sim.apply(iswap, &[t, a], &[])?;
            sim.apply(iswap, &[s, t], &[])?;
            captures.push((to, a));
        }
        (MoveType::PawnCapture, _) => {
            let a = sim.alloc()?;
            sim.apply(iswap, &[t, a], &[])?;
            sim.apply(iswap, &[s, t], &[Control::Bit(a, true)])?;
            captures.push((to, a));
        }
        (MoveType::EnPassant, Variant::Basic | Variant::Excluded) => {
            let ep_square =
                Square::at(to.file(), from.rank()).expect("en passant square is on the board");
            let ep = q(ep_square);
            let a = sim.alloc()?;
            sim.apply(
                iswap,
                &[ep, a],
                &[Control::Bit(s, true), Control::Bit(t, false)],
            )?;
            sim.apply(iswap, &[s, t], &[Control::Bit(a, true)])?;
            captures.push((ep_square, a));
        }
        (MoveType::EnPassant, Variant::Capture) => {
            let ep_square =
                Square::at(to.file(), from.rank()).expect("en passant square is on the board");
            let ep = q(ep_square);
            let a1 = sim.alloc()?;
            let a2 = sim.alloc()?;
            sim.apply(iswap, &[t, a1], &[])?;
            sim.apply(iswap, &[ep, a2], &[Control::Bit(a1, false)])?;
            sim.apply(iswap, &[s, t], &[Control::Blocked(vec![a1, a2])])?;
            captures.push((to, a1));
            captures.push((ep_square, a2));
        }
        (MoveType::CastleKingSide | MoveType::CastleQueenSide, _) => {
            let king_side = mv.kind == MoveType::CastleKingSide;
            let (kf, kt, rf, rt, b) = castle_squares(mv.piece.color, king_side);
            let ctl: Vec<Control> = b.map(|b| Control::Bit(q(b), false)).into_iter().collect();
            sim.apply(iswap, &[q(kf), q(kt)], &ctl)?;
            sim.apply(iswap, &[q(rf), q(rt)], &ctl)?;
            return Ok((
                vec![(kt, mv.piece), (rt, Piece::new(mv.piece.color, Kind::Rook))],
                captures,
            ));
        }
        (k, v) => unreachable!("no circuit for {k:?} {v:?}"),
    }
    Ok((vec![(to, landed)], captures))
}
