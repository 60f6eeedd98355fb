//! Saved game files: the TOML reader and checks, and a replay of short games.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qchess::record::SavedGame;
use qchess::game::{RuleSet, Setup};
use std::path::Path;

/// Longer games are only read: a replay of many splits grows the state on purpose.
const MAX_REPLAYED_PLIES: usize = 6;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("fuzz.toml");
    let Ok(saved) = SavedGame::parse(text, path) else {
        return;
    };
    if saved.moves.len() > MAX_REPLAYED_PLIES {
        return;
    }
    match saved.rules(path) {
        Ok(RuleSet::Quantum) => {
            let _ = saved.replay_quantum(path, None, 16);
        }
        Ok(rules) => {
            if let Ok(mut game) = qchess::game::new_game(&Setup::with_start(rules, saved.start.as_deref(), saved.seed)) {
                for m in &saved.moves {
                    if game.play(m).is_err() {
                        break;
                    }
                }
            }
        }
        Err(_) => {}
    }
});
