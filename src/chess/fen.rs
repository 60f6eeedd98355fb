//! FEN in and out (six fields).

use super::board::{Castling, Color, Piece, Position, Register, Square};

/// The standard start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A FEN string that could not be read; the message names the bad field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad FEN: {0}")]
pub struct FenError(pub String);

fn err<T>(msg: impl Into<String>) -> Result<T, FenError> {
    Err(FenError(msg.into()))
}

/// Reads a six-field FEN.
pub fn parse(fen: &str) -> Result<Position, FenError> {
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
            "1n5k/2p5/8/1P6/8/8/8/7K b - c6 3 40",
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
}
