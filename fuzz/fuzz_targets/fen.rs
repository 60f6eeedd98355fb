//! FEN, as given with `--fen` or as a saved game's `start`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qchess::chess::fen;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(p) = fen::parse(text) {
        // A position that reads writes back to a FEN that reads to the same position.
        let written = fen::format(&p);
        assert_eq!(fen::parse(&written).expect("written FEN reads"), p);
    }
});
