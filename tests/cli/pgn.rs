//! PGN on the command line: `qchess export --pgn`, `qchess replay --list` and
//! `--game`, `qchess analyze --load` and `--pgn`, and their errors in one line.

use crate::support::cli::{analyze, qchess};
use std::fs;
use std::path::PathBuf;

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("qchess-cli-pgn-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

/// Two games in one file: a split and merge, and a short classical game in SAN.
const TWO: &str = "[Event \"First\"]\n[White \"Ann\"]\n[Black \"Bo\"]\n[Result \"*\"]\n\n\
                   1. b1^a3c3 e7e5 2. a3c3^b5 *\n\n\
                   [Event \"Second\"]\n[White \"Cy\"]\n[Black \"qchess level 2\"]\n\
                   [Result \"0-1\"]\n\n1. e4 d5 2. exd5 Qxd5 0-1\n";

#[test]
fn replay_lists_the_games_of_a_file() {
    let dir = temp_dir("list");
    let two = dir.join("two.pgn");
    fs::write(&two, TWO).unwrap();
    let (code, out, err) = qchess(&["replay", s(&two), "--list"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "  #  White  Black           Result   plies\n\
         \x20 1  Ann    Bo              *        3\n\
         \x20 2  Cy     qchess level 2  0-1      4\n"
    );
    let (code, out, err) = qchess(&["replay", s(&two), "--game", "3"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        format!(
            "qchess: {} holds 2 games: there is no game 3 (--game takes 1 to 2)\n",
            two.display()
        )
    );
    let (code, _, err) = qchess(&["replay", s(&two), "--game", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("games are numbered from 1"), "{err}");
}

#[test]
fn export_writes_pgn_and_takes_a_game_of_a_file() {
    let dir = temp_dir("export");
    let two = dir.join("two.pgn");
    fs::write(&two, TWO).unwrap();
    // The second game, to standard output, in SAN with its tags.
    let (code, out, err) = qchess(&["export", s(&two), "--game", "2", "--pgn", "-"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("[Event \"Second\"]"), "{out}");
    assert!(out.contains("[BlackType \"program\"]"), "{out}");
    assert!(out.contains("1. e4 d5 2. exd5 Qxd5 0-1"), "{out}");
    // A saved game of qchess's own to a file, and its circuit alongside.
    let toml = dir.join("g.toml");
    let (code, _, err) = analyze(&[
        "--moves",
        "g1^f3h3 b8^a6c6",
        "--seed",
        "4",
        "--pgn",
        s(&dir.join("a.pgn")),
    ]);
    assert_eq!(code, 0, "{err}");
    let saved = qchess::record::load(&dir.join("a.pgn")).unwrap();
    qchess::record::save(&toml, &saved).unwrap();
    let (pgn_out, qasm_out) = (dir.join("g.pgn"), dir.join("g.qasm"));
    let (code, out, err) = qchess(&[
        "export",
        s(&toml),
        "--pgn",
        s(&pgn_out),
        "--qasm",
        s(&qasm_out),
    ]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    let text = fs::read_to_string(&pgn_out).unwrap();
    assert!(text.contains("1. g1^f3h3 b8^a6c6 *"), "{text}");
    assert!(text.contains("[QchessSeed \"4\"]"), "{text}");
    assert!(fs::read_to_string(&qasm_out)
        .unwrap()
        .starts_with("OPENQASM 3"));
    assert_eq!(qchess::record::load(&pgn_out).unwrap(), saved);
    // Never over the input, nor over a file that is not PGN without --force.
    let (code, _, err) = qchess(&["export", s(&two), "--pgn", s(&two)]);
    assert_eq!(code, 2);
    assert!(err.contains("is the game being exported"), "{err}");
    let notes = dir.join("notes.pgn");
    fs::write(&notes, "my notes { unfinished").unwrap();
    let (code, _, err) = qchess(&["export", s(&toml), "--pgn", s(&notes)]);
    assert_eq!(code, 2);
    assert!(err.contains("exists and is not a PGN file"), "{err}");
    assert_eq!(fs::read_to_string(&notes).unwrap(), "my notes { unfinished");
    let (code, _, err) = qchess(&["export", s(&toml), "--pgn", s(&notes), "--force"]);
    assert_eq!(code, 0, "{err}");
    // With neither output, both are named.
    let (code, _, err) = qchess(&["export", s(&toml)]);
    assert_eq!(code, 2);
    assert!(err.contains("<--qasm <OUT>|--pgn <OUT>>"), "{err}");
}

#[test]
fn a_dash_is_standard_output_for_analyze_as_for_export() {
    let dir = temp_dir("dash");
    let (code, out, err) = analyze(&["--moves", "e2e4 b8^a6c6", "--pgn", "-"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("[Event \"?\"]"), "{out}");
    assert!(out.ends_with("1. e4 b8^a6c6 *\n"), "{out}");
    let (code, out, err) = analyze(&["--moves", "e2e4 b8^a6c6", "--qasm", "-"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("OPENQASM 3"), "{out}");
    // The other output still goes to its file; nothing is named `-`.
    let pgn_file = dir.join("g.pgn");
    let (code, out, err) = analyze(&["--moves", "e2e4", "--qasm", "-", "--pgn", s(&pgn_file)]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("OPENQASM 3"), "{out}");
    assert!(fs::read_to_string(&pgn_file).unwrap().contains("1. e4 *"));
    assert!(!std::path::Path::new("-").exists());
    // A harmonics game as PGN, to standard output.
    let (code, out, err) = analyze(&["--variant", "harmonics", "--pgn", "-"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("[Variant \""), "{out}");
    // Standard output takes one thing.
    let (code, out, err) = analyze(&["--moves", "e2e4", "--pgn", "-", "--qasm", "-"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("cannot both go to standard output"), "{err}");
    let (code, out, err) = analyze(&["--moves", "e2e4", "--pgn", "-", "--json"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "qchess: --json and --pgn - both write to standard output: write one to a file\n"
    );
}

#[test]
fn analyze_loads_a_game_of_a_pgn_file_and_writes_pgn() {
    let dir = temp_dir("analyze");
    let two = dir.join("two.pgn");
    fs::write(&two, TWO).unwrap();
    let (code, out, err) = analyze(&["--load", s(&two), "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["ply"], 3);
    // The second game, one more move, out as PGN with the file's tags.
    let out_pgn = dir.join("on.pgn");
    let (code, out, err) = analyze(&[
        "--load",
        s(&two),
        "--game",
        "2",
        "--moves",
        "b1c3",
        "--json",
        "--pgn",
        s(&out_pgn),
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["ply"], 5);
    let text = fs::read_to_string(&out_pgn).unwrap();
    assert!(text.contains("[Event \"Second\"]"), "{text}");
    assert!(text.contains("3. Nc3 *"), "{text}");
    // Flags that say where the game starts do not go with --load.
    let (code, _, err) = analyze(&["--load", s(&two), "--fen", "8/8/8/8/8/8/8/K6k w - - 0 1"]);
    assert_eq!(code, 2);
    assert!(err.contains("--fen"), "{err}");
    let (code, _, err) = analyze(&["--moves", "e2e4", "--game", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("--load"), "{err}");
}

#[test]
fn a_bad_pgn_file_is_one_line_with_its_place() {
    let dir = temp_dir("bad");
    let bad = dir.join("bad.pgn");
    fs::write(&bad, "[Event \"x\"]\n1. e4 {oops\n").unwrap();
    for args in [
        vec!["replay", s(&bad)],
        vec!["play", "--load", s(&bad)],
        vec!["export", s(&bad), "--pgn", "-"],
        vec!["analyze", "--load", s(&bad)],
    ] {
        let (code, out, err) = qchess(&args);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}");
        assert_eq!(
            err,
            format!(
                "qchess: {}: line 2, column 7: unterminated comment: this `{{` has no \
                 closing `}}`\n",
                bad.display()
            ),
            "{args:?}"
        );
    }
    fs::write(&bad, "1. e4 e5 2. Nf6 *").unwrap();
    let (code, _, err) = qchess(&["replay", s(&bad)]);
    assert_eq!(code, 2);
    assert!(
        err.contains("bad.pgn: line 1, column 13: ply 3 (Nf6): "),
        "{err}"
    );
}

#[test]
fn files_other_programs_write_are_listed_and_opened() {
    let dir = temp_dir("others");
    // An en passant mark after a space is part of its move; Latin-1 names are read.
    let file = dir.join("others.pgn");
    let bytes = b"[White \"Ren\xE9\"]\n[Black \"Bo\"]\n\n\
                      1. e4 d5 2. e5 f5 3. exf6 e.p. *\n\n\
                      [White \"Cy\"]\n[Black \"Di\"]\n\n1. e2-e4 e7-e5 2. Ng1-f3 *\n"
        .to_vec();

    fs::write(&file, bytes).unwrap();
    let (code, out, err) = qchess(&["replay", s(&file), "--list"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "  #  White  Black  Result   plies\n\
         \x20 1  René   Bo     *        5\n\
         \x20 2  Cy     Di     *        3\n"
    );
    // A name in wide characters keeps the columns.
    let wide = dir.join("wide.pgn");
    fs::write(&wide, "[White \"名人\"]\n\n1. d4 *\n").unwrap();
    let (code, out, err) = qchess(&["replay", s(&wide), "--list"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "  #  White  Black  Result   plies\n\
         \x20 1  名人   ?      *        1\n"
    );
    let (code, out, err) = qchess(&["export", s(&file), "--game", "2", "--pgn", "-"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1. e4 e5 2. Nf3 *"), "{out}");
    let (code, out, err) = analyze(&["--load", s(&file), "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["ply"], 5);
    // A file without a game says so.
    let empty = dir.join("empty.pgn");
    fs::write(&empty, "").unwrap();
    let (code, out, err) = qchess(&["replay", s(&empty)]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(err, format!("qchess: {} holds no game\n", empty.display()));
}
