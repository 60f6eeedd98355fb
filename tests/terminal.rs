//! The game in a real (pseudo) terminal: it refuses to start without one, restores the
//! terminal on SIGINT, SIGQUIT and SIGTERM, suspends on Ctrl-Z and comes back on SIGCONT,
//! captures the mouse unless told not to, and plays against an external UQCI engine
//! (`qchess uqci` itself) or goes on hot-seat when the engine fails.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qchess-term-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn qchess(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_qchess"));
    c.env("QCHESS_CONFIG_DIR", dir)
        .env("QCHESS_DATA_DIR", dir.join("data"))
        .env("TERM", "xterm-256color");
    c
}

#[test]
fn without_a_terminal_one_line_points_to_analyze() {
    let dir = scratch("notty");
    for args in [
        &[][..],
        &["play"],
        &["play", "--variant", "haft"],
        &["skat", "tui"],
    ] {
        let out = qchess(&dir)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("qchess runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("terminal"), "{args:?}: {err}");
        if args.first() != Some(&"skat") {
            assert!(err.contains("qchess analyze"), "{args:?}: {err}");
        }
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(target_os = "linux")]
mod pty {
    use super::*;
    use std::fs::File;
    use std::io::{Read, Write};
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Mutex};

    /// qchess running on the slave side of a pseudo terminal of 80x24.
    struct Pty {
        master: File,
        child: std::process::Child,
        seen: Arc<Mutex<Vec<u8>>>,
        /// Set once the reader has seen the slave side closed: all output is in `seen`.
        drained: Arc<AtomicBool>,
        dir: PathBuf,
        /// Tells the reader to stop (and close its side) after its next read.
        hang: Arc<AtomicBool>,
        reader: Option<std::thread::JoinHandle<()>>,
    }

    impl Pty {
        fn spawn(name: &str, args: &[&str]) -> Pty {
            Pty::with_config(name, args, "")
        }

        /// As [`Pty::spawn`], with `config` as config.toml.
        fn with_config(name: &str, args: &[&str], config: &str) -> Pty {
            let dir = scratch(name);
            std::fs::write(dir.join("config.toml"), config).unwrap();
            let (mut m, mut s) = (0, 0);
            let size = libc::winsize {
                ws_row: 24,
                ws_col: 80,
                ws_xpixel: 0,
                ws_ypixel: 0,
            };
            // SAFETY: openpty writes two new descriptors into `m` and `s`.
            let rc = unsafe {
                libc::openpty(
                    &mut m,
                    &mut s,
                    std::ptr::null_mut(),
                    std::ptr::null(),
                    &size,
                )
            };
            assert_eq!(rc, 0, "openpty");
            // Not inherited by the game (nor by other tests' games): closing the master
            // here must close it for good, as a dropped connection does.
            for fd in [m, s] {
                // SAFETY: fcntl on descriptors just opened here.
                assert_eq!(
                    unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) },
                    0
                );
            }
            // SAFETY: both descriptors were just opened and are owned here alone.
            let (master, slave) = unsafe { (File::from_raw_fd(m), OwnedFd::from_raw_fd(s)) };
            let child = qchess(&dir)
                .args(args)
                .stdin(slave.try_clone().unwrap())
                .stdout(slave.try_clone().unwrap())
                .stderr(slave)
                .spawn()
                .expect("qchess runs");
            let seen = Arc::new(Mutex::new(Vec::new()));
            let mut reader = master.try_clone().unwrap();
            let sink = Arc::clone(&seen);
            let drained = Arc::new(AtomicBool::new(false));
            let done = Arc::clone(&drained);
            let hang = Arc::new(AtomicBool::new(false));
            let stop = Arc::clone(&hang);
            let reader = std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                // Ends with an error (EIO) once the child has closed the slave side.
                while let Ok(n) = reader.read(&mut buf) {
                    if n == 0 || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    sink.lock().unwrap().extend_from_slice(&buf[..n]);
                }
                done.store(true, Ordering::SeqCst);
            });
            Pty {
                master,
                child,
                seen,
                drained,
                dir,
                hang,
                reader: Some(reader),
            }
        }

        /// Stops reading what the game writes: once the terminal's buffers are full,
        /// its writes block.
        fn stop_reading(&mut self) {
            self.hang.store(true, Ordering::Relaxed);
            // A key makes the game draw, which wakes the reader to see the flag.
            self.master.write_all(b"j").unwrap();
            if let Some(r) = self.reader.take() {
                r.join().unwrap();
            }
        }

        /// Whether the game waits in a write to its terminal: the terminal holds a full
        /// buffer nobody reads, and the game's main thread sleeps in the kernel's tty
        /// write (`wait_woken`; waiting for input or a timer shows other names).
        fn stuck_in_write(&self) -> bool {
            let mut queued: libc::c_int = 0;
            // SAFETY: FIONREAD writes an int through a valid pointer.
            let ok = unsafe { libc::ioctl(self.master.as_raw_fd(), libc::FIONREAD, &mut queued) };
            let wchan = std::fs::read_to_string(format!("/proc/{}/wchan", self.child.id()))
                .unwrap_or_default();
            ok == 0 && queued >= 4000 && wchan == "wait_woken"
        }

        /// Sets the terminal's size (the game gets SIGWINCH and draws everything).
        fn resize(&self, cols: u16, rows: u16) {
            let size = libc::winsize {
                ws_row: rows,
                ws_col: cols,
                ws_xpixel: 0,
                ws_ypixel: 0,
            };
            // SAFETY: TIOCSWINSZ reads a winsize from a valid pointer.
            assert_eq!(
                unsafe { libc::ioctl(self.master.as_raw_fd(), libc::TIOCSWINSZ, &size) },
                0
            );
        }

        /// Drops the connection as a closed SSH session does: every descriptor of the
        /// master side is closed (the game's reads then see end-of-file), then SIGHUP.
        fn hang_up(&mut self) {
            self.close_master();
            self.signal(libc::SIGHUP);
        }

        /// Closes every descriptor of the master side: the game's reads see end-of-file.
        fn close_master(&mut self) {
            self.stop_reading();
            let null = File::open("/dev/null").unwrap();
            // SAFETY: dup2 replaces our own master descriptor (closing the pty master)
            // with /dev/null; both descriptors are valid.
            assert!(unsafe { libc::dup2(null.as_raw_fd(), self.master.as_raw_fd()) } >= 0);
        }

        fn output(&self) -> Vec<u8> {
            self.seen.lock().unwrap().clone()
        }

        /// Waits until the output holds `needle` `times` times.
        fn wait_for(&self, needle: &str, times: usize) {
            let start = Instant::now();
            loop {
                if count(&self.output(), needle) >= times {
                    return;
                }
                assert!(
                    start.elapsed() < Duration::from_secs(20),
                    "no {needle:?} x{times} in {:?}",
                    String::from_utf8_lossy(&self.output())
                );
                std::thread::sleep(Duration::from_millis(20));
            }
        }

        fn signal(&self, sig: i32) {
            // SAFETY: kill only sends a signal to our own child.
            assert_eq!(unsafe { libc::kill(self.child.id() as i32, sig) }, 0);
        }

        /// Waits for the child to exit and for the reader to have read all it wrote.
        fn exit_code(&mut self) -> Option<i32> {
            let start = Instant::now();
            loop {
                if let Some(s) = self.child.try_wait().unwrap() {
                    while !self.drained.load(Ordering::SeqCst) {
                        assert!(
                            start.elapsed() < Duration::from_secs(20),
                            "output not drained"
                        );
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    return s.code();
                }
                assert!(start.elapsed() < Duration::from_secs(20), "still running");
                std::thread::sleep(Duration::from_millis(20));
            }
        }

        /// Whether the terminal is back in its ordinary (cooked, echoing) mode.
        fn cooked(&self) -> bool {
            // SAFETY: termios is plain data; tcgetattr on the master reads the pair's
            // settings.
            let mut t: libc::termios = unsafe { std::mem::zeroed() };
            assert_eq!(
                unsafe { libc::tcgetattr(self.master.as_raw_fd(), &mut t) },
                0
            );
            t.c_lflag & libc::ICANON != 0 && t.c_lflag & libc::ECHO != 0
        }
    }

    impl Drop for Pty {
        fn drop(&mut self) {
            let _ = self.child.kill();
            let _ = self.child.wait();
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }

    fn count(hay: &[u8], needle: &str) -> usize {
        let n = needle.as_bytes();
        hay.windows(n.len()).filter(|w| *w == n).count()
    }

    /// The position of the last `needle` in `hay`.
    fn last(hay: &[u8], needle: &str) -> Option<usize> {
        let n = needle.as_bytes();
        hay.windows(n.len()).rposition(|w| w == n)
    }

    const ALT_ON: &str = "\x1b[?1049h";
    const ALT_OFF: &str = "\x1b[?1049l";
    const MOUSE_ON: &str = "\x1b[?1000h";
    const MOUSE_OFF: &str = "\x1b[?1000l";
    const SHOW_CURSOR: &str = "\x1b[?25h";

    #[test]
    fn signals_from_outside_restore_the_terminal() {
        for (sig, name) in [
            (libc::SIGINT, "int"),
            (libc::SIGQUIT, "quit"),
            (libc::SIGTERM, "term"),
            (libc::SIGHUP, "hup"),
        ] {
            let mut p = Pty::spawn(name, &["play", "--seed", "1"]);
            p.wait_for("Board", 1);
            assert!(!p.cooked(), "{name}: raw mode while playing");
            p.signal(sig);
            assert_eq!(p.exit_code(), Some(128 + sig), "{name}");
            let out = p.output();
            let left = last(&out, ALT_OFF).expect("left the alternate screen");
            assert!(left > last(&out, ALT_ON).unwrap(), "{name}");
            assert!(last(&out, SHOW_CURSOR).is_some_and(|i| i > left), "{name}");
            assert!(last(&out, MOUSE_OFF).is_some(), "{name}: mouse released");
            assert!(p.cooked(), "{name}: raw mode left on");
        }
    }

    /// The names in the autosave folder of a game's data directory, sorted.
    fn autosave_folder(p: &Pty) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(p.dir.join("data").join("autosave"))
            .map(|d| {
                d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }

    #[test]
    fn a_dropped_connection_leaves_the_autosave_and_no_lock_file() {
        let mut p = autosaved_game("hangup");
        p.hang_up();
        hung_up_leaving_the_autosave(&mut p);
    }

    /// The game ended as on SIGHUP, leaving its autosave with e2e4 and no lock file.
    fn hung_up_leaving_the_autosave(p: &mut Pty) {
        assert_eq!(p.exit_code(), Some(128 + libc::SIGHUP));
        let left = autosave_folder(p);
        assert_eq!(left.len(), 1, "only the autosave: {left:?}");
        let saved = std::fs::read_to_string(p.dir.join("data/autosave").join(&left[0])).unwrap();
        assert!(saved.contains("\"e2e4\""), "{saved}");
    }

    #[test]
    fn end_of_file_on_the_input_ends_the_game_at_once() {
        let mut p = autosaved_game("eof");
        // No signal comes: only the input tells that the connection is gone (before,
        // the game waited for SIGHUP and its watchdog's grace).
        p.close_master();
        hung_up_leaving_the_autosave(&mut p);
        // `qchess resume` right after finds the game free (it then wants a terminal).
        let out = qchess(&p.dir)
            .arg("resume")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("needs a terminal"), "{err}");
    }

    /// Starts a game with autosave on, plays e2e4 and waits for its autosave (and lock).
    fn autosaved_game(name: &str) -> Pty {
        let p = Pty::with_config(name, &["play", "--seed", "1"], "autosave = true\n");
        p.wait_for("Board", 1);
        let mut master = p.master.try_clone().unwrap();
        master.write_all(b":e2e4\r").unwrap();
        let start = Instant::now();
        while !autosave_folder(&p).iter().any(|n| n.starts_with("game-")) {
            assert!(start.elapsed() < Duration::from_secs(20), "no autosave");
            std::thread::sleep(Duration::from_millis(20));
        }
        let held = autosave_folder(&p);
        assert!(held.iter().any(|n| n.ends_with(".toml.lock")), "{held:?}");
        p
    }

    #[test]
    fn a_stuck_terminal_ends_on_a_signal_without_its_lock_file() {
        let mut p = autosaved_game("stuck");
        // Nobody reads the terminal, and resizes make the game draw everything until
        // its writes block: the event loop cannot see the signal, the watchdog ends it.
        p.stop_reading();
        let mut keys = p.master.try_clone().unwrap();
        std::thread::spawn(move || {
            // Ends with an error once the game has gone.
            while keys.write_all(b"jjjjkkkk").is_ok() {}
        });
        // Resizes until the game is stuck in a write: the terminal's buffer full (a
        // loaded machine may need far more than a few hundred of them).
        let started = Instant::now();
        let mut stuck_since: Option<Instant> = None;
        for i in 0.. {
            assert!(started.elapsed() < Duration::from_secs(30), "never stuck");
            p.resize(80 + (i % 2), 24);
            std::thread::sleep(Duration::from_millis(2));
            if !p.stuck_in_write() {
                stuck_since = None;
            } else if stuck_since.get_or_insert_with(Instant::now).elapsed()
                > Duration::from_millis(200)
            {
                break;
            }
        }
        let signalled = Instant::now();
        p.signal(libc::SIGTERM);
        while autosave_folder(&p).len() > 1 {
            assert!(
                signalled.elapsed() < Duration::from_secs(20),
                "lock file left"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        // Gone by the watchdog (after its grace), not by the event loop; and the game
        // ends although its terminal cannot be restored.
        assert!(signalled.elapsed() >= Duration::from_millis(1000));
        assert_eq!(p.exit_code(), Some(128 + libc::SIGTERM));
        let left = autosave_folder(&p);
        assert_eq!(left.len(), 1, "only the autosave: {left:?}");
    }

    #[test]
    fn ctrl_z_suspends_and_fg_redraws() {
        let mut p = Pty::spawn("tstp", &["play", "--seed", "1"]);
        p.wait_for("Board", 1);
        p.master.write_all(b"\x1a").unwrap();
        // Stopped, with the terminal given back first.
        let pid = p.child.id() as i32;
        let mut status = 0;
        let start = Instant::now();
        // SAFETY: waitpid on our own child; WUNTRACED reports the stop.
        while unsafe { libc::waitpid(pid, &mut status, libc::WUNTRACED | libc::WNOHANG) } == 0 {
            assert!(start.elapsed() < Duration::from_secs(20), "never stopped");
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(libc::WIFSTOPPED(status), "stopped, status {status:#x}");
        p.wait_for(ALT_OFF, 1);
        assert!(p.cooked(), "the shell gets a cooked terminal");
        // fg: the game takes the terminal again and draws the whole screen.
        p.signal(libc::SIGCONT);
        p.wait_for(ALT_ON, 2);
        p.wait_for("Board", 2);
        assert!(!p.cooked());
        p.master.write_all(b"q").unwrap();
        assert_eq!(p.exit_code(), Some(0));
        assert!(p.cooked());
    }

    #[test]
    fn mouse_capture_is_on_unless_turned_off() {
        let mut p = Pty::spawn("mouse", &["play", "--seed", "1"]);
        p.wait_for("Board", 1);
        assert_eq!(count(&p.output(), MOUSE_ON), 1);
        assert_eq!(count(&p.output(), "\x1b[?1006h"), 1, "SGR reports");
        // No report of every motion (only presses, releases and drags).
        assert_eq!(count(&p.output(), "\x1b[?1003h"), 0);
        p.master.write_all(b"q").unwrap();
        assert_eq!(p.exit_code(), Some(0));

        let mut p = Pty::spawn("nomouse", &["play", "--seed", "1", "--no-mouse"]);
        p.wait_for("Board", 1);
        assert_eq!(count(&p.output(), MOUSE_ON), 0);
        p.master.write_all(b"q").unwrap();
        assert_eq!(p.exit_code(), Some(0));

        let mut p = Pty::with_config("mouseconf", &["play", "--seed", "1"], "mouse = false\n");
        p.wait_for("Board", 1);
        assert_eq!(count(&p.output(), MOUSE_ON), 0);
        p.master.write_all(b"q").unwrap();
        assert_eq!(p.exit_code(), Some(0));
    }

    /// The moves and the players of the game's one autosave, once it holds `plies`
    /// moves.
    fn autosaved(p: &Pty, plies: usize) -> (Vec<String>, qchess::record::Players) {
        let start = Instant::now();
        loop {
            let file = autosave_folder(p)
                .into_iter()
                .find(|n| n.starts_with("game-") && n.ends_with(".toml"));
            let saved =
                file.and_then(|f| qchess::record::load(&p.dir.join("data/autosave").join(f)).ok());
            if let Some(saved) = saved.filter(|s| s.moves.len() >= plies) {
                return (saved.moves, saved.players);
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "no autosave with {plies} moves: {:?}",
                String::from_utf8_lossy(&p.output())
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    #[test]
    fn the_engine_named_in_config_plays_black_through_pipes() {
        let command = format!("{} uqci", env!("CARGO_BIN_EXE_qchess"));
        let config = format!("autosave = true\nengine_cmd = {command:?}\n");
        let mut p = Pty::with_config(
            "uqci-config",
            &[
                "play",
                "--seed",
                "1",
                "--engine",
                "black",
                "--movetime",
                "200",
            ],
            &config,
        );
        p.wait_for("Board", 1);
        p.master.write_all(b":e2e4\r").unwrap();
        // The engine's reply is autosaved like any move.
        let (moves, players) = autosaved(&p, 2);
        assert_eq!(moves[0], "e2e4");
        assert_eq!(players.black, format!("uqci: {command}"));
        p.master.write_all(b"q").unwrap();
        p.master.write_all(b"y").unwrap();
        assert_eq!(p.exit_code(), Some(0));
        assert!(p.cooked());
    }

    #[test]
    fn a_failed_engine_leaves_a_hot_seat_game_and_a_sound_terminal() {
        let mut p = Pty::with_config(
            "uqci-fail",
            &[
                "play",
                "--seed",
                "1",
                "--engine",
                "black",
                "--engine-cmd",
                "/nonexistent/qchess-engine --uqci",
            ],
            "autosave = true\n",
        );
        p.wait_for("Board", 1);
        p.master.write_all(b":e2e4\r").unwrap();
        p.wait_for("hot-seat", 1);
        p.master.write_all(b":e7e5\r").unwrap();
        let (moves, _) = autosaved(&p, 2);
        assert_eq!(moves, ["e2e4", "e7e5"], "black moved by hand");
        p.master.write_all(b"q").unwrap();
        p.master.write_all(b"y").unwrap();
        assert_eq!(p.exit_code(), Some(0));
        assert!(p.cooked());
    }

    #[test]
    fn a_saved_game_goes_back_to_its_engine_at_the_time_asked() {
        let dir = scratch("uqci-load-files");
        let log = dir.join("go.log");
        let on_go = format!("echo \"$rest\" >> '{}'; echo bestmove e7e5", log.display());
        let engine = crate::support::fake_engine::fake_answering(
            "load-movetime",
            &[
                ("uci", crate::support::fake_engine::HANDSHAKE_OK),
                ("go", &on_go),
            ],
        );
        let saved = dir.join("game.toml");
        std::fs::write(
            &saved,
            format!(
                "format = 1\nmoves = [\"e2e4\"]\n\n[players]\nwhite = \"Ann\"\n\
                 black = \"uqci: {engine}\"\n"
            ),
        )
        .unwrap();
        let args = [
            "play",
            "--load",
            saved.to_str().unwrap(),
            "--engine-cmd",
            &engine,
            "--movetime",
            "2500",
        ];
        let mut p = Pty::spawn("uqci-load", &args);
        p.wait_for("Board", 1);
        // Black is to move and goes back to the engine, which is asked for 2.5 s.
        let start = Instant::now();
        let go = loop {
            let go = std::fs::read_to_string(&log).unwrap_or_default();
            if !go.is_empty() {
                break go;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "the engine was never asked"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(go.trim(), "movetime 2500");
        // The engine's answer, in the history (in SAN).
        p.wait_for("1... e5", 1);
        p.master.write_all(b"q").unwrap();
        p.master.write_all(b"y").unwrap();
        assert_eq!(p.exit_code(), Some(0));
        assert!(p.cooked());
    }
}
