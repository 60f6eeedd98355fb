//! The question before a move that puts a safe king in danger, in a room over real SSH
//! on 127.0.0.1: any key but `y` cancels the move, which never reaches the room; `y`
//! plays it, and the other player sees it. Every wait is bounded.

use super::{bounded, scratch, T};
use crate::support::ssh_term::{Ask, Term};
use qchess::server::{ServeOptions, Server};

/// The room's saved game, as text.
fn saved(dir: &std::path::Path, room: &str) -> Result<String, String> {
    let path = dir.join(format!("server/rooms/{room}.toml"));
    std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_into_danger_is_asked_about_in_a_room() {
    bounded(40, async {
        let dir = scratch("king");
        let opts = ServeOptions::in_data_dir("127.0.0.1:0".parse().unwrap(), &dir);
        let srv = Server::start(opts).await.map_err(|e| e.to_string())?;
        let addr = srv.addr();
        let mut ann = Term::open(addr, "ann", Ask::Room("k1"), (100, 30)).await?;
        ann.wait_for("you play white", T).await?;
        let mut bo = Term::open(addr, "bo", Ask::Room("k1"), (100, 30)).await?;
        bo.wait_for("you play black", T).await?;
        // White's king walks to e2, and black's pawn comes to e4: d3 is then guarded.
        for (white, black) in [("e2e4", "d7d5"), ("e1e2", "d5xe4")] {
            ann.send(format!(":{white}\r").as_bytes()).await?;
            bo.wait_for(&format!("white played {white}"), T).await?;
            bo.send(format!(":{black}\r").as_bytes()).await?;
            ann.wait_for(&format!("black played {black}"), T).await?;
        }
        // The king steps next to the pawn: asked first, and another key cancels it.
        ann.send(b":e2d3\r").await?;
        ann.wait_for("Your king?", T).await?;
        ann.wait_for("on the reply: 100% by e4xd3.", T).await?;
        ann.send(b"x").await?;
        ann.wait_for("e2d3 not played: the game is unchanged", T)
            .await?;
        let game = saved(&dir, "k1")?;
        assert!(!game.contains("e2d3"), "{game}");
        // Asked again, and `y` plays it: the room has it, and bo sees it.
        ann.send(b":e2d3\r").await?;
        ann.wait_for("Your king?", T).await?;
        ann.send(b"y").await?;
        bo.wait_for("white played e2d3", T).await?;
        ann.wait_for("Careful: your king can be captured (100% by e4xd3)", T)
            .await?;
        let game = saved(&dir, "k1")?;
        assert!(game.contains("\"e2d3\""), "{game}");
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}
