//! Colour tiers (truecolor, 256, 16, none): detection from the environment, the
//! `--color` override, and the mapping of theme RGB colours down to a tier.

use crate::style::theme::{Rgb, Theme};
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::border;
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders};
use std::fmt;
use std::str::FromStr;

/// How many colours the terminal shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    /// 24-bit RGB.
    TrueColor,
    /// The xterm 256-colour palette.
    Ansi256,
    /// The 16 basic ANSI colours.
    Ansi16,
    /// No colour at all: distinctions by text and bold/reverse only.
    None,
}

/// What `--color` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ColorChoice {
    /// Detect from NO_COLOR, COLORTERM and TERM.
    #[default]
    Auto,
    /// Force a tier.
    Fixed(Tier),
}

/// A `--color` value that is not one of the accepted words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown colour mode \"{0}\" (choose auto, truecolor, 256, 16 or none)")]
pub struct BadColorChoice(String);

impl ColorChoice {
    /// The words `--color` takes (`24bit`, `no` and `off` are read as well).
    pub const WORDS: [&str; 5] = ["auto", "truecolor", "256", "16", "none"];
}

impl FromStr for ColorChoice {
    type Err = BadColorChoice;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "auto" => ColorChoice::Auto,
            "truecolor" | "24bit" => ColorChoice::Fixed(Tier::TrueColor),
            "256" => ColorChoice::Fixed(Tier::Ansi256),
            "16" => ColorChoice::Fixed(Tier::Ansi16),
            "none" | "no" | "off" => ColorChoice::Fixed(Tier::None),
            _ => return Err(BadColorChoice(s.to_string())),
        })
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Tier::TrueColor => "truecolor",
            Tier::Ansi256 => "256",
            Tier::Ansi16 => "16",
            Tier::None => "none",
        })
    }
}

impl fmt::Display for ColorChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ColorChoice::Auto => f.write_str("auto"),
            ColorChoice::Fixed(t) => t.fmt(f),
        }
    }
}

impl ColorChoice {
    /// The tier to use, reading the environment through `var` when set to `Auto`.
    pub fn resolve(self, var: impl Fn(&str) -> Option<String>) -> Tier {
        match self {
            ColorChoice::Fixed(t) => t,
            ColorChoice::Auto => detect(var),
        }
    }
}

/// The tier the environment asks for: NO_COLOR (any non-empty value) turns colour off;
/// COLORTERM=truecolor|24bit gives truecolor; otherwise TERM decides (`*-256color` gives
/// 256, `dumb` none, anything else 16).
pub fn detect(var: impl Fn(&str) -> Option<String>) -> Tier {
    if var("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        return Tier::None;
    }
    if var("COLORTERM").is_some_and(|v| {
        let v = v.to_ascii_lowercase();
        v == "truecolor" || v == "24bit"
    }) {
        return Tier::TrueColor;
    }
    let term = var("TERM").unwrap_or_default().to_ascii_lowercase();
    if term.contains("direct") || term.contains("truecolor") {
        Tier::TrueColor
    } else if term.contains("256") {
        Tier::Ansi256
    } else if term.is_empty() || term == "dumb" {
        Tier::None
    } else {
        Tier::Ansi16
    }
}

/// Pane borders in plain ASCII, for `--ascii`.
const ASCII_BORDER: border::Set = border::Set {
    top_left: "+",
    top_right: "+",
    bottom_left: "+",
    bottom_right: "+",
    vertical_left: "|",
    vertical_right: "|",
    horizontal_top: "-",
    horizontal_bottom: "-",
};

/// The theme resolved for one tier: hands out ratatui styles and pane frames.
#[derive(Clone, Debug)]
pub struct Paint {
    /// The tier colours are mapped to.
    pub tier: Tier,
    /// The colours before mapping.
    pub theme: Theme,
    /// Borders and separators in plain ASCII (`--ascii`).
    pub ascii: bool,
    /// Ordinary moves in the history in squares (`e1g1`) rather than SAN (`O-O`).
    pub coordinates: bool,
}

impl Paint {
    /// A paint for `theme` on a terminal of `tier`.
    pub fn new(theme: Theme, tier: Tier) -> Paint {
        Paint {
            tier,
            theme,
            ascii: false,
            coordinates: false,
        }
    }

    /// This paint with ASCII borders and separators when `ascii`.
    pub fn with_ascii(self, ascii: bool) -> Paint {
        Paint { ascii, ..self }
    }

    /// This paint with the history's ordinary moves in squares when `coordinates`.
    pub fn with_coordinates(self, coordinates: bool) -> Paint {
        Paint {
            coordinates,
            ..self
        }
    }

    /// A pane's frame: all four borders in the border colour, drawn with box-drawing
    /// characters or, with `ascii`, with `+ - |`.
    pub fn block(&self) -> Block<'static> {
        let set = if self.ascii {
            ASCII_BORDER
        } else {
            border::PLAIN
        };
        Block::default()
            .borders(Borders::ALL)
            .border_set(set)
            .border_style(self.fg(self.theme.border))
    }

    /// The separator between the parts of a status line.
    pub fn sep(&self) -> Span<'static> {
        Span::styled(if self.ascii { " | " } else { " │ " }, self.dim())
    }

    /// The terminal colour for `rgb`, or `None` when colour is off.
    pub fn color(&self, rgb: Rgb) -> Option<Color> {
        match self.tier {
            Tier::TrueColor => Some(Color::Rgb(rgb.0, rgb.1, rgb.2)),
            Tier::Ansi256 => Some(Color::Indexed(to_ansi256(rgb))),
            Tier::Ansi16 => Some(to_ansi16(rgb)),
            Tier::None => None,
        }
    }

    /// True when colours are shown.
    pub fn colored(&self) -> bool {
        self.tier != Tier::None
    }

    /// A style with foreground `rgb`.
    pub fn fg(&self, rgb: Rgb) -> Style {
        match self.color(rgb) {
            Some(c) => Style::default().fg(c),
            None => Style::default(),
        }
    }

    /// `style` with background `rgb` (unchanged when colour is off).
    pub fn on(&self, style: Style, rgb: Rgb) -> Style {
        match self.color(rgb) {
            Some(c) => style.bg(c),
            None => style,
        }
    }

    /// Text style for pane titles.
    pub fn title(&self) -> Style {
        self.fg(self.theme.title).add_modifier(Modifier::BOLD)
    }

    /// Secondary text.
    pub fn dim(&self) -> Style {
        if self.colored() {
            self.fg(self.theme.dim)
        } else {
            Style::default().add_modifier(Modifier::DIM)
        }
    }
}

const CUBE: [u8; 6] = [0, 95, 135, 175, 215, 255];

fn nearest_cube(v: u8) -> usize {
    (0..6)
        .min_by_key(|&i| (CUBE[i] as i32 - v as i32).abs())
        .unwrap_or(0)
}

fn dist2(a: (i32, i32, i32), b: (i32, i32, i32)) -> i32 {
    (a.0 - b.0).pow(2) + (a.1 - b.1).pow(2) + (a.2 - b.2).pow(2)
}

/// The nearest entry of the xterm 256-colour palette (6x6x6 cube or grey ramp).
pub fn to_ansi256(c: Rgb) -> u8 {
    let rgb = (c.0 as i32, c.1 as i32, c.2 as i32);
    let (r, g, b) = (nearest_cube(c.0), nearest_cube(c.1), nearest_cube(c.2));
    let cube = (CUBE[r] as i32, CUBE[g] as i32, CUBE[b] as i32);
    let cube_index = 16 + 36 * r + 6 * g + b;
    let avg = (rgb.0 + rgb.1 + rgb.2) / 3;
    let step = ((avg - 8).max(0) / 10).min(23);
    let grey = 8 + 10 * step;
    if dist2(rgb, (grey, grey, grey)) < dist2(rgb, cube) {
        (232 + step) as u8
    } else {
        cube_index as u8
    }
}

/// One of the 16 basic colours: greys by lightness, other colours by hue (bright
/// variants for light colours). Hue keeps distinct theme colours distinct, which a
/// plain nearest match over 16 colours does not.
pub fn to_ansi16(c: Rgb) -> Color {
    let (r, g, b) = (c.0 as i32, c.1 as i32, c.2 as i32);
    let max = r.max(g).max(b);
    let min = r.min(g).min(b);
    let chroma = max - min;
    let light = (max + min) / 2;
    if chroma < 48 {
        return match light {
            0..=63 => Color::Black,
            64..=159 => Color::DarkGray,
            160..=223 => Color::Gray,
            _ => Color::White,
        };
    }
    let h = if max == r {
        60.0 * ((g - b) as f64 / chroma as f64).rem_euclid(6.0)
    } else if max == g {
        60.0 * ((b - r) as f64 / chroma as f64 + 2.0)
    } else {
        60.0 * ((r - g) as f64 / chroma as f64 + 4.0)
    };
    let sector = (((h + 30.0) / 60.0) as usize) % 6;
    let bright = max >= 224 || light > 190;
    match (sector, bright) {
        (0, false) => Color::Red,
        (0, true) => Color::LightRed,
        (1, false) => Color::Yellow,
        (1, true) => Color::LightYellow,
        (2, false) => Color::Green,
        (2, true) => Color::LightGreen,
        (3, false) => Color::Cyan,
        (3, true) => Color::LightCyan,
        (4, false) => Color::Blue,
        (4, true) => Color::LightBlue,
        (_, false) => Color::Magenta,
        (_, true) => Color::LightMagenta,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn detection() {
        assert_eq!(detect(env(&[("TERM", "xterm-256color")])), Tier::Ansi256);
        assert_eq!(
            detect(env(&[
                ("TERM", "xterm-256color"),
                ("COLORTERM", "truecolor")
            ])),
            Tier::TrueColor
        );
        assert_eq!(
            detect(env(&[("TERM", "xterm-256color"), ("NO_COLOR", "1")])),
            Tier::None
        );
        assert_eq!(
            detect(env(&[("TERM", "xterm-256color"), ("NO_COLOR", "")])),
            Tier::Ansi256
        );
        assert_eq!(detect(env(&[("TERM", "xterm")])), Tier::Ansi16);
        assert_eq!(detect(env(&[("TERM", "dumb")])), Tier::None);
        assert_eq!(
            ColorChoice::Fixed(Tier::Ansi16).resolve(env(&[("COLORTERM", "truecolor")])),
            Tier::Ansi16
        );
        assert!("purple".parse::<ColorChoice>().is_err());
        assert_eq!(
            "256".parse::<ColorChoice>(),
            Ok(ColorChoice::Fixed(Tier::Ansi256))
        );
        for word in ["auto", "truecolor", "256", "16", "none"] {
            assert_eq!(word.parse::<ColorChoice>().unwrap().to_string(), word);
        }
    }

    #[test]
    fn palette_mapping() {
        assert_eq!(to_ansi256(Rgb(0, 0, 0)), 16);
        assert_eq!(to_ansi256(Rgb(255, 255, 255)), 231);
        assert_eq!(to_ansi256(Rgb(215, 175, 135)), 16 + 36 * 4 + 6 * 3 + 2);
        assert_eq!(to_ansi256(Rgb(128, 128, 128)), 244);
        assert_eq!(to_ansi16(Rgb(255, 0, 0)), Color::LightRed);
        assert_eq!(to_ansi16(Rgb(0, 0, 160)), Color::Blue);
        assert_eq!(to_ansi16(Rgb(10, 10, 10)), Color::Black);
    }
}
