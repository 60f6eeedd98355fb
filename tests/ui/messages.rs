//! What the message line keeps in view in a game: the player's own move told together
//! with the computer's reply, the warning about the player's king until the next move,
//! and the question before a move that puts a safe king in danger (`y` plays it, any
//! other key cancels it, a setting turns it off, the clock runs while it is up).
//! Snapshots at 80x24 and 60x20.

use crate::support::driver::{keys, press, screen, typed};
use crossterm::event::KeyCode;
use qchess::chess::fen::START_FEN;
use qchess::chess::{Game, GameOptions, Status};
use qchess::game::clock::TimeControl;
use qchess::seats::strength::Strength;
use qchess::style::color::{Paint, Tier};
use qchess::style::theme::Theme;
use qchess::ui::layers::question::Question;
use qchess::ui::open::{open, PlayOptions};
use qchess::ui::opponent::{Computer, Sides};
use qchess::ui::App;

/// White's king on e2 and a black pawn on e4: d3 is attacked by the pawn, e1 is safe.
const PAWN_GUARDS_D3: &str = "4k3/8/8/8/4p3/8/4K3/8 w - - 0 1";

/// The game from `fen` after `moves`.
fn game(fen: &str, moves: &[&str]) -> Game {
    // Seed 1: the knight's capture below finds it on c3 and takes the pawn.
    let mut game = Game::from_fen(
        fen,
        GameOptions {
            seed: 1,
            ..GameOptions::default()
        },
    )
    .expect("valid FEN");
    for m in moves {
        game.play(m).expect("legal move");
    }
    game
}

fn paint() -> Paint {
    Paint::new(Theme::default(), Tier::None)
}

/// A game against the computer playing black at level 1.
fn against_black(g: Game) -> App {
    let sides = Sides {
        black: Some(Strength::Level(1)),
        ..Sides::default()
    };
    App::new(g, paint(), false).with_computer(Computer::new(sides, 1))
}

/// A game of two players at one screen that asks about risky moves.
fn asking(fen: &str) -> App {
    App::new(game(fen, &[]), paint(), false).with_king_question(true)
}

fn said(app: &App) -> String {
    app.message().text.clone()
}

#[test]
fn a_measured_capture_and_the_reply_are_both_read() {
    // The knight is half on c3: taking on d5 first asks whether it is there.
    let mut a = against_black(game(START_FEN, &["b1^a3c3", "d7d5"]));
    typed(&mut a, "c3xd5");
    a.finish_work();
    assert_eq!(a.game().ply(), 4, "the computer replied");
    let text = said(&a);
    let (mine, reply) = text
        .split_once(". Reply: ")
        .unwrap_or_else(|| panic!("both moves told: {text}"));
    assert_eq!(
        mine,
        "white played c3xd5.m1: the knight was on c3 (a 50% chance); took the pawn on d5; \
         vanished: Na3"
    );
    assert_eq!(reply, "black played d8xd5: took the knight on d5");
    for (w, h) in [(80, 24), (60, 20)] {
        let s = screen(&mut a, w, h);
        // Both are on the screen, whole: no line of the message area is cut.
        assert!(!s.contains('…'), "{s}");
        insta::assert_snapshot!(format!("capture_and_reply_{w}x{h}"), s);
    }
}

#[test]
fn a_king_left_to_the_computer_is_warned_before_its_reply() {
    // White's king steps next to the rook's file; the computer takes it at once, and
    // the warning is still read with the reply that ends the game.
    let mut a = against_black(game("4r2k/8/8/8/8/8/8/3K4 w - - 0 1", &[]));
    typed(&mut a, "d1e1");
    a.finish_work();
    let text = said(&a);
    assert!(
        text.starts_with(
            "white played d1e1. Careful: your king can be captured (100% by e8xe1). \
             Reply: black played e8xe1"
        ),
        "{text}"
    );
    assert!(text.contains("Game over"), "{text}");
}

#[test]
fn the_king_warning_stays_until_the_next_move() {
    let warning = "Careful: your king can be captured (100% by e8xe2)";
    let mut a = App::new(game("4r2k/8/8/8/8/8/8/4K3 w - - 0 1", &[]), paint(), false);
    typed(&mut a, "e1e2");
    assert!(said(&a).ends_with(warning), "{}", said(&a));
    // Whatever else the message line says meanwhile, the warning stays.
    press(&mut a, KeyCode::Char('x'));
    assert!(
        said(&a).starts_with("the key 'x' does nothing"),
        "{}",
        said(&a)
    );
    assert!(said(&a).ends_with(warning), "{}", said(&a));
    keys(&mut a, ":");
    press(&mut a, KeyCode::Esc);
    assert!(said(&a).ends_with(warning), "{}", said(&a));
    // Black's quiet move: white, to move, is still warned.
    typed(&mut a, "h8g8");
    assert!(said(&a).starts_with("black played h8g8"), "{}", said(&a));
    assert!(said(&a).ends_with(warning), "{}", said(&a));
    // White's next move leaves the rook's file: the warning is gone, and stays gone.
    typed(&mut a, "e2d3");
    assert_eq!(said(&a), "white played e2d3");
    press(&mut a, KeyCode::Char('x'));
    assert!(!said(&a).contains("Careful"), "{}", said(&a));
}

#[test]
fn a_move_into_danger_is_asked_about_and_y_plays_it() {
    let mut a = asking(PAWN_GUARDS_D3);
    typed(&mut a, "e2d3");
    assert!(
        matches!(a.question(), Some(Question::KingRisk { input, risk }) if input.given() == "e2d3" && risk == "100% by e4xd3"),
        "{:?}",
        a.question()
    );
    assert_eq!(a.game().ply(), 0, "nothing is played before the answer");
    for (w, h) in [(80, 24), (60, 20)] {
        insta::assert_snapshot!(format!("king_question_{w}x{h}"), screen(&mut a, w, h));
    }
    press(&mut a, KeyCode::Char('y'));
    assert!(a.question().is_none());
    assert_eq!(a.game().ply(), 1);
    assert_eq!(
        said(&a),
        "white played e2d3. Careful: your king can be captured (100% by e4xd3)"
    );
}

#[test]
fn any_other_key_cancels_the_move_and_the_game_is_unchanged() {
    for key in [
        KeyCode::Char('n'),
        KeyCode::Char('x'),
        KeyCode::Char('q'),
        KeyCode::Esc,
        KeyCode::Enter,
    ] {
        let mut a = asking(PAWN_GUARDS_D3);
        let before = a.quantum().map(|g| g.fen());
        typed(&mut a, "e2d3");
        assert!(a.question().is_some(), "{key:?}");
        press(&mut a, key);
        assert!(a.question().is_none(), "{key:?}");
        assert!(!a.should_quit(), "{key:?}");
        assert_eq!(a.game().ply(), 0, "{key:?}");
        assert_eq!(a.quantum().map(|g| g.fen()), before, "{key:?}");
        assert_eq!(
            said(&a),
            "e2d3 not played: the game is unchanged",
            "{key:?}"
        );
    }
}

#[test]
fn only_a_safe_king_put_in_danger_is_asked_about() {
    // A quiet move is played at once.
    let mut a = asking(PAWN_GUARDS_D3);
    typed(&mut a, "e2e1");
    assert!(a.question().is_none());
    assert_eq!(a.game().ply(), 1);
    // A king already attacked (the status line says so) is not asked about again.
    let mut a = asking("4r2k/8/8/8/8/8/8/4K3 w - - 0 1");
    typed(&mut a, "e1e2");
    assert!(a.question().is_none());
    assert_eq!(a.game().ply(), 1);
    // A move picked on the board is asked about as a typed one is.
    let mut a = asking(PAWN_GUARDS_D3);
    press(&mut a, KeyCode::Enter);
    keys(&mut a, "hk");
    press(&mut a, KeyCode::Enter);
    assert!(
        matches!(a.question(), Some(Question::KingRisk { input, .. }) if input.given() == "e2d3"),
        "{:?} {}",
        a.question(),
        said(&a)
    );
}

#[test]
fn the_setting_turns_the_question_off() {
    for (on, asked) in [(true, true), (false, false)] {
        let opts = PlayOptions {
            fen: Some(PAWN_GUARDS_D3.into()),
            seed: Some(1),
            ask_king_danger: on,
            ..PlayOptions::default()
        };
        let mut a = open(&opts).expect("the game opens");
        typed(a.as_mut(), "e2d3");
        assert_eq!(a.question().is_some(), asked, "setting {on}");
        assert_eq!(a.game().ply(), usize::from(!asked), "setting {on}");
    }
}

#[test]
fn the_player_decides_on_the_clock() {
    // 0.005 minutes: 0.3 s each. The question stops nobody's clock: white's runs while
    // it is up, its flag falls, and `y` then plays nothing.
    let control: TimeControl = "0.005+0".parse().expect("a time control");
    let mut a = asking(PAWN_GUARDS_D3).with_clock(control, None);
    typed(&mut a, "e2d3");
    assert!(a.question().is_some());
    for _ in 0..200 {
        a.tick();
        if a.ending().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let reason = a.ending().map(|e| e.reason.clone());
    assert_eq!(reason.as_deref(), Some("white lost on time"));
    press(&mut a, KeyCode::Char('y'));
    assert_eq!(a.game().ply(), 0);
    assert_eq!(a.status(), Status::BlackWins);
}
