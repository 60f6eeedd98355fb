//! Snapshot tests of whole screens (text only) at 80x24, 80x23 (an 80x24 terminal less
//! tmux's status line), 60x20 (the compact arrangement) and 120x40, plus checks that
//! colour reaches the cells.

use crate::support::driver::{self as driver, screen};
use crossterm::event::KeyCode;
use qchess::chess::{Game, GameOptions};
use qchess::style::color::{Paint, Tier};
use qchess::style::theme::Theme;
use qchess::ui::{draw, App};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn app_from(fen: Option<&str>, moves: &[&str]) -> App {
    let opts = GameOptions {
        seed: 3,
        ..GameOptions::default()
    };
    let mut game = match fen {
        Some(f) => Game::from_fen(f, opts).expect("valid FEN"),
        None => Game::standard(opts),
    };
    for m in moves {
        game.play(m).expect("legal move");
    }
    App::new(game, Paint::new(Theme::default(), Tier::None), false)
}

fn press(app: &mut App, c: char) {
    let code = if c == '\t' {
        KeyCode::Tab
    } else {
        KeyCode::Char(c)
    };
    driver::press(app, code);
}

fn both(name: &str, app: &mut App) {
    insta::assert_snapshot!(format!("{name}_80x24"), screen(app, 80, 24));
    insta::assert_snapshot!(format!("{name}_120x40"), screen(app, 120, 40));
}

/// Snapshots at every size the game supports in full or compact.
fn all_sizes(name: &str, app: &mut App) {
    both(name, app);
    insta::assert_snapshot!(format!("{name}_80x23"), screen(app, 80, 23));
    insta::assert_snapshot!(format!("{name}_60x20"), screen(app, 60, 20));
}

#[test]
fn start_position() {
    all_sizes("start", &mut app_from(None, &[]));
}

#[test]
fn after_a_split() {
    let mut app = app_from(None, &["b1^a3c3"]);
    // Cursor from e2 to c3: its probability and its correlation with a3 show.
    for c in "hhk".chars() {
        press(&mut app, c);
    }
    all_sizes("split", &mut app);
}

#[test]
fn circuit_after_a_capture() {
    let mut app = app_from(None, &["b1^a3c3", "d7d5", "c3xd5.m1"]);
    both("capture", &mut app);
}

#[test]
fn help_screen() {
    let mut app = app_from(None, &[]);
    press(&mut app, '?');
    all_sizes("help", &mut app);
    // The second page of the help at 60x20.
    press(&mut app, 'x');
    insta::assert_snapshot!("help_page2_60x20", screen(&mut app, 60, 20));
}

#[test]
fn the_help_ends_with_the_rules_in_short() {
    for (w, h) in [(80, 24), (120, 40), (60, 20)] {
        let mut app = app_from(None, &[]);
        press(&mut app, '?');
        let mut shown = screen(&mut app, w, h);
        while !shown.contains(" Rules ") {
            assert!(!shown.contains("any key closes"), "no rules page: {shown}");
            press(&mut app, 'x');
            shown = screen(&mut app, w, h);
        }
        insta::assert_snapshot!(format!("help_rules_{w}x{h}"), &shown);
        // The rules end on the last page, whole.
        let mut rules = shown.clone();
        while !shown.contains("any key closes") {
            press(&mut app, 'x');
            shown = screen(&mut app, w, h);
            rules.push_str(&shown);
        }
        assert!(rules.contains("found has lost."), "{rules}");
    }
}

#[test]
fn esc_or_q_closes_the_help_on_any_page_other_keys_turn_it() {
    for close in [KeyCode::Esc, KeyCode::Char('q')] {
        // At 60x20 the help has four pages: the key closes it on the second.
        let mut app = app_from(None, &[]);
        press(&mut app, '?');
        let first = screen(&mut app, 60, 20);
        assert!(
            first.contains(" Keys 1/4 (any key: more, Esc closes) "),
            "{first}"
        );
        press(&mut app, 'x');
        let second = screen(&mut app, 60, 20);
        assert!(
            second.contains(" Keys 2/4 (any key: more, Esc closes) "),
            "{second}"
        );
        driver::press(&mut app, close);
        assert!(!app.help_shown(), "{close:?} closes the help");
        // The key only closed the help: q did not ask to quit, and the next ? starts
        // again at the first page.
        assert!(app.question().is_none() && !app.should_quit());
        press(&mut app, '?');
        assert_eq!(app.help_page(), 0);
    }
}

#[test]
fn the_help_ends_with_the_last_messages_in_full() {
    let mut app = app_from(None, &[]);
    for typed in [":e2e4", ":e7e5", ":g1^f3h3", ":b8xc6"] {
        for c in typed.chars() {
            press(&mut app, c);
        }
        driver::press(&mut app, KeyCode::Enter);
    }
    press(&mut app, '?');
    // At 120x40 the keys and the messages share one page; at 80x24 the messages are on
    // the second.
    insta::assert_snapshot!("help_messages_120x40", screen(&mut app, 120, 40));
    // The page turns by the pages of the last drawing.
    let first = screen(&mut app, 80, 24);
    assert!(
        first.contains(" Keys 1/3 (any key: more, Esc closes) "),
        "{first}"
    );
    press(&mut app, 'x');
    insta::assert_snapshot!("help_messages_page2_80x24", screen(&mut app, 80, 24));
    // On a small screen the messages keep one page under their heading, newest first
    // (the rules come after them: the third page at 80x24 closes).
    press(&mut app, 'x');
    press(&mut app, 'x');
    press(&mut app, '?');
    let mut last = screen(&mut app, 60, 20);
    while !last.contains("Last messages") {
        assert!(!last.contains("any key closes"), "no messages page: {last}");
        press(&mut app, 'x');
        last = screen(&mut app, 60, 20);
    }
    assert_eq!(
        last.matches("Last messages, newest first:").count(),
        1,
        "{last}"
    );
    assert!(last.contains("- b8xc6: x (capture) does not fit"), "{last}");
}

#[test]
fn too_small() {
    let mut app = app_from(None, &[]);
    insta::assert_snapshot!("too_small_59x20", screen(&mut app, 59, 20));
    insta::assert_snapshot!("too_small_80x19", screen(&mut app, 80, 19));
}

#[test]
fn game_over() {
    let mut app = app_from(Some("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"), &["e7e8"]);
    all_sizes("game_over", &mut app);
}

#[test]
fn compact_arrangement_with_the_circuit_below() {
    let mut app = app_from(None, &["b1^a3c3", "d7d5", "c3xd5.m1"]);
    press(&mut app, '\t');
    insta::assert_snapshot!("compact_circuit_60x20", screen(&mut app, 60, 20));
    insta::assert_snapshot!("compact_circuit_79x24", screen(&mut app, 79, 24));
}

/// The busy line's spinner and time, which change from run to run, as `#` and `#.#`.
fn steady(screen: &str) -> String {
    let lines: Vec<String> = screen
        .lines()
        .map(
            |l| match (l.find(" s (Esc cancels"), l.char_indices().nth(2)) {
                (Some(end), Some((after_spinner, _))) => {
                    let time = l[..end].rfind(' ').map_or(end, |i| i + 1);
                    format!("\"#{}#.#{}", &l[after_spinner..time], &l[end..])
                }
                _ => l.to_string(),
            },
        )
        .collect();
    lines.join("\n")
}

#[test]
fn busy_mark() {
    let mut app = app_from(None, &["b1^a3c3"]);
    app.set_exec(qchess::ui::work::Exec::Background);
    for c in ":d7d5".chars() {
        press(&mut app, c);
    }
    driver::press(&mut app, KeyCode::Enter);
    // The move counts as running until the screen takes it in.
    std::thread::sleep(qchess::ui::work::BUSY_AFTER);
    for (w, h) in [(80, 24), (80, 23), (60, 20), (120, 40)] {
        insta::assert_snapshot!(format!("busy_{w}x{h}"), steady(&screen(&mut app, w, h)));
    }
    app.finish_work();
}

#[test]
fn ascii_pieces() {
    let mut t = Terminal::new(TestBackend::new(80, 24)).expect("test terminal");
    let app = App::new(
        Game::standard(GameOptions::default()),
        Paint::new(Theme::default(), Tier::None),
        true,
    );
    t.draw(|f| {
        draw(f, &app);
    })
    .expect("draw");
    let s = t.backend().to_string();
    assert!(s.contains("r    n    b    q    k    b    n    r"), "{s}");
    assert!(!s.contains('♜'));
}

#[test]
fn colours_follow_the_tier() {
    use ratatui::style::Color;
    let cell_bg = |tier: Tier| {
        let app = App::new(
            Game::standard(GameOptions::default()),
            Paint::new(Theme::default(), tier),
            false,
        );
        let mut t = Terminal::new(TestBackend::new(80, 24)).expect("test terminal");
        t.draw(|f| {
            draw(f, &app);
        })
        .expect("draw");
        // a8 (top left square, compact layout): border 1 + rank label 2.
        t.backend().buffer()[(4, 1)].bg
    };
    assert_eq!(cell_bg(Tier::TrueColor), Color::Rgb(175, 135, 95));
    assert!(matches!(cell_bg(Tier::Ansi256), Color::Indexed(_)));
    assert_eq!(cell_bg(Tier::Ansi16), Color::Yellow);
    assert_eq!(cell_bg(Tier::None), Color::Reset);
}

#[test]
fn circuit_list_view() {
    let mut app = app_from(None, &["b1^a3c3", "d7d5", "c3xd5.m1"]);
    press(&mut app, 'c');
    press(&mut app, 'c');
    insta::assert_snapshot!("capture_list_80x24", screen(&mut app, 80, 24));
}

#[test]
fn a_move_explained_on_the_message_line_and_in_the_popup() {
    let mut app = app_from(None, &["b1^a3c3", "d7d5"]);
    for c in ":c3xd5".chars() {
        press(&mut app, c);
    }
    driver::press(&mut app, KeyCode::Enter);
    let said = app.message().text.clone();
    assert!(said.contains("on c3 (a 50% chance)"), "{said}");
    both("explained_message", &mut app);
    press(&mut app, 'e');
    both("explained_popup", &mut app);
    // Any key closes it.
    press(&mut app, 'x');
    assert!(app.explanation().is_none());
}

#[test]
fn a_king_in_reach_is_marked_and_a_move_into_reach_is_warned() {
    let mut app = app_from(Some("4r2k/8/8/8/8/8/8/4K3 w - - 0 1"), &[]);
    both("king_attacked", &mut app);
    for c in ":e1e2".chars() {
        press(&mut app, c);
    }
    driver::press(&mut app, KeyCode::Enter);
    assert_eq!(
        app.message().text,
        "white played e1e2. Careful: your king can be captured (100% by e8xe2)"
    );
}
