//! Mouse-driven tests: moves, splits and merges by clicks and drags, the wheel over the
//! history and the circuit, clicks in the history, in every layout and on a flipped
//! board. Squares are found on the drawn screen and checked against what is drawn
//! there, so the tests fail if hit-testing and drawing disagree.

use crate::support::driver::press;
use crossterm::event::{Event, KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use qchess::chess::{Game, GameOptions, Square};
use qchess::style::color::{Paint, Tier};
use qchess::style::theme::Theme;
use qchess::ui::app::Mode;
use qchess::ui::input::mouse::Hits;
use qchess::ui::{draw, App};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::Terminal;

/// An app on a test terminal of `w` x `h`, redrawn after every event (as the event loop
/// does), so that clicks hit what is on screen.
struct Screen {
    app: App,
    term: Terminal<TestBackend>,
}

impl Screen {
    fn new(w: u16, h: u16) -> Screen {
        Screen::of(
            Game::standard(GameOptions {
                seed: 7,
                ..GameOptions::default()
            }),
            w,
            h,
        )
    }

    fn of(game: Game, w: u16, h: u16) -> Screen {
        let app = App::new(game, Paint::new(Theme::default(), Tier::None), false);
        let mut s = Screen {
            app,
            term: Terminal::new(TestBackend::new(w, h)).expect("test terminal"),
        };
        s.draw();
        s
    }

    fn draw(&mut self) {
        let app = &self.app;
        let mut drawn = None;
        self.term
            .draw(|f| drawn = Some(draw(f, app)))
            .expect("draw");
        self.app.took(drawn.expect("drawn"));
    }

    fn buffer(&self) -> &Buffer {
        self.term.backend().buffer()
    }

    fn event(&mut self, kind: MouseEventKind, (column, row): (u16, u16)) {
        self.app.handle_event(Event::Mouse(MouseEvent {
            kind,
            column,
            row,
            modifiers: KeyModifiers::NONE,
        }));
        self.draw();
    }

    fn key(&mut self, c: char) {
        press(&mut self.app, KeyCode::Char(c));
        self.draw();
    }

    fn click_at(&mut self, at: (u16, u16)) {
        self.event(MouseEventKind::Down(MouseButton::Left), at);
        self.event(MouseEventKind::Up(MouseButton::Left), at);
    }

    /// A screen cell of `sq`, checked against the drawing: the square's cells hold its
    /// piece's glyph (when there is one).
    fn cell(&self, sq: &str) -> (u16, u16) {
        let sq = Square::parse(sq).expect("square");
        let hits: Hits = self.app.hits();
        let board = hits.board.expect("a board on screen");
        let at = board.cell_of(sq);
        if let Some(p) = self.app.quantum().unwrap().state().piece(sq) {
            let glyph = qchess::ui::panes::glyphs::glyph(p, false).to_string();
            let (x0, y0) = (at.0 - board.cell.0 / 2, at.1 - board.cell.1 / 2);
            let found = (0..board.cell.1).any(|dy| {
                (0..board.cell.0).any(|dx| self.buffer()[(x0 + dx, y0 + dy)].symbol() == glyph)
            });
            assert!(found, "{sq} at {at:?} should show {glyph}");
        }
        at
    }

    fn click(&mut self, sq: &str) {
        let at = self.cell(sq);
        self.click_at(at);
    }

    fn last_played(&self) -> String {
        self.app
            .game()
            .history()
            .last()
            .map(|m| m.text.clone())
            .unwrap_or_default()
    }

    fn p(&self, sq: &str) -> f64 {
        self.app
            .quantum()
            .unwrap()
            .probability(Square::parse(sq).expect("square"))
    }
}

/// The hit box of each square is exactly where it is drawn: with the cursor on it, its
/// first and last cells hold the cursor's brackets, in every layout, flipped or not.
#[test]
fn hit_boxes_match_the_drawn_squares() {
    for (w, h) in ALL_SIZES {
        for flipped in [false, true] {
            let mut s = Screen::new(w, h);
            if flipped {
                s.key('f');
            }
            for name in ["a1", "h1", "a8", "h8", "d4", "e5", "b7"] {
                let sq = Square::parse(name).expect("square");
                s.click(name); // the cursor goes there
                assert_eq!(s.app.cursor(), sq);
                s.event(MouseEventKind::Down(MouseButton::Right), (0, 0));
                edges_match(&s, sq, &format!("{name} {w}x{h} flipped {flipped}"));
            }
        }
    }
}

/// With the cursor on `sq`, the first and last cells of its hit box hold the cursor's
/// brackets, and the cells beside the box belong to other squares.
fn edges_match(s: &Screen, sq: Square, at: &str) {
    assert_eq!(s.app.cursor(), sq, "{at}");
    let board = s.app.hits().board.expect("board");
    let (cx, cy) = board.cell_of(sq);
    let (x0, y0) = (cx - board.cell.0 / 2, cy - board.cell.1 / 2);
    let mid = y0 + board.cell.1 / 2;
    let shown = |x: u16| s.buffer()[(x, mid)].symbol().to_string();
    let last = x0 + board.cell.0 - 1;
    assert_eq!((shown(x0), shown(last)), ("[".into(), "]".into()), "{at}");
    for dy in 0..board.cell.1 {
        for x in [x0, last] {
            assert_eq!(board.square_at(x, y0 + dy), Some(sq), "{at}");
        }
    }
    assert_ne!(board.square_at(x0 - 1, mid), Some(sq), "{at}");
    assert_ne!(board.square_at(last + 1, mid), Some(sq), "{at}");
}

/// A message of two rows (three at 60 columns) takes rows from the panes: the hit
/// boxes follow the board as drawn then, and a click lands on the square under it.
#[test]
fn hit_boxes_follow_a_two_row_message() {
    for (w, h) in ALL_SIZES {
        let mut s = Screen::new(w, h);
        let rows = |s: &Screen| qchess::ui::panes::screen::message_lines(&s.app, w).len();
        let before = s.app.hits();
        // The rook on a1 cannot split at the start: the reason takes two rows.
        for c in "hhhhjs".chars() {
            s.key(c);
        }
        assert_eq!(*s.app.mode(), Mode::Arm { merge: false });
        let want = if w < 80 { 3 } else { 2 };
        assert_eq!(rows(&s), want, "{w}x{h}: {}", s.app.message().text);
        if rows(&Screen::new(w, h)) == 1 {
            assert_ne!(
                s.app.hits(),
                before,
                "{w}x{h}: a pane gave a row to the message"
            );
        }
        // The cursor keys leave the message as it is.
        for name in ["a1", "h1", "a8", "h8", "d4", "e5", "b7"] {
            let sq = Square::parse(name).expect("square");
            while s.app.cursor() != sq {
                let c = s.app.cursor();
                let key = match (sq.file() - c.file(), sq.rank() - c.rank()) {
                    (df, _) if df > 0 => 'l',
                    (df, _) if df < 0 => 'h',
                    (_, dr) if dr > 0 => 'k',
                    _ => 'j',
                };
                s.key(key);
            }
            assert_eq!(rows(&s), want, "{w}x{h}");
            edges_match(&s, sq, &format!("{name} {w}x{h}, {want} message rows"));
        }
        // A click picks the knight to split, then its two targets.
        s.click("b1");
        assert!(matches!(s.app.mode(), Mode::SplitFirst { .. }), "{w}x{h}");
        s.click("a3");
        s.click("c3");
        assert_eq!(s.last_played(), "b1^a3c3", "{w}x{h}");
    }
}

/// The sizes of both layouts.
const SIZES: [(u16, u16); 2] = [(80, 24), (120, 40)];

/// Every arrangement: the compact one (60x20, 80x23) too.
const ALL_SIZES: [(u16, u16); 4] = [(60, 20), (80, 23), (80, 24), (120, 40)];

#[test]
fn clicks_play_moves_splits_and_merges_in_every_layout() {
    for (w, h) in ALL_SIZES {
        for flipped in [false, true] {
            let mut s = Screen::new(w, h);
            if flipped {
                s.key('f');
            }
            let at = format!("{w}x{h} flipped {flipped}");
            // Piece, then target.
            s.click("e2");
            assert!(matches!(s.app.mode(), Mode::Source { .. }), "{at}");
            s.click("e4");
            assert_eq!(s.last_played(), "e2e4", "{at}");
            s.click("e7");
            s.click("e5");
            assert_eq!(s.last_played(), "e7e5", "{at}");
            // The right button cancels a selection.
            s.click("g1");
            assert!(matches!(s.app.mode(), Mode::Source { .. }), "{at}");
            s.event(MouseEventKind::Down(MouseButton::Right), (0, 0));
            assert_eq!(*s.app.mode(), Mode::Idle, "{at}");
            // Split: the piece, s, then two targets.
            s.click("g1");
            s.key('s');
            assert!(matches!(s.app.mode(), Mode::SplitFirst { .. }), "{at}");
            s.click("f3");
            s.click("h3");
            assert_eq!(s.last_played(), "g1^f3h3", "{at}");
            assert!((s.p("f3") - 0.5).abs() < 1e-9, "{at}");
            s.click("b8");
            s.click("c6");
            // Merge: m on the first source, then the second source and the target.
            s.click("f3");
            s.key('m');
            assert!(matches!(s.app.mode(), Mode::MergeSecond { .. }), "{at}");
            s.click("h3");
            s.click("g1");
            assert_eq!(s.last_played(), "f3h3^g1", "{at}");
            assert!((s.p("g1") - 1.0).abs() < 1e-9, "{at}");
        }
    }
}

#[test]
fn s_then_three_clicks_split_and_m_then_three_clicks_merge() {
    for (w, h) in ALL_SIZES {
        let mut s = Screen::new(w, h);
        // The cursor is on e2 (a pawn): s waits for the piece to split.
        s.key('s');
        assert_eq!(*s.app.mode(), Mode::Arm { merge: false });
        s.click("e2");
        assert_eq!(
            *s.app.mode(),
            Mode::Arm { merge: false },
            "a pawn cannot split"
        );
        s.click("b1");
        s.click("a3");
        s.click("c3");
        assert_eq!(s.last_played(), "b1^a3c3");
        s.click("g8");
        s.click("f6");
        s.click("e2");
        s.key('m');
        assert_eq!(*s.app.mode(), Mode::Arm { merge: true });
        s.click("a3");
        s.click("c3");
        s.click("b1");
        assert_eq!(s.last_played(), "a3c3^b1");
        assert!((s.p("b1") - 1.0).abs() < 1e-9);
    }
}

#[test]
fn a_drag_plays_a_move_and_a_refused_target_keeps_the_piece() {
    let mut s = Screen::new(80, 24);
    let (from, to) = (s.cell("g1"), s.cell("f3"));
    s.event(MouseEventKind::Down(MouseButton::Left), from);
    s.event(MouseEventKind::Drag(MouseButton::Left), to);
    s.event(MouseEventKind::Up(MouseButton::Left), to);
    assert_eq!(s.last_played(), "g1f3");
    s.click("b8");
    s.click("b4");
    assert_eq!(s.app.game().ply(), 1, "b8b4 is refused");
    assert!(
        matches!(s.app.mode(), Mode::Source { from, .. } if from.to_string() == "b8"),
        "{:?}",
        s.app.mode()
    );
    s.click("c6");
    assert_eq!(s.last_played(), "b8c6");
}

#[test]
fn a_click_on_a_square_that_cannot_move_only_moves_the_cursor() {
    let mut s = Screen::new(80, 24);
    s.click("e5");
    assert_eq!(s.app.cursor().to_string(), "e5");
    assert_eq!(*s.app.mode(), Mode::Idle);
    assert_eq!(s.app.message().text, "there is no piece on e5");
    s.click("d7");
    assert_eq!(*s.app.mode(), Mode::Idle, "black's pawn, white to move");
}

#[test]
fn the_wheel_and_clicks_in_the_history() {
    for (w, h) in ALL_SIZES {
        let mut s = Screen::new(w, h);
        for (a, b) in [("e2", "e4"), ("e7", "e5"), ("g1", "f3")] {
            s.click(a);
            s.click(b);
        }
        assert_eq!(s.app.shown_move(), Some(2));
        let hits = s.app.hits();
        let hist = hits.history.clone().expect("history on screen");
        let row_of = |i: usize| {
            let r = hist
                .rows
                .iter()
                .position(|m| *m == Some(i))
                .expect("move row");
            (hist.area.x + 1, hist.area.y + r as u16)
        };
        // The row of move 1 shows it.
        let (x, y) = row_of(0);
        let text: String = (hist.area.x..hist.area.right())
            .map(|c| s.buffer()[(c, y)].symbol().to_string())
            .collect();
        assert!(text.starts_with("1. e4"), "{text}");
        s.click_at((x, y));
        assert_eq!(s.app.shown_move(), Some(0), "{w}x{h}");
        s.event(MouseEventKind::ScrollDown, row_of(1));
        assert_eq!(s.app.shown_move(), Some(1), "{w}x{h}");
        s.event(MouseEventKind::ScrollUp, row_of(1));
        assert_eq!(s.app.shown_move(), Some(0), "{w}x{h}");
        // The wheel over the circuit scrolls it, not the history (the compact
        // arrangement may show the probabilities there instead).
        if SIZES.contains(&(w, h)) {
            assert!(hits.circuit.is_some(), "{w}x{h}: circuit on screen");
        }
        if let Some(c) = hits.circuit {
            s.event(MouseEventKind::ScrollDown, (c.x + 2, c.y + 2));
            assert_eq!(s.app.shown_move(), Some(0));
        }
    }
}

#[test]
fn the_wheel_scrolls_a_long_circuit() {
    let mut game = Game::standard(GameOptions {
        seed: 3,
        ..GameOptions::default()
    });
    for m in ["b1^a3c3", "d7d5", "c3xd5"] {
        game.play(m).expect("legal");
    }
    let mut s = Screen::of(game, 80, 24);
    let c = s.app.hits().circuit.expect("circuit");
    let before = s.buffer().clone();
    s.event(MouseEventKind::ScrollDown, (c.x + 2, c.y + 2));
    assert_ne!(*s.buffer(), before, "the circuit scrolled");
    s.event(MouseEventKind::ScrollUp, (c.x + 2, c.y + 2));
    assert_eq!(*s.buffer(), before, "and back");
}

#[test]
fn no_clicks_while_the_terminal_is_too_small_or_a_question_is_up() {
    let mut s = Screen::new(50, 15);
    assert_eq!(s.app.hits(), Hits::default());
    s.click_at((10, 5));
    assert_eq!(*s.app.mode(), Mode::Idle);

    let mut s = Screen::new(80, 24);
    s.click("e2");
    s.click("e4");
    s.key('q');
    assert!(s.app.question().is_some());
    s.click("e7");
    assert!(s.app.question().is_some());
    assert_eq!(*s.app.mode(), Mode::Idle);
}

mod variants {
    use super::*;
    use qchess::game::{RuleSet, Setup};
    use qchess::ui::app::Mode;
    use qchess::ui::layers::question::Question;
    use qchess::variants::new_game;

    fn variant(rules: RuleSet) -> App {
        App::new(
            new_game(&Setup::with_start(rules, None, 7)).expect("starts"),
            Paint::new(Theme::default(), Tier::None),
            false,
        )
    }

    fn redraw(a: &mut App, t: &mut Terminal<TestBackend>) {
        let mut drawn = None;
        t.draw(|f| drawn = Some(qchess::ui::draw(f, a)))
            .expect("draw");
        a.took(drawn.expect("drawn"));
    }

    fn click(a: &mut App, t: &mut Terminal<TestBackend>, sq: &str) {
        let sq = Square::parse(sq).expect("square");
        let at = a.hits().board.expect("board").cell_of(sq);
        for kind in [
            MouseEventKind::Down(MouseButton::Left),
            MouseEventKind::Up(MouseButton::Left),
        ] {
            a.handle_event(Event::Mouse(MouseEvent {
                kind,
                column: at.0,
                row: at.1,
                modifiers: KeyModifiers::NONE,
            }));
            redraw(a, t);
        }
    }

    fn texts(a: &App) -> Vec<String> {
        a.game().history().iter().map(|r| r.text.clone()).collect()
    }

    #[test]
    fn harmonics_and_haft_by_clicks() {
        for (w, h) in SIZES {
            let mut t = Terminal::new(TestBackend::new(w, h)).expect("test terminal");
            let mut a = variant(RuleSet::Harmonics);
            redraw(&mut a, &mut t);
            // A quantum move: the piece, t, the target.
            click(&mut a, &mut t, "b1");
            press(&mut a, KeyCode::Char('t'));
            redraw(&mut a, &mut t);
            assert!(matches!(a.mode(), Mode::Moves { quantum: true, .. }));
            click(&mut a, &mut t, "c3");
            click(&mut a, &mut t, "e7");
            click(&mut a, &mut t, "e5");
            assert_eq!(texts(&a), vec!["b1~c3", "e7e5"], "{w}x{h}");
            // q asks here too.
            press(&mut a, KeyCode::Char('q'));
            assert_eq!(a.question(), Some(&Question::Quit));

            let mut a = variant(RuleSet::Haft);
            redraw(&mut a, &mut t);
            click(&mut a, &mut t, "g1");
            click(&mut a, &mut t, "f3");
            assert_eq!(texts(&a), vec!["g1f3"], "{w}x{h}");
        }
    }
}
