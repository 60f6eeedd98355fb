//! Screen sizes: the full arrangement from 80x23, the compact one down to 60x20 (board,
//! history, one pane below the board picked with Tab), the help turning its pages, and
//! the "too small" note below that.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use qchess::chess::{Game, GameOptions};
use qchess::ui::color::{Paint, Tier};
use qchess::ui::layout::Drawer;
use qchess::ui::theme::Theme;
use qchess::ui::{draw, App};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn app(moves: &[&str]) -> App {
    let mut game = Game::standard(GameOptions {
        seed: 3,
        ..GameOptions::default()
    });
    for m in moves {
        game.play(m).expect("legal move");
    }
    App::new(game, Paint::new(Theme::default(), Tier::None), false)
}

fn press(app: &mut App, code: KeyCode) {
    app.handle_key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("test terminal");
    t.draw(|f| draw(f, app)).expect("draw");
    t.backend().to_string()
}

#[test]
fn every_pane_shows_from_80x23() {
    let a = app(&["b1^a3c3"]);
    for (w, h) in [(80, 23), (80, 24), (120, 40)] {
        let s = screen(&a, w, h);
        for title in ["Board", "Probabilities", "History", "Circuit"] {
            assert!(s.contains(title), "{title} at {w}x{h}\n{s}");
        }
        assert!(!s.contains("Tab: "), "{w}x{h}");
    }
}

#[test]
fn tab_picks_the_pane_below_the_board_on_small_screens() {
    let mut a = app(&["b1^a3c3"]);
    for (w, h) in [(60, 20), (79, 24), (100, 21)] {
        let s = screen(&a, w, h);
        assert!(s.contains("Board") && s.contains("History"), "{w}x{h}\n{s}");
        assert!(s.contains("Probabilities"), "{w}x{h}\n{s}");
        assert!(!s.contains("Circuit"), "{w}x{h}\n{s}");
        assert!(s.contains("Tab: circuit"), "{w}x{h}\n{s}");
    }
    press(&mut a, KeyCode::Tab);
    assert_eq!(a.drawer(), Drawer::Circuit);
    assert_eq!(
        a.message().text,
        "small screens show the circuit below the board"
    );
    let s = screen(&a, 60, 20);
    assert!(s.contains("Circuit: ply 1 b1^a3c3"), "{s}");
    assert!(!s.contains("Probabilities"), "{s}");
    assert!(s.contains("Tab: probabilities"), "{s}");
    press(&mut a, KeyCode::Tab);
    assert_eq!(a.drawer(), Drawer::Probabilities);
    // The help lists the key.
    press(&mut a, KeyCode::Char('?'));
    assert!(screen(&a, 120, 40).contains("Tab "));
}

#[test]
fn the_help_turns_pages_where_it_does_not_fit() {
    let mut a = app(&[]);
    press(&mut a, KeyCode::Char('?'));
    let first = screen(&a, 60, 20);
    assert!(first.contains("Keys 1/2 (any key: more)"), "{first}");
    press(&mut a, KeyCode::Char('x'));
    assert!(a.help_shown());
    let second = screen(&a, 60, 20);
    assert!(second.contains("Keys 2/2 (any key closes)"), "{second}");
    assert!(
        second.contains("quit (asks first during a game)"),
        "{second}"
    );
    press(&mut a, KeyCode::Char('x'));
    assert!(!a.help_shown());
    // One page where it fits: the first key closes it.
    press(&mut a, KeyCode::Char('?'));
    let s = screen(&a, 80, 23);
    assert!(s.contains("Keys (any key closes)"), "{s}");
    assert!(s.contains("( ) legal target"), "{s}");
    press(&mut a, KeyCode::Char('x'));
    assert!(!a.help_shown());
    // Ctrl-C quits from any page.
    press(&mut a, KeyCode::Char('?'));
    let _ = screen(&a, 60, 20);
    a.handle_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert!(a.should_quit());
}

#[test]
fn below_60x20_a_note_says_so() {
    let a = app(&[]);
    for (w, h) in [(59, 20), (60, 19), (40, 10)] {
        let s = screen(&a, w, h);
        assert!(s.contains("too small"), "{w}x{h}\n{s}");
        assert!(s.contains("60x20"), "{w}x{h}\n{s}");
        assert!(!s.contains("Board"), "{w}x{h}");
    }
}

#[test]
fn percentages_are_drawn_to_stand_out_and_mark_superposition() {
    use ratatui::style::Color;
    let theme = Theme::default();
    let mut game = Game::standard(GameOptions::default());
    game.play("b1^a3c3").unwrap();
    // Black's reply, so that a3 is a plain square, not one of the last move's.
    game.play("e7e5").unwrap();
    let a = App::new(game, Paint::new(theme.clone(), Tier::TrueColor), false);
    let rgb = |c: qchess::ui::theme::Rgb| Color::Rgb(c.0, c.1, c.2);
    let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
    t.draw(|f| draw(f, &a)).unwrap();
    let buf = t.backend().buffer();
    // a3 (dark square, compact board): glyph at x 4, "50" at x 5 and 6, row 6.
    assert_eq!(buf[(4, 6)].symbol(), "♘");
    assert_eq!(buf[(4, 6)].fg, rgb(theme.white_quantum));
    assert_eq!(buf[(5, 6)].symbol(), "5");
    assert_eq!(buf[(5, 6)].fg, rgb(theme.ink_on(theme.dark_square)));
    assert_eq!(buf[(5, 6)].bg, rgb(theme.dark_square));
    // A certain piece (b2 pawn, light square) carries no number: the number is the mark.
    assert_eq!(buf[(9, 7)].symbol(), "♙");
    assert_eq!(buf[(10, 7)].symbol(), " ");
    // Large squares: "50%" under the glyph, in the same ink.
    let mut t = Terminal::new(TestBackend::new(120, 40)).unwrap();
    t.draw(|f| draw(f, &a)).unwrap();
    let text = t.backend().to_string();
    assert!(text.contains("50%"), "{text}");
    let buf = t.backend().buffer();
    let (x, y) = (0..120u16)
        .flat_map(|x| (0..40u16).map(move |y| (x, y)))
        .find(|&(x, y)| {
            x < 118
                && ["5", "0", "%"]
                    .iter()
                    .enumerate()
                    .all(|(i, c)| buf[(x + i as u16, y)].symbol() == *c)
        })
        .expect("a3's 50%");
    assert_eq!(buf[(x, y)].fg, rgb(theme.ink_on(theme.dark_square)));
    assert_eq!(buf[(x, y)].bg, rgb(theme.dark_square));
}
