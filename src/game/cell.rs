//! What the board shows on one square, in every rule system.

use crate::chess::{Color, Kind};

/// What the board shows on one square.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cell {
    /// The piece's side.
    pub color: Color,
    /// The piece's type; `None` while it is undetermined (haft's "M").
    pub kind: Option<Kind>,
    /// The probability that the piece stands here (1 for a certain piece).
    pub probability: f64,
}
