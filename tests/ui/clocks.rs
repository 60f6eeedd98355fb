//! Clocks and endings outside the rules in the game screen: a flag that falls, the
//! increment, resigning, draw offers at one keyboard and to the computer, and the
//! clocks kept in the saved game and shown in replay.

use crate::support::driver::{keys, press, screen, typed};
use crossterm::event::KeyCode;
use qchess::chess::{Color, Game, GameOptions, Status};
use qchess::game::clock::TimeControl;
use qchess::record::{Players, SavedGame};
use qchess::style::color::{Paint, Tier};
use qchess::style::theme::Theme;
use qchess::ui::layers::prompts::Asking;
use qchess::ui::opponent::{Computer, Sides};
use qchess::ui::App;
use std::time::Duration;

fn paint() -> Paint {
    Paint::new(Theme::default(), Tier::None)
}

fn clocked(control: &str) -> App {
    let tc: TimeControl = control.parse().unwrap();
    App::new(Game::standard(GameOptions::default()), paint(), false).with_clock(tc, None)
}

/// Waits until white's flag falls (the screen's tick looks at the clocks).
fn until_flag(app: &mut App) {
    for _ in 0..200 {
        app.tick();
        if app.ending().is_some() {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("no flag fell");
}

#[test]
fn a_flag_falls_and_the_game_is_lost_on_time() {
    // 0.005 minutes: 0.3 s each.
    let mut app = clocked("0.005+0");
    until_flag(&mut app);
    assert_eq!(app.status(), Status::BlackWins);
    assert_eq!(app.ending().unwrap().reason, "white lost on time");
    assert_eq!(
        app.message().text,
        "Game over: Black wins, white lost on time"
    );
    // No move after the flag.
    typed(&mut app, "e2e4");
    assert_eq!(app.message().text, "the game is over: white lost on time");
    let saved = app.record();
    assert_eq!(saved.result, Status::BlackWins);
    assert_eq!(saved.reason.as_deref(), Some("white lost on time"));
    let text = saved.to_toml();
    assert!(text.contains("reason = \"white lost on time\""), "{text}");
    assert!(
        text.contains("[clock]") && text.contains("control = \"0.005+0\""),
        "{text}"
    );
    // The clocks at the flag: white at zero, black untouched, shown on every size.
    for (w, h) in [(80, 24), (60, 20), (120, 40)] {
        let s = screen(&mut app, w, h);
        assert!(s.contains("white 0:00.0"), "{w}x{h}: {s}");
        insta::assert_snapshot!(format!("clocks_flag_{w}x{h}"), s);
    }
}

#[test]
fn the_increment_is_added_after_each_move_and_the_clock_stops_while_it_plays() {
    let mut app = clocked("1+2");
    typed(&mut app, "e2e4");
    let t = app.clocks().times().unwrap();
    let white = t.of(Color::White);
    assert!(
        white > Duration::from_secs(61) && white <= Duration::from_secs(62),
        "{white:?}"
    );
    assert!(t.of(Color::Black) <= Duration::from_secs(60));
    let saved = app.record().clock.unwrap();
    assert_eq!(saved.left.len(), 1);
    assert!(
        saved.left[0] > 61_000 && saved.left[0] <= 62_000,
        "{saved:?}"
    );
    // No take-backs on a clock.
    press(&mut app, KeyCode::Char('u'));
    assert!(
        app.message().text.starts_with("no take-backs"),
        "{}",
        app.message().text
    );
}

#[test]
fn resigning_asks_first_and_records_the_reason() {
    let mut app = clocked("5+0");
    press(&mut app, KeyCode::Char('X'));
    assert_eq!(app.message().text, "white resigns? y resigns, n plays on");
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.status(), Status::Ongoing);
    press(&mut app, KeyCode::Char('X'));
    press(&mut app, KeyCode::Char('y'));
    assert_eq!(app.status(), Status::BlackWins);
    assert_eq!(app.record().reason.as_deref(), Some("white resigned"));
    // Nothing more to decide once it is over.
    press(&mut app, KeyCode::Char('D'));
    assert_eq!(app.message().text, "the game is over");
}

#[test]
fn a_draw_offer_at_one_keyboard_is_accepted_or_declined() {
    let mut app = App::new(Game::standard(GameOptions::default()), paint(), false);
    typed(&mut app, "e2e4");
    // D asks first: one key does not end a game.
    press(&mut app, KeyCode::Char('D'));
    assert_eq!(
        app.message().text,
        "black offers a draw? y offers, n plays on"
    );
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.message().text, "no draw offered: play on");
    assert_eq!(app.question(), None);
    press(&mut app, KeyCode::Char('D'));
    press(&mut app, KeyCode::Char('y'));
    assert_eq!(
        app.message().text,
        "black offers a draw: white, y accepts, n declines"
    );
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.message().text, "white declines the draw: play on");
    press(&mut app, KeyCode::Char('D'));
    press(&mut app, KeyCode::Char('y'));
    press(&mut app, KeyCode::Char('y'));
    assert_eq!(app.status(), Status::Draw);
    assert_eq!(app.record().reason.as_deref(), Some("draw agreed"));
    // Without a clock the result is kept all the same; a new game starts afresh.
    keys(&mut app, "n");
    assert_eq!(app.status(), Status::Ongoing);
    assert!(app.ending().is_none());
}

#[test]
fn the_computer_agrees_no_draw_at_the_start() {
    let computer = || {
        Computer::new(
            Sides {
                black: Some(qchess::seats::strength::Strength::Level(1)),
                ..Sides::default()
            },
            0,
        )
    };
    // Even at the start, and white without its queen: no draw at move 1 either way
    // (the answer by the evaluation is tested in engine::draws).
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1",
    ] {
        let g = Game::from_fen(fen, GameOptions::default()).unwrap();
        let mut app = App::new(g, paint(), false).with_computer(computer());
        press(&mut app, KeyCode::Char('D'));
        assert_eq!(app.status(), Status::Ongoing);
        press(&mut app, KeyCode::Char('y'));
        assert_eq!(app.status(), Status::Ongoing, "{fen}");
        assert_eq!(
            app.message().text,
            "black declines the draw: it agrees no draw before move 20"
        );
    }
}

#[test]
fn saved_clocks_come_back_in_replay_and_on_resume() {
    let mut app = clocked("3+2");
    typed(&mut app, "e2e4");
    typed(&mut app, "e7e5");
    let saved = app.record();
    let path = std::path::Path::new("clocked.toml");
    let back = SavedGame::parse(&saved.to_toml(), path).unwrap();
    let clock = back.clock.clone().expect("the clock is saved");
    assert_eq!(clock.left.len(), 2);
    let control = clock.time_control(path).unwrap();
    assert_eq!(control.to_string(), "3+2");
    // Replay at ply 1 shows white's time after its move, black's full.
    let full = back.replay(path, None, None).unwrap();
    let mut replay = App::new(full, paint(), false)
        .into_replay()
        .with_clock(control, Some(clock.clone()));
    press(&mut replay, KeyCode::Right);
    let facts = replay.clock_facts();
    let white = qchess::game::clock::clock_words(Duration::from_millis(clock.left[0]));
    assert_eq!(
        facts,
        vec![format!("white {white}"), "black 3:00".to_string()]
    );
    // Resumed, the clocks go on from the saved times, white's running.
    let full = back.replay(path, None, None).unwrap();
    let resumed = App::new(full, paint(), false).with_clock(control, Some(clock.clone()));
    let t = resumed.clocks().times().unwrap();
    assert!(t.of(Color::White) <= Duration::from_millis(clock.left[0]));
    assert!(t.of(Color::Black) <= Duration::from_millis(clock.left[1]));
    assert!(resumed.clock_facts()[0].starts_with('▶'));
    let _ = Players::default();
}

#[test]
fn a_replay_shows_how_a_decided_game_ended() {
    let mut app = clocked("5+0");
    typed(&mut app, "e2e4");
    press(&mut app, KeyCode::Char('X'));
    press(&mut app, KeyCode::Char('y'));
    let saved = app.record();
    let path = std::path::Path::new("resigned.toml");
    let back = SavedGame::parse(&saved.to_toml(), path).unwrap();
    assert_eq!(back.result, Status::WhiteWins);
    let full = back.replay(path, None, None).unwrap();
    let mut replay = App::new(full, paint(), false)
        .with_ending(back.ending())
        .into_replay();
    assert_eq!(replay.status(), Status::Ongoing, "at the start");
    press(&mut replay, KeyCode::End);
    assert_eq!(replay.status(), Status::WhiteWins);
    assert!(
        replay.message().text.ends_with("; then black resigned"),
        "{}",
        replay.message().text
    );
}
