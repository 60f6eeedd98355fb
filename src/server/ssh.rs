//! One SSH connection (a russh [`Handler`]): who it is, its one session channel, its
//! pty, and its input. Nothing is ever run: the command of `ssh -t host ROOM` is read
//! as a room name only; subsystems, forwarding (ports, agent, X11) and environment
//! variables are refused; a session without a pty gets one line about `ssh -t` and
//! exit status 1. Input is limited in bytes per second and parsed into the events the
//! game reads; a session's screen runs on its own thread.

use super::club::KeyText;
use super::console::{Out, QUEUE};
use super::hub::{Hub, NameNote};
use super::incoming::Incoming;
use super::input::Parser;
use super::keys::{fingerprint, Allowed};
use super::limits::{self, Budget, Full, Ticket};
use super::names;
use super::pairing;
use super::room::Person;
use super::session::{self, SessionStart, Start};
use super::terms::{self, OfferError};
use crossterm::event::Event;
use russh::keys::PublicKey;
use russh::server::{Auth, Handler, Msg, PublicKeyOffer, Session, VerifiedPublicKey};
use russh::{Channel, ChannelId, ChannelOpenFailure, ChannelWriteHalf, MethodKind, MethodSet, Pty};
use std::net::IpAddr;
use std::sync::mpsc::SyncSender;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError, Weak};
use std::time::Instant;

/// Who may sign in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Access {
    /// Anyone, by any name, without a password (a public game). A key offered is
    /// accepted and remembered, so that the seat can ask for it again.
    Public,
    /// Only these keys, each from the addresses its `from=` allows.
    Keys(Vec<Allowed>),
}

/// What a connection's task looks at to cut a connection that does not play: whether
/// it signed in, and whether its game session runs.
#[derive(Debug, Default)]
pub struct Progress {
    signed_in: OnceLock<Instant>,
    /// Alive while the connection's game session runs.
    session: Mutex<Weak<()>>,
}

impl Progress {
    /// When the connection signed in.
    pub fn signed_in(&self) -> Option<Instant> {
        self.signed_in.get().copied()
    }

    /// Whether the connection's game session runs.
    pub fn playing(&self) -> bool {
        lock(&self.session).strong_count() > 0
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Events waiting for a session's thread before input is dropped.
const INCOMING_QUEUE: usize = 1024;

/// The line for a session without a pty.
pub fn no_pty_line(port: u16) -> String {
    format!("qchess serve needs a terminal: connect with ssh -t -p {port} NAME@HOST [ROOM]\r\n")
}

/// The line for a command that is not a room name.
pub fn not_a_room_line(port: u16) -> String {
    format!(
        "qchess serve runs no commands: ssh -t -p {port} NAME@HOST ROOM opens room ROOM ({}); ssh -t -p {port} NAME@HOST seek 5+3 waits for an opponent; ssh -t -p {port} NAME@HOST challenge bo 5+3 challenges bo; ssh -t -p {port} NAME@HOST tournament NAME joins a tournament\r\n",
        names::BadRoomName
    )
}

/// A session channel's pty, as requested.
#[derive(Clone, Debug)]
struct PtyWanted {
    term: String,
    size: (u16, u16),
}

/// What a window-change costs from the input budget, in bytes: a storm of them is
/// bounded like a flood of keys (8 KiB a second pass 32 a second, a burst of 128),
/// while a window dragged by hand fits in the burst.
const RESIZE_COST: usize = 256;

/// A session that runs: where its input goes.
struct Link {
    tx: SyncSender<Incoming>,
    parser: Parser,
    budget: Budget,
    /// A window size over the budget, sent once the budget allows (only the last size
    /// matters).
    owed_size: Option<(u16, u16)>,
}

impl Link {
    /// Sends the window size owed, when the budget allows it at `now`.
    fn pay_size(&mut self, now: Instant) {
        if let Some((w, h)) = self.owed_size {
            if self.budget.take(RESIZE_COST, now) == RESIZE_COST {
                self.owed_size = None;
                let _ = self.tx.try_send(Incoming::Event(Event::Resize(w, h)));
            }
        }
    }
}

/// The connection's one session channel.
struct Chan {
    id: ChannelId,
    writer: Option<ChannelWriteHalf<Msg>>,
    pty: Option<PtyWanted>,
    link: Option<Link>,
}

/// One SSH connection.
pub struct Conn {
    hub: Arc<Hub>,
    access: Arc<Access>,
    peer: IpAddr,
    port: u16,
    person: Option<Person>,
    /// What the lobby tells first about the name, when anything.
    note: Option<NameNote>,
    /// A banned key was offered: the connection may not sign in otherwise either.
    banned: bool,
    chan: Option<Chan>,
    /// Its place among the connections: first in the pool of those not signed in,
    /// then among the signed-in ones.
    door: Door,
    /// Signed in, and the session: a connection that does neither in time is cut.
    progress: Arc<Progress>,
}

/// A connection's place in the server's counts: while it has not signed in, a ticket
/// of the pool of such connections; once signed in, one of the signed-in connections
/// (counted in all and per address), taken from `signed_in` within `limits` (in all,
/// per address).
pub struct Door {
    /// The ticket of the pool of connections not signed in (given back at sign-in).
    pub startup: Option<Ticket>,
    /// The ticket among the signed-in connections.
    pub ticket: Option<Ticket>,
    /// The count of signed-in connections.
    pub signed_in: Arc<super::limits::Counter>,
    /// Signed-in connections allowed in all and per address.
    pub limits: (usize, usize),
}

impl Conn {
    /// A connection from `peer` to the server on `port`.
    pub fn new(
        hub: Arc<Hub>,
        access: Arc<Access>,
        peer: IpAddr,
        port: u16,
        door: Door,
        progress: Arc<Progress>,
    ) -> Conn {
        Conn {
            hub,
            access,
            peer,
            port,
            person: None,
            note: None,
            banned: false,
            chan: None,
            door,
            progress,
        }
    }

    /// Moves the connection from the pool of those not signed in to the signed-in
    /// ones; false when those are full (the sign-in is refused).
    fn through_the_door(&mut self) -> bool {
        let d = &mut self.door;
        if d.ticket.is_none() {
            match d.signed_in.admit(self.peer, d.limits.0, d.limits.1) {
                Ok(t) => d.ticket = Some(t),
                Err(_) => return false,
            }
        }
        d.startup = None;
        true
    }

    /// Signs in as `user` with `key` ([`Hub::sign_in`]).
    fn sign_in(&mut self, user: &str, key: Option<&PublicKey>) {
        let key = key.map(|k| KeyText {
            fingerprint: fingerprint(k),
            openssh: k.to_openssh().unwrap_or_default(),
        });
        let asked = names::player(user);
        // Rooms opened and accounts made are counted by it, and a keyless seat is
        // given back to its name from there only.
        let block = super::limits::source_block(self.peer).to_string();
        let signed = self.hub.sign_in(asked.as_deref(), key.as_ref(), &block);
        self.note = signed.note;
        let from = Some(block);
        self.person = Some(Person {
            name: signed.name,
            key: key.map(|k| k.fingerprint),
            from,
            member: signed.member,
        });
        let _ = self.progress.signed_in.set(Instant::now());
    }

    /// Whether `key` may sign in: on the server's list, when it keeps one, and not
    /// banned from the club (a banned key bars its connection from signing in
    /// without it too).
    fn key_allowed(&mut self, key: &PublicKey) -> bool {
        if let Some(club) = self.hub.club() {
            if club.ban_of(&fingerprint(key)).is_some() {
                self.banned = true;
                return false;
            }
        }
        match &*self.access {
            Access::Public => true,
            Access::Keys(list) => list.iter().any(|k| k.admits(key, self.peer)),
        }
    }

    /// Whether `channel` is this connection's session channel, not yet running.
    fn waiting(&self, channel: ChannelId) -> bool {
        self.chan
            .as_ref()
            .is_some_and(|c| c.id == channel && c.link.is_none())
    }

    /// Starts the session on `channel` (shell or `ROOM`), or refuses it with a line.
    fn start(
        &mut self,
        channel: ChannelId,
        start: Start,
        session: &mut Session,
    ) -> Result<(), russh::Error> {
        if !self.waiting(channel) {
            return session.channel_failure(channel);
        }
        let Some(chan) = &mut self.chan else {
            return session.channel_failure(channel);
        };
        let Some(pty) = chan.pty.clone() else {
            return refuse(session, channel, &no_pty_line(self.port));
        };
        let Some(person) = self.person.clone() else {
            return refuse(session, channel, "qchess serve: not signed in\r\n");
        };
        let ticket = match self.hub.admit(self.peer) {
            Ok(t) => t,
            Err(Full::All(n)) => {
                let line = format!("qchess serve is full ({n} sessions): try again later\r\n");
                return refuse(session, channel, &line);
            }
            Err(Full::Address(n)) => {
                let line = format!(
                    "qchess serve: {n} sessions from your address already: close one first\r\n"
                );
                return refuse(session, channel, &line);
            }
        };
        let Some(writer) = chan.writer.take() else {
            return session.channel_failure(channel);
        };
        let (tx, rx) = std::sync::mpsc::sync_channel(INCOMING_QUEUE);
        let (out_tx, out_rx) = tokio::sync::mpsc::channel(QUEUE);
        tokio::spawn(pump(out_rx, writer));
        let alive = Arc::new(());
        *lock(&self.progress.session) = Arc::downgrade(&alive);
        let setup = SessionStart {
            alive,
            hub: Arc::clone(&self.hub),
            person,
            note: self.note.clone(),
            id: self.hub.next_session(),
            term: pty.term,
            size: pty.size,
            start,
            ticket,
            tx: tx.clone(),
        };
        if session::spawn(setup, rx, out_tx).is_err() {
            return refuse(
                session,
                channel,
                "qchess serve: cannot start a session now\r\n",
            );
        }
        let limits = &self.hub.limits;
        chan.link = Some(Link {
            tx,
            parser: Parser::new(),
            budget: Budget::new(limits.input_rate, limits.input_burst),
            owed_size: None,
        });
        session.channel_success(channel)
    }

    /// Tells a running session that its client is gone.
    fn hang_up(&mut self) {
        if let Some(link) = self.chan.as_mut().and_then(|c| c.link.take()) {
            let _ = link.tx.try_send(Incoming::Hangup);
        }
    }
}

impl Drop for Conn {
    fn drop(&mut self) {
        self.hang_up();
    }
}

/// Accepts the request, says `line` on the client's standard error, and ends the
/// channel with exit status 1.
fn refuse(session: &mut Session, channel: ChannelId, line: &str) -> Result<(), russh::Error> {
    session.channel_success(channel)?;
    session.extended_data(channel, 1, line.as_bytes().to_vec())?;
    session.exit_status_request(channel, 1)?;
    session.eof(channel)?;
    session.close(channel)
}

/// Writes a session's frames into its channel, as fast as the client's window lets it
/// (a slow client holds up this task only; the session drops frames meanwhile). Ends
/// the channel with the session's exit status.
async fn pump(mut rx: tokio::sync::mpsc::Receiver<Out>, chan: ChannelWriteHalf<Msg>) {
    while let Some(out) = rx.recv().await {
        match out {
            Out::Bytes(bytes) => {
                if chan.data_bytes(bytes).await.is_err() {
                    return;
                }
            }
            Out::End(status) => {
                let _ = chan.exit_status(status).await;
                let _ = chan.eof().await;
                let _ = chan.close().await;
                return;
            }
        }
    }
}

impl Handler for Conn {
    type Error = russh::Error;

    async fn auth_none(&mut self, _user: &str) -> Result<Auth, Self::Error> {
        // No password ever; a public server lets a key or an empty keyboard-interactive
        // exchange in, so that clients with keys are known by them.
        let methods: &[MethodKind] = match &*self.access {
            Access::Public => &[MethodKind::PublicKey, MethodKind::KeyboardInteractive],
            Access::Keys(_) => &[MethodKind::PublicKey],
        };
        Ok(Auth::Reject {
            proceed_with_methods: Some(MethodSet::from(methods)),
            partial_success: false,
        })
    }

    async fn auth_publickey_offered(
        &mut self,
        _user: &str,
        offer: PublicKeyOffer<'_>,
    ) -> Result<Auth, Self::Error> {
        Ok(if self.key_allowed(offer.public_key) {
            Auth::Accept
        } else {
            Auth::reject()
        })
    }

    async fn auth_publickey(
        &mut self,
        user: &str,
        key: VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        if !self.key_allowed(key.public_key) || !self.through_the_door() {
            return Ok(Auth::reject());
        }
        self.sign_in(user, Some(key.public_key));
        Ok(Auth::Accept)
    }

    async fn auth_keyboard_interactive<'a>(
        &'a mut self,
        user: &str,
        _submethods: &str,
        _response: Option<russh::server::Response<'a>>,
    ) -> Result<Auth, Self::Error> {
        if *self.access != Access::Public || self.banned || !self.through_the_door() {
            return Ok(Auth::reject());
        }
        self.sign_in(user, None);
        Ok(Auth::Accept)
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: russh::server::ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.chan.is_some() || self.person.is_none() {
            reply
                .reject(ChannelOpenFailure::AdministrativelyProhibited)
                .await;
            return Ok(());
        }
        // Input arrives through `data`; the channel's own reader is not needed.
        let (_read, write) = channel.split();
        self.chan = Some(Chan {
            id: write.id(),
            writer: Some(write),
            pty: None,
            link: None,
        });
        reply.accept().await;
        Ok(())
    }

    async fn pty_request(
        &mut self,
        channel: ChannelId,
        term: &str,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _modes: &[(Pty, u32)],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if !self.waiting(channel) {
            return session.channel_failure(channel);
        }
        if let Some(chan) = &mut self.chan {
            chan.pty = Some(PtyWanted {
                term: names::term(term),
                size: limits::clamp_size(col_width, row_height),
            });
        }
        session.channel_success(channel)
    }

    async fn shell_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.start(channel, Start::Lobby, session)
    }

    async fn exec_request(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if !self.waiting(channel) {
            return session.channel_failure(channel);
        }
        // Without a pty the game cannot run, whatever the command: say how to get one.
        if self.chan.as_ref().is_some_and(|c| c.pty.is_none()) {
            return refuse(session, channel, &no_pty_line(self.port));
        }
        let text = std::str::from_utf8(data).unwrap_or_default();
        if let Some(words) = text
            .strip_prefix("seek")
            .filter(|w| w.is_empty() || w.starts_with(' '))
        {
            let guest = self.person.as_ref().is_none_or(|p| p.member.is_none());
            // A pool's seek waits in the pool; any other is posted in the lobby.
            let start = match pairing::parse_seek(words) {
                Ok(pool) if pool.rated && guest => {
                    Err(pairing::SeekError::Guest(pool.control).to_string())
                }
                Ok(pool) => Ok(Start::Seek(pool)),
                Err(_) => match terms::parse_terms(words, true) {
                    Ok((t, _)) if t.rated && guest => {
                        Err(pairing::SeekError::Guest(t.control).to_string())
                    }
                    Ok((t, range)) => Ok(Start::Post(t, range)),
                    Err(e) => Err(e.to_string()),
                },
            };
            return match start {
                Ok(start) => self.start(channel, start, session),
                Err(e) => refuse(session, channel, &format!("qchess serve: {e}\r\n")),
            };
        }
        if let Some(name) = text.strip_prefix("tournament ") {
            let name = name.trim();
            let guest = self.person.as_ref().is_none_or(|p| p.member.is_none());
            return if guest {
                let why = super::hub::tournaments::TournamentError::Guest;
                refuse(session, channel, &format!("qchess serve: {why}\r\n"))
            } else if name.is_empty() {
                refuse(
                    session,
                    channel,
                    "qchess serve: say which tournament: tournament NAME\r\n",
                )
            } else {
                self.start(channel, Start::Tournament(name.to_string()), session)
            };
        }
        if let Some(words) = text.strip_prefix("challenge ") {
            let challenge = terms::parse_challenge(words)
                .map_err(OfferError::from)
                .and_then(|(to, t)| match &self.person {
                    Some(p) => Ok((self.hub.challengeable(p, &to, &t)?, t)),
                    None => Err(OfferError::NotHere(to)),
                });
            return match challenge {
                Ok((to, t)) => self.start(channel, Start::Challenge(to, t), session),
                Err(e) => refuse(session, channel, &format!("qchess serve: {e}\r\n")),
            };
        }
        match names::room(text) {
            Ok(name) => self.start(channel, Start::Room(name), session),
            Err(_) => refuse(session, channel, &not_a_room_line(self.port)),
        }
    }

    async fn data(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        let Some(chan) = self.chan.as_mut().filter(|c| c.id == channel) else {
            return Ok(());
        };
        let Some(link) = &mut chan.link else {
            return Ok(());
        };
        let now = Instant::now();
        link.pay_size(now);
        let allowed = link.budget.take(data.len(), now);
        let mut events = Vec::new();
        link.parser.feed(&data[..allowed], &mut events);
        if allowed < data.len() {
            // Bytes over the budget are dropped; whatever they cut off starts afresh.
            link.parser.reset();
        }
        for ev in events {
            if link.tx.try_send(Incoming::Event(ev)).is_err() {
                break;
            }
        }
        Ok(())
    }

    async fn window_change_request(
        &mut self,
        channel: ChannelId,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        let Some(chan) = self.chan.as_mut().filter(|c| c.id == channel) else {
            return Ok(());
        };
        let (w, h) = limits::clamp_size(col_width, row_height);
        match (&mut chan.link, &mut chan.pty) {
            (Some(link), _) => {
                link.owed_size = Some((w, h));
                link.pay_size(Instant::now());
            }
            (None, Some(pty)) => pty.size = (w, h),
            (None, None) => {}
        }
        Ok(())
    }

    async fn channel_eof(
        &mut self,
        _channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.hang_up();
        Ok(())
    }

    async fn channel_close(
        &mut self,
        _channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.hang_up();
        Ok(())
    }

    async fn env_request(
        &mut self,
        channel: ChannelId,
        _name: &str,
        _value: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_failure(channel)
    }

    async fn subsystem_request(
        &mut self,
        channel: ChannelId,
        _name: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_failure(channel)
    }

    async fn x11_request(
        &mut self,
        channel: ChannelId,
        _single_connection: bool,
        _x11_auth_protocol: &str,
        _x11_auth_cookie: &str,
        _x11_screen_number: u32,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_failure(channel)
    }

    async fn agent_request(
        &mut self,
        _channel: ChannelId,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        Ok(false)
    }

    async fn tcpip_forward(
        &mut self,
        _address: &str,
        _port: &mut u32,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        Ok(false)
    }

    async fn streamlocal_forward(
        &mut self,
        _socket_path: &str,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        Ok(false)
    }
}
