//! One move on the superposition: checked with reasons a player understands, made in every
//! harmonic that allows it, then the squares it disputes are measured and the bound on
//! the number of harmonics is enforced.

use super::board::{bit, code, piece, Board, EMPTY};
use super::geometry::{self, is_castle, reach, Effect};
use super::measure::Measurer;
use super::notation::{Input, Move, Outcome};
use super::report::harmonics;
use super::superposition::{Marginal, Superposition};
use crate::chess::classify::castle_squares;
use crate::chess::{Color, Kind, Piece, Square};
use crate::format::percent;
use crate::game::PlayError;
use crate::seeded::SeededRng;
use std::sync::atomic::{AtomicBool, Ordering};

/// A move that was made: the new superposition and what happened.
pub struct Made {
    /// The harmonics after the move, weights summing to 1.
    pub next: Superposition,
    /// The measurements, in order.
    pub outcomes: Vec<Outcome>,
    /// What happened, line by line.
    pub trace: Vec<String>,
    /// A short remark.
    pub note: String,
}

/// The position a move is made in.
pub struct Before<'a> {
    /// The harmonics.
    pub sp: &'a Superposition,
    /// Their marginals (which piece stands where).
    pub marginals: &'a [Marginal; 64],
    /// The side to move.
    pub to_move: Color,
    /// The most harmonics kept after a move.
    pub limit: usize,
    /// Once set, the move stops with [`PlayError::Cancelled`].
    pub cancel: Option<&'a AtomicBool>,
}

/// Harmonics worked through between two looks at the cancel flag.
const CANCEL_EVERY: usize = 1024;

impl Before<'_> {
    /// An error once the cancel flag is set.
    pub fn go_on(&self) -> Result<(), PlayError> {
        match self.cancel {
            Some(c) if c.load(Ordering::Relaxed) => Err(PlayError::Cancelled),
            _ => Ok(()),
        }
    }
}

fn refuse<T>(msg: impl Into<String>) -> Result<T, PlayError> {
    Err(PlayError::Illegal(msg.into()))
}

/// The piece on `from`, which must be the mover's.
fn mover(before: &Before, from: Square) -> Result<Piece, PlayError> {
    let Some(p) = piece(before.marginals[from.index()].code) else {
        return refuse(format!("there is no piece on {from} in any harmonic"));
    };
    if p.color != before.to_move {
        return refuse(format!(
            "the {} on {from} is {}'s, and it is {}'s turn",
            p.kind.name(),
            p.color.name(),
            before.to_move.name()
        ));
    }
    Ok(p)
}

/// Makes the move `input` (forcing its recorded outcomes, drawing the rest from `rng`).
pub fn make(before: &Before, input: &Input, rng: &mut SeededRng) -> Result<Made, PlayError> {
    let (from, to) = (input.mv.from(), input.mv.to());
    let p = mover(before, from)?;
    if from == to {
        return refuse(format!("a move must leave {from}"));
    }
    let mut trace = Vec::new();
    let mut notes = Vec::new();
    let (mut next, disputed) = match input.mv {
        Move::Ordinary { promotion, .. } => {
            ordinary(before, p, from, to, promotion, &mut trace, &mut notes)?
        }
        Move::Quantum { .. } => quantum(before, p, from, to, &mut trace, &mut notes)?,
    };
    before.go_on()?;
    let mut m = Measurer::new(rng, &input.forced);
    for s in disputed {
        m.conflict(&mut next, s)?;
    }
    m.bound(&mut next, before.limit, &|| before.go_on())?;
    let (outcomes, measured) = m.finish()?;
    next.normalize();
    if !outcomes.is_empty() {
        let squares: Vec<String> = outcomes.iter().map(|o| o.square.to_string()).collect();
        notes.push(format!("measured {}", squares.join(", ")));
    }
    trace.extend(measured);
    trace.push(format!("now {} harmonics", next.len()));
    Ok(Made {
        next,
        outcomes,
        trace,
        note: notes.join("; "),
    })
}

/// The ordinary move in every harmonic that allows it; returns the merged result and
/// the squares to check for conflicts, in order (castling: the king's, then the rook's).
fn ordinary(
    before: &Before,
    p: Piece,
    from: Square,
    to: Square,
    promotion: Option<Kind>,
    trace: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> Result<(Superposition, Vec<Square>), PlayError> {
    let last_rank = p.kind == Kind::Pawn && to.rank() == p.color.opposite().back_rank();
    match (last_rank, promotion) {
        (true, None) => {
            return refuse(format!(
                "a pawn reaching {to} must promote: write {from}{to}q (or r, b, n)"
            ))
        }
        (false, Some(_)) => {
            return refuse(format!(
                "only a pawn reaching the last rank promotes: write {from}{to}"
            ))
        }
        _ => {}
    }
    let pc = code(p);
    let (mut made, mut made_w, mut taken_w, mut total) = (0, 0.0, 0.0, 0.0);
    let mut victim = None;
    let mut items: Vec<(Board, f64)> = Vec::with_capacity(before.sp.len());
    for (i, (b, w)) in before.sp.iter().enumerate() {
        if i % CANCEL_EVERY == 0 {
            before.go_on()?;
        }
        items.push({
            total += w;
            let effect = (b.code(from) == pc)
                .then(|| geometry::ordinary(b, from, to))
                .flatten();
            match effect {
                Some(e) => {
                    made += 1;
                    made_w += w;
                    let taken = match e {
                        Effect::Capture => Some(to),
                        Effect::EnPassant(v) => Some(v),
                        _ => None,
                    };
                    if let Some(s) = taken {
                        taken_w += w;
                        victim = b.get(s);
                    }
                    (geometry::apply(b, from, to, e, promotion), w)
                }
                None => (
                    Board {
                        en_passant: None,
                        ..*b
                    },
                    w,
                ),
            }
        });
    }
    if made == 0 {
        return refuse(ordinary_refusal(before, p, from, to));
    }
    let (next, merged) = Superposition::merged(items);
    let text = Move::Ordinary {
        from,
        to,
        promotion,
    };
    trace.push(format!(
        "{text}: made in {made} of {} ({}% of the weight)",
        harmonics(before.sp.len()),
        percent(made_w / total)
    ));
    if let Some(v) = victim {
        trace.push(format!(
            "  captured the {} where it stood ({}%)",
            v.describe(),
            percent(taken_w / total)
        ));
        notes.push(format!(
            "takes {} ({}%)",
            v.kind.name(),
            percent(taken_w / total)
        ));
    }
    if merged > 0 {
        trace.push(format!("  merged {} into equal boards", harmonics(merged)));
    }
    let disputed = if p.kind == Kind::King && is_castle(p.color, from, to) {
        let (_, kt, _, rt, _) = castle_squares(p.color, to.file() > from.file());
        vec![kt, rt]
    } else {
        vec![to]
    };
    Ok((next, disputed))
}

/// Why no harmonic allows an ordinary move.
fn ordinary_refusal(before: &Before, p: Piece, from: Square, to: Square) -> String {
    let lead = format!(
        "no harmonic lets the {} on {from} reach {to}",
        p.kind.name()
    );
    if p.kind == Kind::King && is_castle(p.color, from, to) {
        let king_side = to.file() > from.file();
        let (_, kt, rf, rt, extra) = castle_squares(p.color, king_side);
        let mut empty = vec![rt.min(kt), rt.max(kt)];
        empty.extend(extra);
        let empty: Vec<String> = empty.iter().map(Square::to_string).collect();
        return format!(
            "no harmonic lets {} castle {}: that needs the castling right (king and rook \
             unmoved), the rook on {rf} and {} empty",
            p.color.name(),
            if king_side { "king side" } else { "queen side" },
            empty.join(", ")
        );
    }
    let dr = (to.rank() - from.rank()) * p.color.forward();
    let df = (to.file() - from.file()).abs();
    let shape = match p.kind {
        Kind::Pawn => (df == 0 && (dr == 1 || dr == 2)) || (df == 1 && dr == 1),
        kind => reach(kind, from) & bit(to) != 0,
    };
    if !shape {
        return format!("{lead} (a {} never moves that way)", p.kind.name());
    }
    if let Some(own) = own_everywhere(before, p, from, to) {
        return format!("{lead} ({to} holds your own {})", own.kind.name());
    }
    if p.kind == Kind::Pawn && df == 1 {
        return format!("{lead} (a pawn moves diagonally only to capture, and {to} is empty)");
    }
    if p.kind == Kind::Pawn && dr == 2 && from.rank() != p.color.back_rank() + p.color.forward() {
        return format!("{lead} (a pawn steps two squares only from its start rank)");
    }
    format!("{lead} (the way is blocked wherever it stands on {from})")
}

/// The mover's own piece on `to` when it stands there in every harmonic holding the mover
/// on `from`.
fn own_everywhere(before: &Before, p: Piece, from: Square, to: Square) -> Option<Piece> {
    let own = piece(before.marginals[to.index()].code).filter(|o| o.color == p.color)?;
    let pc = code(p);
    before
        .sp
        .iter()
        .filter(|(b, _)| b.code(from) == pc)
        .all(|(b, _)| b.code(to) != EMPTY)
        .then_some(own)
}

/// The quantum move: each harmonic that allows it gains a moved copy, both halves
/// weighing half the original; returns the merged result and the target to check.
fn quantum(
    before: &Before,
    p: Piece,
    from: Square,
    to: Square,
    trace: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> Result<(Superposition, Vec<Square>), PlayError> {
    if p.kind == Kind::Pawn {
        return refuse("pawns can't make quantum moves");
    }
    let pc = code(p);
    let (mut split, mut split_w, mut total) = (0, 0.0, 0.0);
    let mut items = Vec::with_capacity(before.sp.len() * 2);
    for (i, (b, w)) in before.sp.iter().enumerate() {
        if i % CANCEL_EVERY == 0 {
            before.go_on()?;
        }
        total += w;
        let stay = Board {
            en_passant: None,
            ..*b
        };
        if b.code(from) == pc && geometry::quantum_reaches(b, p.kind, from, to) {
            split += 1;
            split_w += w;
            items.push((stay, w / 2.0));
            items.push((geometry::apply(b, from, to, Effect::Quiet, None), w / 2.0));
        } else {
            items.push((stay, w));
        }
    }
    if split == 0 {
        return refuse(quantum_refusal(before, p, from, to));
    }
    let (next, merged) = Superposition::merged(items);
    trace.push(format!(
        "{from}~{to}: {split} of {} ({}% of the weight) split into a moved and an \
         unmoved half",
        harmonics(before.sp.len()),
        percent(split_w / total)
    ));
    if merged > 0 {
        trace.push(format!("  merged {} into equal boards", harmonics(merged)));
    }
    notes.push(format!("{} -> {}", before.sp.len(), harmonics(next.len())));
    Ok((next, vec![to]))
}

/// Why no harmonic allows a quantum move.
fn quantum_refusal(before: &Before, p: Piece, from: Square, to: Square) -> String {
    let pc = code(p);
    let holders = || before.sp.iter().filter(|(b, _)| b.code(from) == pc);
    if let Some(o) = piece(before.marginals[to.index()].code) {
        if holders().all(|(b, _)| b.code(to) != EMPTY) {
            return if o.color == p.color {
                format!(
                    "a quantum move needs an empty target, and {to} holds your own {}",
                    o.kind.name()
                )
            } else {
                format!(
                    "a quantum move can't capture ({to} holds a {})",
                    o.describe()
                )
            };
        }
    }
    let two_steps =
        reach(p.kind, from) & bit(to) != 0 || reach(p.kind, from) & reach(p.kind, to) != 0;
    let why = if two_steps {
        "the way is blocked wherever it stands there"
    } else {
        "it is more than two moves away"
    };
    format!(
        "no harmonic lets the {} on {from} reach {to} in one or two quiet moves ({why})",
        p.kind.name()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen;
    use crate::variants::harmonics::notation::parse;

    fn single(f: &str) -> Superposition {
        Superposition::single(Board::from_position(&fen::parse(f).unwrap()))
    }

    fn make_in(sp: &Superposition, color: Color, text: &str) -> Result<Made, PlayError> {
        let marginals = sp.marginals();
        let before = Before {
            sp,
            marginals: &marginals,
            to_move: color,
            limit: 1 << 14,
            cancel: None,
        };
        make(&before, &parse(text).unwrap(), &mut SeededRng::new(0))
    }

    #[test]
    fn quantum_move_halves_only_the_harmonics_it_splits() {
        let sp = single("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1");
        let one = make_in(&sp, Color::White, "b1~c3").unwrap().next;
        // Knight on b1 (1/2) or c3 (1/2); c3~a4 splits only the c3 half.
        let two = make_in(&one, Color::White, "c3~a4").unwrap();
        let m = two.next.marginals();
        let p = |s: &str| m[Square::parse(s).unwrap().index()].p;
        assert_eq!((p("b1"), p("c3"), p("a4")), (0.5, 0.25, 0.25));
        assert_eq!(two.note, "2 -> 3 harmonics");
        assert!(two.trace[0].starts_with("c3~a4: 1 of 2 harmonics (50% of the weight)"));
    }

    #[test]
    fn refusals_name_the_reason() {
        let sp = single("4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1");
        let e = |t: &str| make_in(&sp, Color::White, t).err().unwrap().to_string();
        assert_eq!(
            e("e1e2"),
            "no harmonic lets the king on e1 reach e2 (e2 holds your own pawn)"
        );
        assert!(e("e1g1").starts_with("no harmonic lets white castle king side"));
        assert_eq!(
            e("e8e7"),
            "the king on e8 is black's, and it is white's turn"
        );
        assert_eq!(
            e("e2e1"),
            "no harmonic lets the pawn on e2 reach e1 (a pawn never moves that way)"
        );
        assert_eq!(
            e("a1~e1"),
            "a quantum move needs an empty target, and e1 holds your own king"
        );
    }
}
