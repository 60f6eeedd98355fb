//! The archive's games as Quantum PGN: each rebuilt from its saved-game text, with the
//! club's tags (rated or casual, the players' ratings and what the game did to them).

use super::{ArchivedGame, ClubError, ClubStore, GameQuery, MemberId};
use crate::record::pgn::{convert::to_pgn, PgnGame};
use crate::record::SavedGame;
use std::path::Path;

/// A member's games, most recent first, each with its PGN.
pub fn member_games(
    store: &(impl ClubStore + ?Sized),
    member: MemberId,
) -> Result<Vec<(ArchivedGame, PgnGame)>, ClubError> {
    let games = store.games(GameQuery {
        member: Some(member),
        limit: usize::MAX,
    })?;
    games
        .into_iter()
        .map(|game| {
            let pgn = pgn_of(store, &game)?;
            Ok((game, pgn))
        })
        .collect()
}

/// One archived game as PGN.
fn pgn_of(store: &(impl ClubStore + ?Sized), game: &ArchivedGame) -> Result<PgnGame, ClubError> {
    let bad = |message: String| ClubError::BadRecord {
        id: game.id.0,
        message,
    };
    let text = store
        .game_record(game.id)?
        .ok_or_else(|| bad("its record is gone".into()))?;
    let name = format!("club game {}", game.id.0);
    let mut saved = SavedGame::parse(&text, Path::new(&name)).map_err(|e| bad(e.to_string()))?;
    // Why it ended, as the archive says, when the record does not say it.
    if saved.reason.is_none() {
        saved.reason.clone_from(&game.reason);
    }
    let kind = if game.rated { "Rated" } else { "Casual" };
    let event = match (&game.event, game.ratings) {
        (Some(tournament), _) => tournament.clone(),
        (None, Some(r)) => format!("{kind} {} game", r.category),
        (None, None) => format!("{kind} game"),
    };
    saved.tags.insert("Event".into(), event);
    if let Some([white, black]) = game.changes() {
        for (side, change) in [("White", white), ("Black", black)] {
            saved
                .tags
                .insert(format!("{side}Elo"), change.before.shown().to_string());
            saved.tags.insert(
                format!("{side}RatingDiff"),
                format!("{:+}", change.points()),
            );
        }
    }
    Ok(to_pgn(&saved))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Status;
    use crate::club::{FinishedGame, Seat, SqliteStore};

    #[test]
    fn a_record_that_does_not_read_is_named_by_its_game() {
        let dir = std::env::temp_dir().join(format!("qchess-club-export-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut store = SqliteStore::open(&dir.join("club.sqlite")).unwrap();
        let ann = store.add_member("ann", 0).unwrap();
        let seat = Seat {
            member: Some(ann.id),
            name: "ann".into(),
        };
        let game = |record: &str| FinishedGame {
            white: seat.clone(),
            black: Seat {
                member: None,
                name: "guest-2".into(),
            },
            rated: false,
            control: None,
            result: Status::Draw,
            reason: None,
            record: record.into(),
            started: 0,
            ended: 1,
            key: None,
        };
        store
            .record_game(&game("format = 1\nmoves = [\"e2e4\"]\nresult = \"draw\"\n"))
            .unwrap();
        let games = member_games(&store, ann.id).unwrap();
        assert_eq!(games[0].1.value("Event"), Some("Casual game"));
        assert!(crate::record::pgn::write(&games[0].1).contains("1/2-1/2"));
        let (id, _) = store
            .record_game(&game("format = 99\nmoves = []\n"))
            .unwrap();
        let e = member_games(&store, ann.id).err().unwrap();
        assert!(
            matches!(e, ClubError::BadRecord { id: n, .. } if n == id.0),
            "{e}"
        );
        assert!(
            e.to_string()
                .starts_with(&format!("game {} of the archive does not read", id.0)),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
