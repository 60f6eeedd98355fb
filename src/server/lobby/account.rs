//! A member's keys from their own page: adding one by pasting its OpenSSH public key,
//! removing one (never the last: an account without a key is one nobody can sign in
//! to, so leaving the club is deleting the account).

use super::ask::{failed, NO_ACCOUNT};
use crate::club::{ClubError, ClubStore, MemberKey};
use crate::server::keys::fingerprint;
use crate::server::room::Person;
use russh::keys::PublicKey;

/// Why a key could not be added or removed, in the player's words.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum KeyRefused {
    /// A guest has no keys to manage.
    #[error("{NO_ACCOUNT}")]
    Guest,
    /// The text pasted is no public key.
    #[error("that is not an OpenSSH public key: paste one line like ssh-ed25519 AAAA… comment (from your .pub file)")]
    NotAKey,
    /// The key is registered already.
    #[error("that key is registered already, to you or to another player")]
    Taken,
    /// The key is banned here.
    #[error("that key is banned on this server")]
    Banned,
    /// The last key stays.
    #[error("your last key stays: without a key nobody could sign in as you (D deletes the account instead)")]
    Last,
    /// The key this session signed in with.
    #[error(
        "that is the key you signed in with now: sign in with another of your keys to remove it"
    )]
    InUse,
    /// No such key of the player's.
    #[error("that key is not one of yours")]
    NotYours,
    /// The database failed.
    #[error("{0}")]
    Failed(String),
}

/// Reads one OpenSSH public key line (`ssh-ed25519 AAAA… comment`).
pub fn parse_key(text: &str) -> Result<PublicKey, KeyRefused> {
    let line = text.trim();
    if line.lines().count() != 1 {
        return Err(KeyRefused::NotAKey);
    }
    PublicKey::from_openssh(line).map_err(|_| KeyRefused::NotAKey)
}

fn db(e: ClubError) -> KeyRefused {
    KeyRefused::Failed(failed(&e))
}

/// Registers the key pasted as `text` for `me`; what to tell them.
pub fn add(store: &mut dyn ClubStore, me: &Person, text: &str, now: i64) -> Result<String, String> {
    add_key(store, me, text, now).map_err(|e| e.to_string())
}

fn add_key(
    store: &mut dyn ClubStore,
    me: &Person,
    text: &str,
    now: i64,
) -> Result<String, KeyRefused> {
    let member = me.member.ok_or(KeyRefused::Guest)?;
    let key = parse_key(text)?;
    let print = fingerprint(&key);
    if store.banned(&print).map_err(db)?.is_some() {
        return Err(KeyRefused::Banned);
    }
    let openssh = key.to_openssh().map_err(|_| KeyRefused::NotAKey)?;
    let added = store.add_key(&MemberKey {
        fingerprint: print.clone(),
        openssh,
        member,
        added: now,
    });
    match added {
        Ok(()) => Ok(format!("key {print} added: it signs in as {}", me.name)),
        Err(ClubError::KeyTaken(_)) => Err(KeyRefused::Taken),
        Err(e) => Err(db(e)),
    }
}

/// Removes `me`'s key `print`; what to tell them.
pub fn remove(store: &mut dyn ClubStore, me: &Person, print: &str) -> Result<String, String> {
    remove_key(store, me, print).map_err(|e| e.to_string())
}

fn remove_key(store: &mut dyn ClubStore, me: &Person, print: &str) -> Result<String, KeyRefused> {
    let member = me.member.ok_or(KeyRefused::Guest)?;
    let keys = store.keys(member).map_err(db)?;
    if !keys.iter().any(|k| k.fingerprint == print) {
        return Err(KeyRefused::NotYours);
    }
    if keys.len() == 1 {
        return Err(KeyRefused::Last);
    }
    if me.key.as_deref() == Some(print) {
        return Err(KeyRefused::InUse);
    }
    if !store.remove_key(member, print).map_err(db)? {
        return Err(KeyRefused::NotYours);
    }
    Ok(format!(
        "key {print} removed: it no longer signs in as {}",
        me.name
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::{Ban, SqliteStore};
    use russh::keys::ssh_key::private::Ed25519Keypair;
    use russh::keys::PrivateKey;

    fn line(seed: u8) -> String {
        PrivateKey::from(Ed25519Keypair::from_seed(&[seed; 32]))
            .public_key()
            .to_openssh()
            .unwrap()
    }

    #[test]
    fn keys_are_added_by_their_text_and_the_last_one_stays() {
        let dir = std::env::temp_dir().join(format!("qchess-account-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut store = SqliteStore::open(&dir.join("club.sqlite")).unwrap();
        let first = parse_key(&line(1)).unwrap();
        let ann = store
            .join("ann", &fingerprint(&first), &line(1), 0)
            .unwrap();
        let me = Person {
            name: "ann".into(),
            key: Some(fingerprint(&first)),
            from: None,
            member: Some(ann.id),
        };
        let second = format!("  {} laptop\n", line(2));
        let said = add_key(&mut store, &me, &second, 5).unwrap();
        assert!(said.ends_with("signs in as ann"), "{said}");
        let print = fingerprint(&parse_key(&second).unwrap());
        assert_eq!(store.key_owner(&print).unwrap().map(|m| m.id), Some(ann.id));
        for (text, refused) in [
            ("ssh-ed25519 AAAAnot-base64", KeyRefused::NotAKey),
            ("", KeyRefused::NotAKey),
            (&format!("{}\n{}", line(3), line(4)), KeyRefused::NotAKey),
            (&line(2), KeyRefused::Taken),
        ] {
            assert_eq!(add_key(&mut store, &me, text, 6), Err(refused), "{text:?}");
        }
        store
            .ban(&Ban {
                fingerprint: fingerprint(&parse_key(&line(9)).unwrap()),
                reason: "spam".into(),
                since: 0,
            })
            .unwrap();
        assert_eq!(
            add_key(&mut store, &me, &line(9), 7),
            Err(KeyRefused::Banned)
        );
        let guest = Person {
            member: None,
            ..me.clone()
        };
        assert_eq!(
            add_key(&mut store, &guest, &line(5), 7),
            Err(KeyRefused::Guest)
        );
        // Removing: only the player's own, never the last.
        assert_eq!(
            remove_key(&mut store, &me, "SHA256:none"),
            Err(KeyRefused::NotYours)
        );
        // Not the key this session signed in with: from the other one, yes.
        assert_eq!(
            remove_key(&mut store, &me, &fingerprint(&first)),
            Err(KeyRefused::InUse)
        );
        let on_laptop = Person {
            key: Some(print.clone()),
            ..me.clone()
        };
        remove_key(&mut store, &on_laptop, &fingerprint(&first)).unwrap();
        assert_eq!(remove_key(&mut store, &me, &print), Err(KeyRefused::Last));
        assert_eq!(store.keys(ann.id).unwrap().len(), 1);
        assert!(KeyRefused::Last
            .to_string()
            .contains("nobody could sign in"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
