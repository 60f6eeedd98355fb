//! Skat endgame files: the reader and its checks.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qchess::skat::Endgame;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(e) = Endgame::from_toml(text) {
        assert!(!e.to_string().contains('\n'), "one line: {e}");
    }
});
