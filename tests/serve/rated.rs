//! Rated games and quick pairing over SSH: `seek` on the command line pairs two
//! members into a rated room, its end goes to the club once and moves both ratings as
//! Glicko-2 says, an abandoned rated game is claimed, a paired game without a first
//! move is aborted, bad seeks are refused.

use super::{bounded, scratch, start, T};
use crate::support::ssh_term::{connect, Ask, Term};
use qchess::chess::Status;
use qchess::club::rating::rate_game;
use qchess::club::{Category, ClubStore, GameQuery, Rating, RatingChange, SqliteStore};
use qchess::server::limits::ServerLimits;
use russh::keys::ssh_key::private::Ed25519Keypair;
use russh::keys::PrivateKey;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

fn key(seed: u8) -> Arc<PrivateKey> {
    Arc::new(PrivateKey::from(Ed25519Keypair::from_seed(&[seed; 32])))
}

/// The club's database of the server in `dir`.
fn club(dir: &Path) -> Result<SqliteStore, String> {
    SqliteStore::open_existing(&qchess::club::default_db(dir)).map_err(|e| e.to_string())
}

/// Every game of the archive.
fn archive(dir: &Path) -> Result<Vec<qchess::club::ArchivedGame>, String> {
    let query = GameQuery {
        member: None,
        limit: 100,
    };
    club(dir)?.games(query).map_err(|e| e.to_string())
}

/// A session of `user` (with `seed`'s key, or none) running `command`.
async fn seek(
    addr: std::net::SocketAddr,
    user: &str,
    seed: Option<u8>,
    command: &str,
) -> Result<Term, String> {
    let h = connect(addr, user, seed.map(key)).await?;
    Term::on(h, Ask::Exec(command), (120, 40)).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seek_pairs_two_members_into_a_rated_game_that_moves_both_ratings_once() {
    bounded(90, async {
        let dir = scratch("rated");
        let srv = start(&dir, ServerLimits::default()).await;
        let addr = srv.addr();
        let mut ann = seek(addr, "ann", Some(41), "seek 5+3").await?;
        ann.wait_for("waiting for an opponent in 5+3 rated", T)
            .await?;
        let mut bo = seek(addr, "bo", Some(42), "seek 5+3").await?;
        for t in [&mut ann, &mut bo] {
            t.wait_for("you play", T).await?;
            t.wait_for("rated · ", T).await?;
        }
        // Colours are drawn: find white.
        let ann_white = ann.text().contains("you play white");
        let (white, black) = if ann_white {
            (&mut ann, &mut bo)
        } else {
            (&mut bo, &mut ann)
        };
        let (w, b) = if ann_white {
            ("ann", "bo")
        } else {
            ("bo", "ann")
        };
        white.send(b":e2e4\r").await?;
        black.wait_for("white played e2e4", T).await?;
        black.send(b":e7e5\r").await?;
        white.wait_for("black played e7e5", T).await?;
        white.send(b"X").await?;
        white.wait_for("Resign?", T).await?;
        white.send(b"y").await?;
        // Both screens tell both changes, as Glicko-2 computes them from new ratings.
        let (w_after, b_after) =
            rate_game(Rating::NEW, Rating::NEW, Status::BlackWins).ok_or("no ratings")?;
        let change = |name: &str, after| RatingChange {
            name: name.into(),
            before: Rating::NEW,
            after,
        };
        let said = format!(
            "rated blitz: {}, {}",
            change(w, w_after),
            change(b, b_after)
        );
        for t in [&mut *white, &mut *black] {
            t.wait_for(&said, T).await?;
        }
        // The archive holds the game once, rated, and both ratings moved.
        let games = archive(&dir)?;
        assert_eq!(games.len(), 1, "{games:?}");
        let g = &games[0];
        assert!(g.rated);
        assert_eq!(g.result, Status::BlackWins);
        assert_eq!(g.reason.as_deref(), Some("white resigned"));
        assert_eq!((g.white.name.as_str(), g.black.name.as_str()), (w, b));
        assert_eq!(g.control, "5+3".parse().ok());
        let store = club(&dir)?;
        let record = store.game_record(g.id).map_err(|e| e.to_string())?;
        assert!(record.is_some_and(|r| r.contains("e2e4")));
        for (name, after) in [(w, w_after), (b, b_after)] {
            let m = store.member(name).map_err(|e| e.to_string())?;
            let m = m.ok_or("not a member")?;
            let now = store
                .rating(m.id, Category::Blitz)
                .map_err(|e| e.to_string())?;
            assert!((now.rating - after.rating).abs() < 1e-6, "{name}: {now:?}");
            assert!((now.deviation - after.deviation).abs() < 1e-6);
        }
        // A restart brings the finished room back; its game is not written again.
        drop((ann, bo));
        srv.shutdown("restarting").await;
        let srv = start(&dir, ServerLimits::default()).await;
        assert_eq!(archive(&dir)?.len(), 1, "kept once");
        assert!(srv.problems().is_empty(), "{:?}", srv.problems());
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_abandoned_rated_game_is_claimed_and_moves_both_ratings() {
    bounded(90, async {
        let dir = scratch("claimed");
        // A claim holds the seat of the player who left 3 s at most.
        let limits = ServerLimits {
            claim_wait: Duration::from_secs(3),
            ..ServerLimits::default()
        };
        let srv = start(&dir, limits).await;
        let addr = srv.addr();
        let mut ann = seek(addr, "ann", Some(51), "seek 3+2").await?;
        ann.wait_for("waiting for an opponent in 3+2 rated", T)
            .await?;
        let mut bo = seek(addr, "bo", Some(52), "seek 3+2").await?;
        for t in [&mut ann, &mut bo] {
            t.wait_for("you play", T).await?;
        }
        let ann_white = ann.text().contains("you play white");
        let (mut white, black) = if ann_white { (ann, bo) } else { (bo, ann) };
        let (w, b) = if ann_white {
            ("ann", "bo")
        } else {
            ("bo", "ann")
        };
        white.send(b":e2e4\r").await?;
        let mut black = black;
        black.wait_for("white played e2e4", T).await?;
        black.send(b":e7e5\r").await?;
        white.wait_for("black played e7e5", T).await?;
        // Black's connection drops: white is told, and asked.
        drop(black);
        white.wait_for("Your opponent left", T).await?;
        white
            .wait_for(
                "black left the game: white may claim the win (C) or wait",
                T,
            )
            .await?;
        // White waits first, then claims with C.
        white.send(b"n").await?;
        white.wait_for("you wait for your opponent", T).await?;
        white.send(b"C").await?;
        white.wait_for("Your opponent left", T).await?;
        white.send(b"y").await?;
        white
            .wait_for("white claims the win: black has 3 s to come back", T)
            .await?;
        let (w_after, b_after) =
            rate_game(Rating::NEW, Rating::NEW, Status::WhiteWins).ok_or("no ratings")?;
        let change = |name: &str, after| RatingChange {
            name: name.into(),
            before: Rating::NEW,
            after,
        };
        let said = format!(
            "rated blitz: {}, {}",
            change(w, w_after),
            change(b, b_after)
        );
        // The end, then the ratings' change, on the message line.
        white.wait_for(&said, T).await?;
        let text = white.text();
        assert!(text.contains(&format!("game over: {w} wins")), "{text}");
        assert!(text.contains("black left the game"), "{text}");
        let games = archive(&dir)?;
        assert_eq!(games.len(), 1, "{games:?}");
        let g = &games[0];
        assert!(g.rated);
        assert_eq!(g.result, Status::WhiteWins);
        assert_eq!(g.reason.as_deref(), Some("black left the game"));
        let store = club(&dir)?;
        for (name, after) in [(w, w_after), (b, b_after)] {
            let m = store.member(name).map_err(|e| e.to_string())?;
            let m = m.ok_or("not a member")?;
            let now = store
                .rating(m.id, Category::Blitz)
                .map_err(|e| e.to_string())?;
            assert!((now.rating - after.rating).abs() < 1e-6, "{name}: {now:?}");
        }
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paired_game_without_a_first_move_is_aborted_and_not_kept() {
    bounded(60, async {
        let dir = scratch("abort");
        let limits = ServerLimits {
            first_move: Duration::from_secs(2),
            ..ServerLimits::default()
        };
        let srv = start(&dir, limits).await;
        let addr = srv.addr();
        // Guests meet in a casual pool.
        let mut cy = seek(addr, "cy", None, "seek 3+2 casual").await?;
        cy.wait_for("waiting for an opponent in 3+2 casual", T)
            .await?;
        let mut di = seek(addr, "di", None, "seek 3+2 casual").await?;
        for t in [&mut cy, &mut di] {
            t.wait_for("you play", T).await?;
        }
        for t in [&mut cy, &mut di] {
            t.wait_for("white made no first move within 2 s (not rated)", T)
                .await?;
        }
        assert!(archive(&dir)?.is_empty());
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_seeks_are_refused_and_a_room_game_goes_to_the_club_not_the_folder() {
    bounded(60, async {
        let dir = scratch("seeks");
        let srv = start(&dir, ServerLimits::default()).await;
        let addr = srv.addr();
        let mut t = seek(addr, "ed", Some(43), "seek 4x0").await?;
        t.wait_closed(T).await?;
        assert!(
            t.stderr.contains("qchess serve: 4x0 is no time control"),
            "{}",
            t.stderr
        );
        let mut t = seek(addr, "fay", None, "seek 5+3").await?;
        t.wait_closed(T).await?;
        assert!(
            t.stderr.contains("rated games are for club members"),
            "{}",
            t.stderr
        );
        // A room opened by hand: casual, kept in the club once, not in the folder.
        let mut gil = Term::open(addr, "gil", Ask::Room("g1"), (100, 30)).await?;
        gil.wait_for("you play white", T).await?;
        let mut hal = Term::open(addr, "hal", Ask::Room("g1"), (100, 30)).await?;
        hal.wait_for("you play black", T).await?;
        gil.send(b":e2e4\r").await?;
        hal.wait_for("white played e2e4", T).await?;
        hal.send(b":e7e5\r").await?;
        gil.wait_for("black played e7e5", T).await?;
        // Black resigns on white's turn: a player may resign at any moment.
        hal.send(b"X").await?;
        hal.wait_for("Resign?", T).await?;
        hal.send(b"y").await?;
        gil.wait_for("black resigned", T).await?;
        gil.send(b"q").await?;
        hal.send(b"q").await?;
        gil.wait_for("you left g1", T).await?;
        hal.wait_for("you left g1", T).await?;
        let games = archive(&dir)?;
        assert_eq!(games.len(), 1, "{games:?}");
        assert!(!games[0].rated);
        assert_eq!(games[0].result, Status::WhiteWins);
        let finished = dir.join("server").join("rooms").join("finished");
        let files = std::fs::read_dir(&finished).map_or(0, |d| d.count());
        assert_eq!(files, 0, "the club's archive is the archive");
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}
