//! One club on two servers: two `qchess serve` on one PostgreSQL database (a scratch
//! database on the server `QCHESS_TEST_POSTGRES` names; the test says it is skipped
//! without one). A rated game paired and finished on one server is in the other's
//! archive and moves the ratings both show; a member's key is theirs on both, and their
//! name is refused to another key on both.

use super::{bounded, scratch, T};
use crate::support::ssh_term::{connect, Ask, Term};
use qchess::club::{Category, ClubStore, Database, PostgresStore};
use qchess::server::{ServeOptions, Server};
use russh::keys::ssh_key::private::Ed25519Keypair;
use russh::keys::PrivateKey;
use std::sync::Arc;

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
    fn new() -> Option<Scratch> {
        let Ok(admin) = std::env::var("QCHESS_TEST_POSTGRES") else {
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "two servers on one PostgreSQL club skipped: set QCHESS_TEST_POSTGRES to run it"
            );
            return None;
        };
        let name = format!("qchess_serve_shared_{}", std::process::id());
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_one_postgresql_club_share_members_games_and_ratings() {
    let Some(db) = Scratch::new() else {
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
