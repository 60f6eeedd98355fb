//! `qchess serve` over real SSH on 127.0.0.1 (ephemeral ports): russh's client as the
//! players' terminals, a vt100 screen to read what the server drew. Every test is
//! bounded in time and stops its server.

mod support;

#[path = "serve/clocks.rs"]
mod clocks;
#[path = "serve/club.rs"]
mod club;
#[path = "serve/hostile.rs"]
mod hostile;
#[path = "serve/king.rs"]
mod king;
#[path = "serve/offers.rs"]
mod offers;
#[path = "serve/rated.rs"]
mod rated;
#[path = "serve/shared.rs"]
mod shared;
#[path = "serve/tournaments.rs"]
mod tournaments;

use qchess::seats::Occupant;
use qchess::server::limits::ServerLimits;
use qchess::server::{ServeOptions, Server};
use russh::keys::ssh_key::private::Ed25519Keypair;
use russh::keys::PrivateKey;
use russh::{ChannelMsg, Pty};
use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use support::ssh_term::{connect, connect_from, Ask, Term};

/// How long any one thing may take before a test fails.
const T: Duration = Duration::from_secs(10);

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("qchess-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

async fn start(dir: &std::path::Path, limits: ServerLimits) -> Server {
    let mut opts = ServeOptions::in_data_dir("127.0.0.1:0".parse().unwrap(), dir);
    opts.limits = limits;
    Server::start(opts).await.expect("the server starts")
}

/// Runs a test body within `secs` seconds.
async fn bounded(secs: u64, body: impl Future<Output = Result<(), String>>) {
    match tokio::time::timeout(Duration::from_secs(secs), body).await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => panic!("{e}"),
        Err(_) => panic!("the test took over {secs} s"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_a_watcher_a_drop_and_a_rejoin() {
    bounded(50, async {
        let dir = scratch("play");
        let srv = start(&dir, ServerLimits::default()).await;
        let addr = srv.addr();
        let mut ann = Term::open(addr, "ann", Ask::Room("r1"), (100, 30)).await?;
        ann.wait_for("you play white", T).await?;
        let mut bo = Term::open(addr, "bo", Ask::Room("r1"), (80, 24)).await?;
        bo.wait_for("you play black", T).await?;
        let mut cy = Term::open(addr, "cy", Ask::Room("r1"), (120, 40)).await?;
        cy.wait_for("you watch ann and bo", T).await?;
        ann.wait_for("ann v bo · 1 watching", T).await?;

        // Black may not move first; a watcher may not move at all.
        bo.send(b":e7e5\r").await?;
        bo.wait_for("white to move (ann): you play black", T)
            .await?;
        cy.send(b":e2e4\r").await?;
        cy.wait_for("you are watching", T).await?;

        let sent = Instant::now();
        ann.send(b":e2e4\r").await?;
        bo.wait_for("white played e2e4", T).await?;
        cy.wait_for("white played e2e4", T).await?;
        let seen = sent.elapsed();
        bo.send(b":e7e5\r").await?;
        bo.wait_for("black played e7e5", T).await?;
        ann.wait_for("black played e7e5", T).await?;
        cy.wait_for("black played e7e5", T).await?;

        // Bo's connection drops: the seat stays his, shown as away.
        drop(bo);
        cy.wait_for("ann v bo (away)", T).await?;
        ann.send(b":g1f3\r").await?;
        cy.wait_for("white played g1f3", T).await?;
        // He comes back by name, to his seat and the whole game.
        let mut bo = Term::open(addr, "bo", Ask::Room("r1"), (80, 24)).await?;
        bo.wait_for("you play black against ann", T).await?;
        // The history in SAN.
        bo.wait_for("1... e5", T).await?;
        bo.wait_for("2. Nf3", T).await?;
        cy.wait_for("ann v bo · 1 watching", T).await?;
        bo.send(b":b8c6\r").await?;
        ann.wait_for("black played b8c6", T).await?;

        // Stopping the server closes every session with a word, within 2 s.
        let stopping = Instant::now();
        srv.shutdown("the test is over").await;
        for t in [&mut ann, &mut bo, &mut cy] {
            t.wait_for("the test is over", T).await?;
            t.wait_closed(T).await?;
        }
        assert!(
            stopping.elapsed() < Duration::from_secs(2),
            "{:?}",
            stopping.elapsed()
        );
        // The room was saved after every move.
        let saved =
            std::fs::read_to_string(dir.join("server/rooms/r1.toml")).map_err(|e| e.to_string())?;
        assert!(
            saved.contains("moves = [\"e2e4\", \"e7e5\", \"g1f3\", \"b8c6\"]"),
            "{saved}"
        );
        assert!(saved.contains("white = \"ann\""), "{saved}");
        eprintln!("a move reached the other screens after {seen:?} (with the mover's typing)");
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_creates_lists_and_joins_rooms() {
    bounded(40, async {
        let dir = scratch("lobby");
        let srv = start(&dir, ServerLimits::default()).await;
        let addr = srv.addr();
        let mut ann = Term::open(addr, "ann", Ask::Shell, (100, 30)).await?;
        ann.wait_for("No rooms yet", T).await?;
        // A new room: a name, haft, Enter.
        ann.send(b"c").await?;
        ann.wait_for("New room", T).await?;
        ann.send(b"\x1b[200~game1\x1b[201~\t\x1b[C\x1b[C\r").await?;
        ann.wait_for("you play white", T).await?;
        ann.wait_for("ann v (free) · 0 watching", T).await?;
        let mut bo = Term::open(addr, "bo", Ask::Shell, (100, 30)).await?;
        bo.wait_for("game1", T).await?;
        bo.wait_for("haft", T).await?;
        // White is taken; black is free.
        bo.send(b"w").await?;
        bo.wait_for("white is taken by ann", T).await?;
        bo.send(b"b").await?;
        bo.wait_for("you play black against ann", T).await?;
        // The window shrinks below the game's least size, and grows back.
        bo.resize(50, 15).await?;
        bo.wait_for("need 60x20, have 50x15", T).await?;
        bo.resize(120, 40).await?;
        bo.wait_for("ann v bo · 0 watching · room game1", T).await?;
        // q leaves the room for the lobby, where the seat shows as away; q again leaves.
        bo.send(b"q").await?;
        bo.wait_for("bo (away)", T).await?;
        bo.send(b"q").await?;
        bo.wait_closed(T).await?;
        assert_eq!(bo.exit, Some(0));
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_is_run_and_no_pty_is_refused() {
    bounded(40, async {
        let dir = scratch("refuse");
        let srv = start(&dir, ServerLimits::default()).await;
        let addr = srv.addr();
        // A command that is not a room name.
        let mut t = Term::open(addr, "ann", Ask::Exec("ls /"), (80, 24)).await?;
        t.wait_closed(T).await?;
        assert_eq!(t.exit, Some(1));
        assert!(t.stderr.contains("runs no commands"), "{}", t.stderr);
        // No pty: one line about ssh -t.
        for ask in [Ask::NoPty] {
            let mut t = Term::open(addr, "ann", ask, (80, 24)).await?;
            t.wait_closed(T).await?;
            assert_eq!(t.exit, Some(1));
            assert!(t.stderr.contains("ssh -t"), "{}", t.stderr);
            assert_eq!(t.stderr.lines().count(), 1, "{}", t.stderr);
        }
        // Subsystems, environment variables, agent and port forwarding: refused.
        let h = connect(addr, "ann", None).await?;
        let mut ch = h.channel_open_session().await.map_err(|e| e.to_string())?;
        ch.request_subsystem(true, "sftp")
            .await
            .map_err(|e| e.to_string())?;
        ch.set_env(true, "LD_PRELOAD", "/tmp/x.so")
            .await
            .map_err(|e| e.to_string())?;
        ch.agent_forward(true).await.map_err(|e| e.to_string())?;
        let mut failures = 0;
        while failures < 3 {
            match tokio::time::timeout(T, ch.wait()).await {
                Ok(Some(ChannelMsg::Failure)) => failures += 1,
                Ok(Some(ChannelMsg::Success)) => return Err("a request was granted".into()),
                Ok(Some(_)) => {}
                _ => return Err(format!("{failures} refusals only")),
            }
        }
        assert!(
            h.tcpip_forward("127.0.0.1", 0).await.is_err(),
            "remote forwarding"
        );
        assert!(
            h.channel_open_direct_tcpip("127.0.0.1", u32::from(addr.port()), "127.0.0.1", 5)
                .await
                .is_err(),
            "local forwarding"
        );
        assert!(
            h.channel_open_session().await.is_err(),
            "a second session channel"
        );
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

/// Pseudo-random bytes, the same every run.
fn garbage(n: usize) -> Vec<u8> {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_pty_garbage_and_huge_pastes_stall_nobody() {
    bounded(50, async {
        let dir = scratch("garbage");
        let srv = start(&dir, ServerLimits::default()).await;
        let addr = srv.addr();
        let mut ann = Term::open(addr, "ann", Ask::Room("calm"), (80, 24)).await?;
        ann.wait_for("you play white", T).await?;
        let mut bo = Term::open(addr, "bo", Ask::Room("calm"), (80, 24)).await?;
        bo.wait_for("you play black", T).await?;

        // A pty request with a junk terminal type, no size and absurd modes.
        let h = connect(addr, "mallory", None).await?;
        let chan = h.channel_open_session().await.map_err(|e| e.to_string())?;
        let term = format!("\x1b]0;x\x07{}", "é".repeat(5000));
        let modes = [
            (Pty::VINTR, u32::MAX),
            (Pty::TTY_OP_ISPEED, 0),
            (Pty::ECHO, 7),
        ];
        chan.request_pty(false, &term, 0, 0, u32::MAX, u32::MAX, &modes)
            .await
            .map_err(|e| e.to_string())?;
        chan.request_shell(false).await.map_err(|e| e.to_string())?;
        let mut mallory = Term {
            handle: h,
            chan,
            screen: support::ssh_term::screen(80, 24),
            stderr: String::new(),
            exit: None,
            closed: false,
            received: 0,
        };
        mallory.resize(u32::MAX, u32::MAX).await?;
        mallory.resize(0, 0).await?;
        mallory.resize(100_000, 3).await?;
        mallory.send(&garbage(64 * 1024)).await?;
        let paste = format!("\x1b[200~{}\x1b[201~", "x".repeat(10_000));
        mallory.send(paste.as_bytes()).await?;
        mallory.send("y".repeat(10_000).as_bytes()).await?;
        mallory
            .send(b"\x1b[<0;99999;99999M\x1b[9999999999999999999999~\x1b[200~")
            .await?;

        // Meanwhile the game in the other room goes on, quickly.
        let sent = Instant::now();
        ann.send(b":d2d4\r").await?;
        bo.wait_for("white played d2d4", T).await?;
        let took = sent.elapsed();
        assert!(took < Duration::from_secs(2), "{took:?}");
        mallory.drain(Duration::from_millis(200)).await;
        assert!(mallory.received > 0, "mallory's session drew");

        // Mallory's session is still alive and still leaves when asked: Ctrl-C (the
        // unfinished paste gives the keys back after its limit; the input budget refills).
        mallory.resize(80, 24).await?;
        let give_up = Instant::now() + Duration::from_secs(20);
        while !mallory.closed && Instant::now() < give_up {
            mallory.send(&[0x03; 1024]).await?;
            mallory.send(&vec![b'q'; 64 * 1024]).await?;
            mallory.drain(Duration::from_millis(300)).await;
        }
        assert!(mallory.closed, "mallory's session never ended");
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rooms_come_back_after_a_restart() {
    bounded(40, async {
        let dir = scratch("restart");
        let srv = start(&dir, ServerLimits::default()).await;
        let mut ann = Term::open(srv.addr(), "ann", Ask::Room("r1"), (80, 24)).await?;
        ann.wait_for("you play white", T).await?;
        let mut bo = Term::open(srv.addr(), "bo", Ask::Room("r1"), (80, 24)).await?;
        bo.wait_for("you play black", T).await?;
        ann.send(b":b1c3\r").await?;
        bo.wait_for("white played b1c3", T).await?;
        srv.shutdown("restarting").await;
        ann.wait_closed(T).await?;

        let srv = start(&dir, ServerLimits::default()).await;
        let rooms = srv.hub().summaries();
        assert_eq!(rooms.len(), 1);
        assert_eq!((rooms[0].name.as_str(), rooms[0].ply), ("r1", 1));
        let mut bo = Term::open(srv.addr(), "bo", Ask::Room("r1"), (80, 24)).await?;
        bo.wait_for("you play black against ann", T).await?;
        bo.wait_for("1. Nc3", T).await?;
        bo.send(b":g8f6\r").await?;
        bo.wait_for("black played g8f6", T).await?;
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_explains_a_measuring_move_on_both_screens() {
    bounded(40, async {
        let dir = scratch("explain");
        let srv = start(&dir, ServerLimits::default()).await;
        let mut ann = Term::open(srv.addr(), "ann", Ask::Room("ex"), (80, 24)).await?;
        ann.wait_for("you play white", T).await?;
        let mut bo = Term::open(srv.addr(), "bo", Ask::Room("ex"), (80, 24)).await?;
        bo.wait_for("you play black", T).await?;
        ann.send(b":b1^a3c3\r").await?;
        bo.wait_for("the knight is now on a3 50%, c3 50%", T)
            .await?;
        bo.send(b":d7d5\r").await?;
        // Told after ann's own move, on the message line, and in the history.
        ann.wait_for("1... d5", T).await?;
        ann.send(b":c3xd5\r").await?;
        // Either answer rules out one half of the knight; both screens say which.
        ann.wait_for("(a 50% chance)", T).await?;
        bo.wait_for("vanished: N", T).await?;
        bo.send(b"e").await?;
        bo.wait_for("It asked first: was the knight on c3?", T)
            .await?;
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_opens_the_lessons() {
    bounded(30, async {
        let dir = scratch("learn");
        let srv = start(&dir, ServerLimits::default()).await;
        let mut ann = Term::open(srv.addr(), "ann", Ask::Shell, (80, 24)).await?;
        ann.wait_for("l lessons", T).await?;
        ann.send(b"l").await?;
        let count = qchess::learn::LESSONS.len();
        ann.wait_for(&format!("Lesson 1/{count}: Win by taking the king"), T)
            .await?;
        ann.send(b":e1e8\r").await?;
        ann.wait_for("Done: the king is gone", T).await?;
        ann.send(b"n").await?;
        ann.wait_for(&format!("Lesson 2/{count}"), T).await?;
        // q leaves the lessons (no move made in this one yet: at once), to the lobby.
        ann.send(b"q").await?;
        ann.wait_for("you left the lessons", T).await?;
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_keys_and_idle_time() {
    bounded(40, async {
        let dir = scratch("limits");
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let key = |seed: u8| Arc::new(PrivateKey::from(Ed25519Keypair::from_seed(&[seed; 32])));
        let (ann_key, eve_key) = (key(1), key(2));
        let list = dir.join("authorized_keys");
        let line = ann_key
            .public_key()
            .to_openssh()
            .map_err(|e| e.to_string())?;
        std::fs::write(&list, format!("{line} ann\n")).map_err(|e| e.to_string())?;
        let mut opts = ServeOptions::in_data_dir("127.0.0.1:0".parse().unwrap(), &dir);
        opts.authorized_keys = Some(list);
        opts.limits = ServerLimits {
            max_sessions: 2,
            per_address: 1,
            idle: Duration::from_secs(2),
            ..ServerLimits::default()
        };
        let srv = Server::start(opts).await.map_err(|e| e.to_string())?;
        let addr = srv.addr();
        // Only the listed key signs in.
        assert!(connect(addr, "eve", None).await.is_err(), "no key");
        assert!(
            connect(addr, "ann", Some(eve_key)).await.is_err(),
            "another key"
        );
        let h = connect(addr, "ann", Some(Arc::clone(&ann_key))).await?;
        let mut ann = Term::on(h, Ask::Room("r1"), (80, 24)).await?;
        ann.wait_for("you play white", T).await?;
        // One session per address: a second from 127.0.0.1 is refused, one from
        // 127.0.0.2 comes in; two in all: a third, from 127.0.0.3, finds it full.
        let refused = |t: &Term, words: &str| {
            assert_eq!(t.exit, Some(1));
            assert!(t.stderr.contains(words), "{}", t.stderr);
            assert_eq!(t.stderr.lines().count(), 1, "{}", t.stderr);
        };
        let h = connect(addr, "ann", Some(Arc::clone(&ann_key))).await?;
        let mut second = Term::on(h, Ask::Shell, (80, 24)).await?;
        second.wait_closed(T).await?;
        refused(&second, "from your address already");
        let from = |last: u8| std::net::IpAddr::from([127, 0, 0, last]);
        let h = connect_from(from(2), addr, "ann", Some(Arc::clone(&ann_key))).await?;
        let mut other = Term::on(h, Ask::Shell, (80, 24)).await?;
        other.wait_for("you are ann", T).await?;
        let h = connect_from(from(3), addr, "ann", Some(Arc::clone(&ann_key))).await?;
        let mut third = Term::on(h, Ask::Shell, (80, 24)).await?;
        third.wait_closed(T).await?;
        refused(&third, "is full (2 sessions)");
        // No input for the idle time: closed, the seat kept.
        ann.send(b":e2e4\r").await?;
        ann.wait_for("white played e2e4", T).await?;
        ann.wait_for("without input", T).await?;
        ann.wait_closed(T).await?;
        assert_eq!(
            srv.hub().summaries()[0].roster.white,
            Some((Occupant::Person("ann".into()), false))
        );
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

/// A lobby session of `user` whose pty says it is a `term`.
async fn lobby_as(addr: std::net::SocketAddr, user: &str, term: &str) -> Result<Term, String> {
    let h = connect(addr, user, None).await?;
    let mut t = Term::on_term(h, Ask::Shell, (100, 30), term).await?;
    t.wait_for("Quantum Chess over SSH", T).await?;
    t.drain(Duration::from_millis(100)).await;
    Ok(t)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_session_has_its_colour_tier_and_theme() {
    bounded(40, async {
        let dir = scratch("colours");
        let mut opts = ServeOptions::in_data_dir("127.0.0.1:0".parse().unwrap(), &dir);
        for entry in qchess::config::Catalogue::built_in().entries() {
            let theme = entry.load().map_err(|e| e.to_string())?;
            opts.themes.push((entry.name.clone(), theme));
        }
        let srv = Server::start(opts).await.map_err(|e| e.to_string())?;
        let addr = srv.addr();
        use vt100::Color::{Default, Idx, Rgb};
        // The tier follows the pty's terminal type, one session at a time.
        let direct = lobby_as(addr, "ann", "xterm-direct").await?;
        let mut c256 = lobby_as(addr, "bo", "xterm-256color").await?;
        let c16 = lobby_as(addr, "cy", "xterm").await?;
        let none = lobby_as(addr, "di", "dumb").await?;
        let direct_colours = direct.colours();
        assert!(direct_colours.iter().any(|c| matches!(c, Rgb(..))));
        assert!(!direct_colours.iter().any(|c| matches!(c, Idx(_))));
        let before = c256.colours();
        assert!(before.iter().any(|c| matches!(c, Idx(16..))), "{before:?}");
        assert!(!before.iter().any(|c| matches!(c, Rgb(..))));
        let colours = c16.colours();
        assert!(colours.iter().all(|c| matches!(c, Default | Idx(0..16))));
        assert!(colours.iter().any(|c| matches!(c, Idx(_))), "{colours:?}");
        assert_eq!(none.colours(), vec![Default]);
        // A theme picked in one session changes its colours only.
        c256.send(b"t").await?;
        c256.wait_for("rooms you enter use it", T).await?;
        c256.drain(Duration::from_millis(100)).await;
        assert_ne!(c256.colours(), before, "the new theme shows");
        let mut direct = direct;
        direct.drain(Duration::from_millis(100)).await;
        assert_eq!(direct.colours(), direct_colours, "the others keep theirs");
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

/// Waits until the server's only room has played `ply` plies.
async fn room_reaches(srv: &Server, ply: usize) -> Result<(), String> {
    let until = Instant::now() + T;
    loop {
        let rooms = srv.hub().summaries();
        if rooms.first().is_some_and(|r| r.ply >= ply) {
            return Ok(());
        }
        if Instant::now() > until {
            return Err(format!("the room never reached ply {ply}: {rooms:?}"));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_plays_the_computer_and_it_plays_on_after_a_restart() {
    bounded(50, async {
        let dir = scratch("computer");
        let srv = start(&dir, ServerLimits::default()).await;
        let addr = srv.addr();
        let mut ann = Term::open(addr, "ann", Ask::Shell, (100, 30)).await?;
        ann.wait_for("e play the computer", T).await?;
        // e: the form; the name offered (ann); Tab to "you play", → black; Tab, ← to
        // level 1; Enter. The computer has white and moves at once.
        ann.send(b"e").await?;
        ann.wait_for("Play the computer", T).await?;
        ann.send(b"\t\t\t\x1b[C\t\x1b[D\r").await?;
        // The greeting may already be replaced by the computer's first move: the
        // pane's title names the seats for good.
        ann.wait_for("qchess level 1 v ann", T).await?;
        room_reaches(&srv, 1).await?;
        ann.wait_for("1. ", T).await?;
        let mut cy = Term::open(addr, "cy", Ask::Room("ann"), (100, 30)).await?;
        cy.wait_for("you watch qchess level 1 and ann", T).await?;
        // The computer's answer shows on both screens (it may come before the
        // screens showed ann's move).
        ann.send(b":e7e5\r").await?;
        room_reaches(&srv, 3).await?;
        for t in [&mut ann, &mut cy] {
            t.wait_for("white played", T).await?;
        }
        ann.send(b":b8c6\r").await?;
        room_reaches(&srv, 4).await?;
        // Stopped at once, maybe in the middle of the computer's search.
        srv.shutdown("restarting").await;
        ann.wait_closed(T).await?;
        let saved = std::fs::read_to_string(dir.join("server/rooms/ann.toml"))
            .map_err(|e| e.to_string())?;
        assert!(saved.contains("white = \"qchess level 1\""), "{saved}");
        assert!(saved.contains("black = \"ann\""), "{saved}");
        // As if the server had stopped in the middle of the computer's search: its
        // answer to b8c6 taken out of the file.
        let mut game: toml::Table = saved.parse().map_err(|e| format!("{e}"))?;
        if let Some(moves) = game.get_mut("moves").and_then(|m| m.as_array_mut()) {
            moves.truncate(4);
        }
        let text = toml::to_string(&game).map_err(|e| e.to_string())?;
        std::fs::write(dir.join("server/rooms/ann.toml"), text).map_err(|e| e.to_string())?;

        // Brought back, the computer plays its side on: its answer to b8c6 at once, and
        // the next after ann's move.
        let srv = start(&dir, ServerLimits::default()).await;
        room_reaches(&srv, 5).await?;
        let mut ann = Term::open(srv.addr(), "ann", Ask::Room("ann"), (100, 30)).await?;
        ann.wait_for("you play black against qchess level 1", T)
            .await?;
        ann.send(b":a7a6\r").await?;
        room_reaches(&srv, 7).await?;
        ann.wait_for("white played", T).await?;
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}
