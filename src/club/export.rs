//! The archive's games as Quantum PGN: each rebuilt from its saved-game text, with the
//! club's tags (rated or casual, the players' ratings and what the game did to them).

use super::{ArchivedGame, ClubError, ClubStore, GameQuery, MemberId};
use crate::record::pgn::{convert::to_pgn, PgnGame};
use crate::record::SavedGame;
use std::path::Path;

/// A member's games, most recent first, each with its PGN.
pub fn member_games(
    store: &impl ClubStore,
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
fn pgn_of(store: &impl ClubStore, game: &ArchivedGame) -> Result<PgnGame, ClubError> {
    let bad = |message: String| ClubError::BadRecord {
        id: game.id.0,
        message,
    };
    let text = store
        .game_record(game.id)?
        .ok_or_else(|| bad("its record is gone".into()))?;
    let name = format!("club game {}", game.id.0);
    let mut saved = SavedGame::parse(&text, Path::new(&name)).map_err(|e| bad(e.to_string()))?;
    let kind = if game.rated { "Rated" } else { "Casual" };
    let event = match game.ratings {
        Some(r) => format!("{kind} {} game", r.category),
        None => format!("{kind} game"),
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
