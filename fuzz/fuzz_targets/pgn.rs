//! PGN files: the tokenizer and reader, the writer reading back what it wrote, and the
//! import (a replay) of short games.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qchess::record::pgn;

/// Longer games are only read: a replay of many splits grows the state on purpose.
const MAX_IMPORTED_PLIES: usize = 6;
/// At most this many games of one input are written back and imported.
const MAX_GAMES: usize = 4;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(games) = pgn::read(text) else {
        return;
    };
    for game in games.iter().take(MAX_GAMES) {
        // What the writer writes reads back as the same moves, tags and result.
        let written = pgn::write(game);
        let again = pgn::read(&written).expect("the writer's text reads back");
        assert_eq!(again.len(), 1);
        let texts = |g: &pgn::PgnGame| -> Vec<String> {
            g.moves.iter().map(|m| m.text.clone()).collect()
        };
        assert_eq!(texts(&again[0]), texts(game));
        assert_eq!(again[0].result, game.result);
        if game.moves.len() > MAX_IMPORTED_PLIES {
            continue;
        }
        if let Ok(saved) = pgn::from_pgn(game) {
            // An imported game exports and imports again to the same saved game.
            let back = pgn::read(&pgn::file::text(&saved)).expect("an export reads");
            assert_eq!(pgn::from_pgn(&back[0]).ok().as_ref(), Some(&saved));
        }
    }
});
