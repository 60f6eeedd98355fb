//! A review kept in the saved game: written by `qchess review`, read back without
//! redoing it, older files without one, and a section a later qchess wrote.

use crate::support::cli::qchess;
use qchess::record::{self, SavedGame};
use qchess::review::VERSION;
use std::path::{Path, PathBuf};

fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qchess-reviews-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

const GAME: &str =
    "format = 1\nstart = \"4k3/8/8/8/8/8/7r/R3K3 w - - 0 1\"\nmoves = [\"e1e2\", \"h2xe2\"]\n";

fn review(path: &Path, extra: &[&str]) -> (i32, String, String) {
    let p = path.to_str().unwrap();
    let mut args = vec!["review", p];
    args.extend_from_slice(extra);
    qchess(&args)
}

#[test]
fn the_review_is_kept_in_the_file_and_not_redone() {
    let path = scratch("kept.toml", GAME);
    let (code, out, err) = review(&path, &["--level", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("ply 1 (white) e1e2??: blunder"), "{out}");
    let saved = record::load(&path).unwrap();
    let kept = saved.review.clone().expect("the review is saved");
    assert_eq!(kept.by, "qchess level 2");
    assert!(kept.complete(2));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("[review]") && text.contains(&format!("version = {VERSION}")),
        "{text}"
    );
    assert!(
        out.contains("allowed the king to be captured") && out.contains("met by h2xe2"),
        "{out}"
    );
    assert!(out.contains("(the best reply); best "), "{out}");
    assert!(
        out.contains("0.15 or more"),
        "the luck threshold is said: {out}"
    );
    // Opened again, the file is not written (nothing to judge) and the verdict is the same.
    let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
    let (code, again, _) = review(&path, &["--level", "2"]);
    assert_eq!(code, 0);
    assert_eq!(
        std::fs::metadata(&path).unwrap().modified().unwrap(),
        modified
    );
    assert_eq!(strip_time(&again), strip_time(&out));
    // The game replays as before.
    let game = saved.replay(&path, None, None).unwrap();
    assert_eq!(game.ply(), 2);
}

/// The report without its first line (which says how long it took).
fn strip_time(report: &str) -> String {
    report.lines().skip(1).collect::<Vec<_>>().join("\n")
}

#[test]
fn the_json_has_a_verdict_per_ply() {
    let path = scratch("json.toml", GAME);
    let (code, out, err) = review(&path, &["--level", "1", "--json", "--no-save"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["by"], "qchess level 1");
    assert_eq!(v["complete"], true);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2);
    for key in [
        "ply",
        "move",
        "expected",
        "best",
        "best_line",
        "answer",
        "best_reply",
        "loss",
        "material",
        "forced",
        "mark",
        "luck",
        "chance",
    ] {
        assert!(moves[0].get(key).is_some(), "{key} in {}", moves[0]);
    }
    assert_eq!(moves[0]["mark"], "blunder");
    assert_eq!(moves[0]["forced"], "allowed_king_capture");
    assert_eq!(moves[0]["best_reply"], "h2xe2");
    assert_eq!(moves[0]["expected"], 0.0);
    assert!(moves[1]["move"].as_str().unwrap().starts_with("h2xe2"));
    assert_eq!(v["white"]["blunders"], 1);
    // --no-save left the file alone.
    assert!(record::load(&path).unwrap().review.is_none());
}

#[test]
fn older_files_load_and_a_later_section_is_skipped() {
    let path = scratch("later.toml", &format!(
        "{GAME}\n[review]\nversion = 99\nby = \"a later qchess\"\nnew_field = 1\n\n[annotations]\nversion = 1\nx = 2\n"
    ));
    let saved = record::load(&path).expect("a later section does not stop the game loading");
    assert!(saved.review.is_none());
    assert_eq!(saved.moves.len(), 2);
    // A table without a version is still a mistake in the file.
    let bad = scratch("bad.toml", &format!("{GAME}\n[reveiw]\nby = 1\n"));
    let err = record::load(&bad).unwrap_err().to_string();
    assert!(err.contains("reveiw"), "{err}");
    // And a review of this version with a typo is refused with its place.
    let typo = scratch("typo.toml", &format!("{GAME}\n[review]\nversion = 1\nby = \"x\"\n[[review.positions]]\nply = 0\nexpectd = 0.5\n"));
    let err = record::load(&typo).unwrap_err().to_string();
    assert!(err.contains("expectd") || err.contains("expected"), "{err}");
    let _: SavedGame = record::load(&path).unwrap();
}

/// [`GAME`] with a review of `version` as level 1 judged it, `first` more lines for its
/// first position.
fn old_review(version: u32, first: &str) -> String {
    format!(
        "{GAME}
[review]
version = {version}
by = \"qchess level 1\"

[[review.positions]]
ply = 0
expected = 0.85
best = \"a1a8\"
move = \"e1e2\"
played_expected = 0.0
{first}
[[review.positions]]
ply = 1
expected = 0.0
best = \"h2xe2\"
move = \"h2xe2.m1\"
played_expected = 0.0

[[review.positions]]
ply = 2
expected = 0.0
"
    )
}

#[test]
fn a_review_of_version_1_still_shows_and_is_judged_again() {
    // As the builds before the reply was kept wrote it: no `played_line`.
    let path = scratch("v1.toml", &old_review(1, ""));
    let saved = record::load(&path).expect("a version 1 review loads");
    let kept = saved.review.expect("and is kept");
    assert_eq!(kept.version, 1);
    assert!(kept.complete(2));
    assert!(kept.positions[0].played_line.is_empty());
    // `qchess review` judges it again, as this version does.
    let (code, out, err) = review(&path, &["--level", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("met by h2xe2"), "{out}");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(&format!("version = {VERSION}")), "{text}");
}

#[test]
fn a_review_of_version_3_still_loads_and_shows() {
    // As the builds before the centipawns were kept wrote it.
    let path = scratch(
        "v3.toml",
        &old_review(
            3,
            "line = [\"a1a8\"]\nplayed_line = [\"e1e2\", \"h2xe2.m1\"]\n",
        ),
    );
    let saved = record::load(&path).expect("a version 3 review loads");
    let kept = saved.review.expect("and is kept");
    assert_eq!(kept.version, 3);
    assert_eq!(kept.positions[0].best_cp, None);
    let (code, out, err) = review(&path, &["--level", "1", "--no-save"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("e1e2??: blunder: allowed the king"), "{out}");
}

#[test]
fn bad_arguments_are_said_plainly() {
    let path = scratch("args.toml", GAME);
    let (code, _, err) = review(&path, &["--threads", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("--threads must be at least 1"), "{err}");
    let (code, _, err) = qchess(&["review", "/nonexistent/game.toml"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("qchess: /nonexistent/game.toml"), "{err}");
}

#[test]
fn ctrl_c_stops_qchess_review_and_keeps_what_was_judged() {
    use crate::support::review_game::review_game;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let moves: Vec<String> = review_game().iter().map(|m| format!("\"{m}\"")).collect();
    let path = scratch(
        "stopped.toml",
        &format!("format = 1\nmoves = [{}]\n", moves.join(", ")),
    );
    let child = Command::new(env!("CARGO_BIN_EXE_qchess"))
        .args([
            "review",
            path.to_str().unwrap(),
            "--level",
            "4",
            "--threads",
            "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Level 4 on one thread takes many seconds for 81 positions: stop it after one.
    std::thread::sleep(Duration::from_millis(1500));
    // SAFETY: kill(2) on the child's own pid, which is still ours to wait for.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let started = Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "it stopped at once"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("stopped:") && err.contains("judges the rest"),
        "{err}"
    );
    let kept = record::load(&path)
        .unwrap()
        .review
        .expect("the judged part is saved");
    assert!(!kept.complete(80));
    // Printed too, with what is known.
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("reviewed by qchess level 4"), "{text}");
}
