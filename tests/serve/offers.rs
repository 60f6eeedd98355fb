//! Custom seeks and challenges by name over SSH: a seek posted in the lobby and taken by
//! another key opens a rated game that ends in the club; a challenge declined is told
//! to the challenger, one accepted opens the game; `challenge` and `seek` on the command
//! line.

use super::{bounded, scratch, start, T};
use crate::support::ssh_term::{connect, Ask, Term};
use qchess::chess::Status;
use qchess::club::{ClubStore, GameQuery, SqliteStore};
use qchess::server::limits::ServerLimits;
use russh::keys::ssh_key::private::Ed25519Keypair;
use russh::keys::PrivateKey;
use std::net::SocketAddr;
use std::sync::Arc;

/// A session of `user` (with `seed`'s key, or none) asking for `ask`.
async fn term(
    addr: SocketAddr,
    user: &str,
    seed: Option<u8>,
    ask: Ask<'_>,
) -> Result<Term, String> {
    let key = seed.map(|s| Arc::new(PrivateKey::from(Ed25519Keypair::from_seed(&[s; 32]))));
    let h = connect(addr, user, key).await?;
    Term::on(h, ask, (120, 40)).await
}

/// Plays 1. e4 e5 and has white resign.
async fn one_move_each_and_white_resigns(white: &mut Term, black: &mut Term) -> Result<(), String> {
    white.send(b":e2e4\r").await?;
    black.wait_for("white played e2e4", T).await?;
    black.send(b":e7e5\r").await?;
    white.wait_for("black played e7e5", T).await?;
    white.send(b"X").await?;
    white.wait_for("Resign?", T).await?;
    white.send(b"y").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_custom_seek_taken_by_another_key_opens_a_rated_game_kept_in_the_club() {
    bounded(90, async {
        let dir = scratch("custom-seek");
        let srv = start(&dir, ServerLimits::default()).await;
        let addr = srv.addr();
        let mut ann = term(addr, "ann", Some(51), Ask::Shell).await?;
        ann.wait_for("o seeks and challenges", T).await?;
        ann.send(b"on").await?;
        ann.wait_for("new seek:", T).await?;
        ann.send(b"7+2 white 1400-1700\r").await?;
        ann.wait_for("your seek is open: 7+2 rated, white", T)
            .await?;
        // Another member sees it, rated in its category, and takes it.
        let mut bo = term(addr, "bo", Some(52), Ask::Shell).await?;
        bo.wait_for("a seek is open: o lists it", T).await?;
        bo.send(b"o").await?;
        bo.wait_for("1500?  7+2    rapid     rated  white  1400-1700", T)
            .await?;
        // A guest is shown that it is not theirs to take.
        let mut cy = term(addr, "cy", None, Ask::Shell).await?;
        cy.send(b"o").await?;
        cy.wait_for("members only", T).await?;
        cy.send(b"\r").await?;
        cy.wait_for("rated games are for club members", T).await?;
        bo.send(b"\r").await?;
        ann.wait_for("you play white against bo", T).await?;
        bo.wait_for("you play black against ann", T).await?;
        ann.wait_for("rated · ", T).await?;
        // Taken, the seek is gone from every lobby.
        cy.wait_for("No seeks open", T).await?;
        one_move_each_and_white_resigns(&mut ann, &mut bo).await?;
        for t in [&mut ann, &mut bo] {
            t.wait_for("rated rapid: ann 1500? -> ", T).await?;
        }
        let store = SqliteStore::open_existing(&qchess::club::default_db(&dir))
            .map_err(|e| e.to_string())?;
        let games = store
            .games(GameQuery {
                member: None,
                limit: 10,
            })
            .map_err(|e| e.to_string())?;
        assert_eq!(games.len(), 1, "{games:?}");
        let g = &games[0];
        assert!(g.rated);
        assert_eq!(g.control, "7+2".parse().ok());
        assert_eq!(
            (g.white.name.as_str(), g.black.name.as_str()),
            ("ann", "bo")
        );
        assert_eq!(g.result, Status::BlackWins);
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_declined_is_told_and_one_accepted_opens_the_game() {
    bounded(60, async {
        let dir = scratch("challenge");
        let srv = start(&dir, ServerLimits::default()).await;
        let addr = srv.addr();
        let mut cy = term(addr, "cy", None, Ask::Shell).await?;
        cy.wait_for("o seeks and challenges", T).await?;
        // From the command line: waits in the lobby for the answer.
        let mut di = term(addr, "di", None, Ask::Exec("challenge CY 5+3 casual white")).await?;
        di.wait_for(
            "you challenged cy (5+3 casual, white): waiting for the answer",
            T,
        )
        .await?;
        cy.wait_for("di (1500?) challenges you:", T).await?;
        cy.wait_for("5+3 casual, you play black", T).await?;
        cy.send(b"n").await?;
        di.wait_for("cy declined your challenge (5+3 casual, white)", T)
            .await?;
        cy.wait_for("you declined the challenge", T).await?;
        // From the seeks page, colours drawn: accepted, both are in the game.
        di.send(b"ov").await?;
        di.wait_for("challenge:", T).await?;
        di.send(b"cy 3+2 casual\r").await?;
        di.wait_for("to cy: 3+2 casual, waiting for the answer", T)
            .await?;
        cy.wait_for("colours drawn at random", T).await?;
        cy.send(b"y").await?;
        cy.wait_for("you play", T).await?;
        di.wait_for("you play", T).await?;
        let (cy_white, di_white) = (
            cy.text().contains("you play white against di"),
            di.text().contains("you play white against cy"),
        );
        assert!(cy_white != di_white, "one white, one black");
        // A challenge to someone who then leaves is withdrawn, and its maker told.
        let mut ed = term(addr, "ed", None, Ask::Shell).await?;
        ed.wait_for("o seeks and challenges", T).await?;
        let mut fay = term(addr, "fay", None, Ask::Exec("challenge ed 1+0 casual")).await?;
        fay.wait_for("waiting for the answer", T).await?;
        ed.wait_for("fay (1500?) challenges you", T).await?;
        drop(ed);
        fay.wait_for("ed went away: your challenge (1+0 casual) is withdrawn", T)
            .await?;
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenge_and_seek_on_the_command_line_refuse_with_one_clear_line() {
    bounded(60, async {
        let dir = scratch("offer-lines");
        let srv = start(&dir, ServerLimits::default()).await;
        let addr = srv.addr();
        let mut gil = term(addr, "gil", None, Ask::Shell).await?;
        gil.wait_for("o seeks and challenges", T).await?;
        let refused = [
            (
                "challenge nobody 5+3",
                "qchess serve: nobody called nobody is here now",
            ),
            (
                "challenge gil 5x3 casual",
                "qchess serve: 5x3 is no time control",
            ),
            (
                "challenge gil 5+3",
                "qchess serve: rated games are for club members",
            ),
            (
                "challenge hal 5+3 casual",
                "qchess serve: you cannot challenge yourself",
            ),
            ("seek 4x0", "qchess serve: 4x0 is no time control"),
            (
                "seek 7+2 white",
                "qchess serve: rated games are for club members",
            ),
        ];
        for (command, line) in refused {
            let mut t = term(addr, "hal", None, Ask::Exec(command)).await?;
            t.wait_closed(T).await?;
            assert!(t.stderr.contains(line), "{command}: {}", t.stderr);
            assert_eq!(t.exit, Some(1), "{command}");
        }
        // A member may not challenge a guest to a rated game.
        let mut ivy = term(addr, "ivy", Some(61), Ask::Exec("challenge gil 5+3")).await?;
        ivy.wait_closed(T).await?;
        let line = "qchess serve: gil is a guest: challenge them to a casual game";
        assert!(ivy.stderr.contains(line), "{}", ivy.stderr);
        // A custom seek from the command line is posted, and shown on the seeks page.
        let mut hal = term(addr, "hal", None, Ask::Exec("seek 7+2 casual black")).await?;
        hal.wait_for("your seek is open: 7+2 casual, black", T)
            .await?;
        hal.wait_for("yours", T).await?;
        gil.send(b"o").await?;
        gil.wait_for("1500?  7+2    rapid     casual black  any", T)
            .await?;
        // Its poster leaves: it goes.
        drop(hal);
        gil.wait_for("No seeks open", T).await?;
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}
