//! `qchess uqci` driven through pipes as a separate process, as a front end would: each
//! test starts the binary, writes commands, reads its lines with a deadline, and ends it
//! with `quit` (the process is killed if it does not exit).

use qchess::chess::{Game, GameOptions};
use qchess::uqci::protocol::Output;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// Longest wait for one expected line (a loaded test machine is slow).
const WAIT: Duration = Duration::from_secs(60);

struct Uqci {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Uqci {
    fn start() -> Uqci {
        let mut child = Command::new(env!("CARGO_BIN_EXE_qchess"))
            .arg("uqci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("qchess starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Uqci {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, text: &str) {
        self.stdin.write_all(text.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn say(&mut self, line: &str) {
        self.send(&format!("{line}\n"));
    }

    /// The lines up to and including the first one `done` accepts.
    fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + WAIT;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let last = done(&line);
                    seen.push(line);
                    if last {
                        return seen;
                    }
                }
                Err(_) => panic!("no expected line within {WAIT:?}; got {seen:?}"),
            }
        }
    }

    fn bestmove(&mut self) -> (Vec<String>, Option<String>) {
        let lines = self.until(|l| l.starts_with("bestmove "));
        let best = match Output::parse(lines.last().unwrap()) {
            Some(Output::BestMove(m)) => m,
            other => panic!("{other:?}"),
        };
        (lines, best)
    }

    /// Sends `quit` and waits for the process to exit.
    fn quit(mut self) {
        self.say("quit");
        let deadline = Instant::now() + WAIT;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{status}");
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        panic!("qchess uqci did not quit");
    }
}

impl Drop for Uqci {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn handshake_then_a_legal_bestmove() {
    let mut e = Uqci::start();
    // Windows line ends are accepted.
    e.send("uci\r\n");
    let hello = e.until(|l| l == "uciok");
    assert!(hello[0].starts_with("id name qchess "), "{hello:?}");
    assert!(hello.iter().any(|l| l.starts_with("id author ")));
    for option in ["forceturn", "forcewin", "forcemeasure", "Level", "Backend"] {
        assert!(
            hello
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type "))),
            "{option} in {hello:?}"
        );
    }
    e.say("setoption name level value 2");
    e.say("isready");
    assert_eq!(e.until(|l| l == "readyok"), ["readyok"]);
    e.say("position startpos moves e2e4 e7e5 g1^f3h3");
    e.say("go depth 2");
    let (lines, best) = e.bestmove();
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2 score ")),
        "{lines:?}"
    );
    let mv = best.expect("a move");
    let mut g = Game::standard(GameOptions::default());
    for m in ["e2e4", "e7e5", "g1^f3h3", &mv] {
        g.play(m).unwrap_or_else(|err| panic!("{m}: {err}"));
    }
    e.quit();
}

#[test]
fn infinite_search_answers_isready_and_stops_at_once() {
    let mut e = Uqci::start();
    e.say("position startpos");
    e.say("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.say("isready");
    let lines = e.until(|l| l == "readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "an infinite search waits for stop: {lines:?}"
    );
    let asked = Instant::now();
    e.say("stop");
    let (_, best) = e.bestmove();
    assert!(
        asked.elapsed() < Duration::from_secs(10),
        "{:?}",
        asked.elapsed()
    );
    Game::standard(GameOptions::default())
        .play(&best.expect("a move"))
        .unwrap();
    e.quit();
}

#[test]
fn calcbell_matches_analyze_bell() {
    let moves = "b1^a3c3 e7e6 g1^f3h3";
    let mut e = Uqci::start();
    e.say(&format!("position startpos moves {moves}"));
    e.say("calcbell c3 a3");
    let line = e.until(|l| l.starts_with("info string calcbell"));
    let words: Vec<String> = line[0].split_whitespace().map(String::from).collect();
    assert_eq!(words[2..5], ["calcbell", "c3", "a3"]);
    let ours: Vec<f64> = words[5..].iter().map(|v| v.parse().unwrap()).collect();
    e.quit();

    let out = Command::new(env!("CARGO_BIN_EXE_qchess"))
        .args(["analyze", "--moves", moves, "--bell", "c3", "a3", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let theirs: Vec<f64> = serde_json::from_value(json["bell"]["O"].clone()).unwrap();
    assert_eq!(ours.len(), 8);
    assert_eq!(ours, theirs);
}

#[test]
fn an_illegal_move_is_reported_and_the_position_kept() {
    let mut e = Uqci::start();
    e.say("position startpos moves e2e4");
    e.say("position startpos moves e2e4 e7e4");
    let err = e.until(|l| l.starts_with("info string"));
    assert!(
        err[0].starts_with("info string error: move 2 \"e7e4\""),
        "{err:?}"
    );
    // Still after 1. e4: Black to move.
    e.say("go depth 1");
    let (_, best) = e.bestmove();
    let mut g = Game::standard(GameOptions::default());
    g.play("e2e4").unwrap();
    g.play(&best.unwrap()).unwrap();
    // Garbage of every kind is survived.
    e.send("\u{0}\u{7f} depth -1 nodes\n\r\n\n position fen\nsetoption\ncalcbell zz\n");
    e.say("isready");
    e.until(|l| l == "readyok");
    e.quit();
}
