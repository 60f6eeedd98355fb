//! The club's servers and their live rooms and seeks in SQLite (`club::live`): each
//! server's rows replaced in one transaction.

use super::failure;
use crate::club::live::{
    LiveRoom, LiveSeek, RoomElsewhere, SeekElsewhere, FORGOTTEN_AFTER, LISTED_FOR,
};
use crate::club::ClubError;
use rusqlite::{params, Connection, Row, TransactionBehavior};
use std::path::Path;

/// Schema step 5: the servers of the club and the rooms and seeks open on each,
/// transient rows (not copied by `qchess club migrate` or a PostgreSQL club's backup).
pub(super) const MIGRATION: &str = "CREATE TABLE servers (
        id TEXT PRIMARY KEY,
        address TEXT NOT NULL,
        seen INTEGER NOT NULL
    );
    CREATE TABLE live_rooms (
        server TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        rules TEXT NOT NULL,
        clock TEXT,
        white TEXT,
        black TEXT,
        watchers INTEGER NOT NULL,
        rated INTEGER NOT NULL CHECK (rated IN (0, 1)),
        PRIMARY KEY (server, name)
    );
    CREATE TABLE live_seeks (
        server TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
        id INTEGER NOT NULL,
        poster TEXT NOT NULL,
        rating TEXT NOT NULL,
        clock TEXT NOT NULL,
        rated INTEGER NOT NULL CHECK (rated IN (0, 1)),
        colour TEXT NOT NULL,
        range TEXT,
        PRIMARY KEY (server, id)
    );";

/// Replaces the rooms and seeks of `server` (reached at `address`) with `rooms` and
/// `seeks`, seen at `now`, and forgets the servers not heard from for
/// [`FORGOTTEN_AFTER`]: one transaction.
pub(super) fn publish(
    conn: &mut Connection,
    path: &Path,
    server: &str,
    address: &str,
    (rooms, seeks): (&[LiveRoom], &[LiveSeek]),
    now: i64,
) -> Result<(), ClubError> {
    let at = |e| failure(path, e);
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(at)?;
    tx.execute(
        "DELETE FROM servers WHERE seen < ?1",
        [now - FORGOTTEN_AFTER],
    )
    .map_err(at)?;
    tx.execute(
        "INSERT INTO servers (id, address, seen) VALUES (?1, ?2, ?3)
         ON CONFLICT (id) DO UPDATE SET address = excluded.address, seen = excluded.seen",
        params![server, address, now],
    )
    .map_err(at)?;
    tx.execute("DELETE FROM live_rooms WHERE server = ?1", [server])
        .map_err(at)?;
    tx.execute("DELETE FROM live_seeks WHERE server = ?1", [server])
        .map_err(at)?;
    {
        let mut insert = tx
            .prepare_cached(
                "INSERT INTO live_rooms (server, name, rules, clock, white, black, watchers, rated)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )
            .map_err(at)?;
        for r in rooms {
            insert
                .execute(params![
                    server, r.name, r.rules, r.clock, r.white, r.black, r.watchers, r.rated
                ])
                .map_err(at)?;
        }
        let mut insert = tx
            .prepare_cached(
                "INSERT INTO live_seeks (server, id, poster, rating, clock, rated, colour, range)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )
            .map_err(at)?;
        for s in seeks {
            insert
                .execute(params![
                    server, s.id, s.poster, s.rating, s.clock, s.rated, s.colour, s.range
                ])
                .map_err(at)?;
        }
    }
    tx.commit().map_err(at)
}

/// Removes `server` and its rooms and seeks.
pub(super) fn withdraw(conn: &Connection, path: &Path, server: &str) -> Result<(), ClubError> {
    conn.execute("DELETE FROM servers WHERE id = ?1", [server])
        .map(drop)
        .map_err(|e| failure(path, e))
}

/// The rooms of the servers other than `except` heard from within [`LISTED_FOR`] of
/// `now`, by address and name.
pub(super) fn elsewhere(
    conn: &Connection,
    path: &Path,
    except: &str,
    now: i64,
) -> Result<Vec<RoomElsewhere>, ClubError> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT s.id, s.address, r.name, r.rules, r.clock, r.white, r.black, r.watchers,
                    r.rated
             FROM live_rooms r JOIN servers s ON s.id = r.server
             WHERE s.id <> ?1 AND s.seen >= ?2
             ORDER BY s.address, s.id, r.name",
        )
        .map_err(|e| failure(path, e))?;
    stmt.query_map(params![except, now - LISTED_FOR], room)
        .and_then(Iterator::collect)
        .map_err(|e| failure(path, e))
}

/// The seeks of the servers other than `except` heard from within [`LISTED_FOR`] of
/// `now`, by address and number.
pub(super) fn seeks_elsewhere(
    conn: &Connection,
    path: &Path,
    except: &str,
    now: i64,
) -> Result<Vec<SeekElsewhere>, ClubError> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT s.id, s.address, k.id, k.poster, k.rating, k.clock, k.rated, k.colour,
                    k.range
             FROM live_seeks k JOIN servers s ON s.id = k.server
             WHERE s.id <> ?1 AND s.seen >= ?2
             ORDER BY s.address, s.id, k.id",
        )
        .map_err(|e| failure(path, e))?;
    stmt.query_map(params![except, now - LISTED_FOR], seek)
        .and_then(Iterator::collect)
        .map_err(|e| failure(path, e))
}

fn seek(r: &Row<'_>) -> rusqlite::Result<SeekElsewhere> {
    Ok(SeekElsewhere {
        server: r.get(0)?,
        address: r.get(1)?,
        seek: LiveSeek {
            id: r.get(2)?,
            poster: r.get(3)?,
            rating: r.get(4)?,
            clock: r.get(5)?,
            rated: r.get(6)?,
            colour: r.get(7)?,
            range: r.get(8)?,
        },
    })
}

fn room(r: &Row<'_>) -> rusqlite::Result<RoomElsewhere> {
    Ok(RoomElsewhere {
        server: r.get(0)?,
        address: r.get(1)?,
        room: LiveRoom {
            name: r.get(2)?,
            rules: r.get(3)?,
            clock: r.get(4)?,
            white: r.get(5)?,
            black: r.get(6)?,
            watchers: r.get(7)?,
            rated: r.get(8)?,
        },
    })
}
