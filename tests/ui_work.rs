//! Long work off the screen's thread: a move on a big state (Quantum Chess and the
//! variants) and the Skat lab's analyses run on a worker thread; keys are handled
//! meanwhile, the busy line shows after 150 ms, Esc cancels with the game unchanged, and
//! `q` and Ctrl-C quit at once.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use qchess::chess::{Game, GameOptions, Square};
use qchess::quantum::QuantumError;
use qchess::skat::analysis::AnalyzeOptions;
use qchess::ui::color::{Paint, Tier};
use qchess::ui::skat::{builtin_entries, SkatLab};
use qchess::ui::theme::Theme;
use qchess::ui::variant::VariantApp;
use qchess::ui::work::{Exec, BUSY_AFTER};
use qchess::ui::{draw, App, Screen};
use qchess::variants::{new_game, RuleSet};
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Twelve splits of different pieces on a board without pawns: 2^12 entangled branches
/// on the sparse backend.
fn big_game() -> Game {
    let opts = GameOptions {
        free_turns: true,
        seed: 1,
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

fn paint() -> Paint {
    Paint::new(Theme::default(), Tier::None)
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn type_move(app: &mut App, m: &str) {
    app.handle_key(key(KeyCode::Char(':')));
    for c in m.chars() {
        app.handle_key(key(KeyCode::Char(c)));
    }
    app.handle_key(key(KeyCode::Enter));
}

fn probabilities(g: &Game) -> Vec<f64> {
    Square::all().map(|s| g.probability(s)).collect()
}

fn screen(draw_it: impl FnOnce(&mut ratatui::Frame), w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(draw_it).unwrap();
    t.backend().to_string()
}

/// A queen slide through the squares of two superposed bishops (d2, d3): it entangles
/// the queen with them.
const BIG_MOVE: &str = "d1d4";

#[test]
fn a_big_move_runs_off_the_screen_thread_and_esc_cancels_it() {
    let mut app = App::new(big_game(), paint(), false);
    app.set_exec(Exec::Background);
    let before = probabilities(app.game());
    let ply = app.game().ply();
    let cursor = app.cursor();
    type_move(&mut app, BIG_MOVE);
    assert!(app.working());
    // Keys are handled while the move runs: they do nothing to the game or the cursor.
    for c in "jjkhs".chars() {
        app.handle_key(key(KeyCode::Char(c)));
    }
    assert_eq!(app.cursor(), cursor);
    assert!(app.working());
    // Esc cancels: nothing of the move reaches the game.
    app.handle_key(key(KeyCode::Esc));
    assert!(!app.working());
    assert!(!app.tick());
    assert_eq!(app.game().ply(), ply);
    assert_eq!(probabilities(app.game()), before);
    assert_eq!(
        app.message().text,
        format!("cancelled {BIG_MOVE}: the game is unchanged")
    );

    // Played to the end on the worker, the move gives what it gives inline.
    let mut inline = App::new(big_game(), paint(), false);
    type_move(&mut inline, BIG_MOVE);
    assert_eq!(inline.game().ply(), ply + 1);
    app.handle_key(key(KeyCode::Esc));
    type_move(&mut app, BIG_MOVE);
    app.finish_work();
    assert_eq!(app.game().ply(), ply + 1);
    assert_eq!(probabilities(app.game()), probabilities(inline.game()));
    assert_eq!(app.message(), inline.message());
    assert_eq!(app.game().branch_count(), inline.game().branch_count());
}

#[test]
fn a_refused_move_on_the_worker_is_said_as_inline() {
    let mut app = App::new(big_game(), paint(), false);
    app.set_exec(Exec::Background);
    type_move(&mut app, "d1d8");
    app.finish_work();
    let mut inline = App::new(big_game(), paint(), false);
    type_move(&mut inline, "d1d8");
    assert_eq!(app.message(), inline.message());
    assert_eq!(app.mode(), inline.mode());
}

#[test]
fn the_busy_line_shows_after_150_ms_with_the_time() {
    let mut app = App::new(big_game(), paint(), false);
    app.set_exec(Exec::Background);
    type_move(&mut app, BIG_MOVE);
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
        let s = screen(|f| draw(f, &app), w, h);
        assert!(s.contains(&format!("playing {BIG_MOVE}: ")), "{w}x{h}\n{s}");
        assert!(s.contains(" s (Esc cancels, q quits)"), "{w}x{h}\n{s}");
    }
    app.finish_work();
    assert!(app.busy().is_none());
}

#[test]
fn q_and_ctrl_c_quit_at_once_while_busy() {
    for k in [
        key(KeyCode::Char('q')),
        KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL),
    ] {
        let mut app = App::new(big_game(), paint(), false);
        app.set_exec(Exec::Background);
        type_move(&mut app, BIG_MOVE);
        Screen::handle_event(&mut app, Event::Key(k));
        assert!(app.should_quit(), "{k:?}");
    }
}

#[test]
fn a_cancelled_move_leaves_the_game_as_it_was() {
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
    let game = new_game(RuleSet::Harmonics, None, 7).unwrap();
    let mut app = VariantApp::new(game, None, 7, paint(), false);
    app.set_exec(Exec::Background);
    let play = |app: &mut VariantApp| {
        app.handle_key(key(KeyCode::Char(':')));
        for c in "e2e4".chars() {
            app.handle_key(key(KeyCode::Char(c)));
        }
        app.handle_key(key(KeyCode::Enter));
    };
    play(&mut app);
    assert!(app.working());
    app.handle_key(key(KeyCode::Esc));
    assert!(!app.working());
    assert!(app.game().history().is_empty());
    assert_eq!(app.message().text, "cancelled e2e4: the game is unchanged");
    app.handle_key(key(KeyCode::Esc));
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
    let options = AnalyzeOptions::default();
    let mut lab = SkatLab::in_background(builtin_entries(), 0, options, paint(), false);
    assert!(Screen::working(&lab));
    assert!(lab.shown().is_none());
    // The screen draws while it waits.
    let s = screen(|f| Screen::draw(&lab, f), 80, 24);
    assert!(s.contains("nine-card"), "{s}");
    lab.finish_work();
    assert!(lab.shown().is_some());
    assert!(lab.message().text.starts_with("nine-card: lead"));

    // Esc stops waiting for an analysis; the lab stays where it was.
    let mut lab = SkatLab::in_background(builtin_entries(), 0, options, paint(), false);
    lab.finish_work();
    lab.handle_key(key(KeyCode::Char('3')));
    assert!(Screen::working(&lab));
    lab.handle_key(key(KeyCode::Esc));
    assert!(!Screen::working(&lab));
    assert_eq!(lab.current(), 0);
    assert_eq!(lab.message().text, "stopped analysing toy");
    lab.handle_key(key(KeyCode::Char('q')));
    assert!(lab.should_quit());
}
