//! A scripted SSH terminal for the server tests and the load benchmark: russh's client
//! signs in (keyboard-interactive, or a key), asks for a pty and a shell or a room, and
//! a vt100 screen in memory shows what the server drew.

#![allow(dead_code)]

use russh::client::{self, Handle, Msg};
use russh::keys::{PrivateKey, PrivateKeyWithHashAlg, PublicKeyOrCertificate};
use russh::{Channel, ChannelMsg};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Trusts any host key (the tests run their own server).
pub struct Client;

impl client::Handler for Client {
    type Error = russh::Error;

    async fn check_server_key(
        &mut self,
        _key: &PublicKeyOrCertificate,
    ) -> Result<bool, Self::Error> {
        Ok(true)
    }
}

/// A connection, signed in as `user` (with `key` when given).
pub async fn connect(
    addr: SocketAddr,
    user: &str,
    key: Option<Arc<PrivateKey>>,
) -> Result<Handle<Client>, String> {
    let socket = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    sign_in(socket, user, key).await
}

/// A connection from the loopback address `from` (127.0.0.2 and so on: another
/// client address on the same machine), signed in as `user` (with `key` when given).
pub async fn connect_from(
    from: std::net::IpAddr,
    addr: SocketAddr,
    user: &str,
    key: Option<Arc<PrivateKey>>,
) -> Result<Handle<Client>, String> {
    let socket = tokio::net::TcpSocket::new_v4().map_err(|e| format!("socket: {e}"))?;
    socket
        .bind(SocketAddr::new(from, 0))
        .map_err(|e| format!("bind {from}: {e}"))?;
    let stream = socket
        .connect(addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    sign_in(stream, user, key).await
}

async fn sign_in(
    socket: tokio::net::TcpStream,
    user: &str,
    key: Option<Arc<PrivateKey>>,
) -> Result<Handle<Client>, String> {
    let config = Arc::new(client::Config::default());
    let mut handle = client::connect_stream(config, socket, Client)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let ok = match key {
        Some(k) => handle
            .authenticate_publickey(user, PrivateKeyWithHashAlg::new(k, None))
            .await
            .map_err(|e| format!("auth: {e}"))?
            .success(),
        None => matches!(
            handle
                .authenticate_keyboard_interactive_start(user, None::<String>)
                .await
                .map_err(|e| format!("auth: {e}"))?,
            client::KeyboardInteractiveAuthResponse::Success
        ),
    };
    if ok {
        Ok(handle)
    } else {
        Err("not signed in".into())
    }
}

/// What a session channel showed.
pub struct Term {
    pub handle: Handle<Client>,
    pub chan: Channel<Msg>,
    pub screen: vt100::Parser,
    pub stderr: String,
    pub exit: Option<u32>,
    pub closed: bool,
    /// Bytes received in all.
    pub received: usize,
}

/// How a session is asked for.
#[derive(Clone, Copy, Debug)]
pub enum Ask<'a> {
    /// A pty and a shell (the lobby).
    Shell,
    /// A pty and `ROOM` as the command.
    Room(&'a str),
    /// A pty and this command.
    Exec(&'a str),
    /// No pty, a shell.
    NoPty,
}

impl Term {
    /// Signs in as `user` and opens a session of `size` (columns, rows) as `ask` says.
    pub async fn open(
        addr: SocketAddr,
        user: &str,
        ask: Ask<'_>,
        size: (u16, u16),
    ) -> Result<Term, String> {
        let handle = connect(addr, user, None).await?;
        Term::on(handle, ask, size).await
    }

    /// Opens a session on a signed-in connection, its pty an `xterm-256color`.
    pub async fn on(
        handle: Handle<Client>,
        ask: Ask<'_>,
        size: (u16, u16),
    ) -> Result<Term, String> {
        Term::on_term(handle, ask, size, "xterm-256color").await
    }

    /// Opens a session on a signed-in connection, its pty of terminal type `term`.
    pub async fn on_term(
        handle: Handle<Client>,
        ask: Ask<'_>,
        size: (u16, u16),
        term: &str,
    ) -> Result<Term, String> {
        let chan = handle
            .channel_open_session()
            .await
            .map_err(|e| format!("channel: {e}"))?;
        let e = |e: russh::Error| format!("request: {e}");
        if !matches!(ask, Ask::NoPty) {
            chan.request_pty(false, term, size.0.into(), size.1.into(), 0, 0, &[])
                .await
                .map_err(e)?;
        }
        match ask {
            Ask::Shell | Ask::NoPty => chan.request_shell(false).await.map_err(e)?,
            Ask::Room(r) | Ask::Exec(r) => chan.exec(false, r).await.map_err(e)?,
        }
        Ok(Term {
            handle,
            chan,
            screen: screen(size.0, size.1),
            stderr: String::new(),
            exit: None,
            closed: false,
            received: 0,
        })
    }

    /// Sends input bytes.
    pub async fn send(&self, bytes: &[u8]) -> Result<(), String> {
        self.chan
            .data(bytes)
            .await
            .map_err(|e| format!("send: {e}"))
    }

    /// Tells the server the window is now `cols` x `rows` (the screen here follows
    /// sizes a terminal can have; absurd ones are only sent).
    pub async fn resize(&mut self, cols: u32, rows: u32) -> Result<(), String> {
        if (1..=320).contains(&cols) && (1..=200).contains(&rows) {
            self.screen
                .screen_mut()
                .set_size(size(rows as u16), size(cols as u16));
        }
        self.chan
            .window_change(cols, rows, 0, 0)
            .await
            .map_err(|e| format!("resize: {e}"))
    }

    /// The screen's text.
    pub fn text(&self) -> String {
        self.screen.screen().contents()
    }

    /// Every colour on the screen (foreground and background of every cell).
    pub fn colours(&self) -> Vec<vt100::Color> {
        let screen = self.screen.screen();
        let (rows, cols) = screen.size();
        let mut all = Vec::new();
        for r in 0..rows.get() {
            for c in 0..cols.get() {
                if let Some(cell) = screen.cell(r, c) {
                    all.extend([cell.fgcolor(), cell.bgcolor()]);
                }
            }
        }
        all.sort_by_key(|c| format!("{c:?}"));
        all.dedup();
        all
    }

    /// Takes one message from the server, waiting at most `wait`; false when none came.
    async fn take(&mut self, wait: Duration) -> bool {
        match tokio::time::timeout(wait, self.chan.wait()).await {
            Err(_) => false,
            Ok(None) => {
                self.closed = true;
                false
            }
            Ok(Some(msg)) => {
                match msg {
                    ChannelMsg::Data { data } => {
                        self.received += data.len();
                        self.screen.process(&data);
                    }
                    ChannelMsg::ExtendedData { data, .. } => {
                        self.stderr.push_str(&String::from_utf8_lossy(&data));
                    }
                    ChannelMsg::ExitStatus { exit_status } => self.exit = Some(exit_status),
                    ChannelMsg::Close => self.closed = true,
                    _ => {}
                }
                true
            }
        }
    }

    /// Reads until the screen shows `text`; fails with the screen after `within`.
    pub async fn wait_for(&mut self, text: &str, within: Duration) -> Result<(), String> {
        let end = Instant::now() + within;
        loop {
            if self.text().contains(text) {
                return Ok(());
            }
            let left = end.saturating_duration_since(Instant::now());
            if left.is_zero() || self.closed {
                return Err(format!(
                    "waited for {text:?}; the screen shows:\n{}",
                    self.text()
                ));
            }
            self.take(left).await;
        }
    }

    /// Reads until the channel closes; fails after `within`.
    pub async fn wait_closed(&mut self, within: Duration) -> Result<(), String> {
        let end = Instant::now() + within;
        while !self.closed {
            let left = end.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(format!("still open; stderr {:?}", self.stderr));
            }
            self.take(left).await;
        }
        Ok(())
    }

    /// Takes whatever arrives within `quiet` (a pause with nothing new ends it).
    pub async fn drain(&mut self, quiet: Duration) {
        while self.take(quiet).await {}
    }
}

/// A side of a terminal, which is never 0 here.
fn size(n: u16) -> std::num::NonZeroU16 {
    std::num::NonZeroU16::new(n).expect("a terminal's side is not 0")
}

/// The screen of a terminal `cols` wide and `rows` high, without scrollback.
pub fn screen(cols: u16, rows: u16) -> vt100::Parser {
    vt100::Parser::new(size(rows), size(cols), 0)
}
