//! The club in SQLite: one file in WAL mode (readers never wait for the writer), a busy
//! timeout, foreign keys on, and a schema brought up to date by ordered migration steps
//! (its version is SQLite's `user_version`).

use super::copy::{insert_sql, select_sql, Snapshot, Value, TABLES};
use super::live::{LiveRoom, LiveSeek, RoomElsewhere, SeekElsewhere};
use super::tournament::record::{
    Entry, KeptPairing, NewTournament, State, Tournament, TournamentId,
};
use super::tournament::Board;
use super::{
    ArchivedGame, Ban, BoardQuery, Category, CategoryRating, ClubError, ClubStore, ComputerResults,
    FinishedGame, GameId, GameQuery, Member, MemberId, MemberKey, RatedSides, Rating, Seat,
    PROVISIONAL_DEVIATION,
};
use crate::chess::Status;
use rusqlite::types::Type;
use rusqlite::{backup, TransactionBehavior};
use rusqlite::{params, Connection, ErrorCode, OpenFlags, OptionalExtension, Row, Transaction};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use unicode_normalization::UnicodeNormalization;

mod live;
mod tournaments;

/// The migration steps, oldest first: step `n` (from 1) brings a database from version
/// `n - 1` to version `n`. A step, once released, is never changed; a new one is added.
const MIGRATIONS: &[&str] = &[
    // 1: members, keys, ratings, games, bans.
    "CREATE TABLE members (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        folded TEXT NOT NULL UNIQUE,
        created INTEGER NOT NULL
    );
    CREATE TABLE keys (
        fingerprint TEXT PRIMARY KEY,
        openssh TEXT NOT NULL,
        member INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        added INTEGER NOT NULL
    );
    CREATE INDEX keys_member ON keys(member);
    CREATE TABLE ratings (
        member INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        category TEXT NOT NULL CHECK (category IN ('bullet', 'blitz', 'rapid', 'classical')),
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        games INTEGER NOT NULL,
        last_played INTEGER NOT NULL,
        PRIMARY KEY (member, category)
    ) WITHOUT ROWID;
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        white INTEGER REFERENCES members(id) ON DELETE SET NULL,
        white_name TEXT NOT NULL,
        black INTEGER REFERENCES members(id) ON DELETE SET NULL,
        black_name TEXT NOT NULL,
        rated INTEGER NOT NULL CHECK (rated IN (0, 1)),
        category TEXT CHECK (category IN ('bullet', 'blitz', 'rapid', 'classical')),
        time_control TEXT,
        result TEXT NOT NULL CHECK (result IN ('white_wins', 'black_wins', 'draw')),
        reason TEXT,
        record TEXT NOT NULL,
        white_before REAL, white_before_deviation REAL, white_before_volatility REAL,
        white_after REAL, white_after_deviation REAL, white_after_volatility REAL,
        black_before REAL, black_before_deviation REAL, black_before_volatility REAL,
        black_after REAL, black_after_deviation REAL, black_after_volatility REAL,
        started INTEGER NOT NULL,
        ended INTEGER NOT NULL
    );
    CREATE INDEX games_ended ON games(ended, id);
    CREATE INDEX games_white ON games(white, ended, id);
    CREATE INDEX games_black ON games(black, ended, id);
    CREATE TABLE bans (
        fingerprint TEXT PRIMARY KEY,
        reason TEXT NOT NULL,
        since INTEGER NOT NULL
    );",
    // 2: the leaderboard's index: a category's ratings, best first.
    "CREATE INDEX ratings_board ON ratings(category, rating);",
    // 3: a game's key, so that a game recorded again (a crash between its commit and the
    // server noting it) is kept once.
    "ALTER TABLE games ADD COLUMN game_key TEXT;
    CREATE UNIQUE INDEX games_key ON games(game_key) WHERE game_key IS NOT NULL;",
    // 4: tournaments, their entries and pairings; a game's tournament.
    tournaments::MIGRATION,
    // 5: the club's servers and their live rooms (transient).
    live::MIGRATION,
];

/// The schema version this build writes (and the newest it reads).
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// How long a statement waits for another process's lock before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The columns of an [`ArchivedGame`], in the order [`archived`] reads them.
pub(super) const GAME_COLUMNS: &str =
    "id, white, white_name, black, black_name, rated, time_control,
    result, reason, category,
    white_before, white_before_deviation, white_before_volatility,
    white_after, white_after_deviation, white_after_volatility,
    black_before, black_before_deviation, black_before_volatility,
    black_after, black_after_deviation, black_after_volatility,
    started, ended, event";

/// The club in one SQLite file.
pub struct SqliteStore {
    conn: Connection,
    path: PathBuf,
}

impl SqliteStore {
    /// Opens the club's database at `path`, making it (and its folder) when missing, and
    /// brings an older schema up to date. A database of a newer qchess is refused
    /// untouched.
    pub fn open(path: &Path) -> Result<SqliteStore, ClubError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| ClubError::Folder {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        SqliteStore::open_with(path, OpenFlags::SQLITE_OPEN_CREATE)
    }

    /// Opens an existing database (as [`SqliteStore::open`], but a missing one is an
    /// error rather than made).
    pub fn open_existing(path: &Path) -> Result<SqliteStore, ClubError> {
        if !path.is_file() {
            return Err(ClubError::Missing(path.to_path_buf()));
        }
        SqliteStore::open_with(path, OpenFlags::empty())
    }

    fn open_with(path: &Path, create: OpenFlags) -> Result<SqliteStore, ClubError> {
        let at = |e| failure(path, e);
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX | create;
        let conn = Connection::open_with_flags(path, flags).map_err(at)?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(at)?;
        // The version first, read without writing anything: a newer database is left
        // as it is.
        let found = user_version(&conn).map_err(at)?;
        if found > SCHEMA_VERSION {
            return Err(ClubError::Newer {
                path: path.to_path_buf(),
                found,
                known: SCHEMA_VERSION,
            });
        }
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(at)?;
        conn.pragma_update(None, "foreign_keys", true).map_err(at)?;
        // In WAL mode, a process killed at any moment loses no committed transaction;
        // only a power cut may lose the last ones, never half of one.
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(at)?;
        let mut store = SqliteStore {
            conn,
            path: path.to_path_buf(),
        };
        store.migrate(SCHEMA_VERSION)?;
        Ok(store)
    }

    /// Applies the migration steps up to version `to`, each in a transaction of its
    /// own.
    fn migrate(&mut self, to: i64) -> Result<(), ClubError> {
        let path = self.path.clone();
        let at = |e| failure(&path, e);
        // Up to date: nothing to write, no lock to wait for.
        if user_version(&self.conn).map_err(at)? >= to {
            return Ok(());
        }
        loop {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(at)?;
            // Read again under the write lock: another process may have migrated.
            let version = user_version(&tx).map_err(at)?;
            if version >= to {
                return Ok(());
            }
            let step = usize::try_from(version).unwrap_or(0);
            tx.execute_batch(MIGRATIONS[step]).map_err(at)?;
            tx.pragma_update(None, "user_version", version + 1)
                .map_err(at)?;
            tx.commit().map_err(at)?;
        }
    }

    /// The database's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<i64, ClubError> {
        user_version(&self.conn).map_err(|e| self.fail(e))
    }

    /// SQLite's own check of the file (`PRAGMA integrity_check`): its problems, none
    /// when it is sound.
    pub fn integrity_problems(&self) -> Result<Vec<String>, ClubError> {
        let mut stmt = self
            .conn
            .prepare("PRAGMA integrity_check")
            .map_err(|e| self.fail(e))?;
        let lines = stmt
            .query_map([], |r| r.get::<_, String>(0))
            .and_then(Iterator::collect::<Result<Vec<String>, _>>)
            .map_err(|e| self.fail(e))?;
        Ok(lines.into_iter().filter(|l| l != "ok").collect())
    }

    /// Every row of the club, read in one transaction: one moment of the database.
    pub fn snapshot(&self) -> Result<Snapshot, ClubError> {
        let at = |e| failure(&self.path, e);
        let tx = self.conn.unchecked_transaction().map_err(at)?;
        let mut snapshot = Snapshot::default();
        for table in TABLES {
            let mut stmt = tx.prepare(&select_sql(table)).map_err(at)?;
            let rows = stmt
                .query_map([], |row| {
                    (0..table.columns.len())
                        .map(|i| row.get::<_, Value>(i))
                        .collect::<rusqlite::Result<Vec<Value>>>()
                })
                .and_then(Iterator::collect::<rusqlite::Result<Vec<_>>>)
                .map_err(at)?;
            snapshot.tables.push(rows);
        }
        Ok(snapshot)
    }

    /// Writes `snapshot`'s rows into this club, which must be empty, in one
    /// transaction.
    pub fn load(&mut self, snapshot: &Snapshot) -> Result<(), ClubError> {
        let path = self.path.clone();
        let at = |e| failure(&path, e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(at)?;
        for table in TABLES {
            let sql = format!("SELECT EXISTS (SELECT 1 FROM {})", table.name);
            if tx
                .query_row(&sql, [], |r| r.get::<_, bool>(0))
                .map_err(at)?
            {
                return Err(ClubError::NotEmpty(path.display().to_string()));
            }
        }
        for (table, rows) in TABLES.iter().zip(&snapshot.tables) {
            let mut insert = tx.prepare(&insert_sql(table)).map_err(at)?;
            for row in rows {
                insert
                    .execute(rusqlite::params_from_iter(row))
                    .map_err(at)?;
            }
        }
        tx.commit().map_err(at)
    }

    fn fail(&self, e: rusqlite::Error) -> ClubError {
        failure(&self.path, e)
    }
}

/// SQLite's `user_version`: the schema version.
fn user_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.pragma_query_value(None, "user_version", |r| r.get(0))
}

/// A failure of SQLite as an operator reads it: locked, damaged, or as SQLite says.
fn failure(path: &Path, e: rusqlite::Error) -> ClubError {
    let path = path.to_path_buf();
    match e.sqlite_error_code() {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => ClubError::Locked(path),
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => ClubError::Corrupt {
            path,
            detail: e.to_string(),
        },
        _ => ClubError::Sqlite { path, source: e },
    }
}

/// Whether `e` is a uniqueness constraint refusing a second row.
fn duplicate(e: &rusqlite::Error) -> bool {
    e.sqlite_error().is_some_and(|s| {
        s.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
            || s.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
    })
}

/// A name as it is compared: composed (NFC) and in lower case.
pub(super) fn folded(name: &str) -> String {
    name.nfc().collect::<String>().to_lowercase()
}

/// A value of a column that does not read as what it should be.
fn bad_column(i: usize, e: impl std::error::Error + Send + Sync + 'static) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(i, Type::Text, Box::new(e))
}

/// A stored result that is no result.
#[derive(Debug, thiserror::Error)]
#[error("\"{0}\" is not a game's result")]
struct NoSuchResult(String);

/// The word a result is stored as.
pub(super) fn result_word(status: Status) -> &'static str {
    status.name()
}

/// A stored result word as a result.
pub(super) fn result_of(word: &str) -> Option<Status> {
    [Status::WhiteWins, Status::BlackWins, Status::Draw]
        .into_iter()
        .find(|s| s.name() == word)
}

/// A member from the first three columns (id, name, created).
fn member(row: &Row<'_>) -> rusqlite::Result<Member> {
    Ok(Member {
        id: MemberId(row.get(0)?),
        name: row.get(1)?,
        created: row.get(2)?,
    })
}

/// A category's rating from six columns from `at` on (category, rating, deviation,
/// volatility, games, last played).
fn category_rating(row: &Row<'_>, at: usize) -> rusqlite::Result<CategoryRating> {
    let word: String = row.get(at)?;
    Ok(CategoryRating {
        category: word.parse().map_err(|e| bad_column(at, e))?,
        rating: Rating {
            rating: row.get(at + 1)?,
            deviation: row.get(at + 2)?,
            volatility: row.get(at + 3)?,
        },
        games: row.get(at + 4)?,
        last_played: row.get(at + 5)?,
    })
}

/// A rating from three columns from `at` on, when they are not null.
fn rating_at(row: &Row<'_>, at: usize) -> rusqlite::Result<Option<Rating>> {
    let rating: Option<f64> = row.get(at)?;
    let deviation: Option<f64> = row.get(at + 1)?;
    let volatility: Option<f64> = row.get(at + 2)?;
    Ok(match (rating, deviation, volatility) {
        (Some(rating), Some(deviation), Some(volatility)) => Some(Rating {
            rating,
            deviation,
            volatility,
        }),
        _ => None,
    })
}

/// An archived game from the columns of [`GAME_COLUMNS`].
fn archived(row: &Row<'_>) -> rusqlite::Result<ArchivedGame> {
    let control = row
        .get::<_, Option<String>>(6)?
        .map(|s| s.parse().map_err(|e| bad_column(6, e)))
        .transpose()?;
    let word: String = row.get(7)?;
    let result = result_of(&word).ok_or_else(|| bad_column(7, NoSuchResult(word)))?;
    let category = row
        .get::<_, Option<String>>(9)?
        .map(|s| s.parse::<Category>().map_err(|e| bad_column(9, e)))
        .transpose()?;
    let sides = [10, 13, 16, 19]
        .into_iter()
        .map(|at| rating_at(row, at))
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let ratings = match (category, sides.as_slice()) {
        (Some(category), [Some(wb), Some(wa), Some(bb), Some(ba)]) => Some(RatedSides {
            category,
            white: (*wb, *wa),
            black: (*bb, *ba),
        }),
        _ => None,
    };
    Ok(ArchivedGame {
        id: GameId(row.get(0)?),
        white: Seat {
            member: row.get::<_, Option<i64>>(1)?.map(MemberId),
            name: row.get(2)?,
        },
        black: Seat {
            member: row.get::<_, Option<i64>>(3)?.map(MemberId),
            name: row.get(4)?,
        },
        rated: row.get(5)?,
        control,
        result,
        reason: row.get(8)?,
        ratings,
        started: row.get(22)?,
        ended: row.get(23)?,
        event: row.get(24)?,
    })
}

/// A member's rating in a category inside a transaction ([`Rating::NEW`] when none).
fn rating_in(
    tx: &Transaction<'_>,
    member: MemberId,
    category: Category,
) -> rusqlite::Result<Rating> {
    tx.query_row(
        "SELECT rating, deviation, volatility FROM ratings WHERE member = ?1 AND category = ?2",
        params![member.0, category.name()],
        |r| {
            Ok(Rating {
                rating: r.get(0)?,
                deviation: r.get(1)?,
                volatility: r.get(2)?,
            })
        },
    )
    .optional()
    .map(Option::unwrap_or_default)
}

/// Writes a member's new rating in a category after one more game that ended at `ended`.
fn rated_once(
    tx: &Transaction<'_>,
    member: MemberId,
    category: Category,
    after: Rating,
    ended: i64,
) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO ratings (member, category, rating, deviation, volatility, games, last_played)
         VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6)
         ON CONFLICT (member, category) DO UPDATE SET
            rating = excluded.rating, deviation = excluded.deviation,
            volatility = excluded.volatility, games = games + 1,
            last_played = excluded.last_played",
        params![
            member.0,
            category.name(),
            after.rating,
            after.deviation,
            after.volatility,
            ended
        ],
    )
    .map(drop)
}

/// Archives a finished game inside `tx` and, when it is rated, updates both players'
/// ratings; a game whose key the archive holds is answered with its first write.
fn archive(
    tx: &Transaction<'_>,
    path: &Path,
    game: &FinishedGame,
) -> Result<(GameId, Option<RatedSides>), ClubError> {
    if game.result == Status::Ongoing {
        return Err(ClubError::Unfinished);
    }
    let category = game.control.map(Category::of);
    let rated = match (game.rated, game.white.member, game.black.member, category) {
        (false, ..) => None,
        (true, Some(w), Some(b), Some(c)) if w != b => Some((w, b, c)),
        (true, ..) => return Err(ClubError::NotRateable),
    };
    let at = |e| failure(path, e);
    if let Some(key) = &game.key {
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE game_key = ?1");
        let kept = tx.query_row(&sql, [key], archived).optional().map_err(at)?;
        if let Some(kept) = kept {
            return Ok((kept.id, kept.ratings));
        }
    }
    let sides = match rated {
        None => None,
        Some((w, b, category)) => {
            let white = rating_in(tx, w, category).map_err(at)?;
            let black = rating_in(tx, b, category).map_err(at)?;
            let (white_after, black_after) =
                super::rating::rate_game(white, black, game.result).ok_or(ClubError::Unfinished)?;
            rated_once(tx, w, category, white_after, game.ended).map_err(at)?;
            rated_once(tx, b, category, black_after, game.ended).map_err(at)?;
            Some(RatedSides {
                category,
                white: (white, white_after),
                black: (black, black_after),
            })
        }
    };
    let r = |pick: fn(&RatedSides) -> Rating| sides.as_ref().map(pick);
    let [wb, wa, bb, ba] = [
        r(|s| s.white.0),
        r(|s| s.white.1),
        r(|s| s.black.0),
        r(|s| s.black.1),
    ];
    tx.execute(
        "INSERT INTO games (white, white_name, black, black_name, rated, category,
            time_control, result, reason, record,
            white_before, white_before_deviation, white_before_volatility,
            white_after, white_after_deviation, white_after_volatility,
            black_before, black_before_deviation, black_before_volatility,
            black_after, black_after_deviation, black_after_volatility,
            started, ended, game_key)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,
            ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25)",
        params![
            game.white.member.map(|m| m.0),
            game.white.name,
            game.black.member.map(|m| m.0),
            game.black.name,
            game.rated,
            category.map(Category::name),
            game.control.map(|c| c.to_string()),
            result_word(game.result),
            game.reason,
            game.record,
            wb.map(|r| r.rating),
            wb.map(|r| r.deviation),
            wb.map(|r| r.volatility),
            wa.map(|r| r.rating),
            wa.map(|r| r.deviation),
            wa.map(|r| r.volatility),
            bb.map(|r| r.rating),
            bb.map(|r| r.deviation),
            bb.map(|r| r.volatility),
            ba.map(|r| r.rating),
            ba.map(|r| r.deviation),
            ba.map(|r| r.volatility),
            game.started,
            game.ended,
            game.key,
        ],
    )
    .map_err(at)?;
    Ok((GameId(tx.last_insert_rowid()), sides))
}

impl ClubStore for SqliteStore {
    fn add_member(&mut self, name: &str, now: i64) -> Result<Member, ClubError> {
        let inserted = self.conn.execute(
            "INSERT INTO members (name, folded, created) VALUES (?1, ?2, ?3)",
            params![name, folded(name), now],
        );
        match inserted {
            Ok(_) => Ok(Member {
                id: MemberId(self.conn.last_insert_rowid()),
                name: name.to_string(),
                created: now,
            }),
            Err(e) if duplicate(&e) => Err(ClubError::NameTaken(name.to_string())),
            Err(e) => Err(self.fail(e)),
        }
    }

    fn join(
        &mut self,
        name: &str,
        fingerprint: &str,
        openssh: &str,
        now: i64,
    ) -> Result<Member, ClubError> {
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| failure(&path, e))?;
        let inserted = tx.execute(
            "INSERT INTO members (name, folded, created) VALUES (?1, ?2, ?3)",
            params![name, folded(name), now],
        );
        match inserted {
            Ok(_) => {}
            Err(e) if duplicate(&e) => return Err(ClubError::NameTaken(name.to_string())),
            Err(e) => return Err(failure(&path, e)),
        }
        let id = MemberId(tx.last_insert_rowid());
        let keyed = tx.execute(
            "INSERT INTO keys (fingerprint, openssh, member, added) VALUES (?1, ?2, ?3, ?4)",
            params![fingerprint, openssh, id.0, now],
        );
        match keyed {
            Ok(_) => {}
            Err(e) if duplicate(&e) => return Err(ClubError::KeyTaken(fingerprint.to_string())),
            Err(e) => return Err(failure(&path, e)),
        }
        tx.commit().map_err(|e| failure(&path, e))?;
        Ok(Member {
            id,
            name: name.to_string(),
            created: now,
        })
    }

    fn member(&self, name: &str) -> Result<Option<Member>, ClubError> {
        self.conn
            .query_row(
                "SELECT id, name, created FROM members WHERE folded = ?1",
                [folded(name)],
                member,
            )
            .optional()
            .map_err(|e| self.fail(e))
    }

    fn roster(&self) -> Result<Vec<(Member, Vec<CategoryRating>)>, ClubError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT m.id, m.name, m.created, r.category, r.rating, r.deviation,
                        r.volatility, r.games, r.last_played
                 FROM members m LEFT JOIN ratings r ON r.member = m.id
                 ORDER BY m.folded, m.id",
            )
            .map_err(|e| self.fail(e))?;
        let mut rows = stmt.query([]).map_err(|e| self.fail(e))?;
        let mut out: Vec<(Member, Vec<CategoryRating>)> = Vec::new();
        while let Some(row) = rows.next().map_err(|e| self.fail(e))? {
            let member = member(row).map_err(|e| self.fail(e))?;
            if out.last().is_none_or(|(m, _)| m.id != member.id) {
                out.push((member, Vec::new()));
            }
            let rating = row
                .get::<_, Option<String>>(3)
                .map_err(|e| self.fail(e))?
                .map(|_| category_rating(row, 3))
                .transpose()
                .map_err(|e| self.fail(e))?;
            if let (Some(r), Some((_, ratings))) = (rating, out.last_mut()) {
                ratings.push(r);
            }
        }
        for (_, ratings) in &mut out {
            ratings.sort_by_key(|r| r.category);
        }
        Ok(out)
    }

    fn delete_member(&mut self, member: MemberId) -> Result<bool, ClubError> {
        // Keys and ratings go with the member (ON DELETE CASCADE); the games keep their
        // names and lose the member (ON DELETE SET NULL).
        self.conn
            .execute("DELETE FROM members WHERE id = ?1", [member.0])
            .map(|n| n > 0)
            .map_err(|e| self.fail(e))
    }

    fn leaderboard(&self, query: BoardQuery) -> Result<Vec<(Member, CategoryRating)>, ClubError> {
        let limit = i64::try_from(query.limit).unwrap_or(i64::MAX);
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT m.id, m.name, m.created, r.category, r.rating, r.deviation,
                        r.volatility, r.games, r.last_played
                 FROM ratings r JOIN members m ON m.id = r.member
                 WHERE r.category = ?1 AND r.deviation <= ?2 AND r.last_played >= ?3
                 ORDER BY r.rating DESC, m.folded LIMIT ?4",
            )
            .map_err(|e| self.fail(e))?;
        stmt.query_map(
            params![
                query.category.name(),
                PROVISIONAL_DEVIATION,
                query.since,
                limit
            ],
            |r| Ok((member(r)?, category_rating(r, 3)?)),
        )
        .and_then(Iterator::collect)
        .map_err(|e| self.fail(e))
    }

    fn computer_results(&self, member: MemberId) -> Result<Vec<ComputerResults>, ClubError> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT name, SUM(result = mine), SUM(result = 'draw'),
                        SUM(result <> mine AND result <> 'draw')
                 FROM (SELECT black_name AS name, result, 'white_wins' AS mine FROM games
                       WHERE white = ?1 AND black IS NULL AND black_name LIKE 'qchess %'
                       UNION ALL
                       SELECT white_name, result, 'black_wins' FROM games
                       WHERE black = ?1 AND white IS NULL AND white_name LIKE 'qchess %')
                 GROUP BY name ORDER BY name",
            )
            .map_err(|e| self.fail(e))?;
        stmt.query_map([member.0], |r| {
            Ok(ComputerResults {
                name: r.get(0)?,
                wins: r.get(1)?,
                draws: r.get(2)?,
                losses: r.get(3)?,
            })
        })
        .and_then(Iterator::collect)
        .map_err(|e| self.fail(e))
    }

    fn add_key(&mut self, key: &MemberKey) -> Result<(), ClubError> {
        let inserted = self.conn.execute(
            "INSERT INTO keys (fingerprint, openssh, member, added) VALUES (?1, ?2, ?3, ?4)",
            params![key.fingerprint, key.openssh, key.member.0, key.added],
        );
        match inserted {
            Ok(_) => Ok(()),
            Err(e) if duplicate(&e) => Err(ClubError::KeyTaken(key.fingerprint.clone())),
            Err(e) => Err(self.fail(e)),
        }
    }

    fn remove_key(&mut self, member: MemberId, fingerprint: &str) -> Result<bool, ClubError> {
        self.conn
            .execute(
                "DELETE FROM keys WHERE member = ?1 AND fingerprint = ?2",
                params![member.0, fingerprint],
            )
            .map(|n| n > 0)
            .map_err(|e| self.fail(e))
    }

    fn keys(&self, member: MemberId) -> Result<Vec<MemberKey>, ClubError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT fingerprint, openssh, member, added FROM keys
                 WHERE member = ?1 ORDER BY added, fingerprint",
            )
            .map_err(|e| self.fail(e))?;
        stmt.query_map([member.0], |r| {
            Ok(MemberKey {
                fingerprint: r.get(0)?,
                openssh: r.get(1)?,
                member: MemberId(r.get(2)?),
                added: r.get(3)?,
            })
        })
        .and_then(Iterator::collect)
        .map_err(|e| self.fail(e))
    }

    fn key_owner(&self, fingerprint: &str) -> Result<Option<Member>, ClubError> {
        self.conn
            .query_row(
                "SELECT m.id, m.name, m.created FROM keys k JOIN members m ON m.id = k.member
                 WHERE k.fingerprint = ?1",
                [fingerprint],
                member,
            )
            .optional()
            .map_err(|e| self.fail(e))
    }

    fn ban(&mut self, ban: &Ban) -> Result<(), ClubError> {
        self.conn
            .execute(
                "INSERT INTO bans (fingerprint, reason, since) VALUES (?1, ?2, ?3)
                 ON CONFLICT (fingerprint) DO UPDATE SET reason = excluded.reason",
                params![ban.fingerprint, ban.reason, ban.since],
            )
            .map(drop)
            .map_err(|e| self.fail(e))
    }

    fn unban(&mut self, fingerprint: &str) -> Result<bool, ClubError> {
        self.conn
            .execute("DELETE FROM bans WHERE fingerprint = ?1", [fingerprint])
            .map(|n| n > 0)
            .map_err(|e| self.fail(e))
    }

    fn bans(&self) -> Result<Vec<Ban>, ClubError> {
        let mut stmt = self
            .conn
            .prepare("SELECT fingerprint, reason, since FROM bans ORDER BY since DESC, fingerprint")
            .map_err(|e| self.fail(e))?;
        stmt.query_map([], |r| {
            Ok(Ban {
                fingerprint: r.get(0)?,
                reason: r.get(1)?,
                since: r.get(2)?,
            })
        })
        .and_then(Iterator::collect)
        .map_err(|e| self.fail(e))
    }

    fn banned(&self, fingerprint: &str) -> Result<Option<Ban>, ClubError> {
        self.conn
            .query_row(
                "SELECT fingerprint, reason, since FROM bans WHERE fingerprint = ?1",
                [fingerprint],
                |r| {
                    Ok(Ban {
                        fingerprint: r.get(0)?,
                        reason: r.get(1)?,
                        since: r.get(2)?,
                    })
                },
            )
            .optional()
            .map_err(|e| self.fail(e))
    }

    fn ratings(&self, member: MemberId) -> Result<Vec<CategoryRating>, ClubError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT category, rating, deviation, volatility, games, last_played
                 FROM ratings WHERE member = ?1",
            )
            .map_err(|e| self.fail(e))?;
        let mut ratings: Vec<CategoryRating> = stmt
            .query_map([member.0], |r| category_rating(r, 0))
            .and_then(Iterator::collect)
            .map_err(|e| self.fail(e))?;
        ratings.sort_by_key(|r| r.category);
        Ok(ratings)
    }

    fn rating(&self, member: MemberId, category: Category) -> Result<Rating, ClubError> {
        Ok(self
            .ratings(member)?
            .into_iter()
            .find(|r| r.category == category)
            .map_or(Rating::NEW, |r| r.rating))
    }

    fn record_game(
        &mut self,
        game: &FinishedGame,
    ) -> Result<(GameId, Option<RatedSides>), ClubError> {
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| failure(&path, e))?;
        let kept = archive(&tx, &path, game)?;
        tx.commit().map_err(|e| failure(&path, e))?;
        Ok(kept)
    }

    fn games(&self, query: GameQuery) -> Result<Vec<ArchivedGame>, ClubError> {
        let limit = i64::try_from(query.limit).unwrap_or(i64::MAX);
        let sql = match query.member {
            // Each side by its own index, merged: faster than an OR on a large archive.
            Some(_) => format!(
                "SELECT {GAME_COLUMNS} FROM games WHERE id IN (
                    SELECT id FROM (SELECT id, ended FROM games WHERE white = ?1
                                    ORDER BY ended DESC, id DESC LIMIT ?2)
                    UNION ALL
                    SELECT id FROM (SELECT id, ended FROM games WHERE black = ?1
                                    ORDER BY ended DESC, id DESC LIMIT ?2))
                 ORDER BY ended DESC, id DESC LIMIT ?2"
            ),
            None => format!(
                "SELECT {GAME_COLUMNS} FROM games WHERE ?1 IS NULL
                 ORDER BY ended DESC, id DESC LIMIT ?2"
            ),
        };
        let mut stmt = self.conn.prepare_cached(&sql).map_err(|e| self.fail(e))?;
        stmt.query_map(params![query.member.map(|m| m.0), limit], archived)
            .and_then(Iterator::collect)
            .map_err(|e| self.fail(e))
    }

    fn game_record(&self, id: GameId) -> Result<Option<String>, ClubError> {
        self.conn
            .query_row("SELECT record FROM games WHERE id = ?1", [id.0], |r| {
                r.get(0)
            })
            .optional()
            .map_err(|e| self.fail(e))
    }

    fn backup(&self, to: &Path) -> Result<(), ClubError> {
        let failed = |source| ClubError::Backup {
            to: to.to_path_buf(),
            source,
        };
        let mut copy = Connection::open(to).map_err(failed)?;
        let job = backup::Backup::new(&self.conn, &mut copy).map_err(failed)?;
        let deadline = Instant::now() + BUSY_TIMEOUT;
        loop {
            // All pages in one step: a consistent copy of one moment of the database.
            match job.step(-1).map_err(failed)? {
                backup::StepResult::Done => return Ok(()),
                _ if Instant::now() > deadline => return Err(ClubError::Locked(self.path.clone())),
                _ => std::thread::sleep(Duration::from_millis(20)),
            }
        }
    }

    fn create_tournament(&mut self, new: &NewTournament) -> Result<Tournament, ClubError> {
        tournaments::create(&self.conn, &self.path, new)
    }

    fn tournaments(&self) -> Result<Vec<Tournament>, ClubError> {
        tournaments::list(&self.conn, &self.path)
    }

    fn tournament(&self, name: &str) -> Result<Option<Tournament>, ClubError> {
        tournaments::named(&self.conn, &self.path, name)
    }

    fn set_tournament_state(&mut self, id: TournamentId, state: State) -> Result<bool, ClubError> {
        tournaments::set_state(&self.conn, &self.path, id, state)
    }

    fn enter(
        &mut self,
        id: TournamentId,
        member: MemberId,
        rating: f64,
        now: i64,
    ) -> Result<(), ClubError> {
        tournaments::enter(&self.conn, &self.path, id, member, rating, now)
    }

    fn withdraw(&mut self, id: TournamentId, member: MemberId) -> Result<bool, ClubError> {
        tournaments::withdraw(&self.conn, &self.path, id, member)
    }

    fn entries(&self, id: TournamentId) -> Result<Vec<Entry>, ClubError> {
        tournaments::entries(&self.conn, &self.path, id)
    }

    fn pairings(&self, id: TournamentId) -> Result<Vec<KeptPairing>, ClubError> {
        tournaments::pairings(&self.conn, &self.path, id)
    }

    fn pair(
        &mut self,
        id: TournamentId,
        round: u32,
        boards: &[Board],
        bye: Option<MemberId>,
    ) -> Result<Vec<KeptPairing>, ClubError> {
        tournaments::pair(&mut self.conn, &self.path, id, round, boards, bye)
    }

    fn record_pairing(
        &mut self,
        pairing: i64,
        game: &FinishedGame,
    ) -> Result<(GameId, Option<RatedSides>), ClubError> {
        tournaments::record_result(&mut self.conn, &self.path, pairing, game)
    }

    fn publish_live(
        &mut self,
        server: &str,
        address: &str,
        published: (&[LiveRoom], &[LiveSeek]),
        now: i64,
    ) -> Result<(), ClubError> {
        live::publish(&mut self.conn, &self.path, server, address, published, now)
    }

    fn withdraw_server(&mut self, server: &str) -> Result<(), ClubError> {
        live::withdraw(&self.conn, &self.path, server)
    }

    fn live_rooms(&self, except: &str, now: i64) -> Result<Vec<RoomElsewhere>, ClubError> {
        live::elsewhere(&self.conn, &self.path, except, now)
    }

    fn live_seeks(&self, except: &str, now: i64) -> Result<Vec<SeekElsewhere>, ClubError> {
        live::seeks_elsewhere(&self.conn, &self.path, except, now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::clock::TimeControl;

    /// An empty scratch folder for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("qchess-club-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn seat(m: &Member) -> Seat {
        Seat {
            member: Some(m.id),
            name: m.name.clone(),
        }
    }

    fn game(
        white: Seat,
        black: Seat,
        rated: bool,
        control: &str,
        result: Status,
        ended: i64,
    ) -> FinishedGame {
        FinishedGame {
            white,
            black,
            rated,
            control: control.parse::<TimeControl>().ok(),
            result,
            reason: None,
            record: "format = 1\nmoves = []\n".into(),
            started: ended - 300,
            ended,
            key: None,
        }
    }

    #[test]
    fn a_new_database_reaches_the_current_version_in_wal_mode() {
        let dir = scratch("fresh");
        let path = dir.join("deep").join("club.sqlite");
        let store = SqliteStore::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        let mode: String = store
            .conn
            .pragma_query_value(None, "journal_mode", |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        let keys: bool = store
            .conn
            .pragma_query_value(None, "foreign_keys", |r| r.get(0))
            .unwrap();
        assert!(keys);
        assert_eq!(store.integrity_problems().unwrap(), Vec::<String>::new());
        drop(store);
        // Opening again changes nothing.
        let store = SqliteStore::open_existing(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Every earlier version's database (a file as that version wrote it), opened by
    /// this build: brought to the current version with its rows kept.
    #[test]
    fn databases_of_every_earlier_version_are_brought_up_to_date() {
        let written: &[(i64, &str)] = &[
            (1, include_str!("testdata/v1.sql")),
            (2, include_str!("testdata/v2.sql")),
            (3, include_str!("testdata/v3.sql")),
            (4, include_str!("testdata/v4.sql")),
            (5, include_str!("testdata/v5.sql")),
        ];
        assert_eq!(
            written.len() as i64,
            SCHEMA_VERSION,
            "a fixture for every released version"
        );
        let dir = scratch("earlier");
        for (version, sql) in written {
            let path = dir.join(format!("v{version}.sqlite"));
            Connection::open(&path).unwrap().execute_batch(sql).unwrap();
            let mut store = SqliteStore::open_existing(&path).unwrap();
            assert_eq!(
                store.schema_version().unwrap(),
                SCHEMA_VERSION,
                "v{version}"
            );
            let ann = store.member("ANN").unwrap().unwrap();
            assert_eq!(store.key_owner("SHA256:annkey").unwrap(), Some(ann.clone()));
            assert!(store.banned("SHA256:spam").unwrap().is_some());
            let blitz = store.rating(ann.id, Category::Blitz).unwrap();
            assert_eq!(blitz.shown(), 1662);
            let games = store
                .games(GameQuery {
                    member: None,
                    limit: 10,
                })
                .unwrap();
            assert_eq!(games.len(), 2);
            assert_eq!(games[0].white.member, None);
            assert_eq!(games[0].result, Status::Draw);
            let rated = &games[1];
            assert_eq!(rated.control.unwrap().to_string(), "5+3");
            let [a, b] = rated.changes().unwrap();
            assert_eq!(a.to_string(), "Ann 1500? -> 1662? (+162)");
            assert_eq!(b.to_string(), "bob 1500? -> 1338? (-162)");
            let record = store.game_record(rated.id).unwrap().unwrap();
            assert!(record.contains("e2e4"));
            // Tournaments from version 4 on: the fixture's Swiss, and none before.
            let kept = store.tournaments().unwrap();
            if *version >= 4 {
                assert_eq!(kept.len(), 1);
                assert_eq!(rated.event.as_deref(), Some("Friday Swiss"));
                let entries = store.entries(kept[0].id).unwrap();
                assert_eq!((entries[0].name.as_str(), entries[0].units), ("Ann", 2));
                let pairings = store.pairings(kept[0].id).unwrap();
                assert_eq!(pairings[0].game, Some(rated.id));
            } else {
                assert!(kept.is_empty() && rated.event.is_none());
            }
            // A tournament can be made in it.
            let new = crate::club::tournament::record::NewTournament {
                name: "Monday arena".into(),
                kind: crate::club::tournament::Kind::Arena,
                control: "3+2".parse().unwrap(),
                length: crate::club::tournament::record::Length::Minutes(60),
                starts: 1_764_100_000,
                creator: Some(ann.id),
            };
            store.create_tournament(&new).unwrap();
            // Its servers' rooms: the fixture's server long gone, a new one listed.
            let room = crate::club::live::LiveRoom {
                name: "bob".into(),
                rules: "harmonics".into(),
                clock: None,
                white: Some("bob".into()),
                black: None,
                watchers: 1,
                rated: false,
            };
            let now = 1_764_100_000;
            let seek = crate::club::live::LiveSeek {
                id: 1,
                poster: "bob".into(),
                rating: "1338?".into(),
                clock: "3+2".into(),
                rated: true,
                colour: "white".into(),
                range: None,
            };
            store
                .publish_live("a", "[::1]:2222", (&[room], &[seek]), now)
                .unwrap();
            assert_eq!(store.live_seeks("b", now).unwrap().len(), 1);
            let listed = store.live_rooms("b", now).unwrap();
            assert_eq!(listed.len(), 1, "v{version}: {listed:?}");
            assert_eq!(listed[0].room.name, "bob");
            assert_eq!(store.integrity_problems().unwrap(), Vec::<String>::new());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_database_of_a_newer_qchess_is_refused_untouched() {
        let dir = scratch("newer");
        let path = dir.join("club.sqlite");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch("CREATE TABLE future (x); INSERT INTO future VALUES (1);")
                .unwrap();
            conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
                .unwrap();
        }
        let before = std::fs::read(&path).unwrap();
        let e = SqliteStore::open(&path).err().unwrap();
        assert!(matches!(e, ClubError::Newer { found, .. } if found == SCHEMA_VERSION + 1));
        let message = e.to_string();
        assert!(
            message.contains("newer qchess") && message.contains("untouched"),
            "{message}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), before);
        assert!(!dir.join("club.sqlite-wal").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn missing_and_damaged_databases_are_named_as_such() {
        let dir = scratch("broken");
        let missing = dir.join("none.sqlite");
        let e = SqliteStore::open_existing(&missing).err().unwrap();
        assert!(matches!(e, ClubError::Missing(_)), "{e}");
        assert!(!missing.exists());
        let junk = dir.join("junk.sqlite");
        std::fs::write(
            &junk,
            "this is not a database, only some words in a file ".repeat(100),
        )
        .unwrap();
        let e = SqliteStore::open_existing(&junk).err().unwrap();
        assert!(matches!(e, ClubError::Corrupt { .. }), "{e:?}");
        assert!(e.to_string().contains("restore it from a backup"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_leaderboard_reads_a_category_through_its_index() {
        let dir = scratch("plan");
        let store = SqliteStore::open(&dir.join("club.sqlite")).unwrap();
        let plan: Vec<String> = store
            .conn
            .prepare(
                "EXPLAIN QUERY PLAN SELECT member FROM ratings WHERE category = 'blitz'
                 ORDER BY rating DESC",
            )
            .unwrap()
            .query_map([], |r| r.get::<_, String>(3))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(plan.iter().any(|l| l.contains("ratings_board")), "{plan:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_backup_is_a_whole_database_of_its_own() {
        let dir = scratch("backup");
        let mut store = SqliteStore::open(&dir.join("club.sqlite")).unwrap();
        let ann = store.add_member("ann", 0).unwrap();
        let bob = store.add_member("bob", 0).unwrap();
        store
            .record_game(&game(
                seat(&ann),
                seat(&bob),
                true,
                "1+0",
                Status::BlackWins,
                9,
            ))
            .unwrap();
        let copy_path = dir.join("copy.sqlite");
        store.backup(&copy_path).unwrap();
        // The original goes on; the copy keeps the moment it was taken.
        store
            .record_game(&game(
                seat(&ann),
                seat(&bob),
                true,
                "1+0",
                Status::BlackWins,
                10,
            ))
            .unwrap();
        let copy = SqliteStore::open_existing(&copy_path).unwrap();
        assert_eq!(copy.integrity_problems().unwrap(), Vec::<String>::new());
        assert_eq!(
            copy.games(GameQuery {
                member: None,
                limit: 10
            })
            .unwrap()
            .len(),
            1
        );
        assert_eq!(
            copy.rating(bob.id, Category::Bullet).unwrap(),
            store
                .games(GameQuery {
                    member: None,
                    limit: 10
                })
                .unwrap()[1]
                .ratings
                .unwrap()
                .black
                .1
        );
        let e = store
            .backup(&dir.join("no").join("such").join("dir.sqlite"))
            .err()
            .unwrap();
        assert!(e.to_string().starts_with("cannot back up to"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_database_another_process_holds_is_said_to_be_locked() {
        let dir = scratch("locked");
        let path = dir.join("club.sqlite");
        let mut store = SqliteStore::open(&path).unwrap();
        let ann = store.add_member("ann", 0).unwrap();
        let bob = store.add_member("bob", 0).unwrap();
        store.conn.busy_timeout(Duration::from_millis(50)).unwrap();
        let other = Connection::open(&path).unwrap();
        other.execute_batch("BEGIN IMMEDIATE").unwrap();
        // Readers go on while another writes; a writer waits, then gives up.
        assert_eq!(store.roster().unwrap().len(), 2);
        let e = store
            .record_game(&game(seat(&ann), seat(&bob), true, "5+3", Status::Draw, 1))
            .err()
            .unwrap();
        assert!(matches!(e, ClubError::Locked(_)), "{e:?}");
        assert!(e.to_string().contains("locked by another process"), "{e}");
        other.execute_batch("ROLLBACK").unwrap();
        store
            .record_game(&game(seat(&ann), seat(&bob), true, "5+3", Status::Draw, 1))
            .unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
