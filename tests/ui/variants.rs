//! The terminal game under the other rule systems: keys, snapshots, saving, loading and
//! replay of harmonics and haft games, and `qchess analyze --variant`.

use crate::support::driver::{goto, press, screen, typed};
use crossterm::event::KeyCode;
use qchess::chess::{Square, Status};
use qchess::game::{RuleSet, Setup};
use qchess::record::{self, Players, SavedGame};
use qchess::style::color::{Paint, Tier};
use qchess::style::theme::Theme;
use qchess::ui::app::Mode;
use qchess::ui::open::{open, Open, PlayOptions};
use qchess::ui::App;
use qchess::variants::new_game;
use std::fs;
use std::process::Command;

fn app(rules: RuleSet, fen: Option<&str>) -> App {
    let game = new_game(&Setup::with_start(rules, fen, 7)).expect("starts");
    App::new(game, Paint::new(Theme::default(), Tier::None), false)
}

fn texts(a: &mut App) -> Vec<String> {
    a.game().history().iter().map(|r| r.text.clone()).collect()
}

#[test]
fn harmonics_by_keys_ordinary_and_quantum_moves() {
    let mut a = app(RuleSet::Harmonics, None);
    // A quantum move: pick the knight, t, then the target.
    goto(&mut a, "b1");
    press(&mut a, KeyCode::Char('t'));
    assert!(matches!(a.mode(), Mode::Moves { quantum: true, .. }));
    assert!(
        a.mode().targets().contains(&Square::parse("d5").unwrap()),
        "two steps away"
    );
    goto(&mut a, "c3");
    press(&mut a, KeyCode::Enter);
    assert_eq!(texts(&mut a), vec!["b1~c3"]);
    // An ordinary move by Enter, Enter.
    goto(&mut a, "e7");
    press(&mut a, KeyCode::Enter);
    goto(&mut a, "e5");
    press(&mut a, KeyCode::Enter);
    assert_eq!(texts(&mut a), vec!["b1~c3", "e7e5"]);
    let p = a
        .game()
        .cells()
        .into_iter()
        .find(|(s, _)| *s == Square::parse("c3").unwrap())
        .map(|(_, c)| c.probability);
    assert_eq!(p, Some(0.5));
    // Refusals say why and change nothing.
    typed(&mut a, "c3c5");
    assert!(a.message().text.contains("c3c5"), "{}", a.message().text);
    press(&mut a, KeyCode::Esc);
    goto(&mut a, "a2");
    press(&mut a, KeyCode::Char('t'));
    assert!(
        a.message().text.contains("no quantum move"),
        "{}",
        a.message().text
    );
    assert_eq!(a.game().history().len(), 2);
    // Take back.
    press(&mut a, KeyCode::Char('u'));
    assert_eq!(texts(&mut a), vec!["b1~c3"]);
    insta::assert_snapshot!("harmonics_80x24", screen(&mut a, 80, 24));
    insta::assert_snapshot!("harmonics_120x40", screen(&mut a, 120, 40));
    insta::assert_snapshot!("harmonics_80x23", screen(&mut a, 80, 23));
    insta::assert_snapshot!("harmonics_60x20", screen(&mut a, 60, 20));
    press(&mut a, KeyCode::Tab);
    insta::assert_snapshot!("harmonics_trace_60x20", screen(&mut a, 60, 20));
}

#[test]
fn the_trace_pane_before_any_move_fits_at_80x24() {
    for (rules, name) in [(RuleSet::Harmonics, "harmonics"), (RuleSet::Haft, "haft")] {
        let mut a = app(rules, None);
        let s = screen(&mut a, 80, 24);
        // The whole sentence, wrapped: the pane is 40 columns wide inside.
        assert!(s.contains("is listed here"), "{s}");
        insta::assert_snapshot!(format!("{name}_start_80x24"), s);
        insta::assert_snapshot!(format!("{name}_start_120x40"), screen(&mut a, 120, 40));
    }
}

#[test]
fn harmonics_takes_san_for_ordinary_moves_and_haft_does_not() {
    let mut a = app(RuleSet::Harmonics, None);
    typed(&mut a, "Nf3");
    assert_eq!(texts(&mut a), vec!["g1f3"]);
    typed(&mut a, "Nc3");
    assert!(
        a.message()
            .text
            .starts_with("Nc3 (read as a knight move to c3): no harmonic"),
        "{}",
        a.message().text
    );
    let mut h = app(RuleSet::Haft, None);
    typed(&mut h, "e4");
    assert!(texts(&mut h).is_empty());
    assert!(
        h.message().text.contains("write the two squares"),
        "{}",
        h.message().text
    );
}

#[test]
fn promotion_asks_which_piece() {
    let mut a = app(RuleSet::Harmonics, Some("4k3/P7/8/8/8/8/8/4K3 w - - 0 1"));
    goto(&mut a, "a7");
    press(&mut a, KeyCode::Enter);
    goto(&mut a, "a8");
    press(&mut a, KeyCode::Enter);
    assert!(matches!(a.mode(), Mode::Choice { .. }));
    assert!(
        a.message().text.contains("promote to"),
        "{}",
        a.message().text
    );
    press(&mut a, KeyCode::Char('n'));
    assert_eq!(texts(&mut a), vec!["a7a8n"]);
}

#[test]
fn haft_by_keys_locks_types() {
    let mut a = app(RuleSet::Haft, None);
    goto(&mut a, "e2");
    press(&mut a, KeyCode::Enter);
    goto(&mut a, "e4");
    press(&mut a, KeyCode::Enter);
    typed(&mut a, "e7e5");
    goto(&mut a, "g1");
    press(&mut a, KeyCode::Enter);
    goto(&mut a, "f3");
    press(&mut a, KeyCode::Enter);
    assert_eq!(texts(&mut a), vec!["e2e4", "e7e5", "g1f3"]);
    assert!(a.game().history()[2].note.contains("locks N"));
    // The knight-mover is now shown as a knight, the others as M.
    let board = screen(&mut a, 120, 40);
    assert!(board.contains('♘') && board.contains('M'), "{board}");
    goto(&mut a, "b1");
    insta::assert_snapshot!("haft_80x24", screen(&mut a, 80, 24));
    insta::assert_snapshot!("haft_120x40", screen(&mut a, 120, 40));
    press(&mut a, KeyCode::Char('t'));
    assert!(
        a.message().text.contains("haft has no quantum moves"),
        "{}",
        a.message().text
    );
    // e explains the ply in full: the rules' trace, then what changed on the board.
    press(&mut a, KeyCode::Char('e'));
    let s = screen(&mut a, 80, 24);
    assert!(s.contains("ply 3: white g1f3"), "{s}");
    assert!(s.contains("What changed (chance before -> after):"), "{s}");
    assert!(
        s.contains("consistent worlds: 25,401,600 -> 6,350,400"),
        "{s}"
    );
    assert!(s.contains("piece g1 100% -> 0%"), "{s}");
    assert!(s.contains("knight f3 0% -> 100%"), "{s}");
}

#[test]
fn variant_games_save_load_and_replay() {
    let dir = std::env::temp_dir().join(format!("qchess-test-{}-variants", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    for (rules, moves) in [
        (RuleSet::Harmonics, vec!["b1~c3", "g8~f6", "c3d5", "f6d5"]),
        (RuleSet::Haft, vec!["e2e4", "e7e5", "g1f3", "b8c6"]),
    ] {
        let mut a = app(rules, None);
        for m in &moves {
            typed(&mut a, m);
        }
        assert_eq!(a.game().history().len(), 4, "{}", a.message().text);
        let saved = SavedGame::of(a.game(), &Players::default(), "d");
        let path = dir.join(format!("{rules}.toml"));
        record::save(&path, &saved).unwrap();
        let back = record::load(&path).unwrap();
        assert_eq!(back.variant, rules.name());
        assert_eq!(back.backend, None);
        let opts = |open| PlayOptions {
            open,
            ..PlayOptions::default()
        };
        let Ok(mut loaded) = open(&opts(Open::Load(path.clone()))) else {
            panic!("a {rules} game opens");
        };
        assert_eq!(loaded.game().rules(), rules, "a {rules} game opens as one");
        assert_eq!(loaded.game().cells(), a.game().cells());
        assert_eq!(texts(&mut loaded), texts(&mut a));
        let Ok(mut replay) = open(&opts(Open::Replay(path.clone()))) else {
            panic!("replays");
        };
        assert_eq!(replay.game().history().len(), 0);
        press(&mut *replay, KeyCode::Right);
        press(&mut *replay, KeyCode::Right);
        assert_eq!(replay.game().history().len(), 2);
        press(&mut *replay, KeyCode::End);
        assert_eq!(replay.game().cells(), a.game().cells());
        press(&mut *replay, KeyCode::Char('p'));
        assert!(replay.replay().is_none());
        assert_eq!(replay.game().status(), Status::Ongoing);
    }
    // A broken move is named with its ply.
    let bad = dir.join("bad.toml");
    fs::write(
        &bad,
        "format = 1\nvariant = \"haft\"\nseed = 1\ndate = \"d\"\nresult = \"ongoing\"\nmoves = [\"e2e4\", \"e7e5\", \"e4e5\"]\n",
    )
    .unwrap();
    let err = match open(&PlayOptions {
        open: Open::Load(bad.clone()),
        ..PlayOptions::default()
    }) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("must not load"),
    };
    assert!(err.contains("bad.toml: ply 3 (e4e5)"), "{err}");
}

fn analyze(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_qchess"))
        .arg("analyze")
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn analyze_variants() {
    let (code, out, _) = analyze(&["--variant", "harmonics", "--moves", "b1~c3", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["harmonics"], 2);
    assert_eq!(v["squares"]["c3"]["p"], 0.5);
    let (code, out, _) = analyze(&["--variant", "haft", "--moves", "e2e4 e7e5 g1f3", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["pieces"]["f3"]["N"], 1.0);
    assert!(v["worlds"].as_u64().unwrap() > 0);
    let (code, out, err) = analyze(&["--variant", "haft", "--moves", "e2e4 e7e5 g1g3"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.starts_with("qchess: move 3 \"g1g3\""), "{err}");
    let (code, _, err) = analyze(&["--variant", "harmonics", "--bell", "a1", "a2"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--bell works with the quantum variant only"),
        "{err}"
    );
    let (code, _, err) = analyze(&["--variant", "chess960"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown variant"), "{err}");
    let (code, out, _) = analyze(&["--variant", "haft", "--moves", "g1f3"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("worlds") && out.contains("locks N on f3"),
        "{out}"
    );
}

#[test]
fn typed_outcomes_are_refused_in_a_variant_game() {
    let mut a = app(RuleSet::Harmonics, None);
    typed(&mut a, "b1~c3");
    typed(&mut a, "d7d5");
    typed(&mut a, "e2e3");
    typed(&mut a, "d5d4");
    // An outcome typed with the move (as saved games record them) is refused.
    typed(&mut a, "c3d5.d5=N");
    assert_eq!(texts(&mut a).len(), 4, "{}", a.message().text);
    assert_eq!(
        a.message().text,
        "c3d5.d5=N: outcomes are drawn at random; type it without .d5=N"
    );
    assert!(matches!(a.mode(), Mode::Idle));
    // A refused move closes the line too; Up brings it back.
    press(&mut a, KeyCode::Char(':'));
    press(&mut a, KeyCode::Up);
    assert!(a
        .typed_line()
        .is_some_and(|t| t.line().text() == "c3d5.d5=N"));
}
