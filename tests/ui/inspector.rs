//! The inspector in the play screen: keys, what it computes (from the state it is given),
//! the heat map on the board, and snapshots with it open after a split.

use crate::support::driver::{goto, press, screen};
use crossterm::event::KeyCode;
use qchess::analyze::entanglement_map;
use qchess::chess::{Game, GameOptions, Square};
use qchess::quantum::bell::bell;
use qchess::style::color::{Paint, Tier};
use qchess::style::theme::Theme;
use qchess::ui::app::Mode;
use qchess::ui::layers::inspector::{heat_color, Inspector};
use qchess::ui::message::Tone;
use qchess::ui::{draw, App};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn game(moves: &[&str]) -> Game {
    let mut g = Game::standard(GameOptions {
        seed: 3,
        ..GameOptions::default()
    });
    for m in moves {
        g.play(m).expect("legal move");
    }
    g
}

fn app_with(moves: &[&str], tier: Tier) -> App {
    App::new(game(moves), Paint::new(Theme::default(), tier), false)
}

fn sq(s: &str) -> Square {
    Square::parse(s).expect("square")
}

/// After the split b1^a3c3: the inspector opened on a3, c3 picked.
fn inspecting_split(tier: Tier) -> App {
    let mut app = app_with(&["b1^a3c3"], tier);
    goto(&mut app, "a3");
    press(&mut app, KeyCode::Char('i'));
    goto(&mut app, "c3");
    press(&mut app, KeyCode::Enter);
    app
}

#[test]
fn keys_open_pick_and_leave() {
    let mut app = app_with(&["b1^a3c3"], Tier::None);
    goto(&mut app, "a3");
    press(&mut app, KeyCode::Char('i'));
    let ins = app.inspector().expect("open");
    assert_eq!(ins.first(), sq("a3"));
    assert_eq!(ins.second(), None);
    assert!(
        (ins.heat(sq("c3")) - 1.0).abs() < 1e-9,
        "a split pair is maximally entangled"
    );
    assert_eq!(ins.heat(sq("e2")), 0.0);
    // Enter on the first square again is refused in words.
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.message().tone, Tone::Error);
    assert!(app.message().text.contains("pick another"));
    // Moving the cursor does not change the pair; Enter picks the second square.
    goto(&mut app, "c3");
    assert_eq!(app.inspector().unwrap().second(), None);
    press(&mut app, KeyCode::Enter);
    let b = app.inspector().unwrap().bell().expect("picked").clone();
    assert!(
        (b.o[0] - 1.0).abs() < 1e-9,
        "a fresh split is Psi+: {:?}",
        b.o
    );
    assert!(b.same < 1e-9);
    assert_eq!(app.message().text, "Bell values of a3 and c3");
    // `i` also picks: the pair changes to (a3, b2).
    goto(&mut app, "b2");
    press(&mut app, KeyCode::Char('i'));
    assert_eq!(app.inspector().unwrap().second(), Some(sq("b2")));
    // Moves are refused while it is open, and no selection starts.
    press(&mut app, KeyCode::Char('s'));
    assert_eq!(app.message().tone, Tone::Error);
    assert_eq!(app.mode(), &Mode::Idle);
    // Esc leaves; Enter then selects pieces again.
    press(&mut app, KeyCode::Esc);
    assert!(app.inspector().is_none());
    goto(&mut app, "e7");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::Source { .. }));
}

#[test]
fn opening_drops_a_move_selection() {
    let mut app = app_with(&[], Tier::None);
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode(), Mode::Source { .. }));
    press(&mut app, KeyCode::Char('i'));
    assert_eq!(app.mode(), &Mode::Idle);
    assert_eq!(app.inspector().unwrap().first(), sq("e2"));
}

#[test]
fn the_inspector_follows_the_state_it_is_given() {
    // Computed from the game passed in: an earlier ply gives that ply's values.
    let earlier = game(&["b1^a3c3"]);
    let later = game(&["b1^a3c3", "g8f6", "a3c3^b1"]);
    let mut ins = Inspector::open(&later, sq("a3"));
    ins.pick(&later, sq("c3")).unwrap();
    assert_eq!(ins.heat(sq("c3")), 0.0, "merged back: nothing entangled");
    ins.refresh(&earlier);
    assert_eq!(ins.second(), Some(sq("c3")));
    let want = bell(
        earlier.simulator().backend(),
        sq("a3").0 as u16,
        sq("c3").0 as u16,
    );
    assert_eq!(ins.bell(), Some(&want));
    for (s, v) in entanglement_map(&earlier, sq("a3")) {
        assert_eq!(ins.heat(s), v);
    }
    // In the app, taking a move back refreshes the open inspector.
    let mut app = app_with(&["b1^a3c3", "g8f6", "a3c3^b1"], Tier::None);
    goto(&mut app, "a3");
    press(&mut app, KeyCode::Char('i'));
    assert_eq!(app.inspector().unwrap().heat(sq("c3")), 0.0);
    press(&mut app, KeyCode::Char('u'));
    press(&mut app, KeyCode::Char('u'));
    assert!((app.inspector().unwrap().heat(sq("c3")) - 1.0).abs() < 1e-9);
}

/// The top-left cell of a square on the compact board (border 1 + rank labels 2;
/// squares 5 wide; rank 8 on row 1).
fn cell_of(s: Square) -> (u16, u16) {
    (3 + 5 * s.file() as u16, 1 + (7 - s.rank()) as u16)
}

#[test]
fn the_heat_map_shades_the_board() {
    use ratatui::style::Color;
    let rgb = |c: qchess::style::theme::Rgb| Color::Rgb(c.0, c.1, c.2);
    let th = Theme::default();
    // Only the first square picked, the cursor elsewhere: c3 (entangled with a3) is
    // shaded at full heat and marked with the top shade; d4 keeps its colour.
    let mut app = app_with(&["b1^a3c3"], Tier::TrueColor);
    goto(&mut app, "a3");
    press(&mut app, KeyCode::Char('i'));
    goto(&mut app, "e2");
    let mut t = Terminal::new(TestBackend::new(80, 24)).expect("test terminal");
    t.draw(|f| {
        draw(f, &app);
    })
    .expect("draw");
    let buf = t.backend().buffer();
    let (x, y) = cell_of(sq("c3"));
    assert_eq!(
        buf[(x + 2, y)].bg,
        rgb(heat_color(&th, th.dark_square, 1.0))
    );
    assert_eq!(buf[(x, y)].symbol(), "█");
    let (x, y) = cell_of(sq("d4"));
    assert_eq!(buf[(x + 2, y)].bg, rgb(th.dark_square));
    assert_eq!(buf[(x, y)].symbol(), " ");
    // Picked squares are marked as selected instead.
    let picked = inspecting_split(Tier::TrueColor);
    let mut t = Terminal::new(TestBackend::new(80, 24)).expect("test terminal");
    t.draw(|f| {
        draw(f, &picked);
    })
    .expect("draw");
    let (x, y) = cell_of(sq("a3"));
    assert_eq!(t.backend().buffer()[(x, y)].symbol(), "<");
}

#[test]
fn help_lists_the_inspector_key() {
    let mut app = app_with(&[], Tier::None);
    press(&mut app, KeyCode::Char('?'));
    for (w, h) in [(80, 24), (120, 40)] {
        let s = screen(&mut app, w, h);
        assert!(s.contains("inspect: entanglement map"), "{s}");
        assert!(
            s.contains("( ) "),
            "the board legend still shows at {w}x{h}"
        );
    }
}

#[test]
fn snapshots_after_a_split() {
    let mut app = inspecting_split(Tier::None);
    insta::assert_snapshot!("inspector_split_80x24", screen(&mut app, 80, 24));
    insta::assert_snapshot!("inspector_split_120x40", screen(&mut app, 120, 40));
    let mut open = app_with(&["b1^a3c3"], Tier::None);
    goto(&mut open, "a3");
    press(&mut open, KeyCode::Char('i'));
    insta::assert_snapshot!("inspector_open_80x24", screen(&mut open, 80, 24));
}

#[test]
fn merge_advice_only_for_the_same_piece_on_both_squares() {
    // The split knight on a3 and c3: same type and colour, the merge reading shows.
    let mut app = inspecting_split(Tier::None);
    assert!(screen(&mut app, 120, 40).contains("merge:"));
    // The knight on a3 and a pawn, an empty square, a black knight: no merge advice.
    for second in ["b2", "a5", "b8"] {
        let mut app = app_with(&["b1^a3c3"], Tier::None);
        goto(&mut app, "a3");
        press(&mut app, KeyCode::Char('i'));
        goto(&mut app, second);
        press(&mut app, KeyCode::Enter);
        assert_eq!(app.inspector().and_then(|i| i.second()), Some(sq(second)));
        let shown = screen(&mut app, 120, 40);
        assert!(shown.contains("opposite share"), "{second}: {shown}");
        assert!(!shown.contains("merge:"), "{second}: {shown}");
    }
}

#[test]
fn a_cut_inspector_scrolls_at_60x20() {
    let mut app = inspecting_split(Tier::None);
    let first = screen(&mut app, 60, 20);
    assert!(first.contains("PgDn: more"), "{first}");
    assert!(
        !first.contains("heat"),
        "the compact pane cannot hold it all: {first}"
    );
    insta::assert_snapshot!("inspector_split_60x20", first.clone());
    // PgDn until the last line shows: every part of the pane is seen on the way.
    let mut seen = first;
    for _ in 0..10 {
        press(&mut app, KeyCode::PageDown);
        seen += &screen(&mut app, 60, 20);
    }
    let last = screen(&mut app, 60, 20);
    assert!(
        last.contains("PgUp: more") && last.contains("heat"),
        "{last}"
    );
    for part in [
        "O4 Psi-i",
        "O8 Phi-i",
        "opposite share",
        "merge:",
        "entanglement with a3",
    ] {
        assert!(seen.contains(part), "{part} never shown: {seen}");
    }
    // PgUp goes back to the top; at full size nothing is cut and the keys scroll the circuit.
    for _ in 0..10 {
        press(&mut app, KeyCode::PageUp);
    }
    assert!(screen(&mut app, 60, 20).contains("PgDn: more"));
    let full = screen(&mut app, 120, 40);
    assert!(!full.contains("more "), "{full}");
}
