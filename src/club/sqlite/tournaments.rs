//! Tournaments in SQLite: the tournaments, their entries and their pairings. The SQL is
//! kept to what PostgreSQL also accepts (INTEGER, TEXT and REAL columns, `ON CONFLICT`,
//! no SQLite-only functions), so that a second engine can share it; the numbers of rows
//! are SQLite's (`last_insert_rowid`).

use super::{archive, failure, folded, result_of, result_word};
use crate::club::tournament::record::{
    Columns, Entry, KeptPairing, NewTournament, State, Tournament, TournamentId, Unreadable,
};
use crate::club::tournament::{Board, Pairing};
use crate::club::{ClubError, FinishedGame, GameId, MemberId, RatedSides};
use rusqlite::{params, Connection, OptionalExtension, Row, TransactionBehavior};
use std::path::Path;

/// Schema step 4: tournaments, their entries and pairings, and a game's tournament. An
/// entry's points are kept with each result (in units of two a win); a pairing without
/// black is a bye.
pub(super) const MIGRATION: &str = "CREATE TABLE tournaments (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        folded TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL CHECK (kind IN ('arena', 'swiss')),
        time_control TEXT NOT NULL,
        rounds INTEGER,
        minutes INTEGER,
        starts INTEGER NOT NULL,
        creator INTEGER REFERENCES members(id) ON DELETE SET NULL,
        state TEXT NOT NULL
            CHECK (state IN ('scheduled', 'running', 'finished', 'cancelled')),
        round INTEGER NOT NULL
    );
    CREATE INDEX tournaments_starts ON tournaments(starts, id);
    CREATE TABLE entries (
        tournament INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        member INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        rating REAL NOT NULL,
        joined INTEGER NOT NULL,
        withdrawn INTEGER NOT NULL CHECK (withdrawn IN (0, 1)),
        points INTEGER NOT NULL,
        PRIMARY KEY (tournament, member)
    );
    CREATE TABLE pairings (
        id INTEGER PRIMARY KEY,
        tournament INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        white INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        black INTEGER REFERENCES members(id) ON DELETE CASCADE,
        game INTEGER REFERENCES games(id) ON DELETE SET NULL,
        result TEXT CHECK (result IN ('white_wins', 'black_wins', 'draw'))
    );
    CREATE INDEX pairings_tournament ON pairings(tournament, round, id);
    ALTER TABLE games ADD COLUMN event TEXT;";

/// The columns of a [`Tournament`], in the order [`tournament`] reads them.
const COLUMNS: &str =
    "id, name, kind, time_control, rounds, minutes, starts, creator, state, round";

/// A tournament from the columns of [`COLUMNS`].
fn tournament(row: &Row<'_>) -> rusqlite::Result<Tournament> {
    Columns {
        id: row.get(0)?,
        name: row.get(1)?,
        kind: row.get(2)?,
        control: row.get(3)?,
        rounds: row.get(4)?,
        minutes: row.get(5)?,
        starts: row.get(6)?,
        creator: row.get(7)?,
        state: row.get(8)?,
        round: row.get(9)?,
    }
    .tournament()
    .map_err(|e| super::bad_column(e.column, e))
}

/// A kept pairing from its columns (id, round, white, black, result, game).
fn kept(row: &Row<'_>) -> rusqlite::Result<KeptPairing> {
    let result = row
        .get::<_, Option<String>>(4)?
        .map(|w| {
            result_of(&w).ok_or_else(|| {
                let what = "result";
                super::bad_column(
                    4,
                    Unreadable {
                        column: 4,
                        word: w,
                        what,
                    },
                )
            })
        })
        .transpose()?;
    Ok(KeptPairing {
        id: row.get(0)?,
        pairing: Pairing {
            round: row.get(1)?,
            white: MemberId(row.get(2)?),
            black: row.get::<_, Option<i64>>(3)?.map(MemberId),
            result,
        },
        game: row.get::<_, Option<i64>>(5)?.map(GameId),
    })
}

/// Makes a tournament, scheduled (refused when its name is taken, whatever the case).
pub(super) fn create(
    conn: &Connection,
    path: &Path,
    new: &NewTournament,
) -> Result<Tournament, ClubError> {
    let (rounds, minutes) = new.length.columns();
    let inserted = conn.execute(
        "INSERT INTO tournaments (name, folded, kind, time_control, rounds, minutes, starts,
            creator, state, round)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 0)",
        params![
            new.name,
            folded(&new.name),
            new.kind.name(),
            new.control.to_string(),
            rounds,
            minutes,
            new.starts,
            new.creator.map(|m| m.0),
            State::Scheduled.name(),
        ],
    );
    match inserted {
        Ok(_) => Ok(Tournament {
            id: TournamentId(conn.last_insert_rowid()),
            made: new.clone(),
            state: State::Scheduled,
            round: 0,
        }),
        Err(e) if super::duplicate(&e) => Err(ClubError::TournamentTaken(new.name.clone())),
        Err(e) => Err(failure(path, e)),
    }
}

/// Every tournament, soonest start first.
pub(super) fn list(conn: &Connection, path: &Path) -> Result<Vec<Tournament>, ClubError> {
    let sql = format!("SELECT {COLUMNS} FROM tournaments ORDER BY starts, id");
    let mut stmt = conn.prepare_cached(&sql).map_err(|e| failure(path, e))?;
    stmt.query_map([], tournament)
        .and_then(Iterator::collect)
        .map_err(|e| failure(path, e))
}

/// The tournament named `name`, whatever the case.
pub(super) fn named(
    conn: &Connection,
    path: &Path,
    name: &str,
) -> Result<Option<Tournament>, ClubError> {
    let sql = format!("SELECT {COLUMNS} FROM tournaments WHERE folded = ?1");
    conn.query_row(&sql, [folded(name)], tournament)
        .optional()
        .map_err(|e| failure(path, e))
}

/// Moves a tournament to `state`; whether there was such a tournament.
pub(super) fn set_state(
    conn: &Connection,
    path: &Path,
    id: TournamentId,
    state: State,
) -> Result<bool, ClubError> {
    conn.execute(
        "UPDATE tournaments SET state = ?2 WHERE id = ?1",
        params![id.0, state.name()],
    )
    .map(|n| n > 0)
    .map_err(|e| failure(path, e))
}

/// Enters a member (with their rating now), or brings back one who withdrew.
pub(super) fn enter(
    conn: &Connection,
    path: &Path,
    id: TournamentId,
    member: MemberId,
    rating: f64,
    now: i64,
) -> Result<(), ClubError> {
    conn.execute(
        "INSERT INTO entries (tournament, member, rating, joined, withdrawn, points)
         VALUES (?1, ?2, ?3, ?4, 0, 0)
         ON CONFLICT (tournament, member) DO UPDATE SET withdrawn = 0",
        params![id.0, member.0, rating, now],
    )
    .map(drop)
    .map_err(|e| failure(path, e))
}

/// Withdraws a member; whether they were in.
pub(super) fn withdraw(
    conn: &Connection,
    path: &Path,
    id: TournamentId,
    member: MemberId,
) -> Result<bool, ClubError> {
    conn.execute(
        "UPDATE entries SET withdrawn = 1 WHERE tournament = ?1 AND member = ?2",
        params![id.0, member.0],
    )
    .map(|n| n > 0)
    .map_err(|e| failure(path, e))
}

/// A tournament's entries, in the order they joined.
pub(super) fn entries(
    conn: &Connection,
    path: &Path,
    id: TournamentId,
) -> Result<Vec<Entry>, ClubError> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT e.member, m.name, e.rating, e.joined, e.withdrawn, e.points
             FROM entries e JOIN members m ON m.id = e.member
             WHERE e.tournament = ?1 ORDER BY e.joined, e.member",
        )
        .map_err(|e| failure(path, e))?;
    stmt.query_map([id.0], |r| {
        Ok(Entry {
            member: MemberId(r.get(0)?),
            name: r.get(1)?,
            rating: r.get(2)?,
            joined: r.get(3)?,
            withdrawn: r.get(4)?,
            units: r.get(5)?,
        })
    })
    .and_then(Iterator::collect)
    .map_err(|e| failure(path, e))
}

/// A tournament's pairings, in the order they were made.
pub(super) fn pairings(
    conn: &Connection,
    path: &Path,
    id: TournamentId,
) -> Result<Vec<KeptPairing>, ClubError> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT id, round, white, black, result, game FROM pairings
             WHERE tournament = ?1 ORDER BY round, id",
        )
        .map_err(|e| failure(path, e))?;
    stmt.query_map([id.0], kept)
        .and_then(Iterator::collect)
        .map_err(|e| failure(path, e))
}

/// Writes a round's pairings (its bye scored at once) and the tournament's round, in
/// one transaction, only while its round is still `round - 1`; the pairings as kept.
pub(super) fn pair(
    conn: &mut Connection,
    path: &Path,
    id: TournamentId,
    round: u32,
    boards: &[Board],
    bye: Option<MemberId>,
) -> Result<Vec<KeptPairing>, ClubError> {
    let at = |e| failure(path, e);
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(at)?;
    // Compare and set: another server of the club may have paired this round already.
    let moved = tx
        .execute(
            "UPDATE tournaments SET round = ?2 WHERE id = ?1 AND round = ?2 - 1",
            params![id.0, round],
        )
        .map_err(at)?;
    if moved == 0 {
        return Err(ClubError::PairedElsewhere {
            tournament: id.0,
            round,
        });
    }
    let mut made = Vec::with_capacity(boards.len() + 1);
    let seats = boards
        .iter()
        .map(|b| (b.white, Some(b.black)))
        .chain(bye.map(|m| (m, None)));
    for (white, black) in seats {
        tx.execute(
            "INSERT INTO pairings (tournament, round, white, black) VALUES (?1, ?2, ?3, ?4)",
            params![id.0, round, white.0, black.map(|b| b.0)],
        )
        .map_err(at)?;
        made.push(KeptPairing {
            id: tx.last_insert_rowid(),
            pairing: Pairing {
                round,
                white,
                black,
                result: None,
            },
            game: None,
        });
    }
    if let Some(m) = bye {
        add_points(&tx, id, m, crate::club::tournament::WIN).map_err(at)?;
    }
    tx.commit().map_err(at)?;
    Ok(made)
}

fn add_points(
    tx: &rusqlite::Transaction<'_>,
    id: TournamentId,
    member: MemberId,
    units: u32,
) -> rusqlite::Result<()> {
    tx.execute(
        "UPDATE entries SET points = points + ?3 WHERE tournament = ?1 AND member = ?2",
        params![id.0, member.0, units],
    )
    .map(drop)
}

/// Archives (and rates) the game of a pairing, notes its result and game, and adds the
/// players' points: all of it or nothing. A pairing whose result is noted already is
/// left as it is (the game recorded again is answered by the archive's first write).
pub(super) fn record_result(
    conn: &mut Connection,
    path: &Path,
    pairing: i64,
    game: &FinishedGame,
) -> Result<(GameId, Option<RatedSides>), ClubError> {
    let at = |e| failure(path, e);
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(at)?;
    let found = tx
        .query_row(
            "SELECT p.id, p.round, p.white, p.black, p.result, p.game, p.tournament, t.name
             FROM pairings p JOIN tournaments t ON t.id = p.tournament WHERE p.id = ?1",
            [pairing],
            |r| Ok((kept(r)?, TournamentId(r.get(6)?), r.get::<_, String>(7)?)),
        )
        .optional()
        .map_err(at)?;
    let Some((kept, tournament, name)) = found else {
        return Err(ClubError::NoSuchPairing(pairing));
    };
    let (white, black) = (kept.pairing.white, kept.pairing.black);
    if black.is_none() || game.white.member != Some(white) || game.black.member != black {
        return Err(ClubError::NoSuchPairing(pairing));
    }
    let (id, sides) = archive(&tx, path, game)?;
    if kept.pairing.result.is_none() {
        tx.execute(
            "UPDATE games SET event = ?2 WHERE id = ?1",
            params![id.0, name],
        )
        .map_err(at)?;
        tx.execute(
            "UPDATE pairings SET game = ?2, result = ?3 WHERE id = ?1",
            params![pairing, id.0, result_word(game.result)],
        )
        .map_err(at)?;
        let over = Pairing {
            result: Some(game.result),
            ..kept.pairing
        };
        for m in [Some(white), black].into_iter().flatten() {
            add_points(&tx, tournament, m, over.units(m)).map_err(at)?;
        }
    }
    tx.commit().map_err(at)?;
    Ok((id, sides))
}
