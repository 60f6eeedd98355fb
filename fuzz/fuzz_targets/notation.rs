//! Move text, as typed on the `:` line, given with `--moves` or found in a saved game:
//! the Quantum Chess parser, the variants' parsers, and a move played from the start.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qchess::chess::{notation, Game, GameOptions};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(m) = notation::parse(text) {
        // The canonical form reads back as the same move.
        let again = notation::parse(&m.to_string()).expect("canonical text parses");
        assert_eq!(again.shape, m.shape);
    }
    let _ = text.parse::<qchess::variants::haft::HaftMove>();
    let _ = qchess::variants::harmonics::notation::parse(text);
    let mut game = Game::standard(GameOptions::default());
    let _ = game.play(text);
});
