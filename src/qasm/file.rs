//! Writing an export to a file without destroying anything: never over the saved game
//! it was made from, and never over a file that is not an earlier qchess export unless
//! the player says so (`--force`).

use crate::files::{canonical, replace_atomic};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The comment line every export carries right after its header; a file that has it was
/// written by qchess and may be replaced by a newer export.
pub const SIGNATURE: &str = "// A Quantum Chess game, exported by qchess.";

/// How far into a file the signature is looked for.
const HEAD_BYTES: u64 = 256;

/// Why an export was not written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The output is the file the game was read from.
    #[error("{} is the saved game being exported: write the circuit to another file", .0.display())]
    SameAsInput(PathBuf),
    /// The output exists and is not an earlier export.
    #[error("{} exists and is not an OpenQASM file written by qchess ({why}): not overwriting it (--force replaces it)", path.display())]
    WouldClobber {
        /// The file.
        path: PathBuf,
        /// What it is instead.
        why: String,
    },
    /// The file could not be written.
    #[error("cannot write the circuit to {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

/// Why the existing file at `path` may not be replaced; `None` when it may (it is an
/// earlier qchess export).
fn not_an_export(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() {
        return Some("it is not a regular file".into());
    }
    let mut head = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(HEAD_BYTES).read_to_end(&mut head));
    if let Err(e) = read {
        return Some(format!("it cannot be read: {e}"));
    }
    let head = String::from_utf8_lossy(&head);
    let ours = head.starts_with("OPENQASM 3") && head.lines().any(|l| l.trim_end() == SIGNATURE);
    (!ours).then(|| "no qchess export header".into())
}

/// Writes the export `text` to `out` (atomically: the old file or the new one, never a
/// mix), refusing `out` when it is `input` (the saved game exported, compared as
/// canonical paths), and refusing to replace a file that is not an earlier qchess export
/// unless `force`.
pub fn write(out: &Path, text: &str, input: Option<&Path>, force: bool) -> Result<(), WriteError> {
    if let Some(input) = input {
        if canonical(input).is_some_and(|i| Some(i) == canonical(out)) {
            return Err(WriteError::SameAsInput(out.to_path_buf()));
        }
    }
    if !force {
        if let Some(why) = not_an_export(out) {
            return Err(WriteError::WouldClobber {
                path: out.to_path_buf(),
                why,
            });
        }
    }
    let io = |source| WriteError::Io {
        path: out.to_path_buf(),
        source,
    };
    // A device or FIFO named with --force is written to, not replaced.
    match std::fs::metadata(out) {
        Ok(m) if !m.is_file() => std::fs::write(out, text).map_err(io),
        _ => replace_atomic(out, text).map_err(io),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn scratch(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("qchess-qasm-file-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    const EXPORT: &str = "OPENQASM 3.0;\ninclude \"stdgates.inc\";\n\n// A Quantum Chess game, exported by qchess.\n";

    #[test]
    fn never_over_the_input_or_a_foreign_file() {
        let d = scratch("refuse");
        let game = d.join("g.toml");
        fs::write(&game, "format = 1\nmoves = []\n").unwrap();
        // The same file, however it is named.
        let same = d.join(".").join("g.toml");
        let e = write(&same, EXPORT, Some(&game), true).unwrap_err();
        assert!(matches!(e, WriteError::SameAsInput(_)), "{e}");
        // Another file that is not an export: refused, kept; --force replaces it.
        let notes = d.join("notes.txt");
        fs::write(&notes, "precious").unwrap();
        let e = write(&notes, EXPORT, Some(&game), false).unwrap_err();
        assert!(
            e.to_string()
                .contains("not an OpenQASM file written by qchess"),
            "{e}"
        );
        assert_eq!(fs::read_to_string(&notes).unwrap(), "precious");
        write(&notes, EXPORT, Some(&game), true).unwrap();
        assert_eq!(fs::read_to_string(&notes).unwrap(), EXPORT);
        // An earlier export is replaced; a new file is written.
        write(&notes, &format!("{EXPORT}x q[0];\n"), Some(&game), false).unwrap();
        write(&d.join("new.qasm"), EXPORT, None, false).unwrap();
        assert_eq!(
            fs::read_to_string(&game).unwrap(),
            "format = 1\nmoves = []\n"
        );
    }
}
