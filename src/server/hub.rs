//! What every session of the server shares: the rooms by name (created, listed,
//! closed, saved and brought back after a restart), the workers that play the rooms'
//! computers, the count of open sessions, and the themes a session may pick.

use super::computer::{Computer, Computers};
use super::limits::{Counter, Full, Limits, Ticket};
use super::names::{self, BadRoomName};
use super::room::{Board, Room, SessionId, Summary};
use super::session::Incoming;
use crate::quantum::BackendKind;
use crate::ui::theme::Theme;
use crate::variants::RuleSet;
use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::SyncSender;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Why a room could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum HubError {
    /// The server has as many rooms as it allows.
    #[error("the server has its {0} rooms already: join one, or try later")]
    TooManyRooms(usize),
    /// The name is taken.
    #[error("a room called {0} exists already")]
    Exists(String),
    /// The name is not a room name.
    #[error("{0}")]
    BadName(#[from] BadRoomName),
    /// The game could not be set up.
    #[error("{0}")]
    Game(String),
}

/// The server's shared state.
pub struct Hub {
    rooms: Mutex<BTreeMap<String, Arc<Room>>>,
    /// What sessions and rooms may use.
    pub limits: Limits,
    /// Where rooms are saved (`None`: nowhere).
    rooms_dir: Option<PathBuf>,
    /// The themes a session may pick, by name, and the one it starts with.
    pub themes: Vec<(String, Theme)>,
    /// Index of the starting theme in [`Hub::themes`].
    pub default_theme: usize,
    sessions: Arc<Counter>,
    live: Mutex<HashMap<SessionId, SyncSender<Incoming>>>,
    next_id: AtomicU64,
    /// The server is stopping: rooms stay as they are, to come back on the next start,
    /// and the computers' searches stop.
    stopping: Arc<AtomicBool>,
    computers: Arc<Computers>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Hub {
    /// A hub with no rooms yet; rooms are saved into `rooms_dir`.
    pub fn new(
        limits: Limits,
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
        Hub {
            rooms: Mutex::new(BTreeMap::new()),
            limits,
            rooms_dir,
            default_theme: default_theme.min(themes.len() - 1),
            themes,
            sessions: Arc::new(Counter::default()),
            live: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            stopping,
            computers,
        }
    }

    /// Brings back the rooms saved in the rooms folder; says which files could not be
    /// read (they are left where they are).
    pub fn restore(&self) -> Vec<String> {
        let Some(dir) = &self.rooms_dir else {
            return Vec::new();
        };
        let Ok(listing) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        let mut problems = Vec::new();
        let mut files: Vec<PathBuf> = listing
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| is_room_file(p))
            .collect();
        files.sort();
        let mut rooms = lock(&self.rooms);
        for path in files {
            match Room::restore(&path, &self.limits) {
                Ok(room) => {
                    // A computer to move goes on playing.
                    let room = Arc::new(room);
                    room.drive(&self.computers);
                    rooms.insert(room.name().to_string(), room);
                }
                Err(e) => problems.push(e.to_string()),
            }
        }
        problems
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

    /// Remembers how to reach session `id` (to close it when the server stops).
    pub fn register(&self, id: SessionId, tx: SyncSender<Incoming>) {
        lock(&self.live).insert(id, tx);
    }

    /// Forgets session `id`.
    pub fn unregister(&self, id: SessionId) {
        lock(&self.live).remove(&id);
    }

    /// Every room, as the lobby lists them.
    pub fn summaries(&self) -> Vec<Summary> {
        let rooms: Vec<Arc<Room>> = lock(&self.rooms).values().cloned().collect();
        rooms.iter().map(|r| r.summary()).collect()
    }

    /// The room called `name`, if there is one.
    pub fn room(&self, name: &str) -> Option<Arc<Room>> {
        lock(&self.rooms).get(name).cloned()
    }

    /// A new room `name` playing `rules` on `backend`, with `computer` in a seat when
    /// given (it starts playing at once when it has white).
    pub fn create(
        &self,
        name: &str,
        rules: RuleSet,
        backend: BackendKind,
        computer: Option<Computer>,
    ) -> Result<Arc<Room>, HubError> {
        let name = names::room(name)?;
        let mut rooms = lock(&self.rooms);
        if rooms.contains_key(&name) {
            return Err(HubError::Exists(name));
        }
        self.add(&mut rooms, &name, rules, backend, computer)
    }

    /// The room called `name`, created (Quantum Chess, sparse) when there is none: the
    /// room of `ssh -t host ROOM`.
    pub fn open(&self, name: &str) -> Result<Arc<Room>, HubError> {
        let name = names::room(name)?;
        let mut rooms = lock(&self.rooms);
        if let Some(room) = rooms.get(&name) {
            return Ok(Arc::clone(room));
        }
        self.add(
            &mut rooms,
            &name,
            RuleSet::Quantum,
            BackendKind::Sparse,
            None,
        )
    }

    fn add(
        &self,
        rooms: &mut BTreeMap<String, Arc<Room>>,
        name: &str,
        rules: RuleSet,
        backend: BackendKind,
        computer: Option<Computer>,
    ) -> Result<Arc<Room>, HubError> {
        if rooms.len() >= self.limits.max_rooms {
            return Err(HubError::TooManyRooms(self.limits.max_rooms));
        }
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let board = Board::new(rules, backend, seed, &self.limits).map_err(HubError::Game)?;
        let mut room = Room::new(name, board, self.rooms_dir.as_deref());
        if let Some(c) = computer {
            room = room.with_computer(c);
        }
        let room = Arc::new(room);
        rooms.insert(name.to_string(), Arc::clone(&room));
        room.drive(&self.computers);
        Ok(room)
    }

    /// After a session left `room`: a room with nobody in it and nothing to keep
    /// (no move yet, or the game over) is closed and its files put away.
    pub fn left(&self, room: &Arc<Room>) {
        if self.stopping.load(Ordering::Relaxed) {
            return;
        }
        let mut rooms = lock(&self.rooms);
        let ours = rooms.get(room.name()).is_some_and(|r| Arc::ptr_eq(r, room));
        if ours && room.closable() {
            rooms.remove(room.name());
            drop(rooms);
            room.archive();
        }
    }

    /// Saves every room.
    pub fn save_all(&self) {
        let rooms: Vec<Arc<Room>> = lock(&self.rooms).values().cloned().collect();
        for r in rooms {
            r.save();
        }
    }

    /// Tells every session to end, with `why` printed on its terminal; the rooms they
    /// leave stay, for the next start.
    pub fn close_sessions(&self, why: &str) {
        self.stopping.store(true, Ordering::Relaxed);
        for tx in lock(&self.live).values() {
            let _ = tx.try_send(Incoming::Close(why.to_string()));
        }
    }
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
    fn rooms_are_limited_named_and_closed() {
        let limits = Limits {
            max_rooms: 2,
            ..Limits::default()
        };
        let hub = Hub::new(limits, None, Vec::new(), 0);
        let a = hub
            .create("a", RuleSet::Quantum, BackendKind::Dense, None)
            .unwrap();
        assert!(matches!(
            hub.create("a", RuleSet::Haft, BackendKind::Sparse, None),
            Err(HubError::Exists(_))
        ));
        assert!(matches!(
            hub.create("../x", RuleSet::Haft, BackendKind::Sparse, None),
            Err(HubError::BadName(_))
        ));
        assert!(Arc::ptr_eq(&hub.open("a").unwrap(), &a));
        hub.open("b").unwrap();
        assert!(matches!(hub.open("c"), Err(HubError::TooManyRooms(2))));
        let names: Vec<String> = hub.summaries().into_iter().map(|s| s.name).collect();
        assert_eq!(names, ["a", "b"]);
        // Nobody in it and no move: closed.
        hub.left(&a);
        assert!(hub.room("a").is_none());
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
