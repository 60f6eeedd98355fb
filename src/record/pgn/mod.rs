//! Quantum PGN: games in and out in the Portable Game Notation the official Quantum
//! Chess app uses (docs/pgn.md). Ordinary PGN (tag pairs, movetext with move numbers,
//! comments, annotations, variations, a result), whose moves are written in Quantum
//! Chess notation (`b1^a3c3`, `a3c3^b5`, `e4xd5.m1`) or, for ordinary moves, in SAN
//! (`Nf3`, `O-O`, `e8=Q`), with `{blocked}` after a move whose measurement stopped it.
//!
//! [`read`] turns a file's text into [`PgnGame`]s (syntax only), [`write`] a game into
//! text; [`convert`] goes between a [`PgnGame`] and a [`crate::record::SavedGame`]
//! (replaying the moves, so that SAN is resolved and the recorded outcomes are checked);
//! [`file`] opens a game of a `.pgn` file by its number and writes exports;
//! [`dialect`] reads the ways other programs write a move (`exf6 e.p.`, `Ng1-f3`).
//!
//! No PGN crate is used: the maintained readers (`pgn-reader`) are GPL-licensed and
//! silently skip every token that is not SAN, which is every quantum move.

pub mod convert;
pub mod dialect;
pub mod file;
pub mod lexer;
pub mod read;
pub mod write;

pub use convert::{from_pgn, to_pgn, ImportError};
pub use file::{list, load, GameSummary};
pub use read::read;
pub use write::{write, write_all};

use crate::chess::Status;

/// A place in a file: 1-based line, and 1-based column counted in characters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1, in characters.
    pub column: usize,
}

/// Text that is not PGN, with the place of the trouble.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {}, column {}: {message}", pos.line, pos.column)]
pub struct PgnError {
    /// Where.
    pub pos: Pos,
    /// What is wrong, in words.
    pub message: String,
}

impl PgnError {
    /// The error `message` at `pos`.
    pub fn at(pos: Pos, message: impl Into<String>) -> PgnError {
        PgnError {
            pos,
            message: message.into(),
        }
    }
}

/// How a game ended, as PGN writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: still going, or not known.
    Unknown,
}

impl GameResult {
    /// The result a token names (`1-0`, `0-1`, `1/2-1/2`, `½-½`, `*`).
    pub fn parse(s: &str) -> Option<GameResult> {
        Some(match s {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" | "½-½" => GameResult::Draw,
            "*" => GameResult::Unknown,
            _ => return None,
        })
    }

    /// The token: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn token(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// The game's status this result stands for (`*` is a game going on).
    pub fn status(self) -> Status {
        match self {
            GameResult::WhiteWins => Status::WhiteWins,
            GameResult::BlackWins => Status::BlackWins,
            GameResult::Draw => Status::Draw,
            GameResult::Unknown => Status::Ongoing,
        }
    }

    /// The result that writes `status`.
    pub fn of(status: Status) -> GameResult {
        match status {
            Status::WhiteWins => GameResult::WhiteWins,
            Status::BlackWins => GameResult::BlackWins,
            Status::Draw => GameResult::Draw,
            Status::Ongoing => GameResult::Unknown,
        }
    }
}

/// A tag pair: `[Name "value"]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    /// The name (`Event`, `FEN`, ...).
    pub name: String,
    /// The value, its escapes undone.
    pub value: String,
    /// Where the tag starts (its `[`).
    pub pos: Pos,
}

/// One move of a game's main line, with what the file says about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// The move as written, without `+`, `#` and suffix annotations (`!?`).
    pub text: String,
    /// Where it is written.
    pub pos: Pos,
    /// Its numeric annotations (`$2`; a `?` suffix is 2).
    pub nags: Vec<u8>,
    /// The comments after it, each without its braces.
    pub comments: Vec<String>,
}

impl Move {
    /// A move written as `text`, without annotations.
    pub fn new(text: impl Into<String>) -> Move {
        Move {
            text: text.into(),
            pos: Pos::default(),
            nags: Vec::new(),
            comments: Vec::new(),
        }
    }

    /// Whether a `{blocked}` comment follows it.
    pub fn blocked(&self) -> bool {
        self.comments
            .iter()
            .any(|c| c.trim().eq_ignore_ascii_case(BLOCKED))
    }
}

/// The comment after a move whose measurement stopped it.
pub const BLOCKED: &str = "blocked";

/// One game of a PGN file: its tags, the moves of its main line, its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// The tag pairs, in the file's order.
    pub tags: Vec<Tag>,
    /// The comments before the first move.
    pub comments: Vec<String>,
    /// The moves of the main line (variations are skipped).
    pub moves: Vec<Move>,
    /// The termination marker.
    pub result: GameResult,
    /// Where the termination marker is.
    pub result_pos: Pos,
    /// Where the game starts.
    pub start: Pos,
}

impl PgnGame {
    /// The first tag named `name`.
    pub fn tag(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().find(|t| t.name == name)
    }

    /// The value of the first tag named `name`.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.tag(name).map(|t| t.value.as_str())
    }
}
