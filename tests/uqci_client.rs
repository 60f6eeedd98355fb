//! An external UQCI engine as a player: `qchess uqci` itself through pipes, and small
//! scripted fake engines that misbehave in each way the front end must survive.

use qchess::chess::{Game, GameOptions};
use qchess::engine::{Event, Player, PlayerError};
use qchess::uqci::client::UqciPlayer;
use std::process::Command;
use std::time::{Duration, Instant};

#[path = "common/fake_engine.rs"]
#[allow(dead_code)] // fake_answering serves the terminal game's tests
mod fake_engine;
use fake_engine::{fake, HANDSHAKE_OK};

const BIN: &str = env!("CARGO_BIN_EXE_qchess");

/// The error the engine's first move gives, and how long it took.
fn first_move_error(cmd: &str) -> (String, Duration) {
    let g = Game::standard(GameOptions::default());
    let mut p = UqciPlayer::new(cmd, Duration::from_millis(100));
    let t = Instant::now();
    let err = match p.think(&g).wait() {
        Err(PlayerError::Engine(why)) => why,
        other => panic!("expected an engine error, got {other:?}"),
    };
    assert!(!err.contains('\n'), "one line: {err}");
    // The failure sticks: the next move fails at once with the same words.
    let again = Instant::now();
    assert_eq!(p.think(&g).wait(), Err(PlayerError::Engine(err.clone())));
    assert!(again.elapsed() < Duration::from_secs(1));
    (err, t.elapsed())
}

#[test]
fn qchess_uqci_plays_legal_moves_through_pipes() {
    let mut g = Game::standard(GameOptions {
        seed: 3,
        ..GameOptions::default()
    });
    let mut p = UqciPlayer::new(&format!("{BIN} uqci"), Duration::from_millis(150));
    assert_eq!(p.name(), format!("uqci: {BIN} uqci"));
    let mut infos = 0;
    for _ in 0..6 {
        let t = p.think(&g);
        let choice = loop {
            match t.next_event(Duration::from_secs(30)) {
                Some(Event::Info(i)) => {
                    infos += 1;
                    assert!(i.depth >= 1);
                }
                Some(Event::Done(c)) => {
                    break c.unwrap_or_else(|e| {
                        panic!(
                            "{e}: {:?}",
                            g.history().iter().map(|m| &m.played).collect::<Vec<_>>()
                        )
                    })
                }
                None => panic!("no answer in 30 s"),
            }
        };
        g.play(&choice.mv).expect("a legal move");
    }
    assert_eq!(g.ply(), 6);
    assert!(infos > 0, "info lines become progress");
}

#[test]
fn a_match_against_qchess_uqci_runs() {
    let out = Command::new(BIN)
        .args([
            "match",
            "--white",
            "engine:1",
            "--black",
            &format!("uqci:{BIN} uqci"),
            "--games",
            "1",
            "--max-plies",
            "20",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains(&format!("uqci: {BIN} uqci")), "{text}");
    assert!(
        !text.contains("refused") && !text.contains("the engine"),
        "{text}"
    );
}

#[test]
fn an_engine_that_cannot_start() {
    let (err, _) = first_move_error("/nonexistent/qchess-engine --x");
    assert!(err.contains("could not be started"), "{err}");
}

#[test]
fn an_engine_that_never_says_uciok() {
    let (err, took) = first_move_error(&fake("mute", "echo 'id name mute'", "echo bestmove e2e4"));
    assert!(err.contains("did not answer uciok in time"), "{err}");
    assert!(took < Duration::from_secs(15));
}

#[test]
fn an_engine_that_crashes_on_go() {
    let (err, _) = first_move_error(&fake("crash", HANDSHAKE_OK, "exit 3"));
    assert!(err.contains("ended while thinking"), "{err}");
}

#[test]
fn an_engine_that_hangs_on_go() {
    let (err, took) = first_move_error(&fake("hang", HANDSHAKE_OK, "echo 'info depth 1'"));
    assert!(err.contains("did not answer go within 3100 ms"), "{err}");
    assert!(took < Duration::from_secs(15));
}

#[test]
fn an_engine_that_answers_an_illegal_move() {
    let (err, _) = first_move_error(&fake("illegal", HANDSHAKE_OK, "echo 'bestmove e2e5'"));
    assert!(err.contains("\"e2e5\", an illegal move"), "{err}");
}

#[test]
fn an_engine_that_answers_no_move_in_a_game_going_on() {
    let (err, _) = first_move_error(&fake("null", HANDSHAKE_OK, "echo 'bestmove 0000'"));
    assert!(err.contains("answered no move (bestmove 0000)"), "{err}");
}

#[test]
fn an_engine_that_answers_garbage() {
    let (err, _) = first_move_error(&fake("garbage", HANDSHAKE_OK, "echo 'bestmove zz!9'"));
    assert!(err.contains("\"zz!9\", not a move"), "{err}");
}

#[test]
fn a_match_reports_a_misbehaving_engine_in_one_line() {
    let out = Command::new(BIN)
        .args([
            "match",
            "--white",
            &format!(
                "uqci:{}",
                fake("match", HANDSHAKE_OK, "echo 'bestmove e2e5'")
            ),
            "--black",
            "random",
            "--games",
            "1",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("1 games, +0 =0 -1"),
        "the engine loses: {text}"
    );
}

/// The process id the fake engine wrote to `file` on `go` (waited for up to 10 s).
fn pid_in(file: &str) -> u32 {
    let started = Instant::now();
    loop {
        if let Some(pid) = std::fs::read_to_string(file)
            .ok()
            .and_then(|t| t.trim().parse::<u32>().ok())
        {
            return pid;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the engine never got `go`"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Whether process `pid` is gone: no entry in /proc, or a zombie waiting for a parent
/// that reaps it (what a killed process whose parent died too is until then).
fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        // The state follows the command's closing parenthesis.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

/// Waits up to 5 s from `since` for every process of `pids` to be gone.
fn all_gone(pids: &[u32], since: Instant, what: &str) {
    while !pids.iter().all(|&p| gone(p)) {
        assert!(
            since.elapsed() < Duration::from_secs(5),
            "{what} (processes {pids:?}) outlived qchess's hold on it"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A fake engine answering `go` with `on_go`, which writes a process id to "$0.pid":
/// the player is dropped while its move is being thought, and that process must go with
/// it, and the move's thread must hear that the engine ended (at once, not at its
/// deadline).
fn dropped_mid_move(name: &str, on_go: &str) {
    let cmd = fake(name, HANDSHAKE_OK, on_go);
    let pid_file = format!("{cmd}.pid");
    let _ = std::fs::remove_file(&pid_file);
    let g = Game::standard(GameOptions::default());
    let mut p = UqciPlayer::new(&cmd, Duration::from_secs(20));
    let thinking = p.think(&g);
    let pid = pid_in(&pid_file);
    assert!(!gone(pid), "the process runs before the player goes");
    drop(p);
    let dropped = Instant::now();
    all_gone(&[pid], dropped, "the engine's process");
    match thinking.wait() {
        Err(PlayerError::Engine(why)) => assert!(why.contains("ended while thinking"), "{why}"),
        other => panic!("expected an engine error, got {other:?}"),
    }
    assert!(dropped.elapsed() < Duration::from_secs(5));
}

#[test]
fn a_player_dropped_mid_move_kills_an_engine_that_ignores_stop() {
    // On `go` the engine notes its process id and turns into a `sleep`: it heeds neither
    // `stop` nor the end of its input, as a program quitting mid-search would find it.
    dropped_mid_move("stubborn", "echo $$ > \"$0.pid\"; exec sleep 30");
}

#[test]
fn a_player_dropped_mid_move_kills_what_its_engine_started() {
    // A wrapper script: on `go` it starts the "real" engine (a `sleep`) and waits for it,
    // as a script that runs an engine binary would. Killing the script alone would leave
    // the sleep running, holding the output pipe open.
    dropped_mid_move("wrapper", "sleep 30 & echo $! > \"$0.pid\"; wait");
}

#[test]
fn a_match_ended_by_ctrl_c_leaves_no_engine_behind() {
    // The engine ignores `stop`, the end of its input and SIGINT, and runs a child: the
    // terminal's Ctrl-C reaches qchess alone (the engine has a process group of its own),
    // and qchess must end both.
    let cmd = fake(
        "ctrl-c",
        HANDSHAKE_OK,
        "trap '' INT; echo $$ > \"$0.pid\"; sleep 30 & echo $! > \"$0.child\"; wait",
    );
    let (pid_file, child_file) = (format!("{cmd}.pid"), format!("{cmd}.child"));
    let _ = std::fs::remove_file(&pid_file);
    let _ = std::fs::remove_file(&child_file);
    let mut qchess = Command::new(BIN)
        .args(["match", "--white", &format!("uqci:{cmd}")])
        .args(["--black", "random", "--games", "1"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let (engine, child) = (pid_in(&pid_file), pid_in(&child_file));
    // SAFETY: kill(2) with plain integers, to a process this test started.
    unsafe {
        libc::kill(qchess.id() as libc::pid_t, libc::SIGINT);
    }
    let signalled = Instant::now();
    let status = loop {
        if let Some(status) = qchess.try_wait().unwrap() {
            break status;
        }
        if signalled.elapsed() > Duration::from_secs(5) {
            let _ = qchess.kill();
            panic!("qchess did not end on SIGINT");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(status.code(), Some(130), "128 + SIGINT");
    all_gone(&[engine, child], signalled, "the engine or its child");
}
