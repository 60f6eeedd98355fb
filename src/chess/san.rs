//! Standard algebraic notation (SAN) for ordinary moves: `Nf3`, `exd5`, `Nbd2`, `e8=Q`,
//! `O-O`, `O-O-O`, with `x`, `+`, `#`, `!` and `?` tolerated. A SAN move is read
//! against the legal moves of the position and turned into the canonical move it names;
//! [`write`] goes the other way, for the history and PGN export.
//!
//! Pieces in superposition: SAN names a piece type and a target, never a source. It
//! matches every legal standard move (one source, one target) of that type to that
//! target from a square where such a piece may stand, certain or not. One match is the
//! move; more are refused with the list, so that the player names the source (`Nab5`)
//! or writes the squares. Splits and merges have no SAN: they are written in Quantum
//! Chess notation (`b1^a3c3`, `a3c3^b5`). An `x` is not checked: whether a move
//! captures, or measures first, follows from the position, as for moves in squares.

use super::board::{Kind, Square};
use super::classify::{classify, BoardState, Classified, MoveType};
use super::movegen::{legal_moves, standard_reach};
use super::notation::{Marker, MoveText, SanError, Shape};
use std::fmt;

/// Which way a king castles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Castle {
    /// `O-O`.
    KingSide,
    /// `O-O-O`.
    QueenSide,
}

/// A move as SAN writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum San {
    /// `O-O` or `O-O-O` (also written with zeros).
    Castle(Castle),
    /// A piece (or pawn) to a square.
    Move(PieceMove),
}

/// A piece (or pawn) to a square, as SAN writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceMove {
    /// The piece's type (a pawn when no letter is written).
    pub kind: Kind,
    /// The source's file (0 = a), when written (a pawn's is its target's unless it
    /// captures).
    pub file: Option<i32>,
    /// The source's rank (0 = the first), when written.
    pub rank: Option<i32>,
    /// `x` was written.
    pub capture: bool,
    /// The target.
    pub to: Square,
    /// The promotion piece, when written (`=Q` or `Q`).
    pub promotion: Option<Kind>,
}

/// Reads `text` as SAN; `None` when it is not written that way.
pub fn parse(text: &str) -> Option<San> {
    let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
    match t {
        "O-O" | "0-0" => return Some(San::Castle(Castle::KingSide)),
        "O-O-O" | "0-0-0" => return Some(San::Castle(Castle::QueenSide)),
        _ => {}
    }
    let mut s: Vec<char> = t.chars().collect();
    let kind = match s.first() {
        Some(&c) if "NBRQK".contains(c) => {
            s.remove(0);
            Kind::from_letter(c)?
        }
        _ => Kind::Pawn,
    };
    let mut promotion = None;
    if let Some(&c) = s.last().filter(|c| "QRBN".contains(**c)) {
        promotion = Some(Kind::from_letter(c)?);
        s.pop();
        if s.last() == Some(&'=') {
            s.pop();
        }
        if kind != Kind::Pawn {
            return None;
        }
    }
    if s.len() < 2 {
        return None;
    }
    let to = Square::parse(&s[s.len() - 2..].iter().collect::<String>())?;
    s.truncate(s.len() - 2);
    let capture = s.last() == Some(&'x');
    if capture {
        s.pop();
    }
    let (mut file, mut rank) = (None, None);
    for c in s {
        match c {
            'a'..='h' if file.is_none() && rank.is_none() => file = Some(c as i32 - 'a' as i32),
            '1'..='8' if rank.is_none() => rank = Some(c as i32 - '1' as i32),
            _ => return None,
        }
    }
    if kind == Kind::Pawn {
        // A pawn names at most its file, and only when it captures.
        if rank.is_some() || file.is_some() != capture {
            return None;
        }
        file = file.or(Some(to.file()));
    }
    Some(San::Move(PieceMove {
        kind,
        file,
        rank,
        capture,
        to,
        promotion,
    }))
}

impl San {
    /// The move in words: "a knight move from the b-file to d2", "castling king's side".
    pub fn words(&self) -> String {
        let m = match self {
            San::Castle(Castle::KingSide) => return "castling king's side".into(),
            San::Castle(Castle::QueenSide) => return "castling queen's side".into(),
            San::Move(m) => m,
        };
        let what = if m.capture { "capture" } else { "move" };
        let file_name = |f: i32| char::from(b'a' + f as u8);
        let from = match (m.file, m.rank) {
            (Some(f), Some(r)) => format!(" from {}{}", file_name(f), r + 1),
            (Some(f), None) if m.kind != Kind::Pawn || f != m.to.file() => {
                format!(" from the {}-file", file_name(f))
            }
            (None, Some(r)) => format!(" from rank {}", r + 1),
            _ => String::new(),
        };
        let promoting = m
            .promotion
            .map_or(String::new(), |k| format!(", promoting to a {}", k.name()));
        format!("a {} {what}{from} to {}{promoting}", m.kind.name(), m.to)
    }

    /// The type of the piece that moves (the king when castling).
    pub fn kind(&self) -> Kind {
        match self {
            San::Castle(_) => Kind::King,
            San::Move(m) => m.kind,
        }
    }

    /// Whether `m`, a legal move, is the move this SAN names.
    fn fits<T>(&self, m: &Candidate<T>) -> bool {
        match self {
            San::Castle(side) => m.castle == Some(*side),
            San::Move(s) => {
                m.castle.is_none()
                    && m.kind == s.kind
                    && m.to == s.to
                    && s.file.is_none_or(|f| m.from.file() == f)
                    && s.rank.is_none_or(|r| m.from.rank() == r)
                    && (s.promotion.is_none() || m.promotion == s.promotion)
            }
        }
    }
}

/// A legal move with one source and one target, as SAN tells it apart, carrying the
/// move `T` it stands for (Quantum Chess's canonical move, a variant's text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate<T> {
    /// The source.
    pub from: Square,
    /// The target.
    pub to: Square,
    /// The moving piece's type.
    pub kind: Kind,
    /// What a pawn becomes on the last rank.
    pub promotion: Option<Kind>,
    /// The castling this move is, if it is one.
    pub castle: Option<Castle>,
    /// The move itself.
    pub mv: T,
}

/// The one candidate `san` (typed as `text`) names; `why_none` says why none does.
pub fn choose<T: ToString>(
    san: &San,
    text: &str,
    candidates: impl IntoIterator<Item = Candidate<T>>,
    why_none: impl FnOnce() -> String,
) -> Result<T, SanError> {
    let mut fitting: Vec<Candidate<T>> = candidates.into_iter().filter(|m| san.fits(m)).collect();
    let text = text.trim().to_string();
    let understood = san.words();
    if fitting.len() == 1 {
        return Ok(fitting.remove(0).mv);
    }
    Err(match fitting.as_slice() {
        [] => SanError::NoMove {
            why: why_none(),
            text,
            understood,
        },
        [first, ..]
            if first.promotion.is_some() && fitting.iter().all(|m| m.from == first.from) =>
        {
            SanError::PromotionNeeded { text, understood }
        }
        _ => SanError::Ambiguous {
            matches: fitting.iter().map(|m| m.mv.to_string()).collect(),
            text,
            understood,
        },
    })
}

/// The legal moves of `st` (any side's with `free_turns`) with one source and one
/// target, as SAN tells them apart.
fn candidates(st: &BoardState, free_turns: bool) -> Vec<Candidate<MoveText>> {
    legal_moves(st, free_turns)
        .into_iter()
        .filter_map(candidate)
        .collect()
}

/// A legal move as SAN tells it apart; `None` for a split or a merge.
fn candidate(c: Classified) -> Option<Candidate<MoveText>> {
    let Shape::Standard { from, to } = c.text.shape else {
        return None;
    };
    Some(Candidate {
        from,
        to,
        kind: c.piece.kind,
        promotion: c.text.promotion,
        castle: castle_of(c.kind),
        mv: c.text,
    })
}

/// The legal moves of `st` a SAN move of a `kind` to `to` promoting to `promotion` may
/// name: [`candidates`] of that kind and target, found by asking the rules about the
/// few squares where such a piece may stand rather than listing every move (the rules
/// accept exactly the moves `legal_moves` lists).
fn candidates_to(
    st: &BoardState,
    free_turns: bool,
    kind: Kind,
    to: Square,
    promotion: Option<Kind>,
) -> Vec<Candidate<MoveText>> {
    Square::all()
        .filter(|&s| st.piece(s).is_some_and(|p| p.kind == kind))
        .filter_map(|from| {
            let text = MoveText {
                promotion,
                ..MoveText::standard(from, to)
            };
            candidate(classify(st, &text, free_turns).ok()?)
        })
        .collect()
}

/// The castling a move of type `kind` is, if it is one.
fn castle_of(kind: MoveType) -> Option<Castle> {
    match kind {
        MoveType::CastleKingSide => Some(Castle::KingSide),
        MoveType::CastleQueenSide => Some(Castle::QueenSide),
        _ => None,
    }
}

/// The legal move `san` names in `st` (any side's with `free_turns`), in canonical form.
pub fn resolve(
    san: &San,
    text: &str,
    st: &BoardState,
    free_turns: bool,
) -> Result<MoveText, SanError> {
    choose(san, text, candidates(st, free_turns), || {
        why_none(san, st, free_turns)
    })
}

/// How `c`, a legal move of `st` (any side's with `free_turns`), is written in SAN:
/// `Nf3`, `exd5`, `Nbd2`, `e8=Q`, `O-O`, its source's file, rank or both named only
/// where another legal move of the same piece type to the same square needs telling
/// apart, so that [`resolve`] reads it back as `c`. `None` for a split or a merge, and
/// where SAN cannot tell the move apart (two pawns that may step to one square). No
/// `+` or `#`: Quantum Chess has no check. Whether the move measured is the caller's to
/// say: SAN has no outcome.
pub fn write(st: &BoardState, c: &Classified, free_turns: bool) -> Option<String> {
    let Shape::Standard { from, to } = c.text.shape else {
        return None;
    };
    // Castling is told apart from the other side's (with free turns) by the list of
    // every move; any other move only from the moves of its piece type to its target.
    let all = match castle_of(c.kind) {
        Some(_) => candidates(st, free_turns),
        None => candidates_to(st, free_turns, c.piece.kind, to, c.text.promotion),
    };
    let alone = |san: &San| {
        let mut fitting = all.iter().filter(|m| san.fits(m));
        fitting
            .next()
            .is_some_and(|m| m.from == from && m.promotion == c.text.promotion)
            && fitting.next().is_none()
    };
    if let Some(side) = castle_of(c.kind) {
        let san = San::Castle(side);
        return alone(&san).then(|| san.to_string());
    }
    let kind = c.piece.kind;
    let capture = c.text.marker == Some(Marker::Capture) || c.kind == MoveType::EnPassant;
    let (file, rank) = (Some(from.file()), Some(from.rank()));
    // A pawn names its file when it captures and nothing else (its file is its
    // target's when it steps, as `parse` reads it); a piece the least that tells it
    // apart, its file before its rank.
    let sources = match kind {
        Kind::Pawn if capture => vec![(file, None)],
        Kind::Pawn => vec![(Some(to.file()), None)],
        _ => vec![(None, None), (file, None), (None, rank), (file, rank)],
    };
    sources
        .into_iter()
        .map(|(file, rank)| {
            San::Move(PieceMove {
                kind,
                file,
                rank,
                capture,
                to,
                promotion: c.text.promotion,
            })
        })
        .find(alone)
        .map(|san| san.to_string())
}

impl fmt::Display for San {
    /// As SAN writes it: `O-O`, `Nbd2`, `exd5`, `e8=Q` (a pawn's file only when it
    /// captures).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = match self {
            San::Castle(Castle::KingSide) => return f.write_str("O-O"),
            San::Castle(Castle::QueenSide) => return f.write_str("O-O-O"),
            San::Move(m) => m,
        };
        let file_name = |x: i32| char::from(b'a' + x as u8);
        if m.kind != Kind::Pawn {
            write!(f, "{}", m.kind.letter())?;
        }
        match m.file {
            Some(x) if m.kind != Kind::Pawn || m.capture => write!(f, "{}", file_name(x))?,
            _ => {}
        }
        if let Some(r) = m.rank {
            write!(f, "{}", r + 1)?;
        }
        if m.capture {
            f.write_str("x")?;
        }
        write!(f, "{}", m.to)?;
        if let Some(k) = m.promotion {
            write!(f, "={}", k.letter())?;
        }
        Ok(())
    }
}

/// Why no legal move fits `san`: the rules' reason when one piece could have made it,
/// else that none can.
fn why_none(san: &San, st: &BoardState, free_turns: bool) -> String {
    let mover = |sq: Square| st.piece(sq).filter(|p| free_turns || p.color == st.to_move);
    let (kind, to, sources): (Kind, Option<Square>, Vec<Square>) = match *san {
        San::Castle(side) => {
            let rank = st.to_move.back_rank();
            let king = Square::all()
                .find(|&s| s.rank() == rank && mover(s).is_some_and(|p| p.kind == Kind::King));
            let to = king.and_then(|k| k.offset(if side == Castle::KingSide { 2 } else { -2 }, 0));
            (Kind::King, to, king.into_iter().collect())
        }
        San::Move(m) => {
            let sources = Square::all()
                .filter(|&s| {
                    mover(s).is_some_and(|p| {
                        p.kind == m.kind && standard_reach(m.kind, p.color, s, m.to)
                    }) && m.file.is_none_or(|f| s.file() == f)
                        && m.rank.is_none_or(|r| s.rank() == r)
                })
                .collect();
            (m.kind, Some(m.to), sources)
        }
    };
    match (sources.as_slice(), to) {
        ([from], Some(to)) => {
            let mut text = MoveText::standard(*from, to);
            if let San::Move(m) = san {
                text.promotion = m.promotion;
            }
            match classify(st, &text, free_turns) {
                Err(e) => e.to_string(),
                // The rules take it, but not as this SAN: a king's two steps.
                Ok(c) => format!("{} is castling: write O-O or O-O-O", c.text),
            }
        }
        _ => format!(
            "no {} of {} can make it",
            kind.name(),
            whose(st, free_turns)
        ),
    }
}

fn whose(st: &BoardState, free_turns: bool) -> String {
    if free_turns {
        "either side".into()
    } else {
        st.to_move.name().into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Game, GameOptions};

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn mv(kind: Kind, file: Option<i32>, rank: Option<i32>, to: &str) -> San {
        captures(kind, file, rank, false, to, None)
    }

    fn captures(
        kind: Kind,
        file: Option<i32>,
        rank: Option<i32>,
        capture: bool,
        to: &str,
        promotion: Option<Kind>,
    ) -> San {
        San::Move(PieceMove {
            kind,
            file,
            rank,
            capture,
            to: sq(to),
            promotion,
        })
    }

    #[test]
    fn reads_the_forms() {
        assert_eq!(parse("Nf3"), Some(mv(Kind::Knight, None, None, "f3")));
        assert_eq!(parse("e4"), Some(mv(Kind::Pawn, Some(4), None, "e4")));
        assert_eq!(parse("Nbd2"), Some(mv(Kind::Knight, Some(1), None, "d2")));
        assert_eq!(parse("R1e2"), Some(mv(Kind::Rook, None, Some(0), "e2")));
        assert_eq!(
            parse("Qh4e1"),
            Some(mv(Kind::Queen, Some(7), Some(3), "e1"))
        );
        assert_eq!(parse("O-O"), Some(San::Castle(Castle::KingSide)));
        assert_eq!(parse("0-0-0+"), Some(San::Castle(Castle::QueenSide)));
        let exd5 = captures(Kind::Pawn, Some(4), None, true, "d5", None);
        assert_eq!(parse("exd5"), Some(exd5));
        assert_eq!(parse(" exd5+ "), Some(exd5));
        let promo = captures(Kind::Pawn, Some(4), None, false, "e8", Some(Kind::Queen));
        assert_eq!(parse("e8=Q"), Some(promo));
        assert_eq!(parse("e8Q#"), Some(promo));
        assert_eq!(
            parse("Nxe5!?"),
            Some(captures(Kind::Knight, None, None, true, "e5", None))
        );
    }

    #[test]
    fn refuses_what_is_not_san() {
        for bad in [
            "", "N", "Nf9", "Zf3", "nf3", "O-O-O-O", "Nf3=Q", "e2e4x", "d5e", "exd", "ed5", "e2e4",
            "x", "Nxx3", "N1bd2", "é4", "N♘3", "e8=K", "e8=",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }

    fn read(g: &Game, text: &str) -> Result<String, SanError> {
        let san = parse(text).expect("SAN");
        resolve(&san, text, g.state(), g.options().free_turns).map(|t| t.to_string())
    }

    fn game(fen: &str) -> Game {
        Game::from_fen(fen, GameOptions::default()).unwrap()
    }

    #[test]
    fn turns_into_the_canonical_move() {
        let mut g = Game::standard(GameOptions::default());
        assert_eq!(read(&g, "Nf3").unwrap(), "g1f3");
        assert_eq!(read(&g, "e4").unwrap(), "e2e4");
        assert_eq!(read(&g, "e3").unwrap(), "e2e3");
        for m in ["e2e4", "d7d5"] {
            g.play(m).unwrap();
        }
        // The capture marker comes from the position, whether `x` is written or not.
        assert_eq!(read(&g, "exd5").unwrap(), "e4xd5");
        let castles = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert_eq!(read(&castles, "O-O").unwrap(), "e1g1");
        assert_eq!(read(&castles, "O-O-O").unwrap(), "e1c1");
        assert_eq!(
            read(&castles, "Kg1").unwrap_err().to_string(),
            "Kg1 (read as a king move to g1): e1g1 is castling: write O-O or O-O-O"
        );
        let knights = game("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
        assert_eq!(read(&knights, "Nbd2").unwrap(), "b1d2");
        assert_eq!(read(&knights, "Nfd2+").unwrap(), "f3d2");
        let rooks = game("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
        assert_eq!(read(&rooks, "R1a3").unwrap(), "a1a3");
        assert_eq!(read(&rooks, "R5a3").unwrap(), "a5a3");
        let promo = game("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(read(&promo, "e8=Q").unwrap(), "e7e8q");
        assert_eq!(read(&promo, "exd8=N").unwrap(), "e7xd8n");
    }

    #[test]
    fn refusals_say_what_was_understood() {
        let knights = game("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
        let e = read(&knights, "Nd2").unwrap_err();
        assert_eq!(
            e.to_string(),
            "Nd2 (read as a knight move to d2) fits 2 moves: b1d2, f3d2; name the source \
             square or type the move in squares"
        );
        let start = Game::standard(GameOptions::default());
        assert_eq!(
            read(&start, "Nd4").unwrap_err().to_string(),
            "Nd4 (read as a knight move to d4): no knight of white can make it"
        );
        assert_eq!(
            read(&start, "Bc4").unwrap_err().to_string(),
            "Bc4 (read as a bishop move to c4): the path from f1 to c4 is blocked: e2 is \
             certainly occupied"
        );
        assert!(matches!(
            read(&start, "O-O").unwrap_err(),
            SanError::NoMove { ref understood, .. } if understood == "castling king's side"
        ));
        let promo = game("6k1/4P3/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(
            read(&promo, "e8").unwrap_err().to_string(),
            "e8 (read as a pawn move to e8): the pawn promotes: add =Q, =R, =B or =N"
        );
    }

    /// The SAN `write` gives the move `text` in `g`.
    fn written(g: &Game, text: &str) -> Option<String> {
        let c = classify(g.state(), &g.read(text).unwrap(), g.options().free_turns).unwrap();
        write(g.state(), &c, g.options().free_turns)
    }

    #[test]
    fn writes_the_forms() {
        let mut g = Game::standard(GameOptions::default());
        assert_eq!(written(&g, "g1f3").as_deref(), Some("Nf3"));
        assert_eq!(written(&g, "e2e4").as_deref(), Some("e4"));
        for m in ["e2e4", "d7d5"] {
            g.play(m).unwrap();
        }
        assert_eq!(written(&g, "e4d5").as_deref(), Some("exd5"));
        let castles = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert_eq!(written(&castles, "e1g1").as_deref(), Some("O-O"));
        assert_eq!(written(&castles, "e1c1").as_deref(), Some("O-O-O"));
        assert_eq!(written(&castles, "a1a8").as_deref(), Some("Rxa8"));
        let knights = game("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
        assert_eq!(written(&knights, "b1d2").as_deref(), Some("Nbd2"));
        assert_eq!(written(&knights, "f3d4").as_deref(), Some("Nd4"));
        let rooks = game("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
        assert_eq!(written(&rooks, "a1a3").as_deref(), Some("R1a3"));
        let queens = game("4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1");
        assert_eq!(written(&queens, "a3b2").as_deref(), Some("Qa3b2"));
        let promo = game("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(written(&promo, "e7e8q").as_deref(), Some("e8=Q"));
        assert_eq!(written(&promo, "e7d8n").as_deref(), Some("exd8=N"));
        // A split and a merge have no SAN.
        assert_eq!(written(&g, "b1^a3c3"), None);
        // With free turns either side may castle: `O-O` would name two moves.
        let free = Game::from_fen(
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            GameOptions {
                free_turns: true,
                ..GameOptions::default()
            },
        )
        .unwrap();
        assert_eq!(written(&free, "e1g1"), None);
        // ... and either rook of the a-file may go to a7.
        assert_eq!(written(&free, "a1a7").as_deref(), Some("R1a7"));
    }

    #[test]
    fn a_piece_in_superposition_is_named_by_its_square_where_another_may_go() {
        let mut g = Game::standard(GameOptions::default());
        g.play("b1^a3c3").unwrap();
        g.play("e7e6").unwrap();
        assert_eq!(written(&g, "a3b5").as_deref(), Some("Nab5"));
        assert_eq!(written(&g, "c3e4").as_deref(), Some("Ne4"));
    }

    #[test]
    fn every_move_written_reads_back_as_itself() {
        for seed in 0..3 {
            let mut g = Game::standard(GameOptions {
                seed,
                ..GameOptions::default()
            });
            for m in crate::chess::random::seeded_game(seed, 60) {
                let st = g.state();
                for c in legal_moves(st, false) {
                    let Some(text) = write(st, &c, false) else {
                        assert!(
                            !matches!(c.text.shape, Shape::Standard { .. })
                                || c.kind == MoveType::PawnStep,
                            "{}",
                            c.text
                        );
                        continue;
                    };
                    let back = resolve(&parse(&text).expect("SAN"), &text, st, false);
                    assert_eq!(back, Ok(c.text), "{text} in {}", g.fen());
                }
                g.play(&m).unwrap();
                if g.status() != crate::chess::Status::Ongoing {
                    break;
                }
            }
        }
    }

    #[test]
    fn a_piece_in_superposition_is_found_wherever_it_may_stand() {
        let mut g = Game::standard(GameOptions::default());
        g.play("b1^a3c3").unwrap();
        g.play("e7e6").unwrap();
        match read(&g, "Nb5").unwrap_err() {
            SanError::Ambiguous { matches, .. } => assert_eq!(matches, vec!["a3b5", "c3b5"]),
            e => panic!("{e}"),
        }
        assert_eq!(read(&g, "Nab5").unwrap(), "a3b5");
        assert_eq!(read(&g, "Ne4").unwrap(), "c3e4");
    }
}
