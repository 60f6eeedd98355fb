//! The sessions running now and how to reach each: to wake it, or to end it when the
//! server stops or the key it signed in with may no longer sign in (banned by the
//! operator, removed from its account, the account deleted).

use super::club::Club;
use super::incoming::Incoming;
use super::room::{Person, SessionId};
use crate::club::{ClubError, MemberId};
use std::collections::HashMap;
use std::sync::mpsc::SyncSender;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// One running session.
struct Live {
    tx: SyncSender<Incoming>,
    /// The fingerprint of the key it signed in with.
    key: Option<String>,
    /// The account that key signed in as.
    member: Option<MemberId>,
}

/// The running sessions, by number.
#[derive(Default)]
pub struct LiveSessions {
    map: Mutex<HashMap<SessionId, Live>>,
}

impl LiveSessions {
    fn lock(&self) -> MutexGuard<'_, HashMap<SessionId, Live>> {
        self.map.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Session `id` of `person` runs, reached through `tx`.
    pub fn insert(&self, id: SessionId, tx: SyncSender<Incoming>, person: &Person) {
        let live = Live {
            tx,
            key: person.key.clone(),
            member: person.member,
        };
        self.lock().insert(id, live);
    }

    /// Session `id` ended.
    pub fn remove(&self, id: SessionId) {
        self.lock().remove(&id);
    }

    /// Tells session `id` to look at what changed.
    pub fn wake(&self, id: SessionId) {
        if let Some(live) = self.lock().get(&id) {
            let _ = live.tx.try_send(Incoming::Wake);
        }
    }

    /// Tells every session to end, with `why` on its terminal.
    pub fn close_all(&self, why: &str) {
        for live in self.lock().values() {
            let _ = live.tx.try_send(Incoming::Close(why.to_string()));
        }
    }

    /// Session `id` deleted its own account: it goes on without one.
    pub fn left_club(&self, id: SessionId) {
        if let Some(live) = self.lock().get_mut(&id) {
            live.member = None;
            live.key = None;
        }
    }

    /// Ends the sessions whose key is banned now, or no longer signs in as the account
    /// it signed in as, telling each why. How many were told to end.
    pub fn end_revoked(&self, club: &Club) -> Result<usize, ClubError> {
        let keyed: Vec<(SessionId, String, Option<MemberId>)> = self
            .lock()
            .iter()
            .filter_map(|(id, l)| l.key.clone().map(|k| (*id, k, l.member)))
            .collect();
        let mut ended = Vec::new();
        for (id, key, member) in keyed {
            let ban = club.store().banned(&key)?;
            let why = match ban {
                Some(ban) => Some(banned(&ban.reason)),
                None if member.is_some() => {
                    let owner = club.store().key_owner(&key)?.map(|m| m.id);
                    (owner != member).then(|| REVOKED.to_string())
                }
                None => None,
            };
            if let Some(why) = why {
                ended.push((id, why));
            }
        }
        let map = self.lock();
        for (id, why) in &ended {
            if let Some(live) = map.get(id) {
                let _ = live.tx.try_send(Incoming::Close(why.clone()));
            }
        }
        Ok(ended.len())
    }
}

/// Why a session of a banned key ends.
fn banned(reason: &str) -> String {
    match reason.trim() {
        "" => "the server's operator banned your key".to_string(),
        r => format!("the server's operator banned your key: {r}"),
    }
}

/// Why a session whose key left its account ends.
const REVOKED: &str = "your key no longer signs in as your account here (it was removed from \
     the account, or the account was deleted)";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::Ban;
    use crate::server::club::KeyText;
    use std::sync::mpsc::{sync_channel, Receiver};

    fn person(name: &str, key: Option<&str>, member: Option<MemberId>) -> Person {
        Person {
            name: name.into(),
            key: key.map(str::to_string),
            from: None,
            member,
        }
    }

    fn closed(rx: &Receiver<Incoming>) -> Option<String> {
        rx.try_iter().find_map(|i| match i {
            Incoming::Close(why) => Some(why),
            _ => None,
        })
    }

    #[test]
    fn sessions_of_banned_removed_and_deleted_keys_end_and_the_others_go_on() {
        let dir = std::env::temp_dir().join(format!("qchess-live-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let club = Club::open(&dir.join("club.sqlite")).unwrap();
        let key = |n: u8| KeyText {
            fingerprint: format!("SHA256:{n}"),
            openssh: format!("ssh-ed25519 K{n}"),
        };
        let ann = club.join("ann", &key(1), 0).unwrap();
        let bo = club.join("bo", &key(2), 0).unwrap();
        let cy = club.join("cy", &key(3), 0).unwrap();
        let live = LiveSessions::default();
        let mut rx = Vec::new();
        let people = [
            person("ann", Some("SHA256:1"), Some(ann.id)),
            person("bo", Some("SHA256:2"), Some(bo.id)),
            person("cy", Some("SHA256:3"), Some(cy.id)),
            person("cy", Some("SHA256:3"), Some(cy.id)),
            person("guest-1", None, None),
        ];
        for (id, p) in people.iter().enumerate() {
            let (tx, r) = sync_channel(4);
            live.insert(id as SessionId, tx, p);
            rx.push(r);
        }
        assert_eq!(live.end_revoked(&club).unwrap(), 0, "nothing changed");
        club.store()
            .ban(&Ban {
                fingerprint: "SHA256:1".into(),
                reason: "abuse".into(),
                since: 0,
            })
            .unwrap();
        assert!(club.store().delete_member(bo.id).unwrap());
        // Cy deletes the account in session 2; session 3 of cy ends, 2 goes on.
        assert!(club.store().delete_member(cy.id).unwrap());
        live.left_club(2);
        assert_eq!(live.end_revoked(&club).unwrap(), 3);
        let said: Vec<Option<String>> = rx.iter().map(closed).collect();
        assert_eq!(
            said[0].as_deref(),
            Some("the server's operator banned your key: abuse")
        );
        assert_eq!(said[1].as_deref(), Some(REVOKED));
        assert_eq!(said[2], None, "the session that deleted its account");
        assert_eq!(said[3].as_deref(), Some(REVOKED));
        assert_eq!(said[4], None, "a guest");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
