//! Every hand-written TOML file of the repository (saved games, configuration and theme
//! files, Skat endgames, the fuzzers' seeds) reads to the values toml 0.8 read from it,
//! recorded as JSON in `fixtures/toml-values.json` before the move to toml 1: the
//! upgrade changes nothing a file says. The puzzle pack was checked so at the upgrade
//! and is not recorded here since: qchess writes it and it grows, and its own tests read
//! every value back against a new proof (`qchess puzzles prove`, docs/puzzles.md).

use std::path::Path;

#[test]
fn every_toml_file_reads_as_it_did_before_the_toml_upgrade() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let recorded = std::fs::read_to_string(root.join("tests/record/fixtures/toml-values.json"))
        .expect("the recorded values");
    let files: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&recorded).expect("JSON");
    assert!(files.len() >= 20, "{}", files.len());
    let mut now = serde_json::Map::new();
    for file in files.keys() {
        let text = std::fs::read_to_string(root.join(file)).expect(file);
        let value: toml::Value = toml::from_str(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        now.insert(file.clone(), serde_json::to_value(&value).unwrap());
    }
    // Compared as text: JSON read back may round a float by one unit in the last place.
    let now = serde_json::to_string_pretty(&serde_json::Value::Object(now)).unwrap();
    assert!(
        now.trim_end() == recorded.trim_end(),
        "a file reads otherwise now"
    );
}
