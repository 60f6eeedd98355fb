//! The club's pages over real SSH: a member's own page with their rating, a second key
//! added by pasting it and removed, the account deleted and its name free again, an
//! archived game opened from the archive and stepped through.

use super::{bounded, scratch, start, T};
use crate::support::ssh_term::{connect, Ask, Term};
use qchess::chess::Status;
use qchess::club::{default_db, ClubStore, FinishedGame, Seat, SqliteStore};
use qchess::server::limits::ServerLimits;
use russh::keys::ssh_key::private::Ed25519Keypair;
use russh::keys::{HashAlg, PrivateKey};
use std::sync::Arc;

fn key(seed: u8) -> Arc<PrivateKey> {
    Arc::new(PrivateKey::from(Ed25519Keypair::from_seed(&[seed; 32])))
}

fn print(k: &PrivateKey) -> String {
    k.public_key().fingerprint(HashAlg::Sha256).to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_manages_keys_and_account_and_replays_the_archive() {
    bounded(90, async {
        let dir = scratch("club-pages");
        let srv = start(&dir, ServerLimits::default()).await;
        let addr = srv.addr();
        let (first, second, third) = (key(21), key(22), key(23));
        let h = connect(addr, "ann", Some(Arc::clone(&first))).await?;
        let mut ann = Term::on(h, Ask::Shell, (100, 30)).await?;
        ann.wait_for("you are ann", T).await?;
        ann.wait_for("r leaderboard", T).await?;

        // A rated game against bob, written into the club as the rooms write them.
        let mut club = SqliteStore::open_existing(&default_db(&dir)).map_err(|e| e.to_string())?;
        let me = club
            .member("ann")
            .map_err(|e| e.to_string())?
            .ok_or("no ann")?;
        let bob = club.add_member("bob", 1).map_err(|e| e.to_string())?;
        let seat = |id, name: &str| Seat {
            member: Some(id),
            name: name.into(),
        };
        let (_, sides) = club
            .record_game(&FinishedGame {
                white: seat(me.id, "ann"),
                black: seat(bob.id, "bob"),
                rated: true,
                control: "5+3".parse().ok(),
                result: Status::WhiteWins,
                reason: Some("black resigned".into()),
                record:
                    "format = 1\nmoves = [\"e2e4\", \"e7e5\", \"g1f3\"]\nresult = \"white_wins\"\n"
                        .into(),
                started: 100,
                ended: 400,
                key: None,
            })
            .map_err(|e| e.to_string())?;
        let after = sides.ok_or("rated")?.white.1.to_string();

        // Her page shows her rating.
        ann.send(b"m").await?;
        ann.wait_for("ann · your page", T).await?;
        ann.wait_for(&format!("blitz     {after}"), T).await?;

        // A second key, pasted: it signs in as ann.
        let line = second
            .public_key()
            .to_openssh()
            .map_err(|e| e.to_string())?;
        ann.send(b"a").await?;
        ann.wait_for("paste your new public key", T).await?;
        let pasted = format!("\x1b[200~{line} laptop\x1b[201~\r");
        ann.send(pasted.as_bytes()).await?;
        ann.wait_for(&format!("key {} added", print(&second)), T)
            .await?;
        let h = connect(addr, "someone", Some(Arc::clone(&second))).await?;
        let mut laptop = Term::on(h, Ask::Shell, (100, 30)).await?;
        laptop
            .wait_for("your key is ann's in the club, so you are ann here", T)
            .await?;

        // Bad text is refused with a clear line.
        ann.send(b"a").await?;
        ann.send(b"\x1b[200~ssh-ed25519 nonsense\x1b[201~\r")
            .await?;
        ann.wait_for("that is not an OpenSSH public key", T).await?;

        // The second key removed (the pick is on the keys after a change): it no
        // longer signs in as ann.
        ann.send(b"j").await?;
        ann.send(b"x").await?;
        ann.wait_for(&format!("key {} removed", print(&second)), T)
            .await?;
        // The session signed in with it ends, saying why.
        laptop.wait_closed(T).await?;
        let said = laptop.text();
        assert!(
            said.contains("your key no longer signs in as your account"),
            "{said}"
        );
        // The last key stays.
        ann.send(b"x").await?;
        ann.wait_for("your last key stays", T).await?;
        let h = connect(addr, "ann", Some(Arc::clone(&second))).await?;
        let mut laptop = Term::on(h, Ask::Shell, (120, 30)).await?;
        laptop
            .wait_for("the name ann belongs to another player's key", T)
            .await?;
        drop(laptop);

        // The archive: the game opens in the replay screen and steps.
        ann.send(b"\x1b").await?;
        ann.wait_for("r leaderboard", T).await?;
        ann.send(b"g").await?;
        ann.wait_for("Games · most recent first", T).await?;
        ann.wait_for("1-0 black resigned", T).await?;
        ann.send(b"\r").await?;
        ann.wait_for("replay: ← → step", T).await?;
        ann.send(b"\x1b[C").await?;
        ann.wait_for("e2e4", T).await?;
        ann.send(b"w").await?;
        ann.wait_for("archived games are for stepping and review", T)
            .await?;
        // Reviewed with one of the server's searches.
        ann.send(b"R").await?;
        ann.wait_for("reviewed: ", T).await?;
        ann.send(b"q").await?;
        ann.wait_for("Games · most recent first", T).await?;

        // The account deleted: the name typed to confirm; the name is free. Her other
        // session ends.
        let h = connect(addr, "ann", Some(Arc::clone(&first))).await?;
        let mut other = Term::on(h, Ask::Shell, (100, 30)).await?;
        other.wait_for("you are ann", T).await?;
        ann.send(b"\x1b").await?;
        ann.send(b"m").await?;
        ann.wait_for("ann · your page", T).await?;
        ann.send(b"D").await?;
        ann.wait_for("type ann and Enter to delete your account", T)
            .await?;
        ann.send(b"ann\r").await?;
        ann.wait_for("your account is deleted", T).await?;
        other.wait_closed(T).await?;
        assert!(other.text().contains("your key no longer signs in"));
        let gone = club.member("ann").map_err(|e| e.to_string())?;
        assert_eq!(gone, None);
        assert_eq!(
            club.key_owner(&print(&first)).map_err(|e| e.to_string())?,
            None
        );
        let games = club
            .games(qchess::club::GameQuery {
                member: None,
                limit: 5,
            })
            .map_err(|e| e.to_string())?;
        assert_eq!(
            (games[0].white.name.as_str(), games[0].white.member),
            ("ann", None)
        );
        // Another key takes the name at once.
        let h = connect(addr, "ann", Some(Arc::clone(&third))).await?;
        let mut new = Term::on(h, Ask::Shell, (100, 30)).await?;
        new.wait_for("you are ann", T).await?;
        let owner = club.key_owner(&print(&third)).map_err(|e| e.to_string())?;
        assert_eq!(owner.map(|m| m.name).as_deref(), Some("ann"));
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}
