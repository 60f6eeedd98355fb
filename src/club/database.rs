//! Where a club is kept, as the command line names it (`--database URL|FILE`): a
//! `postgres://` or `postgresql://` URL is a PostgreSQL database, anything else an
//! SQLite file; and a club opened there, of either engine.

use super::copy::Snapshot;
use super::{ClubError, ClubStore, PostgresStore, SqliteStore};
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// A club's database: an SQLite file or a PostgreSQL URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// An SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL database, by its URL.
    Postgres(String),
}

impl Database {
    /// The database `text` names: a PostgreSQL URL by its scheme (refused when the
    /// rest does not read), else a file.
    pub fn parse(text: &str) -> Result<Database, ClubError> {
        let lower = text.to_ascii_lowercase();
        if !(lower.starts_with("postgres://") || lower.starts_with("postgresql://")) {
            return Ok(Database::Sqlite(PathBuf::from(text)));
        }
        match postgres::Config::from_str(text) {
            Ok(_) => Ok(Database::Postgres(text.to_string())),
            Err(e) => Err(ClubError::BadUrl {
                url: hide_password(text),
                detail: e.to_string(),
            }),
        }
    }

    /// Opens the club there, making it when missing (an SQLite file and its folder;
    /// in PostgreSQL, the tables of a database that exists), brought up to date.
    pub fn open(&self) -> Result<Engine, ClubError> {
        Ok(match self {
            Database::Sqlite(path) => Engine::Sqlite(SqliteStore::open(path)?),
            Database::Postgres(url) => Engine::Postgres(Box::new(PostgresStore::open(url)?)),
        })
    }

    /// Opens the club there, which must exist (brought up to date).
    pub fn open_existing(&self) -> Result<Engine, ClubError> {
        Ok(match self {
            Database::Sqlite(path) => Engine::Sqlite(SqliteStore::open_existing(path)?),
            Database::Postgres(url) => {
                Engine::Postgres(Box::new(PostgresStore::open_existing(url)?))
            }
        })
    }
}

/// The file's path, or the URL with its password hidden.
impl fmt::Display for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Database::Sqlite(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => f.write_str(&hide_password(url)),
        }
    }
}

/// A URL with its password, if it has one, written `***`.
pub fn hide_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let Some(at) = rest[..authority_end].rfind('@') else {
        return url.to_string();
    };
    match rest[..at].split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***{}", &rest[at..]),
        None => url.to_string(),
    }
}

/// The PostgreSQL URL `url` naming the database `name` instead of its own, on the same
/// server with the same user and options.
pub fn with_database(url: &str, name: &str) -> String {
    let (base, query) = url
        .split_once('?')
        .map_or((url, None), |(b, q)| (b, Some(q)));
    let after_scheme = base.find("://").map_or(0, |i| i + 3);
    let base = match base[after_scheme..].find('/') {
        Some(slash) => &base[..after_scheme + slash],
        None => base,
    };
    match query {
        Some(q) => format!("{base}/{name}?{q}"),
        None => format!("{base}/{name}"),
    }
}

/// A club opened in a database of either engine.
pub enum Engine {
    /// In an SQLite file.
    Sqlite(SqliteStore),
    /// In PostgreSQL (its connection is large: boxed).
    Postgres(Box<PostgresStore>),
}

impl Engine {
    /// The store, for the server's threads or a command.
    pub fn into_store(self) -> Box<dyn ClubStore + Send> {
        match self {
            Engine::Sqlite(s) => Box::new(s),
            Engine::Postgres(s) => s,
        }
    }

    /// Every row of the club at one moment.
    pub fn snapshot(&self) -> Result<Snapshot, ClubError> {
        match self {
            Engine::Sqlite(s) => s.snapshot(),
            Engine::Postgres(s) => s.snapshot(),
        }
    }

    /// Writes `snapshot`'s rows into this club, which must be empty, in one
    /// transaction.
    pub fn load(&mut self, snapshot: &Snapshot) -> Result<(), ClubError> {
        match self {
            Engine::Sqlite(s) => s.load(snapshot),
            Engine::Postgres(s) => s.load(snapshot),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_by_their_scheme_are_postgres_and_the_rest_files() {
        for url in [
            "postgres://qchess@db.example:5432/club",
            "postgresql://db/club",
        ] {
            assert_eq!(
                Database::parse(url).unwrap(),
                Database::Postgres(url.into())
            );
        }
        for file in ["club.sqlite", "/srv/postgres/club.sqlite", "postgres:club"] {
            assert_eq!(
                Database::parse(file).unwrap(),
                Database::Sqlite(file.into())
            );
        }
    }

    #[test]
    fn a_url_that_does_not_read_is_refused_with_its_password_hidden() {
        let e = Database::parse("postgres://ann:pw@db:port/club").unwrap_err();
        assert!(matches!(e, ClubError::BadUrl { .. }), "{e:?}");
        let message = e.to_string();
        assert!(
            message.starts_with("postgres://ann:***@db:port/club: not a PostgreSQL URL"),
            "{message}"
        );
        assert!(
            message.contains("postgres://USER:PASSWORD@HOST:PORT/DATABASE"),
            "{message}"
        );
        assert!(!message.contains("pw"), "{message}");
    }

    #[test]
    fn another_database_on_the_same_server_keeps_the_rest_of_the_url() {
        assert_eq!(
            with_database("postgres://ann@db:5432/postgres?sslmode=disable", "club"),
            "postgres://ann@db:5432/club?sslmode=disable"
        );
        assert_eq!(
            with_database("postgres://%2Ftmp%2Fpg", "club"),
            "postgres://%2Ftmp%2Fpg/club"
        );
    }

    #[test]
    fn a_password_in_a_url_is_never_shown() {
        let shown = |url: &str| Database::parse(url).unwrap().to_string();
        assert_eq!(
            shown("postgres://ann:s3cret@db:5432/club?sslmode=disable"),
            "postgres://ann:***@db:5432/club?sslmode=disable"
        );
        assert_eq!(shown("postgres://ann@db/club"), "postgres://ann@db/club");
        assert_eq!(shown("postgres://db/a@b"), "postgres://db/a@b");
        assert_eq!(shown("postgres://a:b:c@db/x"), "postgres://a:***@db/x");
    }
}
