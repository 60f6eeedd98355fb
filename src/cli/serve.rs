//! `qchess serve`: its arguments, read into the server's options with the themes of
//! the configuration, and the run of the server.

use crate::cli::{parse_clock_flag, warn, ClockFlag, Done, Failure, Outcome};
use crate::club::Database;
use crate::config::{Catalogue, Settings};
use crate::server::public::PublicAddress;
use crate::server::{ServeError, ServeOptions};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// Options of `qchess serve`.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// Address and port to listen on.
    #[arg(long, default_value = "127.0.0.1:2222")]
    listen: std::net::SocketAddr,
    /// The host key (ed25519, created on first start; default: server/host_ed25519 in
    /// the data directory).
    #[arg(long, value_name = "FILE")]
    host_key: Option<PathBuf>,
    /// Game sessions at once, in all.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=4096))]
    max_sessions: u32,
    /// Game sessions at once from one address.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=4096))]
    max_per_address: u32,
    /// Rooms at once.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=4096))]
    max_rooms: u32,
    /// Computer searches at once, over all rooms (default: one per core); rooms whose
    /// computer is to move wait their turn.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    computer_searches: Option<u32>,
    /// Hint searches (H) at once, over all sessions (default: one per core); each
    /// session runs one at a time.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    hint_searches: Option<u32>,
    /// Let watchers ask for hints too (by default only the players may).
    #[arg(long)]
    watcher_hints: bool,
    /// The time control of a new room: MIN+INC, minutes each (fractions allowed) and
    /// seconds added after each move, or none; a room opened with ssh -t HOST ROOM
    /// plays it, and the lobby's form offers it first.
    #[arg(long, value_name = "MIN+INC", default_value = "10+5", value_parser = parse_clock_flag)]
    clock: ClockFlag,
    /// Minutes without input before a session is closed (its seat is kept).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=10_080))]
    idle_minutes: u64,
    /// Rooms one player may have opened at once (counted by key when they signed in
    /// with one, else by name).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=4096))]
    rooms_per_player: u32,
    /// Hours a room may go without a player connected before it is closed (its game is
    /// kept with the finished ones).
    #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u64).range(1..=8760))]
    room_idle_hours: u64,
    /// Minutes a dropped seat is kept for its player's name alone (a seat taken with a
    /// key is always kept for that key).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(0..=10_080))]
    seat_grace_minutes: u64,
    /// Seconds at most that claiming the win holds the seat of a player who left a
    /// rated game (less when their clock has less left).
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
    claim_wait: u64,
    /// Minutes a room that never had two players may stay with nobody in it before it
    /// is closed (on a full server the oldest such room gives way to a new one at once).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=10_080))]
    lonely_room_minutes: u64,
    /// Rooms that players without a key from one network (a /24 or a /64) may have
    /// open at once, whatever their names.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=4096))]
    rooms_per_network: u32,
    /// Rooms one network (a /24 or a /64) may open a minute.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=4096))]
    rooms_per_minute: u32,
    /// Club accounts that new keys from one network (a /24 or a /64) may make an hour.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    joins_per_hour: u32,
    /// Connections not signed in yet, in all (past half of them new ones are dropped at
    /// random, more often the fuller it is, as OpenSSH's MaxStartups).
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(2..=4096))]
    max_startups: u32,
    /// Connections not signed in yet from one network (a /24 or a /64).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=4096))]
    startups_per_network: u32,
    /// Finished games kept at most (the oldest games between players without a key go
    /// first).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    archive_games: u32,
    /// Megabytes of finished games kept at most.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    archive_mb: u64,
    /// New connections one address may open a second.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    handshakes_per_second: u32,
    /// Only the keys in this authorized_keys file may sign in (default: anyone, by any
    /// name, without a password).
    #[arg(long, value_name = "FILE")]
    authorized_keys: Option<PathBuf>,
    /// The club's database: accounts, ratings and finished games; a PostgreSQL URL
    /// (postgres://USER:PASSWORD@HOST:PORT/DATABASE, which several servers may share)
    /// or an SQLite file (default: server/club.sqlite in the data directory).
    #[arg(long, value_name = "URL|FILE", alias = "club-db", value_parser = Database::parse)]
    database: Option<Database>,
    /// Where players connect to this server, HOST or HOST:PORT: the club's other servers
    /// (sharing its --database) list its rooms with this address (default: the --listen
    /// address, unless that is 0.0.0.0 or [::]; then its rooms are not listed elsewhere).
    #[arg(long, value_name = "HOST[:PORT]")]
    public_address: Option<PublicAddress>,
    /// Where the host key and the rooms are kept (default: the data directory).
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
}

/// Runs `qchess serve`: the options from the flags, the themes from the configuration.
pub fn run(args: ServeArgs) -> Outcome {
    let data_dir = args
        .data_dir
        .map_or_else(crate::config::data_dir, Ok)
        .map_err(Failure::new)?;
    let mut opts = ServeOptions::in_data_dir(args.listen, &data_dir);
    if let Some(key) = args.host_key {
        opts.host_key = key;
    }
    opts.authorized_keys = args.authorized_keys;
    if let Some(db) = args.database {
        opts.club_db = Some(db);
    }
    opts.clock = args.clock.0;
    opts.public_address = args.public_address;
    opts.limits.max_sessions = args.max_sessions as usize;
    opts.limits.per_address = args.max_per_address as usize;
    opts.limits.max_rooms = args.max_rooms as usize;
    opts.limits.idle = Duration::from_secs(args.idle_minutes * 60);
    if let Some(n) = args.computer_searches {
        opts.limits.computer_searches = n as usize;
    }
    if let Some(n) = args.hint_searches {
        opts.limits.hint_searches = n as usize;
    }
    opts.limits.watcher_hints = args.watcher_hints;
    opts.limits.rooms_per_player = args.rooms_per_player as usize;
    opts.limits.room_idle = Duration::from_secs(args.room_idle_hours * 3600);
    opts.limits.seat_grace = Duration::from_secs(args.seat_grace_minutes * 60);
    opts.limits.claim_wait = Duration::from_secs(args.claim_wait);
    opts.limits.lonely_room = Duration::from_secs(args.lonely_room_minutes * 60);
    opts.limits.rooms_per_network = args.rooms_per_network as usize;
    opts.limits.rooms_per_minute = args.rooms_per_minute as usize;
    opts.limits.joins_per_hour = args.joins_per_hour as usize;
    opts.limits.max_startups = args.max_startups as usize;
    opts.limits.startups_per_network = args.startups_per_network as usize;
    opts.limits.handshakes_per_second = args.handshakes_per_second;
    opts.limits.archive_games = args.archive_games as usize;
    opts.limits.archive_bytes = args.archive_mb << 20;
    // The server's themes: the built-in ones and the user's, starting with config.toml's.
    let settings = crate::config::config_dir().and_then(|d| Settings::load(&d));
    let (catalogue, chosen) = match settings {
        Ok(s) => (s.themes, s.config.theme),
        Err(e) => {
            warn(format!("{e}; serving the built-in themes"));
            (
                Catalogue::built_in(),
                crate::config::file::DEFAULT_THEME.to_string(),
            )
        }
    };
    for entry in catalogue.entries() {
        match entry.load() {
            Ok(theme) => opts.themes.push((entry.name.clone(), theme)),
            Err(e) => warn(e),
        }
    }
    opts.default_theme = opts
        .themes
        .iter()
        .position(|(name, _)| *name == chosen)
        .unwrap_or(0);
    match crate::server::run(opts) {
        Ok(()) => Ok(Done::Exit(0)),
        Err(e) => Err(Failure {
            by: "qchess serve",
            code: if matches!(e, ServeError::Unsaved(_)) {
                1
            } else {
                2
            },
            message: e.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Serve {
        #[command(flatten)]
        args: ServeArgs,
    }

    #[test]
    fn new_rooms_play_the_clock_of_the_command_line() {
        let clock = |flags: &[&str]| {
            let words = std::iter::once("serve").chain(flags.iter().copied());
            Serve::try_parse_from(words).map(|s| s.args.clock.0)
        };
        assert_eq!(clock(&[]).unwrap(), Some(crate::server::hub::DEFAULT_CLOCK));
        assert_eq!(clock(&["--clock", "none"]).unwrap(), None);
        assert_eq!(clock(&["--clock", "0.5+0"]).unwrap(), "0.5+0".parse().ok());
        let bad = clock(&["--clock", "5"]).err().map(|e| e.to_string());
        assert!(bad.is_some_and(|e| e.contains("MIN+INC")));
    }

    #[test]
    fn the_database_is_a_postgres_url_or_a_file() {
        let database = |flags: &[&str]| {
            let words = std::iter::once("serve").chain(flags.iter().copied());
            Serve::try_parse_from(words).map(|s| s.args.database)
        };
        assert_eq!(database(&[]).unwrap(), None);
        let url = "postgres://qchess@127.0.0.1:5432/club";
        assert_eq!(
            database(&["--database", url]).unwrap(),
            Some(Database::Postgres(url.into()))
        );
        assert_eq!(
            database(&["--club-db", "club.sqlite"]).unwrap(),
            Some(Database::Sqlite("club.sqlite".into()))
        );
        let bad = database(&["--database", "postgres://db:port/club"]).err();
        let bad = bad.map(|e| e.to_string()).unwrap_or_default();
        assert!(bad.contains("not a PostgreSQL URL"), "{bad}");
    }
}
