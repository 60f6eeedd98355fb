//! Where a game stands ([`Status`]) and why it ended ([`EndReason`]).

use serde::{Deserialize, Serialize};

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Still going.
    Ongoing,
    /// White captured the black king.
    WhiteWins,
    /// Black captured the white king.
    BlackWins,
    /// Both kings gone, or both present after a final measurement.
    Draw,
}

impl Status {
    /// The result in which `side` wins.
    pub fn won_by(side: super::Color) -> Status {
        match side {
            super::Color::White => Status::WhiteWins,
            super::Color::Black => Status::BlackWins,
        }
    }

    /// "ongoing", "white_wins", "black_wins", "draw".
    pub fn name(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::WhiteWins => "white_wins",
            Status::BlackWins => "black_wins",
            Status::Draw => "draw",
        }
    }

    /// Words for a player.
    pub fn describe(self) -> &'static str {
        match self {
            Status::Ongoing => "game in progress",
            Status::WhiteWins => "white wins",
            Status::BlackWins => "black wins",
            Status::Draw => "draw",
        }
    }
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// A king's probability reached 0.
    KingCaptured,
    /// Both kings' probabilities reached 0 together.
    BothKingsCaptured,
    /// The 50-move counter reached 100 and the board was measured.
    FiftyMoves,
    /// The same state occurred three times and the board was measured.
    Repetition,
}

impl EndReason {
    /// Words for a player.
    pub fn describe(self) -> &'static str {
        match self {
            EndReason::KingCaptured => "a king was captured with certainty",
            EndReason::BothKingsCaptured => "both kings vanished at once",
            EndReason::FiftyMoves => {
                "50 moves without a change in the piece count: the board was measured"
            }
            EndReason::Repetition => "the same state occurred three times: the board was measured",
        }
    }
}
