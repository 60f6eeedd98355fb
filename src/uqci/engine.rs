//! `qchess uqci`: the engine side of the protocol. A reader thread turns standard input
//! into lines; one loop handles them and the search's reports in the order they come,
//! and is the only writer of standard output. The search runs on its own thread, so
//! every command is answered while it thinks.
//!
//! Decisions where the protocol leaves qchess a choice:
//! * `position` plays a move's `.mN` outcome when given. A measuring move without one
//!   draws its outcome from the `Seed` option (the same outcome every time the same
//!   moves are sent), unless `forcemeasure` is on: then such a move is refused, so the
//!   engine never guesses an outcome the front end's game may not have had.
//! * An illegal move, a bad FEN or a refused null move answers `info string error: …`
//!   and keeps the previous position.
//! * The null move `0000` passes. qchess has no pass, so it is accepted only with
//!   `forceturn` (no turn order), where it changes nothing; otherwise refused.
//! * `forcewin` plays the game without win conditions: a king captured with certainty
//!   does not end it (the 50-move rule and repetition still do, as a draw).
//! * `forceturn` lets any side move in `position`; `go` searches for the side after the
//!   last move (the side to move in a FEN when no move was played).
//! * `setoption` of a game option (forceturn, forcewin, forcemeasure, Backend, Seed)
//!   sets up the last position again with it; if it no longer plays, the error is
//!   reported and the position stays as it was.
//! * `go` while a search runs is refused (send `stop` first); a search that ends by
//!   itself under `go infinite` holds its `bestmove` until `stop`.
//! * A `searchmoves` move that is not written in the notation is reported and skipped;
//!   when none of the moves is legal the search tries every move.
//! * `bestmove 0000` when the side to move has no legal move or the game is over.
//! * The end of input quits once a running search has answered (an infinite one is
//!   stopped); `quit` ends at once.
//! * Scores are centipawns for the side to move; a king captured with certainty within
//!   the search's reach is `score mate N` (N moves, negative when the side to move loses
//!   its king).

use super::options::Options;
use super::protocol::{Command, Go, Output, Score, SearchInfo, Start, NULL_MOVE};
use crate::chess::{fen::START_FEN, notation, Game, MoveError};
use crate::engine::budget;
use crate::engine::eval::WIN;
use crate::engine::search::MAX_PLY;
use crate::engine::{search_among, Info, Report};
use crate::quantum::bell::bell;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::time::Duration;

/// Who the engine says it is.
pub const AUTHOR: &str = "the qchess authors";

/// What the loop handles: a line from the front end, its end, or the search's reports.
#[derive(Debug)]
pub enum Msg {
    /// A line of input (without its line end).
    Line(String),
    /// Standard input was closed.
    Eof,
    /// A search iteration finished.
    Info(Info),
    /// The search ended.
    Done(Report),
}

/// Whether the loop goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next message.
    Continue,
    /// `quit`, end of input, or the output is gone.
    Quit,
}

/// Why a `position` was refused.
#[derive(Debug, thiserror::Error)]
pub enum PositionError {
    /// Bad FEN.
    #[error("{0}")]
    Fen(#[from] crate::chess::fen::FenError),
    /// A move that can't be played.
    #[error("move {index} \"{text}\": {error}")]
    Move {
        /// 1-based index of the move.
        index: usize,
        /// The move as given.
        text: String,
        /// Why.
        error: MoveError,
    },
    /// The null move without forceturn.
    #[error("move {index} \"0000\": qchess has no null move (pass); it is accepted only with forceturn, where it changes nothing")]
    NullMove {
        /// 1-based index of the move.
        index: usize,
    },
    /// A measuring move without its outcome under forcemeasure (one whose outcome could
    /// have gone either way).
    #[error("move {index} \"{text}\" measures: with forcemeasure on, give its outcome ({text}.m0 or {text}.m1)")]
    NoOutcome {
        /// 1-based index of the move.
        index: usize,
        /// The move as given.
        text: String,
    },
}

/// A search on its own thread.
struct Running {
    stop: Arc<AtomicBool>,
    /// `go infinite`: the answer waits for `stop`.
    infinite: bool,
    /// `stop` was received.
    stopped: bool,
    /// An infinite search that ended by itself: its report, until `stop`.
    held: Option<Report>,
}

/// The engine's state between commands.
pub struct Engine<W: Write> {
    out: W,
    tx: Sender<Msg>,
    rx: Receiver<Msg>,
    options: Options,
    debug: bool,
    game: Game,
    /// The last position set up: how to set it up again.
    position: (Start, Vec<String>),
    running: Option<Running>,
    /// The input ended: quit once no search runs.
    eof: bool,
}

impl<W: Write> Engine<W> {
    /// An engine writing to `out`, at the standard start.
    pub fn new(out: W) -> Engine<W> {
        let (tx, rx) = mpsc::channel();
        let options = Options::default();
        Engine {
            out,
            tx,
            rx,
            game: Game::standard(options.game_options()),
            options,
            debug: false,
            position: (Start::StartPos, Vec::new()),
            running: None,
            eof: false,
        }
    }

    /// Where input lines go (the reader thread's end of the loop's channel).
    pub fn sender(&self) -> Sender<Msg> {
        self.tx.clone()
    }

    /// The position the engine is on.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// True while a search runs (or holds an infinite search's answer).
    pub fn searching(&self) -> bool {
        self.running.is_some()
    }

    /// Handles the loop's messages until `quit`, the end of input or a broken output.
    pub fn run(&mut self) {
        while let Ok(msg) = self.rx.recv() {
            if self.handle(msg) == Flow::Quit {
                break;
            }
        }
        if let Some(r) = &self.running {
            r.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Handles the search's messages until no search runs (for callers that drive the
    /// engine line by line, as the tests do); `Flow::Quit` when nothing came for
    /// `timeout`. An infinite search must be stopped first.
    pub fn wait_search(&mut self, timeout: Duration) -> Flow {
        while self.running.as_ref().is_some_and(|r| r.held.is_none()) {
            match self.rx.recv_timeout(timeout) {
                Ok(msg) => {
                    if self.handle(msg) == Flow::Quit {
                        return Flow::Quit;
                    }
                }
                Err(_) => return Flow::Quit,
            }
        }
        Flow::Continue
    }

    /// Handles one message.
    pub fn handle(&mut self, msg: Msg) -> Flow {
        match msg {
            Msg::Line(line) => self.line(&line),
            Msg::Eof => {
                // The end of input is a `quit` once the search has answered: a running
                // search finishes (an infinite one is stopped) and prints its bestmove,
                // so `echo ... go depth 2 | qchess uqci` works.
                self.eof = true;
                if self.running.as_ref().is_some_and(|r| r.infinite) && self.stop() == Flow::Quit {
                    return Flow::Quit;
                }
                if self.running.is_some() {
                    Flow::Continue
                } else {
                    Flow::Quit
                }
            }
            Msg::Info(info) => {
                // A stopped search's last reports are dropped: its answer follows.
                if self.running.as_ref().is_some_and(|r| !r.stopped) {
                    return self.send(Output::Info(search_info(&info)));
                }
                Flow::Continue
            }
            Msg::Done(report) => match &mut self.running {
                Some(r) if r.infinite && !r.stopped => {
                    r.held = Some(report);
                    Flow::Continue
                }
                Some(_) => {
                    self.running = None;
                    match self.answer(&report) {
                        Flow::Continue if !self.eof => Flow::Continue,
                        _ => Flow::Quit,
                    }
                }
                None => Flow::Continue,
            },
        }
    }

    /// Handles one line from the front end.
    pub fn line(&mut self, line: &str) -> Flow {
        if self.debug && !line.trim().is_empty() {
            let echo = Output::InfoString(format!("debug: received {}", line.trim()));
            if self.send(echo) == Flow::Quit {
                return Flow::Quit;
            }
        }
        let Some(cmd) = Command::parse(line) else {
            return Flow::Continue;
        };
        self.command(cmd)
    }

    /// Carries out one command.
    pub fn command(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::Uci => {
                let name = format!("qchess {}", env!("CARGO_PKG_VERSION"));
                let mut lines = vec![Output::IdName(name), Output::IdAuthor(AUTHOR.into())];
                lines.extend(Options::specs().into_iter().map(Output::Option));
                lines.push(Output::UciOk);
                self.send_all(lines)
            }
            Command::Debug(on) => {
                self.debug = on;
                Flow::Continue
            }
            Command::IsReady => self.send(Output::ReadyOk),
            Command::SetOption { name, value } => {
                let before = self.options;
                if let Err(e) = self.options.set(&name, value.as_deref()) {
                    return self.error(e);
                }
                let game_changed = self.options.game_options() != before.game_options()
                    || self.options.forcemeasure != before.forcemeasure;
                if !game_changed {
                    return Flow::Continue;
                }
                let (start, moves) = self.position.clone();
                match self.set_up(&start, &moves) {
                    Ok(game) => {
                        self.game = game;
                        Flow::Continue
                    }
                    Err(e) => self.error(format!(
                        "{e}; the position is kept as it was before setoption {name}"
                    )),
                }
            }
            Command::UciNewGame => {
                self.game = Game::standard(self.options.game_options());
                self.position = (Start::StartPos, Vec::new());
                Flow::Continue
            }
            Command::Position { start, moves } => match self.set_up(&start, &moves) {
                Ok(game) => {
                    self.game = game;
                    self.position = (start, moves);
                    if self.debug {
                        let g = &self.game;
                        let state = format!(
                            "debug: position {}, ply {}, {} to move, {}",
                            g.fen(),
                            g.ply(),
                            g.to_move().name(),
                            g.status().describe()
                        );
                        return self.send(Output::InfoString(state));
                    }
                    Flow::Continue
                }
                Err(e) => self.error(format!("{e}; the position is kept as it was")),
            },
            Command::Go(go) => self.go(&go),
            Command::Stop => self.stop(),
            Command::CalcBell(x, y) => self.calcbell(&x, &y),
            Command::Quit => {
                if let Some(r) = &self.running {
                    r.stop.store(true, Ordering::Relaxed);
                }
                Flow::Quit
            }
            Command::Invalid(why) => self.error(&why),
        }
    }

    /// A game from `start` with `moves` played, under the current options.
    fn set_up(&self, start: &Start, moves: &[String]) -> Result<Game, PositionError> {
        let opts = self.options.game_options();
        let mut game = match start {
            Start::StartPos => Game::from_fen(START_FEN, opts)?,
            Start::Fen(fen) => Game::from_fen(fen, opts)?,
        };
        for (i, text) in moves.iter().enumerate() {
            let index = i + 1;
            if text == NULL_MOVE {
                if self.options.forceturn {
                    continue;
                }
                return Err(PositionError::NullMove { index });
            }
            let fail = |error| PositionError::Move {
                index,
                text: text.clone(),
                error,
            };
            let parsed = notation::parse(text).map_err(|e| fail(MoveError::from(e)))?;
            let played = game.play_text(text, &parsed).map_err(fail)?;
            // A certain measurement asks nothing: its outcome is not written.
            if self.options.forcemeasure && parsed.outcome.is_none() && played.drawn().is_some() {
                return Err(PositionError::NoOutcome {
                    index,
                    text: text.clone(),
                });
            }
        }
        Ok(game)
    }

    fn go(&mut self, go: &Go) -> Flow {
        if self.running.is_some() {
            return self.error("a search is running: send stop first");
        }
        let (wanted, bad) = budget::parse_moves(&go.searchmoves);
        for w in &bad {
            if self.error(format!("searchmoves: \"{w}\" is not a move")) == Flow::Quit {
                return Flow::Quit;
            }
        }
        let root = self.game.detached();
        let legal = crate::engine::moves::candidates(&root);
        let any = wanted
            .iter()
            .any(|w| legal.iter().any(|m| budget::same_move(w, &m.text)));
        if !go.searchmoves.is_empty() && !any {
            let note = "searchmoves: none of the moves is legal here; searching every move";
            if self.error(note) == Flow::Quit {
                return Flow::Quit;
            }
        }
        let wanted = if any { wanted } else { Vec::new() };
        let limits = budget::limits(go, root.to_move(), self.options.level, self.options.seed);
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let tx = self.tx.clone();
        std::thread::spawn(move || {
            let keep = |m: &crate::chess::MoveText| {
                wanted.is_empty() || wanted.iter().any(|w| budget::same_move(w, m))
            };
            let progress = tx.clone();
            let mut on_info = move |i: &Info| {
                let _ = progress.send(Msg::Info(i.clone()));
            };
            let report = search_among(&root, &limits, &flag, &mut on_info, &keep);
            let _ = tx.send(Msg::Done(report));
        });
        self.running = Some(Running {
            stop,
            infinite: go.infinite,
            stopped: false,
            held: None,
        });
        Flow::Continue
    }

    /// `stop`: the search ends at once; its answer comes with its last message (or now,
    /// for an infinite search that already ended). Ignored when nothing runs.
    fn stop(&mut self) -> Flow {
        let Some(r) = &mut self.running else {
            return Flow::Continue;
        };
        r.stopped = true;
        r.stop.store(true, Ordering::Relaxed);
        if let Some(report) = r.held.take() {
            self.running = None;
            return match self.answer(&report) {
                Flow::Continue if !self.eof => Flow::Continue,
                _ => Flow::Quit,
            };
        }
        Flow::Continue
    }

    /// The final `info` line and `bestmove`.
    fn answer(&mut self, report: &Report) -> Flow {
        if self.send(Output::Info(search_info(&report.info))) == Flow::Quit {
            return Flow::Quit;
        }
        self.send(Output::BestMove(report.best.clone()))
    }

    fn calcbell(&mut self, x: &str, y: &str) -> Flow {
        let square = |s: &str| crate::chess::Square::parse(s);
        let (Some(sx), Some(sy)) = (square(x), square(y)) else {
            return self.error(format!(
                "calcbell needs two squares a1..h8, not \"{x}\" \"{y}\""
            ));
        };
        if sx == sy {
            return self.error("calcbell needs two different squares");
        }
        let b = bell(self.game.simulator().backend(), sx.0 as u16, sy.0 as u16);
        let values: Vec<String> = b.o.iter().map(|v| v.to_string()).collect();
        self.send(Output::InfoString(format!(
            "calcbell {sx} {sy} {}",
            values.join(" ")
        )))
    }

    fn error(&mut self, why: impl std::fmt::Display) -> Flow {
        self.send(Output::InfoString(format!("error: {why}")))
    }

    fn send_all(&mut self, lines: Vec<Output>) -> Flow {
        for o in lines {
            if self.send(o) == Flow::Quit {
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    /// Writes one line; a closed output ends the engine.
    fn send(&mut self, o: Output) -> Flow {
        match writeln!(self.out, "{o}").and_then(|_| self.out.flush()) {
            Ok(()) => Flow::Continue,
            Err(_) => Flow::Quit,
        }
    }
}

/// A search report as an `info` line.
pub fn search_info(i: &Info) -> SearchInfo {
    let ms = i.time.as_millis() as u64;
    SearchInfo {
        depth: Some(i.depth),
        multipv: None,
        score: Some(score(i.score)),
        nodes: Some(i.nodes),
        nps: Some(i.nodes.saturating_mul(1000) / ms.max(1)),
        time: Some(ms),
        pv: i.pv.clone(),
    }
}

/// A search value as a UQCI score: `mate N` for a king captured with certainty within
/// the search (the value is `WIN` less the plies to it), else centipawns.
pub fn score(v: f64) -> Score {
    if v.abs() >= WIN - MAX_PLY as f64 {
        let plies = (WIN - v.abs()).round().max(1.0) as i64;
        let moves = (plies + 1) / 2;
        Score::Mate(if v > 0.0 { moves } else { -moves })
    } else {
        Score::Cp(v.round() as i64)
    }
}

/// Splits input into lines at `\n`, `\r\n` or a lone `\r`, reading bytes that are not
/// UTF-8 as replacement characters.
fn read_lines(mut input: impl BufRead, tx: &Sender<Msg>) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let text = String::from_utf8_lossy(&buf);
                for part in text.split(['\n', '\r']).filter(|p| !p.is_empty()) {
                    if tx.send(Msg::Line(part.to_string())).is_err() {
                        return;
                    }
                }
            }
        }
    }
    let _ = tx.send(Msg::Eof);
}

/// Runs the engine on `input` and `out` until `quit`, or the end of input and the
/// answer of a search still running then.
pub fn serve(input: impl BufRead + Send + 'static, out: impl Write) {
    let mut engine = Engine::new(out);
    let tx = engine.sender();
    std::thread::spawn(move || read_lines(input, &tx));
    engine.run();
}

/// `qchess uqci`: the engine on standard input and output.
pub fn run_stdio() {
    serve(std::io::BufReader::new(std::io::stdin()), std::io::stdout());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::GameOptions;

    const WAIT: Duration = Duration::from_secs(120);

    /// An engine writing into a buffer, and the lines it wrote since last asked.
    struct Transcript {
        engine: Engine<Vec<u8>>,
        seen: usize,
    }

    impl Transcript {
        fn new() -> Transcript {
            Transcript {
                engine: Engine::new(Vec::new()),
                seen: 0,
            }
        }

        /// Sends `line`, waits for a search it started to end (not an infinite one),
        /// and returns the new output lines.
        fn say(&mut self, line: &str) -> Vec<String> {
            let busy = self.engine.searching();
            assert_eq!(self.engine.line(line), Flow::Continue, "{line}");
            if !busy && !line.contains("infinite") {
                assert_eq!(self.engine.wait_search(WAIT), Flow::Continue, "{line}");
            }
            self.new_lines()
        }

        fn new_lines(&mut self) -> Vec<String> {
            let text = String::from_utf8(self.engine.out.clone()).unwrap();
            let lines: Vec<String> = text.lines().map(String::from).collect();
            let new = lines[self.seen..].to_vec();
            self.seen = lines.len();
            new
        }
    }

    fn bestmove(lines: &[String]) -> String {
        let last = lines.last().expect("an answer");
        match Output::parse(last) {
            Some(Output::BestMove(Some(m))) => m,
            other => panic!("not a bestmove: {other:?} in {lines:?}"),
        }
    }

    #[test]
    fn uci_identifies_and_lists_the_options() {
        let mut t = Transcript::new();
        let out = t.say("uci");
        assert_eq!(
            out[0],
            format!("id name qchess {}", env!("CARGO_PKG_VERSION"))
        );
        assert_eq!(out[1], "id author the qchess authors");
        let names: Vec<&str> = out[2..out.len() - 1]
            .iter()
            .map(|l| l.split_whitespace().nth(2).unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "forceturn",
                "forcewin",
                "forcemeasure",
                "Level",
                "Backend",
                "Seed"
            ]
        );
        assert_eq!(out.last().unwrap(), "uciok");
    }

    #[test]
    fn isready_debug_and_unknown_commands() {
        let mut t = Transcript::new();
        assert_eq!(t.say("isready"), ["readyok"]);
        assert!(t.say("xyzzy plugh").is_empty());
        assert!(t.say("stop").is_empty(), "stop without a search is ignored");
        assert!(t.say("").is_empty());
        assert!(t.say("debug on").is_empty());
        assert_eq!(
            t.say("isready"),
            ["info string debug: received isready", "readyok"]
        );
        assert!(t.say("position startpos moves e2e4")[1].starts_with(
            "info string debug: position rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"
        ));
        t.say("debug off");
        assert_eq!(t.say("isready"), ["readyok"]);
    }

    #[test]
    fn setoption_reports_what_it_cannot_set() {
        let mut t = Transcript::new();
        assert!(t.say("setoption name LEVEL value 1").is_empty());
        assert_eq!(t.engine.options.level, 1);
        let out = t.say("setoption name Level value 9");
        assert_eq!(out.len(), 1);
        assert!(
            out[0].starts_with("info string error: option Level"),
            "{out:?}"
        );
        assert!(t.say("setoption name Hash value 16")[0].contains("no option \"Hash\""));
        assert!(t.say("setoption name Backend value dense").is_empty());
        assert_eq!(
            t.engine.game().options().simulator.backend,
            crate::quantum::BackendKind::Dense,
            "the position is set up again with the new backend"
        );
    }

    #[test]
    fn position_plays_moves_and_keeps_the_last_good_one() {
        let mut t = Transcript::new();
        assert!(t
            .say("position startpos moves e2e4 e7e5 g1^f3h3")
            .is_empty());
        assert_eq!(t.engine.game().ply(), 3);
        let out = t.say("position startpos moves e2e4 e2e4");
        assert_eq!(out.len(), 1);
        assert!(
            out[0].starts_with("info string error: move 2 \"e2e4\""),
            "{out:?}"
        );
        assert!(out[0].ends_with("the position is kept as it was"));
        assert_eq!(t.engine.game().ply(), 3, "the previous position stays");
        assert!(t.say("position fen not-a-fen")[0].starts_with("info string error:"));
        assert!(t.say("position")[0].starts_with("info string error: position needs"));
        assert!(t
            .say("position fen 4k3/8/8/8/8/8/8/4K3 b - - 0 1 moves e8d8")
            .is_empty());
        assert_eq!(t.engine.game().fen(), "3k4/8/8/8/8/8/8/4K3 w - - 1 2");
        assert!(t.say("ucinewgame").is_empty());
        assert_eq!(t.engine.game().ply(), 0);
    }

    #[test]
    fn outcomes_are_forced_drawn_or_required() {
        let mut t = Transcript::new();
        // The half knight on c3 takes the pawn on d5: the capture measures the knight.
        let base = "position startpos moves b1^a3c3 d7d5 c3xd5";
        for forced in ["m0", "m1"] {
            let out = t.say(&format!("{base}.{forced}"));
            assert!(out.is_empty(), "{out:?}");
            let last = t.engine.game().history().last().unwrap();
            assert_eq!(last.played, format!("c3xd5.{forced}"));
        }
        // Without an outcome: drawn from the seed, the same each time.
        t.say(base);
        let first = t.engine.game().history().last().unwrap().played.clone();
        assert!(first.starts_with("c3xd5.m"), "{first}");
        t.say(base);
        assert_eq!(t.engine.game().history().last().unwrap().played, first);
        // forcemeasure: a measuring move must say its outcome.
        t.say(&format!("{base}.m1"));
        assert!(t.say("setoption name forcemeasure value true").is_empty());
        let out = t.say(base);
        assert!(
            out[0].contains("with forcemeasure on, give its outcome"),
            "{out:?}"
        );
        assert_eq!(t.engine.game().history().last().unwrap().played, "c3xd5.m1");
        // ... and a move that does not measure needs none, nor a capture whose
        // measurement is certain (as qchess writes it: no outcome).
        assert!(t.say("position startpos moves e2e4").is_empty());
        assert!(t.say("position startpos moves e2e4 d7d5 e4xd5").is_empty());
        assert_eq!(t.engine.game().history().last().unwrap().played, "e4xd5");
    }

    #[test]
    fn null_move_only_with_forceturn() {
        let mut t = Transcript::new();
        let out = t.say("position startpos moves e2e4 0000");
        assert!(out[0].contains("no null move"), "{out:?}");
        assert_eq!(t.engine.game().ply(), 0);
        t.say("setoption name forceturn value true");
        assert!(t.say("position startpos moves e2e4 0000 d2d4").is_empty());
        assert_eq!(t.engine.game().ply(), 2, "0000 changes nothing");
    }

    #[test]
    fn forcewin_plays_on_after_a_king_is_taken() {
        // The rook takes the king: without forcewin the game is over, no move is left.
        let taken = "position fen 4k3/p7/8/8/8/8/8/4R1K1 w - - 0 1 moves e1xe8";
        let mut t = Transcript::new();
        assert!(t.say(taken).is_empty());
        assert_eq!(t.say("go depth 1").last().unwrap(), "bestmove 0000");
        let out = t.say(&format!("{taken} a7a6"));
        assert!(out[0].starts_with("info string error: move 2"), "{out:?}");
        // With forcewin Black plays on.
        assert!(t.say("setoption name forcewin value true").is_empty());
        let mv = bestmove(&t.say("go depth 1"));
        assert!(mv.starts_with("a7"), "{mv}");
        assert!(t.say(&format!("{taken} a7a6")).is_empty());
        assert_eq!(t.engine.game().ply(), 2);
    }

    #[test]
    fn go_depth_answers_a_legal_move_with_info() {
        let mut t = Transcript::new();
        t.say("position startpos moves e2e4");
        let out = t.say("go depth 2");
        let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
        assert!(infos.len() >= 2, "{out:?}");
        assert!(infos[0].starts_with("info depth 1 score cp "), "{out:?}");
        for key in [" nodes ", " nps ", " time ", " pv "] {
            assert!(infos[1].contains(key), "{key} in {}", infos[1]);
        }
        let mv = bestmove(&out);
        let mut g = Game::standard(GameOptions::default());
        g.play("e2e4").unwrap();
        g.play(&mv).unwrap();
    }

    #[test]
    fn go_limits_and_searchmoves() {
        let mut t = Transcript::new();
        t.say("position startpos");
        assert_eq!(bestmove(&t.say("go depth 3 searchmoves a2a3")), "a2a3");
        assert_eq!(
            bestmove(&t.say("go depth 1 searchmoves g1^h3f3 zz")),
            "g1^f3h3",
            "a split matches in either target order"
        );
        let out = t.say("go depth 1 searchmoves e2e5");
        assert!(out[0].contains("none of the moves is legal"), "{out:?}");
        bestmove(&out);
        let out = t.say("go nodes 50");
        let last_info = Output::parse(&out[out.len() - 2]);
        match last_info {
            Some(Output::Info(i)) => assert!(i.nodes.unwrap() <= 60, "{i:?}"),
            other => panic!("{other:?}"),
        }
        bestmove(&t.say("go movetime 50"));
        bestmove(&t.say("go wtime 1000 btime 1000 winc 0 binc 0"));
    }

    #[test]
    fn infinite_search_waits_for_stop_and_answers_isready_meanwhile() {
        let mut t = Transcript::new();
        t.say("position startpos");
        t.say("go infinite");
        assert!(t.engine.searching());
        std::thread::sleep(Duration::from_millis(50));
        assert!(t.say("isready").contains(&"readyok".to_string()));
        let out = t.say("go depth 1");
        assert!(
            out.iter().any(|l| l.contains("error: a search is running")),
            "{out:?}"
        );
        t.engine.line("stop");
        assert_eq!(t.engine.wait_search(WAIT), Flow::Continue);
        let out = t.new_lines();
        let mv = bestmove(&out);
        Game::standard(GameOptions::default()).play(&mv).unwrap();
        assert!(!t.engine.searching());
        assert!(t.say("stop").is_empty(), "a second stop is ignored");
    }

    #[test]
    fn calcbell_gives_the_eight_values_of_analyze() {
        let mut t = Transcript::new();
        t.say("position startpos moves b1^a3c3");
        let out = t.say("calcbell a3 c3");
        assert_eq!(out.len(), 1);
        let words: Vec<&str> = out[0].split_whitespace().collect();
        assert_eq!(words[..5], ["info", "string", "calcbell", "a3", "c3"]);
        let values: Vec<f64> = words[5..].iter().map(|v| v.parse().unwrap()).collect();
        let b = bell(t.engine.game().simulator().backend(), 16, 18);
        assert_eq!(values, b.o);
        assert!(
            values.iter().any(|v| v.abs() > 0.1),
            "the halves are entangled"
        );
        assert!(t.say("calcbell a3 z9")[0].starts_with("info string error: calcbell"));
        assert!(t.say("calcbell a3 a3")[0].starts_with("info string error: calcbell"));
        assert!(t.say("calcbell")[0].starts_with("info string error: calcbell"));
    }

    #[test]
    fn quit_ends_the_loop() {
        let mut t = Transcript::new();
        assert_eq!(t.engine.line("quit"), Flow::Quit);
    }

    #[test]
    fn serve_reads_any_line_end_and_stops_at_the_end_of_input() {
        let input =
            b"uci\r\nisready\rposition startpos moves e2e4\n\xff\xfe\ngo depth 1\n".to_vec();
        let mut out = Vec::new();
        serve(std::io::Cursor::new(input), &mut out);
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.contains(&"uciok"), "{text}");
        assert!(lines.contains(&"readyok"), "{text}");
        // The search started before the end of input answers before the engine ends.
        let best = lines
            .last()
            .unwrap()
            .strip_prefix("bestmove ")
            .expect(&text);
        let mut g = Game::standard(GameOptions::default());
        g.play("e2e4").unwrap();
        g.play(best).unwrap();
    }

    #[test]
    fn scores_and_mates() {
        assert_eq!(score(35.4), Score::Cp(35));
        assert_eq!(score(-120.6), Score::Cp(-121));
        assert_eq!(score(WIN - 1.0), Score::Mate(1));
        assert_eq!(score(WIN - 3.0), Score::Mate(2));
        assert_eq!(score(-(WIN - 2.0)), Score::Mate(-1));
        assert_eq!(score(WIN * 0.9), Score::Cp((WIN * 0.9) as i64));
    }
}
