//! The lab's key map. The help is generated from [`KEYMAP`], so the two cannot
//! disagree.

use crate::ui::input::{press, Press};
use crossterm::event::{KeyCode, KeyEvent};

/// Lines moved by PgUp and PgDn.
pub const PAGE: i32 = 10;

/// Something the player asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// The previous (-1) or next (+1) card I could lead; in the toy, the phase.
    Card(i32),
    /// Move in the focused pane by this many lines: the distribution (toy: the branch)
    /// in the probabilities pane, the scroll position elsewhere.
    Row(i32),
    /// To the first line of the focused pane.
    First,
    /// To the last line of the focused pane.
    Last,
    /// Focus the next pane.
    FocusNext,
    /// Focus the previous pane.
    FocusPrev,
    /// Show the next endgame.
    NextEntry,
    /// Show the previous endgame.
    PrevEntry,
    /// Show endgame number n (0-based).
    Entry(usize),
    /// Show or hide the help.
    Help,
    /// Close the help.
    Cancel,
    /// Leave the lab.
    Quit,
}

/// One entry of the lab's key map.
pub type Binding = crate::ui::input::Binding<Action>;

const DIGITS: [KeyCode; 9] = [
    KeyCode::Char('1'),
    KeyCode::Char('2'),
    KeyCode::Char('3'),
    KeyCode::Char('4'),
    KeyCode::Char('5'),
    KeyCode::Char('6'),
    KeyCode::Char('7'),
    KeyCode::Char('8'),
    KeyCode::Char('9'),
];

/// The key map, in the order the help lists it.
pub const KEYMAP: &[Binding] = &[
    Binding {
        keys: &[KeyCode::Left, KeyCode::Char('h')],
        label: "← h",
        action: Action::Card(-1),
        help: "previous card to lead (toy: previous phase)",
    },
    Binding {
        keys: &[KeyCode::Right, KeyCode::Char('l')],
        label: "→ l",
        action: Action::Card(1),
        help: "next card to lead (toy: next phase)",
    },
    Binding {
        keys: &[KeyCode::Up, KeyCode::Char('k')],
        label: "↑ k",
        action: Action::Row(-1),
        help: "previous distribution (toy: branch) or scroll up",
    },
    Binding {
        keys: &[KeyCode::Down, KeyCode::Char('j')],
        label: "↓ j",
        action: Action::Row(1),
        help: "next distribution (toy: branch) or scroll down",
    },
    Binding {
        keys: &[KeyCode::PageUp],
        label: "PgUp",
        action: Action::Row(-PAGE),
        help: "ten lines up",
    },
    Binding {
        keys: &[KeyCode::PageDown],
        label: "PgDn",
        action: Action::Row(PAGE),
        help: "ten lines down",
    },
    Binding {
        keys: &[KeyCode::Home, KeyCode::Char('g')],
        label: "Home g",
        action: Action::First,
        help: "first line",
    },
    Binding {
        keys: &[KeyCode::End, KeyCode::Char('G')],
        label: "End G",
        action: Action::Last,
        help: "last line",
    },
    Binding {
        keys: &[KeyCode::Tab],
        label: "Tab",
        action: Action::FocusNext,
        help: "focus the next pane (its border lights up)",
    },
    Binding {
        keys: &[KeyCode::BackTab],
        label: "Shift-Tab",
        action: Action::FocusPrev,
        help: "focus the previous pane",
    },
    Binding {
        keys: &[KeyCode::Char('p')],
        label: "p",
        action: Action::NextEntry,
        help: "next endgame (preset)",
    },
    Binding {
        keys: &[KeyCode::Char('P')],
        label: "P",
        action: Action::PrevEntry,
        help: "previous endgame",
    },
    Binding {
        keys: &DIGITS,
        label: "1 … 9",
        action: Action::Entry(0),
        help: "endgame by number (see the status line)",
    },
    Binding {
        keys: &[KeyCode::Char('?')],
        label: "?",
        action: Action::Help,
        help: "this help",
    },
    Binding {
        keys: &[KeyCode::Esc],
        label: "Esc",
        action: Action::Cancel,
        help: "close the help",
    },
    Binding {
        keys: &[KeyCode::Char('q')],
        label: "q",
        action: Action::Quit,
        help: "quit (Ctrl-C too)",
    },
];

/// The action of a key; `None` for keys that mean nothing (and for key releases).
pub fn translate(key: KeyEvent) -> Option<Action> {
    let code = match press(key) {
        Press::Ignored => return None,
        Press::Interrupt => return Some(Action::Quit),
        Press::Key(code) => code,
    };
    if let Some(n) = DIGITS.iter().position(|&d| d == code) {
        return Some(Action::Entry(n));
    }
    KEYMAP
        .iter()
        .find(|b| b.keys.contains(&code))
        .map(|b| b.action)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyModifiers;

    fn key(code: KeyCode) -> Option<Action> {
        translate(KeyEvent::new(code, KeyModifiers::NONE))
    }

    #[test]
    fn keys_and_digits() {
        assert_eq!(key(KeyCode::Char('j')), Some(Action::Row(1)));
        assert_eq!(key(KeyCode::PageUp), Some(Action::Row(-PAGE)));
        assert_eq!(key(KeyCode::Char('3')), Some(Action::Entry(2)));
        assert_eq!(key(KeyCode::Char('0')), None);
        assert_eq!(key(KeyCode::Char('x')), None);
        let c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(translate(c), Some(Action::Quit));
    }

    #[test]
    fn no_key_is_bound_twice() {
        let mut seen = Vec::new();
        for b in KEYMAP {
            for k in b.keys {
                assert!(!seen.contains(k), "{k:?} bound twice");
                seen.push(*k);
            }
        }
    }
}
