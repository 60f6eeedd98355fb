//! Where the pieces stand, which is the same in every world: pawns, and majors known by
//! their slot (starting file 0..8, then 8.. for promoted pawns). Geometry: which types
//! could make a move, and applying a move.

use super::arrangements::ORIGINALS;
use super::types::TypeSet;
use crate::chess::{Color, Kind, Square};

/// What stands on a square, as far as every world agrees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Man {
    /// A pawn.
    Pawn,
    /// A major piece of undetermined type: its slot (starting file, or 8.. if promoted).
    Major(u8),
}

/// A piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    /// Its side.
    pub color: Color,
    /// Pawn or major.
    pub man: Man,
}

/// The types that could go from one square to another, and what blocks the line if none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// The types that can make the move (or attack the square).
    pub types: TypeSet,
    /// The first piece in the way, for a straight or diagonal line that is blocked.
    pub blocked_at: Option<Square>,
}

/// The board: pieces, the side to move and the en passant square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    squares: [Option<Unit>; 64],
    /// The side to move.
    pub to_move: Color,
    /// The square a pawn just passed over with a two-square step.
    pub en_passant: Option<Square>,
    /// How many pawns each side has promoted (white, black).
    promotions: [u8; 2],
}

/// Index 0 for white, 1 for black.
pub fn side(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Board {
    /// The starting position: pawns on the second ranks, undetermined majors behind them.
    pub fn start() -> Board {
        let mut squares = [None; 64];
        for color in [Color::White, Color::Black] {
            let back = color.back_rank();
            for file in 0..8 {
                let major = Square::at(file, back).map(|s| s.index());
                let pawn = Square::at(file, back + color.forward()).map(|s| s.index());
                if let (Some(m), Some(p)) = (major, pawn) {
                    squares[m] = Some(Unit {
                        color,
                        man: Man::Major(file as u8),
                    });
                    squares[p] = Some(Unit {
                        color,
                        man: Man::Pawn,
                    });
                }
            }
        }
        Board {
            squares,
            to_move: Color::White,
            en_passant: None,
            promotions: [0; 2],
        }
    }

    /// The piece on `s`.
    pub fn get(&self, s: Square) -> Option<Unit> {
        self.squares[s.index()]
    }

    /// Every piece of `color`, with its square.
    pub fn units(&self, color: Color) -> impl Iterator<Item = (Square, Unit)> + '_ {
        Square::all()
            .filter_map(|s| self.get(s).map(|u| (s, u)))
            .filter(move |(_, u)| u.color == color)
    }

    /// Where the major of `color` in `slot` stands, if it is on the board.
    pub fn find(&self, color: Color, slot: u8) -> Option<Square> {
        self.units(color)
            .find(|(_, u)| u.man == Man::Major(slot))
            .map(|(s, _)| s)
    }

    /// The slot the next promoted pawn of `color` gets.
    pub fn next_slot(&self, color: Color) -> u8 {
        ORIGINALS as u8 + self.promotions[side(color)]
    }

    /// The types that could move from `from` to `to` (or attack `to`), whatever stands
    /// on `to`. Kings are included; castling does not exist.
    pub fn reach(&self, from: Square, to: Square) -> Reach {
        let (df, dr) = (to.file() - from.file(), to.rank() - from.rank());
        let (af, ar) = (df.abs(), dr.abs());
        let straight = TypeSet::from_kinds(&[Kind::Rook, Kind::Queen]);
        let diagonal = TypeSet::from_kinds(&[Kind::Bishop, Kind::Queen]);
        let none = Reach {
            types: TypeSet::EMPTY,
            blocked_at: None,
        };
        if (af, ar) == (1, 2) || (af, ar) == (2, 1) {
            return Reach {
                types: TypeSet::of(Kind::Knight),
                blocked_at: None,
            };
        }
        let line = if df == 0 || dr == 0 {
            straight
        } else if af == ar {
            diagonal
        } else {
            return none;
        };
        if af.max(ar) == 0 {
            return none;
        }
        if af.max(ar) == 1 {
            return Reach {
                types: line.union(TypeSet::of(Kind::King)),
                blocked_at: None,
            };
        }
        let (sf, sr) = (df.signum(), dr.signum());
        let blocked_at = (1..af.max(ar))
            .filter_map(|i| from.offset(sf * i, sr * i))
            .find(|&s| self.get(s).is_some());
        Reach {
            types: if blocked_at.is_some() {
                TypeSet::EMPTY
            } else {
                line
            },
            blocked_at,
        }
    }

    /// Whether a pawn of `by` attacks `target`.
    pub fn pawn_attacks(&self, by: Color, target: Square) -> bool {
        [-1, 1].into_iter().any(|df| {
            target
                .offset(df, -by.forward())
                .and_then(|s| self.get(s))
                .is_some_and(|u| u.color == by && u.man == Man::Pawn)
        })
    }

    /// The square of the pawn an en passant capture onto `to` removes.
    pub fn en_passant_victim(&self, from: Square, to: Square) -> Option<Square> {
        (self.en_passant == Some(to) && self.get(to).is_none())
            .then(|| Square::at(to.file(), from.rank()))
            .flatten()
    }

    /// Moves the piece on `from` to `to`, removing whatever stood on `captured`; a pawn
    /// reaching the last rank becomes a new major. Sets the en passant square and passes
    /// the turn. Returns the new major's slot for a promotion.
    pub fn apply(&mut self, from: Square, to: Square, captured: Option<Square>) -> Option<u8> {
        let unit = self.get(from)?;
        if let Some(c) = captured {
            self.squares[c.index()] = None;
        }
        self.squares[from.index()] = None;
        let last_rank = unit.color.opposite().back_rank();
        let promoted = (unit.man == Man::Pawn && to.rank() == last_rank).then(|| {
            let slot = self.next_slot(unit.color);
            self.promotions[side(unit.color)] += 1;
            slot
        });
        self.squares[to.index()] = Some(Unit {
            color: unit.color,
            man: promoted.map_or(unit.man, Man::Major),
        });
        let two_step = unit.man == Man::Pawn && (to.rank() - from.rank()).abs() == 2;
        self.en_passant = two_step
            .then(|| Square::at(from.file(), (from.rank() + to.rank()) / 2))
            .flatten();
        self.to_move = self.to_move.opposite();
        promoted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn start_position() {
        let b = Board::start();
        assert_eq!(b.units(Color::White).count(), 16);
        assert_eq!(
            b.get(sq("c8")),
            Some(Unit {
                color: Color::Black,
                man: Man::Major(2)
            })
        );
        assert_eq!(b.find(Color::White, 6), Some(sq("g1")));
        assert_eq!(b.next_slot(Color::White), 8);
    }

    #[test]
    fn reach_by_geometry() {
        let b = Board::start();
        let knight = TypeSet::of(Kind::Knight);
        assert_eq!(b.reach(sq("b1"), sq("c3")).types, knight);
        let r = b.reach(sq("a1"), sq("a4"));
        assert_eq!((r.types, r.blocked_at), (TypeSet::EMPTY, Some(sq("a2"))));
        assert_eq!(
            b.reach(sq("a3"), sq("h3")).types,
            TypeSet::from_kinds(&[Kind::Rook, Kind::Queen])
        );
        assert_eq!(
            b.reach(sq("d1"), sq("e2")).types,
            TypeSet::from_kinds(&[Kind::King, Kind::Queen, Kind::Bishop])
        );
        assert_eq!(b.reach(sq("a1"), sq("c4")).types, TypeSet::EMPTY);
        assert!(b.pawn_attacks(Color::Black, sq("f6")));
        assert!(!b.pawn_attacks(Color::Black, sq("f5")));
    }

    #[test]
    fn en_passant_and_promotion() {
        let mut b = Board::start();
        b.apply(sq("e2"), sq("e4"), None);
        assert_eq!(b.en_passant, Some(sq("e3")));
        assert_eq!(b.to_move, Color::Black);
        b.apply(sq("a7"), sq("a6"), None);
        assert_eq!(b.en_passant, None);
        b.apply(sq("e4"), sq("e5"), None);
        b.apply(sq("d7"), sq("d5"), None);
        assert_eq!(b.en_passant_victim(sq("e5"), sq("d6")), Some(sq("d5")));
        b.apply(sq("e5"), sq("d6"), Some(sq("d5")));
        assert_eq!(b.get(sq("d5")), None);
        // Clear a path and promote.
        b.apply(sq("h7"), sq("h6"), None);
        b.apply(sq("d6"), sq("c7"), Some(sq("c7")));
        b.apply(sq("h6"), sq("h5"), None);
        assert_eq!(b.apply(sq("c7"), sq("b8"), Some(sq("b8"))), Some(8));
        assert_eq!(b.get(sq("b8")).map(|u| u.man), Some(Man::Major(8)));
        assert_eq!(b.next_slot(Color::White), 9);
    }
}
