//! One club on two servers: two `qchess serve` on one PostgreSQL database (a scratch
//! database on the server `QCHESS_TEST_POSTGRES` names; the tests say they are skipped
//! without one), or on one SQLite file (always run). A rated game paired and finished on
//! one server is in the other's archive and moves the ratings both show; a member's key
//! is theirs on both, and their name is refused to another key on both. A room opened on
//! one server is listed in the other's lobby with the command that reaches it, and gone
//! from it once that server stops; a Swiss with players on both is paired once, and a
//! player whose game is on the other server is told where.

use super::{bounded, scratch, T};
use crate::support::ssh_term::{connect, Ask, Term};
use qchess::club::tournament::record::{Length, NewTournament};
use qchess::club::tournament::Kind;
use qchess::club::{Category, ClubStore, Database, PostgresStore};
use qchess::server::hub::tournaments::board_room;
use qchess::server::limits::ServerLimits;
use qchess::server::{ServeOptions, Server};
use russh::keys::ssh_key::private::Ed25519Keypair;
use russh::keys::PrivateKey;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn key(seed: u8) -> Arc<PrivateKey> {
    Arc::new(PrivateKey::from(Ed25519Keypair::from_seed(&[seed; 32])))
}

/// A scratch database on the PostgreSQL server of `QCHESS_TEST_POSTGRES`, dropped with
/// it; none (said once) when the variable is not set.
struct Scratch {
    admin: String,
    name: String,
    url: String,
}

impl Scratch {
    fn new(tag: &str) -> Option<Scratch> {
        let Ok(admin) = std::env::var("QCHESS_TEST_POSTGRES") else {
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "two servers on one PostgreSQL club skipped: set QCHESS_TEST_POSTGRES to run it"
            );
            return None;
        };
        let name = format!("qchess_serve_{tag}_{}", std::process::id());
        let sql = format!("CREATE DATABASE {name}");
        run_sql(&admin, &sql);
        let url = qchess::club::database::with_database(&admin, &name);
        Some(Scratch { admin, name, url })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        run_sql(
            &self.admin,
            &format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
        );
    }
}

/// Runs `sql` on the server of `admin`, off any runtime (the client runs its own).
fn run_sql(admin: &str, sql: &str) {
    let (admin, sql) = (admin.to_string(), sql.to_string());
    std::thread::spawn(move || {
        postgres::Client::connect(&admin, postgres::NoTls)
            .and_then(|mut c| c.batch_execute(&sql))
            .unwrap_or_else(|e| panic!("{sql}: {e}"))
    })
    .join()
    .expect("the PostgreSQL call");
}

/// A server with its own data folder `dir` on the club in `url`.
async fn start_on(dir: &std::path::Path, url: &str) -> Server {
    let mut opts = ServeOptions::in_data_dir("127.0.0.1:0".parse().unwrap(), dir);
    opts.club_db = Some(Database::Postgres(url.to_string()));
    Server::start(opts).await.expect("the server starts")
}

/// A server with its own data folder `dir` on the club `db`, publishing its rooms every
/// 200 ms and its director looking every `looks`.
async fn quick_on(dir: &std::path::Path, db: &Database, looks: Duration) -> Server {
    let mut opts = ServeOptions::in_data_dir("127.0.0.1:0".parse().unwrap(), dir);
    opts.club_db = Some(db.clone());
    opts.limits = ServerLimits {
        publish_every: Duration::from_millis(200),
        director_looks: looks,
        ..ServerLimits::default()
    };
    Server::start(opts).await.expect("the server starts")
}

/// The club of both servers: one SQLite file in `dir`, or PostgreSQL's scratch database.
fn sqlite_club(dir: &std::path::Path) -> Database {
    Database::Sqlite(dir.join("club.sqlite"))
}

/// The command that reaches `what` on `srv`, as the other server's players read it.
fn command_for(srv: &Server, user: Option<&str>, what: &str) -> String {
    let at = srv.addr();
    let user = user.map_or_else(String::new, |u| format!("{u}@"));
    let line = format!("ssh -t -p {} {user}{} {what}", at.port(), at.ip());
    line.trim_end().to_string()
}

/// Reads until `ok` holds of the screen; fails with the screen after `T`.
async fn until_shown(t: &mut Term, what: &str, ok: impl Fn(&str) -> bool) -> Result<(), String> {
    let end = Instant::now() + T;
    while !ok(&t.text()) {
        if Instant::now() > end {
            return Err(format!(
                "waited for {what}; the screen shows:\n{}",
                t.text()
            ));
        }
        // Reads for a moment (nothing on a screen is a NUL).
        let _ = t.wait_for("\0", Duration::from_millis(100)).await;
    }
    Ok(())
}

/// A room opened on A is listed in B's lobby with A's address and the command that
/// enters it; Enter on it says the command and opens nothing; a seek posted on A is on
/// B's seeks page; once A stops, they are gone.
async fn a_room_on_one_server_is_listed_on_the_other(db: Database, dirs: [&str; 2]) {
    bounded(60, async {
        let (dir_a, dir_b) = (scratch(dirs[0]), scratch(dirs[1]));
        let looks = Duration::from_millis(100);
        let a = quick_on(&dir_a, &db, looks).await;
        let b = quick_on(&dir_b, &db, looks).await;
        let h = connect(a.addr(), "ann", Some(key(71))).await?;
        let mut ann = Term::on(h, Ask::Exec("annroom"), (120, 40)).await?;
        ann.wait_for("room annroom", T).await?;
        let h = connect(b.addr(), "cy", Some(key(72))).await?;
        let mut cy = Term::on(h, Ask::Shell, (120, 40)).await?;
        cy.wait_for("you are cy", T).await?;
        // Within a few seconds (a publication and a reading, 200 ms each here).
        let started = Instant::now();
        cy.wait_for("On other servers of the club", T).await?;
        let enter = command_for(&a, None, "annroom");
        cy.wait_for(&enter, T).await?;
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "{:?}",
            started.elapsed()
        );
        let text = cy.text();
        assert!(
            text.contains("ann - free") || text.contains("free - ann"),
            "{text}"
        );
        // Its own rooms first: none here, so the pick is A's room.
        cy.send(b"\r").await?;
        let said = format!(
            "annroom is on the club's server {}: connect with {}",
            a.addr(),
            command_for(&a, Some("cy"), "annroom")
        );
        cy.wait_for(&said, T).await?;
        assert!(b.hub().room("annroom").is_none(), "nothing opened on B");
        // A seek posted on A is on B's seeks page, with the command to A's lobby.
        let h = connect(a.addr(), "eve", Some(key(74))).await?;
        let mut eve = Term::on(h, Ask::Exec("seek 7+2 casual white"), (120, 40)).await?;
        eve.wait_for("your seek is open", T).await?;
        cy.send(b"o").await?;
        cy.wait_for("on other servers of the club", T).await?;
        cy.wait_for(&command_for(&a, None, ""), T).await?;
        let text = cy.text();
        assert!(
            text.contains("eve") && text.contains("casual white"),
            "{text}"
        );
        cy.send(b"\x1b").await?;
        cy.wait_for("On other servers of the club", T).await?;
        // A's lobby does not list its own room as elsewhere.
        let h = connect(a.addr(), "di", Some(key(73))).await?;
        let mut di = Term::on(h, Ask::Shell, (120, 40)).await?;
        di.wait_for("annroom", T).await?;
        tokio::time::sleep(Duration::from_millis(600)).await;
        let _ = di.wait_for("\0", Duration::from_millis(100)).await;
        assert!(!di.text().contains("On other servers"), "{}", di.text());
        // A stops: its room leaves B's lobby.
        drop((ann, di, eve));
        a.shutdown("bye").await;
        until_shown(&mut cy, "A's room gone", |s| {
            !s.contains("On other servers")
        })
        .await?;
        drop(cy);
        b.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir_a);
        let _ = std::fs::remove_dir_all(&dir_b);
        Ok(())
    })
    .await;
}

/// A Swiss with two players on A and two on B: both directors look at it, its first
/// round is paired once, all its rooms on the server that paired it, and the players on
/// the other server are told where their game is, with the command.
async fn a_swiss_on_two_servers_is_paired_once(db: Database, dirs: [&str; 2]) {
    bounded(60, async {
        let (dir_a, dir_b) = (scratch(dirs[0]), scratch(dirs[1]));
        // Both directors look at it every 100 ms. (Two servers pairing the same round at
        // the same moment is left to the store's test: here the one that looks first
        // pairs it, and the other finds it paired.)
        let looks = Duration::from_millis(100);
        let a = quick_on(&dir_a, &db, looks).await;
        let b = quick_on(&dir_b, &db, looks).await;
        let club = a.hub().club().ok_or("no club")?;
        let made = club.store().create_tournament(&NewTournament {
            name: "Both Sides".into(),
            kind: Kind::Swiss,
            control: "5+3".parse().map_err(|_| "clock")?,
            length: Length::Rounds(3),
            // Far enough ahead that all four are in when it starts.
            starts: qchess::server::club::Club::now() + 3,
            creator: None,
        });
        let t = made.map_err(|e| e.to_string())?;
        let mut players = Vec::new();
        for (i, (user, srv)) in [("ann", &a), ("bo", &a), ("cy", &b), ("di", &b)]
            .into_iter()
            .enumerate()
        {
            let h = connect(srv.addr(), user, Some(key(80 + i as u8))).await?;
            let mut term = Term::on(h, Ask::Exec("tournament Both Sides"), (120, 40)).await?;
            term.wait_for("you are in Both Sides", T).await?;
            players.push((user, srv, term));
        }
        // Paired: one round of two boards, once, on one server.
        let store = || club.store();
        let end = Instant::now() + T;
        let pairings = loop {
            let kept = store().pairings(t.id).map_err(|e| e.to_string())?;
            if !kept.is_empty() || Instant::now() > end {
                break kept;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        assert_eq!(pairings.len(), 2, "{pairings:?}");
        // The rooms are opened once the round is written.
        let room = |k: &qchess::club::tournament::record::KeptPairing| board_room(t.id, k.id);
        let opened = |srv: &Server| pairings.iter().all(|k| srv.hub().room(&room(k)).is_some());
        let end = Instant::now() + T;
        while !opened(&a) && !opened(&b) && Instant::now() < end {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let none_on = |srv: &Server| pairings.iter().all(|k| srv.hub().room(&room(k)).is_none());
        let (on_a, on_b) = (opened(&a) && none_on(&b), opened(&b) && none_on(&a));
        assert!(on_a != on_b, "every room on one server: A {on_a}, B {on_b}");
        let (host, other) = if on_a { (&a, &b) } else { (&b, &a) };
        // The players on the other server are told where, with the command.
        for (user, srv, term) in &mut players {
            if std::ptr::eq(*srv, other) {
                let command = command_for(host, Some(user), "tournament Both Sides");
                let words = format!("your game in round 1 is on {}: {command}", host.addr());
                term.wait_for(&words, T).await?;
            }
        }
        // Some looks later, still the one round.
        tokio::time::sleep(Duration::from_millis(1000)).await;
        assert_eq!(store().pairings(t.id).map_err(|e| e.to_string())?.len(), 2);
        let round = store()
            .tournament("Both Sides")
            .map_err(|e| e.to_string())?;
        assert_eq!(round.map(|t| t.round), Some(1));
        drop(players);
        a.shutdown("bye").await;
        b.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir_a);
        let _ = std::fs::remove_dir_all(&dir_b);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_on_one_server_is_listed_on_the_other_sharing_an_sqlite_club() {
    let dir = scratch("live-rooms-club");
    let db = sqlite_club(&dir);
    a_room_on_one_server_is_listed_on_the_other(db, ["live-rooms-a", "live-rooms-b"]).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_on_one_server_is_listed_on_the_other_sharing_a_postgresql_club() {
    let Some(db) = Scratch::new("live_rooms") else {
        return;
    };
    let club = Database::Postgres(db.url.clone());
    a_room_on_one_server_is_listed_on_the_other(club, ["live-rooms-pa", "live-rooms-pb"]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_on_two_servers_sharing_an_sqlite_club_is_paired_once() {
    let dir = scratch("both-sides-club");
    let db = sqlite_club(&dir);
    a_swiss_on_two_servers_is_paired_once(db, ["both-sides-a", "both-sides-b"]).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_on_two_servers_sharing_a_postgresql_club_is_paired_once() {
    let Some(db) = Scratch::new("both_sides") else {
        return;
    };
    let club = Database::Postgres(db.url.clone());
    a_swiss_on_two_servers_is_paired_once(club, ["both-sides-pa", "both-sides-pb"]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_one_postgresql_club_share_members_games_and_ratings() {
    let Some(db) = Scratch::new("shared") else {
        return;
    };
    bounded(120, async {
        let (dir_a, dir_b) = (scratch("shared-a"), scratch("shared-b"));
        let a = start_on(&dir_a, &db.url).await;
        let b = start_on(&dir_b, &db.url).await;
        // A rated game paired on A: ann and bo seek, white resigns after a move each.
        let on_a = a.addr();
        let seek = |user: &'static str, seed: u8| async move {
            let h = connect(on_a, user, Some(key(seed))).await?;
            Term::on(h, Ask::Exec("seek 5+3"), (120, 40)).await
        };
        let mut ann = seek("ann", 61).await?;
        ann.wait_for("waiting for an opponent in 5+3 rated", T)
            .await?;
        let mut bo = seek("bo", 62).await?;
        for t in [&mut ann, &mut bo] {
            t.wait_for("you play", T).await?;
        }
        let ann_white = ann.text().contains("you play white");
        let (white, black) = if ann_white {
            (&mut ann, &mut bo)
        } else {
            (&mut bo, &mut ann)
        };
        white.send(b":e2e4\r").await?;
        black.wait_for("white played e2e4", T).await?;
        black.send(b":e7e5\r").await?;
        white.wait_for("black played e7e5", T).await?;
        white.send(b"X").await?;
        white.wait_for("Resign?", T).await?;
        white.send(b"y").await?;
        black.wait_for("rated blitz: ", T).await?;

        // The club, read on its own: the game once, both ratings moved.
        let url = db.url.clone();
        let (games, ann_now) = tokio::task::spawn_blocking(move || {
            let club = PostgresStore::open(&url).map_err(|e| e.to_string())?;
            let games = club
                .games(qchess::club::GameQuery {
                    member: None,
                    limit: 10,
                })
                .map_err(|e| e.to_string())?;
            let ann = club.member("ann").map_err(|e| e.to_string())?;
            let ann = ann.ok_or("ann is no member")?;
            let now = club
                .rating(ann.id, Category::Blitz)
                .map_err(|e| e.to_string())?;
            Ok::<_, String>((games, now))
        })
        .await
        .map_err(|e| e.to_string())??;
        assert_eq!(games.len(), 1, "{games:?}");
        assert!(games[0].ratings.is_some(), "rated");

        // On B: ann's key is ann's, her page shows the rating the game on A gave her,
        // and the archive shows the game.
        let h = connect(b.addr(), "ann", Some(key(61))).await?;
        let mut there = Term::on(h, Ask::Shell, (100, 30)).await?;
        there.wait_for("you are ann", T).await?;
        there.send(b"m").await?;
        there.wait_for("ann · your page", T).await?;
        there.wait_for(&format!("blitz     {ann_now}"), T).await?;
        there.send(b"\x1b").await?;
        there.wait_for("r leaderboard", T).await?;
        there.send(b"g").await?;
        there.wait_for("Games · most recent first", T).await?;
        there.wait_for("white resigned", T).await?;
        // bo's name is bo's key's on B too.
        let h = connect(b.addr(), "bo", Some(key(63))).await?;
        let mut other = Term::on(h, Ask::Shell, (100, 30)).await?;
        other
            .wait_for("the name bo belongs to another player's key", T)
            .await?;
        drop((ann, bo, there, other));
        a.shutdown("bye").await;
        b.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir_a);
        let _ = std::fs::remove_dir_all(&dir_b);
        Ok(())
    })
    .await;
}
