//! FEN in and out (six fields).

use super::board::{Castling, Color, Kind, Piece, Position, Register, Square};

/// The standard start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A FEN string that could not be read; the message names the bad field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad FEN: {0}")]
pub struct FenError(pub String);

fn err<T>(msg: impl Into<String>) -> Result<T, FenError> {
    Err(FenError(msg.into()))
}

/// Reads a six-field FEN and checks that the position can start a game ([`check`]).
pub fn parse(fen: &str) -> Result<Position, FenError> {
    let position = parse_fields(fen)?;
    check(&position)?;
    Ok(position)
}

/// Checks that a position can start a game: one king of each colour, no pawn on the
/// first or last rank, castling rights only with the king and that rook on their
/// squares, and an en passant square only right behind a pawn of the side that just
/// moved, with the square itself and the one the pawn came from empty.
pub fn check(p: &Position) -> Result<(), FenError> {
    for color in [Color::White, Color::Black] {
        let kings: Vec<String> = p
            .register
            .pieces()
            .filter(|(_, pc)| *pc == Piece::new(color, Kind::King))
            .map(|(s, _)| s.to_string())
            .collect();
        match kings.len() {
            0 => return err(format!("there is no {} king", color.name())),
            1 => {}
            n => {
                return err(format!(
                    "{n} {} kings ({}); a side has one king",
                    color.name(),
                    kings.join(", ")
                ))
            }
        }
    }
    if let Some((s, pc)) = p
        .register
        .pieces()
        .find(|(s, pc)| pc.kind == Kind::Pawn && (s.rank() == 0 || s.rank() == 7))
    {
        return err(format!(
            "a {} on {s}: pawns never stand on the first or last rank",
            pc.describe()
        ));
    }
    for (letter, color, king_side) in [
        ('K', Color::White, true),
        ('Q', Color::White, false),
        ('k', Color::Black, true),
        ('q', Color::Black, false),
    ] {
        if !p.castling.get(color, king_side) {
            continue;
        }
        let rank = if color == Color::White { 0 } else { 7 };
        let at = |file| Square::at(file, rank).expect("castling squares are on the board");
        let (king_sq, rook_sq) = (at(4), at(if king_side { 7 } else { 0 }));
        let king = Piece::new(color, Kind::King);
        let rook = Piece::new(color, Kind::Rook);
        if p.register.get(king_sq) != Some(king) || p.register.get(rook_sq) != Some(rook) {
            return err(format!(
                "field 3 (castling) gives '{letter}', which needs the {} on {king_sq} and a {} on {rook_sq}",
                king.describe(),
                rook.describe()
            ));
        }
    }
    if let Some(ep) = p.en_passant {
        // The side that just moved is the other one; its pawn went two steps past `ep`.
        let mover = p.to_move.opposite();
        let (rank, step) = if mover == Color::White {
            (2, 1)
        } else {
            (5, -1)
        };
        let pawn = Square::at(ep.file(), ep.rank() + step);
        let origin = Square::at(ep.file(), ep.rank() - step);
        let possible = ep.rank() == rank
            && pawn.and_then(|s| p.register.get(s)) == Some(Piece::new(mover, Kind::Pawn))
            && p.register.get(ep).is_none()
            && origin.is_some_and(|s| p.register.get(s).is_none());
        if !possible {
            return err(format!(
                "field 4 (en passant): {ep} cannot be one with {} to move (it must be on rank {}, right behind a {} pawn that just made a two-step, with {ep} and the square it came from empty)",
                p.to_move.name(),
                rank + 1,
                mover.name()
            ));
        }
    }
    Ok(())
}

/// Reads the six fields, without checking that the position is possible.
fn parse_fields(fen: &str) -> Result<Position, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() != 6 {
        return err(format!(
            "expected 6 fields (placement, side, castling, en passant, half-move, full-move), found {}",
            fields.len()
        ));
    }
    let register = parse_placement(fields[0])?;
    let to_move = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        s => {
            return err(format!(
                "field 2 (side to move) must be w or b, not \"{s}\""
            ))
        }
    };
    let mut castling = Castling::default();
    if fields[2] != "-" {
        for c in fields[2].chars() {
            let slot = match c {
                'K' => &mut castling.white_king,
                'Q' => &mut castling.white_queen,
                'k' => &mut castling.black_king,
                'q' => &mut castling.black_queen,
                _ => {
                    return err(format!(
                        "field 3 (castling) must be - or letters from KQkq, not \"{}\"",
                        fields[2]
                    ))
                }
            };
            if *slot {
                return err(format!("field 3 (castling) repeats '{c}'"));
            }
            *slot = true;
        }
    }
    let en_passant = match fields[3] {
        "-" => None,
        s => match Square::parse(s) {
            Some(sq) if sq.rank() == 2 || sq.rank() == 5 => Some(sq),
            _ => {
                return err(format!(
                    "field 4 (en passant) must be - or a square on rank 3 or 6, not \"{s}\""
                ))
            }
        },
    };
    let halfmove = fields[4].parse::<u32>().or_else(|_| {
        err(format!(
            "field 5 (half-move clock) must be a number, not \"{}\"",
            fields[4]
        ))
    })?;
    let fullmove = match fields[5].parse::<u32>() {
        Ok(n) if n >= 1 => n,
        _ => {
            return err(format!(
                "field 6 (full-move number) must be a number from 1, not \"{}\"",
                fields[5]
            ))
        }
    };
    Ok(Position {
        register,
        to_move,
        castling,
        en_passant,
        halfmove,
        fullmove,
    })
}

fn parse_placement(s: &str) -> Result<Register, FenError> {
    let rows: Vec<&str> = s.split('/').collect();
    if rows.len() != 8 {
        return err(format!(
            "field 1 (placement) needs 8 ranks separated by '/', found {}",
            rows.len()
        ));
    }
    let mut reg = Register::default();
    for (i, row) in rows.iter().enumerate() {
        let rank = 7 - i as i32;
        let mut file = 0i32;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return err(format!(
                        "field 1 (placement): bad digit '{c}' in rank {}",
                        rank + 1
                    ));
                }
                file += d as i32;
            } else if let Some(p) = Piece::from_fen_char(c) {
                match Square::at(file, rank) {
                    Some(sq) => reg.set(sq, Some(p)),
                    None => {
                        return err(format!(
                            "field 1 (placement): rank {} has more than 8 squares",
                            rank + 1
                        ))
                    }
                }
                file += 1;
            } else {
                return err(format!("field 1 (placement): unknown piece letter '{c}'"));
            }
            if file > 8 {
                return err(format!(
                    "field 1 (placement): rank {} has more than 8 squares",
                    rank + 1
                ));
            }
        }
        if file != 8 {
            return err(format!(
                "field 1 (placement): rank {} has {file} squares, not 8",
                rank + 1
            ));
        }
    }
    Ok(reg)
}

/// Writes a position as FEN.
pub fn format(p: &Position) -> String {
    let mut s = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match Square::at(file, rank).and_then(|sq| p.register.get(sq)) {
                Some(piece) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(piece.fen_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push(' ');
    s.push(if p.to_move == Color::White { 'w' } else { 'b' });
    s.push(' ');
    let c = &p.castling;
    let mut cs = String::new();
    for (on, ch) in [
        (c.white_king, 'K'),
        (c.white_queen, 'Q'),
        (c.black_king, 'k'),
        (c.black_queen, 'q'),
    ] {
        if on {
            cs.push(ch);
        }
    }
    s.push_str(if cs.is_empty() { "-" } else { &cs });
    s.push(' ');
    match p.en_passant {
        Some(sq) => s.push_str(&sq.to_string()),
        None => s.push('-'),
    }
    s.push_str(&format!(" {} {}", p.halfmove, p.fullmove));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for f in [
            START_FEN,
            "7k/8/8/8/8/8/8/R6K w - - 0 1",
            "1n5k/8/8/1Pp5/8/8/8/7K w - c6 3 40",
            "r3k3/8/8/8/4P3/8/8/4K2R b Kq e3 0 1",
        ] {
            assert_eq!(format(&parse(f).unwrap()), f);
        }
    }

    #[test]
    fn errors_name_the_field() {
        let e = |f: &str| parse(f).unwrap_err().to_string();
        assert!(e("8/8/8 w - - 0 1").contains("field 1"));
        assert!(e("7k/8/8/8/8/8/8/R6K x - - 0 1").contains("field 2"));
        assert!(e("7k/8/8/8/8/8/8/R6K w KX - 0 1").contains("field 3"));
        assert!(e("7k/8/8/8/8/8/8/R6K w - e4 0 1").contains("field 4"));
        assert!(e("7k/8/8/8/8/8/8/R6K w - - x 1").contains("field 5"));
        assert!(e("7k/8/8/8/8/8/8/R6K w - - 0 0").contains("field 6"));
        assert!(e("7k/8/8/8/8/8/8/R6K w - -").contains("6 fields"));
        assert!(e("7k/8/8/8/8/8/8/R6KK w - - 0 1").contains("more than 8"));
        assert!(e("7k/8/8/8/8/8/8/R5K w - - 0 1").contains("7 squares"));
        assert!(e("7k/8/8/8/8/8/8/R6X w - - 0 1").contains("'X'"));
    }

    #[test]
    fn impossible_positions_are_refused() {
        let e = |f: &str| parse(f).unwrap_err().to_string();
        assert!(e("7k/8/8/8/8/8/8/R5KK w - - 0 1").contains("2 white kings (g1, h1)"));
        assert!(e("kk6/8/8/8/8/8/8/k5K1 w - - 0 1").contains("3 black kings"));
        assert!(e("8/8/8/8/8/8/8/R6K w - - 0 1").contains("no black king"));
        assert!(e("7k/8/8/8/8/8/8/8 w - - 0 1").contains("no white king"));
        assert!(e("8/8/8/8/8/8/8/8 w - - 0 1").contains("no white king"));
        assert!(e("7k/8/8/8/8/8/8/P6K w - - 0 1").contains("white pawn on a1"));
        assert!(e("p6k/8/8/8/8/8/8/7K w - - 0 1").contains("black pawn on a8"));
        assert!(e("P6k/8/8/8/8/8/8/7K w - - 0 1").contains("white pawn on a8"));
        let castle = e("4k3/8/8/8/8/8/8/R3K3 w K - 0 1");
        assert!(
            castle.contains("'K'") && castle.contains("rook on h1"),
            "{castle}"
        );
        assert!(e("4k3/8/8/8/8/8/8/R2K3R w Q - 0 1").contains("white king on e1"));
        assert!(e("r3k2r/8/8/8/8/8/8/4K3 w kQ - 0 1").contains("'Q'"));
        assert!(e("r2k3r/8/8/8/8/8/8/4K3 w q - 0 1").contains("'q'"));
        // En passant: the wrong side's rank, no pawn in front, occupied squares.
        assert!(e("7k/8/8/8/8/8/8/R6K w - e3 0 1").contains("field 4"));
        assert!(e("7k/8/8/8/4P3/8/8/R6K w - e3 0 1").contains("field 4"));
        assert!(e("7k/8/8/8/8/8/8/R6K b - e3 0 1").contains("field 4"));
        assert!(e("7k/8/8/8/4P3/4N3/8/R6K b - e3 0 1").contains("field 4"));
        assert!(e("7k/8/8/8/4P3/8/4N3/R6K b - e3 0 1").contains("field 4"));
        assert!(e("7k/8/8/8/4p3/8/8/R6K b - e3 0 1").contains("field 4"));
        // Every message is one line.
        assert!(!e("7k/8/8/8/8/8/8/R6K b - e3 0 1").contains('\n'));
    }
}
