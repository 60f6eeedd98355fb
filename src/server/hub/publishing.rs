//! The hub's rooms and seeks published in the club for its other servers' lobbies, and
//! theirs read back, every [`ServerLimits::publish_every`](crate::server::limits::ServerLimits)
//! (docs/ssh.md, "One club on several servers").

use super::{lock, Hub};
use crate::club::live::{LiveRoom, LiveSeek};
use crate::server::club::Club;
use crate::server::public::{Elsewhere, PublicAddress, RemoteRoom, RemoteSeek};
use crate::server::room::Summary;
use crate::server::seek_book::Seek;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// This server in the club: its id, where players reach it, and the other servers'
/// rooms and seeks as last read.
pub(super) struct Notice {
    /// Its id among the club's servers, made at start.
    id: String,
    /// Where players connect to it; none: its rooms and seeks are not published (no one
    /// could be told how to reach them), the others' are still listed.
    address: Option<PublicAddress>,
    /// The other servers' rooms and seeks, as last read.
    elsewhere: Mutex<Elsewhere>,
    /// The last try failed (said once, until one works again).
    failing: AtomicBool,
    /// The server stops: its rooms are taken out, not published again.
    withdrawn: AtomicBool,
}

impl Default for Notice {
    fn default() -> Notice {
        let mut bytes = [0u8; 8];
        rand::Rng::fill_bytes(
            &mut rand::rand_core::UnwrapErr(rand::rngs::SysRng),
            &mut bytes,
        );
        Notice {
            id: format!("{:016x}", u64::from_le_bytes(bytes)),
            address: None,
            elsewhere: Mutex::new(Elsewhere::default()),
            failing: AtomicBool::new(false),
            withdrawn: AtomicBool::new(false),
        }
    }
}

/// A room as the club's other servers list it.
fn live_room(s: &Summary) -> LiveRoom {
    let name = |seat: &Option<(crate::seats::Occupant, bool)>| seat.as_ref().map(|(o, _)| o.name());
    LiveRoom {
        name: s.name.clone(),
        rules: s.variant(),
        clock: s.clock.map(|c| c.to_string()),
        white: name(&s.roster.white),
        black: name(&s.roster.black),
        watchers: u32::try_from(s.roster.watching).unwrap_or(u32::MAX),
        rated: s.rated,
    }
}

/// A seek as the club's other servers list it.
fn live_seek(s: &Seek) -> LiveSeek {
    LiveSeek {
        id: i64::try_from(s.id).unwrap_or(i64::MAX),
        poster: s.poster.name.clone(),
        rating: s.rating.to_string(),
        clock: s.terms.control.to_string(),
        rated: s.terms.rated,
        colour: s.terms.colour_words().to_string(),
        range: s.range.map(|r| r.to_string()),
    }
}

impl Hub {
    /// The hub telling the club's other servers that players reach it at `address`
    /// (none: it publishes nothing).
    pub fn with_public_address(mut self, address: Option<PublicAddress>) -> Hub {
        self.notice.address = address;
        self
    }

    /// Where players reach this server, when it says.
    pub fn public_address(&self) -> Option<&PublicAddress> {
        self.notice.address.as_ref()
    }

    /// Publishes this server's rooms and seeks in the club (when it has an address to
    /// give) and reads the other servers' back. A database that fails is said once on standard
    /// error, and again once it answers.
    pub fn publish(&self) {
        let Some(club) = &self.club else {
            return;
        };
        let notice = &self.notice;
        let rooms: Vec<LiveRoom> = self.summaries().iter().map(live_room).collect();
        let seeks: Vec<LiveSeek> = self.offers.open_seeks().iter().map(live_seek).collect();
        let now = Club::now();
        let read = {
            let mut store = club.store();
            // Read under the store's lock, which the withdrawal takes after setting it.
            let withdrawn = notice.withdrawn.load(Ordering::SeqCst);
            let published = match &notice.address {
                Some(at) if !withdrawn => {
                    store.publish_live(&notice.id, &at.to_string(), (&rooms, &seeks), now)
                }
                _ => Ok(()),
            };
            published.and_then(|()| {
                let rooms = store.live_rooms(&notice.id, now)?;
                Ok((rooms, store.live_seeks(&notice.id, now)?))
            })
        };
        let listed = match read {
            Ok((rooms, seeks)) => {
                if notice.failing.swap(false, Ordering::Relaxed) {
                    eprintln!("qchess serve: the club's database answers again: the servers' rooms are shared again");
                }
                // A row whose address does not read is left out: no one could use it.
                Elsewhere {
                    rooms: rooms
                        .into_iter()
                        .filter_map(|r| {
                            let address = r.address.parse().ok()?;
                            Some(RemoteRoom {
                                address,
                                room: r.room,
                            })
                        })
                        .collect(),
                    seeks: seeks
                        .into_iter()
                        .filter_map(|s| {
                            let address = s.address.parse().ok()?;
                            Some(RemoteSeek {
                                address,
                                seek: s.seek,
                            })
                        })
                        .collect(),
                }
            }
            Err(e) => {
                if !notice.failing.swap(true, Ordering::Relaxed) {
                    eprintln!("qchess serve: the rooms cannot be shared with the club's other servers ({e}); said once, until it works again");
                }
                Elsewhere::default()
            }
        };
        *lock(&notice.elsewhere) = listed;
    }

    /// Takes this server's rooms and seeks out of the club (it stops).
    pub fn withdraw_rooms(&self) {
        self.notice.withdrawn.store(true, Ordering::SeqCst);
        let (Some(club), Some(_)) = (&self.club, &self.notice.address) else {
            return;
        };
        if let Err(e) = club.store().withdraw_server(&self.notice.id) {
            eprintln!("qchess serve: the rooms could not be taken out of the club ({e}); the other servers stop listing them within seconds");
        }
    }

    /// The rooms and seeks open on the club's other servers, as last read.
    pub fn elsewhere(&self) -> Elsewhere {
        lock(&self.notice.elsewhere).clone()
    }

    /// The room called `name` when it is open on another server of the club and not on
    /// this one.
    pub fn room_elsewhere(&self, name: &str) -> Option<RemoteRoom> {
        if self.room(name).is_some() {
            return None;
        }
        lock(&self.notice.elsewhere)
            .rooms
            .iter()
            .find(|r| r.room.name == name)
            .cloned()
    }
}
