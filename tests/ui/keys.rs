//! Key-driven tests: short games played through the app's input handling.

use crate::support::driver::{goto, keys, press, typed};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use qchess::chess::{Game, GameOptions, Square, Status};
use qchess::style::color::{Paint, Tier};
use qchess::style::theme::Theme;
use qchess::ui::app::Mode;
use qchess::ui::layers::question::Question;
use qchess::ui::layers::typed_line::Purpose;
use qchess::ui::message::Tone;
use qchess::ui::App;

fn app_from(fen: Option<&str>) -> App {
    app_seeded(fen, 7)
}

fn app_seeded(fen: Option<&str>, seed: u64) -> App {
    let opts = GameOptions {
        seed,
        ..GameOptions::default()
    };
    let game = match fen {
        Some(f) => Game::from_fen(f, opts).expect("valid FEN"),
        None => Game::standard(opts),
    };
    App::new(game, Paint::new(Theme::default(), Tier::None), false)
}

/// Picks `from` then `to` with Enter.
fn standard(app: &mut App, from: &str, to: &str) {
    goto(app, from);
    press(app, KeyCode::Enter);
    goto(app, to);
    press(app, KeyCode::Enter);
}

fn p(app: &App, sq: &str) -> f64 {
    app.quantum()
        .unwrap()
        .probability(Square::parse(sq).expect("square"))
}

fn last_played(app: &App) -> String {
    app.game()
        .history()
        .last()
        .map(|m| m.text.clone())
        .unwrap_or_default()
}

#[test]
fn split_then_merge_by_keys() {
    let mut app = app_from(None);
    goto(&mut app, "b1");
    keys(&mut app, "s");
    assert!(matches!(app.mode(), Mode::SplitFirst { .. }));
    goto(&mut app, "a3");
    press(&mut app, KeyCode::Enter);
    goto(&mut app, "c3");
    press(&mut app, KeyCode::Enter);
    assert_eq!(last_played(&app), "b1^a3c3");
    assert!((p(&app, "a3") - 0.5).abs() < 1e-9);
    assert!((p(&app, "c3") - 0.5).abs() < 1e-9);
    assert_eq!(
        app.message().text,
        "white played b1^a3c3: the knight is now on a3 50%, c3 50%"
    );

    standard(&mut app, "g8", "f6");
    assert_eq!(last_played(&app), "g8f6");

    goto(&mut app, "a3");
    keys(&mut app, "m");
    assert!(matches!(app.mode(), Mode::MergeSecond { .. }));
    goto(&mut app, "c3");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::MergeTarget { .. }));
    goto(&mut app, "b1");
    press(&mut app, KeyCode::Enter);
    assert_eq!(last_played(&app), "a3c3^b1");
    assert!((p(&app, "b1") - 1.0).abs() < 1e-9);
    assert!(p(&app, "a3") < 1e-9);
    assert_eq!(app.quantum().unwrap().branch_count(), 1);
}

#[test]
fn excluded_move_is_told_in_words() {
    // Seed 2 draws outcome 0 for the measurement of c3.
    let mut app = app_seeded(None, 2);
    typed(&mut app, "b1^a3c3");
    typed(&mut app, "g8f6");
    typed(&mut app, "c2c3");
    assert_eq!(last_played(&app), "c2wc3.m0");
    let msg = app.message();
    assert_eq!(msg.tone, Tone::Info);
    assert!(
        msg.text
            .contains("c3 was occupied (a 50% chance): the move did not happen"),
        "{}",
        msg.text
    );
    // The stopped move still used white's turn.
    assert_eq!(app.game().to_move().name(), "black");
    assert!((p(&app, "c2") - 1.0).abs() < 1e-9);
    assert!((p(&app, "c3") - 1.0).abs() < 1e-9);
}

#[test]
fn capture_by_keys_records_the_measurement() {
    let mut app = app_from(None);
    typed(&mut app, "b1^a3c3");
    typed(&mut app, "d7d5");
    standard(&mut app, "c3", "d5");
    let played = last_played(&app);
    assert!(played.starts_with("c3xd5.m"), "{played}");
    let m = app.quantum().unwrap().history().last().expect("a move");
    assert_eq!(m.p1.map(|x| (x * 100.0).round()), Some(50.0));
    assert!(
        app.message().text.contains("on c3 (a 50% chance)"),
        "{}",
        app.message().text
    );
    assert!(
        app.message().text.contains("50% chance"),
        "{}",
        app.message().text
    );
    // The circuit of the capture has an ancilla.
    assert!(m
        .ops
        .iter()
        .any(|o| matches!(o, qchess::quantum::Op::Alloc { .. })));
}

#[test]
fn undo_restores_the_position_exactly() {
    let mut app = app_from(None);
    typed(&mut app, "b1^a3c3");
    typed(&mut app, "d7d5");
    let before_fen = app.quantum().unwrap().fen();
    let before: Vec<f64> = Square::all()
        .map(|s| app.quantum().unwrap().probability(s))
        .collect();
    typed(&mut app, "c3xd5");
    assert_eq!(app.game().ply(), 3);
    keys(&mut app, "u");
    assert_eq!(app.game().ply(), 2);
    assert_eq!(app.quantum().unwrap().fen(), before_fen);
    let after: Vec<f64> = Square::all()
        .map(|s| app.quantum().unwrap().probability(s))
        .collect();
    assert_eq!(before, after);
    assert!(app.message().text.starts_with("took back c3xd5"));
    keys(&mut app, "uu");
    assert_eq!(app.game().ply(), 0);
    keys(&mut app, "u");
    assert_eq!(app.message().text, "there is no move to take back");
    assert_eq!(app.message().tone, Tone::Error);
}

#[test]
fn illegal_input_is_explained_in_the_message_line() {
    let mut app = app_from(None);
    standard(&mut app, "b1", "b4");
    assert_eq!(app.message().tone, Tone::Error);
    assert_eq!(app.message().text, "b1b4: the knight on b1 cannot reach b4");
    assert_eq!(app.game().ply(), 0);
    // The refused target keeps the knight selected: another target plays.
    assert!(
        matches!(app.mode(), Mode::Source { from, .. } if from.to_string() == "b1"),
        "{:?}",
        app.mode()
    );
    press(&mut app, KeyCode::Esc);

    goto(&mut app, "e7");
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        app.message().text,
        "the black pawn on e7 is not yours: it is white's turn"
    );

    goto(&mut app, "e4");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.message().text, "there is no piece on e4");

    goto(&mut app, "e2");
    keys(&mut app, "s");
    assert_eq!(
        app.message().text,
        "pawns cannot split or merge; pick another piece to split"
    );
    press(&mut app, KeyCode::Esc);

    keys(&mut app, "x");
    assert!(app.message().text.contains("does nothing"));

    // A typed move with an error closes the line, keeping the message; the next `:`
    // starts clean, and Up brings the refused text back to fix it.
    typed(&mut app, "e2e5");
    assert_eq!(app.message().text, "e2e5: the pawn on e2 cannot reach e5");
    assert!(matches!(app.mode(), Mode::Idle));
    keys(&mut app, ":");
    assert!(app.typed_line().is_some_and(|t| t.line().text().is_empty()));
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Backspace);
    keys(&mut app, "4");
    press(&mut app, KeyCode::Enter);
    assert_eq!(last_played(&app), "e2e4");
    assert!(app.typed_line().is_none());

    typed(&mut app, "hello");
    assert!(
        app.message().text.contains("is not a move"),
        "{}",
        app.message().text
    );
    assert!(matches!(app.mode(), Mode::Idle));
}

#[test]
fn standard_algebraic_notation_plays_the_move_it_names() {
    let mut app = app_from(None);
    typed(&mut app, "Nf3");
    assert_eq!(last_played(&app), "g1f3");
    assert_eq!(app.message().text, "white played g1f3");
    typed(&mut app, "e6");
    assert_eq!(last_played(&app), "e7e6");
    // A knight in superposition may move from either square: SAN alone is ambiguous,
    // and the refusal says how it was read and what fits.
    typed(&mut app, "b1^a3c3");
    typed(&mut app, "d5");
    typed(&mut app, "Nb5+");
    assert_eq!(app.message().tone, Tone::Error);
    assert_eq!(
        app.message().text,
        "Nb5+ (read as a knight move to b5) fits 2 moves: a3b5, c3b5; name the source \
         square or type the move in squares"
    );
    assert_eq!(app.game().ply(), 4);
    typed(&mut app, "Nab5");
    assert_eq!(last_played(&app), "a3b5");
    typed(&mut app, "Ke2");
    assert_eq!(
        app.message().text,
        "Ke2 (read as a king move to e2): no king of black can make it"
    );
}

#[test]
fn typed_outcomes_are_refused_in_a_game() {
    let mut app = app_from(None);
    typed(&mut app, "b1^a3c3");
    typed(&mut app, "d7d5");
    typed(&mut app, "c3xd5.m1");
    assert_eq!(app.game().ply(), 2, "nothing was played");
    assert_eq!(app.message().tone, Tone::Error);
    assert_eq!(
        app.message().text,
        "c3xd5.m1: outcomes are drawn at random; type it without .m1"
    );
    assert!(matches!(app.mode(), Mode::Idle));
    typed(&mut app, "c3xd5");
    assert!(last_played(&app).starts_with("c3xd5.m"));
}

#[test]
fn analysis_games_keep_forcing_outcomes() {
    let opts = GameOptions {
        seed: 7,
        free_turns: true,
        ..GameOptions::default()
    };
    let mut app = App::new(
        Game::standard(opts),
        Paint::new(Theme::default(), Tier::None),
        false,
    );
    typed(&mut app, "b1^a3c3");
    typed(&mut app, "c2c3.m0");
    assert_eq!(last_played(&app), "c2wc3.m0");
}

#[test]
fn q_typed_on_the_move_line_is_text() {
    let mut app = app_from(None);
    typed(&mut app, "e2e4");
    keys(&mut app, ":q");
    assert!(!app.should_quit());
    assert!(app.question().is_none());
    assert!(app.typed_line().is_some_and(|t| t.line().text() == "q"));
}

#[test]
fn the_typed_line_takes_its_keys_and_paste_and_esc_closes_it_first() {
    let mut app = app_from(None);
    keys(&mut app, ":e2");
    app.handle_event(crossterm::event::Event::Paste("e4".into()));
    assert!(app.typed_line().is_some_and(|t| t.line().text() == "e2e4"));
    press(&mut app, KeyCode::Esc);
    assert!(app.typed_line().is_none());
    assert_eq!(app.message().text, "cancelled");
    assert_eq!(app.game().ply(), 0);
    // The save line opened over the inspector: Esc closes the line, then the inspector.
    keys(&mut app, "i");
    assert!(app.inspector().is_some());
    keys(&mut app, "w");
    assert_eq!(
        app.typed_line().map(|t| t.purpose()),
        Some(Purpose::SavePath)
    );
    press(&mut app, KeyCode::Esc);
    assert!(app.typed_line().is_none() && app.inspector().is_some());
    press(&mut app, KeyCode::Esc);
    assert!(app.inspector().is_none());
}

#[test]
fn line_editing_keys_on_the_move_line() {
    let mut app = app_from(None);
    keys(&mut app, ":x2e5");
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Delete);
    keys(&mut app, "4");
    let ctrl = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
    app.handle_key(ctrl('a'));
    press(&mut app, KeyCode::Delete);
    keys(&mut app, "e");
    assert!(app
        .typed_line()
        .is_some_and(|t| t.line().text() == "e2e4" && t.line().cursor() == 1));
    app.handle_key(ctrl('e'));
    keys(&mut app, "5");
    press(&mut app, KeyCode::Backspace);
    press(&mut app, KeyCode::Enter);
    assert_eq!(last_played(&app), "e2e4");
    keys(&mut app, ":g8 f6");
    app.handle_key(ctrl('w'));
    assert!(app.typed_line().is_some_and(|t| t.line().text() == "g8 "));
    app.handle_key(ctrl('u'));
    assert!(app.typed_line().is_some_and(|t| t.line().text().is_empty()));
    keys(&mut app, "g8f6");
    press(&mut app, KeyCode::Enter);
    assert_eq!(last_played(&app), "g8f6");
}

#[test]
fn q_asks_during_a_game_and_a_second_q_leaves() {
    let mut app = app_from(None);
    // No move yet: nothing to lose, q leaves at once.
    keys(&mut app, "q");
    assert!(app.should_quit());

    let mut app = app_from(None);
    typed(&mut app, "e2e4");
    keys(&mut app, "q");
    assert!(!app.should_quit());
    assert_eq!(app.question(), Some(&Question::Quit));
    // Without autosave the line says that the game is not saved (with it, it names the
    // file: tests/ui/flow.rs).
    assert_eq!(
        app.message().text,
        "Quit? y or q leaves, n stays, w saves: not saved (autosave is off)"
    );
    // Keys that do not answer leave the question up; n stays.
    keys(&mut app, "x");
    assert_eq!(app.question(), Some(&Question::Quit));
    keys(&mut app, "n");
    assert!(app.question().is_none());
    assert!(!app.should_quit());
    keys(&mut app, "qy");
    assert!(app.should_quit());

    let mut app = app_from(None);
    typed(&mut app, "e2e4");
    keys(&mut app, "qq");
    assert!(app.should_quit());

    // Ctrl-C leaves at once.
    let mut app = app_from(None);
    typed(&mut app, "e2e4");
    app.handle_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert!(app.should_quit());

    // w in the question opens the save line.
    let mut app = app_from(None);
    typed(&mut app, "e2e4");
    keys(&mut app, "qw");
    assert_eq!(
        app.typed_line().map(|t| t.purpose()),
        Some(Purpose::SavePath)
    );
}

#[test]
fn split_target_refusal_says_why() {
    let mut app = app_from(None);
    goto(&mut app, "b1");
    keys(&mut app, "s");
    goto(&mut app, "d2");
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        app.message().text,
        "d2 is certainly occupied by a white pawn"
    );
    assert!(matches!(app.mode(), Mode::SplitFirst { .. }));
    press(&mut app, KeyCode::Esc);
    assert!(matches!(app.mode(), Mode::Idle));
}

#[test]
fn promotion_asks_for_the_piece() {
    let mut app = app_from(Some("4k3/P7/8/8/8/8/8/4K3 w - - 0 1"));
    standard(&mut app, "a7", "a8");
    assert!(matches!(app.mode(), Mode::Promotion { .. }));
    keys(&mut app, "k");
    assert_eq!(app.message().tone, Tone::Error);
    keys(&mut app, "n");
    assert_eq!(last_played(&app), "a7a8n");
    let piece = app
        .quantum()
        .unwrap()
        .state()
        .piece(Square::parse("a8").expect("a8"));
    assert_eq!(piece.map(|p| p.fen_char()), Some('N'));
}

#[test]
fn game_over_popup_and_new_game() {
    let mut app = app_from(Some("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"));
    keys(&mut app, "n");
    assert_eq!(app.message().tone, Tone::Error);
    typed(&mut app, "e7e8");
    assert_eq!(app.game().status(), Status::WhiteWins);
    assert!(app.game_over_shown());
    press(&mut app, KeyCode::Esc);
    assert!(!app.game_over_shown());
    keys(&mut app, "n");
    assert_eq!(app.game().ply(), 0);
    assert_eq!(app.game().status(), Status::Ongoing);
    keys(&mut app, "q");
    assert!(app.should_quit());
}

#[test]
fn help_opens_and_any_key_closes_it() {
    let mut app = app_from(None);
    keys(&mut app, "?");
    assert!(app.help_shown());
    keys(&mut app, "q");
    assert!(!app.help_shown());
    assert!(!app.should_quit());
}

#[test]
fn flipped_board_turns_the_cursor_keys_around() {
    let mut app = app_from(None);
    let start = app.cursor();
    keys(&mut app, "fk");
    assert_eq!(app.cursor(), Square(start.0 - 8));
}

mod random_keys {
    use super::*;
    use proptest::prelude::*;
    use qchess::ui::draw;
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;

    const KEYS: &[KeyCode] = &[
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Enter,
        KeyCode::Esc,
        KeyCode::Backspace,
        KeyCode::PageUp,
        KeyCode::PageDown,
        KeyCode::Char('s'),
        KeyCode::Char('m'),
        KeyCode::Char('u'),
        KeyCode::Char('f'),
        KeyCode::Char('['),
        KeyCode::Char(']'),
        KeyCode::Char('<'),
        KeyCode::Char('>'),
        KeyCode::Char('c'),
        KeyCode::Char(':'),
        KeyCode::Char('e'),
        KeyCode::Char('2'),
        KeyCode::Char('4'),
        KeyCode::Char('n'),
        KeyCode::Char('?'),
        KeyCode::Char('x'),
    ];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// Any key sequence leaves a drawable app with a consistent game.
        #[test]
        fn any_keys_keep_the_app_sound(seq in proptest::collection::vec(0..KEYS.len(), 1..80)) {
            let mut app = app_from(None);
            let mut term = Terminal::new(TestBackend::new(80, 24)).expect("test terminal");
            for i in seq {
                press(&mut app, KEYS[i]);
                if app.should_quit() {
                    break;
                }
                term.draw(|f| {
        draw(f, &app);
    }).expect("draw");
                let total: f64 = Square::all().map(|s| app.quantum().unwrap().probability(s)).sum();
                prop_assert!(total <= 32.0 + 1e-9);
                prop_assert_eq!(app.game().ply(), app.game().history().len());
            }
        }
    }
}
