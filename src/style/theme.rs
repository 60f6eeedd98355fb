//! The colours of the game as RGB values, independent of what the terminal can show.
//! [`crate::style::color`] maps them down to the terminal's colour tier. Theme files
//! ([`crate::config::themes`]) write each colour as `"#rrggbb"`.

use serde::Deserialize;
use std::fmt;
use std::str::FromStr;

/// A colour as red, green and blue, 0..=255 each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub struct Rgb(pub u8, pub u8, pub u8);

/// A colour that is not written as `#rrggbb`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a colour: write it as \"#rrggbb\" (three hex pairs)")]
pub struct BadRgb(String);

impl FromStr for Rgb {
    type Err = BadRgb;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadRgb(s.to_string());
        let hex = s.strip_prefix('#').ok_or_else(bad)?;
        if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad());
        }
        let pair = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|_| bad());
        Ok(Rgb(pair(0)?, pair(2)?, pair(4)?))
    }
}

impl TryFrom<String> for Rgb {
    type Error = BadRgb;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl fmt::Display for Rgb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

impl Rgb {
    /// The WCAG 2 relative luminance: 0 for black, 1 for white.
    pub fn luminance(self) -> f64 {
        let lin = |c: u8| {
            let c = c as f64 / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(self.0) + 0.7152 * lin(self.1) + 0.0722 * lin(self.2)
    }

    /// The WCAG 2 contrast ratio with `other`, from 1 (none) to 21 (black on white).
    pub fn contrast(self, other: Rgb) -> f64 {
        let (a, b) = (self.luminance(), other.luminance());
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }
}

/// Every colour the panes use. The default ("classic") is chosen so that it still reads
/// well when mapped to 256 or 16 colours. A theme file sets these fields by name; the
/// ones it leaves out keep the default's colour.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
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
            light_square: Rgb(175, 135, 95),
            dark_square: Rgb(135, 95, 95),
            white_piece: Rgb(255, 255, 255),
            black_piece: Rgb(0, 0, 0),
            white_quantum: Rgb(215, 255, 255),
            black_quantum: Rgb(0, 0, 95),
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

impl Theme {
    /// The colour for text drawn on `bg` that must stand out whatever the square (a
    /// piece's percentage): the white or the black piece colour, whichever contrasts
    /// more. With pure white and black that is at least 4.58:1 on any background.
    pub fn ink_on(&self, bg: Rgb) -> Rgb {
        if self.white_piece.contrast(bg) >= self.black_piece.contrast(bg) {
            self.white_piece
        } else {
            self.black_piece
        }
    }

    /// Every colour with its key in theme files, in the order of the fields.
    pub fn entries(&self) -> [(&'static str, Rgb); 16] {
        [
            ("light_square", self.light_square),
            ("dark_square", self.dark_square),
            ("white_piece", self.white_piece),
            ("black_piece", self.black_piece),
            ("white_quantum", self.white_quantum),
            ("black_quantum", self.black_quantum),
            ("cursor", self.cursor),
            ("selected", self.selected),
            ("target", self.target),
            ("last_move", self.last_move),
            ("border", self.border),
            ("title", self.title),
            ("text", self.text),
            ("dim", self.dim),
            ("error", self.error),
            ("info", self.info),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_colours_read_and_write() {
        assert_eq!("#d7AF87".parse(), Ok(Rgb(215, 175, 135)));
        assert_eq!(Rgb(215, 175, 135).to_string(), "#d7af87");
        for bad in ["d7af87", "#d7af8", "#d7af877", "#d7ag87", "", "#"] {
            assert!(bad.parse::<Rgb>().is_err(), "{bad}");
        }
    }

    #[test]
    fn wcag_contrast() {
        let (w, b) = (Rgb(255, 255, 255), Rgb(0, 0, 0));
        assert!((w.contrast(b) - 21.0).abs() < 1e-9);
        assert!((b.contrast(w) - 21.0).abs() < 1e-9);
        assert_eq!(w.contrast(w), 1.0);
        // The classic light square of old: white pieces had 2.0:1 on it.
        assert!((w.contrast(Rgb(215, 175, 135)) - 2.02).abs() < 0.01);
    }

    #[test]
    fn entry_names_are_the_file_keys() {
        // Each key set alone in a file must change exactly its own entry.
        for (i, (key, _)) in Theme::default().entries().iter().enumerate() {
            let t: Theme = toml::from_str(&format!("{key} = \"#010203\"")).unwrap();
            for (j, (_, rgb)) in t.entries().iter().enumerate() {
                let want = if i == j {
                    Rgb(1, 2, 3)
                } else {
                    Theme::default().entries()[j].1
                };
                assert_eq!(*rgb, want, "{key}");
            }
        }
    }
}
