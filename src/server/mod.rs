//! `qchess serve`: Quantum Chess over SSH. Every connection gets a lobby (the open
//! rooms; create, join as white, black or a watcher) or, with `ssh -t host ROOM`, goes
//! straight into a room. In a room, each session drives the same game screen as the
//! local terminal, through its own terminal over the SSH channel ([`console`]); the
//! room owns the one game, carries out the moves and draws the outcomes ([`room`]).
//!
//! Threads: russh and the connections run on a small tokio runtime; every session's
//! screen runs on its own thread, every move on a worker thread, and the rooms'
//! computers on a few worker threads of their own ([`computer`]), so no move, no search
//! and no slow client ever holds up the runtime, another session or another room.

pub mod archive;
pub mod challenge_book;
pub mod club;
pub mod computer;
pub mod console;
pub mod director;
pub mod hub;
pub mod incoming;
pub mod input;
pub mod keys;
pub mod limits;
pub mod live;
pub mod lobby;
pub mod matchmaker;
pub mod name_book;
pub mod names;
pub mod offers;
pub mod pairing;
pub mod public;
pub mod room;
pub mod seek_book;
pub mod session;
pub mod ssh;
pub mod terms;

use hub::Hub;
use keys::KeyError;
use limits::{Counter, PerAddress, ServerLimits};
use russh::server::{Config, Handle};
use russh::{Disconnect, MethodKind, MethodSet, SshId};
use ssh::{Access, Conn, Door, Progress};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::time::Instant;

/// How `qchess serve` runs.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// Where to listen.
    pub listen: SocketAddr,
    /// The host key file (created when missing).
    pub host_key: PathBuf,
    /// Only these keys may sign in (an `authorized_keys` file); anyone when `None`.
    pub authorized_keys: Option<PathBuf>,
    /// Where rooms are saved (`None`: nowhere).
    pub rooms_dir: Option<PathBuf>,
    /// The club's database, an SQLite file or PostgreSQL (`None`: no club; everyone
    /// plays casual games).
    pub club_db: Option<crate::club::Database>,
    /// What sessions and rooms may use.
    pub limits: ServerLimits,
    /// The themes a session may pick, by name.
    pub themes: Vec<(String, crate::style::theme::Theme)>,
    /// Index of the theme sessions start with.
    pub default_theme: usize,
    /// The time control of a new room unless its opener picks another (none: no
    /// clocks).
    pub clock: Option<crate::game::clock::TimeControl>,
    /// Where players connect to this server, told to the club's other servers' lobbies
    /// (none: the listening address, unless it is every address, 0.0.0.0 or [::]).
    pub public_address: Option<public::PublicAddress>,
}

impl ServeOptions {
    /// Options for a server listening on `listen` with its files in `data_dir`: the
    /// host key `server/host_ed25519`, the rooms in `server/rooms`, the club in
    /// `server/club.sqlite`, new rooms on
    /// [`hub::DEFAULT_CLOCK`].
    pub fn in_data_dir(listen: SocketAddr, data_dir: &Path) -> ServeOptions {
        ServeOptions {
            listen,
            host_key: keys::default_host_key(data_dir),
            authorized_keys: None,
            rooms_dir: Some(data_dir.join("server").join("rooms")),
            club_db: Some(crate::club::Database::Sqlite(crate::club::default_db(
                data_dir,
            ))),
            limits: ServerLimits::default(),
            themes: Vec::new(),
            default_theme: 0,
            clock: Some(hub::DEFAULT_CLOCK),
            public_address: None,
        }
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// A key file failed.
    #[error("{0}")]
    Key(#[from] KeyError),
    /// The address could not be listened on.
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        /// The address.
        addr: SocketAddr,
        /// What the system said.
        source: std::io::Error,
    },
    /// The club's database could not be opened.
    #[error("{0}")]
    Club(#[from] crate::club::ClubError),
    /// The async runtime could not start.
    #[error("cannot start: {0}")]
    Runtime(std::io::Error),
    /// Rooms could not be saved when the server stopped.
    #[error("stopped, but {} could not be saved: {}", if .0.len() == 1 { "a room" } else { "rooms" }, .0.join("; "))]
    Unsaved(Vec<String>),
}

/// Connections beyond `--max-sessions` that are still let in, so that a full server
/// can say so; past them, connections are closed at once. From one address, one more
/// than `--max-per-address` is let in, for the same reason.
const SPARE_CONNECTIONS: usize = 4;

/// How long a connection that is cut is given to hear why before its socket closes.
const GOODBYE_TIME: Duration = Duration::from_secs(1);

/// A server running on the current tokio runtime.
pub struct Server {
    addr: SocketAddr,
    fingerprint: String,
    created_key: bool,
    problems: Vec<String>,
    hub: Arc<Hub>,
    stop: watch::Sender<Stage>,
}

/// How far the server is in stopping.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    /// Serving.
    Running,
    /// No new connections; the sessions are saying goodbye.
    Closing,
    /// Every connection is cut.
    Cut,
}

impl Server {
    /// Loads (or creates) the host key, brings back the saved rooms, and starts
    /// listening.
    pub async fn start(opts: ServeOptions) -> Result<Server, ServeError> {
        let (key, created_key) = keys::host_key(&opts.host_key)?;
        let fingerprint = keys::fingerprint(key.public_key());
        let mut key_problems = Vec::new();
        let access = match &opts.authorized_keys {
            Some(path) => {
                let (keys, refused) = keys::authorized(path)?;
                key_problems = refused;
                Access::Keys(keys)
            }
            None => Access::Public,
        };
        let listener =
            TcpListener::bind(opts.listen)
                .await
                .map_err(|source| ServeError::Listen {
                    addr: opts.listen,
                    source,
                })?;
        let addr = listener.local_addr().map_err(|source| ServeError::Listen {
            addr: opts.listen,
            source,
        })?;
        let mut hub = Hub::new(
            opts.limits.clone(),
            opts.rooms_dir.clone(),
            opts.themes.clone(),
            opts.default_theme,
        )
        .with_clock(opts.clock)
        .with_public_address(
            opts.public_address
                .clone()
                .or_else(|| public::PublicAddress::of_listen(addr)),
        );
        if let Some(db) = &opts.club_db {
            hub = hub.with_club(club::Club::open_at(db)?);
        }
        let hub = Arc::new(hub);
        let mut problems = key_problems;
        problems.extend(hub.restore());
        let methods: &[MethodKind] = match access {
            Access::Public => &[MethodKind::PublicKey, MethodKind::KeyboardInteractive],
            Access::Keys(_) => &[MethodKind::PublicKey],
        };
        let config = Arc::new(Config {
            server_id: SshId::Standard(
                format!("SSH-2.0-qchess_{}", env!("CARGO_PKG_VERSION")).into(),
            ),
            methods: MethodSet::from(methods),
            auth_rejection_time: Duration::from_millis(500),
            auth_rejection_time_initial: Some(Duration::ZERO),
            keys: vec![key],
            inactivity_timeout: Some(opts.limits.idle + Duration::from_secs(60)),
            keepalive_interval: Some(Duration::from_secs(30)),
            keepalive_max: 4,
            nodelay: true,
            ..Config::default()
        });
        let (stop, stopped) = watch::channel(Stage::Running);
        tokio::spawn(sweep(Arc::clone(&hub), stopped.clone()));
        tokio::spawn(direct(Arc::clone(&hub), stopped.clone()));
        tokio::spawn(publish(Arc::clone(&hub), stopped.clone()));
        tokio::spawn(accept(
            listener,
            config,
            Arc::clone(&hub),
            Arc::new(access),
            stopped,
        ));
        Ok(Server {
            addr,
            fingerprint,
            created_key,
            problems,
            hub,
            stop,
        })
    }

    /// Where it listens.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// What the server says at start: keys of `--authorized-keys` left out, rooms not
    /// brought back.
    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    /// The host key's fingerprint.
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// The shared state (rooms, sessions).
    pub fn hub(&self) -> &Arc<Hub> {
        &self.hub
    }

    /// Stops: no new connections, every session told `why` and closed, every room
    /// saved (rooms are saved after every move already; this writes only what changed
    /// since). Returns within about a second, with the rooms that could not be saved.
    pub async fn shutdown(self, why: &str) -> Vec<String> {
        let _ = self.stop.send(Stage::Closing);
        let had_sessions = self.hub.sessions_open() > 0;
        self.hub.close_sessions(why);
        let hub = Arc::clone(&self.hub);
        let saved = tokio::task::spawn_blocking(move || {
            hub.withdraw_rooms();
            hub.save_all()
        });
        // The sessions write their goodbyes; the connections are then cut.
        let deadline = tokio::time::Instant::now() + Duration::from_millis(800);
        while self.hub.sessions_open() > 0 && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        if had_sessions {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let unsaved = saved
            .await
            .unwrap_or_else(|_| vec!["saving the rooms failed".into()]);
        let _ = self.stop.send(Stage::Cut);
        unsaved
    }
}

/// Closes the rooms no player has been in for the room idle time, and ends the
/// sessions of keys banned or removed since they signed in, looking every minute (more
/// often when the idle time is short), until the server stops.
async fn sweep(hub: Arc<Hub>, mut stopped: watch::Receiver<Stage>) {
    let shortest = hub.limits.room_idle.min(hub.limits.lonely_room);
    let every = (shortest / 4).clamp(Duration::from_millis(100), Duration::from_secs(60));
    loop {
        tokio::select! {
            _ = stopped.changed() => return,
            _ = tokio::time::sleep(every) => {}
        }
        let hub = Arc::clone(&hub);
        let _ = tokio::task::spawn_blocking(move || {
            hub.sweep(crate::record::now_secs());
            hub.end_revoked_sessions();
        })
        .await;
    }
}

/// The tournament director's look at the club's tournaments, every
/// [`ServerLimits::director_looks`], until the server stops.
async fn direct(hub: Arc<Hub>, mut stopped: watch::Receiver<Stage>) {
    loop {
        tokio::select! {
            _ = stopped.changed() => return,
            _ = tokio::time::sleep(hub.limits.director_looks) => {}
        }
        let hub = Arc::clone(&hub);
        let _ = tokio::task::spawn_blocking(move || hub.direct()).await;
    }
}

/// The server's rooms published in the club and the other servers' read, at once and
/// every [`ServerLimits::publish_every`], until the server stops.
async fn publish(hub: Arc<Hub>, mut stopped: watch::Receiver<Stage>) {
    loop {
        let looked = Arc::clone(&hub);
        let _ = tokio::task::spawn_blocking(move || looked.publish()).await;
        tokio::select! {
            _ = stopped.changed() => return,
            _ = tokio::time::sleep(hub.limits.publish_every) => {}
        }
    }
}

/// Accepts connections until told to stop.
async fn accept(
    listener: TcpListener,
    config: Arc<Config>,
    hub: Arc<Hub>,
    access: Arc<Access>,
    mut stopped: watch::Receiver<Stage>,
) {
    let signed_in = Arc::new(Counter::default());
    let startups = Arc::new(Counter::default());
    let port = listener.local_addr().map_or(0, |a| a.port());
    let all = hub.limits.max_sessions + SPARE_CONNECTIONS;
    let per_address = hub.limits.per_address + 1;
    let mut handshakes = PerAddress::new(hub.limits.handshakes_per_second);
    loop {
        let (socket, peer) = tokio::select! {
            _ = stopped.changed() => return,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(_) => {
                    // Out of file descriptors or the like: breathe, then go on.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        // Before any work on the handshake: a bounded rate of them per address, and
        // a place in the pool of connections not signed in (bounded per network, and
        // dropped at random as the pool fills, as OpenSSH's MaxStartups does).
        let limits = &hub.limits;
        if !handshakes.allow(peer.ip(), std::time::Instant::now()) {
            continue;
        }
        if early_drop(startups.open(), limits.max_startups) {
            continue;
        }
        let network = limits::source_block(peer.ip()).network();
        let Ok(startup) = startups.admit(network, limits.max_startups, limits.startups_per_network)
        else {
            continue;
        };
        let door = Door {
            startup: Some(startup),
            ticket: None,
            signed_in: Arc::clone(&signed_in),
            limits: (all, per_address),
        };
        let _ = socket.set_nodelay(true);
        let Ok((socket, shut)) = keep_a_handle(socket) else {
            continue;
        };
        let progress = Arc::new(Progress::default());
        let conn = Conn::new(
            Arc::clone(&hub),
            Arc::clone(&access),
            peer.ip(),
            port,
            door,
            Arc::clone(&progress),
        );
        let config = Arc::clone(&config);
        let stopped = stopped.clone();
        let limits = (hub.limits.sign_in, hub.limits.no_session);
        tokio::spawn(connection(
            (socket, shut),
            config,
            conn,
            progress,
            limits,
            stopped,
        ));
    }
}

/// Whether a new connection is dropped before its handshake while `open` connections
/// are not signed in, of at most `full`: never under half of `full`, then with a
/// chance rising in a straight line to certain at `full` (OpenSSH's `MaxStartups
/// start:rate:full` with start at half), so that a flood of silent connections leaves
/// newcomers a chance instead of a wall.
fn early_drop(open: usize, full: usize) -> bool {
    let start = full / 2;
    if open < start {
        return false;
    }
    if open >= full {
        return true;
    }
    let chance = (open - start + 1) as f64 / (full - start + 1) as f64;
    let mut bytes = [0u8; 4];
    rand::Rng::fill_bytes(
        &mut rand::rand_core::UnwrapErr(rand::rngs::SysRng),
        &mut bytes,
    );
    f64::from(u32::from_le_bytes(bytes)) / f64::from(u32::MAX) < chance
}

/// Runs one connection until it ends or the server stops. It is cut when it has not
/// signed in `sign_in` after it came (the SSH handshake included), and when it has been
/// signed in for `no_session` without a game session running (none opened yet, or the
/// last one ended): only a connection that plays holds a place.
async fn connection(
    (socket, shut): (tokio::net::TcpStream, std::net::TcpStream),
    config: Arc<Config>,
    conn: Conn,
    progress: Arc<Progress>,
    (sign_in, no_session): (Duration, Duration),
    mut stopped: watch::Receiver<Stage>,
) {
    let deadline = Instant::now() + sign_in;
    let started =
        tokio::time::timeout_at(deadline, russh::server::run_stream(config, socket, conn));
    let Ok(Ok(session)) = started.await else {
        return;
    };
    let handle = session.handle();
    tokio::pin!(session);
    // How often a running session is looked at, to see when it ended.
    let look = (no_session / 8).clamp(Duration::from_millis(20), Duration::from_secs(1));
    let (mut idle_since, mut played) = (None::<Instant>, false);
    let why = loop {
        let now = Instant::now();
        let next = match progress.signed_in() {
            None if now >= deadline => break "not signed in in time",
            None => deadline.min(now + look),
            Some(_) if progress.playing() => {
                (idle_since, played) = (None, true);
                now + look
            }
            Some(at) => {
                let start = if played { now } else { Instant::from_std(at) };
                let since = *idle_since.get_or_insert(start);
                if now >= since + no_session {
                    break "no game session: connect with ssh -t";
                }
                (since + no_session).min(now + look)
            }
        };
        tokio::select! {
            _ = &mut session => return,
            cut = stopped.wait_for(|s| *s == Stage::Cut) => {
                if cut.is_ok() {
                    break "the server is stopping";
                }
                return;
            }
            _ = tokio::time::sleep_until(next) => {}
        }
    };
    cut(&handle, why, &shut).await;
}

/// A second handle on `socket`'s connection, to end it from outside russh (whose
/// session runs on a task of its own, which dropping its future does not stop).
fn keep_a_handle(
    socket: tokio::net::TcpStream,
) -> std::io::Result<(tokio::net::TcpStream, std::net::TcpStream)> {
    let socket = socket.into_std()?;
    let shut = socket.try_clone()?;
    Ok((tokio::net::TcpStream::from_std(socket)?, shut))
}

/// Tells the client why it is cut (for at most [`GOODBYE_TIME`]), then shuts the
/// connection down both ways, which ends russh's session however far it got.
async fn cut(handle: &Handle, why: &str, shut: &std::net::TcpStream) {
    let goodbye = handle.disconnect(Disconnect::ByApplication, why.into(), String::new());
    let _ = tokio::time::timeout(GOODBYE_TIME, goodbye).await;
    let _ = shut.shutdown(std::net::Shutdown::Both);
}

/// Runs `qchess serve` until SIGTERM or SIGINT: prints where it listens and the host
/// key's fingerprint, then serves; on the signal it saves every room, closes every
/// session and returns within 2 seconds.
pub fn run(opts: ServeOptions) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("qchess-serve")
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    let key_file = opts.host_key.clone();
    let rooms_dir = opts.rooms_dir.clone();
    let served = runtime.block_on(async move {
        let server = Server::start(opts).await?;
        let made = if server.created_key { "created " } else { "" };
        println!("qchess serve: listening on {}", server.addr());
        println!(
            "host key {}: {made}{}",
            server.fingerprint(),
            key_file.display()
        );
        if let Some(dir) = &rooms_dir {
            let rooms = server.hub().summaries().len();
            println!("rooms saved in {} ({rooms} brought back)", dir.display());
        }
        if let Some(club) = server.hub().club() {
            println!(
                "club: {} (qchess club players|games --database URL|FILE reads it)",
                club.database()
            );
            match server.hub().public_address() {
                Some(at) => println!("the club's other servers list this one's rooms at {at}"),
                None => println!(
                    "this server's rooms are not listed on the club's other servers: it listens on every address; name the one players connect to with --public-address HOST[:PORT]"
                ),
            }
        }
        for p in &server.problems {
            eprintln!("qchess serve: {p}");
        }
        println!(
            "play: ssh -p {} -t NAME@HOST [ROOM | seek 5+3]   (Ctrl-C or SIGTERM stops the server)",
            server.addr().port()
        );
        let why = stop_signal().await;
        println!("qchess serve: {why}: saving the rooms and closing the sessions");
        let stop = server.shutdown("the server is stopping; your game is saved, your seat kept");
        match tokio::time::timeout(Duration::from_millis(1500), stop).await {
            Ok(unsaved) if unsaved.is_empty() => Ok(()),
            Ok(unsaved) => Err(ServeError::Unsaved(unsaved)),
            Err(_) => Err(ServeError::Unsaved(vec!["saving took too long".into()])),
        }
    });
    runtime.shutdown_timeout(Duration::from_millis(200));
    served
}

/// Waits for SIGTERM or SIGINT (Ctrl-C); says which came.
async fn stop_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            return tokio::select! {
                _ = term.recv() => "SIGTERM",
                _ = tokio::signal::ctrl_c() => "SIGINT",
            };
        }
    }
    let _ = tokio::signal::ctrl_c().await;
    "SIGINT"
}
