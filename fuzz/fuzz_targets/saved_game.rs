//! Saved game files: the TOML reader and checks, and a replay of short games.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qchess::record::SavedGame;
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
    // Any rule system's game, its outcomes replayed as recorded (the dense limit
    // small, so that a fuzzed game stays cheap).
    let _ = saved.replay(path, None, 16, qchess::quantum::DEFAULT_SPARSE_LIMIT, None);
});
