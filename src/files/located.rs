//! Errors in a TOML file (configuration or theme) that name the file, the line and the
//! key, in one line a player can act on.

use std::fmt;
use std::path::{Path, PathBuf};

/// A problem at one place of a TOML file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    /// The file.
    pub path: PathBuf,
    /// The line, counted from 1; `None` when the problem has no place (an empty file).
    pub line: Option<usize>,
    /// The key on that line, when there is one.
    pub key: Option<String>,
    /// What is wrong, on one line.
    pub message: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if self.line.is_some() || self.key.is_some() {
            write!(f, ", ")?;
        } else {
            write!(f, ": ")?;
        }
        write!(f, "{}", self.place_and_message())
    }
}

impl FileError {
    /// The error without the file: `line 3, key `colour`: unknown key ...`.
    pub fn place_and_message(&self) -> String {
        let mut place = Vec::new();
        if let Some(line) = self.line {
            place.push(format!("line {line}"));
        }
        if let Some(key) = &self.key {
            place.push(format!("key `{key}`"));
        }
        if place.is_empty() {
            self.message.clone()
        } else {
            format!("{}: {}", place.join(", "), self.message)
        }
    }
}

impl std::error::Error for FileError {}

impl FileError {
    /// The error `err` that reading `text` (the contents of `path`) gave.
    pub fn from_toml(path: &Path, text: &str, err: &toml::de::Error) -> FileError {
        let message = err
            .message()
            .replacen("unknown field", "unknown key", 1)
            .replace('\n', "; ");
        let (line, key) = match err.span() {
            Some(span) => {
                let (n, line) = line_at(text, span.start);
                (Some(n), key_of(line))
            }
            None => (None, None),
        };
        FileError {
            path: path.to_path_buf(),
            line,
            key,
            message,
        }
    }

    /// A problem with the value of the top-level `key` in `text` (the contents of
    /// `path`), found after the file was read.
    pub fn at_key(path: &Path, text: &str, key: &str, message: String) -> FileError {
        let line = text
            .lines()
            .position(|l| key_of(l).as_deref() == Some(key))
            .map(|i| i + 1);
        FileError {
            path: path.to_path_buf(),
            line,
            key: Some(key.to_string()),
            message,
        }
    }
}

/// The 1-based number and the text of the line holding byte `offset`.
fn line_at(text: &str, offset: usize) -> (usize, &str) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    (text[..start].matches('\n').count() + 1, &text[start..end])
}

/// The key a line sets (`key = value`) or the table it opens (`[table]`), unquoted.
fn key_of(line: &str) -> Option<String> {
    let line = line.trim();
    let key = if let Some(header) = line.strip_prefix('[') {
        header.trim_start_matches('[').split(']').next()?
    } else if line.starts_with('#') {
        return None;
    } else {
        line.split_once('=')?.0
    };
    let key = key.trim().trim_matches(|c| c == '"' || c == '\'');
    (!key.is_empty()).then(|| key.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    struct Sample {
        flag: Option<bool>,
    }

    fn error(text: &str) -> FileError {
        let err = toml::from_str::<Sample>(text).unwrap_err();
        FileError::from_toml(Path::new("/x/sample.toml"), text, &err)
    }

    #[test]
    fn names_file_line_and_key() {
        let ok: Sample = toml::from_str("flag = true").unwrap();
        assert_eq!(ok.flag, Some(true));
        let e = error("# comment\n\nflag = \"yes\"\n");
        assert_eq!((e.line, e.key.as_deref()), (Some(3), Some("flag")));
        assert_eq!(
            e.to_string(),
            "/x/sample.toml, line 3, key `flag`: invalid type: string \"yes\", expected a boolean"
        );
        let e = error("flag = true\n  \"colour\" = 1\n");
        assert_eq!((e.line, e.key.as_deref()), (Some(2), Some("colour")));
        assert!(
            e.message.starts_with("unknown key `colour`"),
            "{}",
            e.message
        );
        let e = error("flag = true\n[[more]]\n");
        assert_eq!((e.line, e.key.as_deref()), (Some(2), Some("more")));
    }

    #[test]
    fn syntax_errors_stay_on_one_line() {
        let e = error("flag = \n");
        assert_eq!((e.line, e.key.as_deref()), (Some(1), Some("flag")));
        assert!(!e.to_string().contains('\n'), "{e}");
    }

    #[test]
    fn finds_the_line_of_a_key() {
        let text = "# theme = \"x\"\nflag = true\ntheme = \"nope\"\n";
        let e = FileError::at_key(Path::new("c.toml"), text, "theme", "bad".into());
        assert_eq!(e.line, Some(3));
        assert_eq!(e.to_string(), "c.toml, line 3, key `theme`: bad");
    }
}
