//! The configuration file `config.toml`: its keys and defaults, reading it, and the
//! commented default that `qchess config init` writes.

use super::ConfigError;
use crate::files::FileError;
use crate::quantum::{
    BackendKind, SimulatorSettings, DEFAULT_DENSE_LIMIT_LOG2, DEFAULT_SPARSE_LIMIT,
    MAX_DENSE_LIMIT_LOG2,
};
use crate::style::color::ColorChoice;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use std::fmt;
use std::path::Path;
use std::str::FromStr;

/// How pieces are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Pieces {
    /// Chess glyphs.
    #[default]
    Unicode,
    /// Letters (K Q R B N P, lower case for black).
    Ascii,
}

/// A `pieces` value that is neither `unicode` nor `ascii`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown piece style {0:?} (choose unicode or ascii)")]
pub struct BadPieces(String);

impl FromStr for Pieces {
    type Err = BadPieces;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "unicode" => Ok(Pieces::Unicode),
            "ascii" => Ok(Pieces::Ascii),
            _ => Err(BadPieces(s.to_string())),
        }
    }
}

impl fmt::Display for Pieces {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Pieces::Unicode => "unicode",
            Pieces::Ascii => "ascii",
        })
    }
}

/// How the history writes ordinary chess moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Notation {
    /// Standard algebraic notation: `Nf3`, `exd5`, `O-O`.
    #[default]
    San,
    /// The squares, as Quantum Chess notation writes every move: `g1f3`, `e4xd5`, `e1g1`.
    Coordinates,
}

/// A `notation` value that is neither `san` nor `coordinates`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown notation {0:?} (choose san or coordinates)")]
pub struct BadNotation(String);

impl FromStr for Notation {
    type Err = BadNotation;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "san" => Ok(Notation::San),
            "coordinates" => Ok(Notation::Coordinates),
            _ => Err(BadNotation(s.to_string())),
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Notation::San => "san",
            Notation::Coordinates => "coordinates",
        })
    }
}

/// The smallest dense size limit accepted (log2 of the number of amplitudes).
pub const MIN_DENSE_LIMIT_LOG2: u32 = 1;

/// A dense size limit outside [`MIN_DENSE_LIMIT_LOG2`]..=[`MAX_DENSE_LIMIT_LOG2`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("dense limit {0} is out of range: choose {MIN_DENSE_LIMIT_LOG2} to {MAX_DENSE_LIMIT_LOG2} (log2 of the number of amplitudes)")]
pub struct BadDenseLimit(pub i64);

/// `n` when it is an acceptable dense size limit.
pub fn check_dense_limit(n: i64) -> Result<u32, BadDenseLimit> {
    u32::try_from(n)
        .ok()
        .filter(|v| (MIN_DENSE_LIMIT_LOG2..=MAX_DENSE_LIMIT_LOG2).contains(v))
        .ok_or(BadDenseLimit(n))
}

/// The smallest sparse size limit accepted, in branches.
pub const MIN_SPARSE_LIMIT: usize = 1;

/// The largest sparse size limit accepted, in branches (2^40: far beyond any memory).
pub const MAX_SPARSE_LIMIT: usize = 1 << 40;

/// A sparse size limit outside [`MIN_SPARSE_LIMIT`]..=[`MAX_SPARSE_LIMIT`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "sparse limit {0} is out of range: choose {MIN_SPARSE_LIMIT} to {MAX_SPARSE_LIMIT} (branches)"
)]
pub struct BadSparseLimit(pub i64);

/// `n` when it is an acceptable sparse size limit.
pub fn check_sparse_limit(n: i64) -> Result<usize, BadSparseLimit> {
    usize::try_from(n)
        .ok()
        .filter(|v| (MIN_SPARSE_LIMIT..=MAX_SPARSE_LIMIT).contains(v))
        .ok_or(BadSparseLimit(n))
}

/// The settings of `config.toml`. A missing file or key means the default.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(from = "Keys")]
pub struct Config {
    /// The simulator's backend and its size limits (keys `backend`, `dense_limit_log2`
    /// and `sparse_limit`).
    pub simulator: SimulatorSettings,
    /// Name of the colour theme (built-in or a file in the themes folder).
    pub theme: String,
    /// How pieces are drawn.
    pub pieces: Pieces,
    /// How the history writes ordinary chess moves.
    pub notation: Notation,
    /// Colour tier, or detection.
    pub color: ColorChoice,
    /// Save the game in progress as it goes.
    pub autosave: bool,
    /// Capture the mouse in the game (off: the terminal's own text selection works).
    pub mouse: bool,
    /// The computer's level (1..5) in `play --engine` and for hints.
    pub engine_level: u8,
    /// An external UQCI engine's command line for `play --engine`; empty: qchess's own.
    pub engine_cmd: String,
    /// Ask before a move that leaves the player's safe king capturable (50% or more).
    pub ask_king_danger: bool,
}

/// The keys of `config.toml` as the file writes them.
#[derive(Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Keys {
    #[serde(deserialize_with = "parsed")]
    backend: BackendKind,
    theme: String,
    #[serde(deserialize_with = "parsed")]
    pieces: Pieces,
    #[serde(deserialize_with = "parsed")]
    notation: Notation,
    #[serde(deserialize_with = "parsed")]
    color: ColorChoice,
    autosave: bool,
    #[serde(deserialize_with = "dense_limit")]
    dense_limit_log2: u32,
    #[serde(deserialize_with = "sparse_limit")]
    sparse_limit: usize,
    mouse: bool,
    #[serde(deserialize_with = "engine_level")]
    engine_level: u8,
    engine_cmd: String,
    ask_king_danger: bool,
}

impl From<Keys> for Config {
    fn from(k: Keys) -> Config {
        Config {
            simulator: SimulatorSettings {
                backend: k.backend,
                dense_limit_log2: k.dense_limit_log2,
                sparse_limit: k.sparse_limit,
            },
            theme: k.theme,
            pieces: k.pieces,
            notation: k.notation,
            color: k.color,
            autosave: k.autosave,
            mouse: k.mouse,
            engine_level: k.engine_level,
            engine_cmd: k.engine_cmd,
            ask_king_danger: k.ask_king_danger,
        }
    }
}

/// The theme used when none is chosen.
pub const DEFAULT_THEME: &str = "classic";

impl Default for Keys {
    fn default() -> Self {
        Keys {
            backend: BackendKind::default(),
            theme: DEFAULT_THEME.to_string(),
            pieces: Pieces::default(),
            notation: Notation::default(),
            color: ColorChoice::default(),
            autosave: true,
            dense_limit_log2: DEFAULT_DENSE_LIMIT_LOG2,
            sparse_limit: DEFAULT_SPARSE_LIMIT,
            mouse: true,
            engine_level: crate::engine::level::DEFAULT_LEVEL,
            engine_cmd: String::new(),
            ask_king_danger: true,
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Keys::default().into()
    }
}

/// A value read as a string and parsed with its `FromStr`, so the file accepts exactly
/// the words of the command line.
fn parsed<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
    T::Err: fmt::Display,
{
    String::deserialize(d)?.parse().map_err(D::Error::custom)
}

fn dense_limit<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    match toml::Value::deserialize(d)? {
        toml::Value::Integer(n) => check_dense_limit(n).map_err(D::Error::custom),
        other => Err(D::Error::custom(format!(
            "expected a whole number from {MIN_DENSE_LIMIT_LOG2} to {MAX_DENSE_LIMIT_LOG2}, found {other}"
        ))),
    }
}

fn sparse_limit<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    match toml::Value::deserialize(d)? {
        toml::Value::Integer(n) => check_sparse_limit(n).map_err(D::Error::custom),
        other => Err(D::Error::custom(format!(
            "expected a whole number from {MIN_SPARSE_LIMIT} to {MAX_SPARSE_LIMIT}, found {other}"
        ))),
    }
}

fn engine_level<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
    match toml::Value::deserialize(d)? {
        toml::Value::Integer(n) => crate::engine::level::check(n).map_err(D::Error::custom),
        other => Err(D::Error::custom(format!(
            "expected a level from 1 (weakest) to 5 (strongest), found {other}"
        ))),
    }
}

impl Config {
    /// The configuration written in `text`, the contents of `path` (named in errors).
    pub fn parse(path: &Path, text: &str) -> Result<Config, FileError> {
        toml::from_str(text).map_err(|e| FileError::from_toml(path, text, &e))
    }

    /// The configuration in the file at `path`, with its text; the defaults and an empty
    /// text when there is no such file.
    pub fn load(path: &Path) -> Result<(Config, String), ConfigError> {
        match crate::files::read_text(path) {
            Ok(text) => Ok((Config::parse(path, &text)?, text)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                Ok((Config::default(), String::new()))
            }
            Err(e) => Err(ConfigError::Read {
                path: path.to_path_buf(),
                source: e,
            }),
        }
    }

    /// The file `qchess config init` writes: every key at its default, each explained.
    pub fn default_text() -> String {
        let d = Config::default();
        format!(
            "# qchess configuration. Flags on the command line override these settings;\n\
             # a key left out takes its default (the value shown here).\n\
             \n\
             # Simulator backend: \"sparse\" or \"dense\".\n\
             backend = \"{backend}\"\n\
             \n\
             # Colour theme: a built-in one (classic, dark, high-contrast, mono) or NAME for a\n\
             # file themes/NAME.toml next to this one. `qchess themes` lists them all.\n\
             theme = \"{theme}\"\n\
             \n\
             # Pieces: \"unicode\" (chess glyphs) or \"ascii\" (letters).\n\
             pieces = \"{pieces}\"\n\
             \n\
             # Ordinary chess moves in the history: \"san\" (Nf3, exd5, O-O) or\n\
             # \"coordinates\" (g1f3, e4xd5, e1g1). Quantum moves are always written in\n\
             # Quantum Chess notation (b1^a3c3, a3c3^b5, c3xd5.m1).\n\
             notation = \"{notation}\"\n\
             \n\
             # Colours: \"auto\" (from NO_COLOR, COLORTERM and TERM), \"truecolor\", \"256\",\n\
             # \"16\" or \"none\".\n\
             color = \"{color}\"\n\
             \n\
             # Save the game in progress after every move, to resume it later.\n\
             autosave = {autosave}\n\
             \n\
             # Largest state the dense backend may build, as log2 of the number of\n\
             # amplitudes ({MIN_DENSE_LIMIT_LOG2} to {MAX_DENSE_LIMIT_LOG2}; each amplitude takes 16 bytes). It\n\
             # bounds each factor of the state; all factors together may take twice that.\n\
             dense_limit_log2 = {limit}\n\
             \n\
             # Largest state the sparse backend may build, in branches ({MIN_SPARSE_LIMIT} to\n\
             # {MAX_SPARSE_LIMIT}; each takes about 100 bytes, twice that while a move is\n\
             # played). It bounds each factor; all factors together may take twice that.\n\
             sparse_limit = {sparse}\n\
             \n\
             # Mouse in the game: clicks pick pieces and targets, the wheel scrolls. false\n\
             # leaves the mouse to the terminal, so its text selection works without Shift.\n\
             mouse = {mouse}\n\
             \n\
             # The computer's level, 1 (weakest) to 5 (strongest), in `qchess play --engine`\n\
             # and for hints (H).\n\
             engine_level = {level}\n\
             \n\
             # An external UQCI engine for `qchess play --engine`, as a command line (e.g.\n\
             # \"/usr/local/bin/myengine --uqci\"); empty for qchess's own engine. A saved game's\n\
             # side played by this command (\"uqci: ...\") goes back to it on resume.\n\
             engine_cmd = {cmd:?}\n\
             \n\
             # Ask before a move that leaves your king, safe until then, capturable on the\n\
             # reply with a chance of 50% or more (y plays it, any other key cancels it).\n\
             ask_king_danger = {ask}\n",
            backend = d.simulator.backend,
            theme = d.theme,
            pieces = d.pieces,
            notation = d.notation,
            color = d.color,
            autosave = d.autosave,
            limit = d.simulator.dense_limit_log2,
            sparse = d.simulator.sparse_limit,
            mouse = d.mouse,
            level = d.engine_level,
            cmd = d.engine_cmd,
            ask = d.ask_king_danger,
        )
    }

    /// Writes [`Config::default_text`] to `path` (creating its folder); an existing file
    /// is only replaced when `force` is set.
    pub fn write_default(path: &Path, force: bool) -> Result<(), ConfigError> {
        if path.exists() && !force {
            return Err(ConfigError::Exists(path.to_path_buf()));
        }
        let write = || {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            std::fs::write(path, Config::default_text())
        };
        write().map_err(|e| ConfigError::Write {
            path: path.to_path_buf(),
            source: e,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::style::color::Tier;

    fn parse(text: &str) -> Result<Config, FileError> {
        Config::parse(Path::new("/home/p/.config/qchess/config.toml"), text)
    }

    #[test]
    fn empty_file_is_the_defaults() {
        assert_eq!(parse("").unwrap(), Config::default());
        assert_eq!(parse("# nothing\n").unwrap(), Config::default());
    }

    #[test]
    fn default_text_reads_back_as_the_defaults() {
        let text = Config::default_text();
        assert_eq!(parse(&text).unwrap(), Config::default());
        // Every key is present (not just inherited from the defaults).
        let table: toml::Table = toml::from_str(&text).unwrap();
        assert_eq!(table.len(), 12, "{table:?}");
    }

    #[test]
    fn every_key_is_read() {
        let c = parse(
            "backend = \"dense\"\ntheme = \"mono\"\npieces = \"ascii\"\ncolor = \"16\"\n\
             notation = \"coordinates\"\n\
             autosave = false\ndense_limit_log2 = 20\nsparse_limit = 1000\nmouse = false\n\
             engine_level = 5\nengine_cmd = \"my-engine --uqci\"\nask_king_danger = false\n",
        )
        .unwrap();
        assert_eq!(
            c,
            Config {
                simulator: SimulatorSettings {
                    backend: BackendKind::Dense,
                    dense_limit_log2: 20,
                    sparse_limit: 1000,
                },
                theme: "mono".into(),
                pieces: Pieces::Ascii,
                notation: Notation::Coordinates,
                color: ColorChoice::Fixed(Tier::Ansi16),
                autosave: false,
                mouse: false,
                engine_level: 5,
                engine_cmd: "my-engine --uqci".into(),
                ask_king_danger: false,
            }
        );
    }

    #[test]
    fn errors_name_file_line_and_key() {
        let cases = [
            (
                "backend = \"sparse\"\nbakend = \"dense\"\n",
                2,
                "bakend",
                "unknown key",
            ),
            (
                "\n\nbackend = \"qubits\"\n",
                3,
                "backend",
                "unknown backend",
            ),
            ("pieces = \"emoji\"\n", 1, "pieces", "unknown piece style"),
            ("notation = \"lan\"\n", 1, "notation", "unknown notation"),
            ("color = \"purple\"\n", 1, "color", "unknown colour mode"),
            ("autosave = \"yes\"\n", 1, "autosave", "expected a boolean"),
            (
                "dense_limit_log2 = 0\n",
                1,
                "dense_limit_log2",
                "out of range",
            ),
            (
                "dense_limit_log2 = 99\n",
                1,
                "dense_limit_log2",
                "out of range",
            ),
            (
                "dense_limit_log2 = -1\n",
                1,
                "dense_limit_log2",
                "out of range",
            ),
            (
                "dense_limit_log2 = 2.5\n",
                1,
                "dense_limit_log2",
                "expected a whole number from 1 to",
            ),
            ("sparse_limit = 0\n", 1, "sparse_limit", "out of range"),
            (
                "sparse_limit = \"lots\"\n",
                1,
                "sparse_limit",
                "expected a whole number from 1 to",
            ),
            ("theme = 3\n", 1, "theme", "expected a string"),
            ("mouse = \"no\"\n", 1, "mouse", "expected a boolean"),
            ("engine_cmd = 3\n", 1, "engine_cmd", "expected a string"),
            (
                "engine_level = 9\n",
                1,
                "engine_level",
                "level 9 does not exist: levels go from 1 (weakest) to 5 (strongest)",
            ),
            ("[ui]\ntheme = \"dark\"\n", 1, "ui", "unknown key"),
        ];
        for (text, line, key, needle) in cases {
            let e = parse(text).unwrap_err();
            assert_eq!(e.line, Some(line), "{text}: {e}");
            assert_eq!(e.key.as_deref(), Some(key), "{text}: {e}");
            let shown = e.to_string();
            assert!(shown.contains(needle), "{shown}");
            assert!(shown.starts_with("/home/p/.config/qchess/config.toml, line "));
        }
    }

    #[test]
    fn dense_limit_range() {
        assert_eq!(check_dense_limit(1), Ok(1));
        assert_eq!(
            check_dense_limit(MAX_DENSE_LIMIT_LOG2 as i64),
            Ok(MAX_DENSE_LIMIT_LOG2)
        );
        assert!(check_dense_limit(0).is_err());
        assert!(check_dense_limit(MAX_DENSE_LIMIT_LOG2 as i64 + 1).is_err());
        assert!(check_dense_limit(1 << 40).is_err());
    }

    #[test]
    fn sparse_limit_range() {
        assert_eq!(check_sparse_limit(1), Ok(1));
        assert_eq!(
            check_sparse_limit(MAX_SPARSE_LIMIT as i64),
            Ok(MAX_SPARSE_LIMIT)
        );
        assert!(check_sparse_limit(0).is_err());
        assert!(check_sparse_limit(-5).is_err());
        assert!(check_sparse_limit(MAX_SPARSE_LIMIT as i64 + 1).is_err());
    }

    #[test]
    fn pieces_words() {
        assert_eq!("ASCII".parse(), Ok(Pieces::Ascii));
        assert_eq!(Pieces::Unicode.to_string(), "unicode");
        assert!("emoji".parse::<Pieces>().is_err());
    }
}
