//! The tests' driver of the screens: keys as a player presses them, the board cursor
//! moved with hjkl, and the screen drawn as text. It works on any [`Screen`] (the game,
//! the Skat lab), through the events the terminal gives.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use qchess::chess::Square;
use qchess::ui::{App, Screen};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

/// Presses the key `code` with no modifier.
pub fn press(s: &mut impl Screen, code: KeyCode) {
    s.handle_event(Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

/// Presses the characters of `text` one by one.
pub fn keys(s: &mut impl Screen, text: &str) {
    for c in text.chars() {
        press(s, KeyCode::Char(c));
    }
}

/// Types `line` on the command line: `:`, the line, Enter.
pub fn typed(s: &mut impl Screen, line: &str) {
    keys(s, ":");
    keys(s, line);
    press(s, KeyCode::Enter);
}

/// The screen drawn on a `w`x`h` terminal, as text.
pub fn screen(s: &mut impl Screen, w: u16, h: u16) -> String {
    terminal(s, w, h).backend().to_string()
}

/// The text of the right-hand column of panes in a drawn `screen` (what stands right of
/// the last `││`), its lines joined by single spaces, so that a line the pane wrapped
/// reads whole.
pub fn right_column(screen: &str) -> String {
    let parts: Vec<&str> = screen
        .lines()
        .filter_map(|l| l.trim_matches('"').rsplit_once("││").map(|(_, r)| r))
        .map(|r| r.trim_end_matches('│').trim())
        .filter(|r| !r.is_empty())
        .collect();
    parts.join(" ")
}

/// A `w`x`h` test terminal with the screen drawn on it.
pub fn terminal(s: &mut impl Screen, w: u16, h: u16) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("test terminal");
    t.draw(|f| s.draw(f)).expect("draw");
    t
}

/// A screen with a cursor on a board.
pub trait Cursor: Screen {
    /// The square under the cursor.
    fn cursor(&self) -> Square;
}

impl Cursor for App {
    fn cursor(&self) -> Square {
        App::cursor(self)
    }
}

/// Moves the cursor to `sq` with hjkl.
pub fn goto(s: &mut impl Cursor, sq: &str) {
    let to = Square::parse(sq).expect("square");
    for _ in 0..16 {
        let c = s.cursor();
        let key = if c.file() < to.file() {
            'l'
        } else if c.file() > to.file() {
            'h'
        } else if c.rank() < to.rank() {
            'k'
        } else if c.rank() > to.rank() {
            'j'
        } else {
            return;
        };
        press(s, KeyCode::Char(key));
    }
    assert_eq!(s.cursor(), to);
}
