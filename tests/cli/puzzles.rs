//! `qchess puzzles`: the pack as text and JSON, its themes and filters, proving a puzzle
//! again, and the generator extending a pack file without repeating itself.

use crate::support::cli::qchess;

#[test]
fn the_pack_lists_as_json_for_scripts() {
    let (code, out, err) = qchess(&["puzzles", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON array");
    let list = v.as_array().unwrap();
    assert!(list.len() >= 400, "{} puzzles", list.len());
    for p in list {
        for field in [
            "id", "fen", "goal", "moves", "theme", "value", "best", "rating", "line",
        ] {
            assert!(p.get(field).is_some(), "{field} missing from {p}");
        }
        let value = p["value"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&value), "{p}");
        assert!(["king", "queen", "survive"].contains(&p["goal"].as_str().unwrap()));
        let theme = p["theme"].as_str().unwrap();
        assert!(theme.parse::<qchess::puzzles::Theme>().is_ok(), "{p}");
    }
    let (code, text, _) = qchess(&["puzzles"]);
    assert_eq!(code, 0);
    assert!(
        text.starts_with(&format!("{} puzzles", list.len())),
        "{text}"
    );
    assert!(text.contains(list[0]["id"].as_str().unwrap()));
    // Its columns are named.
    assert_eq!(
        text.lines().nth(1),
        Some("  id  rating  best  theme               task"),
        "{text}"
    );
    // `list` says the same, as text and as JSON.
    assert_eq!(qchess(&["puzzles", "list"]).1, text);
    assert_eq!(qchess(&["puzzles", "list", "--json"]).1, out);
}

#[test]
fn the_list_filters_by_theme_rating_and_length_and_counts_the_themes() {
    let all = |args: &[&str]| -> Vec<serde_json::Value> {
        let mut argv = vec!["puzzles", "--json"];
        argv.extend_from_slice(args);
        let (code, out, err) = qchess(&argv);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<serde_json::Value>(&out)
            .unwrap()
            .as_array()
            .unwrap()
            .clone()
    };
    let pack = all(&[]);
    let forks = all(&["--puzzle-theme", "split-fork"]);
    assert!(!forks.is_empty() && forks.len() < pack.len());
    assert!(forks.iter().all(|p| p["theme"] == "split-fork"));
    let rated = all(&["--rating", "1200-1500"]);
    assert!(!rated.is_empty() && rated.len() < pack.len());
    assert!(rated
        .iter()
        .all(|p| (1200..=1500).contains(&p["rating"].as_u64().unwrap())));
    let two = all(&["--moves", "2"]);
    assert!(!two.is_empty() && two.iter().all(|p| p["moves"] == 2));
    // The themes and their counts add up to the pack.
    let (code, text, _) = qchess(&["puzzles", "themes"]);
    assert_eq!(code, 0);
    let counted: usize = text
        .lines()
        .filter_map(|l| l.split_whitespace().nth(1)?.parse::<usize>().ok())
        .sum();
    assert_eq!(counted, pack.len(), "{text}");
    let forks_line = text.lines().find(|l| l.starts_with("split-fork")).unwrap();
    assert!(forks_line.ends_with(&format!(" {}", forks.len())), "{text}");
    // Words a player understands for a filter that cannot be read or that nothing passes.
    let (code, _, err) = qchess(&["puzzles", "--puzzle-theme", "fork"]);
    assert_eq!(code, 2);
    assert!(err.contains("\"fork\" is not a theme"), "{err}");
    let (code, _, err) = qchess(&["puzzles", "--rating", "1500-1200"]);
    assert_eq!(code, 2);
    assert!(err.contains("such as 1200-1500"), "{err}");
    let (code, _, err) = qchess(&["puzzles", "--rating", "2790-2800", "--moves", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no puzzle of the pack passes"), "{err}");
}

#[test]
fn a_puzzle_proves_again_and_an_unknown_one_is_refused() {
    let (_, out, _) = qchess(&["puzzles", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let one = v
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["moves"] == 1 && p["goal"] == "king")
        .expect("a one-move king puzzle");
    let id = one["id"].as_str().unwrap();
    let (code, out, err) = qchess(&["puzzles", "prove", id]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!("value {:.6}", one["value"].as_f64().unwrap())),
        "{out}"
    );
    assert!(out.contains("0 differ from the pack"), "{out}");
    let (code, _, err) = qchess(&["puzzles", "prove", "nine-nine-nine"]);
    assert_eq!(code, 2);
    assert_eq!(
        err.trim(),
        "qchess: there is no puzzle \"nine-nine-nine\" in the pack"
    );
}

#[test]
fn the_generator_extends_a_pack_and_finds_nothing_twice() {
    let dir = std::env::temp_dir().join(format!("qchess-puzzles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pack = dir.join("pack.toml");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "puzzles",
            "generate",
            "--games",
            "2",
            "--seed",
            "5",
            "--white",
            "random",
            "--black",
            "random",
            "--max-plies",
            "24",
            "--width",
            "0",
            "--classical",
            "--min-value",
            "0.1",
            "--pack",
            pack.to_str().unwrap(),
        ];
        args.extend(extra);
        let (code, out, err) = qchess(&args);
        assert_eq!(code, 0, "{err}");
        out
    };
    // No two-move task is tried (--width 0), so keeping only two moves or more keeps
    // none of the one-move puzzles the same games hold.
    let deeper_only = run(&["--min-moves", "2"]);
    assert!(deeper_only.contains(" 0 new puzzles"), "{deeper_only}");
    let first = run(&[]);
    let text = std::fs::read_to_string(&pack).unwrap();
    let found = text.matches("[[puzzle]]").count();
    assert!(found > 0, "{first}");
    assert!(first.contains(&format!("{found} new puzzles")), "{first}");
    assert!(text.contains("id = \"001\""));
    let again = run(&[]);
    assert!(again.contains("0 new puzzles"), "{again}");
    assert!(again.contains(&format!("now holds {found}")), "{again}");
    let (code, _, err) = qchess(&["puzzles", "generate", "--min-value", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a probability"), "{err}");
    let (code, _, err) = qchess(&["puzzles", "generate", "--moves", "2", "--min-moves", "3"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--min-moves 3 is longer than --moves 2"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_pgn_game_that_does_not_read_is_left_out_and_the_others_scanned() {
    let dir = std::env::temp_dir().join(format!("qchess-puzzles-pgn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("two.pgn");
    std::fs::write(
        &pgn,
        "[White \"Ann\"]\n[Black \"Bo\"]\n[Result \"1-0\"]\n\n\
         1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n\
         [White \"Cy\"]\n[Black \"Di\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n",
    )
    .unwrap();
    let (code, out, err) = qchess(&[
        "puzzles",
        "generate",
        "--from-pgn",
        pgn.to_str().unwrap(),
        "--twists",
        "2",
        "--moves",
        "1",
        "--dry-run",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1 games, "), "{out}");
    let left_out: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("left out: "))
        .collect();
    assert_eq!(left_out.len(), 1, "{out}");
    assert!(left_out[0].contains("game 2"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_generator_plays_its_games_from_the_positions_of_a_fen_file() {
    let dir = std::env::temp_dir().join(format!("qchess-puzzles-fen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let starts = dir.join("endings.fen");
    // A rook against a king: random games soon leave the king where the rook takes it.
    std::fs::write(
        &starts,
        "# rook endings\n\n4k3/8/8/8/8/8/8/R3K3 w - - 0 1\n3k4/8/8/8/8/8/8/3RK3 b - - 0 1\n",
    )
    .unwrap();
    let generate = |file: &std::path::Path, extra: &[&str]| {
        let mut args = vec![
            "puzzles",
            "generate",
            "--from-fen",
            file.to_str().unwrap(),
            "--games",
            "2",
            "--white",
            "random",
            "--black",
            "random",
            "--moves",
            "1",
            "--dry-run",
        ];
        args.extend(extra);
        qchess(&args)
    };
    let (code, out, err) = generate(
        &starts,
        &["--max-plies", "30", "--classical", "--min-value", "0.1"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("[[puzzle]]"), "{out}");
    assert!(out.contains("4 games, "), "{out}");
    // Each game starts from its line's position: a puzzle's setup replays from it.
    for source in out.lines().filter(|l| l.starts_with("source = ")) {
        assert!(
            source.contains("endings.fen line 3: random vs random, seed 0, game")
                || source.contains("endings.fen line 4: random vs random, seed 2, game"),
            "{source}"
        );
    }
    // The start position is scanned too; with --king-twists its king splits, and the
    // other side hunts the halves (the rook takes the half on the e-file).
    std::fs::write(&starts, "4k3/8/8/8/8/8/8/4RK2 b - - 0 1\n").unwrap();
    let (code, out, err) = generate(
        &starts,
        &["--max-plies", "1", "--twists", "30", "--king-twists"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("ply 0, turned quantum by e8^"), "{out}");
    for line in out.lines().filter(|l| l.starts_with("setup = ")) {
        assert!(line.starts_with("setup = [\"e8^"), "{line}");
    }
    // A line that is no position is named, and nothing is played.
    std::fs::write(&starts, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1\n4k3/9/8 w\n").unwrap();
    let (code, out, err) = generate(&starts, &[]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("endings.fen: line 2: "), "{err}");
    std::fs::write(&starts, "# nothing yet\n").unwrap();
    let (code, _, err) = generate(&starts, &[]);
    assert_eq!(code, 2);
    assert!(err.contains("no position in it"), "{err}");
    let (code, _, err) = generate(&dir.join("missing.fen"), &[]);
    assert_eq!(code, 2);
    assert!(err.contains("missing.fen: "), "{err}");
    let (code, _, err) = generate(&starts, &["--from-pgn", "games.pgn"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot be used with"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
