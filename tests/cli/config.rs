//! `qchess config`, `qchess themes` and the settings `qchess play` reads, through the
//! binary, with QCHESS_CONFIG_DIR pointing at a scratch folder.

use crate::support::cli::{qchess_in, scratch};
use qchess::config::Config;
use std::path::Path;
use std::process::Command;

/// Runs qchess with `dir` as its configuration directory (its data in `dir/data`).
fn qchess(dir: &Path, args: &[&str]) -> (i32, String, String) {
    qchess_in(dir, &dir.join("data"), args)
}

#[test]
fn config_path_follows_the_override() {
    let dir = scratch("path");
    let (code, out, err) = qchess(&dir, &["config", "path"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("{}\n", dir.join("config.toml").display()));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(target_os = "linux")]
#[test]
fn config_path_defaults_to_the_xdg_directory() {
    let dir = scratch("xdg");
    let out = Command::new(env!("CARGO_BIN_EXE_qchess"))
        .args(["config", "path"])
        .env_remove("QCHESS_CONFIG_DIR")
        .env("XDG_CONFIG_HOME", &dir)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("{}\n", dir.join("qchess/config.toml").display())
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn config_init_writes_the_defaults_once() {
    let dir = scratch("init").join("nested");
    let file = dir.join("config.toml");
    let (code, out, err) = qchess(&dir, &["config", "init"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("wrote {}\n", file.display()));
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(Config::parse(&file, &text).unwrap(), Config::default());
    assert!(text.lines().filter(|l| l.starts_with('#')).count() >= 6);

    std::fs::write(&file, "theme = \"dark\"\n").unwrap();
    let (code, _, err) = qchess(&dir, &["config", "init"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("already exists") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "theme = \"dark\"\n"
    );

    let (code, _, err) = qchess(&dir, &["config", "init", "--force"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
}

#[test]
fn play_refuses_a_bad_config_naming_file_line_and_key() {
    let dir = scratch("bad");
    let file = dir.join("config.toml");
    std::fs::write(&file, "backend = \"dense\"\n\ncolour = \"16\"\n").unwrap();
    let (code, out, err) = qchess(&dir, &["play"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(
        err.trim_end(),
        format!(
            "qchess: {}, line 3, key `colour`: unknown key `colour`, expected one of \
             `backend`, `theme`, `pieces`, `notation`, `color`, `autosave`, `dense_limit_log2`, \
             `sparse_limit`, `mouse`, `engine_level`, `engine_cmd`, `ask_king_danger`",
            file.display()
        )
    );
    std::fs::write(&file, "autosave = true\ntheme = \"neon\"\n").unwrap();
    let (code, _, err) = qchess(&dir, &["play"]);
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!(
            "{}, line 2, key `theme`: unknown theme \"neon\" (available: classic, dark, \
             high-contrast, mono)",
            file.display()
        )),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn play_refuses_an_unknown_theme_flag() {
    let dir = scratch("flag");
    let (code, _, err) = qchess(&dir, &["play", "--theme", "neon"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("unknown theme \"neon\" (available: classic, dark, high-contrast, mono)"),
        "{err}"
    );
    let (code, _, err) = qchess(&dir, &["play", "--dense-limit", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("out of range"), "{err}");
    let (code, _, err) = qchess(&dir, &["play", "--ascii", "--unicode"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot be used with"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn themes_lists_built_in_and_user_themes() {
    let dir = scratch("themes");
    let (code, out, err) = qchess(&dir, &["themes"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "classic        built-in\n\
         dark           built-in\n\
         high-contrast  built-in\n\
         mono           built-in\n"
    );

    let themes = dir.join("themes");
    std::fs::create_dir_all(&themes).unwrap();
    std::fs::write(themes.join("mono.toml"), "cursor = \"#ff0000\"\n").unwrap();
    std::fs::write(themes.join("sunset.toml"), "light_square = \"#ffaf87\"\n").unwrap();
    let (code, out, err) = qchess(&dir, &["themes"]);
    assert_eq!(code, 0, "{err}");
    let mono = themes.join("mono.toml");
    let sunset = themes.join("sunset.toml");
    assert_eq!(
        out,
        format!(
            "classic        built-in\n\
             dark           built-in\n\
             high-contrast  built-in\n\
             mono           {} (replaces the built-in)\n\
             sunset         {}\n",
            mono.display(),
            sunset.display()
        )
    );

    let (code, out, _) = qchess(&dir, &["themes", "--color", "truecolor"]);
    assert_eq!(code, 0);
    let sunset_line = out.lines().find(|l| l.starts_with("sunset")).unwrap();
    assert!(
        sunset_line.starts_with("sunset         \x1b[48;2;255;175;135m  "),
        "{sunset_line:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn themes_reports_a_broken_user_theme() {
    let dir = scratch("broken");
    let themes = dir.join("themes");
    std::fs::create_dir_all(&themes).unwrap();
    let file = themes.join("oops.toml");
    std::fs::write(&file, "cursor = \"#ff0000\"\ntarget = \"#ff00\"\n").unwrap();
    let (code, out, err) = qchess(&dir, &["themes"]);
    assert_eq!(code, 2);
    assert!(
        out.contains("oops           (cannot be read, see below)"),
        "{out}"
    );
    assert_eq!(
        err.trim_end(),
        format!(
            "qchess: {}, line 2, key `target`: \"#ff00\" is not a colour: write it as \
             \"#rrggbb\" (three hex pairs)",
            file.display()
        )
    );
    // Choosing it for a game fails the same way, before the terminal is touched.
    let (code, _, err) = qchess(&dir, &["play", "--theme", "oops"]);
    assert_eq!(code, 2);
    assert!(err.contains("line 2, key `target`"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
