//! The server's door to the club ([`crate::club`]): one store shared by every session
//! and room, and who a client signing in is. A key the club knows signs in as its
//! member; a new key with a free name joins the club under that name; a client without
//! a key, or whose name is taken, plays casual games only.

use crate::club::{Ban, ClubError, ClubStore, Database, Member, MemberId};
use std::path::Path;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The club's store, shared by the server's threads. Each call holds it for one
/// transaction.
pub struct Club {
    store: Mutex<Box<dyn ClubStore + Send>>,
    database: Database,
}

/// A key of a client signing in: its fingerprint and its OpenSSH text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyText {
    /// `SHA256:…`.
    pub fingerprint: String,
    /// `ssh-ed25519 AAAA…`.
    pub openssh: String,
}

impl Club {
    /// The club kept in the SQLite database at `path` (made when missing).
    pub fn open(path: &Path) -> Result<Club, ClubError> {
        Club::open_at(&Database::Sqlite(path.to_path_buf()))
    }

    /// The club kept in `database`, an SQLite file (made when missing) or PostgreSQL
    /// (its tables made when missing).
    pub fn open_at(database: &Database) -> Result<Club, ClubError> {
        Ok(Club {
            store: Mutex::new(database.open()?.into_store()),
            database: database.clone(),
        })
    }

    /// Where its database is.
    pub fn database(&self) -> &Database {
        &self.database
    }

    /// The store, for one call (or a few that belong together).
    pub fn store(&self) -> MutexGuard<'_, Box<dyn ClubStore + Send>> {
        self.store.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The ban of a key, if it has one. A database that fails is said on the server's
    /// standard error and lets the key in: the club's trouble is not the player's.
    pub fn ban_of(&self, fingerprint: &str) -> Option<Ban> {
        self.store().banned(fingerprint).unwrap_or_else(|e| {
            eprintln!("qchess serve: cannot read the bans: {e}");
            None
        })
    }

    /// The member a key belongs to.
    pub fn owner(&self, fingerprint: &str) -> Result<Option<Member>, ClubError> {
        self.store().key_owner(fingerprint)
    }

    /// Makes `name` a member with `key` as their first key.
    pub fn join(&self, name: &str, key: &KeyText, now: i64) -> Result<Member, ClubError> {
        self.store().join(name, &key.fingerprint, &key.openssh, now)
    }

    /// Seconds since the Unix epoch now, as the club counts time.
    pub fn now() -> i64 {
        i64::try_from(crate::record::now_secs()).unwrap_or(i64::MAX)
    }

    /// Every member's name and number, for the names they protect.
    pub fn names(&self) -> Result<Vec<(String, MemberId)>, ClubError> {
        Ok(self
            .store()
            .roster()?
            .into_iter()
            .map(|(m, _)| (m.name, m.id))
            .collect())
    }
}
