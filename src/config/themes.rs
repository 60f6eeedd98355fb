//! Colour themes by name: the built-in ones (the files in `themes/` of the repository,
//! compiled in) and the user's, `NAME.toml` in the themes folder of the configuration
//! directory, which add to the built-in ones or replace one of the same name.
//!
//! A theme file sets [`Theme`] fields by key to `"#rrggbb"` colours. A user theme may
//! leave keys out: those keep the colour of the classic theme.

use super::ConfigError;
use crate::files::FileError;
use crate::style::theme::Theme;
use std::path::{Path, PathBuf};

/// The built-in themes: name and file text.
pub const BUILT_IN: [(&str, &str); 4] = [
    ("classic", include_str!("../../themes/classic.toml")),
    ("dark", include_str!("../../themes/dark.toml")),
    (
        "high-contrast",
        include_str!("../../themes/high-contrast.toml"),
    ),
    ("mono", include_str!("../../themes/mono.toml")),
];

/// Where a theme comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Compiled into qchess; the file's text.
    BuiltIn(&'static str),
    /// A file in the user's themes folder.
    File(PathBuf),
}

/// A theme that can be chosen by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThemeEntry {
    /// The name (a built-in name, or the file name without `.toml`).
    pub name: String,
    /// Where its colours are written.
    pub source: Source,
    /// Whether this user file takes the place of a built-in theme of the same name.
    pub replaces_built_in: bool,
}

impl ThemeEntry {
    /// Reads the theme's colours.
    pub fn load(&self) -> Result<Theme, ConfigError> {
        match &self.source {
            Source::BuiltIn(text) => {
                let path = PathBuf::from(format!("built-in theme {}", self.name));
                Ok(parse_theme(&path, text)?)
            }
            Source::File(path) => {
                let text = crate::files::read_text(path).map_err(|e| ConfigError::Read {
                    path: path.clone(),
                    source: e,
                })?;
                Ok(parse_theme(path, &text)?)
            }
        }
    }
}

/// The theme written in `text`, the contents of `path` (named in errors). Keys left out
/// keep the classic colours.
pub fn parse_theme(path: &Path, text: &str) -> Result<Theme, FileError> {
    toml::from_str(text).map_err(|e| FileError::from_toml(path, text, &e))
}

/// Every theme that can be chosen, sorted by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Catalogue {
    entries: Vec<ThemeEntry>,
}

impl Catalogue {
    /// The built-in themes only.
    pub fn built_in() -> Catalogue {
        let entries = BUILT_IN
            .iter()
            .map(|&(name, text)| ThemeEntry {
                name: name.to_string(),
                source: Source::BuiltIn(text),
                replaces_built_in: false,
            })
            .collect();
        Catalogue { entries }
    }

    /// The built-in themes with the `*.toml` files of `dir` added (a missing folder adds
    /// none). The files are only named here; [`ThemeEntry::load`] reads one.
    pub fn with_user_dir(dir: &Path) -> Result<Catalogue, ConfigError> {
        let mut cat = Catalogue::built_in();
        let listing = match std::fs::read_dir(dir) {
            Ok(listing) => listing,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(cat),
            Err(e) => {
                return Err(ConfigError::Read {
                    path: dir.to_path_buf(),
                    source: e,
                })
            }
        };
        for item in listing {
            let path = item
                .map_err(|e| ConfigError::Read {
                    path: dir.to_path_buf(),
                    source: e,
                })?
                .path();
            let name = match (path.extension(), path.file_stem()) {
                (Some(ext), Some(stem)) if ext == "toml" => stem.to_str(),
                _ => None,
            };
            let Some(name) = name.filter(|_| path.is_file()) else {
                continue;
            };
            let replaces_built_in = BUILT_IN.iter().any(|(b, _)| *b == name);
            cat.entries.retain(|e| e.name != name);
            cat.entries.push(ThemeEntry {
                name: name.to_string(),
                source: Source::File(path.clone()),
                replaces_built_in,
            });
        }
        cat.entries.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(cat)
    }

    /// Every theme, sorted by name.
    pub fn entries(&self) -> &[ThemeEntry] {
        &self.entries
    }

    /// The theme called `name`, or an error listing the ones there are.
    pub fn find(&self, name: &str) -> Result<&ThemeEntry, ConfigError> {
        self.entries
            .iter()
            .find(|e| e.name == name)
            .ok_or_else(|| ConfigError::UnknownTheme {
                name: name.to_string(),
                available: self
                    .entries
                    .iter()
                    .map(|e| e.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    /// The colours of the theme called `name`.
    pub fn theme(&self, name: &str) -> Result<Theme, ConfigError> {
        self.find(name)?.load()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::style::color::{Paint, Tier};
    use crate::style::theme::Rgb;
    use ratatui::style::Color;

    #[test]
    fn built_in_themes_set_every_key_and_no_other() {
        let keys: Vec<&str> = Theme::default().entries().iter().map(|e| e.0).collect();
        for (name, text) in BUILT_IN {
            let table: toml::Table = toml::from_str(text).unwrap();
            let mut found: Vec<&str> = table.keys().map(String::as_str).collect();
            let mut want = keys.clone();
            found.sort_unstable();
            want.sort_unstable();
            assert_eq!(found, want, "{name}");
            Catalogue::built_in().theme(name).unwrap();
        }
    }

    #[test]
    fn classic_is_the_default_theme() {
        assert_eq!(
            Catalogue::built_in().theme("classic").unwrap(),
            Theme::default()
        );
    }

    #[test]
    fn built_in_themes_differ() {
        let themes: Vec<Theme> = BUILT_IN
            .iter()
            .map(|(n, _)| Catalogue::built_in().theme(n).unwrap())
            .collect();
        for (i, a) in themes.iter().enumerate() {
            for b in &themes[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    #[test]
    fn every_built_in_theme_keeps_marks_apart_in_every_tier() {
        for (name, _) in BUILT_IN {
            let t = Catalogue::built_in().theme(name).unwrap();
            for tier in [Tier::TrueColor, Tier::Ansi256, Tier::Ansi16] {
                let p = Paint::new(t.clone(), tier);
                let squares = [
                    t.light_square,
                    t.dark_square,
                    t.cursor,
                    t.selected,
                    t.target,
                    t.last_move,
                ];
                for (i, a) in squares.iter().enumerate() {
                    for b in &squares[i + 1..] {
                        assert_ne!(p.color(*a), p.color(*b), "{name} {tier}: {a:?} {b:?}");
                    }
                }
                // White and black pieces always differ. A piece in superposition shows
                // its percentage, so its colour may fall together with the certain
                // piece's where 16 colours leave no other, and in mono, where only
                // black keeps 3:1 contrast on both squares for black pieces.
                assert_ne!(
                    p.color(t.white_piece),
                    p.color(t.black_piece),
                    "{name} {tier}"
                );
                if tier != Tier::Ansi16 {
                    assert_ne!(p.color(t.white_piece), p.color(t.white_quantum), "{name}");
                    if name != "mono" {
                        assert_ne!(p.color(t.black_piece), p.color(t.black_quantum), "{name}");
                    }
                }
            }
        }
    }

    #[test]
    fn mono_uses_only_the_16_ansi_colours_exactly() {
        // The VGA values of the 16 ANSI colours and the colour each must map to.
        let palette = [
            (Rgb(0, 0, 0), Color::Black),
            (Rgb(170, 0, 0), Color::Red),
            (Rgb(0, 170, 0), Color::Green),
            (Rgb(170, 85, 0), Color::Yellow),
            (Rgb(0, 0, 170), Color::Blue),
            (Rgb(170, 0, 170), Color::Magenta),
            (Rgb(0, 170, 170), Color::Cyan),
            (Rgb(170, 170, 170), Color::Gray),
            (Rgb(85, 85, 85), Color::DarkGray),
            (Rgb(255, 85, 85), Color::LightRed),
            (Rgb(85, 255, 85), Color::LightGreen),
            (Rgb(255, 255, 85), Color::LightYellow),
            (Rgb(85, 85, 255), Color::LightBlue),
            (Rgb(255, 85, 255), Color::LightMagenta),
            (Rgb(85, 255, 255), Color::LightCyan),
            (Rgb(255, 255, 255), Color::White),
        ];
        let mono = Catalogue::built_in().theme("mono").unwrap();
        let p = Paint::new(mono.clone(), Tier::Ansi16);
        for (key, rgb) in mono.entries() {
            let (_, want) = palette
                .iter()
                .find(|(v, _)| *v == rgb)
                .unwrap_or_else(|| panic!("mono {key} = {rgb} is not an ANSI colour"));
            assert_eq!(p.color(rgb), Some(*want), "mono {key}");
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "qchess-themes-{name}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn user_themes_add_and_replace() {
        let dir = scratch("user");
        std::fs::write(dir.join("mine.toml"), "cursor = \"#123456\"\n").unwrap();
        std::fs::write(dir.join("dark.toml"), "text = \"#abcdef\"\n").unwrap();
        std::fs::write(dir.join("notes.txt"), "not a theme").unwrap();
        let cat = Catalogue::with_user_dir(&dir).unwrap();
        let names: Vec<&str> = cat.entries().iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["classic", "dark", "high-contrast", "mine", "mono"]);
        let mine = cat.theme("mine").unwrap();
        assert_eq!(mine.cursor, Rgb(0x12, 0x34, 0x56));
        assert_eq!(
            mine.text,
            Theme::default().text,
            "left-out keys are classic"
        );
        let dark = cat.find("dark").unwrap();
        assert!(dark.replaces_built_in);
        assert_eq!(dark.source, Source::File(dir.join("dark.toml")));
        assert_eq!(cat.theme("dark").unwrap().text, Rgb(0xab, 0xcd, 0xef));
        assert!(!cat.find("mine").unwrap().replaces_built_in);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_folder_gives_the_built_in_themes() {
        let dir = std::env::temp_dir().join("qchess-themes-surely-missing-folder");
        assert_eq!(
            Catalogue::with_user_dir(&dir).unwrap(),
            Catalogue::built_in()
        );
    }

    #[test]
    fn bad_themes_name_file_line_and_key() {
        let dir = scratch("bad");
        let path = dir.join("broken.toml");
        std::fs::write(&path, "# mine\ncursor = \"#123456\"\ntarget = \"yellow\"\n").unwrap();
        std::fs::write(dir.join("typo.toml"), "cursr = \"#123456\"\n").unwrap();
        let cat = Catalogue::with_user_dir(&dir).unwrap();
        let e = cat.theme("broken").unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "{}, line 3, key `target`: \"yellow\" is not a colour: write it as \"#rrggbb\" \
                 (three hex pairs)",
                path.display()
            )
        );
        let e = cat.theme("typo").unwrap_err().to_string();
        assert!(e.contains("line 1, key `cursr`: unknown key"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn unknown_names_list_the_choices() {
        let e = Catalogue::built_in().theme("solarized").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown theme \"solarized\" (available: classic, dark, high-contrast, mono)"
        );
    }

    /// The themes as the files say, and as the 256-colour palette shows them.
    fn built_in_variants() -> Vec<(String, Theme)> {
        let mut v = Vec::new();
        for (name, text) in BUILT_IN {
            let t: Theme = toml::from_str(text).unwrap();
            let mapped: String = t
                .entries()
                .iter()
                .map(|(key, rgb)| {
                    let shown = ansi256_rgb(crate::style::color::to_ansi256(*rgb));
                    format!("{key} = \"{shown}\"\n")
                })
                .collect();
            v.push((
                format!("{name} in 256 colours"),
                toml::from_str(&mapped).unwrap(),
            ));
            v.push((name.to_string(), t));
        }
        v
    }

    /// The RGB value of an entry of the xterm 256-colour palette (cube or grey ramp).
    fn ansi256_rgb(i: u8) -> Rgb {
        const CUBE: [u8; 6] = [0, 95, 135, 175, 215, 255];
        match i {
            16..=231 => {
                let i = i - 16;
                Rgb(
                    CUBE[(i / 36) as usize],
                    CUBE[(i / 6 % 6) as usize],
                    CUBE[(i % 6) as usize],
                )
            }
            232..=255 => {
                let g = 8 + 10 * (i - 232);
                Rgb(g, g, g)
            }
            _ => panic!("the mapping gives cube and grey entries only, not {i}"),
        }
    }

    #[test]
    fn pieces_and_percentages_stand_out_in_every_built_in_theme() {
        for (name, t) in built_in_variants() {
            for (sq, bg) in [
                ("light_square", t.light_square),
                ("dark_square", t.dark_square),
            ] {
                for (piece, fg) in [
                    ("white_piece", t.white_piece),
                    ("black_piece", t.black_piece),
                    ("white_quantum", t.white_quantum),
                    ("black_quantum", t.black_quantum),
                ] {
                    let c = fg.contrast(bg);
                    assert!(c >= 3.0, "{name}: {piece} on {sq} is {c:.2}:1, under 3:1");
                }
            }
            // Percentages are drawn in `ink_on` the square's colour, marks included.
            for (sq, bg) in [
                ("light_square", t.light_square),
                ("dark_square", t.dark_square),
                ("cursor", t.cursor),
                ("selected", t.selected),
                ("target", t.target),
                ("last_move", t.last_move),
            ] {
                let c = t.ink_on(bg).contrast(bg);
                assert!(
                    c >= 4.5,
                    "{name}: percentages on {sq} are {c:.2}:1, under 4.5:1"
                );
            }
        }
    }
}
