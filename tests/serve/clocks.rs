//! Rooms on a clock over real SSH on 127.0.0.1: a flag that falls with its player gone,
//! resigning and draw offers through the room, seen on every screen, recorded in the
//! room's saved game; the lobby form's time control. Every wait is bounded.

use super::{bounded, scratch, T};
use crate::support::ssh_term::{Ask, Term};
use qchess::game::clock::TimeControl;
use qchess::server::{ServeOptions, Server};
use std::path::Path;

/// A server whose new rooms play `clock`.
async fn start_on(dir: &Path, clock: &str) -> Result<Server, String> {
    let mut opts = ServeOptions::in_data_dir("127.0.0.1:0".parse().unwrap(), dir);
    opts.clock = qchess::game::clock::parse_clock(clock).map_err(|e| e.to_string())?;
    Server::start(opts).await.map_err(|e| e.to_string())
}

/// The room's saved game, as a TOML table.
fn saved(dir: &Path, room: &str) -> Result<toml::Table, String> {
    let path = dir.join(format!("server/rooms/{room}.toml"));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.parse().map_err(|e| format!("{e}"))
}

/// A top-level string of a saved game.
fn field<'a>(game: &'a toml::Table, key: &str) -> Option<&'a str> {
    game.get(key).and_then(|v| v.as_str())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_falls_in_a_room_whose_player_is_gone() {
    bounded(40, async {
        let dir = scratch("flag");
        // 0.05 minutes: three seconds each, nothing added.
        let srv = start_on(&dir, "0.05+0").await?;
        let addr = srv.addr();
        let mut ann = Term::open(addr, "ann", Ask::Room("blitz"), (100, 30)).await?;
        ann.wait_for("you play white", T).await?;
        // Black's seat is free: the clocks wait, full.
        ann.wait_for("white 0:03.0 │ black 0:03.0", T).await?;
        ann.send(b":e2e4\r").await?;
        ann.wait_for("white played e2e4", T).await?;
        // Both seated: black's clock runs, on both screens, in tenths.
        let mut bo = Term::open(addr, "bo", Ask::Room("blitz"), (100, 30)).await?;
        bo.wait_for("you play black", T).await?;
        bo.wait_for("▶black 0:0", T).await?;
        ann.wait_for("▶black 0:0", T).await?;
        // Bo's connection drops: nobody is at black's keyboard, and the room's clock
        // runs on until his flag falls.
        drop(bo);
        ann.wait_for("ann v bo (away)", T).await?;
        ann.wait_for("black lost on time", T).await?;
        ann.wait_for("ann wins", T).await?;
        let game = saved(&dir, "blitz")?;
        assert_eq!(field(&game, "result"), Some("white_wins"), "{game}");
        assert_eq!(field(&game, "reason"), Some("black lost on time"), "{game}");
        let clock = game.get("clock").and_then(|c| c.as_table());
        let clock = clock.ok_or_else(|| format!("no [clock] in {game}"))?;
        assert_eq!(
            clock.get("control").and_then(|c| c.as_str()),
            Some("0.05+0")
        );
        let left = clock.get("left").and_then(|l| l.as_array());
        assert_eq!(left.map(|l| l.len()), Some(1), "{game}");
        // Bo comes back to the finished game: told how it ended.
        let mut bo = Term::open(addr, "bo", Ask::Room("blitz"), (100, 30)).await?;
        bo.wait_for("black lost on time", T).await?;
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigning_and_a_declined_draw_go_through_the_room() {
    bounded(40, async {
        let dir = scratch("resign");
        let srv = start_on(&dir, "10+5").await?;
        let addr = srv.addr();
        let mut ann = Term::open(addr, "ann", Ask::Room("r1"), (100, 30)).await?;
        ann.wait_for("you play white", T).await?;
        let mut bo = Term::open(addr, "bo", Ask::Room("r1"), (100, 30)).await?;
        bo.wait_for("you play black", T).await?;
        let mut cy = Term::open(addr, "cy", Ask::Room("r1"), (120, 40)).await?;
        cy.wait_for("you watch ann and bo", T).await?;
        // The watcher sees both clocks, white's running.
        cy.wait_for("▶white 9:5", T).await?;
        cy.wait_for("black 10:00", T).await?;
        // A watcher neither resigns nor offers a draw.
        cy.send(b"D").await?;
        cy.wait_for("you are watching: only the players", T).await?;
        // Ann offers a draw; bo is asked, and declines; everyone is told.
        ann.send(b"D").await?;
        ann.wait_for("Offer a draw?", T).await?;
        ann.send(b"y").await?;
        bo.wait_for("Draw offered", T).await?;
        cy.wait_for("white offers a draw", T).await?;
        bo.send(b"n").await?;
        ann.wait_for("black declines the draw: play on", T).await?;
        cy.wait_for("black declines the draw: play on", T).await?;
        ann.send(b":e2e4\r").await?;
        bo.wait_for("white played e2e4", T).await?;
        // Bo resigns (asked first).
        bo.send(b"X").await?;
        bo.wait_for("Resign?", T).await?;
        bo.send(b"y").await?;
        for t in [&mut ann, &mut bo, &mut cy] {
            t.wait_for("Game over: ann wins, black resigned", T).await?;
        }
        let game = saved(&dir, "r1")?;
        assert_eq!(field(&game, "result"), Some("white_wins"), "{game}");
        assert_eq!(field(&game, "reason"), Some("black resigned"), "{game}");
        assert!(game.contains_key("clock"), "{game}");
        // Over: no more moves, no more decisions.
        bo.send(b":e7e5\r").await?;
        bo.wait_for("the game is over", T).await?;
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draw_offer_accepted_in_a_room() {
    bounded(40, async {
        let dir = scratch("draw");
        let srv = start_on(&dir, "5+3").await?;
        let addr = srv.addr();
        let mut ann = Term::open(addr, "ann", Ask::Room("d1"), (100, 30)).await?;
        ann.wait_for("you play white", T).await?;
        let mut bo = Term::open(addr, "bo", Ask::Room("d1"), (100, 30)).await?;
        bo.wait_for("you play black", T).await?;
        // Black may offer while white is to move.
        bo.send(b"D").await?;
        bo.wait_for("Offer a draw?", T).await?;
        bo.send(b"y").await?;
        ann.wait_for("Draw offered", T).await?;
        ann.send(b"y").await?;
        for t in [&mut ann, &mut bo] {
            t.wait_for("draw agreed", T).await?;
        }
        let game = saved(&dir, "d1")?;
        assert_eq!(field(&game, "result"), Some("draw"), "{game}");
        assert_eq!(field(&game, "reason"), Some("draw agreed"), "{game}");
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_form_picks_a_rooms_clock() {
    bounded(40, async {
        let dir = scratch("form-clock");
        let srv = start_on(&dir, "10+5").await?;
        let addr = srv.addr();
        let tc = |s: &str| s.parse::<TimeControl>().ok();
        // ssh -t host ROOM: the server's clock.
        let mut cy = Term::open(addr, "cy", Ask::Room("plain"), (100, 30)).await?;
        cy.wait_for("you play white", T).await?;
        let mut ann = Term::open(addr, "ann", Ask::Shell, (100, 30)).await?;
        ann.wait_for("plain", T).await?;
        ann.wait_for("10+5", T).await?;
        // The form offers the server's clock; ↑ from the name is the clock, → the next.
        ann.send(b"c").await?;
        ann.wait_for("‹ 10+5 ›", T).await?;
        ann.send(b"\x1b[200~quick\x1b[201~\x1b[A\x1b[C").await?;
        ann.wait_for("‹ 15+10 ›", T).await?;
        ann.send(b"\r").await?;
        ann.wait_for("you play white", T).await?;
        let mut bo = Term::open(addr, "bo", Ask::Shell, (100, 30)).await?;
        bo.wait_for("15+10", T).await?;
        let clocks: Vec<_> = srv
            .hub()
            .summaries()
            .into_iter()
            .map(|s| (s.name, s.clock))
            .collect();
        assert_eq!(
            clocks,
            [
                ("plain".to_string(), tc("10+5")),
                ("quick".to_string(), tc("15+10"))
            ]
        );
        // Bo sits down: ann's clock starts, on her screen.
        bo.send(b"\x1b[B\r").await?;
        bo.wait_for("you play black against ann", T).await?;
        ann.wait_for("▶white 14:5", T).await?;
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}
