//! Scripted fake UQCI engines for the front end's tests: shell scripts that do the
//! handshake (or not) and answer `go` as told, so each way an engine can misbehave is
//! one line of shell.

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

/// A handshake that works: a name, then `uciok`.
pub const HANDSHAKE_OK: &str = "echo 'id name fake'; echo uciok";

/// A fake engine: a shell script answering `uci` with `on_uci` and `go` with `on_go`
/// (shell commands), `isready` with `readyok`, ending on `quit`. Its path.
pub fn fake(name: &str, on_uci: &str, on_go: &str) -> String {
    fake_answering(name, &[("uci", on_uci), ("go", on_go)])
}

/// A fake engine answering each command of `answers` (its first word, then shell
/// commands), `isready` with `readyok`, ending on `quit`, ignoring the rest; written to
/// its own temporary folder named after `name` (unique per test binary and name). Its
/// path.
pub fn fake_answering(name: &str, answers: &[(&str, &str)]) -> String {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("qchess-fake-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("engine.sh");
    let mut script = String::from("#!/bin/sh\nwhile read cmd rest; do\n  case \"$cmd\" in\n");
    for (command, answer) in answers {
        script += &format!("    {command}) {answer} ;;\n");
    }
    script += "    isready) echo readyok ;;\n    quit) exit 0 ;;\n  esac\ndone\n";
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_string_lossy().into_owned()
}
