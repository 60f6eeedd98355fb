//! What every session of the server shares: the rooms by name (created, listed,
//! closed, saved and brought back after a restart), the workers that play the rooms'
//! computers, the referee that looks at the rooms' clocks, the count of open sessions,
//! the time control of a new room, the themes a session may pick, and the club with the
//! names its members hold.

use super::club::{Club, KeyText};
use super::computer::{ComputerSeat, Computers};
use super::incoming::Incoming;
use super::limits::{Counter, Full, PerWindow, ServerLimits, Ticket};
use super::live::LiveSessions;
use super::matchmaker::{Match, Matchmaker, Paired};
use super::name_book::{import_claims, NameBook};
use super::names::{self, BadRoomName};
use super::offers::Offers;
use super::pairing::{Pool, SeekError};
use super::room::{new_game, Person, Room, SessionId, Summary};
use crate::chess::Color;
use crate::club::{Category, ClubError, MemberId, Rating};
use crate::engine::player::SearchSlots;
use crate::game::clock::TimeControl;
use crate::game::RuleSet;
use crate::quantum::BackendKind;
use crate::style::theme::Theme;
use crate::ui::opponent::HintRules;
use std::collections::BTreeMap;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::SyncSender;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::{Duration, Instant};

mod offering;
mod publishing;
pub mod tournaments;

/// The time control of a new room unless the server says otherwise (`qchess serve
/// --clock`): ten minutes each, five seconds added per move.
pub const DEFAULT_CLOCK: TimeControl = TimeControl {
    base: Duration::from_secs(600),
    increment: Duration::from_secs(5),
};

/// How often the referee looks at the rooms' clocks: a flag falls at most this late.
const REFEREE_LOOKS: Duration = Duration::from_millis(50);

/// The window of [`ServerLimits::rooms_per_minute`].
const MINUTE: Duration = Duration::from_secs(60);

/// The window of [`ServerLimits::joins_per_hour`].
const HOUR: Duration = Duration::from_secs(3600);

/// What a new room plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The rule system.
    pub rules: RuleSet,
    /// The simulator backend (Quantum Chess).
    pub backend: BackendKind,
    /// The computer in a seat, when given (it starts playing at once when it has white).
    pub computer: Option<ComputerSeat>,
    /// The time control (none: no clocks).
    pub clock: Option<TimeControl>,
    /// Whether the game counts for the ratings (when both players are members and
    /// there is a clock).
    pub rated: bool,
}

/// The open rooms, by [`names::room_key`]: `Aa` and `aA` are one room (and would be one
/// file on a file system that ignores case).
type Rooms = Mutex<BTreeMap<String, Arc<Room>>>;

/// Why a room could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum HubError {
    /// The server has as many rooms as it allows.
    #[error("the server has its {0} rooms already: join one, or try later")]
    TooManyRooms(usize),
    /// The name is taken.
    #[error("a room called {0} exists already")]
    Exists(String),
    /// The person opened as many rooms as one may.
    #[error("you have {0} rooms open already: finish or leave one first")]
    YoursFull(usize),
    /// Players without a key from this block of addresses opened as many rooms as
    /// they may.
    #[error("{0} rooms are open already from your network without a key: join one, or sign in with an SSH key")]
    BlockFull(usize),
    /// This block of addresses opened too many rooms in the last minute.
    #[error("{0} rooms were opened from your network in the last minute: wait a little")]
    TooFast(usize),
    /// The name is not a room name.
    #[error("{0}")]
    BadName(#[from] BadRoomName),
    /// The game could not be set up.
    #[error("{0}")]
    Game(String),
}

/// The server's shared state.
pub struct Hub {
    rooms: Arc<Rooms>,
    /// The time control of a room opened without a choice (`ssh -t host ROOM`), and
    /// the one the lobby's form offers first.
    pub clock: Option<TimeControl>,
    /// What sessions and rooms may use.
    pub limits: ServerLimits,
    /// Where rooms are saved (`None`: nowhere).
    rooms_dir: Option<PathBuf>,
    /// The themes a session may pick, by name, and the one it starts with.
    pub themes: Vec<(String, Theme)>,
    /// Index of the starting theme in [`Hub::themes`].
    pub default_theme: usize,
    sessions: Arc<Counter>,
    live: LiveSessions,
    next_id: AtomicU64,
    /// The server is stopping: rooms stay as they are, to come back on the next start,
    /// and the computers' searches stop.
    stopping: Arc<AtomicBool>,
    computers: Arc<Computers>,
    /// The hint searches of every session.
    hints: Arc<SearchSlots>,
    /// When each block of addresses opened its rooms of the last minute.
    opened: Mutex<PerWindow>,
    /// When each block of addresses made its club accounts of the last hour.
    joined: Mutex<PerWindow>,
    /// The club members' names and the names in use.
    names: Mutex<NameBook>,
    /// What the operator hears at start about the club and its names.
    names_problem: Vec<String>,
    /// The club: accounts, ratings and the archive (none: everyone plays casual games
    /// under a name held while they are here).
    club: Option<Arc<Club>>,
    /// Who waits in the pairing pools, and where the paired go.
    matchmaker: Matchmaker,
    /// Numbers the rooms made by pairing.
    next_pairing: AtomicU64,
    /// The custom seeks and the challenges open.
    offers: Offers,
    /// Who is in the club's tournaments from which session, and their games' rooms.
    desk: tournaments::Desk,
    /// This server among the club's, and the other servers' rooms.
    notice: publishing::Notice,
}

/// Who a client signing in is here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignIn {
    /// The name they play under.
    pub name: String,
    /// Their account, when they signed in with a member's key.
    pub member: Option<MemberId>,
    /// What the lobby tells them first about their name.
    pub note: Option<NameNote>,
}

/// What the lobby tells a player first about the name they signed in with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameNote {
    /// The words.
    pub text: String,
    /// Whether the name they asked for was refused.
    pub refused: bool,
}

/// Puts the room files at `path` aside, and says so: the room was not brought back
/// because of `e`.
fn aside_words(path: &Path, e: &str) -> String {
    match put_aside(path) {
        Ok(to) => format!(
            "not brought back: {e} (the room stays closed; its files are put aside as {})",
            to.display()
        ),
        Err(why) => format!(
            "not brought back: {e} (the room stays closed; cannot put its files aside: {why})"
        ),
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Hub {
    /// A hub with no rooms yet; rooms are saved into `rooms_dir`; no clocks unless
    /// [`Hub::with_clock`] says so. Its referee looks at the rooms' clocks until the hub
    /// is dropped or the server stops.
    pub fn new(
        limits: ServerLimits,
        rooms_dir: Option<PathBuf>,
        themes: Vec<(String, Theme)>,
        default_theme: usize,
    ) -> Hub {
        let themes = if themes.is_empty() {
            vec![("classic".to_string(), Theme::default())]
        } else {
            themes
        };
        let stopping = Arc::new(AtomicBool::new(false));
        let computers = Computers::start(limits.computer_searches, Arc::clone(&stopping));
        let hints = Arc::new(SearchSlots::new(limits.hint_searches));
        let rooms = Arc::new(Mutex::new(BTreeMap::new()));
        let (watched, stop) = (Arc::downgrade(&rooms), Arc::clone(&stopping));
        let spawned = std::thread::Builder::new()
            .name("qchess-referee".into())
            .spawn(move || referee(&watched, &stop));
        if let Err(e) = spawned {
            eprintln!("qchess serve: cannot start the clocks' referee: {e}");
        }
        Hub {
            rooms,
            clock: None,
            limits,
            rooms_dir,
            default_theme: default_theme.min(themes.len() - 1),
            themes,
            sessions: Arc::new(Counter::default()),
            live: LiveSessions::default(),
            opened: Mutex::new(PerWindow::new(MINUTE)),
            joined: Mutex::new(PerWindow::new(HOUR)),
            names: Mutex::new(NameBook::default()),
            names_problem: Vec::new(),
            club: None,
            matchmaker: Matchmaker::default(),
            next_pairing: AtomicU64::new(1),
            offers: Offers::default(),
            desk: tournaments::Desk::default(),
            notice: publishing::Notice::default(),
            next_id: AtomicU64::new(1),
            stopping,
            computers,
            hints,
        }
    }

    /// The hub with `club`: its members' names are theirs, and the names claimed by keys
    /// of a server before the club (`names.toml` beside the rooms folder) move into it.
    pub fn with_club(mut self, club: Club) -> Hub {
        let old = self
            .rooms_dir
            .as_deref()
            .and_then(Path::parent)
            .map(|server| server.join("names.toml"));
        if let Some(file) = old {
            self.names_problem.extend(import_claims(&file, &club));
        }
        match club.names() {
            Ok(names) => *lock(&self.names) = NameBook::new(names),
            Err(e) => self.names_problem.push(format!(
                "the club's names could not be read ({e}): they are not protected until a restart"
            )),
        }
        self.club = Some(Arc::new(club));
        self
    }

    /// The club, when the server keeps one.
    pub fn club(&self) -> Option<&Club> {
        self.club.as_deref()
    }

    /// The hub with new rooms on `clock` unless their opener picks another.
    pub fn with_clock(mut self, clock: Option<TimeControl>) -> Hub {
        self.clock = clock;
        self
    }

    /// Who may ask for hints in the rooms, and the hint searches all sessions share.
    pub fn hint_rules(&self) -> HintRules {
        HintRules {
            shared: Some(Arc::clone(&self.hints)),
            watchers: self.limits.watcher_hints,
        }
    }

    /// Hint searches running now, over all sessions.
    pub fn hints_running(&self) -> usize {
        self.hints.running()
    }

    /// Brings back the rooms saved in the rooms folder; says which could not be (and
    /// what the club's start had to say). A
    /// room that cannot be brought back (its game or its seats unreadable) stays
    /// closed, and its files are put aside as `NAME.broken-STAMP.toml` (and
    /// `.seats.toml`), so that a new room of its name never writes over them. Temporary
    /// files that a killed server left are removed.
    pub fn restore(&self) -> Vec<String> {
        let mut problems: Vec<String> = self.names_problem.clone();
        let Some(dir) = &self.rooms_dir else {
            return problems;
        };
        let Ok(listing) = std::fs::read_dir(dir) else {
            return problems;
        };
        let mut files: Vec<PathBuf> = Vec::new();
        for path in listing.filter_map(Result::ok).map(|e| e.path()) {
            if is_left_over(&path) {
                let _ = std::fs::remove_file(&path);
            } else if is_room_file(&path) {
                files.push(path);
            }
        }
        files.sort();
        let mut rooms = lock(&self.rooms);
        for path in files {
            match Room::restore(&path, &self.limits) {
                Ok(room) if rooms.contains_key(&names::room_key(room.name())) => {
                    // Two files whose names differ only in case (written before room
                    // names ignored case): the first stays, the other is put aside.
                    let why = format!(
                        "{} differs only in case from a room brought back",
                        room.name()
                    );
                    problems.push(aside_words(&path, &why));
                }
                Ok(room) => {
                    // A computer to move goes on playing; a game that ended before the
                    // club kept it is kept now.
                    let room = Arc::new(room);
                    room.drive(&self.computers);
                    if let Some(club) = &self.club {
                        room.keep_in(Arc::clone(club));
                    }
                    rooms.insert(names::room_key(room.name()), room);
                }
                Err(e) => problems.push(aside_words(&path, &e.to_string())),
            }
        }
        drop(rooms);
        self.sweep(crate::record::now_secs());
        problems
    }

    /// Closes the rooms in which no player has been connected for the room idle time
    /// at `now` (Unix seconds), keeping their games with the finished ones; their
    /// watchers go back to the lobby. The names of the rooms closed.
    pub fn sweep(&self, now: u64) -> Vec<String> {
        let mut rooms = lock(&self.rooms);
        let idle: Vec<Arc<Room>> = rooms
            .values()
            .filter(|r| r.close_if_idle(now, self.limits.room_idle, self.limits.lonely_room))
            .cloned()
            .collect();
        for r in &idle {
            rooms.remove(&names::room_key(r.name()));
        }
        drop(rooms);
        idle.iter()
            .map(|r| {
                self.put_away(r);
                r.name().to_string()
            })
            .collect()
    }

    /// A new session's number.
    pub fn next_session(&self) -> SessionId {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Counts a game session from `addr` in, within the limits.
    pub fn admit(&self, addr: IpAddr) -> Result<Ticket, Full> {
        self.sessions
            .admit(addr, self.limits.max_sessions, self.limits.per_address)
    }

    /// Game sessions open now.
    pub fn sessions_open(&self) -> usize {
        self.sessions.open()
    }

    /// Remembers how to reach session `id` of `person` (to close it when the server
    /// stops, or when their key may no longer sign in).
    pub fn register(&self, id: SessionId, tx: SyncSender<Incoming>, person: &Person) {
        self.live.insert(id, tx, person);
    }

    /// Forgets session `id`.
    pub fn unregister(&self, id: SessionId) {
        self.live.remove(id);
    }

    /// Ends the sessions whose key was banned since they signed in, or no longer signs
    /// in as their account (removed from it, the account deleted), telling each why.
    pub fn end_revoked_sessions(&self) {
        if let Some(club) = &self.club {
            if let Err(e) = self.live.end_revoked(club) {
                eprintln!("qchess serve: the club could not be asked about keys: {e}");
            }
        }
    }

    /// Signs in a client who asked for the name `asked` (none: not a valid name) with
    /// `key` (none: without one). A key of a member signs in as that member; a new key
    /// with a free name joins the club under it; anyone else plays casual games, under
    /// the name asked for when it is free, else as a guest. `block` is the client's
    /// block of addresses: it may make [`ServerLimits::joins_per_hour`] accounts an
    /// hour.
    pub fn sign_in(&self, asked: Option<&str>, key: Option<&KeyText>, block: &str) -> SignIn {
        let guest = |note: Option<NameNote>| SignIn {
            name: names::guest(),
            member: None,
            note,
        };
        let refused = |why: String, guest: &str| NameNote {
            text: format!(
                "{why}: you are {guest} here (sign in as another name, or with that name's key)"
            ),
            refused: true,
        };
        if let (Some(club), Some(key)) = (&self.club, key) {
            match club.owner(&key.fingerprint) {
                Ok(Some(m)) => {
                    let note =
                        asked
                            .filter(|a| !a.eq_ignore_ascii_case(&m.name))
                            .map(|a| NameNote {
                                text: format!(
                                    "your key is {}'s in the club, so you are {} here, not {a}",
                                    m.name, m.name
                                ),
                                refused: false,
                            });
                    return SignIn {
                        name: m.name,
                        member: Some(m.id),
                        note,
                    };
                }
                Ok(None) => {}
                Err(e) => eprintln!("qchess serve: cannot look a key up in the club: {e}"),
            }
        }
        let Some(asked) = asked else {
            return guest(None);
        };
        let name = match lock(&self.names).take(asked, None) {
            Ok(name) => name,
            Err(why) => {
                let mut g = guest(None);
                g.note = Some(refused(why.to_string(), &g.name));
                return g;
            }
        };
        let (Some(club), Some(key)) = (&self.club, key) else {
            return SignIn {
                name,
                member: None,
                note: None,
            };
        };
        let joins = self.limits.joins_per_hour;
        if lock(&self.joined)
            .count(block, joins, Instant::now())
            .is_err()
        {
            let text = format!(
                "{joins} club accounts were made from your network in the last hour: you play casual games as {name}; try again later to join"
            );
            return SignIn {
                name,
                member: None,
                note: Some(NameNote {
                    text,
                    refused: false,
                }),
            };
        }
        match club.join(&name, key, Club::now()) {
            Ok(m) => {
                lock(&self.names).claim(&m.name, m.id);
                SignIn {
                    name: m.name,
                    member: Some(m.id),
                    note: None,
                }
            }
            Err(ClubError::NameTaken(_)) => {
                let mut g = guest(None);
                let why = format!("the name {name} belongs to another player's key");
                g.note = Some(refused(why, &g.name));
                g
            }
            Err(e) => {
                eprintln!("qchess serve: {name} could not join the club: {e}");
                SignIn {
                    name,
                    member: None,
                    note: Some(NameNote {
                        text: "the club's database failed: you play casual games today".into(),
                        refused: false,
                    }),
                }
            }
        }
    }

    /// A member deleted their account in session `by`: their name is free from now on,
    /// `by` goes on without the account, and their other sessions end.
    pub fn forget_member(&self, member: MemberId, by: SessionId) {
        lock(&self.names).forget(member);
        self.live.left_club(by);
        self.end_revoked_sessions();
    }

    /// A session of `name` runs (its name is in use until [`Hub::name_left`]).
    pub fn name_entered(&self, name: &str) {
        lock(&self.names).enter(name);
    }

    /// A session of `name` ended: when it was their last, the challenges to them go.
    pub fn name_left(&self, name: &str) {
        let mut names = lock(&self.names);
        names.leave(name);
        if names.here(name).is_none() {
            drop(names);
            self.offers.gone(name);
        }
    }

    /// Every room, as the lobby lists them.
    pub fn summaries(&self) -> Vec<Summary> {
        let rooms: Vec<Arc<Room>> = lock(&self.rooms).values().cloned().collect();
        rooms.iter().map(|r| r.summary()).collect()
    }

    /// The room called `name`, if there is one.
    pub fn room(&self, name: &str) -> Option<Arc<Room>> {
        lock(&self.rooms).get(&names::room_key(name)).cloned()
    }

    /// A new room `name` opened by `by`, playing as `plan` says.
    pub fn create(&self, name: &str, by: &Person, plan: Plan) -> Result<Arc<Room>, HubError> {
        let name = names::room(name)?;
        let mut rooms = lock(&self.rooms);
        if let Some(there) = rooms.get(&names::room_key(&name)) {
            return Err(HubError::Exists(there.name().to_string()));
        }
        self.add(&mut rooms, &name, by, plan)
    }

    /// What a room opened without a choice plays: Quantum Chess, sparse, on the
    /// server's clock.
    pub fn plain(&self) -> Plan {
        Plan {
            rules: RuleSet::Quantum,
            backend: self.limits.simulator.backend,
            computer: None,
            clock: self.clock,
            rated: false,
        }
    }

    /// The room called `name`, opened by `by` ([`Hub::plain`]) when there is none: the
    /// room of `ssh -t host ROOM`.
    pub fn open(&self, name: &str, by: &Person) -> Result<Arc<Room>, HubError> {
        let name = names::room(name)?;
        let mut rooms = lock(&self.rooms);
        if let Some(room) = rooms.get(&names::room_key(&name)) {
            return Ok(Arc::clone(room));
        }
        self.add(&mut rooms, &name, by, self.plain())
    }

    fn add(
        &self,
        rooms: &mut BTreeMap<String, Arc<Room>>,
        name: &str,
        by: &Person,
        plan: Plan,
    ) -> Result<Arc<Room>, HubError> {
        let theirs = rooms.values().filter(|r| r.opener_is(by)).count();
        if theirs >= self.limits.rooms_per_player {
            return Err(HubError::YoursFull(theirs));
        }
        if let (None, Some(block)) = (&by.key, &by.from) {
            // Names cost nothing: keyless rooms are counted by where they come from.
            let from_there = rooms
                .values()
                .filter(|r| {
                    r.opener()
                        .is_some_and(|p| p.key.is_none() && p.from.as_ref() == Some(block))
                })
                .count();
            if from_there >= self.limits.rooms_per_network {
                return Err(HubError::BlockFull(from_there));
            }
        }
        if let Some(block) = &by.from {
            self.opening_allowed(block)?;
        }
        self.build(rooms, name, by, plan)
    }

    /// Makes the room `name` opened by `by` as `plan` says, on a server not full (a
    /// lonely room gives way), and lets its computer play.
    fn build(
        &self,
        rooms: &mut BTreeMap<String, Arc<Room>>,
        name: &str,
        by: &Person,
        plan: Plan,
    ) -> Result<Arc<Room>, HubError> {
        if rooms.len() >= self.limits.max_rooms {
            self.make_way(rooms)?;
        }
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let board =
            new_game(plan.rules, plan.backend, seed, &self.limits).map_err(HubError::Game)?;
        let mut room = Room::new(name, board, self.rooms_dir.as_deref())
            .with_grace(self.limits.seat_grace)
            .with_claim_wait(self.limits.claim_wait)
            .with_clock(plan.clock)
            .rated(plan.rated)
            .opened_by(by.clone());
        if let Some(c) = plan.computer {
            room = room.with_computer(c);
        }
        let room = Arc::new(room);
        rooms.insert(names::room_key(name), Arc::clone(&room));
        room.drive(&self.computers);
        if let Some(club) = &self.club {
            room.keep_in(Arc::clone(club));
        }
        Ok(room)
    }

    /// `person`'s rating in `category` (a guest's, and without a club anyone's: a new
    /// player's).
    fn rating_of(&self, person: &Person, category: Category) -> Rating {
        match (&self.club, person.member) {
            (Some(club), Some(m)) => club.store().rating(m, category).unwrap_or(Rating::NEW),
            _ => Rating::NEW,
        }
    }

    /// Session `id` of `person` waits for an opponent in `pool` (guests in casual
    /// pools only); pairs at once when it can.
    pub fn seek(&self, id: SessionId, person: &Person, pool: Pool) -> Result<(), SeekError> {
        let rating = self.rating_of(person, Category::of(pool.control));
        let now = Instant::now();
        self.matchmaker
            .seek(id, person.clone(), pool, rating.rating, now)?;
        self.pair_waiting();
        Ok(())
    }

    /// Session `id` waits no more.
    pub fn unseek(&self, id: SessionId) {
        self.matchmaker.leave(id);
    }

    /// The pool session `id` waits in.
    pub fn seeking(&self, id: SessionId) -> Option<Pool> {
        self.matchmaker.pool_of(id)
    }

    /// Every pool with how many wait in it.
    pub fn pools_waiting(&self) -> Vec<(Pool, usize)> {
        self.matchmaker.counts()
    }

    /// The room session `id` was paired into (or why none could be opened), once;
    /// pairs whoever can be paired first (the range widens as they wait).
    pub fn paired(&self, id: SessionId) -> Option<Paired> {
        self.pair_waiting();
        self.matchmaker.take(id)
    }

    /// Opens a room for every pair found now, and wakes its two sessions.
    fn pair_waiting(&self) {
        let mut coins = coins();
        for m in self
            .matchmaker
            .pair(Instant::now(), || coins.next().unwrap_or(true))
        {
            self.settle(&m);
        }
    }

    /// Opens the room of `m`, tells both sessions where it is, and wakes them.
    fn settle(&self, m: &Match) {
        let paired = self.open_paired(m).map_err(|e| e.to_string());
        self.matchmaker.settle(m, &paired);
        for id in [m.white.0, m.black.0] {
            self.live.wake(id);
        }
    }

    /// Session `id` ended: it waits no more, its seeks and challenges go, and it
    /// leaves its tournament.
    pub fn session_ended(&self, id: SessionId) {
        self.matchmaker.leave(id);
        self.offers.forget(id);
        self.leave_tournament(id);
    }

    /// A room for a pair: Quantum Chess on the pool's clock, rated when the pool is,
    /// both seats held for their players, aborted when a first move does not come in
    /// time.
    fn open_paired(&self, m: &Match) -> Result<Arc<Room>, HubError> {
        let kind = if m.pool.rated { "rated" } else { "casual" };
        let plan = Plan {
            rules: RuleSet::Quantum,
            backend: BackendKind::Sparse,
            computer: None,
            clock: Some(m.pool.control),
            rated: m.pool.rated,
        };
        let mut rooms = lock(&self.rooms);
        let name = loop {
            let n = self.next_pairing.fetch_add(1, Ordering::Relaxed);
            let name = format!("{kind}-{n}");
            if !rooms.contains_key(&names::room_key(&name)) {
                break name;
            }
        };
        let room = self.build(&mut rooms, &name, &m.white.1, plan)?;
        drop(rooms);
        room.first_moves_within(self.limits.first_move);
        room.reserve(Color::White, m.white.1.clone());
        room.reserve(Color::Black, m.black.1.clone());
        Ok(room)
    }

    /// Counts a room opened from `block` now, unless that block opened
    /// [`ServerLimits::rooms_per_minute`] rooms in the last minute.
    fn opening_allowed(&self, block: &str) -> Result<(), HubError> {
        lock(&self.opened)
            .count(block, self.limits.rooms_per_minute, Instant::now())
            .map_err(HubError::TooFast)
    }

    /// On a full server, closes the room that has been lonely longest (nobody in it,
    /// a seat never taken) so that a new one can open; its game is kept with the
    /// finished ones. Refuses when no room is lonely.
    fn make_way(&self, rooms: &mut BTreeMap<String, Arc<Room>>) -> Result<(), HubError> {
        let oldest = rooms
            .iter()
            .filter_map(|(k, r)| r.lonely_since().map(|t| (t, k.clone())))
            .min();
        let Some((_, key)) = oldest else {
            return Err(HubError::TooManyRooms(self.limits.max_rooms));
        };
        if let Some(room) = rooms.remove(&key) {
            room.give_way();
            self.put_away(&room);
        }
        Ok(())
    }

    /// After a session left `room`: a room with nobody in it and nothing to keep
    /// (no move yet, or the game over) is closed and its files put away.
    pub fn left(&self, room: &Arc<Room>) {
        if self.stopping.load(Ordering::Relaxed) {
            return;
        }
        let mut rooms = lock(&self.rooms);
        let key = names::room_key(room.name());
        let ours = rooms.get(&key).is_some_and(|r| Arc::ptr_eq(r, room));
        if ours && room.closable() {
            rooms.remove(&key);
            drop(rooms);
            self.put_away(room);
        }
    }

    /// Puts a closed room's game with the finished ones, within the archive's bounds
    /// ([`super::archive::prune`]).
    fn put_away(&self, room: &Room) {
        room.archive();
        if let Some(dir) = &self.rooms_dir {
            let l = &self.limits;
            super::archive::prune(&dir.join("finished"), l.archive_games, l.archive_bytes);
        }
    }

    /// Saves every room; what could not be saved, a line a room.
    pub fn save_all(&self) -> Vec<String> {
        let rooms: Vec<Arc<Room>> = lock(&self.rooms).values().cloned().collect();
        rooms
            .iter()
            .filter_map(|r| r.save().err().map(|e| format!("room {}: {e}", r.name())))
            .collect()
    }

    /// Tells every session to end, with `why` printed on its terminal; the rooms they
    /// leave stay, for the next start.
    pub fn close_sessions(&self, why: &str) {
        self.stopping.store(true, Ordering::Relaxed);
        self.live.close_all(why);
    }
}

/// Coins drawn from the clock's nanoseconds: who has white when nobody chose.
fn coins() -> impl Iterator<Item = bool> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    (0..).map(move |n: u32| (nanos >> (n % 32)) & 1 == 1)
}

/// Looks at the clocks of `rooms` every [`REFEREE_LOOKS`] until they are dropped or
/// the server stops: a flag falls with nobody at the keyboard.
fn referee(rooms: &Weak<Rooms>, stopping: &AtomicBool) {
    loop {
        std::thread::sleep(REFEREE_LOOKS);
        let Some(rooms) = rooms.upgrade() else {
            return;
        };
        if stopping.load(Ordering::Relaxed) {
            return;
        }
        let open: Vec<Arc<Room>> = lock(&rooms).values().cloned().collect();
        drop(rooms);
        for room in open {
            room.look_at_clock();
        }
    }
}

/// Whether `path` is a temporary file a save left behind (`.NAME.toml.tmp-PID`).
fn is_left_over(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with('.') && n.contains(".toml.tmp-"))
}

/// Moves a room's files that cannot be brought back aside (`NAME.broken-STAMP.toml`,
/// its seats file likewise); where the game file went.
fn put_aside(game: &Path) -> std::io::Result<PathBuf> {
    let stem = game.file_stem().and_then(|s| s.to_str()).unwrap_or("room");
    let stamp = crate::record::now_secs();
    let to = game.with_file_name(format!("{stem}.broken-{stamp}.toml"));
    std::fs::rename(game, &to)?;
    let seats = game.with_extension("seats.toml");
    if seats.exists() {
        std::fs::rename(&seats, to.with_extension("seats.toml"))?;
    }
    Ok(to)
}

/// Whether `path` is a room's game file (`NAME.toml`, not its seats file).
fn is_room_file(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    path.is_file()
        && name
            .strip_suffix(".toml")
            .is_some_and(|stem| names::room(stem).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_join_the_club_a_few_an_hour_from_one_network() {
        let dir = std::env::temp_dir().join(format!("qchess-hub-join-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let limits = ServerLimits {
            joins_per_hour: 2,
            ..ServerLimits::default()
        };
        let club = Club::open(&dir.join("club.sqlite")).unwrap();
        let hub = Hub::new(limits, None, Vec::new(), 0).with_club(club);
        let key = |n: u8| KeyText {
            fingerprint: format!("SHA256:{n}"),
            openssh: format!("ssh-ed25519 K{n}"),
        };
        let ann = hub.sign_in(Some("ann"), Some(&key(1)), "192.0.2.0/24");
        assert!(ann.member.is_some() && ann.note.is_none());
        assert!(hub
            .sign_in(Some("bo"), Some(&key(2)), "192.0.2.0/24")
            .member
            .is_some());
        let cy = hub.sign_in(Some("cy"), Some(&key(3)), "192.0.2.0/24");
        assert_eq!((cy.name.as_str(), cy.member), ("cy", None));
        assert!(cy.note.unwrap().text.contains("try again later"));
        // Another network, and a member coming back, are not held up.
        assert!(hub
            .sign_in(Some("cy"), Some(&key(3)), "198.51.100.0/24")
            .member
            .is_some());
        let back = hub.sign_in(Some("ann"), Some(&key(1)), "192.0.2.0/24");
        assert_eq!(back.member, ann.member);
        // Keyless, a member's name is refused; the name of no member is played casual.
        let k = hub.sign_in(Some("ann"), None, "192.0.2.0/24");
        assert!(k.name.starts_with("guest-") && k.note.unwrap().refused);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn rooms_are_limited_named_and_closed() {
        let limits = ServerLimits {
            max_rooms: 2,
            ..ServerLimits::default()
        };
        let hub = Hub::new(limits, None, Vec::new(), 0);
        let ann = &person("ann", None);
        let a = hub
            .create("a", ann, plan(RuleSet::Quantum, BackendKind::Dense))
            .unwrap();
        assert!(matches!(
            hub.create("a", ann, plan(RuleSet::Haft, BackendKind::Sparse)),
            Err(HubError::Exists(_))
        ));
        assert!(matches!(
            hub.create("../x", ann, plan(RuleSet::Haft, BackendKind::Sparse)),
            Err(HubError::BadName(_))
        ));
        assert!(Arc::ptr_eq(&hub.open("a", ann).unwrap(), &a));
        let b = hub.open("b", &person("bo", None)).unwrap();
        let names = || -> Vec<String> { hub.summaries().into_iter().map(|s| s.name).collect() };
        // Full: a room with someone in it stays; the room lonely longest (nobody in
        // it, a seat never taken) gives way to a new one.
        b.join(
            1,
            person("bo", None),
            super::super::room::Want::Any,
            Arc::new(|| {}),
        )
        .unwrap();
        let c = hub.open("c", ann).unwrap();
        assert!(a.is_closed());
        assert_eq!(
            a.closed_why(),
            Some("the server was full and it had nobody in it")
        );
        assert_eq!(names(), ["b", "c"]);
        c.join(
            2,
            person("ann", None),
            super::super::room::Want::Any,
            Arc::new(|| {}),
        )
        .unwrap();
        assert!(matches!(hub.open("d", ann), Err(HubError::TooManyRooms(2))));
        // Nobody in it and no move: closed.
        c.leave(2);
        hub.left(&c);
        assert!(hub.room("c").is_none());
    }

    #[test]
    fn rooms_are_counted_by_network_and_by_minute() {
        let limits = ServerLimits {
            rooms_per_network: 2,
            rooms_per_minute: 3,
            ..ServerLimits::default()
        };
        let hub = Hub::new(limits, None, Vec::new(), 0);
        let from = |name: &str, key: Option<&str>, block: &str| Person {
            name: name.into(),
            key: key.map(str::to_string),
            from: Some(block.into()),
            member: None,
        };
        let here = "127.0.0.0/24";
        // New names from one network without a key: two rooms, not one per name.
        hub.open("n1", &from("n1", None, here)).unwrap();
        hub.open("n2", &from("n2", None, here)).unwrap();
        let e = hub.open("n3", &from("n3", None, here)).err().unwrap();
        assert!(matches!(e, HubError::BlockFull(2)), "{e}");
        // A key counts for itself; another network for itself.
        hub.open("k1", &from("k", Some("SHA256:k"), here)).unwrap();
        hub.open("o1", &from("o", None, "10.0.0.0/24")).unwrap();
        // Three rooms from here within the minute: the fourth waits.
        let e = hub
            .open("k2", &from("k", Some("SHA256:k"), here))
            .err()
            .unwrap();
        assert!(matches!(e, HubError::TooFast(3)), "{e}");
    }

    fn plan(rules: RuleSet, backend: BackendKind) -> Plan {
        Plan {
            rules,
            backend,
            computer: None,
            clock: None,
            rated: false,
        }
    }

    fn person(name: &str, key: Option<&str>) -> Person {
        Person {
            name: name.into(),
            key: key.map(str::to_string),
            from: None,
            member: None,
        }
    }

    #[test]
    fn one_person_opens_a_few_rooms_and_idle_rooms_close() {
        let limits = ServerLimits {
            rooms_per_player: 2,
            room_idle: std::time::Duration::from_secs(3600),
            ..ServerLimits::default()
        };
        let hub = Hub::new(limits, None, Vec::new(), 0);
        let sq = person("sq", None);
        let keyed = |name: &str| person(name, Some("SHA256:k"));
        hub.open("s1", &sq).unwrap();
        hub.open("s2", &sq).unwrap();
        let refused = hub.open("s3", &sq).err().map(|e| e.to_string());
        assert_eq!(
            refused.as_deref(),
            Some("you have 2 rooms open already: finish or leave one first")
        );
        // Joining a room someone else opened is not opening one.
        assert!(hub.open("s1", &sq).is_ok());
        // A key counts as one person whatever the name; another name is another person.
        hub.open("k1", &keyed("a")).unwrap();
        hub.open("k2", &keyed("b")).unwrap();
        assert!(hub.open("k3", &keyed("c")).is_err());
        hub.open("o1", &person("bo", None)).unwrap();
        // An hour with no player in them: every room closes; a room someone sits in
        // stays.
        let sitting = hub.room("o1").unwrap();
        sitting
            .join(
                1,
                person("bo", None),
                super::super::room::Want::Any,
                Arc::new(|| {}),
            )
            .unwrap();
        let now = crate::record::now_secs();
        assert!(hub.sweep(now + 60).is_empty(), "not an hour yet");
        let mut closed = hub.sweep(now + 3601);
        closed.sort();
        assert_eq!(closed, ["k1", "k2", "s1", "s2"]);
        assert!(hub.room("s1").is_none());
        assert!(hub.room("o1").is_some());
        // Their rooms closed, they may open more.
        assert!(hub.open("s3", &sq).is_ok());
    }

    #[test]
    fn room_files_are_told_from_seat_files() {
        let dir = std::env::temp_dir().join(format!("qchess-hub-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for f in ["r1.toml", "r1.seats.toml", ".r1.toml.tmp-1", "x y.toml"] {
            std::fs::write(dir.join(f), "").unwrap();
        }
        let mut found: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| is_room_file(p))
            .collect();
        found.sort();
        assert_eq!(found, vec![dir.join("r1.toml")]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
