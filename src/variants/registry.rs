//! The registry of rule systems: a new game of each as a [`Setup`] says, and a game
//! replayed from its setup and moves. The one place that makes games of every rule system.

use super::{haft, harmonics};
use crate::chess::fen::START_FEN;
use crate::chess::Game;
use crate::game::{CancelFlag, PlayError, Playable, RuleSet, Setup};

/// The registry of rule systems: a new game as `setup` says.
pub fn new_game(setup: &Setup) -> Result<Box<dyn Playable>, PlayError> {
    let seed = setup.options.seed;
    match (setup.rules, setup.start.as_deref()) {
        (RuleSet::Quantum, start) => {
            let fen = start.unwrap_or(START_FEN);
            Game::from_fen(fen, setup.options)
                .map(Box::<dyn Playable>::from)
                .map_err(PlayError::from)
        }
        (RuleSet::Harmonics, None) => Ok(Box::new(harmonics::HarmonicsGame::new(seed))),
        (RuleSet::Harmonics, Some(f)) => Ok(Box::new(harmonics::HarmonicsGame::from_fen(f, seed)?)),
        (RuleSet::Haft, None) => Ok(Box::new(haft::HaftGame::new().with_seed(seed))),
        #[cfg(test)]
        (RuleSet::Toy, _) => Ok(Box::new(crate::game::toy::Toy::new(seed))),
        (RuleSet::Haft, Some(_)) => Err(PlayError::Start(
            "haft always starts from its own position (pawns, and undetermined pieces on the back ranks): a start FEN is not supported".into(),
        )),
    }
}

/// Why a game could not be replayed from its setup and moves.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The start could not be set up.
    #[error("{0}")]
    Start(PlayError),
    /// A move could not be played.
    #[error("move {ply} \"{text}\": {reason}")]
    Move {
        /// 1-based ply of the move.
        ply: usize,
        /// The move as recorded.
        text: String,
        /// Why it was refused.
        reason: PlayError,
    },
}

/// The game `setup` starts with `moves` played in order, watching `cancel` from the
/// start (the game keeps watching it).
pub fn replay(
    setup: &Setup,
    moves: &[String],
    cancel: Option<CancelFlag>,
) -> Result<Box<dyn Playable>, ReplayError> {
    let mut game = new_game(setup).map_err(ReplayError::Start)?;
    game.set_cancel(cancel);
    for (i, text) in moves.iter().enumerate() {
        game.play(text).map_err(|reason| ReplayError::Move {
            ply: i + 1,
            text: text.clone(),
            reason,
        })?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_of_each_rule_system() {
        for r in RuleSet::ALL {
            let game = new_game(&Setup::new(r, 1)).unwrap();
            assert_eq!(game.rules(), r);
            let setup = game.setup();
            assert_eq!((setup.rules, setup.options.seed), (r, 1));
        }
        let empty = Setup {
            start: Some("8/8/8/8/8/8/8/8 w - - 0 1".into()),
            ..Setup::new(RuleSet::Haft, 1)
        };
        assert!(new_game(&empty).is_err());
    }

    #[test]
    fn replay_names_the_refused_move() {
        let setup = Setup::new(RuleSet::Quantum, 3);
        let moves = ["e2e4".to_string(), "e2e4".to_string()];
        match replay(&setup, &moves, None) {
            Err(ReplayError::Move { ply, text, .. }) => {
                assert_eq!((ply, text.as_str()), (2, "e2e4"))
            }
            other => panic!("expected a refused move, got {:?}", other.map(|g| g.ply())),
        }
        let game = replay(&setup, &moves[..1], None).unwrap();
        assert_eq!(game.ply(), 1);
    }
}
