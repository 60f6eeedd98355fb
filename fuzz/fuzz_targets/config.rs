//! `config.toml` and theme files.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qchess::config::themes::parse_theme;
use qchess::config::Config;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("fuzz.toml");
    if let Err(e) = Config::parse(path, text) {
        assert!(!e.to_string().contains('\n'), "one line: {e}");
    }
    if let Err(e) = parse_theme(path, text) {
        assert!(!e.to_string().contains('\n'), "one line: {e}");
    }
});
