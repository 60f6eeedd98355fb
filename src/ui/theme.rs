//! The colours of the game as RGB values, independent of what the terminal can show.
//! [`crate::ui::color`] maps them down to the terminal's colour tier.

/// A colour as red, green and blue, 0..=255 each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

/// Every colour the panes use. The default is chosen so that it still reads well when
/// mapped to 256 or 16 colours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Theme {
    /// Light board squares.
    pub light_square: Rgb,
    /// Dark board squares.
    pub dark_square: Rgb,
    /// White pieces that are certainly there.
    pub white_piece: Rgb,
    /// Black pieces that are certainly there.
    pub black_piece: Rgb,
    /// White pieces in superposition.
    pub white_quantum: Rgb,
    /// Black pieces in superposition.
    pub black_quantum: Rgb,
    /// The square under the cursor.
    pub cursor: Rgb,
    /// The selected source square(s).
    pub selected: Rgb,
    /// Legal targets of the selection.
    pub target: Rgb,
    /// Squares of the last move.
    pub last_move: Rgb,
    /// Pane borders.
    pub border: Rgb,
    /// Pane titles and headings.
    pub title: Rgb,
    /// Ordinary text.
    pub text: Rgb,
    /// Secondary text (labels, hints).
    pub dim: Rgb,
    /// Rejected input and errors.
    pub error: Rgb,
    /// Measurement outcomes and other news.
    pub info: Rgb,
}

impl Default for Theme {
    fn default() -> Self {
        // Values sit on (or next to) the xterm 256-colour cube, so the common SSH case
        // (TERM=xterm-256color, no COLORTERM) looks the same as truecolor.
        Theme {
            light_square: Rgb(215, 175, 135),
            dark_square: Rgb(135, 95, 95),
            white_piece: Rgb(255, 255, 255),
            black_piece: Rgb(0, 0, 0),
            white_quantum: Rgb(135, 255, 255),
            black_quantum: Rgb(95, 0, 175),
            cursor: Rgb(95, 175, 255),
            selected: Rgb(95, 215, 95),
            target: Rgb(255, 215, 95),
            last_move: Rgb(95, 135, 175),
            border: Rgb(128, 128, 128),
            title: Rgb(255, 215, 95),
            text: Rgb(218, 218, 218),
            dim: Rgb(138, 138, 138),
            error: Rgb(255, 95, 95),
            info: Rgb(135, 215, 255),
        }
    }
}
