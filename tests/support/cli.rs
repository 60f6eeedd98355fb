//! Running the qchess binary in a test: its exit code, stdout and stderr.

use std::process::Command;

/// Runs `qchess` with `args`; (exit code, stdout, stderr), -1 for a kill by a signal.
pub fn qchess(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_qchess"))
        .args(args)
        .output()
        .expect("qchess runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `qchess analyze` with `args`.
pub fn analyze(args: &[&str]) -> (i32, String, String) {
    qchess(&[&["analyze"], args].concat())
}
