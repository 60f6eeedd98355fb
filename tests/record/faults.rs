//! Faults and bad input: saved games that lose nothing (unique autosave names,
//! locks, resume that passes over what it cannot use), hand-written and broken saved
//! games, impossible positions, files that are not regular files, `--qasm` that never
//! destroys a file, and a configuration directory that is a file.

use qchess::chess::{Game, GameOptions};
use qchess::game::Playable;
use qchess::record::{self, AutosaveLock, Players, RecordError, Recorder, SavedGame, SkipReason};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, SystemTime};

/// A fresh, empty folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("qchess-faults-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Runs qchess with its own (empty) configuration and data directories.
fn qchess(args: &[&str], dir: &Path) -> Output {
    let config = dir.join("config");
    fs::create_dir_all(&config).unwrap();
    Command::new(env!("CARGO_BIN_EXE_qchess"))
        .args(args)
        .env("QCHESS_CONFIG_DIR", &config)
        .env("QCHESS_DATA_DIR", dir)
        .output()
        .expect("runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn saved_after(moves: &[&str]) -> SavedGame {
    let mut g: Box<dyn Playable> = Game::standard(GameOptions::default()).into();
    for m in moves {
        g.play(m).unwrap();
    }
    SavedGame::of(g.as_ref(), &Players::default(), "2026-11-21T00:00:00Z")
}

/// Writes `text` as an autosave named `name`, last modified `age_s` seconds ago.
fn autosave(data: &Path, name: &str, text: &str, age_s: u64) -> PathBuf {
    let p = record::autosave_dir(data).join(name);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(&p, text).unwrap();
    let f = fs::File::options().write(true).open(&p).unwrap();
    f.set_modified(SystemTime::now() - Duration::from_secs(age_s))
        .unwrap();
    p
}

#[test]
fn games_started_in_the_same_second_get_their_own_autosave() {
    let dir = temp_dir("unique");
    let a = Recorder::new(Some(dir.clone()), true, Players::default(), 1_795_261_845);
    let b = Recorder::new(Some(dir.clone()), true, Players::default(), 1_795_261_845);
    let (pa, pb) = (
        a.autosave_to.clone().unwrap(),
        b.autosave_to.clone().unwrap(),
    );
    assert_ne!(pa, pb);
    a.autosave(&saved_after(&["e2e4"])).unwrap();
    b.autosave(&saved_after(&["d2d4"])).unwrap();
    assert_eq!(record::load(&pa).unwrap().moves, vec!["e2e4"]);
    assert_eq!(record::load(&pb).unwrap().moves, vec!["d2d4"]);
    // A new game in the same recorder, in the same second, also gets a new file.
    let mut c = a.clone();
    c.restart(1_795_261_845);
    assert_ne!(c.autosave_to.clone().unwrap(), pa);
}

#[test]
fn a_running_game_holds_its_autosave_and_resume_refuses_it() {
    let dir = temp_dir("lock");
    let running = Recorder::new(Some(dir.clone()), true, Players::default(), 1_795_261_845);
    let file = running.autosave_to.clone().unwrap();
    running.autosave(&saved_after(&["e2e4"])).unwrap();
    // Another game (here: this process again) cannot take it ...
    let other = Recorder::new(Some(temp_dir("lock-other")), true, Players::default(), 0);
    let e = other
        .resuming(file.clone(), "2026-11-21T00:00:00Z")
        .expect_err("the file is in use");
    assert!(matches!(e, RecordError::InUse(_)), "{e}");
    assert!(
        e.to_string().contains("in use by another running qchess"),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains(&format!("process {}", std::process::id())),
        "{e}"
    );
    // ... and a search for a game to resume passes over it, saying why.
    let search = record::newest_resumable(&dir);
    assert!(search.found.is_none());
    assert!(matches!(search.skipped[0].reason, SkipReason::InUse(_)));
    // `qchess resume` in another process refuses with one line.
    let out = qchess(&["resume"], &dir);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("in use by qchess process"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    // Once the game ends, the file is free and its lock file gone.
    drop(running);
    let free = AutosaveLock::acquire(&file).expect("free now");
    drop(free);
    let left: Vec<_> = fs::read_dir(record::autosave_dir(&dir))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left.len(), 1, "only the autosave is left: {left:?}");
    assert_eq!(record::newest_resumable(&dir).found.unwrap().0, file);
}

/// The names in the autosave folder of `dir`, sorted.
fn autosave_folder(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(record::autosave_dir(dir))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn stale_lock_files_are_cleared_and_held_ones_removed_on_a_hard_exit() {
    let dir = temp_dir("stale");
    let good = saved_after(&["e2e4"]).to_toml();
    autosave(&dir, "game-1.toml", &good, 100);
    // A killed game's lock file (not locked by anyone), one of a game that never saved,
    // and one a running game holds.
    let folder = record::autosave_dir(&dir);
    fs::write(folder.join(".game-1.toml.lock"), "999999").unwrap();
    fs::write(folder.join(".game-0.toml.lock"), "999998").unwrap();
    let held = AutosaveLock::acquire(&folder.join("game-2.toml")).unwrap();
    let search = record::newest_resumable(&dir);
    assert_eq!(search.found.unwrap().0, folder.join("game-1.toml"));
    assert_eq!(
        autosave_folder(&dir),
        [".game-2.toml.lock", "game-1.toml"],
        "the stale lock files are gone, the held one stays"
    );
    // On a way out that drops nothing (the signal watchdog's exit), the lock files of
    // the locks this process holds are removed.
    record::remove_held_lock_files();
    assert_eq!(autosave_folder(&dir), ["game-1.toml"]);
    drop(held);
    assert_eq!(record::clear_stale_locks(&dir), 0);
}

#[test]
fn resume_passes_over_unreadable_and_finished_autosaves() {
    let dir = temp_dir("fallback");
    let good = saved_after(&["e2e4", "e7e5"]).to_toml();
    let older = autosave(&dir, "game-1.toml", &good, 300);
    autosave(&dir, "game-2.toml", "format = 2\nmoves = []\n", 200);
    let mut done = saved_after(&["e2e4"]);
    done.result = qchess::chess::Status::WhiteWins;
    autosave(&dir, "game-3.toml", &done.to_toml(), 100);
    autosave(&dir, "game-4.toml", "this is not toml", 0);
    let search = record::newest_resumable(&dir);
    assert_eq!(search.found.as_ref().unwrap().0, older);
    let names: Vec<String> = search.skipped.iter().map(|s| s.to_string()).collect();
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(
        names[0].starts_with("game-4.toml (unreadable: not a qchess saved game"),
        "{names:?}"
    );
    assert!(
        names[1].starts_with("game-3.toml (finished: white_wins)"),
        "{names:?}"
    );
    assert!(
        names[2].starts_with("game-2.toml (unreadable: saved game format 2"),
        "{names:?}"
    );
    assert!(
        search.skipped_line().contains("game-4.toml"),
        "{}",
        search.skipped_line()
    );
    // With nothing left, resume names what it passed over.
    fs::remove_file(&older).unwrap();
    let out = qchess(&["resume"], &dir);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("no autosaved game to resume in"), "{err}");
    assert!(err.contains("game-4.toml (unreadable"), "{err}");
}

#[test]
fn hand_written_games_need_only_format_and_moves() {
    let dir = temp_dir("hand");
    let p = dir.join("mine.toml");
    fs::write(&p, "format = 1\nmoves = [\"b1^a3c3\", \"e7e5\"]\n").unwrap();
    let saved = record::load(&p).unwrap();
    assert_eq!(saved.variant, "quantum");
    assert_eq!(saved.players, Players::default());
    assert!(!saved.finished());
    let g = saved
        .replay(&p, None, None)
        .map(|g| g.quantum().cloned().expect("a quantum game"))
        .unwrap();
    assert_eq!(g.ply(), 2);
    fs::write(&p, "format = 1\n[players]\nwhite = \"Ann\"\n").unwrap();
    let e = record::load(&p).unwrap_err().to_string();
    assert!(e.contains("field `moves` is missing"), "{e}");
    assert!(!e.contains("line 1"), "{e}");
    fs::write(&p, "format = 1\nmoves = []\n[players]\nwhite = \"Ann\"\n").unwrap();
    let saved = record::load(&p).unwrap();
    assert_eq!(
        (saved.players.white.as_str(), saved.players.black.as_str()),
        ("Ann", "Black")
    );
    // A field of the wrong type is named with its line.
    fs::write(&p, "format = 1\nmoves = 5\n").unwrap();
    let e = record::load(&p).unwrap_err().to_string();
    assert!(e.contains("line 2, key `moves`"), "{e}");
}

#[test]
fn unknown_results_are_refused() {
    let dir = temp_dir("result");
    let p = dir.join("lost.toml");
    fs::write(&p, "format = 1\nresult = \"lost\"\nmoves = []\n").unwrap();
    let e = record::load(&p).unwrap_err().to_string();
    assert!(e.contains("key `result`") && e.contains("lost"), "{e}");
    let out = qchess(&["replay", p.to_str().unwrap()], &dir);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn impossible_positions_exit_2_with_one_line() {
    let dir = temp_dir("fen");
    for (fen, says) in [
        ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "2 white kings"),
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", "no black king"),
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "white pawn on a1"),
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "'K'"),
        ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "field 4"),
    ] {
        for args in [
            vec!["analyze", "--fen", fen],
            vec!["play", "--fen", fen],
            vec!["analyze", "--variant", "harmonics", "--fen", fen],
        ] {
            let out = qchess(&args, &dir);
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert!(err.contains(says), "{args:?}: {err}");
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        }
        let p = dir.join("start.toml");
        fs::write(&p, format!("format = 1\nstart = \"{fen}\"\nmoves = []\n")).unwrap();
        let out = qchess(&["replay", p.to_str().unwrap()], &dir);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("field `start`") && err.contains(says), "{err}");
    }
}

#[cfg(unix)]
#[test]
fn devices_and_fifos_are_refused_without_reading() {
    let dir = temp_dir("special");
    let fifo = dir.join("pipe.toml");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    for file in [Path::new("/dev/zero"), fifo.as_path(), dir.as_path()] {
        let f = file.to_str().unwrap();
        for args in [
            vec!["export", f, "--qasm", "-"],
            vec!["replay", f],
            vec!["skat", "analyze", f],
        ] {
            let out = qchess(&args, &dir);
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert!(err.contains("not a regular file"), "{args:?}: {err}");
        }
    }
    // A config.toml or theme that is a FIFO is refused too, not waited on.
    let config = dir.join("config");
    fs::create_dir_all(config.join("themes")).unwrap();
    for f in [config.join("config.toml"), config.join("themes/fifo.toml")] {
        Command::new("mkfifo").arg(&f).status().unwrap();
    }
    let out = qchess(&["play", "--seed", "1"], &dir);
    assert!(stderr(&out).contains("config.toml"), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("not a regular file"),
        "{}",
        stderr(&out)
    );
    fs::remove_file(config.join("config.toml")).unwrap();
    // A theme that is not a regular file is not offered (and so never opened).
    let out = qchess(&["themes"], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("fifo"));
}

#[test]
fn a_config_dir_that_is_a_file_says_so() {
    let dir = temp_dir("confdir");
    let file = dir.join("conf");
    fs::write(&file, "").unwrap();
    for args in [
        vec!["config", "path"],
        vec!["themes"],
        vec!["play", "--seed", "1"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_qchess"))
            .args(&args)
            .env("QCHESS_CONFIG_DIR", &file)
            .env("QCHESS_DATA_DIR", &dir)
            .output()
            .unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("QCHESS_CONFIG_DIR=") && err.contains("is a file, not a directory"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_data_dir_that_is_a_file_stops_a_game_that_would_not_be_saved() {
    let dir = temp_dir("datadir");
    let file = dir.join("data");
    fs::write(&file, "").unwrap();
    let game = dir.join("g.toml");
    record::save(&game, &saved_after(&["e2e4"])).unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_qchess"))
            .args(args)
            .env("QCHESS_CONFIG_DIR", dir.join("config"))
            .env("QCHESS_DATA_DIR", &file)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        (out.status.code(), stderr(&out))
    };
    // Autosave on (the default), or resume: refused in one line, before the terminal.
    for args in [vec!["play", "--seed", "1"], vec!["resume"], vec![]] {
        let (code, err) = run(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains("QCHESS_DATA_DIR=") && err.contains("is a file, not a directory"),
            "{args:?}: {err}"
        );
        let how = if args == ["resume"] {
            "resume looks for autosaves there"
        } else {
            "--no-autosave"
        };
        assert!(err.contains(how), "{args:?}: {err}");
    }
    // Without autosave, and for a replay, the data directory is not needed: the game
    // goes as far as asking for a terminal.
    let g = game.to_str().unwrap();
    for args in [vec!["play", "--no-autosave"], vec!["replay", g]] {
        let (code, err) = run(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains("needs a terminal"), "{args:?}: {err}");
    }
}

#[test]
fn qasm_output_never_destroys_the_game_or_a_foreign_file() {
    let dir = temp_dir("qasm-out");
    let game = dir.join("g.toml");
    record::save(&game, &saved_after(&["b1^a3c3", "e7e5"])).unwrap();
    let before = fs::read_to_string(&game).unwrap();
    // The saved game itself, also by another name for the same file.
    let other_name = dir.join(".").join("g.toml");
    for out in [game.to_str().unwrap(), other_name.to_str().unwrap()] {
        for force in [false, true] {
            let mut args = vec!["export", game.to_str().unwrap(), "--qasm", out];
            if force {
                args.push("--force");
            }
            let o = qchess(&args, &dir);
            assert_eq!(o.status.code(), Some(2), "{args:?}");
            assert!(
                stderr(&o).contains("is the saved game being exported"),
                "{}",
                stderr(&o)
            );
            assert_eq!(fs::read_to_string(&game).unwrap(), before);
        }
    }
    // A file that is not an earlier export: refused by export and analyze, unless --force.
    let notes = dir.join("notes.txt");
    fs::write(&notes, "precious").unwrap();
    let n = notes.to_str().unwrap();
    let o = qchess(&["export", game.to_str().unwrap(), "--qasm", n], &dir);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("not an OpenQASM file written by qchess"),
        "{}",
        stderr(&o)
    );
    let o = qchess(&["analyze", "--moves", "e2e4", "--qasm", n], &dir);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(fs::read_to_string(&notes).unwrap(), "precious");
    let o = qchess(
        &["export", game.to_str().unwrap(), "--qasm", n, "--force"],
        &dir,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(fs::read_to_string(&notes)
        .unwrap()
        .starts_with("OPENQASM 3.0;"));
    // Now it is an export: replaced without --force.
    let o = qchess(&["analyze", "--moves", "e2e4", "--qasm", n], &dir);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}
