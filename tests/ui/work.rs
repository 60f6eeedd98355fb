//! Long work off the screen's thread: a move on a big state (Quantum Chess and the
//! variants) and the Skat lab's analyses run on a worker thread; keys are handled
//! meanwhile, the busy line shows after 150 ms, Esc cancels with the game unchanged, and
//! `q` and Ctrl-C quit at once.

use crate::support::driver::{press, screen, typed};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use qchess::chess::{Game, GameOptions, Square};
use qchess::game::{RuleSet, Setup};
use qchess::quantum::QuantumError;
use qchess::skat::analysis::AnalyzeOptions;
use qchess::skat::screen::{builtin_entries, SkatLab};
use qchess::style::color::{Paint, Tier};
use qchess::style::theme::Theme;
use qchess::ui::work::{Exec, BUSY_AFTER};
use qchess::ui::{App, Screen};
use qchess::variants::new_game;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};

/// The tests here run one at a time: a test's worker must still be running when its
/// next key comes, which sibling tests on the same cores could delay past a move's
/// few milliseconds.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Holds [`ONE_AT_A_TIME`] for a test (a failed test's poison does not stop the others).
fn one_at_a_time() -> MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// Twelve splits of different pieces on a board without pawns: 2^12 branches on the
/// sparse backend, in one register (factored, the queen's slide would take microseconds
/// and finish before the test's next key; in one register it takes milliseconds).
fn big_game() -> Game {
    let opts = GameOptions {
        free_turns: true,
        seed: 1,
        factored: false,
        ..GameOptions::default()
    };
    let mut g = Game::from_fen("rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w - - 0 1", opts).unwrap();
    for m in [
        "b1^a3c3", "g1^f3h3", "b8^a6c6", "g8^f6h6", "c1^d2e3", "f1^e2d3", "c8^d7e6", "f8^e7d6",
        "a1^b1c1", "h1^g1f1", "a8^b8c8", "h8^g8f8",
    ] {
        g.play(m).unwrap();
    }
    assert_eq!(g.branch_count(), 4096);
    g
}

/// Sixteen splits (four more knights): 2^16 branches in one register, where the big
/// move takes a quarter of a second; for the test whose keys must come while it runs,
/// which a loaded machine could delay past the big game's milliseconds.
fn bigger_game() -> Game {
    let opts = GameOptions {
        free_turns: true,
        seed: 1,
        factored: false,
        ..GameOptions::default()
    };
    let fen = "rnbqkbnr/8/8/n6N/n6N/8/8/RNBQKBNR w - - 0 1";
    let mut g = Game::from_fen(fen, opts).unwrap();
    for m in [
        "b1^a3c3", "g1^f3h3", "b8^a6c6", "g8^f6h6", "c1^d2e3", "f1^e2d3", "c8^d7e6", "f8^e7d6",
        "a1^b1c1", "h1^g1f1", "a8^b8c8", "h8^g8f8", "h5^g7f4", "h4^g2f5", "a5^b7b3", "a4^b6c5",
    ] {
        g.play(m).unwrap();
    }
    assert_eq!(g.branch_count(), 65536);
    g
}

fn paint() -> Paint {
    Paint::new(Theme::default(), Tier::None)
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn probabilities(g: &Game) -> Vec<f64> {
    Square::all().map(|s| g.probability(s)).collect()
}

/// A queen slide through the squares of two superposed bishops (d2, d3): it entangles
/// the queen with them.
const BIG_MOVE: &str = "d1d4";

#[test]
fn a_big_move_runs_off_the_screen_thread_and_esc_cancels_it() {
    let _one = one_at_a_time();
    let mut app = App::new(bigger_game(), paint(), false);
    app.set_exec(Exec::Background);
    let before = probabilities(app.quantum().unwrap());
    let ply = app.game().ply();
    let cursor = app.cursor();
    typed(&mut app, BIG_MOVE);
    assert!(app.working());
    // Keys are handled while the move runs: they do nothing to the game or the cursor.
    for c in "jjkhs".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    assert_eq!(app.cursor(), cursor);
    assert!(app.working());
    // Esc cancels: nothing of the move reaches the game.
    press(&mut app, KeyCode::Esc);
    assert!(!app.working());
    assert!(!app.tick());
    assert_eq!(app.game().ply(), ply);
    assert_eq!(probabilities(app.quantum().unwrap()), before);
    assert_eq!(
        app.message().text,
        format!("cancelled {BIG_MOVE}: the game is unchanged")
    );

    // Played to the end on the worker, the move gives what it gives inline.
    let mut inline = App::new(bigger_game(), paint(), false);
    typed(&mut inline, BIG_MOVE);
    assert_eq!(inline.game().ply(), ply + 1);
    press(&mut app, KeyCode::Esc);
    typed(&mut app, BIG_MOVE);
    app.finish_work();
    assert_eq!(app.game().ply(), ply + 1);
    assert_eq!(
        probabilities(app.quantum().unwrap()),
        probabilities(inline.quantum().unwrap())
    );
    assert_eq!(app.message(), inline.message());
    assert_eq!(
        app.quantum().unwrap().branch_count(),
        inline.quantum().unwrap().branch_count()
    );
}

#[test]
fn a_resignation_pressed_while_a_move_runs_is_asked_once_the_move_is_in() {
    let _one = one_at_a_time();
    let mut app = App::new(bigger_game(), paint(), false);
    app.set_exec(Exec::Background);
    let ply = app.game().ply();
    typed(&mut app, BIG_MOVE);
    press(&mut app, KeyCode::Char('X'));
    assert!(app.working(), "the move still runs");
    assert!(!app.message().text.contains("resigns?"));
    app.finish_work();
    assert_eq!(app.game().ply(), ply + 1);
    assert!(
        app.message()
            .text
            .contains("resigns? y resigns, n plays on"),
        "{}",
        app.message().text
    );
}

#[test]
fn a_refused_move_on_the_worker_is_said_as_inline() {
    let _one = one_at_a_time();
    let mut app = App::new(big_game(), paint(), false);
    app.set_exec(Exec::Background);
    typed(&mut app, "d1d8");
    app.finish_work();
    let mut inline = App::new(big_game(), paint(), false);
    typed(&mut inline, "d1d8");
    assert_eq!(app.message(), inline.message());
    assert_eq!(app.mode(), inline.mode());
}

#[test]
fn the_busy_line_shows_after_150_ms_with_the_time() {
    let _one = one_at_a_time();
    let mut app = App::new(big_game(), paint(), false);
    app.set_exec(Exec::Background);
    typed(&mut app, BIG_MOVE);
    // Not yet: quick moves do not flicker.
    let shown_early = app.busy().is_some();
    std::thread::sleep(BUSY_AFTER + std::time::Duration::from_millis(50));
    // The result is only taken in by tick, so the move still counts as running.
    let (what, elapsed) = app.busy().expect("busy after 150 ms");
    assert_eq!(what, format!("playing {BIG_MOVE}"));
    assert!(elapsed >= BUSY_AFTER);
    assert!(!shown_early || elapsed >= BUSY_AFTER);
    // Every size draws it (a resize while busy is drawn like any other).
    for (w, h) in [(80, 24), (120, 40), (80, 23), (60, 20)] {
        let s = screen(&mut app, w, h);
        assert!(s.contains(&format!("playing {BIG_MOVE}: ")), "{w}x{h}\n{s}");
        assert!(s.contains(" s (Esc cancels, q quits)"), "{w}x{h}\n{s}");
    }
    app.finish_work();
    assert!(app.busy().is_none());
}

#[test]
fn q_and_ctrl_c_quit_at_once_while_busy() {
    let _one = one_at_a_time();
    for k in [
        key(KeyCode::Char('q')),
        KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL),
    ] {
        let mut app = App::new(big_game(), paint(), false);
        app.set_exec(Exec::Background);
        typed(&mut app, BIG_MOVE);
        Screen::handle_event(&mut app, Event::Key(k));
        assert!(app.should_quit(), "{k:?}");
    }
}

#[test]
fn a_cancelled_move_leaves_the_game_as_it_was() {
    let _one = one_at_a_time();
    let mut g = big_game();
    let before = probabilities(&g);
    let flag = Arc::new(AtomicBool::new(true));
    g.set_cancel(Some(flag));
    let e = g.play(BIG_MOVE).unwrap_err();
    assert!(
        matches!(
            e,
            qchess::chess::MoveError::Quantum(QuantumError::Cancelled)
        ),
        "{e}"
    );
    assert_eq!(probabilities(&g), before);
    assert_eq!(g.ply(), 12);
    g.set_cancel(None);
    g.play(BIG_MOVE).unwrap();
    assert_eq!(g.ply(), 13);
}

#[test]
fn variant_moves_run_off_the_screen_thread() {
    let _one = one_at_a_time();
    let game = new_game(&Setup::with_start(RuleSet::Harmonics, None, 7)).unwrap();
    let mut app = App::new(game, paint(), false);
    app.set_exec(Exec::Background);
    let play = |app: &mut App| typed(app, "e2e4");
    play(&mut app);
    assert!(app.working());
    press(&mut app, KeyCode::Esc);
    assert!(!app.working());
    assert!(app.game().history().is_empty());
    assert_eq!(app.message().text, "cancelled e2e4: the game is unchanged");
    press(&mut app, KeyCode::Esc);
    play(&mut app);
    app.finish_work();
    assert_eq!(app.game().history().len(), 1);
    assert!(
        app.message().text.contains("e2e4"),
        "{}",
        app.message().text
    );
}

#[test]
fn the_skat_lab_analyses_on_a_worker() {
    let _one = one_at_a_time();
    let options = AnalyzeOptions::default();
    let mut lab = SkatLab::in_background(builtin_entries(), 0, options, paint(), false);
    assert!(Screen::working(&lab));
    assert!(lab.shown().is_none());
    // The screen draws while it waits.
    let s = screen(&mut lab, 80, 24);
    assert!(s.contains("nine-card"), "{s}");
    lab.finish_work();
    assert!(lab.shown().is_some());
    assert!(lab.message().text.starts_with("nine-card: lead"));

    // Esc asks the toy (milliseconds, nothing to stop inside) to stop: the lab stays
    // where it was, and keeps the toy for later.
    let mut lab = SkatLab::in_background(builtin_entries(), 0, options, paint(), false);
    lab.finish_work();
    press(&mut lab, KeyCode::Char('3'));
    assert!(Screen::working(&lab));
    press(&mut lab, KeyCode::Esc);
    lab.finish_work();
    assert_eq!(lab.current(), 0);
    assert_eq!(
        lab.message().text,
        "toy was done before it could stop: 3 shows it"
    );
    press(&mut lab, KeyCode::Char('3'));
    assert!(!Screen::working(&lab), "kept, not analysed again");
    assert_eq!(lab.current(), 2);
    press(&mut lab, KeyCode::Char('q'));
    assert!(lab.should_quit());
}

#[test]
fn esc_stops_the_skat_analysis_and_the_lab_shows_its_progress() {
    let _one = one_at_a_time();
    // five-each: seconds of solving, reported as it goes.
    let mut lab = SkatLab::in_background(
        builtin_entries(),
        1,
        AnalyzeOptions::default(),
        paint(),
        false,
    );
    let start = std::time::Instant::now();
    while lab.analysing().is_none_or(|a| a.progress.is_none()) {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(60),
            "no progress"
        );
        Screen::tick(&mut lab);
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let a = lab.analysing().expect("analysing");
    assert_eq!(a.name, "five-each");
    for (w, h) in [(80, 24), (80, 23), (120, 40)] {
        let s = screen(&mut lab, w, h);
        // What runs, its stage, and for how long.
        let stage = [
            "solving the distributions",
            "measuring P_fav",
            "quantum counting",
        ]
        .iter()
        .any(|st| s.contains(&format!("analysing five-each, {st}: ")));
        assert!(stage, "{w}x{h}\n{s}");
        assert!(s.contains(" s (Esc stops, q quits)"), "{w}x{h}\n{s}");
        // The gauge: the share done and the whole estimate, then the bar.
        assert!(s.contains("% of about "), "{w}x{h}\n{s}");
        assert!(s.contains("━"), "{w}x{h}\n{s}");
    }
    press(&mut lab, KeyCode::Esc);
    assert!(lab.analysing().is_some_and(|a| a.stopping));
    let s = screen(&mut lab, 80, 24);
    assert!(s.contains("stopping the analysis of five-each"), "{s}");
    // The analysis itself stops (it would take seconds more): its result is the
    // cancellation, not a finished analysis.
    lab.finish_work();
    assert_eq!(lab.message().text, "stopped analysing five-each");
    assert!(lab.shown().is_none());
}

/// The big game with the big move played: 13 plies, the last on 4096 branches.
fn big_game_played() -> Game {
    let mut g = big_game();
    g.play(BIG_MOVE).unwrap();
    g
}

#[test]
fn undo_runs_off_the_screen_thread_and_esc_cancels_it() {
    let _one = one_at_a_time();
    let mut app = App::new(big_game_played(), paint(), false);
    app.set_exec(Exec::Background);
    let before = probabilities(app.quantum().unwrap());
    press(&mut app, KeyCode::Char('u'));
    assert!(app.working(), "the take-back replays on a worker");
    press(&mut app, KeyCode::Esc);
    assert!(!app.working());
    assert_eq!(app.game().ply(), 13);
    assert_eq!(probabilities(app.quantum().unwrap()), before);
    assert_eq!(
        app.message().text,
        format!("cancelled taking back {BIG_MOVE}: the game is unchanged")
    );
    press(&mut app, KeyCode::Char('u'));
    app.finish_work();
    assert_eq!(app.game().ply(), 12);
    assert_eq!(
        probabilities(app.quantum().unwrap()),
        probabilities(&big_game())
    );
    assert_eq!(
        app.message().text,
        format!("took back {BIG_MOVE}; white to move")
    );
    // The game on screen watches no cancel flag: the next move plays.
    typed(&mut app, BIG_MOVE);
    app.finish_work();
    assert_eq!(app.game().ply(), 13);
}

#[test]
fn replay_steps_and_jumps_run_off_the_screen_thread() {
    let _one = one_at_a_time();
    let full = big_game_played();
    let mut app = App::new(full.clone(), paint(), false).into_replay();
    assert_eq!(app.replay().map(|r| r.ply), Some(0));
    app.set_exec(Exec::Background);
    // End: a replay of all 13 plies, on a worker; Esc leaves the shown ply.
    press(&mut app, KeyCode::End);
    assert!(app.working());
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.replay().map(|r| r.ply), Some(0));
    assert_eq!(app.message().text, "cancelled going to ply 13");
    press(&mut app, KeyCode::End);
    app.finish_work();
    assert_eq!(app.replay().map(|r| r.ply), Some(13));
    assert_eq!(probabilities(app.quantum().unwrap()), probabilities(&full));
    // g 12: a jump back replays from the start, also on a worker.
    for c in ['g', '1', '2'] {
        press(&mut app, KeyCode::Char(c));
    }
    press(&mut app, KeyCode::Enter);
    assert!(app.working());
    app.finish_work();
    assert_eq!(app.replay().map(|r| r.ply), Some(12));
    assert_eq!(
        probabilities(app.quantum().unwrap()),
        probabilities(&big_game())
    );
}

#[test]
fn replay_steps_pressed_while_a_step_is_shown_are_all_taken() {
    // Key repeat, or three → arriving in one read: the steps after the first come while
    // it is still being shown, and each counts.
    let _one = one_at_a_time();
    let full = big_game_played();
    let mut app = App::new(full.clone(), paint(), false).into_replay();
    app.set_exec(Exec::Background);
    for _ in 0..3 {
        press(&mut app, KeyCode::Right);
    }
    app.finish_work();
    assert_eq!(app.replay().map(|r| r.ply), Some(3));
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Left);
    app.finish_work();
    assert_eq!(app.replay().map(|r| r.ply), Some(1));
    // Esc cancels the step being shown and forgets the ones pressed after it.
    press(&mut app, KeyCode::End);
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Esc);
    app.finish_work();
    assert_eq!(app.replay().map(|r| r.ply), Some(1));
    press(&mut app, KeyCode::Right);
    app.finish_work();
    assert_eq!(app.replay().map(|r| r.ply), Some(2));
}

#[test]
fn a_cancelled_replay_or_take_back_stops_and_changes_nothing() {
    let _one = one_at_a_time();
    let mut g = big_game_played();
    let before = probabilities(&g);
    g.set_cancel(Some(Arc::new(AtomicBool::new(true))));
    assert!(g.undo().is_none());
    assert_eq!(g.ply(), 13);
    assert_eq!(probabilities(&g), before);
    let moves: Vec<String> = g.history().iter().map(|m| m.played.clone()).collect();
    let e = Game::replay_watched(
        g.start().clone(),
        g.options(),
        &moves,
        Some(Arc::new(AtomicBool::new(true))),
    )
    .unwrap_err();
    assert!(
        matches!(
            e.1,
            qchess::chess::MoveError::Quantum(QuantumError::Cancelled)
        ),
        "{e:?}"
    );
}

/// Seven knights a side, each making one quantum move to its own square: 2^14 harmonics
/// after fourteen plies (as the harmonics benchmark builds them).
fn harmonics_at_the_bound() -> qchess::variants::harmonics::HarmonicsGame {
    use qchess::game::Playable;
    let mut g = qchess::variants::harmonics::HarmonicsGame::from_fen(
        "nnnnnnnk/8/8/8/R7/8/8/NNNNNNNK w - - 0 1",
        1,
    )
    .unwrap();
    for m in [
        "a1~b3", "a8~b6", "b1~d2", "b8~d7", "c1~e2", "c8~e7", "d1~f2", "d8~f7", "e1~g2", "e8~g7",
        "f1~h2", "f8~h7", "g1~f3", "g8~f6",
    ] {
        g.play(m).unwrap();
    }
    assert_eq!(g.superposition().len(), 1 << 14);
    g
}

#[test]
fn variant_moves_and_take_backs_stop_when_cancelled() {
    let _one = one_at_a_time();
    use qchess::game::Playable;
    let mut g = harmonics_at_the_bound();
    let flag = Arc::new(AtomicBool::new(true));
    g.set_cancel(Some(Arc::clone(&flag)));
    // A quantum move splitting all 16384 harmonics, and a take-back (a replay of 13
    // plies): both stop, and the game is as it was.
    let e = g.play("a4~h5").unwrap_err();
    assert_eq!(e, qchess::game::PlayError::Cancelled);
    assert!(g.undo().is_err());
    assert_eq!(g.history().len(), 14);
    assert_eq!(g.superposition().len(), 1 << 14);
    flag.store(false, std::sync::atomic::Ordering::Relaxed);
    g.play("a4~h5").unwrap();
    assert_eq!(g.history().len(), 15);

    let mut haft = new_game(&Setup::with_start(RuleSet::Haft, None, 1)).unwrap();
    haft.set_cancel(Some(Arc::new(AtomicBool::new(true))));
    assert!(haft.play("e2e4").is_err());
    assert!(haft.history().is_empty());
}

#[test]
fn variant_take_backs_and_replay_steps_run_off_the_screen_thread() {
    let _one = one_at_a_time();
    use qchess::game::Playable;
    let g = harmonics_at_the_bound();
    let mut app = App::new(g.clone_box(), paint(), false);
    app.set_exec(Exec::Background);
    // The app starts from the game as given (14 plies): take one back.
    press(&mut app, KeyCode::Char('u'));
    assert!(app.working(), "the take-back replays on a worker");
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.game().history().len(), 14);
    assert_eq!(
        app.message().text,
        "cancelled taking back g8~f6: the game is unchanged"
    );
    press(&mut app, KeyCode::Char('u'));
    app.finish_work();
    assert_eq!(app.game().history().len(), 13);
    assert!(
        app.message().text.starts_with("took back g8~f6"),
        "{}",
        app.message().text
    );
}
