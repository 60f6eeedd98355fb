//! What one client, one address and the whole server may use: sessions, rooms, input
//! bytes per second, idle time, window sizes and the size of each room's quantum state.

use ipnet::IpNet;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Tournaments one member may have made that are not over yet (scheduled or running).
pub const TOURNAMENTS_PER_MEMBER: usize = 2;

/// The limits of one server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerLimits {
    /// Game sessions at once, in all.
    pub max_sessions: usize,
    /// Game sessions at once from one address.
    pub per_address: usize,
    /// Rooms at once.
    pub max_rooms: usize,
    /// Input bytes a session may send per second (sustained).
    pub input_rate: u32,
    /// Input bytes a session may send at once (a paste).
    pub input_burst: u32,
    /// A session with no input for this long is closed (its seat is kept).
    pub idle: Duration,
    /// The simulator of a room: its size limits (log2 of the dense state's amplitudes,
    /// the sparse state's branches), and the backend of a room opened without a
    /// choice.
    pub simulator: crate::quantum::SimulatorSettings,
    /// Computer searches at once, over all rooms (the rooms whose computer is to move
    /// wait in turn): by default one per core, so that the searches never take every
    /// core from the sessions for long (each is bounded by its level's budget of work).
    pub computer_searches: usize,
    /// Hint searches (`H`) at once, over all sessions; each session runs one at most.
    pub hint_searches: usize,
    /// Whether watchers may ask for hints.
    pub watcher_hints: bool,
    /// How long a connection has to sign in, the SSH handshake included.
    pub sign_in: Duration,
    /// How long a signed-in connection may go without a game session running (before
    /// its first, and after one ended) before it is closed.
    pub no_session: Duration,
    /// Rooms one person may have opened at once (by key when they signed in with one,
    /// else by name).
    pub rooms_per_player: usize,
    /// A room in which no player has been connected for this long is closed, its game
    /// kept with the finished ones.
    pub room_idle: Duration,
    /// How long a dropped seat is kept for its player's name alone (a seat taken with a
    /// key is always kept for that key).
    pub seat_grace: Duration,
    /// The longest a claim of the win holds the seat of a player who left a rated game
    /// (less when their clock has less left).
    pub claim_wait: Duration,
    /// In a room made by pairing, a side that has not made its first move this long
    /// after it could aborts the game (not rated).
    pub first_move: Duration,
    /// A room that never had two players and has nobody in it is closed after this
    /// long (a room opened and left); on a full server the oldest such room gives way
    /// to a new one at once.
    pub lonely_room: Duration,
    /// Rooms the players without a key of one block of addresses (a /24 or a /64) may
    /// have opened at once, whatever names they use.
    pub rooms_per_network: usize,
    /// Rooms one block of addresses may open a minute, keys or not.
    pub rooms_per_minute: usize,
    /// Club accounts new keys from one block of addresses may make an hour (keys cost
    /// nothing to make; each account is a row kept for good).
    pub joins_per_hour: usize,
    /// Connections not signed in yet (the SSH handshake included), in all: past half
    /// of them new ones are dropped at random, more often the fuller it is.
    pub max_startups: usize,
    /// Connections not signed in yet from one block of addresses (a /24 or a /64).
    pub startups_per_network: usize,
    /// New connections one address may open a second (each handshake costs the server
    /// a key exchange).
    pub handshakes_per_second: u32,
    /// Custom seeks one player may have open in the lobby at once.
    pub seeks_per_player: usize,
    /// Challenges by name one player may have waiting for an answer at once.
    pub challenges_per_player: usize,
    /// A challenge not answered this long lapses.
    pub challenge_lapse: Duration,
    /// Finished games kept at most (the oldest guests' games go first).
    pub archive_games: usize,
    /// Bytes of finished games kept at most.
    pub archive_bytes: u64,
    /// How often the tournament director looks at the club's tournaments (to start,
    /// pair and finish them); a player joining or back from a game is looked at at once.
    pub director_looks: Duration,
    /// How often the server publishes its rooms in the club and reads the other
    /// servers' (one club on several servers).
    pub publish_every: Duration,
}

impl Default for ServerLimits {
    fn default() -> Self {
        ServerLimits {
            max_sessions: 64,
            per_address: 8,
            max_rooms: 32,
            input_rate: 8 * 1024,
            input_burst: 32 * 1024,
            idle: Duration::from_secs(30 * 60),
            simulator: crate::quantum::SimulatorSettings {
                backend: crate::quantum::BackendKind::Sparse,
                dense_limit_log2: 20,
                sparse_limit: 1 << 16,
            },
            computer_searches: cores(),
            hint_searches: cores(),
            watcher_hints: false,
            sign_in: Duration::from_secs(30),
            no_session: Duration::from_secs(30),
            rooms_per_player: 3,
            room_idle: Duration::from_secs(24 * 3600),
            seat_grace: Duration::from_secs(10 * 60),
            claim_wait: Duration::from_secs(60),
            first_move: Duration::from_secs(30),
            lonely_room: Duration::from_secs(10 * 60),
            rooms_per_network: 6,
            rooms_per_minute: 6,
            joins_per_hour: 5,
            max_startups: 32,
            startups_per_network: 8,
            handshakes_per_second: 10,
            seeks_per_player: 3,
            challenges_per_player: 3,
            challenge_lapse: Duration::from_secs(120),
            archive_games: 10_000,
            archive_bytes: 100 << 20,
            director_looks: Duration::from_secs(1),
            publish_every: Duration::from_secs(5),
        }
    }
}

/// What each block of addresses did within a sliding window of time (rooms opened a
/// minute, accounts made an hour), to hold each block to a number of them.
#[derive(Debug)]
pub struct PerWindow {
    window: std::time::Duration,
    done: std::collections::HashMap<String, Vec<std::time::Instant>>,
}

impl PerWindow {
    /// Counts within `window`.
    pub fn new(window: std::time::Duration) -> PerWindow {
        PerWindow {
            window,
            done: std::collections::HashMap::new(),
        }
    }

    /// Counts one more for `block` at `now`, unless it did `max` within the window
    /// already: then how many it did.
    pub fn count(&mut self, block: &str, max: usize, now: std::time::Instant) -> Result<(), usize> {
        let window = self.window;
        // Blocks that did nothing within the window are forgotten: the map stays small.
        self.done.retain(|_, times| {
            times.retain(|t| now.duration_since(*t) < window);
            !times.is_empty()
        });
        let times = self.done.entry(block.to_string()).or_default();
        if times.len() >= max {
            return Err(times.len());
        }
        times.push(now);
        Ok(())
    }
}

/// The machine's cores (two when it cannot be told).
fn cores() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// The largest terminal a session draws in; bigger windows are drawn in this corner.
/// (ratatui keeps a frame's cell count within 65,535.)
pub const MAX_COLS: u16 = 320;
/// See [`MAX_COLS`].
pub const MAX_ROWS: u16 = 200;

/// A window size from a client, clamped to what the server draws.
pub fn clamp_size(cols: u32, rows: u32) -> (u16, u16) {
    (
        cols.clamp(1, u32::from(MAX_COLS)) as u16,
        rows.clamp(1, u32::from(MAX_ROWS)) as u16,
    )
}

/// The block of addresses a client is counted in with its neighbours: its /24 for
/// IPv4, its /64 for IPv6 (what one host or one customer usually holds), an IPv4
/// address written in IPv6 as IPv4.
pub fn source_block(addr: IpAddr) -> IpNet {
    let addr = addr.to_canonical();
    let bits = if addr.is_ipv4() { 24 } else { 64 };
    IpNet::new(addr, bits).map_or(IpNet::from(addr), |n| n.trunc())
}

/// Counts what is open, in all and per address.
#[derive(Debug, Default)]
pub struct Counter {
    open: Mutex<(usize, HashMap<IpAddr, usize>)>,
}

/// One counted thing; dropping it counts it out.
#[derive(Debug)]
pub struct Ticket {
    counter: Arc<Counter>,
    addr: IpAddr,
}

/// Why a ticket was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Full {
    /// The server has `0` open.
    All(usize),
    /// This address has `0` open.
    Address(usize),
}

impl Counter {
    /// Counts one more for `addr`, unless that makes more than `all` in all or
    /// `per_address` for the address.
    pub fn admit(
        self: &Arc<Self>,
        addr: IpAddr,
        all: usize,
        per_address: usize,
    ) -> Result<Ticket, Full> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if open.0 >= all {
            return Err(Full::All(open.0));
        }
        let here = open.1.get(&addr).copied().unwrap_or(0);
        if here >= per_address {
            return Err(Full::Address(here));
        }
        open.0 += 1;
        open.1.insert(addr, here + 1);
        Ok(Ticket {
            counter: Arc::clone(self),
            addr,
        })
    }

    /// How many are open.
    pub fn open(&self) -> usize {
        self.open.lock().unwrap_or_else(PoisonError::into_inner).0
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut open = self
            .counter
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        open.0 = open.0.saturating_sub(1);
        if let Some(n) = open.1.get_mut(&self.addr) {
            *n -= 1;
            if *n == 0 {
                open.1.remove(&self.addr);
            }
        }
    }
}

/// A token bucket per address: `rate` a second, a second's worth saved up at most.
/// Addresses whose bucket is full again are forgotten once many are kept.
#[derive(Debug)]
pub struct PerAddress {
    rate: u32,
    buckets: HashMap<IpAddr, Budget>,
}

impl PerAddress {
    /// Buckets of `rate` a second.
    pub fn new(rate: u32) -> PerAddress {
        PerAddress {
            rate,
            buckets: HashMap::new(),
        }
    }

    /// Whether `addr` may have one more at `now`.
    pub fn allow(&mut self, addr: IpAddr, now: Instant) -> bool {
        if self.buckets.len() > 4096 {
            self.buckets.retain(|_, b| !b.refilled(now));
        }
        let rate = self.rate;
        let b = self
            .buckets
            .entry(addr)
            .or_insert_with(|| Budget::new(rate, rate));
        b.take(1, now) == 1
    }
}

/// A token bucket of input bytes: `rate` a second, at most `burst` saved up.
#[derive(Debug)]
pub struct Budget {
    tokens: f64,
    rate: f64,
    burst: f64,
    last: Instant,
}

impl Budget {
    /// A full bucket.
    pub fn new(rate: u32, burst: u32) -> Budget {
        Budget {
            tokens: f64::from(burst),
            rate: f64::from(rate),
            burst: f64::from(burst),
            last: Instant::now(),
        }
    }

    /// Whether the bucket would be full again at `now`.
    fn refilled(&self, now: Instant) -> bool {
        let dt = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens + dt * self.rate >= self.burst
    }

    /// Takes up to `n` bytes at `now`; how many may pass.
    pub fn take(&mut self, n: usize, now: Instant) -> usize {
        let dt = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * self.rate).min(self.burst);
        let allowed = (n as f64).min(self.tokens.floor()).max(0.0);
        self.tokens -= allowed;
        allowed as usize
    }
}

/// A time as the lobby says it: "24 h", "90 min", "45 s".
pub fn words_for(d: Duration) -> String {
    let secs = d.as_secs();
    if secs >= 3600 && secs.is_multiple_of(3600) {
        format!("{} h", secs / 3600)
    } else if secs >= 60 && secs.is_multiple_of(60) {
        format!("{} min", secs / 60)
    } else {
        format!("{secs} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_clamped() {
        assert_eq!(clamp_size(80, 24), (80, 24));
        assert_eq!(clamp_size(0, 0), (1, 1));
        assert_eq!(clamp_size(u32::MAX, 1_000_000), (MAX_COLS, MAX_ROWS));
        assert!(usize::from(MAX_COLS) * usize::from(MAX_ROWS) <= usize::from(u16::MAX));
    }

    #[test]
    fn addresses_are_grouped_in_blocks() {
        let block = |s: &str| source_block(s.parse().unwrap()).to_string();
        assert_eq!(block("192.0.2.77"), "192.0.2.0/24");
        assert_eq!(block("::ffff:192.0.2.77"), "192.0.2.0/24");
        assert_eq!(block("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2::/64");
        assert_eq!(block("127.0.0.9"), block("127.0.0.1"));
    }

    #[test]
    fn counter_limits_in_all_and_per_address() {
        let c = Arc::new(Counter::default());
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "127.0.0.2".parse().unwrap();
        let t1 = c.admit(a, 3, 2).unwrap();
        let _t2 = c.admit(a, 3, 2).unwrap();
        assert_eq!(c.admit(a, 3, 2).unwrap_err(), Full::Address(2));
        let _t3 = c.admit(b, 3, 2).unwrap();
        assert_eq!(c.admit(b, 3, 2).unwrap_err(), Full::All(3));
        drop(t1);
        assert_eq!(c.open(), 2);
        assert!(c.admit(a, 3, 2).is_ok());
    }

    #[test]
    fn handshakes_are_bounded_per_address() {
        let t0 = Instant::now();
        let mut h = PerAddress::new(10);
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "127.0.0.2".parse().unwrap();
        assert_eq!((0..30).filter(|_| h.allow(a, t0)).count(), 10);
        assert!(h.allow(b, t0), "another address has its own");
        assert!(
            h.allow(a, t0 + Duration::from_millis(150)),
            "one more after 0.1 s"
        );
    }

    #[test]
    fn budget_refills_at_its_rate() {
        let t0 = Instant::now();
        let mut b = Budget::new(100, 1000);
        assert_eq!(b.take(600, t0), 600);
        assert_eq!(b.take(600, t0), 400);
        assert_eq!(b.take(10, t0), 0);
        assert_eq!(b.take(1000, t0 + Duration::from_secs(2)), 200);
        // Never more than the burst, however long the wait.
        assert_eq!(b.take(5000, t0 + Duration::from_secs(3600)), 1000);
    }
}
