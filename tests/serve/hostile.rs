//! The server against hostile and clumsy clients, over real SSH on 127.0.0.1: hint
//! floods, connections that never play, room squatting, seats asked for by name, saves
//! that fail, `authorized_keys` options and broken room files. Every wait is bounded.

use super::{bounded, scratch, start, T};
use crate::support::ssh_term::{connect, connect_from, Ask, Term};
use qchess::club::{Ban, ClubStore, SqliteStore};
use qchess::seats::Occupant;
use qchess::server::limits::ServerLimits;
use qchess::server::{ServeOptions, Server};
use russh::keys::ssh_key::private::Ed25519Keypair;
use russh::keys::{HashAlg, PrivateKey};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Waits until `cond` holds, for at most `within`.
async fn until(within: Duration, what: &str, cond: impl Fn() -> bool) -> Result<(), String> {
    let end = Instant::now() + within;
    while !cond() {
        if Instant::now() > end {
            return Err(format!("{what}: not within {within:?}"));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Ok(())
}

/// Reads a raw TCP connection until the server closes it; how long that took.
async fn closed_after(
    mut socket: tokio::net::TcpStream,
    within: Duration,
) -> Result<Duration, String> {
    let t0 = Instant::now();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout(within, socket.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return Ok(t0.elapsed()),
            Ok(Ok(_)) => {}
            Err(_) => return Err(format!("still open after {within:?}")),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_hints_runs_one_search_per_session_within_the_servers_bound() {
    bounded(60, async {
        let dir = scratch("hints");
        let limits = ServerLimits {
            hint_searches: 1,
            ..ServerLimits::default()
        };
        let srv = start(&dir, limits).await;
        let addr = srv.addr();
        let mut ann = Term::open(addr, "ann", Ask::Room("h1"), (100, 30)).await?;
        ann.wait_for("you play white", T).await?;
        let mut bo = Term::open(addr, "bo", Ask::Room("h1"), (100, 30)).await?;
        bo.wait_for("you play black", T).await?;
        let mut cy = Term::open(addr, "cy", Ask::Room("h1"), (100, 30)).await?;
        cy.wait_for("you watch", T).await?;

        // A watcher's hints are refused (the server does not allow them).
        cy.send(&[b'H'; 1000]).await?;
        cy.wait_for("hints are for the players in this room", T)
            .await?;
        assert_eq!(srv.hub().hints_running(), 0);

        // The player pastes a thousand H: never more than one search at a time.
        let hub = Arc::clone(srv.hub());
        let watch = tokio::spawn(async move {
            let mut most = 0;
            let end = Instant::now() + Duration::from_secs(3);
            while Instant::now() < end {
                most = most.max(hub.hints_running());
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
            most
        });
        ann.send(&[b'H'; 1000]).await?;
        // Bo's hint finds the server's one hint search taken by ann's.
        tokio::time::sleep(Duration::from_millis(30)).await;
        if srv.hub().hints_running() == 1 {
            bo.send(b"H").await?;
            bo.wait_for("every hint search of the server is busy", T)
                .await?;
        }
        let most = watch.await.map_err(|e| e.to_string())?;
        assert!(most <= 1, "{most} hint searches at once");
        ann.wait_for("hint for white", Duration::from_secs(30))
            .await?;
        until(T, "the hint searches end", || {
            srv.hub().hints_running() == 0
        })
        .await?;
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_that_do_not_play_are_cut() {
    bounded(60, async {
        let dir = scratch("idle-conns");
        let limits = ServerLimits {
            sign_in: Duration::from_secs(1),
            no_session: Duration::from_secs(1),
            per_address: 2,
            startups_per_network: 3,
            ..ServerLimits::default()
        };
        let srv = start(&dir, limits).await;
        let addr = srv.addr();

        // Only the SSH banner, then nothing: cut at the one sign-in deadline.
        let mut banner = tokio::net::TcpStream::connect(addr)
            .await
            .map_err(|e| e.to_string())?;
        banner
            .write_all(b"SSH-2.0-silent\r\n")
            .await
            .map_err(|e| e.to_string())?;
        let took = closed_after(banner, Duration::from_secs(5)).await?;
        assert!(took < Duration::from_secs(3), "banner only: {took:?}");

        // Signed in, no channel (ssh -N): cut.
        let quiet = connect(addr, "nobody", None).await?;
        until(
            Duration::from_secs(5),
            "a signed-in connection without a session is cut",
            || quiet.is_closed(),
        )
        .await?;

        // A session channel that never asks for a shell: cut.
        let half = connect(addr, "half", None).await?;
        let _chan = half
            .channel_open_session()
            .await
            .map_err(|e| e.to_string())?;
        until(
            Duration::from_secs(5),
            "a channel without a shell is cut",
            || half.is_closed(),
        )
        .await?;

        // A player in the lobby is not cut, however long it takes; once the session
        // ends, its connection goes too.
        let mut ann = Term::open(addr, "ann", Ask::Shell, (80, 24)).await?;
        ann.wait_for("you are ann", T).await?;
        tokio::time::sleep(Duration::from_millis(2500)).await;
        assert!(!ann.handle.is_closed(), "a playing connection was cut");
        ann.send(b"q").await?;
        ann.wait_closed(T).await?;
        until(
            Duration::from_secs(5),
            "the connection after its session",
            || ann.handle.is_closed(),
        )
        .await?;

        // Connections that have not signed in count against their network's share of
        // the pool: three held from 127.0.0.5 leave no room to 127.0.0.7, in the same
        // /24, and leave 127.0.1.6 free.
        let from = |last: u8| IpAddr::from([127, 0, 0, last]);
        let raw = |ip: IpAddr| async move {
            let s = tokio::net::TcpSocket::new_v4().map_err(|e| e.to_string())?;
            s.bind(SocketAddr::new(ip, 0)).map_err(|e| e.to_string())?;
            s.connect(addr).await.map_err(|e| e.to_string())
        };
        let mut held = Vec::new();
        for _ in 0..3 {
            held.push(raw(from(5)).await?);
        }
        let fourth = raw(from(7)).await?;
        let took = closed_after(fourth, Duration::from_secs(5)).await?;
        assert!(
            took < Duration::from_millis(500),
            "over the network's share: {took:?}"
        );
        let mut other = Term::on(
            connect_from(IpAddr::from([127, 0, 1, 6]), addr, "bo", None).await?,
            Ask::Shell,
            (80, 24),
        )
        .await?;
        other.wait_for("you are bo", T).await?;
        // The held ones never signed in: gone within the deadline.
        for h in held {
            closed_after(h, Duration::from_secs(5)).await?;
        }
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_player_cannot_squat_every_room_and_idle_rooms_close() {
    bounded(60, async {
        let dir = scratch("squat");
        let limits = ServerLimits {
            rooms_per_player: 2,
            room_idle: Duration::from_secs(4),
            ..ServerLimits::default()
        };
        let srv = start(&dir, limits).await;
        let addr = srv.addr();
        for room in ["sq1", "sq2"] {
            let mut sq = Term::open(addr, "sq", Ask::Room(room), (80, 24)).await?;
            sq.wait_for("you play white", T).await?;
            sq.send(b":e2e4\r").await?;
            sq.wait_for("white played e2e4", T).await?;
            drop(sq);
        }
        let mut sq = Term::open(addr, "sq", Ask::Room("sq3"), (80, 24)).await?;
        sq.wait_for("you have 2 rooms open already", T).await?;
        sq.wait_for("rooms without players close after 4 s", T)
            .await?;
        assert!(srv.hub().room("sq3").is_none());
        // Another player opens a room of their own.
        let mut bo = Term::open(addr, "bo", Ask::Room("bo1"), (80, 24)).await?;
        bo.wait_for("you play white", T).await?;
        // A watcher in an idle room is sent back to the lobby when it closes (the
        // rooms are listed bo1, sq1, sq2: one down, s watches).
        let mut cy = Term::open(addr, "cy", Ask::Shell, (80, 24)).await?;
        cy.wait_for("sq2", T).await?;
        cy.send(b"\x1b[B").await?;
        cy.send(b"s").await?;
        cy.wait_for("you watch sq and", T).await?;
        cy.wait_for("sq1 closed: no player was in it for 4 s", T)
            .await?;
        until(T, "the squatted rooms close", || {
            srv.hub().room("sq2").is_none()
        })
        .await?;
        assert!(srv.hub().room("bo1").is_some(), "bo is in his");
        // Their games are kept with the finished ones, and replay.
        let finished = dir.join("server/rooms/finished");
        let listed = || -> Vec<std::path::PathBuf> {
            std::fs::read_dir(&finished).map_or(Vec::new(), |d| {
                d.filter_map(Result::ok).map(|e| e.path()).collect()
            })
        };
        // Black never moved in them: aborted games are not kept.
        assert!(listed().is_empty(), "{:?}", listed());
        // sq may open a room again.
        sq.send(b"q").await?;
        let mut again = Term::open(addr, "sq", Ask::Room("sq3"), (80, 24)).await?;
        again.wait_for("you play white", T).await?;
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_seat_is_never_taken_and_guests_are_told_apart() {
    bounded(60, async {
        let dir = scratch("seats");
        let limits = ServerLimits {
            seat_grace: Duration::ZERO,
            ..ServerLimits::default()
        };
        let srv = start(&dir, limits).await;
        let addr = srv.addr();
        let mut ann = Term::open(addr, "ann", Ask::Room("gy"), (100, 30)).await?;
        ann.wait_for("you play white", T).await?;
        // A second "ann" watches and is told why; the first keeps playing.
        let mut ann2 = Term::open(addr, "ann", Ask::Room("gy"), (100, 30)).await?;
        ann2.wait_for(
            "you play white here from another connection, so this one watches",
            T,
        )
        .await?;
        ann2.send(b":e2e4\r").await?;
        ann2.wait_for("you are watching", T).await?;
        ann.send(b":e2e4\r").await?;
        ann.wait_for("white played e2e4", T).await?;
        // Two emoji names: two guests of their own, not one "guest" twice.
        let mut g1 = Term::open(addr, "\u{1F600}", Ask::Room("gz"), (100, 30)).await?;
        g1.wait_for("you play white", T).await?;
        let mut g2 = Term::open(addr, "\u{1F601}", Ask::Room("gz"), (100, 30)).await?;
        g2.wait_for("you play black against guest-", T).await?;
        let roster = srv.hub().room("gz").map(|r| r.summary().roster);
        let name = |seat: Option<(Occupant, bool)>| seat.map(|(who, _)| who.name());
        let names = roster.map(|r| {
            (
                name(r.white).unwrap_or_default(),
                name(r.black).unwrap_or_default(),
            )
        });
        let (w, b) = names.unwrap_or_default();
        assert!(
            w.starts_with("guest-") && b.starts_with("guest-") && w != b,
            "{w} {b}"
        );
        // With no grace time, a name-only seat whose player dropped is free.
        drop(ann);
        drop(ann2);
        until(T, "ann is away", || {
            srv.hub()
                .room("gy")
                .is_some_and(|r| r.summary().roster.white.is_some_and(|(_, here)| !here))
        })
        .await?;
        let mut cy = Term::open(addr, "cy", Ask::Room("gy"), (100, 30)).await?;
        cy.wait_for("you play white", T).await?;
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_that_cannot_be_saved_says_so() {
    bounded(40, async {
        let dir = scratch("unsaved");
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        // The rooms folder cannot be made: a file stands where its parent should be
        // (root ignores permissions, so a read-only folder would not do).
        let blocker = dir.join("blocker");
        std::fs::write(&blocker, "").map_err(|e| e.to_string())?;
        let mut opts = ServeOptions::in_data_dir("127.0.0.1:0".parse().unwrap(), &dir);
        opts.rooms_dir = Some(blocker.join("rooms"));
        let srv = Server::start(opts).await.map_err(|e| e.to_string())?;
        let mut ann = Term::open(srv.addr(), "ann", Ask::Room("r1"), (100, 30)).await?;
        ann.wait_for("this room cannot be saved", T).await?;
        ann.wait_for("NOT SAVED", T).await?;
        ann.send(b":e2e4\r").await?;
        ann.wait_for("white played e2e4", T).await?;
        let unsaved = srv.shutdown("bye").await;
        assert_eq!(unsaved.len(), 1, "{unsaved:?}");
        assert!(
            unsaved[0].starts_with("room r1: cannot save"),
            "{unsaved:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn authorized_keys_options_are_honoured_or_the_key_is_refused() {
    bounded(40, async {
        let dir = scratch("from");
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let key = |seed: u8| Arc::new(PrivateKey::from(Ed25519Keypair::from_seed(&[seed; 32])));
        let (far, near, odd, twice) = (key(3), key(4), key(5), key(6));
        let line = |k: &PrivateKey| k.public_key().to_openssh().map_err(|e| e.to_string());
        let list = dir.join("authorized_keys");
        // A typo on line 4 does not keep the server from starting; a key with two
        // from= options is refused as OpenSSH refuses it (not read with the last one).
        let text = format!(
            "from=\"10.9.9.9\" {} far\nfrom=\"127.0.0.2\" {} near\nrestrict {} odd\nssh-ed25519 AAAAtypo\nfrom=\"10.9.9.9\",from=\"127.0.0.0/8\" {} twice\n",
            line(&far)?,
            line(&near)?,
            line(&odd)?,
            line(&twice)?
        );
        std::fs::write(&list, text).map_err(|e| e.to_string())?;
        let mut opts = ServeOptions::in_data_dir("127.0.0.1:0".parse().unwrap(), &dir);
        opts.authorized_keys = Some(list);
        let srv = Server::start(opts).await.map_err(|e| e.to_string())?;
        let addr = srv.addr();
        let problems = srv.problems().join("\n");
        assert!(
            problems.contains("authorized_keys:3: key") && problems.contains("option restrict"),
            "{problems}"
        );
        assert!(
            problems.contains("authorized_keys:4: not a key, line skipped"),
            "{problems}"
        );
        assert!(
            problems.contains("authorized_keys:5: key") && problems.contains("from is given twice"),
            "{problems}"
        );
        assert!(
            connect(addr, "twice", Some(twice)).await.is_err(),
            "a key with two from= options"
        );
        let from = |last: u8| IpAddr::from([127, 0, 0, last]);
        assert!(
            connect(addr, "far", Some(Arc::clone(&far))).await.is_err(),
            "from 10.9.9.9 only"
        );
        assert!(
            connect(addr, "near", Some(Arc::clone(&near)))
                .await
                .is_err(),
            "not from .1"
        );
        assert!(
            connect_from(from(2), addr, "odd", Some(odd)).await.is_err(),
            "restrict"
        );
        let h = connect_from(from(2), addr, "near", Some(near)).await?;
        let mut t = Term::on(h, Ask::Shell, (80, 24)).await?;
        t.wait_for("you are near", T).await?;
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn broken_rooms_stay_closed_and_are_never_written_over() {
    bounded(40, async {
        let dir = scratch("broken");
        let srv = start(&dir, ServerLimits::default()).await;
        let mut ann = Term::open(srv.addr(), "ann", Ask::Room("r1"), (80, 24)).await?;
        ann.wait_for("you play white", T).await?;
        ann.send(b":e2e4\r").await?;
        ann.wait_for("white played e2e4", T).await?;
        srv.shutdown("restarting").await;
        let rooms = dir.join("server/rooms");
        let game = std::fs::read_to_string(rooms.join("r1.toml")).map_err(|e| e.to_string())?;
        std::fs::write(rooms.join("r1.seats.toml"), "white = [").map_err(|e| e.to_string())?;
        std::fs::write(rooms.join(".r1.toml.tmp-99999"), "half").map_err(|e| e.to_string())?;

        let srv = start(&dir, ServerLimits::default()).await;
        let said = srv.problems().join("\n");
        assert!(
            said.contains("not brought back") && said.contains("r1.broken-"),
            "{said}"
        );
        assert!(
            srv.hub().room("r1").is_none(),
            "a stranger would find white free"
        );
        let names: Vec<String> = std::fs::read_dir(&rooms)
            .map_err(|e| e.to_string())?
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert!(!names.iter().any(|n| n.contains(".tmp-")), "{names:?}");
        let aside = names
            .iter()
            .find(|n| n.starts_with("r1.broken-") && !n.contains(".seats"))
            .ok_or(format!("nothing put aside: {names:?}"))?;
        // A new r1 is a new room; the old game is kept as it was.
        let mut bo = Term::open(srv.addr(), "bo", Ask::Room("r1"), (80, 24)).await?;
        bo.wait_for("you play white", T).await?;
        bo.send(b":d2d4\r").await?;
        bo.wait_for("white played d2d4", T).await?;
        let kept = std::fs::read_to_string(rooms.join(aside)).map_err(|e| e.to_string())?;
        assert_eq!(kept, game);
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn room_names_ignore_case() {
    bounded(40, async {
        let dir = scratch("case");
        let srv = start(&dir, ServerLimits::default()).await;
        let addr = srv.addr();
        let mut ann = Term::open(addr, "ann", Ask::Room("Aa"), (80, 24)).await?;
        ann.wait_for("you play white", T).await?;
        ann.send(b":e2e4\r").await?;
        ann.wait_for("white played e2e4", T).await?;
        // aA is the room Aa: bo takes its black seat, no second room is opened.
        let mut bo = Term::open(addr, "bo", Ask::Room("aA"), (80, 24)).await?;
        bo.wait_for("you play black", T).await?;
        assert_eq!(srv.hub().summaries().len(), 1);
        assert_eq!(
            srv.hub().room("AA").map(|r| r.name().to_string()),
            Some("Aa".into())
        );
        srv.shutdown("restarting").await;
        // Files from before, whose names differ only in case: one room comes back,
        // the other is put aside, never written over.
        let rooms = dir.join("server/rooms");
        for ext in ["toml", "seats.toml"] {
            std::fs::copy(
                rooms.join(format!("Aa.{ext}")),
                rooms.join(format!("aA.{ext}")),
            )
            .map_err(|e| e.to_string())?;
        }
        let srv = start(&dir, ServerLimits::default()).await;
        let said = srv.problems().join("\n");
        assert!(said.contains("differs only in case"), "{said}");
        assert_eq!(srv.hub().summaries().len(), 1);
        let aside = std::fs::read_dir(&rooms)
            .map_err(|e| e.to_string())?
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().contains(".broken-"))
            .count();
        assert_eq!(aside, 2, "the game and its seats put aside");
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_used_with_a_key_is_that_keys_and_look_alikes_are_refused() {
    bounded(60, async {
        let dir = scratch("names");
        let srv = start(&dir, ServerLimits::default()).await;
        let addr = srv.addr();
        let key = |seed: u8| Arc::new(PrivateKey::from(Ed25519Keypair::from_seed(&[seed; 32])));
        let (vic, eve) = (key(7), key(8));
        let h = connect(addr, "vic3", Some(Arc::clone(&vic))).await?;
        let mut v = Term::on(h, Ask::Shell, (100, 30)).await?;
        v.wait_for("you are vic3", T).await?;
        drop(v);
        // Without vic's key (a client whose key offer was accepted but which cannot
        // sign falls back to keyboard-interactive), with another key, or as a look-alike:
        // a guest, told why.
        let mut k = Term::open(addr, "vic3", Ask::Room("v1"), (100, 30)).await?;
        k.wait_for("the name vic3 belongs to another player's key", T)
            .await?;
        k.wait_for("you are guest-", T).await?;
        assert!(srv.hub().room("v1").is_none(), "told in the lobby first");
        let h = connect(addr, "VIC3", Some(eve)).await?;
        let mut e = Term::on(h, Ask::Shell, (120, 30)).await?;
        e.wait_for(
            "the name VIC3 belongs to another player's key (it looks like vic3)",
            T,
        )
        .await?;
        // A name in use now, in another script or another case.
        let mut ace = Term::open(addr, "ace", Ask::Shell, (100, 30)).await?;
        ace.wait_for("you are ace", T).await?;
        for look_alike in ["\u{430}\u{441}\u{435}", "Ace"] {
            let mut t = Term::open(addr, look_alike, Ask::Shell, (120, 30)).await?;
            t.wait_for("looks like ace, who is here now", T).await?;
        }
        // After a restart the name is still vic's, and vic gets it back.
        srv.shutdown("restarting").await;
        let srv = start(&dir, ServerLimits::default()).await;
        let addr = srv.addr();
        let mut k = Term::open(addr, "vic3", Ask::Shell, (100, 30)).await?;
        k.wait_for("belongs to another player's key", T).await?;
        let h = connect(addr, "vic3", Some(Arc::clone(&vic))).await?;
        let mut v = Term::on(h, Ask::Shell, (100, 30)).await?;
        v.wait_for("you are vic3", T).await?;
        // The name is a club member's with vic's key; the key under another name signs
        // in as vic3.
        let club = SqliteStore::open_existing(&qchess::club::default_db(&dir))
            .map_err(|e| e.to_string())?;
        let print = |k: &PrivateKey| k.public_key().fingerprint(HashAlg::Sha256).to_string();
        let owner = club.key_owner(&print(&vic)).map_err(|e| e.to_string())?;
        assert_eq!(owner.map(|m| m.name).as_deref(), Some("vic3"));
        let h = connect(addr, "victor", Some(Arc::clone(&vic))).await?;
        let mut v = Term::on(h, Ask::Shell, (120, 30)).await?;
        v.wait_for("your key is vic3's in the club, so you are vic3 here", T)
            .await?;
        // A banned key signs in neither with the key nor without it on that connection.
        let mut club = club;
        let ban = Ban {
            fingerprint: print(&vic),
            reason: "test".into(),
            since: 0,
        };
        club.ban(&ban).map_err(|e| e.to_string())?;
        // Its session running now ends at the server's next look (every minute; here
        // at once), saying why.
        srv.hub().end_revoked_sessions();
        v.wait_closed(T).await?;
        let said = v.text();
        assert!(
            said.contains("the server's operator banned your key: test"),
            "{said}"
        );
        match connect(addr, "vic3", Some(Arc::clone(&vic))).await {
            Err(e) => assert_eq!(e, "not signed in"),
            Ok(_) => return Err("a banned key signed in".into()),
        }
        club.unban(&ban.fingerprint).map_err(|e| e.to_string())?;
        connect(addr, "vic3", Some(vic)).await?;
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_keyless_seat_is_kept_for_its_name_from_its_own_addresses() {
    bounded(60, async {
        let dir = scratch("seat-from");
        let srv = start(&dir, ServerLimits::default()).await;
        let addr = srv.addr();
        let from = |a: u8, b: u8| IpAddr::from([127, 0, a, b]);
        let h = connect_from(from(0, 2), addr, "ann", None).await?;
        let mut ann = Term::on(h, Ask::Room("g1"), (100, 30)).await?;
        ann.wait_for("you play white", T).await?;
        let mut bo = Term::open(addr, "bo", Ask::Room("g1"), (100, 30)).await?;
        bo.wait_for("you play black", T).await?;
        drop(ann);
        until(T, "ann is away", || {
            srv.hub()
                .room("g1")
                .is_some_and(|r| r.summary().roster.white.is_some_and(|(_, here)| !here))
        })
        .await?;
        // Someone typing her name from elsewhere only watches: white waits for her.
        let h = connect_from(from(1, 5), addr, "ann", None).await?;
        let mut other = Term::on(h, Ask::Room("g1"), (100, 30)).await?;
        other.wait_for("you watch", T).await?;
        other.send(b"X").await?;
        other.wait_for("you are watching", T).await?;
        // From her own block of addresses (another port, another address in the /24)
        // she sits down again.
        let h = connect_from(from(0, 9), addr, "ann", None).await?;
        let mut back = Term::on(h, Ask::Room("g1"), (100, 30)).await?;
        back.wait_for("you play white", T).await?;
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resize_storm_is_bounded_and_keeps_no_session_alive() {
    bounded(40, async {
        let dir = scratch("resize");
        let limits = ServerLimits {
            idle: Duration::from_secs(2),
            ..ServerLimits::default()
        };
        let srv = start(&dir, limits).await;
        let mut t = Term::open(srv.addr(), "ann", Ask::Shell, (100, 30)).await?;
        t.wait_for("you are ann", T).await?;
        // A storm: a thousand window sizes at once (coalesced, and charged to the
        // input budget); another player still gets in and is drawn at once.
        for i in 0..1000u32 {
            t.resize(60 + i % 40, 20 + i % 10).await?;
        }
        t.resize(120, 40).await?;
        let mut bo = Term::open(srv.addr(), "bo", Ask::Shell, (100, 30)).await?;
        bo.wait_for("you are bo", T).await?;
        // Window sizes and mouse motion with nobody at the keys: closed as idle all
        // the same.
        let t0 = Instant::now();
        let mut closed = false;
        while t0.elapsed() < Duration::from_secs(8) {
            let _ = t.resize(120, 40).await;
            let _ = t.send(b"\x1b[<35;10;10M").await;
            if t.wait_for("without input", Duration::from_millis(100))
                .await
                .is_ok()
            {
                closed = true;
                break;
            }
        }
        assert!(closed, "resizes and mouse motion kept the session open");
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

/// How long a room without a second player stays open in the squatter's test.
const LONELY: Duration = Duration::from_secs(12);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_squatter_rotating_names_leaves_room_for_a_newcomer() {
    bounded(60, async {
        let dir = scratch("rotate");
        let limits = ServerLimits {
            max_rooms: 4,
            rooms_per_network: 3,
            // Long enough for the four rooms to be open at once on most machines (a
            // loaded one is allowed for below).
            lonely_room: LONELY,
            ..ServerLimits::default()
        };
        let srv = start(&dir, limits).await;
        let addr = srv.addr();
        let from = |a: u8| IpAddr::from([127, 0, a, 2]);
        // Every room below is younger than this.
        let first_opened = std::time::Instant::now();
        // A new name per room, from one network: open, play a move, leave.
        for n in 1..=3 {
            let name = format!("q{n}");
            let h = connect_from(from(0), addr, &name, None).await?;
            let mut t = Term::on(h, Ask::Room(&name), (80, 24)).await?;
            t.wait_for("you play white", T).await?;
            t.send(b":e2e4\r").await?;
            t.wait_for("white played e2e4", T).await?;
        }
        let h = connect_from(from(0), addr, "q4", None).await?;
        let mut t = Term::on(h, Ask::Room("q4"), (120, 30)).await?;
        t.wait_for("rooms are open already from your network without a key", T)
            .await?;
        // Another network fills the server.
        let h = connect_from(from(1), addr, "x1", None).await?;
        let mut t = Term::on(h, Ask::Room("x1"), (80, 24)).await?;
        t.wait_for("you play white", T).await?;
        drop(t);
        until(T, "four rooms", || srv.hub().summaries().len() == 4).await?;
        // A newcomer still gets a room: the one lonely longest gives way.
        let h = connect_from(from(2), addr, "ann", None).await?;
        let mut ann = Term::on(h, Ask::Room("mine"), (80, 24)).await?;
        ann.wait_for("you play white", T).await?;
        let names: Vec<String> = srv.hub().summaries().into_iter().map(|s| s.name).collect();
        // While no room has been lonely for LONELY, ann's room was only there because a
        // lonely one gave way; on a machine slow enough for some to have closed on their
        // own by now, only ann's room is sure.
        let none_closed_yet = first_opened.elapsed() < LONELY;
        assert!(
            names.contains(&"mine".to_string()) && (names.len() == 4 || !none_closed_yet),
            "a lonely room gave way: {names:?}"
        );
        // Rooms that never had two players close after minutes (here 12 s), not hours;
        // ann's, with ann in it, stays.
        until(2 * T, "the lonely rooms close", || {
            let names: Vec<String> = srv.hub().summaries().into_iter().map(|s| s.name).collect();
            names == ["mine"]
        })
        .await?;
        let finished = dir.join("server/rooms/finished");
        let kept = std::fs::read_dir(&finished).map_or(0, |d| d.count());
        assert_eq!(kept, 0, "black never moved: aborted games are not kept");
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_gets_in_while_sixteen_addresses_hammer() {
    bounded(60, async {
        let dir = scratch("hammer");
        let srv = start(&dir, ServerLimits::default()).await;
        let addr = srv.addr();
        // Sixteen addresses in two networks, eight silent connections each, every one
        // opened again as soon as the server closes it, for six seconds.
        let until_t = Instant::now() + Duration::from_secs(6);
        let mut hammers = Vec::new();
        for net in [4u8, 5] {
            for host in 1..=8u8 {
                for _ in 0..8 {
                    let ip = IpAddr::from([127, 0, net, host]);
                    hammers.push(tokio::spawn(async move {
                        let mut opened = 0u32;
                        while Instant::now() < until_t {
                            let Ok(s) = tokio::net::TcpSocket::new_v4() else {
                                break;
                            };
                            if s.bind(SocketAddr::new(ip, 0)).is_err() {
                                break;
                            }
                            match s.connect(addr).await {
                                Ok(c) => {
                                    opened += 1;
                                    let left = until_t.saturating_duration_since(Instant::now());
                                    let _ = closed_after(c, left).await;
                                }
                                Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
                            }
                        }
                        opened
                    }));
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        // A player from elsewhere signs in every half second, trying again at most
        // twice when dropped early (as a person would press Enter again).
        let mut got_in = 0;
        for i in 0..8 {
            for _ in 0..3 {
                let from = IpAddr::from([127, 0, 6, 2]);
                let Ok(h) = connect_from(from, addr, &format!("p{i}"), None).await else {
                    continue;
                };
                let mut t = Term::on(h, Ask::Shell, (80, 24)).await?;
                t.wait_for(&format!("you are p{i}"), T).await?;
                got_in += 1;
                break;
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        assert_eq!(got_in, 8, "a player got in {got_in} times of 8");
        let mut opened = 0;
        for h in hammers {
            opened += h.await.map_err(|e| e.to_string())?;
        }
        assert!(opened > 0, "the hammers connected");
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_resign_leave_is_rate_limited_and_aborted_games_are_not_kept() {
    bounded(60, async {
        let dir = scratch("archive");
        let limits = ServerLimits {
            rooms_per_minute: 3,
            ..ServerLimits::default()
        };
        let srv = start(&dir, limits).await;
        let addr = srv.addr();
        let finished = dir.join("server/rooms/finished");
        let listed = || -> Vec<String> {
            std::fs::read_dir(&finished).map_or(Vec::new(), |d| {
                d.filter_map(Result::ok)
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
        };
        // Open, resign, leave: the games are aborted (black never moved), not kept,
        // and the fourth room within the minute waits.
        for n in 1..=3 {
            let room = format!("r{n}");
            let mut t = Term::open(addr, "ann", Ask::Room(&room), (100, 30)).await?;
            t.wait_for("you play white", T).await?;
            t.send(b":e2e4\r").await?;
            t.wait_for("white played e2e4", T).await?;
            t.send(b"X").await?;
            t.wait_for("Resign?", T).await?;
            t.send(b"y").await?;
            t.wait_for("Game over", T).await?;
            t.send(b"q").await?;
            t.wait_for("you are ann", T).await?;
            until(T, "the room is put away", || {
                srv.hub().room(&room).is_none()
            })
            .await?;
        }
        let mut t = Term::open(addr, "ann", Ask::Room("r4"), (120, 30)).await?;
        t.wait_for("rooms were opened from your network in the last minute", T)
            .await?;
        assert!(listed().is_empty(), "{:?}", listed());
        // A game both sides played is kept, as played by guests (no key); from another
        // network, which has opened nothing this minute.
        let elsewhere = IpAddr::from([127, 0, 1, 2]);
        let h = connect_from(elsewhere, addr, "ann", None).await?;
        let mut ann = Term::on(h, Ask::Room("r1"), (100, 30)).await?;
        ann.wait_for("you play white", T).await?;
        let h = connect_from(elsewhere, addr, "bo", None).await?;
        let mut bo = Term::on(h, Ask::Room("r1"), (100, 30)).await?;
        bo.wait_for("you play black", T).await?;
        ann.send(b":e2e4\r").await?;
        bo.wait_for("white played e2e4", T).await?;
        bo.send(b":e7e5\r").await?;
        ann.wait_for("black played e7e5", T).await?;
        ann.send(b"X").await?;
        ann.wait_for("Resign?", T).await?;
        ann.send(b"y").await?;
        bo.wait_for("Game over", T).await?;
        drop(ann);
        drop(bo);
        // Kept in the club's archive (the folder keeps only what the club did not).
        let query = qchess::club::GameQuery {
            member: None,
            limit: 10,
        };
        let archived = || {
            SqliteStore::open_existing(&qchess::club::default_db(&dir))
                .and_then(|club| club.games(query))
                .unwrap_or_default()
        };
        until(T, "the played game is kept", || archived().len() == 1).await?;
        assert_eq!(archived()[0].white.member, None, "guests");
        until(T, "the room is put away", || srv.hub().room("r1").is_none()).await?;
        assert!(listed().is_empty(), "{:?}", listed());
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}
