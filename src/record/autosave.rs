//! Autosave files: a unique name per game, the advisory lock a running game holds on its
//! file, and the search for the newest game that can be resumed.
//!
//! Decisions on the details:
//! * A name is the game's start time plus six random hex digits
//!   (`game-20261121-115045-3fa9c2.toml`), and a name whose file or lock exists is never
//!   taken, so two games started in the same second never share a file.
//! * The lock is an advisory lock (`File::try_lock`) on a hidden file beside the autosave
//!   (`.game-….toml.lock`, holding the process id), because the autosave itself is
//!   replaced by a rename on every write. The system drops the lock when the process
//!   ends, however it ends; a lock file left behind by a killed game is not locked and
//!   does not count.
//! * The lock file goes when the game ends: dropped with the lock (quit, errors, panics,
//!   signals the event loop sees), or by [`remove_held_lock_files`] on the way out when
//!   nothing is dropped (the signal watchdog's exit). One left behind all the same (a
//!   `kill -9`, a crash of the machine) is not locked; the search for a game to resume
//!   removes such stale lock files.
//! * `qchess resume` refuses a locked file: it is passed over with the reason, as are
//!   unreadable and finished games, and the newest one left is resumed. Opening a copy
//!   instead would fork the game into two files that both claim to be it.

use super::{load, RecordError, SavedGame};
use std::fmt;
use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

/// The lock files this process holds, for [`remove_held_lock_files`].
static HELD: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes the lock files of every autosave lock this process holds, for a way out on
/// which nothing is dropped (`std::process::exit`); the locks themselves go with the
/// process.
pub fn remove_held_lock_files() {
    let held = HELD.lock().unwrap_or_else(PoisonError::into_inner);
    for path in held.iter() {
        let _ = fs::remove_file(path);
    }
}

/// Whether `name` is an autosave's lock file name (`.game-….toml.lock`); the autosave's
/// name when it is.
fn locked_name(name: &str) -> Option<&str> {
    name.strip_prefix('.')?
        .strip_suffix(".lock")
        .filter(|n| n.starts_with("game-") && n.ends_with(".toml"))
}

/// Removes the lock files in the autosave folder of `data_dir` that no running game
/// holds (left behind by a game that was killed); returns how many.
pub fn clear_stale_locks(data_dir: &Path) -> usize {
    let dir = autosave_dir(data_dir);
    let Ok(entries) = fs::read_dir(&dir) else {
        return 0;
    };
    let mut cleared = 0;
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some(autosave) = name.to_str().and_then(locked_name) else {
            continue;
        };
        // Taken and given back at once: dropping the lock removes its file.
        if let Ok(lock) = AutosaveLock::acquire(&dir.join(autosave)) {
            drop(lock);
            cleared += 1;
        }
    }
    cleared
}

/// The folder autosaves go to, inside the data directory.
pub fn autosave_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("autosave")
}

/// The autosave file named `stamp` ([`super::file_stamp`]) and `suffix`.
pub fn autosave_path(data_dir: &Path, stamp: &str, suffix: &str) -> PathBuf {
    autosave_dir(data_dir).join(format!("game-{stamp}-{suffix}.toml"))
}

/// The lock file of an autosave file: hidden, beside it.
fn lock_path(autosave: &Path) -> PathBuf {
    let name = autosave
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    autosave.with_file_name(format!(".{name}.lock"))
}

/// An autosave file is being written by another running game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{} is in use by another running qchess{}", path.display(), pid.map_or(String::new(), |p| format!(" (process {p})")))]
pub struct InUse {
    /// The autosave file.
    pub path: PathBuf,
    /// The process holding it, when its lock file says.
    pub pid: Option<u32>,
}

/// The advisory lock a running game holds on its autosave file, from the moment the
/// file is chosen until the game ends (dropping it unlocks and removes the lock file).
#[derive(Debug)]
pub struct AutosaveLock {
    file: File,
    path: PathBuf,
}

/// Why a lock could not be taken.
#[derive(Debug)]
pub enum LockError {
    /// Another game holds it.
    InUse(InUse),
    /// The lock file could not be made.
    Io(io::Error),
}

impl AutosaveLock {
    /// Locks `autosave` for this process, or says who holds it.
    pub fn acquire(autosave: &Path) -> Result<AutosaveLock, LockError> {
        let path = lock_path(autosave);
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir).map_err(LockError::Io)?;
        }
        // A holder that ends removes the file after we opened it: then our lock would be
        // on a file nobody else sees, so it is taken again on the new one.
        for _ in 0..8 {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(LockError::Io)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    let mut text = String::new();
                    let pid = file
                        .read_to_string(&mut text)
                        .ok()
                        .and_then(|_| text.trim().parse().ok());
                    return Err(LockError::InUse(InUse {
                        path: autosave.to_path_buf(),
                        pid,
                    }));
                }
                Err(TryLockError::Error(e)) => return Err(LockError::Io(e)),
            }
            if !same_file(&file, &path) {
                continue;
            }
            file.set_len(0).map_err(LockError::Io)?;
            write!(file, "{}", std::process::id()).map_err(LockError::Io)?;
            HELD.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(path.clone());
            return Ok(AutosaveLock { file, path });
        }
        Err(LockError::Io(io::Error::other(
            "the lock file keeps changing under us",
        )))
    }

    /// Whether another running game holds the lock of `autosave` (the lock is taken
    /// and given back at once when it is free).
    pub fn held_elsewhere(autosave: &Path) -> Option<InUse> {
        match AutosaveLock::acquire(autosave) {
            Err(LockError::InUse(e)) => Some(e),
            _ => None,
        }
    }
}

impl Drop for AutosaveLock {
    fn drop(&mut self) {
        // Removed while still locked, so nobody can take a lock on it in between.
        let _ = fs::remove_file(&self.path);
        let _ = self.file.unlock();
        let mut held = HELD.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(i) = held.iter().position(|p| *p == self.path) {
            held.swap_remove(i);
        }
    }
}

#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_: &File, path: &Path) -> bool {
    path.exists()
}

/// The autosave files of a data directory, newest first (by modification time, then
/// by name).
pub fn autosaves_newest_first(data_dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(autosave_dir(data_dir)) else {
        return Vec::new();
    };
    let mut found: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "toml")
                && !p
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .map(|p| (fs::metadata(&p).and_then(|m| m.modified()).ok(), p))
        .collect();
    found.sort_by(|a, b| b.cmp(a));
    found.into_iter().map(|(_, p)| p).collect()
}

/// The most recently written autosave, if any.
pub fn latest_autosave(data_dir: &Path) -> Option<PathBuf> {
    autosaves_newest_first(data_dir).into_iter().next()
}

/// Why an autosave was passed over when looking for a game to resume.
#[derive(Debug)]
pub enum SkipReason {
    /// It could not be read or checked.
    Unreadable(RecordError),
    /// Another running game writes it.
    InUse(InUse),
    /// Its game is over (the recorded result).
    Finished(&'static str),
}

/// An autosave passed over, and why.
#[derive(Debug)]
pub struct Skipped {
    /// The file.
    pub path: PathBuf,
    /// Why.
    pub reason: SkipReason,
}

impl Skipped {
    /// The file's name and why in a word or two: `game-….toml (unreadable)`, `(in use)`,
    /// `(finished)`.
    pub fn brief(&self) -> String {
        let why = match self.reason {
            SkipReason::Unreadable(_) => "unreadable",
            SkipReason::InUse(_) => "in use",
            SkipReason::Finished(_) => "finished",
        };
        format!("{} ({why})", file_name(&self.path))
    }
}

/// The last part of `path`, or all of it.
fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = file_name(&self.path);
        match &self.reason {
            SkipReason::Unreadable(e) => {
                // The error names the file itself; say it once.
                let why = e.to_string();
                let prefix = format!("{}: ", self.path.display());
                write!(
                    f,
                    "{name} (unreadable: {})",
                    why.strip_prefix(&prefix).unwrap_or(&why)
                )
            }
            SkipReason::InUse(e) => match e.pid {
                Some(p) => write!(f, "{name} (in use by qchess process {p})"),
                None => write!(f, "{name} (in use by another qchess)"),
            },
            SkipReason::Finished(result) => write!(f, "{name} (finished: {result})"),
        }
    }
}

/// What a search for a game to resume found.
#[derive(Debug, Default)]
pub struct ResumeSearch {
    /// The newest autosave that is readable, not held by a running game and not
    /// finished, with its game; `None` when there is none.
    pub found: Option<(PathBuf, SavedGame)>,
    /// The newer autosaves passed over on the way, newest first, with why.
    pub skipped: Vec<Skipped>,
}

impl ResumeSearch {
    /// The skipped files in one line: `game-a.toml (unreadable: …), game-b.toml (…)`,
    /// the first three and how many more.
    pub fn skipped_line(&self) -> String {
        let mut parts: Vec<String> = self.skipped.iter().take(3).map(|s| s.to_string()).collect();
        if self.skipped.len() > 3 {
            parts.push(format!("{} more", self.skipped.len() - 3));
        }
        parts.join(", ")
    }

    /// The skipped files for a message line at 80 columns: the newest in brief, and how
    /// many more (`game-….toml (unreadable) and 2 more`); empty when none was.
    pub fn skipped_brief(&self) -> String {
        match self.skipped.split_first() {
            None => String::new(),
            Some((first, [])) => first.brief(),
            Some((first, rest)) => format!("{} and {} more", first.brief(), rest.len()),
        }
    }
}

/// The newest autosave of `data_dir` a game can be resumed from: readable, not locked by
/// a running game, not finished; and the newer ones passed over, with why. Stale lock
/// files are cleared first ([`clear_stale_locks`]). The lock is
/// only looked at, not kept: [`super::Recorder::resuming`] takes it.
pub fn newest_resumable(data_dir: &Path) -> ResumeSearch {
    clear_stale_locks(data_dir);
    let mut search = ResumeSearch::default();
    for path in autosaves_newest_first(data_dir) {
        let reason = if let Some(e) = AutosaveLock::held_elsewhere(&path) {
            SkipReason::InUse(e)
        } else {
            match load(&path) {
                Err(e) => SkipReason::Unreadable(e),
                Ok(saved) if saved.finished() => SkipReason::Finished(saved.result.name()),
                Ok(saved) => {
                    search.found = Some((path, saved));
                    return search;
                }
            }
        };
        search.skipped.push(Skipped { path, reason });
    }
    search
}
