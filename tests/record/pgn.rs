//! Quantum PGN: round trips qchess -> PGN -> qchess on both backends (every spec
//! example, engine and random games), hand-written files (a FEN start, splits, merges,
//! a blocked and an excluded move, en passant, promotion, SAN), several games in a
//! file, kept tags, the save line writing PGN, and bad input with its line and column.

use crate::support::driver::{keys, press};
use crossterm::event::KeyCode;
use qchess::chess::random::random_move;
use qchess::chess::{Game, GameOptions, Square, Status};
use qchess::engine::player::{Engine, Player};
use qchess::game::{Playable, RuleSet, Setup};
use qchess::quantum::{BackendKind, SimulatorSettings};
use qchess::record::pgn::{self, GameResult};
use qchess::record::{self, Players, RecordError, Recorder, SavedGame};
use qchess::seeded::SeededRng;
use qchess::style::color::{Paint, Tier};
use qchess::style::theme::Theme;
use qchess::ui::App;
use serde::Deserialize;
use std::fs;
use std::path::{Path, PathBuf};

/// A fresh, empty folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("qchess-pgn-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).expect("temp dir");
    d
}

/// `saved` written as PGN and read back.
fn through_pgn(saved: &SavedGame) -> (String, SavedGame) {
    let text = pgn::file::text(saved);
    let games = pgn::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(games.len(), 1, "{text}");
    let back = pgn::from_pgn(&games[0]).unwrap_or_else(|e| panic!("{e}\n{text}"));
    (text, back)
}

/// The saved game replayed on `backend`, as a Quantum Chess game.
fn replayed(saved: &SavedGame, backend: BackendKind) -> Box<dyn Playable> {
    saved
        .replay(
            Path::new("x.pgn"),
            Some(SimulatorSettings::on(backend)),
            None,
        )
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The same position, chances, outcomes and status.
fn assert_same_state(a: &Game, b: &Game, what: &str) {
    assert_eq!(a.fen(), b.fen(), "{what}");
    assert_eq!(a.status(), b.status(), "{what}");
    assert_eq!(a.ply(), b.ply(), "{what}");
    for s in 0..64u8 {
        let (pa, pb) = (a.probability(Square(s)), b.probability(Square(s)));
        assert!((pa - pb).abs() < 1e-9, "{what}: square {s}: {pa} vs {pb}");
    }
    let played = |g: &Game| -> Vec<(String, Option<bool>)> {
        g.history()
            .iter()
            .map(|m| (m.played.clone(), m.outcome))
            .collect()
    };
    assert_eq!(played(a), played(b), "{what}");
}

/// A game through PGN: the saved game comes back field for field, and replays to the
/// same state on both backends.
fn assert_round_trip(game: &dyn Playable, what: &str) -> String {
    let saved = SavedGame::of(game, &Players::default(), "2026-11-26T10:11:12Z");
    let (text, back) = through_pgn(&saved);
    assert_eq!(back, saved, "{what}\n{text}");
    for backend in [BackendKind::Sparse, BackendKind::Dense] {
        let again = replayed(&back, backend);
        let q = again.quantum().expect("a Quantum Chess game");
        assert_same_state(
            game.quantum().expect("a Quantum Chess game"),
            q,
            &format!("{what} [{backend}]"),
        );
    }
    text
}

#[derive(Deserialize)]
struct Examples {
    case: Vec<Example>,
}

#[derive(Deserialize)]
struct Example {
    name: String,
    fen: String,
    #[serde(default)]
    free_turns: bool,
    moves: Vec<String>,
}

fn examples() -> Vec<Example> {
    let path = match std::env::var_os("QCHESS_EXAMPLES") {
        Some(p) => p.into(),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/spec/examples.toml"),
    };
    let text = fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read the spec examples at {}: {e}", path.display()));
    let file: Examples = toml::from_str(&text).expect("examples.toml parses");
    assert!(file.case.len() >= 20, "expected the full example set");
    file.case
}

#[test]
fn every_spec_example_round_trips_on_both_backends() {
    let mut blocked = 0;
    for case in examples() {
        for backend in [BackendKind::Sparse, BackendKind::Dense] {
            let opts = GameOptions {
                simulator: SimulatorSettings::on(backend),
                seed: 5,
                free_turns: case.free_turns,
                ..GameOptions::default()
            };
            let mut game: Box<dyn Playable> =
                Game::from_fen(&case.fen, opts).expect("example FEN").into();
            for m in &case.moves {
                game.play(m)
                    .unwrap_or_else(|e| panic!("{}: {m}: {e}", case.name));
            }
            let what = format!("{} [{backend}]", case.name);
            let text = assert_round_trip(game.as_ref(), &what);
            assert!(text.contains("[Variant \"Quantum\"]"), "{text}");
            assert!(
                text.contains(&format!("[FEN \"{}\"]", case.fen)),
                "{what}\n{text}"
            );
            assert_eq!(text.contains("[QchessFreeTurns \"1\"]"), case.free_turns);
            let m0 = game
                .quantum()
                .expect("a Quantum Chess game")
                .history()
                .iter()
                .filter(|m| m.outcome == Some(false))
                .count();
            assert_eq!(text.matches("{blocked}").count(), m0, "{what}\n{text}");
            blocked += m0;
        }
    }
    assert!(blocked > 0, "some example has a blocked move");
}

/// A seeded random game of up to `plies` plies.
fn random_game(seed: u64, plies: usize) -> Box<dyn Playable> {
    let mut game: Box<dyn Playable> = Game::standard(GameOptions {
        seed,
        ..GameOptions::default()
    })
    .into();
    let mut rng = SeededRng::new(seed);
    for _ in 0..plies {
        if game.status() != Status::Ongoing {
            break;
        }
        let Some(m) = random_move(game.quantum().expect("a Quantum Chess game"), &mut rng) else {
            break;
        };
        game.play(&m.to_string()).expect("random moves are legal");
    }
    game
}

/// A game of the engine at level 1 against itself, of at most `plies` plies.
fn engine_game(seed: u64, plies: usize) -> Box<dyn Playable> {
    let mut game: Box<dyn Playable> = Game::standard(GameOptions {
        seed,
        ..GameOptions::default()
    })
    .into();
    let mut players = [Engine::at_level(1, seed), Engine::at_level(1, seed + 1)];
    for ply in 0..plies {
        if game.status() != Status::Ongoing {
            break;
        }
        let choice = players[ply % 2]
            .think(game.as_ref())
            .wait()
            .expect("the engine moves");
        game.play(&choice.mv).expect("the engine's moves are legal");
    }
    game
}

#[test]
fn long_engine_and_random_games_round_trip_on_both_backends() {
    for seed in [1, 2] {
        let game = engine_game(seed, 60);
        assert!(game.ply() >= 20, "a long game: {} plies", game.ply());
        assert_round_trip(game.as_ref(), &format!("engine game {seed}"));
    }
    let mut measured = 0;
    for seed in [3, 4, 5] {
        let game = random_game(seed, 150);
        measured += game
            .quantum()
            .expect("a Quantum Chess game")
            .history()
            .iter()
            .filter(|m| m.outcome.is_some())
            .count();
        let text = assert_round_trip(game.as_ref(), &format!("random game {seed}"));
        assert!(text.lines().all(|l| l.chars().count() <= 79), "{text}");
    }
    assert!(measured > 0, "the random games measured");
}

/// A hand-written game: a FEN start, a split, a merge, en passant written the official
/// app's way (`d4xe3ep`), a blocked excluded move, a promotion in SAN, comments, NAGs
/// and a variation.
const HAND_WRITTEN: &str = r#"[Event "Club night"]
[Site "Basel"]
[Date "2026.11.26"]
[Round "3"]
[White "Ann"]
[Black "Bo"]
[Result "*"]
[ECO "X00"]
[Variant "Quantum"]
[SetUp "1"]
[FEN "4k3/1P6/8/8/3p4/8/4P3/1N2K2R w - - 0 1"]

{A hand-written game} 1. b1^a3c3 Kf7 2. a3c3^b5 $1 {merged} Ke6 (2... Kg6 3. e4)
3. e4 d4xe3ep 4. h1^f1g1 Kd5 5. e1wf1.m0 {blocked} 5... Kc4!? 6. b8=Q+ *
"#;

#[test]
fn a_hand_written_game_imports_with_its_moves_in_canonical_notation() {
    let dir = temp_dir("hand");
    let path = dir.join("club.pgn");
    fs::write(&path, HAND_WRITTEN).unwrap();
    let saved = record::load(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        saved.moves,
        vec![
            "b1^a3c3", "e8f7", "a3c3^b5", "f7e6", "e2e4", "d4e3", "h1^f1g1", "e6d5", "e1wf1.m0",
            "d5c4", "b7b8q"
        ]
    );
    assert_eq!(
        saved.start.as_deref(),
        Some("4k3/1P6/8/8/3p4/8/4P3/1N2K2R w - - 0 1")
    );
    assert_eq!(
        (saved.players.white.as_str(), saved.players.black.as_str()),
        ("Ann", "Bo")
    );
    assert_eq!(saved.result, Status::Ongoing);
    let kept: Vec<(&str, &str)> = saved
        .tags
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        kept,
        vec![
            ("Date", "2026.11.26"),
            ("ECO", "X00"),
            ("Event", "Club night"),
            ("Round", "3"),
            ("Site", "Basel")
        ]
    );
    for backend in [BackendKind::Sparse, BackendKind::Dense] {
        let game = replayed(&saved, backend);
        let q = game.quantum().unwrap();
        assert_eq!(q.fen(), "1Q6/8/8/1N6/2k5/4p3/8/4KR2 b - - 5 6", "{backend}");
        // The blocked move left the king home and the rook certainly on f1.
        assert!((q.probability(Square::parse("f1").unwrap()) - 1.0).abs() < 1e-9);
        assert_eq!(q.history()[8].outcome, Some(false));
    }
    // Out again: the kept tags come back, the ordinary moves in SAN, the quantum ones
    // in Quantum Chess notation with {blocked}.
    let text = pgn::file::text(&saved).replace('\n', " ");
    for line in [
        "[Event \"Club night\"]",
        "[Site \"Basel\"]",
        "[Date \"2026.11.26\"]",
        "[Round \"3\"]",
        "[ECO \"X00\"]",
        "[SetUp \"1\"]",
        "[Termination \"unterminated\"]",
        "1. b1^a3c3 Kf7 2. a3c3^b5 Ke6 3. e4 dxe3 4. h1^f1g1 Kd5",
        "5. e1wf1.m0 {blocked} 5... Kc4 6. b8=Q *",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    let (_, back) = through_pgn(&saved);
    assert_eq!(back, saved);
}

#[test]
fn a_blocked_comment_alone_forces_the_stopping_outcome() {
    let text = "[FEN \"7k/8/8/8/8/8/7K/QR6 w - - 0 1\"]\n\
                [QchessFreeTurns \"1\"]\n\
                1. b1^c1d1 2. a1wc1 {blocked} *";
    let games = pgn::read(text).unwrap();
    let saved = pgn::from_pgn(&games[0]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(saved.moves, vec!["b1^c1d1", "a1wc1.m0"]);
    assert!(saved.free_turns);
}

/// The import error of a one-game PGN text.
fn import_error(text: &str) -> String {
    let games = pgn::read(text).unwrap_or_else(|e| panic!("{e}"));
    match pgn::from_pgn(&games[0]) {
        Err(e) => e.to_string(),
        Ok(s) => panic!("imported: {:?}", s.moves),
    }
}

#[test]
fn outcomes_and_results_that_do_not_fit_the_replay_are_refused() {
    assert_eq!(
        import_error("1. e2e4.m1 *"),
        "line 1, column 4: ply 1 (e2e4.m1): this move makes no measurement, so .m1 does \
         not apply"
    );
    assert_eq!(
        import_error("1. e4 e5\n2. Nf3 {blocked} *"),
        "line 2, column 4: ply 3 (Nf3): marked {blocked}, but the move measures nothing \
         here"
    );
    let free = "[FEN \"7k/8/8/8/8/8/7K/QR6 w - - 0 1\"] [QchessFreeTurns \"1\"]\n";
    assert_eq!(
        import_error(&format!("{free}1. b1^c1d1 2. a1wc1.m1 {{blocked}} *")),
        "line 2, column 15: ply 2 (a1wc1.m1): marked {blocked}, but .m1 says the move \
         went on"
    );
    let e = import_error("1. e2e4 d7d5 2. e4xd5ep *");
    assert!(
        e.starts_with("line 1, column 17: ply 3 (e4xd5ep): written as en passant"),
        "{e}"
    );
    // A king captured with certainty: white won, whatever the file says.
    let rook = "[FEN \"7k/8/8/8/8/8/8/K6R w - - 0 1\"]\n[Result \"0-1\"]\n1. h1xh8 0-1";
    assert_eq!(
        import_error(rook),
        "line 3, column 10: the game ends with 0-1, but after its last move white wins: a \
         king was captured with certainty"
    );
    let games = pgn::read("[FEN \"7k/8/8/8/8/8/8/K6R w - - 0 1\"]\n1. h1xh8 *").unwrap();
    assert_eq!(pgn::from_pgn(&games[0]).unwrap().result, Status::WhiteWins);
    assert_eq!(
        import_error("[Result \"1-0\"]\n1. e4 0-1"),
        "line 1, column 1: the Result tag says 1-0, and the moves end with 0-1"
    );
    assert_eq!(
        import_error("[FEN \"7k/8/8/8/8/8/8/K6R w - - 0 1\"]\n1. h1xh8 a1b1 *"),
        format!("line 2, column 10: ply 2 (a1b1): {}", game_over_message())
    );
    // A resigned game keeps its result.
    let games = pgn::read("1. e4 e5 1-0").unwrap();
    assert_eq!(pgn::from_pgn(&games[0]).unwrap().result, Status::WhiteWins);
}

/// What the rules say to a move after the end.
fn game_over_message() -> String {
    let mut g = Game::from_fen("7k/8/8/8/8/8/8/K6R w - - 0 1", GameOptions::default()).unwrap();
    g.play("h1xh8").unwrap();
    g.play("a1b1").unwrap_err().to_string()
}

#[test]
fn tags_that_name_nothing_playable_are_refused_with_their_place() {
    assert_eq!(
        import_error("[Event \"x\"]\n[Variant \"Crazyhouse\"]\n1. e4 *"),
        "line 2, column 1: variant \"Crazyhouse\" cannot be played here: qchess opens \
         Quantum Chess games (Variant \"Quantum\"), classical games (no Variant, or \
         \"Standard\") as the start of one, and its own harmonics and haft exports"
    );
    assert!(import_error("[SetUp \"1\"] *").contains("there is no FEN tag"));
    assert!(import_error("[FEN \"not a fen\"] *").starts_with("line 1, column 1: "));
    assert!(import_error("[QchessSeed \"-3\"] *").contains("not a whole number"));
    assert!(import_error("[QchessBackend \"gpu\"] *").contains("QchessBackend"));
    assert!(import_error("[QchessFreeTurns \"yes\"] *").contains("neither"));
    let e = import_error("1. e4 Zz9 *");
    assert!(e.starts_with("line 1, column 7: ply 2 (Zz9): "), "{e}");
}

#[test]
fn a_classical_game_in_san_is_the_start_of_a_quantum_game() {
    let scandinavian = "[Event \"Rated blitz\"]\n[Site \"https://example.org/abc\"]\n\
        [White \"Ann\"]\n[Black \"Bo\"]\n[Result \"1-0\"]\n[WhiteElo \"1500\"]\n\n\
        1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. d4 Nf6 5. Nf3 Bf5 6. Bc4 e6 7. O-O c6 \
        8. Bd2 Bb4 9. a3 Nbd7?! 10. axb4! Qxa1 11. Qxa1 O-O 1-0\n";
    let games = pgn::read(scandinavian).unwrap();
    let saved = pgn::from_pgn(&games[0]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        saved.moves[..4],
        ["e2e4", "d7d5", "e4xd5", "d8xd5"].map(String::from)
    );
    assert!(
        saved.moves.contains(&"e1g1".to_string()),
        "{:?}",
        saved.moves
    );
    assert_eq!(saved.moves.last().map(String::as_str), Some("e8g8"));
    assert_eq!(saved.result, Status::WhiteWins);
    assert_eq!(saved.tags.get("WhiteElo").map(String::as_str), Some("1500"));
    let game = replayed(&saved, BackendKind::Sparse);
    assert_eq!(
        game.quantum().unwrap().fen(),
        "r4rk1/pp1n1ppp/2p1pn2/5b2/1PBP4/2N2N2/1PPB1PPP/Q4RK1 w - - 1 12"
    );
    // Promotion and queen's-side castling in SAN, from a position.
    let promotion = "[SetUp \"1\"]\n[FEN \"3r2k1/4P3/8/8/8/8/8/R3K3 w Q - 0 1\"]\n\
                     1. exd8=Q+ Kf7 2. O-O-O Ke6 3. Qd7+ Kxd7 *";
    let games = pgn::read(promotion).unwrap();
    let saved = pgn::from_pgn(&games[0]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        saved.moves,
        vec!["e7xd8q", "g8f7", "e1c1", "f7e6", "d8d7", "e6xd7"]
    );
}

#[test]
fn games_as_other_programs_write_them() {
    let dir = temp_dir("others");
    let san = "1. e4 Nf6 2. e5 d5 3. exd6 e.p. exd6 4. Nf3 Be7 5. Bc4 O-O 6. O-O *";
    let long = "1. e2-e4 Ng8-f6 2. e4-e5 d7-d5 3. e5xd6 ep e7xd6 4. Ng1-f3 Bf8-e7 \
                5. Bf1-c4 O-O 6. O-O *";
    let moves = |text: &str| {
        let games = pgn::read(text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(games[0].moves.len(), 11, "{text}");
        pgn::from_pgn(&games[0])
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .moves
    };
    let played = moves(san);
    assert_eq!(played[4], "e5d6", "{played:?}");
    assert_eq!(moves(long), played);
    // A promotion with `=`, and an `e.p.` on a move that is not en passant.
    let promotion = "[SetUp \"1\"]\n[FEN \"3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1\"]\n\
                     1. e7xd8=Q Kg8-f7 2. Qd8-d7+ *";
    let games = pgn::read(promotion).unwrap();
    let saved = pgn::from_pgn(&games[0]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(saved.moves, vec!["e7xd8q", "g8f7", "d8d7"]);
    let e = import_error("1. e4 d5 2. exd5 e.p. *");
    assert!(e.contains("ply 3 (exd5e.p.): "), "{e}");
    assert!(e.contains("not an en passant capture"), "{e}");
    // Latin-1 (the PGN standard's character set) when the file is not UTF-8; UTF-8 as
    // it is.
    let latin1 = dir.join("latin1.pgn");
    let mut bytes = b"[White \"R".to_vec();
    bytes.push(0xE9);
    bytes.extend_from_slice(b"ti\"]\n[Black \"Bo\"]\n1. e4 {G\xFCnther} e5 *\n");
    fs::write(&latin1, &bytes).unwrap();
    let saved = record::load(&latin1).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(saved.players.white, "R\u{e9}ti");
    assert_eq!(saved.moves, vec!["e2e4", "e7e5"]);
    let list = record::list_games(&latin1).unwrap();
    assert_eq!((list[0].white.as_str(), list[0].plies), ("R\u{e9}ti", 2));
    let utf8 = dir.join("utf8.pgn");
    fs::write(&utf8, "[White \"R\u{e9}ti\"]\n1. e4 *\n").unwrap();
    assert_eq!(record::load(&utf8).unwrap().players.white, "R\u{e9}ti");
    // A file with no game says so.
    let empty = dir.join("empty.pgn");
    for text in ["", "% nothing\n; but comments\n"] {
        fs::write(&empty, text).unwrap();
        let e = record::load(&empty).unwrap_err().to_string();
        assert_eq!(e, format!("{} holds no game", empty.display()));
    }
}

#[test]
fn several_games_in_one_file() {
    let dir = temp_dir("two");
    let path = dir.join("two.pgn");
    let first = SavedGame::of(random_game(7, 12).as_ref(), &Players::default(), "");
    let second_players = Players {
        white: "qchess level 3".into(),
        ..Players::default()
    };
    let second = SavedGame::of(random_game(8, 20).as_ref(), &second_players, "");
    let games = [pgn::to_pgn(&first), pgn::to_pgn(&second)];
    fs::write(&path, pgn::write_all(&games)).unwrap();
    assert_eq!(record::load(&path).unwrap(), first);
    assert_eq!(record::load_game(&path, Some(1)).unwrap(), first);
    assert_eq!(record::load_game(&path, Some(2)).unwrap(), second);
    let e = record::load_game(&path, Some(3)).unwrap_err();
    assert!(matches!(
        e,
        RecordError::NoSuchGame {
            asked: 3,
            count: 2,
            ..
        }
    ));
    assert!(
        e.to_string()
            .ends_with("two.pgn holds 2 games: there is no game 3 (--game takes 1 to 2)"),
        "{e}"
    );
    let list = record::list_games(&path).unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(
        (list[1].number, list[1].white.as_str(), list[1].plies),
        (2, "qchess level 3", second.moves.len())
    );
    assert_eq!(list[0].result, GameResult::of(first.result));
    // The computer's side is marked as a program for other readers.
    assert!(pgn::file::text(&second).contains("[WhiteType \"program\"]"));
    // A bad move in the second game names the game.
    let broken = format!("{}\n[Event \"x\"]\n1. e4 e4 *\n", pgn::write(&games[0]));
    fs::write(&path, broken).unwrap();
    let e = record::load_game(&path, Some(2)).unwrap_err().to_string();
    assert!(e.contains("two.pgn: game 2: line "), "{e}");
    assert!(e.contains("ply 2 (e4)"), "{e}");
    // A qchess TOML file holds one game.
    let toml = dir.join("one.toml");
    record::save(&toml, &first).unwrap();
    assert_eq!(record::list_games(&toml).unwrap().len(), 1);
    assert!(record::load_game(&toml, Some(2))
        .unwrap_err()
        .to_string()
        .contains("holds 1 game: there is no game 2"));
}

#[test]
fn bad_files_say_where_and_never_panic() {
    let dir = temp_dir("bad");
    let cases = [
        (
            "1. e4 {unterminated\n\n",
            "line 1, column 7: unterminated comment",
        ),
        (
            "[Event \"x\"\n1. e4 *",
            "line 1, column 1: unterminated tag",
        ),
        (
            "[Event \"x\"]\n1. e4 e5\n",
            "line 3, column 1: missing result",
        ),
        ("1. e4 Qq9 *", "line 1, column 7: ply 2 (Qq9): "),
        ("1. e4 (1. d4 *", "line 1, column 7: unterminated variation"),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let path = dir.join(format!("bad{i}.pgn"));
        fs::write(&path, text).unwrap();
        let e = record::load(&path).unwrap_err().to_string();
        let prefix = format!("{}: {want}", path.display());
        assert!(e.starts_with(&prefix), "{e}\nwanted {prefix}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
    let big = dir.join("big.pgn");
    fs::File::create(&big)
        .unwrap()
        .set_len(qchess::files::MAX_BYTES + 1)
        .unwrap();
    let e = record::load(&big).unwrap_err().to_string();
    assert!(e.contains("larger than 16 MiB"), "{e}");
    // Text that is nearly PGN, cut or mangled anywhere: an error or a game, never a panic.
    let text = pgn::file::text(&SavedGame::of(
        random_game(9, 30).as_ref(),
        &Players::default(),
        "",
    ));
    let chars: Vec<char> = text.chars().collect();
    for cut in (0..chars.len()).step_by(7) {
        let cut_text: String = chars[..cut].iter().collect();
        if let Ok(games) = pgn::read(&cut_text) {
            for g in &games {
                let _ = pgn::from_pgn(g);
            }
        }
        let mut mangled = chars.clone();
        mangled[cut] = ['{', '}', '"', '[', ']', '(', ')', '$', ';', '\n'][cut % 10];
        let mangled: String = mangled.into_iter().collect();
        if let Ok(games) = pgn::read(&mangled) {
            for g in &games {
                let _ = pgn::from_pgn(g);
            }
        }
    }
}

#[test]
fn tags_and_variants_come_back() {
    // Tags kept in qchess's own file too.
    let dir = temp_dir("tags");
    let pgn_path = dir.join("in.pgn");
    fs::write(&pgn_path, HAND_WRITTEN).unwrap();
    let saved = record::load(&pgn_path).unwrap();
    let toml = dir.join("kept.toml");
    record::save(&toml, &saved).unwrap();
    let text = fs::read_to_string(&toml).unwrap();
    assert!(
        text.contains("[tags]") && text.contains("ECO = \"X00\""),
        "{text}"
    );
    assert_eq!(record::load(&toml).unwrap(), saved);
    fs::write(&toml, text.replace("ECO = ", "\"not a tag\" = ")).unwrap();
    let e = record::load(&toml).unwrap_err().to_string();
    assert!(
        e.contains("field `tags`: \"not a tag\" is not a PGN tag name"),
        "{e}"
    );
    // The variants go out with their name, and back.
    for rules in [RuleSet::Harmonics, RuleSet::Haft] {
        let mut game = qchess::variants::new_game(&Setup::new(rules, 4)).unwrap();
        for _ in 0..6 {
            let moves = game.legal_moves();
            let Some(m) = moves.first() else { break };
            game.play(m).unwrap();
        }
        let saved = SavedGame::of(game.as_ref(), &Players::default(), "");
        let (text, back) = through_pgn(&saved);
        assert!(
            text.contains(&format!("[Variant \"qchess {rules}\"]")),
            "{text}"
        );
        assert!(!text.contains("QchessBackend"), "{text}");
        assert_eq!(back, saved, "{rules}\n{text}");
    }
}

fn app(game: Game) -> App {
    App::new(game, Paint::new(Theme::default(), Tier::None), false)
}

#[test]
fn the_save_line_writes_pgn_for_a_pgn_name() {
    let dir = temp_dir("save");
    let rec = Recorder::new(Some(dir.clone()), false, Players::default(), 1_795_261_845);
    let mut a = app(Game::standard(GameOptions::default())).with_recorder(rec);
    for m in ["b1^a3c3", "e7e5"] {
        press(&mut a, KeyCode::Char(':'));
        keys(&mut a, m);
        press(&mut a, KeyCode::Enter);
    }
    press(&mut a, KeyCode::Char('w'));
    for _ in 0..200 {
        press(&mut a, KeyCode::Backspace);
    }
    let out = dir.join("game.pgn");
    keys(&mut a, &out.display().to_string());
    press(&mut a, KeyCode::Enter);
    assert!(
        a.message().text.contains("saved to"),
        "{}",
        a.message().text
    );
    let text = fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("[Event \"?\"]"), "{text}");
    assert!(text.contains("[UTCDate \"2026.11.21\"]"), "{text}");
    assert!(text.contains("1. b1^a3c3 e5 *"), "{text}");
    let back = record::load(&out).unwrap();
    assert_eq!(back.moves, vec!["b1^a3c3", "e7e5"]);
    assert_eq!(back.date, "2026-11-21T11:50:45Z");
    // A file that is not PGN is not replaced.
    let other = dir.join("notes.pgn");
    fs::write(&other, "[my notes, not a game").unwrap();
    let e = record::save(&other, &back).unwrap_err().to_string();
    assert!(
        e.contains("is not a qchess saved game: not overwriting it"),
        "{e}"
    );
    assert_eq!(fs::read_to_string(&other).unwrap(), "[my notes, not a game");
}

#[test]
fn a_loaded_pgn_keeps_its_tags_in_the_games_saves() {
    let dir = temp_dir("keep");
    let path = dir.join("club.pgn");
    fs::write(&path, HAND_WRITTEN).unwrap();
    let saved = record::load(&path).unwrap();
    let mut rec = Recorder::new(None, false, saved.players.clone(), 0);
    rec.tags = saved.tags.clone();
    let game = replayed(&saved, BackendKind::Sparse);
    let again = rec.saved(game.as_ref());
    assert_eq!(again.tags, saved.tags);
    assert_eq!(again.moves, saved.moves);
    // A new game drops them.
    rec.restart(1);
    assert!(rec.tags.is_empty());
}

#[test]
fn an_imported_game_exports_and_imports_to_the_same_game() {
    let files = [
        HAND_WRITTEN.to_string(),
        // Dated by UTCDate and UTCTime: Date follows them.
        "[Date \"2020.01.01\"] [UTCDate \"2026.11.26\"] [UTCTime \"10:11:12\"] 1. e4 *".into(),
        // Half a date, a human marked so, a computer marked otherwise, a tab in a value.
        "[UTCDate \"2026.11.26\"] [WhiteType \"human\"] [Black \"qchess level 2\"]\n\
         [BlackType \"human\"] [Annotator \"A\tB\"] 1. e4 e5 1/2-1/2"
            .into(),
        "[Variant \"Standard\"] [Event \"?\"] [Round \"-\"] 1. d4 $1 d5 ; hi\n0-1".into(),
        // Found by the fuzz target: a time control qchess does not play, kept.
        "[TimeControl \"180 x\"] 1. e4 e5 0-1".into(),
        "[TimeControl \"180+2\"] [TimeControl \"x\"] 1. e4 e5 0-1".into(),
        // Found by the fuzz target: a flag told only by Termination.
        "[TimeControl \"180+2\"] [QhcessReason \"x\"] [Termination \"time forfeit\"]\n\
         1. e4 {[%clk 0:03:01.5]} e5 $4 {blunder} {[%clk 0:02:59]} 0-1"
            .into(),
    ];
    for text in &files {
        let games = pgn::read(text).unwrap();
        let saved = pgn::from_pgn(&games[0]).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let (out, back) = through_pgn(&saved);
        assert_eq!(back, saved, "{text}\n---\n{out}");
    }
    let games = pgn::read(&files[1]).unwrap();
    let saved = pgn::from_pgn(&games[0]).unwrap();
    assert_eq!(saved.date, "2026-11-26T10:11:12Z");
    assert!(saved.tags.is_empty(), "{:?}", saved.tags);
    let games = pgn::read(&files[2]).unwrap();
    let saved = pgn::from_pgn(&games[0]).unwrap();
    assert_eq!(saved.date, "");
    assert_eq!(saved.tags.get("Annotator").map(String::as_str), Some("A B"));
    assert_eq!(
        saved.tags.get("BlackType").map(String::as_str),
        Some("human")
    );
    assert_eq!(
        saved.tags.get("UTCDate").map(String::as_str),
        Some("2026.11.26")
    );
}

/// A short game a review marked: Black's `d7d5` a blunder (it gave away 0.40, met by
/// `e4xd5`).
fn reviewed_game() -> SavedGame {
    use qchess::record::review::{Judged, Review};
    let mut g: Box<dyn Playable> = Game::standard(GameOptions::default()).into();
    for m in ["e2e4", "d7d5"] {
        g.play(m).unwrap();
    }
    let mut saved = SavedGame::of(g.as_ref(), &Players::default(), "2026-11-27T01:02:03Z");
    let judged = |ply: usize, expected: f64, played: Option<&str>, played_expected: f64| Judged {
        ply,
        expected,
        best: Some("e7e5".into()),
        line: vec!["e7e5".into()],
        played: played.map(str::to_string),
        played_expected: played.map(|_| played_expected),
        drawn_chance: None,
        other_expected: None,
        played_line: played
            .map(|p| vec![p.to_string(), "e4xd5.m1".into()])
            .unwrap_or_default(),
        best_cp: None,
        played_cp: None,
    };
    let mut review = Review::new("qchess level 1".into(), true);
    review.merge(
        &saved.moves,
        vec![
            judged(0, 0.52, Some("e2e4"), 0.52),
            judged(1, 0.5, Some("d7d5"), 0.9),
            judged(2, 0.9, None, 0.0),
        ],
    );
    saved.review = Some(review);
    saved
}

/// The text with every run of white space as one space.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn a_reviews_marks_are_written_as_annotations_and_comments() {
    let saved = reviewed_game();
    let text = pgn::file::text(&saved);
    // Unmarked moves carry nothing.
    assert!(
        one_line(&text).contains(
            "{review by qchess level 1} 1. e4 d5 $4 {blunder: gave away 0.40 of a point; best reply e4xd5; best e7e5} *"
        ),
        "{text}"
    );
    // Other readers' view: the annotation is a blunder's.
    let games = pgn::read(&text).unwrap();
    assert_eq!(games[0].moves[1].nags, vec![4]);
    // The marks are for readers: the import keeps the moves, not the review.
    let back = pgn::from_pgn(&games[0]).unwrap();
    assert_eq!(back.moves, saved.moves);
    assert_eq!(back.review, None);
}

#[test]
fn clocks_and_how_a_game_ended_go_out_and_come_back() {
    use qchess::record::{SavedClock, CLOCK_VERSION};
    let mut saved = reviewed_game();
    saved.review = None;
    saved.clock = Some(SavedClock {
        version: CLOCK_VERSION,
        control: "5+3".into(),
        left: vec![299_800, 302_000],
    });
    saved.result = Status::BlackWins;
    saved.reason = Some("white resigned".into());
    let (text, back) = through_pgn(&saved);
    assert!(text.contains("[TimeControl \"300+3\"]"), "{text}");
    assert!(text.contains("[QchessReason \"white resigned\"]"), "{text}");
    // A resignation ends a game as lichess says it: normally.
    assert!(text.contains("[Termination \"normal\"]"), "{text}");
    assert!(
        one_line(&text).contains("1. e4 {[%clk 0:04:59.8]} 1... d5 {[%clk 0:05:02]} 0-1"),
        "{text}"
    );
    assert_eq!(back, saved, "{text}");

    // A flag: PGN's own Termination too.
    saved.reason = Some("white lost on time".into());
    let (text, back) = through_pgn(&saved);
    assert!(text.contains("[Termination \"time forfeit\"]"), "{text}");
    assert_eq!(back.reason, saved.reason);
    assert!(back.tags.is_empty(), "{:?}", back.tags);

    // A win claimed from a player who left a rated game: abandoned.
    saved.reason = Some("white left the game".into());
    let (text, back) = through_pgn(&saved);
    assert!(text.contains("[Termination \"abandoned\"]"), "{text}");
    assert_eq!(back.reason, saved.reason);
    assert!(back.tags.is_empty(), "{:?}", back.tags);
}

#[test]
fn another_sites_clocks_and_time_forfeit_read_as_ours() {
    let text = "[Event \"Rated blitz\"] [TimeControl \"180+2\"] [Termination \"Time forfeit\"]\n\
                1. e4 { [%clk 0:03:01] } 1... e5 { [%eval 0.2] [%clk 0:02:59.5] } 2. Nf3 1-0";
    let games = pgn::read(text).unwrap();
    let saved = pgn::from_pgn(&games[0]).unwrap();
    let clock = saved.clock.as_ref().expect("a clock");
    assert_eq!(clock.control, "3+2");
    // Up to the first move without a time.
    assert_eq!(clock.left, vec![181_000, 179_500]);
    assert_eq!(saved.reason.as_deref(), Some("black lost on time"));
    assert_eq!(saved.ending().map(|e| e.status), Some(Status::WhiteWins));
    // Written again from the reason: the same game comes back.
    assert_eq!(saved.tags.get("Termination"), None);
    let (out, back) = through_pgn(&saved);
    assert!(out.contains("[Termination \"time forfeit\"]"), "{out}");
    assert_eq!(back, saved, "{out}");
    // Controls qchess does not play stay tags; a game its moves ended has no reason.
    for (tc, kept) in [("40/7200:3600", true), ("-", true), ("600", false)] {
        let text = format!("[TimeControl \"{tc}\"] [QchessReason \"draw agreed\"] 1. e4 1/2-1/2");
        let saved = pgn::from_pgn(&pgn::read(&text).unwrap()[0]).unwrap();
        assert_eq!(saved.tags.contains_key("TimeControl"), kept, "{tc}");
        assert_eq!(saved.clock.is_some(), !kept, "{tc}");
        assert_eq!(saved.reason.as_deref(), Some("draw agreed"));
    }
}

#[test]
fn the_export_writes_san_outcomes_only_where_measured_and_how_the_game_ended() {
    // As saved until now: `.m1` on the certain captures too.
    let text = "format = 1\nseed = 5\nresult = \"white_wins\"\n\
                reason = \"black resigned\"\nmoves = [\"e2e4\", \"e7e5\", \"g1f3\", \
                \"b8c6\", \"f1c4\", \"g8f6\", \"e1g1\", \"f6xe4.m1\", \"b1^a3c3\", \
                \"d7d5\", \"c3xd5\"]\n";
    let mut saved = SavedGame::parse(text, Path::new("old.toml")).unwrap();
    let game = replayed(&saved, BackendKind::Sparse);
    let drawn = game.quantum().unwrap().history()[10].played.clone();
    assert!(drawn.starts_with("c3xd5.m"), "{drawn}");
    let (pgn, back) = through_pgn(&saved);
    let line = one_line(&pgn);
    assert!(
        line.contains(&format!(
            "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O Nxe4 5. b1^a3c3 d5 6. {drawn}"
        )),
        "{pgn}"
    );
    assert!(!line.contains("e1g1") && !line.contains("xe4.m1"), "{pgn}");
    assert!(pgn.contains("[Termination \"normal\"]"), "{pgn}");
    // It comes back as the same game, in today's notation.
    assert_eq!(back.moves[7], "f6xe4");
    assert_eq!(back.moves[10], drawn);
    assert_eq!(back.result, Status::WhiteWins);
    assert_eq!(back.reason.as_deref(), Some("black resigned"));
    assert!(back.tags.is_empty(), "{:?}", back.tags);
    // A game going on is unterminated; a Termination qchess does not write is kept.
    saved.result = Status::Ongoing;
    saved.reason = None;
    assert!(pgn::file::text(&saved).contains("[Termination \"unterminated\"]"));
    saved.tags.insert("Termination".into(), "abandoned".into());
    let (pgn, back) = through_pgn(&saved);
    assert!(pgn.contains("[Termination \"abandoned\"]"), "{pgn}");
    assert_eq!(
        back.tags.get("Termination").map(String::as_str),
        Some("abandoned")
    );
}
