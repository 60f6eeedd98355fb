//! An external UQCI engine as a [`Player`]: qchess as the front end. The engine's
//! command is started on the first move (so naming a player costs nothing), the
//! handshake (`uci`/`uciok`, `isready`/`readyok`) is waited for with a timeout, and
//! each move sends `position startpos|fen … moves …` (the game's moves with their
//! `.mN` outcomes, so the engine sees the same measurements) and `go movetime MS`.
//! `info` lines become progress, `bestmove` the answer, checked to be legal.
//!
//! Misbehaviour (it does not start, ends, hangs past its time plus [`MARGIN`], answers
//! a move that is illegal or unreadable) is a [`PlayerError::Engine`] in one line; the
//! engine is then killed and every later move gives the same error at once (it is not
//! restarted: a front end hands its side to a person). The process is killed when the
//! last clone of the player is dropped, even while a move is being thought (a program
//! that quits mid-search leaves no engine behind, however it treats `stop` and the end
//! of its input), and on Unix with it every process it started (its process group).

use super::protocol::{Command, Go, Output, Score, SearchInfo, Start};
use crate::chess::fen::{self, START_FEN};
use crate::chess::{notation, Game};
use crate::engine::eval::WIN;
use crate::engine::player::clock_go;
use crate::engine::{Choice, Info, Player, PlayerError, Thinking};
use crate::game::clock::ClockTimes;
use crate::game::Playable;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long the engine may take to answer `uci` and `isready` (by default: a person
/// waits for it).
pub const HANDSHAKE: Duration = Duration::from_secs(5);
/// How much longer than its move time the engine may take before it counts as hung.
pub const MARGIN: Duration = Duration::from_secs(3);
/// The move time when none is asked for.
pub const DEFAULT_MOVETIME: Duration = Duration::from_millis(1000);
/// How an external engine's name starts ("uqci: CMD" in saved games and reports).
pub const NAME_PREFIX: &str = "uqci: ";

/// An external UQCI engine, started by a command line. Clones share the one process
/// (a game whose two sides it plays, or its hints, talk to the same engine).
#[derive(Clone)]
pub struct UqciPlayer {
    connection: Connection,
    movetime: Duration,
}

/// An external engine's process (UQCI or UCI: the same handshake and `go`), started by a
/// command line on first use. Clones share the process; it is killed, with every
/// process it started, when the last clone is dropped, even while a move is being
/// thought.
#[derive(Clone)]
pub struct Connection {
    command: String,
    handshake: Duration,
    state: Arc<Mutex<EngineState>>,
    /// Held by the connections only, not by a move being thought: its drop kills the
    /// engine.
    owner: Arc<Owner>,
}

/// A move's hold on a [`Connection`]'s process, for the move's own thread; it does not
/// keep the process alive.
pub struct Session {
    command: String,
    handshake: Duration,
    state: Arc<Mutex<EngineState>>,
    slot: Slot,
}

impl Connection {
    /// The engine run by `command` ("PATH ARGS", split as a POSIX shell would, quotes
    /// kept together); nothing starts yet.
    pub fn new(command: &str) -> Connection {
        Connection {
            command: command.trim().to_string(),
            handshake: HANDSHAKE,
            state: Arc::new(Mutex::new(EngineState::NotStarted)),
            owner: Arc::new(Owner(Slot::default())),
        }
    }

    /// The same, waiting `within` for each answer of the handshake instead of
    /// [`HANDSHAKE`] (for an engine nobody waits for, which may load slowly on a busy
    /// machine).
    pub fn with_handshake(self, within: Duration) -> Connection {
        Connection {
            handshake: within,
            ..self
        }
    }

    /// The command line it runs.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// A hold on the process for one move's thread.
    pub fn session(&self) -> Session {
        Session {
            command: self.command.clone(),
            handshake: self.handshake,
            state: Arc::clone(&self.state),
            slot: Arc::clone(&self.owner.0),
        }
    }
}

impl Session {
    /// Runs `work` on the engine, started with its handshake first if it is not running
    /// yet. An error of `work` (the end of a sentence naming the engine: "did not answer
    /// go in time") ends the engine, and every later use gives the same error at once.
    pub fn run<T>(
        self,
        work: impl FnOnce(&mut EngineProcess) -> Result<T, String>,
    ) -> Result<T, PlayerError> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let EngineState::NotStarted = *state {
            *state = match EngineProcess::start(&self.command, self.slot, self.handshake) {
                Ok(p) => EngineState::Running(p),
                Err(why) => EngineState::Failed(PlayerError::NotStarted(why)),
            };
        }
        let answer = match &mut *state {
            EngineState::Running(p) => work(p),
            EngineState::Failed(e) => return Err(e.clone()),
            EngineState::NotStarted => unreachable!("the engine was started above"),
        };
        answer.map_err(|why| {
            let why = format!("the engine \"{}\" {why}", self.command);
            *state = EngineState::Failed(PlayerError::Engine(why.clone()));
            PlayerError::Engine(why)
        })
    }
}

/// The engine's process, apart from its input and output so that it can be killed while
/// a move's thread holds those.
type Slot = Arc<Mutex<Option<Child>>>;

/// The engines running now (their process ids, each its group's), for [`end_all`].
static RUNNING: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Kills and reaps the process in `slot`, if one is there, with every process it
/// started (on Unix the engine leads a process group of its own: a wrapper script's
/// engine goes with the script).
fn kill(slot: &Slot) {
    let child = slot.lock().unwrap_or_else(|e| e.into_inner()).take();
    if let Some(mut child) = child {
        RUNNING
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|&pid| pid != child.id());
        kill_group(child.id());
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// Kills every external engine still running, with the processes each started: for a
/// command that ends on a signal without dropping its players (`qchess match` on
/// Ctrl-C), since an engine in a process group of its own does not get the terminal's
/// signals.
pub fn end_all() {
    for pid in RUNNING.lock().unwrap_or_else(|e| e.into_inner()).drain(..) {
        kill_group(pid);
    }
}

/// The signal [`end_all_on_signal`] caught, 0 while none.
static CAUGHT: AtomicI32 = AtomicI32::new(0);

/// On SIGINT, SIGTERM or SIGHUP: [`end_all`], then exits with status 128 + the signal.
/// For a command with no screen of its own to restore that runs external engines
/// (`qchess match`): the terminal's Ctrl-C reaches qchess, not the engines' groups.
/// Ending the engines can let the command finish first: it then asks
/// [`exit_status_of_signal`] for the status to end with.
#[cfg(unix)]
pub fn end_all_on_signal() -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::spawn(move || {
        if let Some(sig) = signals.forever().next() {
            // Known before any engine ends, so a command that finishes because its
            // engines ended sees it.
            CAUGHT.store(sig, Ordering::SeqCst);
            end_all();
            std::process::exit(128 + sig);
        }
    });
    Ok(())
}

/// 128 + the signal [`end_all_on_signal`] caught, if it caught one.
pub fn exit_status_of_signal() -> Option<u8> {
    match CAUGHT.load(Ordering::SeqCst) {
        0 => None,
        sig => u8::try_from(128 + sig).ok(),
    }
}

/// Sends SIGKILL to the process group led by process `pid` (see [`own_group`]); the
/// caller has not reaped that process yet, so the id is not someone else's.
#[cfg(unix)]
fn kill_group(pid: u32) {
    if let Ok(pid) = libc::pid_t::try_from(pid) {
        // SAFETY: kill(2) takes plain integers and touches no memory of ours.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

#[cfg(not(unix))]
fn kill_group(_pid: u32) {}

/// Starts the engine as the leader of a new process group, so that [`kill_group`] reaches
/// the processes it starts. (A terminal's Ctrl-C then no longer reaches it: qchess ends
/// it itself.)
#[cfg(unix)]
fn own_group(command: &mut Process) -> &mut Process {
    use std::os::unix::process::CommandExt;
    command.process_group(0)
}

#[cfg(not(unix))]
fn own_group(command: &mut Process) -> &mut Process {
    command
}

/// The connections' hold on the process: when the last one goes, so does the engine.
struct Owner(Slot);

impl Drop for Owner {
    fn drop(&mut self) {
        kill(&self.0);
    }
}

/// The engine's process, or why there is none any more.
enum EngineState {
    NotStarted,
    Running(EngineProcess),
    Failed(PlayerError),
}

/// A running engine: its process, its input, and its output lines (read on a thread;
/// the channel closes when the engine's output ends).
pub struct EngineProcess {
    child: Slot,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Drop for EngineProcess {
    /// Asks the engine to quit, then kills it and reaps it (no zombie).
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        kill(&self.child);
    }
}

impl UqciPlayer {
    /// The engine run by `command` ("PATH ARGS", split as a POSIX shell would, quotes
    /// kept together), thinking `movetime` per move.
    pub fn new(command: &str, movetime: Duration) -> UqciPlayer {
        UqciPlayer {
            connection: Connection::new(command),
            movetime,
        }
    }

    /// The command line it runs.
    pub fn command(&self) -> &str {
        self.connection.command()
    }
}

impl std::fmt::Debug for UqciPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UqciPlayer")
            .field("command", &self.command())
            .field("movetime", &self.movetime)
            .finish()
    }
}

/// Two players are the same engine when they run the same command for the same time.
impl PartialEq for UqciPlayer {
    fn eq(&self, other: &Self) -> bool {
        (self.command(), self.movetime) == (other.command(), other.movetime)
    }
}

impl Eq for UqciPlayer {}

impl Player for UqciPlayer {
    /// "uqci: CMD": saved games and match reports show the command.
    fn name(&self) -> String {
        format!("{NAME_PREFIX}{}", self.command())
    }

    fn think(&mut self, game: &dyn Playable) -> Thinking {
        let go = Go {
            movetime: Some(self.movetime.as_millis() as u64),
            ..Go::default()
        };
        self.go_on(game, go, self.movetime)
    }

    /// On a clock the engine gets both clocks (`go wtime … btime … winc … binc …`) and
    /// manages its time; it is waited for as long as its clock has.
    fn think_on_clock(&mut self, game: &dyn Playable, times: &ClockTimes) -> Thinking {
        let go = clock_go(times);
        let wait = times.of(game.to_move());
        self.go_on(game, go, wait)
    }
}

impl UqciPlayer {
    /// Sends the position and `go`; waits `wait` (and a margin) for the answer.
    fn go_on(&mut self, game: &dyn Playable, go: Go, wait: Duration) -> Thinking {
        let Some(game) = game.quantum() else {
            return Thinking::done(Err(PlayerError::Engine(
                "a UQCI engine plays Quantum Chess only, not the variants".into(),
            )));
        };
        let session = self.connection.session();
        // The moves are read here: a detached copy keeps the state, not the history.
        let setup = position(game);
        let root = game.detached();
        Thinking::spawn(move |stop, progress| {
            session.run(|p| {
                p.send(&setup)?;
                let started = Instant::now();
                let mut last = None;
                let best = p.go(go, wait + MARGIN, stop, &mut |i| {
                    let info = info(i, started.elapsed());
                    progress(&info);
                    last = Some(info);
                })?;
                let mv = best.ok_or("answered no move (bestmove 0000) in a game still going on")?;
                check(&root, &mv)?;
                Ok(Choice {
                    mv,
                    info: last,
                    from_book: false,
                    expected: None,
                })
            })
        })
    }
}

impl EngineProcess {
    /// Starts `command` and does the handshake; why not, as the end of a sentence
    /// starting with the engine's name.
    fn start(command: &str, slot: Slot, handshake: Duration) -> Result<EngineProcess, String> {
        let failed = |why: String| format!("the engine \"{command}\" {why}");
        let words = shell_words::split(command)
            .map_err(|e| failed(format!("is not a command line: {e}")))?;
        let (program, args) = words
            .split_first()
            .ok_or_else(|| "no engine command was given".to_string())?;
        let mut child = own_group(Process::new(program).args(args))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| failed(format!("could not be started: {e}")))?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            kill(&Arc::new(Mutex::new(Some(child))));
            return Err(failed("could not be started: no pipes".into()));
        };
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        RUNNING
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(child.id());
        *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(child);
        let mut p = EngineProcess {
            child: slot,
            input,
            lines,
        };
        p.handshake(handshake).map_err(failed)?;
        Ok(p)
    }

    fn handshake(&mut self, within: Duration) -> Result<(), String> {
        self.send(&Command::Uci)?;
        self.wait_for(within, "uciok", |o| *o == Output::UciOk)?;
        self.send(&Command::IsReady)?;
        self.wait_for(within, "readyok", |o| *o == Output::ReadyOk)
    }

    /// Sends one command; why not, as the end of a sentence naming the engine.
    pub fn send(&mut self, c: &Command) -> Result<(), String> {
        writeln!(self.input, "{c}")
            .and_then(|_| self.input.flush())
            .map_err(|_| "stopped reading its input (it ended)".to_string())
    }

    /// The next line, waiting until `deadline`.
    fn line(&self, deadline: Instant, what: &str) -> Result<String, String> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err(format!("did not answer {what} in time")),
            Err(RecvTimeoutError::Disconnected) => Err(format!("ended before answering {what}")),
        }
    }

    fn wait_for(
        &mut self,
        within: Duration,
        what: &str,
        done: impl Fn(&Output) -> bool,
    ) -> Result<(), String> {
        let deadline = Instant::now() + within;
        loop {
            if Output::parse(&self.line(deadline, what)?).is_some_and(|o| done(&o)) {
                return Ok(());
            }
        }
    }

    /// Sends `go` and reads the engine's lines until `bestmove`, its move (`None` for
    /// `0000` or `(none)`); each `info` line goes to `on_info`. An engine still thinking
    /// after `within` counts as hung. `stop` sends `stop` once.
    pub fn go(
        &mut self,
        go: Go,
        within: Duration,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Result<Option<String>, String> {
        self.send(&Command::Go(go))?;
        let deadline = Instant::now() + within;
        let mut stopped = false;
        loop {
            if !stopped && stop.load(Ordering::Relaxed) {
                self.send(&Command::Stop)?;
                stopped = true;
            }
            // Short waits, so that a stop is passed on promptly.
            let wait =
                Duration::from_millis(20).min(deadline.saturating_duration_since(Instant::now()));
            let line = match self.lines.recv_timeout(wait) {
                Ok(l) => l,
                Err(RecvTimeoutError::Disconnected) => return Err("ended while thinking".into()),
                Err(RecvTimeoutError::Timeout) if Instant::now() < deadline => continue,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "did not answer go within {} ms",
                        within.as_millis()
                    ))
                }
            };
            match Output::parse(&line) {
                Some(Output::Info(i)) => on_info(&i),
                Some(Output::BestMove(mv)) => return Ok(mv),
                _ => {}
            }
        }
    }
}

/// The `position` command for `game`: `startpos` when it began at the standard start,
/// else its start as FEN; the moves played with their outcomes.
fn position(game: &Game) -> Command {
    let start_fen = fen::format(game.start());
    let start = if start_fen == START_FEN {
        Start::StartPos
    } else {
        Start::Fen(start_fen)
    };
    Command::Position {
        start,
        moves: game.history().iter().map(|m| m.played.clone()).collect(),
    }
}

/// Whether `mv` is a move the side to move may play: read, without a forced outcome
/// (the game draws it), and accepted by a copy of the game.
pub fn check(game: &Game, mv: &str) -> Result<(), String> {
    let text = notation::parse(mv).map_err(|e| format!("answered \"{mv}\", not a move: {e}"))?;
    if text.outcome.is_some() {
        return Err(format!(
            "answered \"{mv}\", which forces a measurement outcome"
        ));
    }
    game.detached()
        .play_text(mv, &text)
        .map(|_| ())
        .map_err(|e| format!("answered \"{mv}\", an illegal move: {e}"))
}

/// An `info` line as the search's progress (a mate in N as a win N moves away).
pub fn info(i: &SearchInfo, elapsed: Duration) -> Info {
    let score = match i.score {
        Some(Score::Cp(n)) => n as f64,
        Some(Score::Mate(n)) => (WIN - (2 * n.abs() - 1) as f64) * n.signum() as f64,
        None => 0.0,
    };
    Info {
        depth: i.depth.unwrap_or(0),
        score,
        nodes: i.nodes.unwrap_or(0),
        time: i.time.map(Duration::from_millis).unwrap_or(elapsed),
        pv: i.pv.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::GameOptions;

    #[test]
    fn position_sends_the_moves_with_their_outcomes() {
        let mut g = Game::standard(GameOptions::default());
        g.play("e2e4").unwrap();
        g.play("g8^f6h6").unwrap();
        g.play("b1c3").unwrap();
        g.play("f6g4").unwrap();
        assert_eq!(
            position(&g).to_string(),
            format!(
                "position startpos moves e2e4 g8^f6h6 b1c3 {}",
                g.history()[3].played
            )
        );
        let g = Game::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", GameOptions::default()).unwrap();
        assert_eq!(
            position(&g).to_string(),
            "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1"
        );
    }

    #[test]
    fn a_move_is_checked() {
        let g = Game::standard(GameOptions::default());
        assert!(check(&g, "e2e4").is_ok());
        assert!(check(&g, "e2e5").unwrap_err().contains("illegal"));
        assert!(check(&g, "xyzzy").unwrap_err().contains("not a move"));
        assert!(check(&g, "e2e4.m1").unwrap_err().contains("outcome"));
    }

    #[test]
    fn a_mate_score_reads_as_a_win() {
        let i = SearchInfo {
            score: Some(Score::Mate(-2)),
            ..SearchInfo::default()
        };
        assert_eq!(info(&i, Duration::ZERO).score, -(WIN - 3.0));
    }
}
