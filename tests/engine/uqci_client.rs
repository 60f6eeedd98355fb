//! An external UQCI engine as a player: `qchess uqci` itself through pipes, and small
//! scripted fake engines that misbehave in each way the front end must survive.

use qchess::chess::{Game, GameOptions};
use qchess::engine::{Event, Player, PlayerError};
use qchess::game::Playable;
use qchess::uqci::client::UqciPlayer;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::support::fake_engine::{fake, HANDSHAKE_OK};

const BIN: &str = env!("CARGO_BIN_EXE_qchess");

/// The error the engine's first move gives, and how long it took.
fn first_move_error(cmd: &str) -> (String, Duration) {
    let (e, took) = first_move_failure(cmd);
    (e.to_string(), took)
}

/// The failure of the engine's first move (an engine that misbehaved or could not be
/// started), and how long it took.
fn first_move_failure(cmd: &str) -> (PlayerError, Duration) {
    let g: Box<dyn Playable> = Game::standard(GameOptions::default()).into();
    let mut p = UqciPlayer::new(cmd, Duration::from_millis(100));
    let t = Instant::now();
    let err = match p.think(g.as_ref()).wait() {
        Err(e @ (PlayerError::Engine(_) | PlayerError::NotStarted(_))) => e,
        other => panic!("expected an engine error, got {other:?}"),
    };
    assert!(!err.to_string().contains('\n'), "one line: {err}");
    // The failure sticks: the next move fails at once with the same words.
    let again = Instant::now();
    assert_eq!(p.think(g.as_ref()).wait(), Err(err.clone()));
    assert!(again.elapsed() < Duration::from_secs(1));
    (err, t.elapsed())
}

#[test]
fn qchess_uqci_plays_legal_moves_through_pipes() {
    let mut g: Box<dyn Playable> = Game::standard(GameOptions {
        seed: 3,
        ..GameOptions::default()
    })
    .into();
    let mut p = UqciPlayer::new(&format!("{BIN} uqci"), Duration::from_millis(150));
    assert_eq!(p.name(), format!("uqci: {BIN} uqci"));
    let mut infos = 0;
    for _ in 0..6 {
        let t = p.think(g.as_ref());
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
                            g.history().iter().map(|m| &m.text).collect::<Vec<_>>()
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
            "8",
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
    let (err, _) = first_move_failure("/nonexistent/qchess-engine --x");
    assert!(matches!(err, PlayerError::NotStarted(_)), "{err:?}");
    assert!(err.to_string().contains("could not be started"), "{err}");
}

#[test]
fn an_engine_that_never_says_uciok() {
    let (err, took) =
        first_move_failure(&fake("mute", "echo 'id name mute'", "echo bestmove e2e4"));
    assert!(matches!(err, PlayerError::NotStarted(_)), "{err:?}");
    let err = err.to_string();
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
        text.contains("1 game, +0 =0 -1"),
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
    let g: Box<dyn Playable> = Game::standard(GameOptions::default()).into();
    let mut p = UqciPlayer::new(&cmd, Duration::from_secs(20));
    let thinking = p.think(g.as_ref());
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

/// `uci:CMD`: a classical UCI engine (scripted fakes here) playing the most likely
/// classical board.
mod uci {
    use super::BIN;
    use crate::support::fake_engine::{fake, fake_answering, HANDSHAKE_OK};
    use qchess::chess::{Game, GameOptions, Status};
    use qchess::engine::Player;
    use qchess::game::Playable;
    use qchess::uqci::uci::{UciPlayer, UciSettings};
    use std::process::Command;

    /// Three lines at depth 10: e2e4 +30, d2d4 +10, a2a3 -100.
    const THREE_LINES: &str =
        "echo 'info depth 10 seldepth 12 multipv 1 score cp 30 nodes 9 pv e2e4 e7e5'; \
         echo 'info depth 10 seldepth 12 multipv 2 score cp 10 nodes 9 pv d2d4'; \
         echo 'info depth 10 seldepth 12 multipv 3 score cp -100 nodes 9 pv a2a3'; \
         echo 'bestmove e2e4 ponder e7e5'";

    #[test]
    fn it_is_given_the_most_likely_board_and_plays_its_best_line() {
        let script = fake_answering(
            "uci-board",
            &[
                ("uci", HANDSHAKE_OK),
                (
                    "position",
                    "echo \"$rest\" >> \"$(dirname \"$0\")/positions\"",
                ),
                (
                    "go",
                    "echo 'info depth 10 multipv 1 score cp 5 pv e7e5'; echo 'bestmove e7e5'",
                ),
            ],
        );
        let positions = std::path::Path::new(&script).with_file_name("positions");
        let _ = std::fs::remove_file(&positions);
        let mut g: Box<dyn Playable> = Game::standard(GameOptions::default()).into();
        g.play("g1^f3h3").unwrap();
        let mut p = UciPlayer::new(&script, UciSettings::default(), 1);
        assert_eq!(p.name(), format!("uci: {script}"));
        let choice = p.think(g.as_ref()).wait().unwrap();
        assert_eq!(choice.mv, "e7e5");
        assert_eq!(choice.info.map(|i| (i.depth, i.score)), Some((10, 5.0)));
        // The knight on one of its two squares; White may still castle.
        let sent = std::fs::read_to_string(&positions).unwrap();
        assert_eq!(
            sent.trim(),
            "fen rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"
        );
    }

    #[test]
    fn an_engine_slow_to_start_is_waited_for() {
        // Slower to answer `uci` than a front end waits (5 s): as Stockfish loading its
        // network on a busy machine. Nobody waits for a benchmark opponent.
        let slow = format!("sleep 6; {HANDSHAKE_OK}");
        let script = fake_answering(
            "uci-slow",
            &[("uci", slow.as_str()), ("go", "echo 'bestmove e2e4'")],
        );
        let g: Box<dyn Playable> = Game::standard(GameOptions::default()).into();
        let mut p = UciPlayer::new(&script, UciSettings::default(), 1);
        assert_eq!(p.think(g.as_ref()).wait().unwrap().mv, "e2e4");
    }

    #[test]
    fn a_king_capture_on_its_board_is_taken_without_asking() {
        // The fake would answer an illegal move if it were asked.
        let script = fake("uci-capture", HANDSHAKE_OK, "echo 'bestmove h2h8'");
        let mut g: Box<dyn Playable> =
            Game::from_fen("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", GameOptions::default())
                .unwrap()
                .into();
        let mut p = UciPlayer::new(&script, UciSettings::default(), 1);
        let mv = p.think(g.as_ref()).wait().unwrap().mv;
        g.play(&mv).unwrap();
        assert_eq!(g.status(), Status::WhiteWins, "{mv}");
    }

    #[test]
    fn the_first_moves_vary_among_lines_within_the_margin() {
        let script = fake("uci-vary", HANDSHAKE_OK, THREE_LINES);
        let g: Box<dyn Playable> = Game::standard(GameOptions::default()).into();
        let first = |settings: &UciSettings, seed| {
            UciPlayer::new(&script, settings.clone(), seed)
                .think(g.as_ref())
                .wait()
                .unwrap()
                .mv
        };
        let plain = UciSettings::default();
        let varied = UciSettings {
            vary_moves: 4,
            ..plain.clone()
        };
        let mut seen: Vec<String> = (0..12).map(|seed| first(&varied, seed)).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen, ["d2d4", "e2e4"], "a2a3 is 130 cp below the best");
        assert!((0..4).all(|seed| first(&plain, seed) == "e2e4"));
        // Past its first moves it plays the best line again.
        let mut later: Box<dyn Playable> = Game::standard(GameOptions::default()).into();
        for m in [
            "a2a3", "a7a6", "b2b3", "b7b6", "c2c3", "c7c6", "d2d3", "d7d6",
        ] {
            later.play(m).unwrap();
        }
        assert!(
            (0..6).all(|seed| UciPlayer::new(&script, varied.clone(), seed)
                .think(later.as_ref())
                .wait()
                .unwrap()
                .mv
                == "e2e4")
        );
    }

    #[test]
    fn a_line_the_quantum_game_refuses_gives_way_to_the_next() {
        // e2e5 is no move; the second line's d2d4 is played.
        let script = fake(
            "uci-refused",
            HANDSHAKE_OK,
            "echo 'info depth 3 multipv 1 score cp 9 pv e2e5'; \
             echo 'info depth 3 multipv 2 score cp 1 pv d2d4'; echo 'bestmove e2e5'",
        );
        let g: Box<dyn Playable> = Game::standard(GameOptions::default()).into();
        let mv = UciPlayer::new(&script, UciSettings::default(), 0)
            .think(g.as_ref())
            .wait()
            .unwrap()
            .mv;
        assert_eq!(mv, "d2d4");
    }

    #[test]
    fn a_match_against_an_engine_with_no_move_on_its_board_reports_every_ending() {
        // `bestmove (none)`: mated on its board, as far as the engine knows; the player
        // then plays a standard move of that board.
        let script = fake("uci-none", HANDSHAKE_OK, "echo 'bestmove (none)'");
        let out = Command::new(BIN)
            .args([
                "match",
                "--white",
                &format!("uci:{script}"),
                "--black",
                "random",
                "--games",
                "2",
                "--max-plies",
                "8",
                "--json",
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["first"], format!("uci: {script}"));
        assert_eq!(v["games"], 2);
        for g in v["results"].as_array().unwrap() {
            assert!(
                g["end"]
                    .as_str()
                    .unwrap()
                    .starts_with("unfinished after 8 plies"),
                "{g}"
            );
            assert!(g["kings"]["first"].as_f64().unwrap() > 0.0, "{g}");
        }
        assert_eq!(v["moves"]["first"]["moves"], 8);
    }
}

#[test]
fn on_a_clock_the_engine_gets_both_clocks_and_the_increments() {
    use qchess::game::clock::ClockTimes;
    let seen = std::env::temp_dir().join(format!("qchess-go-{}.txt", std::process::id()));
    let on_go = format!("echo \"$rest\" > {}; echo bestmove e2e4", seen.display());
    let cmd = fake("clock", HANDSHAKE_OK, &on_go);
    let g: Box<dyn Playable> = Game::standard(GameOptions::default()).into();
    let mut p = UqciPlayer::new(&cmd, Duration::from_millis(100));
    let times = ClockTimes {
        remaining: [Duration::from_secs(60), Duration::from_millis(30_500)],
        increment: Duration::from_secs(2),
    };
    let choice = p
        .think_on_clock(g.as_ref(), &times)
        .wait()
        .expect("an answer");
    assert_eq!(choice.mv, "e2e4");
    let go = std::fs::read_to_string(&seen).unwrap();
    for part in ["wtime 60000", "btime 30500", "winc 2000", "binc 2000"] {
        assert!(go.contains(part), "{part} in {go}");
    }
    assert!(!go.contains("movetime"), "{go}");
    let _ = std::fs::remove_file(&seen);
}

/// A match on a clock between `first` and random, 2 games of at most 20 plies.
fn clocked_match(
    first: qchess::seats::PlayerSpec,
    clock: &str,
) -> qchess::seats::matches::MatchReport {
    use qchess::seats::matches::{run_match, MatchOptions};
    let opts = MatchOptions {
        first,
        second: qchess::seats::PlayerSpec::Random,
        games: 2,
        seed: 5,
        max_plies: 20,
        adjudicate_below: 0.01,
        variant: qchess::game::RuleSet::Quantum,
        backend: qchess::quantum::BackendKind::Sparse,
        jobs: 1,
        clock: Some(clock.parse().unwrap()),
        book_vary: 0,
        start: None,
    };
    run_match(&opts, &mut |_| {}).unwrap()
}

#[test]
fn a_match_with_an_engine_that_cannot_start_stops_with_its_error() {
    let out = Command::new(BIN)
        .args([
            "match",
            "--white",
            "random",
            "--black",
            "uci:/nonexistent/qchess-sf",
        ])
        .args(["--games", "100", "--max-plies", "10"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("/nonexistent/qchess-sf\" could not be started"),
        "{err}"
    );
    assert!(
        out.stdout.is_empty(),
        "no report: {}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn a_game_whose_engine_cannot_start_is_left_out_of_the_score() {
    use qchess::seats::matches::{run_match, MatchOptions};
    // Starts once: later starts find the mark and end before the handshake.
    let once = fake(
        "once",
        "mark=\"$(dirname \"$0\")/started\"; [ -e \"$mark\" ] && exit 0; touch \"$mark\"; \
         echo 'id name once'; echo uciok",
        "echo bestmove e2e4",
    );
    let opts = MatchOptions {
        first: qchess::seats::PlayerSpec::Uqci(once),
        second: qchess::seats::PlayerSpec::Random,
        games: 3,
        seed: 5,
        max_plies: 2,
        adjudicate_below: 0.01,
        variant: qchess::game::RuleSet::Quantum,
        backend: qchess::quantum::BackendKind::Sparse,
        jobs: 1,
        clock: None,
        book_vary: 0,
        start: None,
    };
    let r = run_match(&opts, &mut |_| {}).unwrap();
    assert_eq!((r.played(), r.draws), (1, 1), "{r:?}");
    let games: Vec<u32> = r.not_played.iter().map(|(i, _)| *i).collect();
    assert_eq!(games, [1, 2]);
    let text = r.to_text();
    assert!(text.contains(": 1 game, +0 =1 -0"), "{text}");
    assert!(
        text.contains("game 2 not played, left out of the score: the engine"),
        "{text}"
    );
}

#[test]
fn a_match_on_a_clock_reports_a_loss_on_time() {
    // An engine that takes a second over a 0.3 s clock.
    let slow = fake("slow", HANDSHAKE_OK, "sleep 1; echo bestmove e2e4");
    let r = clocked_match(qchess::seats::PlayerSpec::Uqci(slow.clone()), "0.005+0");
    assert_eq!(r.losses, 2, "{r:?}");
    for g in &r.games {
        assert!(g.end.ends_with("lost on time"), "{}", g.end);
    }
    assert!(r.to_text().contains("lost on time (2)"), "{}", r.to_text());
}

#[test]
fn qchess_on_a_short_clock_does_not_flag() {
    let r = clocked_match(qchess::seats::PlayerSpec::Engine(1), "0.1+0");
    for g in &r.games {
        assert!(!g.end.contains("on time"), "{}", g.end);
    }
}

/// Long: `cargo test --test engine -- --ignored at_1_0`.
#[test]
#[ignore]
fn qchess_at_1_0_never_flags_over_ten_games_against_random() {
    use qchess::seats::matches::{run_match, MatchOptions};
    let opts = MatchOptions {
        first: qchess::seats::PlayerSpec::Engine(3),
        second: qchess::seats::PlayerSpec::Random,
        games: 10,
        seed: 11,
        max_plies: 300,
        adjudicate_below: 0.01,
        variant: qchess::game::RuleSet::Quantum,
        backend: qchess::quantum::BackendKind::Sparse,
        jobs: 1,
        clock: Some("1+0".parse().unwrap()),
        book_vary: 0,
        start: None,
    };
    let r = run_match(&opts, &mut |_| {}).unwrap();
    for g in &r.games {
        assert!(!g.end.contains("on time"), "game {}: {}", g.index, g.end);
    }
}
