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

/// The club's tables, each after those its rows refer to.
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
        ],
        order: "id",
    },
    Table {
        name: "bans",
        columns: &["fingerprint", "reason", "since"],
        order: "fingerprint",
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
