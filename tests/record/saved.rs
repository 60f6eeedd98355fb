//! Saved games: round trips on both backends, broken and future files, atomic writes,
//! autosave from the app, replay in the app, and the command line around them.

use crate::support::driver::{keys, press, screen, typed};
use crossterm::event::KeyCode;
use qchess::chess::random::random_move;
use qchess::chess::{Game, GameOptions, Square, Status};
use qchess::game::Playable;
use qchess::quantum::{BackendKind, SimulatorSettings};
use qchess::record::{self, Players, RecordError, Recorder, SavedGame};
use qchess::seeded::SeededRng;
use qchess::style::color::{Paint, Tier};
use qchess::style::theme::Theme;
use qchess::ui::App;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh, empty folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("qchess-test-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).expect("temp dir");
    d
}

/// A seeded random game of up to `plies` plies.
fn random_game(seed: u64, plies: usize, backend: BackendKind) -> Game {
    let mut game = Game::standard(GameOptions {
        seed,
        simulator: SimulatorSettings::on(backend),
        ..GameOptions::default()
    });
    let mut rng = SeededRng::new(seed);
    for _ in 0..plies {
        if game.status() != Status::Ongoing {
            break;
        }
        let Some(m) = random_move(&game, &mut rng) else {
            break;
        };
        game.play(&m.to_string()).expect("random moves are legal");
    }
    game
}

/// `game` as a saved game.
fn saved_of(game: &Game, players: &Players, date: &str) -> SavedGame {
    SavedGame::of(&*Box::<dyn Playable>::from(game.clone()), players, date)
}

fn assert_same_state(a: &Game, b: &Game) {
    assert_eq!(a.fen(), b.fen());
    assert_eq!(a.status(), b.status());
    assert_eq!(a.ply(), b.ply());
    for s in 0..64u8 {
        let (pa, pb) = (a.probability(Square(s)), b.probability(Square(s)));
        assert!((pa - pb).abs() < 1e-9, "square {s}: {pa} vs {pb}");
    }
    let played =
        |g: &Game| -> Vec<String> { g.history().iter().map(|m| m.played.clone()).collect() };
    assert_eq!(played(a), played(b));
}

#[test]
fn save_load_round_trips_on_both_backends() {
    let path = Path::new("round-trip.toml");
    for seed in [1u64, 7, 23] {
        for played_on in [BackendKind::Sparse, BackendKind::Dense] {
            let game = random_game(seed, 60, played_on);
            let saved = saved_of(&game, &Players::default(), "2026-11-21T00:00:00Z");
            let text = saved.to_toml();
            let back = SavedGame::parse(&text, path).expect("parses");
            assert_eq!(back, saved);
            for load_on in [BackendKind::Sparse, BackendKind::Dense] {
                let loaded = back
                    .replay(path, Some(SimulatorSettings::on(load_on)), None)
                    .map(|g| g.quantum().cloned().expect("a quantum game"))
                    .expect("replays");
                assert_same_state(&game, &loaded);
                // The random draws stay in step: the loaded game goes on like the original.
                let (mut a, mut b) = (game.clone(), loaded);
                let mut rng = SeededRng::new(seed + 100);
                for _ in 0..10 {
                    if a.status() != Status::Ongoing {
                        break;
                    }
                    let Some(m) = random_move(&a, &mut rng) else {
                        break;
                    };
                    let (ma, mb) = (
                        a.play(&m.to_string()).cloned(),
                        b.play(&m.to_string()).cloned(),
                    );
                    assert_eq!(ma.map(|m| m.played).ok(), mb.map(|m| m.played).ok());
                }
                assert_same_state(&a, &b);
            }
        }
    }
}

#[test]
fn file_round_trip_and_the_documented_fields() {
    let dir = temp_dir("fields");
    let game = random_game(5, 20, BackendKind::Sparse);
    let players = Players {
        white: "Ann".into(),
        black: "Bo".into(),
    };
    let path = dir.join("g.toml");
    record::save(&path, &saved_of(&game, &players, "2026-11-21T10:00:00Z")).unwrap();
    let text = fs::read_to_string(&path).unwrap();
    for field in [
        "format = 1",
        "variant = \"quantum\"",
        "start = ",
        "backend = \"sparse\"",
        "seed = 5",
        "date = \"2026-11-21T10:00:00Z\"",
        "result = \"ongoing\"",
        "moves = [",
        "white = \"Ann\"",
    ] {
        assert!(text.contains(field), "{field} missing in\n{text}");
    }
    let loaded = record::load(&path).unwrap();
    assert_eq!(loaded.players, players);
    assert_same_state(
        &game,
        &loaded
            .replay(&path, None, None)
            .map(|g| g.quantum().cloned().expect("a quantum game"))
            .unwrap(),
    );
}

fn load_error(text: &str) -> RecordError {
    let dir = temp_dir("bad");
    let path = dir.join("bad.toml");
    fs::write(&path, text).unwrap();
    let saved = match record::load(&path) {
        Err(e) => return e,
        Ok(s) => s,
    };
    saved
        .replay(&path, None, None)
        .map(|g| g.ply())
        .expect_err("this file must not load")
}

const GOOD_HEAD: &str = "format = 1\nvariant = \"quantum\"\nbackend = \"sparse\"\nseed = 1\ndate = \"2026-11-21T00:00:00Z\"\nresult = \"ongoing\"\n";

#[test]
fn broken_files_say_which_file_and_what() {
    let e = load_error("this is not toml").to_string();
    assert!(e.contains("bad.toml: not a qchess saved game"), "{e}");
    assert!(e.contains("line 1"), "{e}");

    let e = load_error("format = 7\nfuture_field = true\n").to_string();
    assert!(
        e.contains("bad.toml: saved game format 7 is not supported"),
        "{e}"
    );

    let e = load_error("moves = []\n").to_string();
    assert!(e.contains("no `format = 1` line"), "{e}");

    let e = load_error(&format!(
        "{GOOD_HEAD}moves = [\"e2e4\", \"e7e5\", \"e4e5\"]\n"
    ))
    .to_string();
    assert!(e.contains("bad.toml: ply 3 (e4e5)"), "{e}");

    let e = load_error(&format!(
        "{GOOD_HEAD}moves = [\"e2e4\", \"e7e5\", \"d1h5\", \"b8c6\", \"h5xf7.m0\"]\n"
    ))
    .to_string();
    assert!(
        e.contains("ply 5 (h5xf7.m0)") && e.contains("impossible"),
        "{e}"
    );

    let e = load_error(&format!(
        "{}moves = []\n",
        GOOD_HEAD.replace("sparse", "gpu")
    ))
    .to_string();
    assert!(e.contains("field `backend`"), "{e}");

    let e = load_error(&format!("{GOOD_HEAD}moves = []\nstart = \"8/8 w\"\n")).to_string();
    assert!(e.contains("field `start`"), "{e}");

    let e = load_error(&format!("{GOOD_HEAD}moves = []\nmystery = 1\n")).to_string();
    assert!(e.contains("mystery"), "{e}");
}

#[test]
fn a_file_that_failed_to_parse_is_never_overwritten() {
    let dir = temp_dir("clobber");
    let path = dir.join("notes.toml");
    fs::write(&path, "my precious notes").unwrap();
    let game = random_game(2, 4, BackendKind::Sparse);
    let err =
        record::save(&path, &saved_of(&game, &Players::default(), "d")).expect_err("must refuse");
    assert!(matches!(err, RecordError::WouldClobber { .. }), "{err}");
    assert_eq!(fs::read_to_string(&path).unwrap(), "my precious notes");
    // A saved game may be replaced by a newer save.
    let saved = dir.join("game.toml");
    record::save(&saved, &saved_of(&game, &Players::default(), "d")).unwrap();
    record::save(&saved, &saved_of(&game, &Players::default(), "d")).unwrap();
}

#[test]
fn atomic_write_keeps_the_old_file_when_the_write_fails() {
    let dir = temp_dir("atomic");
    let path = dir.join("auto.toml");
    qchess::files::write_atomic(&path, "old").unwrap();
    // Block the temporary file with a folder of the same name: creating it fails.
    let tmp = dir.join(format!(".auto.toml.tmp-{}", std::process::id()));
    fs::create_dir_all(tmp.join("x")).unwrap();
    assert!(qchess::files::write_atomic(&path, "new").is_err());
    assert_eq!(fs::read_to_string(&path).unwrap(), "old");
    fs::remove_dir_all(&tmp).unwrap();
    qchess::files::write_atomic(&path, "new").unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), "new");
    let left: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 1, "no temporary file left behind: {left:?}");
}

fn app(game: Game) -> App {
    App::new(game, Paint::new(Theme::default(), Tier::None), false)
}

#[test]
fn the_app_autosaves_after_every_move_and_undo() {
    let dir = temp_dir("autosave");
    let rec = Recorder::new(Some(dir.clone()), true, Players::default(), 1_795_261_845);
    let file = rec.autosave_to.clone().expect("autosave on");
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(file.parent(), Some(dir.join("autosave").as_path()));
    assert!(
        name.starts_with("game-20261121-115045-") && name.ends_with(".toml"),
        "{name}"
    );
    let mut a = app(Game::standard(GameOptions::default())).with_recorder(rec);
    for m in ["b1^a3c3", "e7e5"] {
        press(&mut a, KeyCode::Char(':'));
        keys(&mut a, m);
        press(&mut a, KeyCode::Enter);
    }
    assert_eq!(record::load(&file).unwrap().moves, vec!["b1^a3c3", "e7e5"]);
    assert_eq!(record::latest_autosave(&dir), Some(file.clone()));
    press(&mut a, KeyCode::Char('u'));
    assert_eq!(record::load(&file).unwrap().moves, vec!["b1^a3c3"]);
    // Autosave off: nothing is written.
    let quiet = temp_dir("autosave-off");
    let rec = Recorder::new(Some(quiet.clone()), false, Players::default(), 0);
    let mut a = app(Game::standard(GameOptions::default())).with_recorder(rec);
    press(&mut a, KeyCode::Char(':'));
    keys(&mut a, "e2e4");
    press(&mut a, KeyCode::Enter);
    assert_eq!(record::latest_autosave(&quiet), None);
}

/// A game recorded in a fresh folder `name` (autosaved or not), started at 2026-11-21
/// 11:50:45, after White's g1f3.
fn recorded_after_a_move(name: &str, autosave: bool) -> (PathBuf, App) {
    let dir = temp_dir(name);
    let rec = Recorder::new(
        Some(dir.clone()),
        autosave,
        Players::default(),
        1_795_261_845,
    );
    let mut a = app(Game::standard(GameOptions::default())).with_recorder(rec);
    typed(&mut a, "g1f3");
    (dir, a)
}

#[test]
fn saving_from_the_app_asks_for_a_path() {
    let (dir, mut a) = recorded_after_a_move("save-key", false);
    press(&mut a, KeyCode::Char('w'));
    press(&mut a, KeyCode::Enter);
    let default = dir.join("saves/qchess-20261121-115045.toml");
    assert!(
        a.message().text.contains("saved to"),
        "{}",
        a.message().text
    );
    assert_eq!(record::load(&default).unwrap().moves, vec!["g1f3"]);
    // Another name, typed over the offered one.
    press(&mut a, KeyCode::Char('w'));
    for _ in 0..200 {
        press(&mut a, KeyCode::Backspace);
    }
    let other = dir.join("other.toml");
    keys(&mut a, &other.display().to_string());
    press(&mut a, KeyCode::Enter);
    assert_eq!(record::load(&other).unwrap().moves, vec!["g1f3"]);
    // With autosave off, quitting right after the save says where it is.
    press(&mut a, KeyCode::Char('q'));
    assert_eq!(
        a.message().text,
        "Quit? y or q leaves, n stays; saved as other.toml"
    );
    press(&mut a, KeyCode::Char('n'));
    let bye = a.farewell().unwrap_or_default();
    assert!(bye.contains("qchess play --load"), "{bye}");
    // A move later the file no longer holds the game.
    typed(&mut a, "e7e5");
    press(&mut a, KeyCode::Char('q'));
    assert!(
        a.message().text.contains("not saved (autosave is off)"),
        "{}",
        a.message().text
    );
    assert!(a.farewell().unwrap_or_default().contains("not saved"));
}

#[test]
fn with_autosave_on_quitting_names_the_file_the_player_saved_to() {
    let (_, mut a) = recorded_after_a_move("save-and-autosave", true);
    // Before any save of the player's own: the autosave.
    press(&mut a, KeyCode::Char('q'));
    assert!(
        a.message()
            .text
            .starts_with("Quit? y or q leaves, n stays; saved as game-"),
        "{}",
        a.message().text
    );
    press(&mut a, KeyCode::Char('n'));
    press(&mut a, KeyCode::Char('w'));
    press(&mut a, KeyCode::Enter);
    press(&mut a, KeyCode::Char('q'));
    assert_eq!(
        a.message().text,
        "Quit? y or q leaves, n stays; saved as qchess-20261121-115045.toml"
    );
    press(&mut a, KeyCode::Char('n'));
    // A move later the saved file is behind: the autosave again.
    typed(&mut a, "e7e5");
    press(&mut a, KeyCode::Char('q'));
    assert!(
        a.message().text.contains("saved as game-"),
        "{}",
        a.message().text
    );
}

fn replay_of(moves: &[&str]) -> App {
    let mut g = Game::standard(GameOptions {
        seed: 3,
        ..GameOptions::default()
    });
    for m in moves {
        g.play(m).unwrap();
    }
    app(g.clone()).into_replay()
}

#[test]
fn replay_steps_through_the_plies() {
    let mut a = replay_of(&["b1^a3c3", "d7d5", "c3xd5.m1", "e7e6"]);
    assert_eq!(a.replay().unwrap().ply, 0);
    assert_eq!(a.game().ply(), 0);
    press(&mut a, KeyCode::Right);
    press(&mut a, KeyCode::Right);
    assert_eq!(a.game().ply(), 2);
    assert!(
        (a.quantum()
            .unwrap()
            .probability(Square::parse("a3").unwrap())
            - 0.5)
            .abs()
            < 1e-12
    );
    press(&mut a, KeyCode::End);
    assert_eq!(a.game().ply(), 4);
    press(&mut a, KeyCode::Right);
    assert_eq!(a.game().ply(), 4, "no ply after the last");
    press(&mut a, KeyCode::Left);
    assert_eq!(a.game().ply(), 3);
    assert_eq!(a.quantum().unwrap().history()[2].played, "c3xd5.m1");
    press(&mut a, KeyCode::Home);
    assert_eq!(a.game().ply(), 0);
    press(&mut a, KeyCode::Char('g'));
    keys(&mut a, "3");
    press(&mut a, KeyCode::Enter);
    assert_eq!(a.game().ply(), 3);
    press(&mut a, KeyCode::Char('g'));
    keys(&mut a, "x");
    press(&mut a, KeyCode::Enter);
    assert!(a.message().text.contains("not a ply number"));
    press(&mut a, KeyCode::Esc);
    // Moves can't be made in replay; p plays on from the shown ply.
    press(&mut a, KeyCode::Char('s'));
    assert_eq!(a.game().ply(), 3);
    press(&mut a, KeyCode::Char('p'));
    assert!(a.replay().is_none());
    assert_eq!(a.game().ply(), 3);
    press(&mut a, KeyCode::Char(':'));
    keys(&mut a, "g8f6");
    press(&mut a, KeyCode::Enter);
    assert_eq!(a.game().ply(), 4);
    assert_eq!(a.quantum().unwrap().history()[3].played, "g8f6");
}

#[test]
fn replay_snapshot() {
    let mut a = replay_of(&["b1^a3c3", "d7d5", "c3xd5.m1", "e7e6"]);
    for _ in 0..3 {
        press(&mut a, KeyCode::Right);
    }
    insta::assert_snapshot!("replay_ply3_80x24", screen(&mut a, 80, 24));
    insta::assert_snapshot!("replay_ply3_120x40", screen(&mut a, 120, 40));
}

#[test]
fn stepping_through_a_replay_tells_what_vanished_and_explains_the_shown_ply() {
    let mut a = replay_of(&["b1^a3c3", "d7d5", "c3xd5.m1", "e7e6"]);
    press(&mut a, KeyCode::Right);
    assert_eq!(
        a.message().text,
        "ply 1 of 4: white played b1^a3c3: the knight is now on a3 50%, c3 50%"
    );
    press(&mut a, KeyCode::Right);
    press(&mut a, KeyCode::Right);
    // The half on a3 is gone at ply 3, and the message says so.
    assert_eq!(
        a.game()
            .cells()
            .iter()
            .filter(|(s, _)| s.to_string() == "a3")
            .count(),
        0
    );
    assert_eq!(
        a.message().text,
        "ply 3 of 4: white played c3xd5.m1: the knight was on c3 (a 50% chance); \
         took the pawn on d5; vanished: Na3"
    );
    // e opens the full explanation of the shown ply, not of the game's last.
    press(&mut a, KeyCode::Char('e'));
    let s = screen(&mut a, 80, 24);
    assert!(s.contains("ply 3: white c3xd5.m1"), "{s}");
    assert!(
        s.contains("It asked first: was the knight on c3? (yes: 50%)"),
        "{s}"
    );
    assert!(s.contains("knight a3 50% -> 0%"), "{s}");
    press(&mut a, KeyCode::Char('x'));
    // The history marks the ply that measured and what vanished in it.
    assert!(screen(&mut a, 80, 24).contains("yes (50%); took Pd5; gone Na3"));
    press(&mut a, KeyCode::Left);
    press(&mut a, KeyCode::Char('e'));
    assert!(screen(&mut a, 80, 24).contains("ply 2: black d7d5"));
}

fn qchess(args: &[&str], data: &Path) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_qchess"))
        .args(args)
        .env("QCHESS_DATA_DIR", data)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn command_line_errors_name_the_file() {
    let dir = temp_dir("cli");
    let (code, err) = qchess(&["resume"], &dir);
    assert_eq!(code, 2);
    assert!(err.contains("no autosaved game to resume in"), "{err}");
    let missing = dir.join("missing.toml");
    let (code, err) = qchess(&["replay", missing.to_str().unwrap()], &dir);
    assert_eq!(code, 2);
    assert!(err.contains("missing.toml"), "{err}");
    let bad = dir.join("bad.toml");
    fs::write(&bad, format!("{GOOD_HEAD}moves = [\"e2e5\"]\n")).unwrap();
    let (code, err) = qchess(&["play", "--load", bad.to_str().unwrap()], &dir);
    assert_eq!(code, 2);
    assert!(err.contains("bad.toml: ply 1 (e2e5)"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn export_writes_a_saved_games_circuit() {
    let dir = temp_dir("export");
    let game = random_game(11, 30, BackendKind::Sparse);
    let saved = dir.join("g.toml");
    record::save(&saved, &saved_of(&game, &Players::default(), "d")).unwrap();
    let out = dir.join("g.qasm");
    let (code, err) = qchess(
        &[
            "export",
            saved.to_str().unwrap(),
            "--qasm",
            out.to_str().unwrap(),
        ],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    let text = fs::read_to_string(&out).unwrap();
    assert_eq!(text, qchess::qasm::export(&game));
    qchess::qasm::parse(&text).expect("the project's reader reads it");
    let (code, err) = qchess(&["export", "nowhere.toml", "--qasm", "-"], &dir);
    assert_eq!(code, 2);
    assert!(err.contains("nowhere.toml"), "{err}");
}

#[test]
fn a_file_with_m1_on_every_capture_loads_replays_and_saves_in_todays_form() {
    // Until the notation wrote `.mN` only after a measurement that could go either way,
    // every capture carried `.m1`, also the certain ones (e4xd5, d8xd5 here).
    let old = "format = 1\nseed = 11\nmoves = [\"e2e4\", \"d7d5\", \"e4xd5.m1\", \"d8xd5.m1\", \
               \"b1^a3c3\", \"b8^a6c6\", \"c3xd5\", \"h7h6\", \"d2d4\", \"c6xd4\"]\n";
    let new = old.replace(".m1", "");
    let path = Path::new("old.toml");
    let load = |text: &str| {
        let saved = SavedGame::parse(text, path).expect("loads");
        let game = saved.replay(path, None, None).expect("replays");
        game.quantum().cloned().expect("quantum")
    };
    let (before, today) = (load(old), load(&new));
    assert_same_state(&before, &today);
    assert_eq!(before.state_hash(), today.state_hash());
    // The half knights' captures measured, whatever they drew: their outcomes stay.
    let texts: Vec<String> = before.history().iter().map(|m| m.played.clone()).collect();
    assert_eq!(texts[..4], ["e2e4", "d7d5", "e4xd5", "d8xd5"]);
    assert!(texts[6].starts_with("c3xd5.m"), "{texts:?}");
    // Saved again, in today's form, which loads to the same game.
    let saved = saved_of(&before, &Players::default(), "");
    assert_eq!(saved.moves, texts);
    assert_same_state(&load(&saved.to_toml()), &before);
}
