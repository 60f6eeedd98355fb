//! The club's servers and the rooms and seeks open on each, as each server publishes
//! them for the others' lobbies (docs/club.md, "Servers and their rooms"). These rows
//! are transient: a server replaces its own every few seconds and removes them when it
//! stops, a server not heard from for [`LISTED_FOR`] seconds is not listed, and they
//! are never copied (not in `copy::TABLES`).

/// How long a server's rooms are listed after it last published them, in seconds.
pub const LISTED_FOR: i64 = 15;

/// How long a server not heard from is kept at all (one that stopped without saying
/// so), in seconds: the next server to publish removes it and its rooms.
pub const FORGOTTEN_AFTER: i64 = 60;

/// A room open on a server, as the club's other servers list it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveRoom {
    /// Its name.
    pub name: String,
    /// What it plays, in the lobby's words ("quantum sparse", "harmonics").
    pub rules: String,
    /// Its time control ("5+3"), none without clocks.
    pub clock: Option<String>,
    /// Who plays white, none while the seat is free.
    pub white: Option<String>,
    /// Who plays black, none while the seat is free.
    pub black: Option<String>,
    /// How many watch.
    pub watchers: u32,
    /// Whether its game counts for the ratings.
    pub rated: bool,
}

/// A room open on another server of the club, and where players connect to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomElsewhere {
    /// The server's id, made when it started.
    pub server: String,
    /// The address players connect to (`HOST:PORT`), as that server gave it.
    pub address: String,
    /// The room.
    pub room: LiveRoom,
}

/// A seek open on a server, as the club's other servers list it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveSeek {
    /// Its number on its server.
    pub id: i64,
    /// Who posted it.
    pub poster: String,
    /// The poster's rating in the seek's category, as shown ("1500?").
    pub rating: String,
    /// Its time control ("5+3").
    pub clock: String,
    /// Whether its game counts for the ratings.
    pub rated: bool,
    /// The colour the poster plays: white, black, random.
    pub colour: String,
    /// The ratings it takes ("1400-1700"), none: any.
    pub range: Option<String>,
}

/// A seek open on another server of the club, and where players connect to take it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeekElsewhere {
    /// The server's id, made when it started.
    pub server: String,
    /// The address players connect to (`HOST:PORT`), as that server gave it.
    pub address: String,
    /// The seek.
    pub seek: LiveSeek,
}
