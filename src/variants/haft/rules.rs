//! The rules: what a move does to the board and to the worlds, which moves are legal,
//! and why a move is refused.

use super::arrangements::ORIGINALS;
use super::board::{Board, Man, Unit};
use super::census::Census;
use super::error::HaftError;
use super::notation::HaftMove;
use super::types::{roster, TypeSet, MAJORS};
use super::words::{count_word, join};
use super::worlds::Worlds;
use crate::chess::{Color, Kind, Square};

/// A move checked against the board: the board after it and what it says about types.
#[derive(Clone, Debug, PartialEq)]
pub struct Transition {
    /// The move as played (canonical).
    pub mv: HaftMove,
    /// The piece that moved.
    pub mover: Unit,
    /// For a major: the types that can make this move.
    pub shape: Option<TypeSet>,
    /// The piece captured and where it stood.
    pub captured: Option<(Square, Unit)>,
    /// For a promotion: the new major's slot and the types it may have.
    pub promoted: Option<(u8, TypeSet)>,
    /// The board after the move.
    pub board: Board,
}

/// Checks `mv` against the board alone (whose turn, geometry, promotion letter).
pub fn transition(board: &Board, mv: HaftMove) -> Result<Transition, HaftError> {
    let HaftMove {
        from,
        to,
        promotion,
    } = mv;
    let mover = board.get(from).ok_or(HaftError::Empty(from))?;
    if mover.color != board.to_move {
        return Err(HaftError::NotYours {
            square: from,
            owner: mover.color.name(),
            to_move: board.to_move.name(),
        });
    }
    let target = board.get(to);
    if target.is_some_and(|u| u.color == mover.color) {
        return Err(HaftError::OwnPiece(to));
    }
    let mut captured = target.map(|u| (to, u));
    let mut promoted_types = None;
    let shape = match mover.man {
        Man::Pawn => {
            if let Some(victim) = pawn_move(board, mover.color, from, to)? {
                captured = board.get(victim).map(|u| (victim, u));
            }
            let promotes = to.rank() == mover.color.opposite().back_rank();
            promoted_types = match (promotes, promotion) {
                (false, Some(_)) => return Err(HaftError::NotAPromotion),
                (false, None) => None,
                (true, None) => Some(TypeSet::PROMOTED),
                (true, Some(k)) if TypeSet::PROMOTED.contains(k) => Some(TypeSet::of(k)),
                (true, Some(k)) => return Err(HaftError::BadPromotion(k.name())),
            };
            None
        }
        Man::Major(slot) => {
            if promotion.is_some() {
                return Err(HaftError::NotAPromotion);
            }
            let reach = board.reach(from, to);
            let mut types = reach.types;
            if slot as usize >= ORIGINALS {
                types = types.intersect(TypeSet::PROMOTED);
            }
            if types.is_empty() {
                return Err(match reach.blocked_at {
                    Some(at) => HaftError::Blocked { from, to, at },
                    None => HaftError::NoSuchMove { from, to },
                });
            }
            Some(types)
        }
    };
    let mut after = board.clone();
    let slot = after.apply(from, to, captured.map(|c| c.0));
    Ok(Transition {
        mv,
        mover,
        shape,
        captured,
        promoted: slot.zip(promoted_types),
        board: after,
    })
}

/// Checks a pawn's geometry; returns the square of a pawn captured en passant.
fn pawn_move(
    board: &Board,
    color: Color,
    from: Square,
    to: Square,
) -> Result<Option<Square>, HaftError> {
    let dir = color.forward();
    let (df, dr) = (to.file() - from.file(), to.rank() - from.rank());
    let empty = |s: Option<Square>| s.is_some_and(|s| board.get(s).is_none());
    let start_rank = color.back_rank() + dir;
    let ok = match (df, dr) {
        (0, r) if r == dir => empty(Some(to)),
        (0, r) if r == 2 * dir => {
            from.rank() == start_rank && empty(from.offset(0, dir)) && empty(Some(to))
        }
        (-1 | 1, r) if r == dir => {
            if let Some(victim) = board.en_passant_victim(from, to) {
                return Ok(Some(victim));
            }
            board.get(to).is_some_and(|u| u.color != color)
        }
        _ => false,
    };
    if ok {
        Ok(None)
    } else {
        Err(HaftError::Pawn { from, to })
    }
}

/// The worlds where the move's shape is possible: the mover's type fits the move, and a
/// promoted pawn is a new major.
pub fn shaped(worlds: &Worlds, t: &Transition) -> Worlds {
    let mut w = worlds.clone();
    if let (Man::Major(slot), Some(shape)) = (t.mover.man, t.shape) {
        w.restrict(t.mover.color, slot, shape);
    }
    if let Some((slot, types)) = t.promoted {
        w.add_promoted(t.mover.color, slot, types);
    }
    w
}

/// Keeps the worlds where `color`'s king is not attacked on `board`.
pub fn guard_king(worlds: &mut Worlds, board: &Board, color: Color) {
    let enemy = color.opposite();
    for (square, unit) in board.units(color) {
        let Man::Major(king) = unit.man else {
            continue;
        };
        if king as usize >= ORIGINALS {
            continue;
        }
        if board.pawn_attacks(enemy, square) {
            worlds.rule_out_king(color, king);
            continue;
        }
        for (from, attacker) in board.units(enemy) {
            if let Man::Major(slot) = attacker.man {
                let types = board.reach(from, square).types;
                if !types.is_empty() {
                    worlds.forbid_attack(color, king, slot, types);
                }
            }
        }
    }
}

/// The worlds after the move: its shape, and the mover's king not left in check.
pub fn constrain(worlds: &Worlds, t: &Transition) -> Worlds {
    let mut w = shaped(worlds, t);
    guard_king(&mut w, &t.board, t.mover.color);
    w
}

/// The worlds where `board.to_move`'s king is not attacked right now.
pub fn not_in_check(worlds: &Worlds, board: &Board) -> Worlds {
    let mut w = worlds.clone();
    guard_king(&mut w, board, board.to_move);
    w
}

/// Every legal move of the side to move, by source then target square; a promotion is
/// listed with its type open (`e7e8`) and with each letter.
pub fn legal_moves(board: &Board, worlds: &Worlds) -> Vec<HaftMove> {
    legal(board, worlds).collect()
}

/// Whether the side to move has a legal move (stops at the first one found).
pub fn has_legal_move(board: &Board, worlds: &Worlds) -> bool {
    legal(board, worlds).next().is_some()
}

/// The letters a pawn reaching the last rank is listed with: its type open, then each.
const PROMOTIONS: [Option<Kind>; 5] = [
    None,
    Some(Kind::Queen),
    Some(Kind::Rook),
    Some(Kind::Bishop),
    Some(Kind::Knight),
];

/// The legal moves of the side to move, in [`legal_moves`]' order, each tried when
/// asked for.
fn legal<'a>(board: &'a Board, worlds: &'a Worlds) -> impl Iterator<Item = HaftMove> + 'a {
    let color = board.to_move;
    board
        .units(color)
        .flat_map(move |(from, unit)| {
            Square::all()
                .filter(move |&to| to != from)
                .flat_map(move |to| {
                    let promotes =
                        unit.man == Man::Pawn && to.rank() == color.opposite().back_rank();
                    let letters: &'static [Option<Kind>] = if promotes {
                        &PROMOTIONS
                    } else {
                        &PROMOTIONS[..1]
                    };
                    letters.iter().map(move |&promotion| HaftMove {
                        from,
                        to,
                        promotion,
                    })
                })
        })
        .filter(move |&mv| transition(board, mv).is_ok_and(|t| constrain(worlds, &t).feasible()))
}

/// Why a move whose transition is fine leaves no consistent world.
pub fn refusal(worlds: &Worlds, census: &Census, t: &Transition) -> HaftError {
    let (Man::Major(slot), Some(shape)) = (t.mover.man, t.shape) else {
        return HaftError::Check;
    };
    if shaped(worlds, t).feasible() {
        return HaftError::Check;
    }
    let color = t.mover.color;
    if (slot as usize) < ORIGINALS {
        let mut own = worlds.own_types(color)[..ORIGINALS].to_vec();
        own[slot as usize] = own[slot as usize].intersect(shape);
        if let Some(e) = roster_conflict(&own) {
            return e;
        }
    }
    HaftError::WrongType {
        from: t.mv.from,
        to: t.mv.to,
        types: census.types(color, slot).describe(),
    }
}

/// The smallest set of types that more pieces are confined to than the side has (Hall's
/// condition), as a refusal.
fn roster_conflict(own: &[TypeSet]) -> Option<HaftError> {
    (1..32u8)
        .map(TypeSet)
        .filter_map(|set| {
            let confined = own
                .iter()
                .filter(|t| !t.is_empty() && t.is_subset(set))
                .count() as u32;
            (confined > set.roster()).then_some((set, confined))
        })
        .min_by_key(|(set, _)| (set.len(), set.roster()))
        .map(|(set, confined)| HaftError::Roster {
            count: count_word(confined),
            what: confined_to(set),
            roster: roster_words(set),
        })
}

/// "move like knights", "be a king, a queen or a rook".
fn confined_to(set: TypeSet) -> String {
    let like = |k: Kind| format!("move like {}s", k.name());
    let rook_like = TypeSet::from_kinds(&[Kind::Rook, Kind::Queen]);
    let bishop_like = TypeSet::from_kinds(&[Kind::Bishop, Kind::Queen]);
    if let Some(k) = set.single() {
        like(k)
    } else if set == rook_like {
        like(Kind::Rook)
    } else if set == bishop_like {
        like(Kind::Bishop)
    } else {
        format!("each be {}", set.describe())
    }
}

/// "two rooks and one queen".
fn roster_words(set: TypeSet) -> String {
    let order = [
        Kind::Knight,
        Kind::Bishop,
        Kind::Rook,
        Kind::Queen,
        Kind::King,
    ];
    let parts: Vec<String> = order
        .into_iter()
        .filter(|&k| set.contains(k))
        .map(|k| {
            let n = roster(k);
            let plural = if n == 1 { "" } else { "s" };
            format!("{} {}{plural}", count_word(n), k.name())
        })
        .collect();
    join(&parts, "and")
}

/// "like a knight", "one step straight (king, queen or rook)".
pub fn move_phrase(shape: TypeSet) -> String {
    let set = |k: &[Kind]| TypeSet::from_kinds(k);
    if shape == set(&[Kind::Knight]) {
        "like a knight".into()
    } else if shape == set(&[Kind::Rook, Kind::Queen]) {
        "like a rook (a rook or the queen)".into()
    } else if shape == set(&[Kind::Bishop, Kind::Queen]) {
        "like a bishop (a bishop or the queen)".into()
    } else if shape == set(&[Kind::King, Kind::Rook, Kind::Queen]) {
        "one step straight (the king, the queen or a rook)".into()
    } else if shape == set(&[Kind::King, Kind::Bishop, Kind::Queen]) {
        "one step diagonally (the king, the queen or a bishop)".into()
    } else {
        let names: Vec<String> = MAJORS
            .into_iter()
            .filter(|&k| shape.contains(k))
            .map(|k| k.name().to_string())
            .collect();
        format!("as only a {} can", join(&names, "or"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> HaftMove {
        s.parse().unwrap()
    }

    #[test]
    fn start_has_sixteen_pawn_moves_and_fourteen_jumps() {
        let moves = legal_moves(&Board::start(), &Worlds::new());
        assert_eq!(moves.len(), 30);
        assert!(moves.contains(&mv("a1b3")));
        assert!(moves.contains(&mv("e2e4")));
    }

    #[test]
    fn board_refusals() {
        let b = Board::start();
        let err = |s: &str| transition(&b, mv(s)).unwrap_err();
        assert_eq!(err("e3e4"), HaftError::Empty(Square::parse("e3").unwrap()));
        assert!(matches!(err("e7e5"), HaftError::NotYours { .. }));
        assert!(matches!(err("a1a2"), HaftError::OwnPiece(_)));
        assert!(matches!(err("e2e5"), HaftError::Pawn { .. }));
        assert!(matches!(err("e2d3"), HaftError::Pawn { .. }));
        assert!(matches!(err("e2e4q"), HaftError::NotAPromotion));
        assert!(matches!(err("b1c3n"), HaftError::NotAPromotion));
        assert!(matches!(err("a1c4"), HaftError::NoSuchMove { .. }));
        assert_eq!(
            err("a1a3").to_string(),
            "the way from a1 to a3 is blocked on a2"
        );
    }

    #[test]
    fn roster_conflicts_in_words() {
        let n = TypeSet::of(Kind::Knight);
        let mut own = vec![TypeSet::ALL; 8];
        own[1] = n;
        own[6] = n;
        assert_eq!(roster_conflict(&own), None);
        own[0] = n;
        assert_eq!(
            roster_conflict(&own)
                .map(|e| e.to_string())
                .unwrap_or_default(),
            "no arrangement lets three pieces move like knights: there are only two knights"
        );
        let rook = TypeSet::from_kinds(&[Kind::Rook, Kind::Queen]);
        let mut own = vec![TypeSet::ALL; 8];
        own[..4].fill(rook);
        assert_eq!(
            roster_conflict(&own)
                .map(|e| e.to_string())
                .unwrap_or_default(),
            "no arrangement lets four pieces move like rooks: there are only two rooks and \
             one queen"
        );
    }

    #[test]
    fn phrases() {
        assert_eq!(move_phrase(TypeSet::of(Kind::Knight)), "like a knight");
        assert_eq!(
            move_phrase(TypeSet::from_kinds(&[Kind::Queen])),
            "as only a queen can"
        );
    }
}
