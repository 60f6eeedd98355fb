//! A room: one game, owned and played by the room, and the sessions in it. The room is
//! the only place a move is carried out and an outcome drawn: a session hands its move
//! to [`Room::play`] (through its [`Sitting`], the table of its screen) and every
//! session in the room takes the game after the move from [`Room::snapshot`]. Seats
//! stay with their players when a connection drops; the room saves itself after every
//! move, in the saved-game format of local games. Its clocks, and the endings outside
//! the moves (a flag, a resignation, a draw agreed), are its own too (`referee.rs`).

mod claim;
mod finish;
mod referee;
mod saving;
mod seats;

use referee::{run_clock, status, Referee};

use seats::{roster, Holder, SeatHolder};
pub use seats::{JoinError, Person, Want};

use super::club::Club;
use super::computer::{ComputerSeat, Computers, FALLBACK_TRIES};
use super::limits::{words_for, ServerLimits};
use crate::chess::{Color, Status};
use crate::game::clock::TimeControl;
use crate::game::table::{Decision, Seat, Table, TableNews};
use crate::game::{CancelFlag, Move, Playable, RuleSet, Setup};
use crate::quantum::BackendKind;
use crate::record;
use crate::seats::Occupant;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Instant;

/// A session's number, unique in one server run.
pub type SessionId = u64;

/// How a session is told that its room changed (it then asks for a snapshot).
pub type Wake = Arc<dyn Fn() + Send + Sync>;

/// A new game for a room under `rules` on `backend` (Quantum Chess only), its outcomes
/// drawn from `seed`; the room's limits bound the simulator.
pub fn new_game(
    rules: RuleSet,
    backend: BackendKind,
    seed: u64,
    limits: &ServerLimits,
) -> Result<Box<dyn Playable>, String> {
    let mut setup = Setup::new(rules, seed);
    setup.options.simulator = crate::quantum::SimulatorSettings {
        backend,
        ..limits.simulator
    };
    crate::variants::new_game(&setup).map_err(|e| e.to_string())
}

/// Plays `text` on `game`; a long move stops when `cancel` is set.
fn play_watched(game: &mut dyn Playable, mv: &Move, cancel: CancelFlag) -> Result<(), String> {
    game.set_cancel(Some(cancel));
    let played = game.play_move(mv).map(|_| ()).map_err(|e| e.to_string());
    game.set_cancel(None);
    played
}

/// Who is in a room, for the lobby and the room's title bar.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Roster {
    /// White's player and whether they are connected.
    pub white: Option<(Occupant, bool)>,
    /// Black's player and whether they are connected.
    pub black: Option<(Occupant, bool)>,
    /// Sessions watching.
    pub watching: usize,
    /// The side whose computer is thinking, while it thinks.
    pub thinking: Option<Color>,
}

/// A room as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The room's name.
    pub name: String,
    /// The rule system.
    pub rules: RuleSet,
    /// The backend (Quantum Chess).
    pub backend: Option<BackendKind>,
    /// Who is in it.
    pub roster: Roster,
    /// Plies played.
    pub ply: usize,
    /// The side to move, or the result.
    pub status: Status,
    /// The side to move.
    pub to_move: Color,
    /// The time control, in a game on a clock.
    pub clock: Option<TimeControl>,
    /// Whether its game counts for the ratings.
    pub rated: bool,
}

impl Summary {
    /// What it plays, in the lobby's words: "quantum sparse", "harmonics".
    pub fn variant(&self) -> String {
        match self.backend {
            Some(b) => format!("{} {}", self.rules.name(), b.name()),
            None => self.rules.name().to_string(),
        }
    }
}

/// What a session in a room needs to redraw: the game when it changed, who is there,
/// and whether the session still has the seat it came for.
pub struct Snapshot {
    /// The game, when it changed since the session last looked.
    pub game: Option<Box<dyn Playable>>,
    /// Who is there.
    pub roster: Roster,
    /// False once the session no longer holds the seat it came for.
    pub seated: bool,
    /// Why the room cannot be saved, while it cannot.
    pub unsaved: Option<String>,
    /// The versions seen: (game, everything).
    pub seen: (u64, u64),
    /// The clocks, the ending outside the moves, the draw offer standing.
    pub news: TableNews,
    /// The room's last word for every screen (a draw offered or declined), numbered.
    pub notice: (u64, String),
}

/// One session in the room.
struct Presence {
    seat: Seat,
    wake: Wake,
}

/// What can change in a room.
struct RoomState {
    game: Box<dyn Playable>,
    date: String,
    seats: [SeatHolder; 2],
    present: BTreeMap<SessionId, Presence>,
    /// A move is being carried out.
    moving: bool,
    /// The computer's seat, if the room has one.
    computer: Option<ComputerSeat>,
    /// The computer's move is asked of the workers and not yet begun.
    asked: bool,
    /// The computer is thinking.
    thinking: bool,
    /// Bumped by every move.
    game_version: u64,
    /// While the last move is not yet written to the room's files, the game before
    /// it: what snapshots show until it is (a move shown is a move kept).
    before_save: Option<Box<dyn Playable>>,
    /// Bumped by every change (moves, arrivals, departures).
    version: u64,
    /// Who opened the room (their rooms are counted).
    opened_by: Option<Person>,
    /// When a player was last connected (Unix seconds).
    last_player: u64,
    /// Why the last save failed, until a save works again.
    unsaved: Option<String>,
    /// The clocks and the endings outside the moves.
    referee: Referee,
    /// Whether the game counts for the ratings (when its players can be rated).
    rated: bool,
    /// When the game started, as the club counts time.
    started: i64,
    /// Where the finished game stands with the club's archive.
    kept: Kept,
    /// The game's name in the club's archive, made when the room is: a game written
    /// again after a crash (before `kept` was saved) is kept once.
    game_key: String,
    /// In a room made by pairing: how long each side has for its first move, and since
    /// when the side to move has had it.
    first_moves: Option<(std::time::Duration, Instant)>,
    /// In a tournament's room: the pairing its game is written to. A side that makes
    /// no first move in time then loses the game rather than aborting it.
    pairing: Option<i64>,
}

impl RoomState {
    /// The room takes `board`, the game after a move; screens are shown the game
    /// before it until the move is written ([`Room::told`] clears that).
    fn take_move(&mut self, board: Box<dyn Playable>) {
        self.before_save = Some(std::mem::replace(&mut self.game, board));
        self.game_version += 1;
    }
}

/// Where a room's finished game stands with the club's archive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kept {
    /// Not in it.
    Not,
    /// Being written.
    Writing,
    /// In it.
    Done,
}

/// A room of the server.
pub struct Room {
    name: String,
    /// Where it is saved (`None`: not saved, as in tests).
    file: Option<PathBuf>,
    state: Mutex<RoomState>,
    /// Taken while a save is written, so that saves land in order; holds what was
    /// last written (the game's and the seats' text), so that nothing is written twice.
    saving: Mutex<(String, String)>,
    /// The workers that play the computer's seat (set once the hub holds the room).
    computers: OnceLock<Arc<Computers>>,
    /// The room is closed: a search for it stops, its sessions go back to the lobby.
    closed: AtomicBool,
    /// Why it was closed, for the sessions still in it.
    closed_why: OnceLock<String>,
    /// How long a dropped name-only seat is kept for its player (seconds).
    grace: u64,
    /// The longest a claim of the win holds the seat of a player who left a rated game.
    claim_wait: std::time::Duration,
    /// The club that keeps its finished game, when the server has one.
    club: OnceLock<Arc<Club>>,
}

/// Who carries out a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mover {
    /// A session in the room, for its player.
    Session(SessionId),
    /// The room's computer.
    ComputerSeat,
}

/// A new game key for a room `name`: the room, when, and 64 random bits.
fn game_key(name: &str) -> String {
    format!("{name}-{}-{:016x}", Club::now(), rand::random::<u64>())
}

fn index(side: Color) -> usize {
    match side {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Room {
    /// A new room `name` around `board`, saved into `dir` when given.
    pub fn new(name: &str, board: Box<dyn Playable>, dir: Option<&Path>) -> Room {
        Room {
            name: name.to_string(),
            file: dir.map(|d| d.join(format!("{name}.toml"))),
            state: Mutex::new(RoomState {
                game: board,
                date: record::iso_date(record::now_secs()),
                seats: Default::default(),
                present: BTreeMap::new(),
                moving: false,
                computer: None,
                asked: false,
                thinking: false,
                // A first snapshot, from (0, 0), carries the game.
                game_version: 1,
                before_save: None,
                version: 1,
                opened_by: None,
                last_player: record::now_secs(),
                unsaved: None,
                referee: Referee::default(),
                rated: false,
                started: Club::now(),
                kept: Kept::Not,
                game_key: game_key(name),
                first_moves: None,
                pairing: None,
            }),
            saving: Mutex::new(Default::default()),
            computers: OnceLock::new(),
            closed: AtomicBool::new(false),
            closed_why: OnceLock::new(),
            grace: ServerLimits::default().seat_grace.as_secs(),
            claim_wait: ServerLimits::default().claim_wait,
            club: OnceLock::new(),
        }
    }

    /// The room with a dropped name-only seat kept `grace` for its player.
    pub fn with_grace(mut self, grace: std::time::Duration) -> Room {
        self.grace = grace.as_secs();
        self
    }

    /// The room with a claim of the win holding the seat of a player who left a rated
    /// game at most `most`.
    pub fn with_claim_wait(mut self, most: std::time::Duration) -> Room {
        self.claim_wait = most;
        self
    }

    /// The room on the time control `control` (none: no clocks).
    pub fn with_clock(self, control: Option<TimeControl>) -> Room {
        self.lock().referee = Referee::new(control);
        self
    }

    /// The room, its game rated (when both players are members on a clock).
    pub fn rated(self, rated: bool) -> Room {
        self.lock().rated = rated;
        self
    }

    /// From now on the game is aborted when a side has not made its first move within
    /// `limit` (white from now, black from white's first move); the clocks wait for the
    /// first moves.
    pub fn first_moves_within(&self, limit: std::time::Duration) {
        self.lock().first_moves = Some((limit, Instant::now()));
    }

    /// From now on the room plays tournament pairing `pairing`: its game is written to
    /// it.
    pub fn for_pairing(&self, pairing: i64) {
        self.lock().pairing = Some(pairing);
    }

    /// The tournament pairing whose game the room plays, if any.
    pub fn pairing(&self) -> Option<i64> {
        self.lock().pairing
    }

    /// Whether its game counts for the ratings (when its players can be rated).
    pub fn is_rated(&self) -> bool {
        self.lock().rated
    }

    /// The room, opened by `person`.
    pub fn opened_by(self, person: Person) -> Room {
        self.lock().opened_by = Some(person);
        self
    }

    /// Who opened the room, when it is known.
    pub fn opener(&self) -> Option<Person> {
        self.lock().opened_by.clone()
    }

    /// Whether `person` opened the room (the same key, or the same name for someone
    /// without one).
    pub fn opener_is(&self, person: &Person) -> bool {
        self.lock()
            .opened_by
            .as_ref()
            .is_some_and(|p| p.identity() == person.identity())
    }

    /// The side `person` holds here, if any (kept for them or in use elsewhere).
    pub fn side_of(&self, person: &Person) -> Option<Color> {
        let st = self.lock();
        let now = record::now_secs();
        [Color::White, Color::Black]
            .into_iter()
            .find(|&c| matches!(self.holder(&st, c, person, now), Holder::Theirs { .. }))
    }

    /// The room with `computer` in its seat.
    pub fn with_computer(self, computer: ComputerSeat) -> Room {
        self.lock().computer = Some(computer.checked());
        self
    }

    /// The room's computer seat, if it has one.
    pub fn computer(&self) -> Option<ComputerSeat> {
        self.lock().computer
    }

    /// Lets `computers` play the room's computer seat, and asks them for a move if it
    /// is the computer's turn.
    pub fn drive(self: &Arc<Self>, computers: &Arc<Computers>) {
        let _ = self.computers.set(Arc::clone(computers));
        self.nudge();
    }

    /// Asks the workers for the computer's move when it is its turn (once).
    fn nudge(self: &Arc<Self>) {
        let Some(computers) = self.computers.get() else {
            return;
        };
        {
            let mut st = self.lock();
            if self.computer_due(&st).is_none() || st.asked {
                return;
            }
            st.asked = true;
        }
        let room = Arc::downgrade(self);
        computers.ask(Box::new(move |stop| {
            if let Some(room) = room.upgrade() {
                room.computer_turn(stop);
            }
        }));
    }

    /// The computer, when it is its turn and nothing is under way for it already.
    fn computer_due(&self, st: &RoomState) -> Option<ComputerSeat> {
        let c = st.computer?;
        let due = status(st) == Status::Ongoing && st.game.to_move() == c.side;
        let busy = st.moving || st.thinking || self.closed.load(Ordering::Relaxed);
        (due && !busy).then_some(c)
    }

    /// Plays the computer's move if it is its turn: the search runs on the caller's
    /// thread (a worker of [`Computers`]), on a copy of the game, while every screen in
    /// the room shows that the computer thinks; the move then goes through the path of
    /// a player's move. Nothing is played once `stop` says so or the room closes.
    pub fn computer_turn(self: &Arc<Self>, stop: &dyn Fn() -> bool) {
        let (computer, board, clock) = {
            let mut st = self.lock();
            st.asked = false;
            let Some(c) = self.computer_due(&st) else {
                return;
            };
            st.thinking = true;
            st.version += 1;
            wake_all(&st);
            let clock = st.referee.news().clock.map(|c| c.times(Instant::now()));
            (c, st.game.clone(), clock)
        };
        let _thinking = Thinking(self);
        // A game that ended meanwhile (a flag, a resignation) stops the search too.
        let halt = || {
            stop() || self.closed.load(Ordering::Relaxed) || self.lock().referee.ending().is_some()
        };
        let (side, ply, seed) = (computer.side, board.ply(), board.setup().options.seed);
        let first = match computer.choose(board.as_ref(), seed, clock.as_ref(), &halt) {
            Ok(Some(mv)) => mv,
            Ok(None) => return,
            Err(e) => {
                return eprintln!("qchess serve: room {}: {}: {e}", self.name, computer.name())
            }
        };
        // A move the room refuses (past its size limits) is replaced by a random one.
        let tries = std::iter::once(Some(first))
            .chain((0..FALLBACK_TRIES).map(|n| ComputerSeat::fallback(board.as_ref(), seed, n)));
        for mv in tries.flatten() {
            if halt() {
                return;
            }
            let played = Move::Text(mv.clone());
            match self.carry_out(
                Mover::ComputerSeat,
                side,
                ply,
                &played,
                CancelFlag::default(),
            ) {
                Ok(_) => return,
                Err(e) => eprintln!(
                    "qchess serve: room {}: {} tried {mv}: {e}",
                    self.name,
                    computer.name()
                ),
            }
        }
    }

    /// The room's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Where the room is saved.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    fn lock(&self) -> MutexGuard<'_, RoomState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Closes the room when no player has been connected to it for `idle` at `now`
    /// (Unix seconds), or for `lonely` when it never had two players (a seat still
    /// free: a room opened and left): its searches stop and its sessions go back to
    /// the lobby. Whether it closed.
    pub fn close_if_idle(
        &self,
        now: u64,
        idle: std::time::Duration,
        lonely: std::time::Duration,
    ) -> bool {
        let st = self.lock();
        let connected = st.seats.iter().any(|h| h.session.is_some());
        let limit = if referee::seated(&st) {
            idle
        } else {
            lonely.min(idle)
        };
        if connected || now.saturating_sub(st.last_player) < limit.as_secs() {
            return false;
        }
        let why = format!("no player was in it for {}", words_for(limit));
        self.close(&st, why);
        true
    }

    /// Since when (Unix seconds) the room has been lonely: nobody in it, not even a
    /// watcher, and a seat that never had a player; `None` otherwise.
    pub fn lonely_since(&self) -> Option<u64> {
        let st = self.lock();
        (st.present.is_empty() && !referee::seated(&st)).then_some(st.last_player)
    }

    /// Closes the lonely room to make way for a new one on a full server.
    pub fn give_way(&self) {
        let st = self.lock();
        self.close(&st, "the server was full and it had nobody in it".into());
    }

    fn close(&self, st: &RoomState, why: String) {
        let _ = self.closed_why.set(why);
        self.closed.store(true, Ordering::Relaxed);
        wake_all(st);
    }

    /// Whether each side made a move: a game worth keeping.
    pub fn played(&self) -> bool {
        self.lock().game.ply() >= 2
    }

    /// Whether the room was closed.
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Relaxed)
    }

    /// Why the room was closed, when it was closed for a reason its sessions are told.
    pub fn closed_why(&self) -> Option<&str> {
        self.closed_why.get().map(String::as_str)
    }

    /// What changed since `seen` (as returned by the last snapshot), for `session`;
    /// `None` when nothing did.
    pub fn snapshot(&self, session: SessionId, seen: (u64, u64)) -> Option<Snapshot> {
        let st = self.lock();
        if st.version == seen.1 {
            return None;
        }
        let seated = match st.present.get(&session).map(|p| p.seat) {
            Some(Seat::Plays(c)) => st.seats[index(c)].session == Some(session),
            Some(Seat::Watches) => true,
            None => false,
        };
        // A screen woken by the move's start may look before the move is on disk: it
        // is shown the game before the move until then.
        let (game, game_version) = match &st.before_save {
            Some(before) => (before, st.game_version - 1),
            None => (&st.game, st.game_version),
        };
        Some(Snapshot {
            game: (game_version != seen.0).then(|| game.clone()),
            roster: roster(&st),
            seated,
            unsaved: st.unsaved.clone(),
            seen: (game_version, st.version),
            news: TableNews {
                left: claim::news(&st, self.claim_wait),
                ..st.referee.news()
            },
            notice: st.referee.notice().clone(),
        })
    }

    /// The room as the lobby lists it.
    pub fn summary(&self) -> Summary {
        let st = self.lock();
        // Like the screens, the lobby counts a move once it is written.
        let shown = st.before_save.as_ref().unwrap_or(&st.game);
        Summary {
            name: self.name.clone(),
            rules: st.game.rules(),
            backend: st.game.setup().backend(),
            roster: roster(&st),
            ply: shown.ply(),
            status: status(&st),
            to_move: shown.to_move(),
            clock: st.referee.control(),
            rated: st.rated,
        }
    }

    /// Whether nobody is in the room.
    pub fn empty(&self) -> bool {
        self.lock().present.is_empty()
    }

    /// Whether the room has nothing left to keep for anyone: nobody in it, and its game
    /// not started (a tournament's game is owed its result), over, or the room closed
    /// (an aborted game).
    pub fn closable(&self) -> bool {
        let st = self.lock();
        let unplayed = st.game.ply() == 0 && st.pairing.is_none();
        let done = unplayed || status(&st) != Status::Ongoing || self.is_closed();
        st.present.is_empty() && done
    }

    /// Carries out `text` for `side` on behalf of `session`, if that session holds the
    /// seat to move and the game still stands at `ply`. The move runs on the caller's
    /// thread outside the room's lock (other sessions keep drawing); the room then takes
    /// the new game, wakes every session in it and saves. The outcome of a measurement is
    /// drawn here, by the room's game; a move naming its outcome is refused. The mover's
    /// clock stops while the move is carried out; a mover whose time ran out loses on
    /// time instead.
    pub fn play(
        self: &Arc<Self>,
        session: SessionId,
        side: Color,
        ply: usize,
        mv: &Move,
        cancel: CancelFlag,
    ) -> Result<Box<dyn Playable>, String> {
        self.carry_out(Mover::Session(session), side, ply, mv, cancel)
    }

    /// Carries out `text` for `side` on behalf of `mover` (see [`Room::play`]); then
    /// asks for the computer's move if it is its turn.
    fn carry_out(
        self: &Arc<Self>,
        mover: Mover,
        side: Color,
        ply: usize,
        mv: &Move,
        cancel: CancelFlag,
    ) -> Result<Box<dyn Playable>, String> {
        let mut board = {
            let mut st = self.lock();
            let holds = match mover {
                Mover::Session(s) => st.seats[index(side)].session == Some(s),
                Mover::ComputerSeat => st.computer.is_some_and(|c| c.side == side),
            };
            if !holds {
                return Err(format!("you no longer hold {} in this room", side.name()));
            }
            if let Some(e) = st.referee.ending() {
                return Err(format!("the game is over: {}", e.reason));
            }
            if st.game.status() != Status::Ongoing {
                return Err("the game is over".into());
            }
            if st.moving {
                return Err("a move is being carried out: wait for it".into());
            }
            if st.game.to_move() != side || st.game.ply() != ply {
                return Err("the game moved on meanwhile: look again".into());
            }
            if st.game.forced_outcome(mv.given()).is_some() {
                return Err(format!(
                    "{mv}: outcomes are drawn by the room: type the move without one"
                ));
            }
            if let Err(lost) = st.referee.entered(side, Instant::now()) {
                drop(st);
                self.told();
                return Err(format!("the game is over: {}", lost.reason));
            }
            st.moving = true;
            if st.referee.control().is_some() {
                // Every screen shows the mover's clock stopped.
                st.version += 1;
                wake_all(&st);
            }
            st.game.clone()
        };
        let mut moving = Moving(self, true);
        // The room's size limits are the simulator's: a move past them is refused.
        play_watched(board.as_mut(), mv, cancel)?;
        {
            let mut st = self.lock();
            if let Some(e) = st.referee.ending() {
                // Resigned, agreed or flagged while the move was played: it is not.
                return Err(format!("the game ended meanwhile: {}", e.reason));
            }
            st.referee.played(side, board.ply());
            if let Some((_, since)) = &mut st.first_moves {
                // The other side's first move is due from now.
                *since = Instant::now();
            }
            st.take_move(board.clone());
            // The next move may come as soon as anyone sees this one.
            st.moving = false;
            st.thinking = false;
            moving.1 = false;
            if let Mover::Session(_) = mover {
                st.last_player = record::now_secs();
            }
            run_clock(&mut st, Instant::now());
        }
        // On disk before anyone sees it: a move shown is a move kept.
        self.told();
        self.nudge();
        Ok(board)
    }
}

/// Clears the room's "a move is being carried out" mark however the move ends (a
/// refusal, a cancel, a panic in the worker), unless the move's success cleared it
/// already (the second field then is false); the mover's clock then runs again.
struct Moving<'a>(&'a Room, bool);

impl Drop for Moving<'_> {
    fn drop(&mut self) {
        if self.1 {
            let mut st = self.0.lock();
            st.moving = false;
            st.referee.refused();
            if st.referee.control().is_some() {
                run_clock(&mut st, Instant::now());
                st.version += 1;
                wake_all(&st);
            }
        }
    }
}

/// Clears the room's "the computer is thinking" mark however the search ends, unless
/// its move cleared it already, and tells the screens.
struct Thinking<'a>(&'a Room);

impl Drop for Thinking<'_> {
    fn drop(&mut self) {
        let mut st = self.0.lock();
        if st.thinking {
            st.thinking = false;
            st.version += 1;
            wake_all(&st);
        }
    }
}

fn wake_all(st: &RoomState) {
    for p in st.present.values() {
        (p.wake)();
    }
}

/// A session's place at a room: the [`Table`] its screen plays moves at.
pub struct Sitting {
    /// The room.
    pub room: Arc<Room>,
    /// The session.
    pub session: SessionId,
}

impl Table<Box<dyn Playable>> for Sitting {
    fn play(
        &self,
        side: Color,
        ply: usize,
        mv: &Move,
        cancel: CancelFlag,
    ) -> Result<Box<dyn Playable>, String> {
        self.room.play(self.session, side, ply, mv, cancel)
    }

    fn decide(&self, side: Color, decision: Decision) -> Result<(), String> {
        self.room.decide(self.session, side, decision)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A move as typed.
    fn mv(text: &str) -> Move {
        Move::Text(text.into())
    }
    use crate::seats::strength::Strength;
    use std::sync::atomic::{AtomicUsize, Ordering};

    pub(super) fn person(name: &str) -> Person {
        Person {
            name: name.into(),
            key: None,
            from: None,
            member: None,
        }
    }

    /// A member of `club` named `name`, signed in with a key of their own (`n` tells
    /// the keys apart).
    pub(super) fn member(club: &Club, name: &str, n: u8) -> Person {
        let key = crate::server::club::KeyText {
            fingerprint: format!("SHA256:{n}"),
            openssh: format!("ssh-ed25519 K{n}"),
        };
        let m = club.join(name, &key, 0).expect("a member");
        Person {
            member: Some(m.id),
            key: Some(key.fingerprint),
            ..person(name)
        }
    }

    fn counter() -> (Wake, Arc<AtomicUsize>) {
        let n = Arc::new(AtomicUsize::new(0));
        let m = Arc::clone(&n);
        (
            Arc::new(move || {
                m.fetch_add(1, Ordering::Relaxed);
            }),
            n,
        )
    }

    fn room() -> Arc<Room> {
        let limits = ServerLimits::default();
        let board = new_game(RuleSet::Quantum, BackendKind::Sparse, 7, &limits).unwrap();
        Arc::new(Room::new("r", board, None))
    }

    #[test]
    fn first_two_names_play_the_rest_watch_and_seats_are_kept() {
        let r = room();
        let (w, _) = counter();
        assert_eq!(
            r.join(1, person("ann"), Want::Any, w.clone()),
            Ok(Seat::Plays(Color::White))
        );
        assert_eq!(
            r.join(2, person("bo"), Want::Any, w.clone()),
            Ok(Seat::Plays(Color::Black))
        );
        assert_eq!(
            r.join(3, person("cy"), Want::Any, w.clone()),
            Ok(Seat::Watches)
        );
        assert_eq!(
            r.join(4, person("cy"), Want::Side(Color::White), w.clone()),
            Err(JoinError::Taken {
                side: "white",
                by: "ann".into()
            })
        );
        // Ann drops and comes back: her seat.
        r.leave(1);
        assert_eq!(
            r.summary().roster.white,
            Some((Occupant::Person("ann".into()), false))
        );
        assert_eq!(
            r.join(5, person("ann"), Want::Any, w.clone()),
            Ok(Seat::Plays(Color::White))
        );
        assert_eq!(
            r.summary().roster.white,
            Some((Occupant::Person("ann".into()), true))
        );
        assert_eq!(
            r.join(6, person("ann"), Want::Side(Color::Black), w),
            Err(JoinError::OtherSide("white"))
        );
    }

    #[test]
    fn a_key_seat_wants_the_key() {
        let keyed = Person {
            name: "ann".into(),
            key: Some("SHA256:a".into()),
            from: None,
            member: None,
        };
        let with_key = |name: &str| Person {
            name: name.into(),
            key: Some("SHA256:a".into()),
            from: None,
            member: None,
        };
        assert!(keyed.same(&with_key("ann")));
        assert!(!keyed.same(&person("ann")), "the name alone");
        assert!(!keyed.same(&with_key("bo")), "another name");
        assert!(person("ann").same(&person("ann")));
        assert!(person("ann").same(&with_key("ann")));
        // One key, two names: two players, white and black.
        let r = room();
        let (w, _) = counter();
        let seats: Vec<_> = [(1, "ann"), (2, "bo")]
            .into_iter()
            .map(|(id, name)| r.join(id, with_key(name), Want::Any, w.clone()))
            .collect();
        let sides = [Color::White, Color::Black].map(|c| Ok(Seat::Plays(c)));
        assert_eq!(seats, sides);
        assert!(r.snapshot(1, (0, 0)).unwrap().seated);
    }

    #[test]
    fn a_dropped_seat_is_kept_for_its_name_only_for_the_grace_time() {
        let limits = ServerLimits::default();
        let board = || new_game(RuleSet::Quantum, BackendKind::Sparse, 7, &limits).unwrap();
        let (w, _) = counter();
        let keyed = Person {
            name: "bo".into(),
            key: Some("SHA256:b".into()),
            from: None,
            member: None,
        };
        // No grace: a name-only seat is free as soon as its player drops; a keyed one
        // is kept.
        let r = Room::new("g", board(), None).with_grace(std::time::Duration::ZERO);
        r.join(1, person("ann"), Want::Any, w.clone()).unwrap();
        r.join(2, keyed.clone(), Want::Any, w.clone()).unwrap();
        r.leave(1);
        r.leave(2);
        assert_eq!(
            r.join(3, person("cy"), Want::Side(Color::White), w.clone()),
            Ok(Seat::Plays(Color::White)),
            "ann's seat lapsed"
        );
        assert!(matches!(
            r.join(4, person("dee"), Want::Side(Color::Black), w.clone()),
            Err(JoinError::Taken { .. })
        ));
        assert_eq!(
            r.join(5, keyed, Want::Any, w.clone()),
            Ok(Seat::Plays(Color::Black))
        );
        assert_eq!(
            r.summary().roster.white,
            Some((Occupant::Person("cy".into()), true))
        );
        // The default grace: ann's seat waits for her.
        let r = Room::new("h", board(), None);
        r.join(1, person("ann"), Want::Any, w.clone()).unwrap();
        r.leave(1);
        assert!(r
            .join(2, person("cy"), Want::Side(Color::White), w.clone())
            .is_err());
        assert_eq!(
            r.join(3, person("ann"), Want::Any, w),
            Ok(Seat::Plays(Color::White))
        );
    }

    #[test]
    fn only_the_seat_to_move_plays_and_everyone_is_woken() {
        let r = room();
        let (w, woken) = counter();
        r.join(1, person("ann"), Want::Any, w.clone()).unwrap();
        r.join(2, person("bo"), Want::Any, w.clone()).unwrap();
        r.join(3, person("cy"), Want::Watch, w).unwrap();
        let go = CancelFlag::default;
        for (session, side, ply, text, why) in [
            (2, Color::Black, 0, "e7e5", "not black's turn"),
            (3, Color::White, 0, "e2e4", "a watcher"),
            (1, Color::White, 1, "e2e4", "stale ply"),
            (1, Color::White, 0, "b1^a3c3.m1", "a forced outcome"),
        ] {
            assert!(
                r.play(session, side, ply, &mv(text), go()).is_err(),
                "{why}"
            );
        }
        let before = woken.load(Ordering::Relaxed);
        let board = r.play(1, Color::White, 0, &mv("e2e4"), go()).unwrap();
        assert_eq!(board.ply(), 1);
        assert_eq!(woken.load(Ordering::Relaxed), before + 3);
        // The watcher's snapshot carries the move; a second look finds nothing new.
        let snap = r.snapshot(3, (0, 0)).unwrap();
        assert_eq!(snap.game.map(|b| b.ply()), Some(1));
        assert!(r.snapshot(3, snap.seen).is_none());
        // A second connection of ann never takes her seat from the first: it watches,
        // and asking for white by name is refused.
        let (w, _) = counter();
        assert_eq!(
            r.join(9, person("ann"), Want::Any, w.clone()),
            Ok(Seat::Watches)
        );
        assert_eq!(r.side_of(&person("ann")), Some(Color::White));
        assert_eq!(
            r.join(10, person("ann"), Want::Side(Color::White), w),
            Err(JoinError::Elsewhere("white"))
        );
        assert!(r.snapshot(1, (0, 0)).unwrap().seated);
        assert!(r.play(9, Color::Black, 1, &mv("e7e5"), go()).is_err());
    }

    #[test]
    fn a_move_is_on_disk_before_any_screen_is_woken() {
        let dir = std::env::temp_dir().join(format!("qchess-room-order-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let limits = ServerLimits::default();
        let board = new_game(RuleSet::Quantum, BackendKind::Sparse, 7, &limits).unwrap();
        let r = Arc::new(Room::new("o1", board, Some(&dir)));
        let file = dir.join("o1.toml");
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        let wake: Wake = Arc::new(move || {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            log.lock().unwrap().push(text.contains("e2e4"));
        });
        r.join(1, person("ann"), Want::Any, wake).unwrap();
        seen.lock().unwrap().clear();
        r.play(1, Color::White, 0, &mv("e2e4"), CancelFlag::default())
            .unwrap();
        let seen = seen.lock().unwrap().clone();
        assert!(
            !seen.is_empty() && seen.iter().all(|&saved| saved),
            "{seen:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_screen_looking_while_a_move_is_written_is_shown_the_game_before_it() {
        let r = room();
        let (w, _) = counter();
        r.join(1, person("ann"), Want::Any, w).unwrap();
        let first = r.snapshot(1, (0, 0)).unwrap();
        // The room has taken the move and not yet written it, as between the two
        // halves of a move (the screen was woken by the move's start).
        {
            let mut st = r.lock();
            let mut board = st.game.clone();
            play_watched(board.as_mut(), &mv("e2e4"), CancelFlag::default()).unwrap();
            st.take_move(board);
            st.version += 1;
        }
        let looked = r.snapshot(1, first.seen).unwrap();
        assert!(looked.game.is_none(), "the screen keeps its game");
        assert_eq!(
            r.snapshot(1, (0, 0)).unwrap().game.map(|b| b.ply()),
            Some(0)
        );
        assert_eq!((r.summary().ply, r.summary().to_move), (0, Color::White));
        // Written: now it is shown.
        r.told();
        let shown = r.snapshot(1, looked.seen).unwrap();
        assert_eq!(shown.game.map(|b| b.ply()), Some(1));
        assert_eq!(r.summary().ply, 1);
        assert!(r.lock().before_save.is_none());
    }

    #[test]
    fn a_move_past_the_rooms_size_limit_is_refused() {
        let mut limits = ServerLimits::default();
        limits.simulator.sparse_limit = 1;
        let board = new_game(RuleSet::Quantum, BackendKind::Sparse, 7, &limits).unwrap();
        let r = Arc::new(Room::new("r", board, None));
        let (w, _) = counter();
        r.join(1, person("ann"), Want::Any, w).unwrap();
        let go = CancelFlag::default;
        let refused = r.play(1, Color::White, 0, &mv("b1^a3c3"), go());
        assert!(refused.is_err(), "a split needs two branches");
        assert_eq!(r.summary().ply, 0, "the game is unchanged");
        assert_eq!(
            r.play(1, Color::White, 0, &mv("e2e4"), go())
                .map(|b| b.ply()),
            Ok(1)
        );
    }

    /// Waits (at most a minute) until `room` has played `ply` plies.
    fn reaches(room: &Room, ply: usize) {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while room.summary().ply < ply {
            assert!(std::time::Instant::now() < until, "no ply {ply}");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }

    #[test]
    fn the_computer_plays_its_seat_saves_and_comes_back() {
        let dir = std::env::temp_dir().join(format!("qchess-room-cpu-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let limits = ServerLimits::default();
        let stopping = Arc::new(AtomicBool::new(false));
        let computers = Computers::start(1, Arc::clone(&stopping));
        let board = new_game(RuleSet::Quantum, BackendKind::Sparse, 3, &limits).unwrap();
        let computer = ComputerSeat {
            side: Color::White,
            level: Some(1),
        };
        let r = Arc::new(Room::new("c1", board, Some(&dir)).with_computer(computer));
        let (w, _) = counter();
        // The computer's seat is nobody's, whatever they ask.
        assert_eq!(
            r.join(1, person("ann"), Want::Any, w.clone()),
            Ok(Seat::Plays(Color::Black))
        );
        assert!(matches!(
            r.join(2, person("bo"), Want::Side(Color::White), w.clone()),
            Err(JoinError::Taken { by, .. }) if by == "qchess level 1"
        ));
        assert!(r
            .play(1, Color::White, 0, &mv("e2e4"), CancelFlag::default())
            .is_err());
        // White to move: the computer plays as soon as it is driven.
        r.drive(&computers);
        reaches(&r, 1);
        let ply = r.summary().ply;
        r.play(1, Color::Black, ply, &mv("e7e5"), CancelFlag::default())
            .unwrap();
        reaches(&r, 3);
        // The save after the computer's move lands before this one.
        r.save().unwrap();
        let saved = std::fs::read_to_string(dir.join("c1.toml")).unwrap();
        assert!(saved.contains("white = \"qchess level 1\""), "{saved}");
        assert!(saved.contains("black = \"ann\""), "{saved}");
        // Brought back, it is the computer's room still, and the computer plays on.
        let back = Arc::new(Room::restore(&dir.join("c1.toml"), &limits).unwrap());
        assert_eq!(back.computer(), Some(computer));
        assert_eq!(
            back.summary().roster.white,
            Some((Occupant::Computer(Strength::Level(1)), true))
        );
        back.join(3, person("ann"), Want::Any, w).unwrap();
        back.drive(&computers);
        back.play(3, Color::Black, 3, &mv("d7d6"), CancelFlag::default())
            .unwrap();
        reaches(&back, 5);
        // Once the server stops, the computer plays no more.
        stopping.store(true, Ordering::Relaxed);
        back.play(3, Color::Black, 5, &mv("h7h6"), CancelFlag::default())
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(200));
        assert_eq!(back.summary().ply, 6);
        assert_eq!(back.summary().roster.thinking, None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_computer_spends_its_time_from_the_rooms_clock() {
        let limits = ServerLimits::default();
        let stopping = Arc::new(AtomicBool::new(false));
        let computers = Computers::start(1, Arc::clone(&stopping));
        let board = new_game(RuleSet::Quantum, BackendKind::Sparse, 3, &limits).unwrap();
        let computer = ComputerSeat {
            side: Color::White,
            level: Some(5),
        };
        // Three seconds each: it spends a small share of them.
        let r = Room::new("c2", board, None)
            .with_computer(computer)
            .with_clock("0.05+0".parse().ok());
        let r = Arc::new(r);
        let (w, _) = counter();
        r.join(1, person("ann"), Want::Any, w).unwrap();
        r.drive(&computers);
        reaches(&r, 1);
        let clock = r.snapshot(1, (0, 0)).unwrap().news.clock.unwrap();
        let left = clock.times(std::time::Instant::now()).of(Color::White);
        assert!(
            left > std::time::Duration::from_secs(2),
            "it kept most of its time: {left:?}"
        );
        assert_eq!(clock.running(), Some(Color::Black));
        stopping.store(true, Ordering::Relaxed);
    }

    #[test]
    fn saved_rooms_come_back_with_their_seats() {
        let dir = std::env::temp_dir().join(format!("qchess-room-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let limits = ServerLimits::default();
        let board = new_game(RuleSet::Quantum, BackendKind::Sparse, 3, &limits).unwrap();
        let r = Arc::new(Room::new("r1", board, Some(&dir)));
        let (w, _) = counter();
        let keyed = Person {
            name: "ann".into(),
            key: Some("SHA256:k".into()),
            from: None,
            member: None,
        };
        r.join(1, keyed.clone(), Want::Any, w.clone()).unwrap();
        r.join(2, person("bo"), Want::Any, w.clone()).unwrap();
        r.play(1, Color::White, 0, &mv("b1^a3c3"), CancelFlag::default())
            .unwrap();
        r.play(2, Color::Black, 1, &mv("e7e5"), CancelFlag::default())
            .unwrap();
        let back = Room::restore(&dir.join("r1.toml"), &limits).unwrap();
        assert_eq!(back.name(), "r1");
        let s = back.summary();
        assert_eq!(s.ply, 2);
        assert_eq!(
            s.roster.white,
            Some((Occupant::Person("ann".into()), false))
        );
        assert_eq!(
            back.join(5, person("ann"), Want::Any, w.clone()),
            Ok(Seat::Watches),
            "ann's seat wants her key"
        );
        assert_eq!(
            back.join(6, keyed, Want::Any, w),
            Ok(Seat::Plays(Color::White))
        );
        back.leave(5);
        back.leave(6);
        assert!(!back.closable(), "an unfinished game is kept");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// What a seat might do after the end: a move, a resignation, a draw offer and its
    /// answers, or nothing but the referee looking at the clocks.
    #[derive(Clone, Copy, Debug)]
    enum After {
        Play(Color, &'static str),
        Decide(Color, Decision),
        Clock,
    }

    fn after() -> impl proptest::strategy::Strategy<Value = After> {
        use proptest::prelude::*;
        let side = prop_oneof![Just(Color::White), Just(Color::Black)];
        let text = prop_oneof![Just("c4"), Just("e1d1"), Just("e2e3"), Just("e8e7")];
        let decision = prop_oneof![
            Just(Decision::Resign),
            Just(Decision::OfferDraw),
            Just(Decision::AcceptDraw),
            Just(Decision::DeclineDraw),
        ];
        prop_oneof![
            (side.clone(), text).prop_map(|(s, t)| After::Play(s, t)),
            (side, decision).prop_map(|(s, d)| After::Decide(s, d)),
            Just(After::Clock),
        ]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 6, ..Default::default() })]

        /// A room's finished game never changes: after black took white's king, no
        /// move, decision or look at the clocks changes its saved file.
        #[test]
        fn nothing_changes_a_finished_game_in_a_room(seq in proptest::collection::vec(after(), 1..30)) {
            let dir = std::env::temp_dir().join(format!(
                "qchess-room-over-{}-{:?}",
                std::process::id(),
                std::thread::current().id()
            ));
            let _ = std::fs::remove_dir_all(&dir);
            let fen = "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1";
            let board = crate::chess::Game::from_fen(fen, Default::default()).unwrap();
            // 0.6 s each: a clock that ran again after the end would flag below.
            let r = Arc::new(
                Room::new("over", board.into(), Some(&dir)).with_clock("0.01+0".parse().ok()),
            );
            let (w, _) = counter();
            r.join(1, person("ann"), Want::Any, w.clone()).unwrap();
            r.join(2, person("bo"), Want::Any, w).unwrap();
            r.play(1, Color::White, 0, &mv("e1e2"), CancelFlag::default()).unwrap();
            r.play(2, Color::Black, 1, &mv("d2e2"), CancelFlag::default()).unwrap();
            let file = dir.join("over.toml");
            let before = std::fs::read(&file).unwrap();
            proptest::prop_assert!(String::from_utf8_lossy(&before).contains("black_wins"));
            for a in seq {
                let session = |side| if side == Color::White { 1 } else { 2 };
                match a {
                    After::Play(side, text) => {
                        let ply = r.summary().ply;
                        let played = r.play(session(side), side, ply, &mv(text), CancelFlag::default());
                        proptest::prop_assert!(played.is_err(), "{text} was played");
                    }
                    After::Decide(side, d) => {
                        proptest::prop_assert!(r.decide(session(side), side, d).is_err());
                    }
                    After::Clock => {
                        r.look_at_clock();
                    }
                }
            }
            std::thread::sleep(std::time::Duration::from_millis(700));
            proptest::prop_assert!(!r.look_at_clock(), "a flag fell after the end");
            proptest::prop_assert_eq!(std::fs::read(&file).unwrap(), before);
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}
