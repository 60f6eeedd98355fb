//! The club's servers and their live rooms and seeks in PostgreSQL (`club::live`): the
//! same tables and writes as the SQLite engine's (`sqlite/live.rs`), each server's rows
//! replaced in one transaction.

use super::{Failed, PostgresStore};
use crate::club::live::{
    LiveRoom, LiveSeek, RoomElsewhere, SeekElsewhere, FORGOTTEN_AFTER, LISTED_FOR,
};
use crate::club::ClubError;
use postgres::Row;

/// Schema step 5: the servers of the club and the rooms and seeks open on each,
/// transient rows (as SQLite's step 5; not copied by `qchess club migrate` or a backup).
pub(super) const MIGRATION: &str = "CREATE TABLE servers (
        id TEXT COLLATE \"C\" PRIMARY KEY,
        address TEXT NOT NULL,
        seen BIGINT NOT NULL
    );
    CREATE TABLE live_rooms (
        server TEXT COLLATE \"C\" NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        rules TEXT NOT NULL,
        clock TEXT,
        white TEXT,
        black TEXT,
        watchers BIGINT NOT NULL,
        rated BOOLEAN NOT NULL,
        PRIMARY KEY (server, name)
    );
    CREATE TABLE live_seeks (
        server TEXT COLLATE \"C\" NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
        id BIGINT NOT NULL,
        poster TEXT NOT NULL,
        rating TEXT NOT NULL,
        clock TEXT NOT NULL,
        rated BOOLEAN NOT NULL,
        colour TEXT NOT NULL,
        range TEXT,
        PRIMARY KEY (server, id)
    );";

impl PostgresStore {
    /// Replaces the rooms and seeks of `server` (reached at `address`) with `rooms` and
    /// `seeks`, seen at `now`, and forgets the servers not heard from for
    /// [`FORGOTTEN_AFTER`]: one transaction.
    pub(super) fn live_published(
        &mut self,
        server: &str,
        address: &str,
        (rooms, seeks): (&[LiveRoom], &[LiveSeek]),
        now: i64,
    ) -> Result<(), ClubError> {
        self.with(|client| {
            let mut tx = client.transaction()?;
            tx.execute(
                "DELETE FROM servers WHERE seen < $1",
                &[&(now - FORGOTTEN_AFTER)],
            )?;
            tx.execute(
                "INSERT INTO servers (id, address, seen) VALUES ($1, $2, $3)
                 ON CONFLICT (id) DO UPDATE SET address = excluded.address, seen = excluded.seen",
                &[&server, &address, &now],
            )?;
            tx.execute("DELETE FROM live_rooms WHERE server = $1", &[&server])?;
            tx.execute("DELETE FROM live_seeks WHERE server = $1", &[&server])?;
            let insert = tx.prepare(
                "INSERT INTO live_rooms (server, name, rules, clock, white, black, watchers, rated)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )?;
            for r in rooms {
                tx.execute(
                    &insert,
                    &[
                        &server,
                        &r.name,
                        &r.rules,
                        &r.clock,
                        &r.white,
                        &r.black,
                        &i64::from(r.watchers),
                        &r.rated,
                    ],
                )?;
            }
            let insert = tx.prepare(
                "INSERT INTO live_seeks (server, id, poster, rating, clock, rated, colour, range)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )?;
            for s in seeks {
                tx.execute(
                    &insert,
                    &[
                        &server, &s.id, &s.poster, &s.rating, &s.clock, &s.rated, &s.colour,
                        &s.range,
                    ],
                )?;
            }
            tx.commit()?;
            Ok(())
        })
    }

    /// Removes `server` and its rooms and seeks.
    pub(super) fn server_withdrawn(&mut self, server: &str) -> Result<(), ClubError> {
        self.with(|client| {
            client.execute("DELETE FROM servers WHERE id = $1", &[&server])?;
            Ok(())
        })
    }

    /// The rooms of the servers other than `except` heard from within [`LISTED_FOR`]
    /// of `now`, by address and name.
    pub(super) fn rooms_elsewhere(
        &self,
        except: &str,
        now: i64,
    ) -> Result<Vec<RoomElsewhere>, ClubError> {
        self.with(|client| {
            client
                .query(
                    "SELECT s.id, s.address, r.name, r.rules, r.clock, r.white, r.black,
                            r.watchers, r.rated
                     FROM live_rooms r JOIN servers s ON s.id = r.server
                     WHERE s.id <> $1 AND s.seen >= $2
                     ORDER BY s.address, s.id, r.name",
                    &[&except, &(now - LISTED_FOR)],
                )?
                .iter()
                .map(room)
                .collect()
        })
    }
}

impl PostgresStore {
    /// The seeks of the servers other than `except` heard from within [`LISTED_FOR`]
    /// of `now`, by address and number.
    pub(super) fn seeks_elsewhere(
        &self,
        except: &str,
        now: i64,
    ) -> Result<Vec<SeekElsewhere>, ClubError> {
        self.with(|client| {
            client
                .query(
                    "SELECT s.id, s.address, k.id, k.poster, k.rating, k.clock, k.rated,
                            k.colour, k.range
                     FROM live_seeks k JOIN servers s ON s.id = k.server
                     WHERE s.id <> $1 AND s.seen >= $2
                     ORDER BY s.address, s.id, k.id",
                    &[&except, &(now - LISTED_FOR)],
                )?
                .iter()
                .map(seek)
                .collect()
        })
    }
}

fn seek(r: &Row) -> Result<SeekElsewhere, Failed> {
    Ok(SeekElsewhere {
        server: r.try_get(0)?,
        address: r.try_get(1)?,
        seek: LiveSeek {
            id: r.try_get(2)?,
            poster: r.try_get(3)?,
            rating: r.try_get(4)?,
            clock: r.try_get(5)?,
            rated: r.try_get(6)?,
            colour: r.try_get(7)?,
            range: r.try_get(8)?,
        },
    })
}

fn room(r: &Row) -> Result<RoomElsewhere, Failed> {
    let watchers: i64 = r.try_get(7)?;
    Ok(RoomElsewhere {
        server: r.try_get(0)?,
        address: r.try_get(1)?,
        room: LiveRoom {
            name: r.try_get(2)?,
            rules: r.try_get(3)?,
            clock: r.try_get(4)?,
            white: r.try_get(5)?,
            black: r.try_get(6)?,
            watchers: u32::try_from(watchers).unwrap_or(u32::MAX),
            rated: r.try_get(8)?,
        },
    })
}
