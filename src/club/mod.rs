//! The club: accounts by SSH key, Glicko-2 ratings per category and the archive of
//! finished games, kept in a database behind one storage trait ([`ClubStore`]); SQLite
//! is one engine ([`SqliteStore`]), PostgreSQL the other ([`PostgresStore`], one club for
//! several servers). docs/club.md tells what is kept and why.

pub mod copy;
pub mod database;
pub mod export;
pub mod live;
mod postgres;
pub mod rating;
mod sqlite;
#[cfg(test)]
mod store_tests;
pub mod tournament;

pub use database::{Database, Engine};
pub use postgres::PostgresStore;
pub use rating::{Category, Rating, RatingChange, PROVISIONAL_DEVIATION};
pub use sqlite::{SqliteStore, SCHEMA_VERSION};

use crate::chess::Status;
use crate::game::clock::TimeControl;
use live::{LiveRoom, LiveSeek, RoomElsewhere, SeekElsewhere};
use std::path::{Path, PathBuf};
use tournament::record::{Entry, KeptPairing, NewTournament, State, Tournament, TournamentId};
use tournament::Board;

/// The database's file name.
pub const DB_FILE: &str = "club.sqlite";

/// Where the server keeps the club's database inside its data directory: beside its
/// host key and rooms, in `server/`.
pub fn default_db(data_dir: &Path) -> PathBuf {
    data_dir.join("server").join(DB_FILE)
}

/// A member's number in the database.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct MemberId(pub i64);

/// A game's number in the archive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(pub i64);

/// An account: a name that belongs to the keys registered for it.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    /// Its number.
    pub id: MemberId,
    /// Its name as it was claimed (unique whatever the case).
    pub name: String,
    /// When it was made, seconds since the Unix epoch.
    pub created: i64,
}

/// A public key registered for a member.
#[derive(Clone, Debug, PartialEq)]
pub struct MemberKey {
    /// The key's fingerprint (`SHA256:…`), unique in the club.
    pub fingerprint: String,
    /// The public key as OpenSSH writes it (`ssh-ed25519 AAAA… comment`).
    pub openssh: String,
    /// Whose it is.
    pub member: MemberId,
    /// When it was added, seconds since the Unix epoch.
    pub added: i64,
}

/// A key that may not sign in.
#[derive(Clone, Debug, PartialEq)]
pub struct Ban {
    /// The key's fingerprint.
    pub fingerprint: String,
    /// Why, in the operator's words.
    pub reason: String,
    /// When, seconds since the Unix epoch.
    pub since: i64,
}

/// A member's rating in one category, with how much they played in it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CategoryRating {
    /// The category.
    pub category: Category,
    /// The rating.
    pub rating: Rating,
    /// Rated games played in the category.
    pub games: u32,
    /// When the last of them ended, seconds since the Unix epoch.
    pub last_played: i64,
}

/// Who played one side of an archived game.
#[derive(Clone, Debug, PartialEq)]
pub struct Seat {
    /// The member, or `None` for a guest (or an account since deleted).
    pub member: Option<MemberId>,
    /// The name the side played under.
    pub name: String,
}

/// A finished game to be archived (and rated, when it is rated).
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedGame {
    /// White.
    pub white: Seat,
    /// Black.
    pub black: Seat,
    /// Whether it counts for the ratings: only between two members, on a clock.
    pub rated: bool,
    /// The time control, when it was played on a clock.
    pub control: Option<TimeControl>,
    /// How it ended (never `Ongoing`).
    pub result: Status,
    /// Why, when the rules did not end it ("black resigned", "white lost on time").
    pub reason: Option<String>,
    /// The game as qchess's saved-game TOML (moves, outcomes, clocks, review).
    pub record: String,
    /// When it started, seconds since the Unix epoch.
    pub started: i64,
    /// When it ended, seconds since the Unix epoch.
    pub ended: i64,
    /// A name of this game no other has: recorded again under a key the archive holds,
    /// it is not written twice (the first write is answered). `None`: no such check.
    pub key: Option<String>,
}

/// What the ratings of the two sides of a rated game were before it and became.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedSides {
    /// The category it counted in.
    pub category: Category,
    /// White's rating before and after.
    pub white: (Rating, Rating),
    /// Black's rating before and after.
    pub black: (Rating, Rating),
}

/// A game of the archive, without its record.
#[derive(Clone, Debug, PartialEq)]
pub struct ArchivedGame {
    /// Its number.
    pub id: GameId,
    /// White.
    pub white: Seat,
    /// Black.
    pub black: Seat,
    /// Whether it was rated.
    pub rated: bool,
    /// The time control, when it was played on a clock.
    pub control: Option<TimeControl>,
    /// How it ended.
    pub result: Status,
    /// Why, when the rules did not end it.
    pub reason: Option<String>,
    /// The ratings before and after, for a rated game.
    pub ratings: Option<RatedSides>,
    /// When it started, seconds since the Unix epoch.
    pub started: i64,
    /// When it ended, seconds since the Unix epoch.
    pub ended: i64,
    /// The tournament it was played in, by name.
    pub event: Option<String>,
}

impl ArchivedGame {
    /// The changes of both sides' ratings, for a rated game: `ann 1512 -> 1527 (+15)`.
    pub fn changes(&self) -> Option<[RatingChange; 2]> {
        let r = self.ratings?;
        let change = |seat: &Seat, (before, after): (Rating, Rating)| RatingChange {
            name: seat.name.clone(),
            before,
            after,
        };
        Some([change(&self.white, r.white), change(&self.black, r.black)])
    }
}

/// A member's results against one of the computer's seats (named as the server names
/// them: `qchess level 2`, `qchess greedy`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComputerResults {
    /// The computer's name in the games.
    pub name: String,
    /// Games the member won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the member lost.
    pub losses: u32,
}

/// The leaderboard of a category: who is on it and how many.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardQuery {
    /// The category.
    pub category: Category,
    /// Only players who played a rated game in it at this time or later (seconds since
    /// the Unix epoch).
    pub since: i64,
    /// At most this many.
    pub limit: usize,
}

/// Which games of the archive to list, most recent first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameQuery {
    /// Only this member's games.
    pub member: Option<MemberId>,
    /// At most this many.
    pub limit: usize,
}

/// Why the club's database could not do what was asked. Messages name the database's
/// file and say what an operator can do.
#[derive(Debug, thiserror::Error)]
pub enum ClubError {
    /// No database at the path (and none is made by reading commands).
    #[error("{0}: no club database there (name the right file with --database)")]
    Missing(PathBuf),
    /// The database was written by a newer qchess.
    #[error("{path}: the club database has schema version {found}, from a newer qchess (this one knows up to {known}); it was left untouched: run the newer qchess")]
    Newer {
        /// The database.
        path: PathBuf,
        /// Its version.
        found: i64,
        /// The newest this build knows.
        known: i64,
    },
    /// The database's folder could not be made.
    #[error("cannot make the club database's folder {path}: {source}")]
    Folder {
        /// The folder.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// Another process held the database for longer than the busy timeout.
    #[error("{0}: the club database is locked by another process; try again in a moment")]
    Locked(PathBuf),
    /// The file is not an SQLite database, or a damaged one.
    #[error("{path}: not a club database, or a damaged one ({detail}); restore it from a backup (qchess club backup)")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What SQLite said.
        detail: String,
    },
    /// Any other failure of the database.
    #[error("{path}: {source}")]
    Sqlite {
        /// The database.
        path: PathBuf,
        /// What SQLite said.
        source: rusqlite::Error,
    },
    /// No member by that name.
    #[error("no player named \"{0}\" in the club")]
    UnknownMember(String),
    /// The name is taken (whatever the case).
    #[error("the name \"{0}\" is taken")]
    NameTaken(String),
    /// The key is someone's already.
    #[error("the key {0} is registered already")]
    KeyTaken(String),
    /// A game can only be archived once it has ended.
    #[error("a game still in progress cannot be archived")]
    Unfinished,
    /// A rated game needs two members and a clock.
    #[error("a rated game needs two different members on a clock")]
    NotRateable,
    /// A game of the archive whose record does not read.
    #[error("game {id} of the archive does not read: {message}")]
    BadRecord {
        /// The game's number.
        id: i64,
        /// Why.
        message: String,
    },
    /// A backup could not be written.
    #[error("cannot back up to {to}: {source}")]
    Backup {
        /// The backup's file.
        to: PathBuf,
        /// What SQLite said.
        source: rusqlite::Error,
    },
    /// A tournament's name is taken (whatever the case).
    #[error("there is a tournament named \"{0}\" already: choose another name")]
    TournamentTaken(String),
    /// No pairing by that number, or not of those players.
    #[error("no tournament pairing {0} between those players")]
    NoSuchPairing(i64),
    /// The round was paired meanwhile (by another server of the club): nothing was
    /// written, and the tournament is to be looked at again.
    #[error("round {round} of tournament {tournament} was paired meanwhile, by another server of the club")]
    PairedElsewhere {
        /// The tournament's number.
        tournament: i64,
        /// The round that was to be paired.
        round: u32,
    },
    /// A `postgres://` URL that does not read.
    #[error("{url}: not a PostgreSQL URL qchess can read ({detail}); write it as postgres://USER:PASSWORD@HOST:PORT/DATABASE")]
    BadUrl {
        /// The URL, its password hidden.
        url: String,
        /// What was wrong with it.
        detail: String,
    },
    /// The PostgreSQL server could not be reached, or went away.
    #[error("{at}: cannot reach the club's PostgreSQL database ({detail}); is it running, at that host and port?")]
    Unreachable {
        /// The database's URL, its password hidden.
        at: String,
        /// What the connection said.
        detail: String,
    },
    /// PostgreSQL refused the user or the password.
    #[error("{at}: PostgreSQL refused to let qchess in ({detail}); check the user and password in the URL")]
    Refused {
        /// The database's URL, its password hidden.
        at: String,
        /// What PostgreSQL said.
        detail: String,
    },
    /// The URL names a database the PostgreSQL server does not have.
    #[error("{at}: {detail}; make it first (createdb NAME) or name another in the URL")]
    NoDatabase {
        /// The database's URL, its password hidden.
        at: String,
        /// What PostgreSQL said.
        detail: String,
    },
    /// A PostgreSQL database without the club's tables, where a club was expected.
    #[error("{0}: no club in that database (qchess serve --database URL makes one; qchess club migrate moves one there)")]
    NoClub(String),
    /// Any other failure of PostgreSQL.
    #[error("{at}: {source}")]
    Postgres {
        /// The database's URL, its password hidden.
        at: String,
        /// What PostgreSQL said.
        source: ::postgres::Error,
    },
    /// A club is moved into an empty database only.
    #[error("{0}: that club database is not empty; a club is moved into an empty one only")]
    NotEmpty(String),
}

/// The club's storage: members, their keys, ratings and games, and bans. Each method is
/// one transaction.
pub trait ClubStore {
    /// Makes a member named `name` (refused when the name is taken, whatever the case).
    fn add_member(&mut self, name: &str, now: i64) -> Result<Member, ClubError>;

    /// Makes a member named `name` with `key` (fingerprint and OpenSSH text) as their
    /// first key, both or neither: refused when the name or the key is taken.
    fn join(
        &mut self,
        name: &str,
        fingerprint: &str,
        openssh: &str,
        now: i64,
    ) -> Result<Member, ClubError>;

    /// The member named `name`, whatever the case.
    fn member(&self, name: &str) -> Result<Option<Member>, ClubError>;

    /// Every member with their ratings (shortest category first), by name.
    fn roster(&self) -> Result<Vec<(Member, Vec<CategoryRating>)>, ClubError>;

    /// Deletes a member: their keys and ratings go, their games stay under the names
    /// played with and belong to no account; the name is free again. Whether there was
    /// such a member.
    fn delete_member(&mut self, member: MemberId) -> Result<bool, ClubError>;

    /// The players on a category's leaderboard, best first: not provisional, and a
    /// rated game in it since `query.since`.
    fn leaderboard(&self, query: BoardQuery) -> Result<Vec<(Member, CategoryRating)>, ClubError>;

    /// A member's results against the computer (games whose other seat is named
    /// `qchess …` and is no member), by the computer's name.
    fn computer_results(&self, member: MemberId) -> Result<Vec<ComputerResults>, ClubError>;

    /// Registers a key for a member (refused when it is registered already).
    fn add_key(&mut self, key: &MemberKey) -> Result<(), ClubError>;

    /// Removes a member's key; whether it was theirs.
    fn remove_key(&mut self, member: MemberId, fingerprint: &str) -> Result<bool, ClubError>;

    /// A member's keys, oldest first.
    fn keys(&self, member: MemberId) -> Result<Vec<MemberKey>, ClubError>;

    /// The member a key belongs to.
    fn key_owner(&self, fingerprint: &str) -> Result<Option<Member>, ClubError>;

    /// Bans a key (again: the reason is replaced).
    fn ban(&mut self, ban: &Ban) -> Result<(), ClubError>;

    /// Lifts a key's ban; whether there was one.
    fn unban(&mut self, fingerprint: &str) -> Result<bool, ClubError>;

    /// Every ban, most recent first.
    fn bans(&self) -> Result<Vec<Ban>, ClubError>;

    /// The ban of a key, if it has one.
    fn banned(&self, fingerprint: &str) -> Result<Option<Ban>, ClubError>;

    /// A member's ratings in the categories they played, shortest first.
    fn ratings(&self, member: MemberId) -> Result<Vec<CategoryRating>, ClubError>;

    /// A member's rating in a category ([`Rating::NEW`] before their first game in it).
    fn rating(&self, member: MemberId, category: Category) -> Result<Rating, ClubError>;

    /// Archives a finished game and, when it is rated, updates both players' ratings:
    /// all of it or nothing. Its number and, for a rated game, the ratings before and
    /// after.
    fn record_game(
        &mut self,
        game: &FinishedGame,
    ) -> Result<(GameId, Option<RatedSides>), ClubError>;

    /// Games of the archive, most recent first.
    fn games(&self, query: GameQuery) -> Result<Vec<ArchivedGame>, ClubError>;

    /// A game's record: qchess's saved-game TOML.
    fn game_record(&self, id: GameId) -> Result<Option<String>, ClubError>;

    /// Writes a consistent copy of the whole database to `to`, while others go on using
    /// it.
    fn backup(&self, to: &Path) -> Result<(), ClubError>;
    // Tournaments (docs/club.md, "Tournaments"; their rules in `tournament`).

    /// Makes a tournament, scheduled (refused when its name is taken, whatever the case).
    fn create_tournament(&mut self, new: &NewTournament) -> Result<Tournament, ClubError>;

    /// Every tournament, soonest start first.
    fn tournaments(&self) -> Result<Vec<Tournament>, ClubError>;

    /// The tournament named `name`, whatever the case.
    fn tournament(&self, name: &str) -> Result<Option<Tournament>, ClubError>;

    /// Moves a tournament to `state` (started, finished, cancelled); whether there was
    /// such a tournament.
    fn set_tournament_state(&mut self, id: TournamentId, state: State) -> Result<bool, ClubError>;

    /// Enters a member with their rating now (with no points), or brings back one who
    /// withdrew.
    fn enter(
        &mut self,
        id: TournamentId,
        member: MemberId,
        rating: f64,
        now: i64,
    ) -> Result<(), ClubError>;

    /// Withdraws a member (not paired until they come back); whether they were in.
    fn withdraw(&mut self, id: TournamentId, member: MemberId) -> Result<bool, ClubError>;

    /// A tournament's entries, in the order they joined.
    fn entries(&self, id: TournamentId) -> Result<Vec<Entry>, ClubError>;

    /// A tournament's pairings, in the order they were made.
    fn pairings(&self, id: TournamentId) -> Result<Vec<KeptPairing>, ClubError>;

    /// Writes a round's pairings, its bye scored, and the tournament's round: all of it
    /// or nothing, and only while the tournament's round is still `round - 1` (else
    /// [`ClubError::PairedElsewhere`], nothing written). The pairings as kept.
    fn pair(
        &mut self,
        id: TournamentId,
        round: u32,
        boards: &[Board],
        bye: Option<MemberId>,
    ) -> Result<Vec<KeptPairing>, ClubError>;

    /// Archives and rates a pairing's game (under the tournament's name), notes its result
    /// and adds both players' points: all of it or nothing. Recorded again, it changes
    /// nothing and is answered with the first write.
    fn record_pairing(
        &mut self,
        pairing: i64,
        game: &FinishedGame,
    ) -> Result<(GameId, Option<RatedSides>), ClubError>;
    // The club's servers and their rooms and seeks (docs/club.md, "Servers and their rooms";
    // `live`), transient rows.

    /// Replaces the rooms and seeks server `server` (reached at `address`) has open with
    /// `rooms` and `seeks`, as seen at `now`; servers not heard from for
    /// [`live::FORGOTTEN_AFTER`] go with theirs.
    fn publish_live(
        &mut self,
        server: &str,
        address: &str,
        live: (&[LiveRoom], &[LiveSeek]),
        now: i64,
    ) -> Result<(), ClubError>;

    /// Removes server `server` and its rooms and seeks (it stops).
    fn withdraw_server(&mut self, server: &str) -> Result<(), ClubError>;

    /// The rooms of the servers other than `except` heard from within
    /// [`live::LISTED_FOR`] of `now`, by address and name.
    fn live_rooms(&self, except: &str, now: i64) -> Result<Vec<RoomElsewhere>, ClubError>;

    /// The seeks of the servers other than `except` heard from within
    /// [`live::LISTED_FOR`] of `now`, by address and number.
    fn live_seeks(&self, except: &str, now: i64) -> Result<Vec<SeekElsewhere>, ClubError>;
}
