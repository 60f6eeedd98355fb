//! Running the qchess binary in a test: its exit code, stdout and stderr.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `qchess` with `args`; (exit code, stdout, stderr), -1 for a kill by a signal.
pub fn qchess(args: &[&str]) -> (i32, String, String) {
    ended(
        Command::new(env!("CARGO_BIN_EXE_qchess"))
            .args(args)
            .output(),
    )
}

/// Runs `qchess` with `args`, its configuration directory `config` and its data
/// directory `data` (colour left to the terminal: there is none).
pub fn qchess_in(config: &Path, data: &Path, args: &[&str]) -> (i32, String, String) {
    ended(
        Command::new(env!("CARGO_BIN_EXE_qchess"))
            .args(args)
            .env("QCHESS_CONFIG_DIR", config)
            .env("QCHESS_DATA_DIR", data)
            .env_remove("NO_COLOR")
            .output(),
    )
}

/// A finished run as (exit code, stdout, stderr).
fn ended(out: std::io::Result<Output>) -> (i32, String, String) {
    let out = out.expect("qchess runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// An empty scratch folder unique to this test process and `name`.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qchess-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `qchess analyze` with `args`.
pub fn analyze(args: &[&str]) -> (i32, String, String) {
    qchess(&[&["analyze"], args].concat())
}
