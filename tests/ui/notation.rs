//! The history pane's notation: ordinary moves in SAN, quantum ones in Quantum Chess
//! notation, and squares for every move with the `notation = "coordinates"` setting.

use crate::support::driver::screen;
use qchess::chess::{Game, GameOptions};
use qchess::style::color::{Paint, Tier};
use qchess::style::theme::Theme;
use qchess::ui::App;

/// An opening with castling and a certain capture, then a split and a capture by the
/// half knight, which measures.
const MOVES: [&str; 11] = [
    "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1", "f6xe4", "b1^a3c3", "d7d5", "c3xd5",
];

fn app(coordinates: bool) -> App {
    let mut game = Game::standard(GameOptions {
        seed: 3,
        ..GameOptions::default()
    });
    for m in MOVES {
        game.play(m).expect("legal move");
    }
    let paint = Paint::new(Theme::default(), Tier::None).with_coordinates(coordinates);
    App::new(game, paint, false)
}

#[test]
fn the_history_writes_ordinary_moves_in_san() {
    let mut a = app(false);
    let s = screen(&mut a, 80, 24);
    for text in ["4. O-O", "4... Nxe4", "5. b1^a3c3", "5... d5"] {
        assert!(s.contains(text), "{text}\n{s}");
    }
    // The capture by the half knight asked whether it was on c3: it keeps its outcome.
    let measured = a.game().quantum().unwrap().history()[10].played.clone();
    assert!(measured.starts_with("c3xd5.m"), "{measured}");
    assert!(s.contains(&format!("6. {measured}")), "{s}");
    assert!(!s.contains("Nxe4.m1") && !s.contains("f6xe4"), "{s}");
    insta::assert_snapshot!("history_san_80x24", s);
    insta::assert_snapshot!("history_san_60x20", screen(&mut a, 60, 20));
}

#[test]
fn the_coordinates_setting_writes_squares() {
    let mut a = app(true);
    let s = screen(&mut a, 80, 24);
    for text in ["4. e1g1", "4... f6xe4", "5. b1^a3c3", "5... d7d5"] {
        assert!(s.contains(text), "{text}\n{s}");
    }
    assert!(!s.contains("O-O") && !s.contains("Nxe4"), "{s}");
}
