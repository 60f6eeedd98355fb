//! A whole club as rows, table by table: what `qchess club migrate` moves from one
//! database to another, and what a PostgreSQL club's backup writes to an SQLite file.
//! Both engines hold the same tables with the same columns, so one list of them serves
//! both ways; a table added by a migration step is added here too.

use super::{ClubError, Database};

/// One value of a row: null, an integer, a real, a text (a flag is the integer 0 or 1).
pub use rusqlite::types::Value;

/// A table of the club: its name, its columns, and the order its rows are read in.
pub struct Table {
    /// Its name.
    pub name: &'static str,
    /// Its columns, as read and written.
    pub columns: &'static [&'static str],
    /// The `ORDER BY` of its rows (its primary key).
    pub order: &'static str,
}

/// The club's tables, each after those its rows refer to. The servers and their live
/// rooms (`servers`, `live_rooms`: `club::live`) are left out on purpose: they are
/// transient, each server's own for a few seconds, and a moved or backed-up club has
/// none running.
pub const TABLES: &[Table] = &[
    Table {
        name: "members",
        columns: &["id", "name", "folded", "created"],
        order: "id",
    },
    Table {
        name: "keys",
        columns: &["fingerprint", "openssh", "member", "added"],
        order: "fingerprint",
    },
    Table {
        name: "ratings",
        columns: &[
            "member",
            "category",
            "rating",
            "deviation",
            "volatility",
            "games",
            "last_played",
        ],
        order: "member, category",
    },
    Table {
        name: "games",
        columns: &[
            "id",
            "white",
            "white_name",
            "black",
            "black_name",
            "rated",
            "category",
            "time_control",
            "result",
            "reason",
            "record",
            "white_before",
            "white_before_deviation",
            "white_before_volatility",
            "white_after",
            "white_after_deviation",
            "white_after_volatility",
            "black_before",
            "black_before_deviation",
            "black_before_volatility",
            "black_after",
            "black_after_deviation",
            "black_after_volatility",
            "started",
            "ended",
            "game_key",
            "event",
        ],
        order: "id",
    },
    Table {
        name: "bans",
        columns: &["fingerprint", "reason", "since"],
        order: "fingerprint",
    },
    Table {
        name: "tournaments",
        columns: &[
            "id",
            "name",
            "folded",
            "kind",
            "time_control",
            "rounds",
            "minutes",
            "starts",
            "creator",
            "state",
            "round",
        ],
        order: "id",
    },
    Table {
        name: "entries",
        columns: &[
            "tournament",
            "member",
            "rating",
            "joined",
            "withdrawn",
            "points",
        ],
        order: "tournament, member",
    },
    Table {
        name: "pairings",
        columns: &[
            "id",
            "tournament",
            "round",
            "white",
            "black",
            "game",
            "result",
        ],
        order: "id",
    },
];

/// Every row of every table of a club at one moment, in the order of [`TABLES`].
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Snapshot {
    /// The rows of each table, in its order.
    pub tables: Vec<Vec<Vec<Value>>>,
}

impl Snapshot {
    /// How many rows the table named `name` has.
    pub fn rows(&self, name: &str) -> usize {
        TABLES
            .iter()
            .position(|t| t.name == name)
            .and_then(|i| self.tables.get(i))
            .map_or(0, Vec::len)
    }
}

/// `INSERT INTO table (columns) VALUES (…)` with one numbered parameter a column, in
/// the `$n` form both engines read.
pub fn insert_sql(table: &Table) -> String {
    let marks: Vec<String> = (1..=table.columns.len()).map(|i| format!("${i}")).collect();
    format!(
        "INSERT INTO {} ({}) VALUES ({})",
        table.name,
        table.columns.join(", "),
        marks.join(", ")
    )
}

/// `SELECT columns FROM table ORDER BY key`.
pub fn select_sql(table: &Table) -> String {
    format!(
        "SELECT {} FROM {} ORDER BY {}",
        table.columns.join(", "),
        table.name,
        table.order
    )
}

/// Moves the whole club of `from` (which must exist) into `to` (made when missing; it
/// must hold no club yet), in one transaction on `to`. What was moved.
pub fn migrate(from: &Database, to: &Database) -> Result<Snapshot, ClubError> {
    let snapshot = from.open_existing()?.snapshot()?;
    to.open()?.load(&snapshot)?;
    Ok(snapshot)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Status;
    use crate::club::store_tests::{drop_database, game, scratch_database, seat};
    use crate::club::tournament::record::{Length, NewTournament};
    use crate::club::tournament::{Board, Kind};
    use crate::club::{Ban, ClubStore, GameQuery, SqliteStore};

    /// A club of two members with keys, ratings, a ban, three games (one keyed) and a
    /// Swiss of one round whose game is a fourth.
    fn a_club(store: &mut dyn ClubStore) {
        let ann = store
            .join("Ann", "SHA256:a", "ssh-ed25519 AAAA ann", 1)
            .unwrap();
        let bob = store.add_member("bob", 2).unwrap();
        store
            .ban(&Ban {
                fingerprint: "SHA256:spam".into(),
                reason: "flooding".into(),
                since: 3,
            })
            .unwrap();
        let keyed = crate::club::FinishedGame {
            key: Some("room-1".into()),
            ..game(seat(&ann), seat(&bob), true, "5+3", Status::WhiteWins, 100)
        };
        store.record_game(&keyed).unwrap();
        store
            .record_game(&game(
                seat(&bob),
                seat(&ann),
                true,
                "1+0",
                Status::Draw,
                200,
            ))
            .unwrap();
        let guest = crate::club::Seat {
            member: None,
            name: "guest-1".into(),
        };
        store
            .record_game(&game(
                guest,
                seat(&ann),
                false,
                "none",
                Status::BlackWins,
                300,
            ))
            .unwrap();
        let swiss = store
            .create_tournament(&NewTournament {
                name: "Club Swiss".into(),
                kind: Kind::Swiss,
                control: "3+2".parse().unwrap(),
                length: Length::Rounds(1),
                starts: 400,
                creator: Some(ann.id),
            })
            .unwrap();
        store.enter(swiss.id, ann.id, 1500.0, 350).unwrap();
        store.enter(swiss.id, bob.id, 1500.0, 360).unwrap();
        let board = Board {
            white: ann.id,
            black: bob.id,
        };
        let [kept] = store.pair(swiss.id, 1, &[board], None).unwrap()[..] else {
            panic!("one board paired");
        };
        store
            .record_pairing(
                kept.id,
                &game(seat(&ann), seat(&bob), true, "3+2", Status::Draw, 500),
            )
            .unwrap();
    }

    #[test]
    fn a_club_moves_from_sqlite_to_postgres_and_back_whole() {
        let Some((admin, name, url)) = scratch_database() else {
            return;
        };
        let dir = std::env::temp_dir().join(format!("qchess-club-migrate-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let file = Database::Sqlite(dir.join("club.sqlite"));
        a_club(file.open().unwrap().into_store().as_mut());
        let postgres = Database::Postgres(url);
        let moved = migrate(&file, &postgres).unwrap();
        assert_eq!(
            ["members", "keys", "ratings", "games", "bans"].map(|t| moved.rows(t)),
            [2, 1, 4, 4, 1]
        );
        assert_eq!(
            ["tournaments", "entries", "pairings"].map(|t| moved.rows(t)),
            [1, 2, 1]
        );
        // A club is moved into an empty database only: nothing is written again.
        let e = migrate(&file, &postgres).unwrap_err();
        assert!(matches!(e, crate::club::ClubError::NotEmpty(_)), "{e:?}");
        assert_eq!(postgres.open_existing().unwrap().snapshot().unwrap(), moved);
        // The club goes on there: the kept game is known by its key, new numbers follow
        // the moved ones.
        let mut there = postgres.open_existing().unwrap().into_store();
        let ann = there.member("ann").unwrap().unwrap();
        let bob = there.member("BOB").unwrap().unwrap();
        let again = crate::club::FinishedGame {
            key: Some("room-1".into()),
            ..game(seat(&ann), seat(&bob), true, "5+3", Status::WhiteWins, 100)
        };
        let all = GameQuery {
            member: None,
            limit: 10,
        };
        let first = there.games(all).unwrap().pop().unwrap();
        assert_eq!(
            there.record_game(&again).unwrap(),
            (first.id, first.ratings)
        );
        let cy = there.add_member("cy", 4).unwrap();
        assert!(cy.id > bob.id && cy.id > ann.id);
        let (fourth, _) = there
            .record_game(&game(
                seat(&cy),
                seat(&ann),
                false,
                "none",
                Status::Draw,
                400,
            ))
            .unwrap();
        assert_eq!(fourth.0, 5);
        let swiss = there.tournament("club swiss").unwrap().unwrap();
        assert_eq!(
            there.games(all).unwrap()[0].event.as_deref(),
            Some("Club Swiss")
        );
        let board = Board {
            white: bob.id,
            black: ann.id,
        };
        let second = there.pair(swiss.id, 2, &[board], None).unwrap();
        assert_eq!(
            second[0].id, 2,
            "the pairings' numbers follow the moved ones"
        );
        drop(there);
        // And back to a new SQLite file: the same rows.
        let back = Database::Sqlite(dir.join("back.sqlite"));
        let returned = migrate(&postgres, &back).unwrap();
        assert_eq!(returned.rows("games"), 5);
        assert_eq!(returned.rows("pairings"), 2);
        let copy = SqliteStore::open_existing(&dir.join("back.sqlite")).unwrap();
        assert_eq!(copy.integrity_problems().unwrap(), Vec::<String>::new());
        assert_eq!(copy.snapshot().unwrap(), returned);
        drop_database(&admin, &name);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_club_moves_between_sqlite_files_with_every_row() {
        let dir = std::env::temp_dir().join(format!("qchess-club-copy-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let from = Database::Sqlite(dir.join("from.sqlite"));
        a_club(from.open().unwrap().into_store().as_mut());
        let to = Database::Sqlite(dir.join("to.sqlite"));
        let moved = migrate(&from, &to).unwrap();
        assert_eq!(moved, from.open_existing().unwrap().snapshot().unwrap());
        assert_eq!(to.open_existing().unwrap().snapshot().unwrap(), moved);
        assert!(matches!(
            migrate(&from, &to),
            Err(crate::club::ClubError::NotEmpty(_))
        ));
        let missing = Database::Sqlite(dir.join("none.sqlite"));
        assert!(matches!(
            migrate(&missing, &to),
            Err(crate::club::ClubError::Missing(_))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
