//! Reading the files a player names (saved games, `config.toml`, themes, Skat endgames,
//! OpenQASM programs): regular files only, and at most [`MAX_BYTES`], so that
//! `/dev/zero`, a FIFO or a huge file is refused at once instead of blocking or filling
//! the memory. Writing files whole or not at all ([`write_atomic`]). Errors that point
//! at a line and key of a file a player wrote ([`FileError`]).

pub mod located;

pub use located::FileError;

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The largest file qchess reads: 16 MiB, far more than any saved game, configuration,
/// theme, endgame or exported circuit it writes.
pub const MAX_BYTES: u64 = 16 * 1024 * 1024;

/// What kind of thing a path that is not a regular file names, in words.
fn kind_of(t: &fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

fn refused(kind: io::ErrorKind, message: String) -> io::Error {
    io::Error::new(kind, message)
}

/// Checks that `path` is a regular file of at most [`MAX_BYTES`] (following links);
/// a missing file keeps its `NotFound` error.
fn check(meta: &fs::Metadata) -> io::Result<()> {
    if !meta.is_file() {
        let what = kind_of(&meta.file_type());
        return Err(refused(
            io::ErrorKind::InvalidInput,
            format!("{what}, not a regular file: qchess reads only regular files"),
        ));
    }
    if meta.len() > MAX_BYTES {
        return Err(too_large());
    }
    Ok(())
}

fn too_large() -> io::Error {
    refused(
        io::ErrorKind::InvalidData,
        format!(
            "larger than {} MiB, the most qchess reads",
            MAX_BYTES / (1024 * 1024)
        ),
    )
}

/// The bytes of a regular file of at most [`MAX_BYTES`]. Anything else (a directory,
/// a FIFO, a device, a larger file) is an error that says what it is, and a FIFO is
/// never opened, so nothing blocks.
pub fn read_bytes(path: &Path) -> io::Result<Vec<u8>> {
    check(&fs::metadata(path)?)?;
    let file = File::open(path)?;
    // The path may have been replaced between the two looks; the open file decides.
    check(&file.metadata()?)?;
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(too_large());
    }
    Ok(bytes)
}

/// The text of a regular file of at most [`MAX_BYTES`] (see [`read_bytes`]); text that
/// is not UTF-8 is an error.
pub fn read_text(path: &Path) -> io::Result<String> {
    String::from_utf8(read_bytes(path)?).map_err(|e| {
        refused(
            io::ErrorKind::InvalidData,
            format!(
                "not UTF-8 text (byte {} is not part of a character)",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// The path with links and `..` resolved; for a file that does not exist yet, its folder
/// resolved and the name joined.
pub fn canonical(p: &Path) -> Option<PathBuf> {
    if let Ok(c) = p.canonicalize() {
        return Some(c);
    }
    let parent = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.canonicalize().ok()?,
        _ => std::env::current_dir().ok()?,
    };
    Some(parent.join(p.file_name()?))
}

/// Writes `contents` to `path` so that the file is either the old one or the new one,
/// never a mix: a temporary file beside it is written, flushed to disk and renamed over.
/// Missing parent folders are made.
pub fn write_atomic(path: &Path, contents: &str) -> io::Result<()> {
    if let Some(d) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(d)?;
    }
    replace_atomic(path, contents)
}

/// [`write_atomic`] into a folder that must exist already.
pub fn replace_atomic(path: &Path, contents: &str) -> io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
    let tmp_name = format!(".{}.tmp-{}", name.to_string_lossy(), std::process::id());
    let tmp = dir.map_or_else(|| PathBuf::from(&tmp_name), |d| d.join(&tmp_name));
    let written = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(contents.as_bytes())?;
        f.flush()?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("qchess-files-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn reads_a_regular_file() {
        let d = scratch("ok");
        let p = d.join("a.toml");
        fs::write(&p, "format = 1\n").unwrap();
        assert_eq!(read_text(&p).unwrap(), "format = 1\n");
        assert_eq!(
            read_text(&d.join("missing")).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
    }

    #[test]
    fn refuses_directories_large_files_and_bad_text() {
        let d = scratch("bad");
        assert!(read_text(&d)
            .unwrap_err()
            .to_string()
            .contains("a directory"));
        let big = d.join("big");
        let f = File::create(&big).unwrap();
        f.set_len(MAX_BYTES + 1).unwrap();
        assert!(read_text(&big).unwrap_err().to_string().contains("16 MiB"));
        let latin = d.join("latin1");
        fs::write(&latin, b"caf\xe9").unwrap();
        assert!(read_text(&latin).unwrap_err().to_string().contains("UTF-8"));
    }

    #[cfg(unix)]
    #[test]
    fn refuses_devices_without_reading_them() {
        let e = read_text(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(e.contains("a device"), "{e}");
    }
}
