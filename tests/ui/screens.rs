//! Screen sizes: the full arrangement from 80x23, the compact one down to 60x20 (board,
//! history, one pane below the board picked with Tab), the help turning its pages, and
//! the "too small" note below that.

use crate::support::driver::{press, screen};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use qchess::chess::{Game, GameOptions};
use qchess::style::color::{Paint, Tier};
use qchess::style::theme::Theme;
use qchess::ui::layout::Drawer;
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

#[test]
fn every_pane_shows_from_80x23() {
    let mut a = app(&["b1^a3c3"]);
    for (w, h) in [(80, 23), (80, 24), (120, 40)] {
        let s = screen(&mut a, w, h);
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
        let s = screen(&mut a, w, h);
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
    let s = screen(&mut a, 60, 20);
    assert!(s.contains("Circuit: ply 1 b1^a3c3"), "{s}");
    assert!(!s.contains("Probabilities"), "{s}");
    assert!(s.contains("Tab: probabilities"), "{s}");
    press(&mut a, KeyCode::Tab);
    assert_eq!(a.drawer(), Drawer::Probabilities);
    // The help lists the key.
    press(&mut a, KeyCode::Char('?'));
    assert!(screen(&mut a, 120, 40).contains("Tab "));
}

#[test]
fn the_help_turns_pages_where_it_does_not_fit() {
    let mut a = app(&[]);
    press(&mut a, KeyCode::Char('?'));
    let first = screen(&mut a, 60, 20);
    assert!(
        first.contains("Keys 1/4 (any key: more, Esc closes)"),
        "{first}"
    );
    press(&mut a, KeyCode::Char('x'));
    assert!(a.help_shown());
    let second = screen(&mut a, 60, 20);
    assert!(
        second.contains("Keys 2/4 (any key: more, Esc closes)"),
        "{second}"
    );
    assert!(
        second.contains("quit (asks first during a game)"),
        "{second}"
    );
    // Then the rules in short, on two pages at this size; the last key closes.
    press(&mut a, KeyCode::Char('x'));
    assert!(screen(&mut a, 60, 20).contains("Rules 3/4 (any key: more, Esc closes)"));
    press(&mut a, KeyCode::Char('x'));
    assert!(screen(&mut a, 60, 20).contains("Rules 4/4 (any key closes)"));
    press(&mut a, KeyCode::Char('x'));
    assert!(!a.help_shown());
    // Where the keys fit on one page, the rules are the second.
    press(&mut a, KeyCode::Char('?'));
    let s = screen(&mut a, 80, 24);
    assert!(s.contains("Keys 1/2 (any key: more, Esc closes)"), "{s}");
    assert!(s.contains("( ) legal target"), "{s}");
    press(&mut a, KeyCode::Char('x'));
    assert!(screen(&mut a, 80, 24).contains("Rules 2/2 (any key closes)"));
    press(&mut a, KeyCode::Char('x'));
    assert!(!a.help_shown());
    // Ctrl-C quits from any page.
    press(&mut a, KeyCode::Char('?'));
    let _ = screen(&mut a, 60, 20);
    a.handle_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert!(a.should_quit());
}

#[test]
fn below_60x20_a_note_says_so() {
    let mut a = app(&[]);
    for (w, h) in [(59, 20), (60, 19), (40, 10)] {
        let s = screen(&mut a, w, h);
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
    let rgb = |c: qchess::style::theme::Rgb| Color::Rgb(c.0, c.1, c.2);
    let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
    t.draw(|f| {
        draw(f, &a);
    })
    .unwrap();
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
    t.draw(|f| {
        draw(f, &a);
    })
    .unwrap();
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

/// The screen's last `rows` lines, joined with spaces between words.
fn bottom_words(screen: &str, rows: usize) -> String {
    let lines: Vec<&str> = screen.lines().collect();
    lines[lines.len() - rows..]
        .iter()
        .map(|l| l.trim_matches('"'))
        .collect::<Vec<_>>()
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `text`, word for word, is what the message area shows at `w`x`h`.
fn message_shows_all(a: &mut App, w: u16, h: u16, text: &str) {
    let s = screen(a, w, h);
    let want: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        bottom_words(&s, 2).contains(&want),
        "{w}x{h}: {text:?} not whole in\n{s}"
    );
}

#[test]
fn long_messages_wrap_at_80_columns() {
    // The measurement message.
    let mut a = app(&["b1^a3c3", "d7d5"]);
    for c in ":c3xd5".chars() {
        press(&mut a, KeyCode::Char(c));
    }
    press(&mut a, KeyCode::Enter);
    let said = a.message().text.clone();
    assert!(said.len() > 80, "{said}");
    assert!(said.contains("on c3 (a 50% chance)"), "{said}");
    for (w, h) in [(80, 24), (80, 23)] {
        message_shows_all(&mut a, w, h, &said);
    }
    // A refusal: the rook on a1 cannot split at the start.
    let mut a = app(&[]);
    for c in "hhhhjs".chars() {
        press(&mut a, KeyCode::Char(c));
    }
    let refusal = a.message().text.clone();
    assert!(refusal.len() > 80, "{refusal}");
    message_shows_all(&mut a, 80, 24, &refusal);
    // The `:` hint, after the typed text.
    press(&mut a, KeyCode::Char(':'));
    let s = screen(&mut a, 80, 24);
    let hint = a.message().text.clone();
    assert!(hint.ends_with("Esc cancels"), "{hint}");
    assert!(bottom_words(&s, 2).starts_with(": type a move"), "{s}");
    message_shows_all(&mut a, 80, 24, &hint);
    for c in "e2e".chars() {
        press(&mut a, KeyCode::Char(c));
    }
    let s = screen(&mut a, 80, 24);
    assert!(bottom_words(&s, 2).starts_with(": e2e type a move"), "{s}");
    message_shows_all(&mut a, 80, 24, &hint);
    // Short messages keep one line: the panes keep their room.
    let mut a = app(&[]);
    let s = screen(&mut a, 80, 24);
    assert!(s.lines().nth(21).unwrap().contains("└"), "{s}");
}

#[test]
fn the_game_over_status_line_fits_80_columns() {
    let mut game = Game::from_fen("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", GameOptions::default())
        .expect("valid FEN");
    game.play("e7e8").unwrap();
    let mut a = App::new(game, Paint::new(Theme::default(), Tier::None), false);
    for (w, h) in [(80, 24), (60, 20)] {
        let s = screen(&mut a, w, h);
        let status = s.lines().rev().find(|l| l.contains("game over")).unwrap();
        assert!(status.contains("game over: White wins"), "{s}");
        // Parts are left out whole, never cut.
        for part in status.trim_matches('"').split(" │ ") {
            let part = part.trim();
            assert!(
                part.starts_with("game over")
                    || part.starts_with("ply ")
                    || part.starts_with("50-move ")
                    || part.starts_with("branches ")
                    || part == "sparse"
                    || part == "? help  q quit",
                "{w}x{h}: cut part {part:?}"
            );
        }
    }
}

#[test]
fn the_inspector_says_no_square_is_entangled_in_full() {
    let mut a = app(&[]);
    press(&mut a, KeyCode::Char('i'));
    for (w, h) in [(80, 24), (80, 23)] {
        let s = screen(&mut a, w, h);
        // The inspector's column, right of the board pane (44 cells) and its border.
        let pane: Vec<String> = s
            .lines()
            .map(|l| l.trim_matches('"').chars().skip(45).take(34).collect())
            .collect();
        let words = pane
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            words.contains("none: no square is entangled with it"),
            "{s}"
        );
    }
}

#[test]
fn a_failed_autosave_keeps_its_reason() {
    // The data "directory" is a file: the autosave cannot be written.
    let file = std::env::temp_dir().join(format!("qchess-screens-{}", std::process::id()));
    std::fs::write(&file, "not a directory").unwrap();
    let recorder = qchess::record::Recorder::new(
        Some(file.clone()),
        true,
        qchess::record::Players::default(),
        0,
    );
    let mut a = app(&[]).with_recorder(recorder);
    for c in ":e2e4".chars() {
        press(&mut a, KeyCode::Char(c));
    }
    press(&mut a, KeyCode::Enter);
    let said = a.message().text.clone();
    assert!(said.contains("Autosave failed: "), "{said}");
    let reason = said
        .split("Autosave failed: ")
        .nth(1)
        .and_then(|r| r.split(": ").next())
        .unwrap()
        .to_string();
    assert!(!reason.is_empty() && !reason.starts_with('/'), "{said}");
    let s = screen(&mut a, 80, 24);
    let shown = bottom_words(&s, 2);
    assert!(shown.contains(&format!("Autosave failed: {reason}")), "{s}");
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn ascii_draws_ascii_borders() {
    let mut game = Game::standard(GameOptions::default());
    game.play("b1^a3c3").unwrap();
    let mut a = App::new(game, Paint::new(Theme::default(), Tier::None), true);
    for (w, h) in [(80, 24), (60, 20), (120, 40)] {
        let s = screen(&mut a, w, h);
        assert!(s.is_ascii(), "{w}x{h}: not ASCII\n{s}");
        assert!(s.starts_with("\"+ Board -"), "{s}");
    }
}
