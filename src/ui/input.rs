//! The key map: which key does what, in each input mode. The help screen is generated
//! from [`KEYMAP`], so the two cannot disagree.

use crate::chess::Kind;
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// Something the player asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Move the cursor by (right, up) as seen on the screen.
    Cursor(i8, i8),
    /// Pick the square under the cursor (source, then target).
    Select,
    /// Start a split from the selected piece (or the one under the cursor).
    Split,
    /// Start a merge from the selected piece (or the one under the cursor).
    Merge,
    /// Cancel the selection, the move line or a popup.
    Cancel,
    /// Open the line for typing a move in notation.
    Prompt,
    /// Take back the last move.
    Undo,
    /// Turn the board around.
    Flip,
    /// Show or hide the help.
    Help,
    /// Leave the game.
    Quit,
    /// Start a new game (once this one is over).
    NewGame,
    /// Select the previous move in the history (its circuit is shown).
    HistoryPrev,
    /// Select the next move in the history.
    HistoryNext,
    /// Switch the circuit pane between drawing, list and automatic.
    CircuitView,
    /// Scroll the circuit left.
    CircuitLeft,
    /// Scroll the circuit right.
    CircuitRight,
    /// Scroll the circuit up.
    CircuitUp,
    /// Scroll the circuit down.
    CircuitDown,
    /// Open the inspector on the cursor square (or pick its second square).
    Inspect,
    /// Promote to this piece.
    Promote(Kind),
    /// A character typed into the move line.
    Char(char),
    /// Delete the last character of the move line.
    Backspace,
    /// Play the move typed into the move line.
    Submit,
}

/// Which keys are live: the board, the move line, the promotion question, the help.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputMode {
    /// Ordinary play: the key map applies.
    Board,
    /// Typing a move: characters go into the line.
    Prompt,
    /// Waiting for q, r, b or n.
    Promotion,
    /// The help is shown: any key closes it.
    Help,
}

/// One entry of the key map.
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    /// The keys.
    pub keys: &'static [KeyCode],
    /// How the keys are written in the help.
    pub label: &'static str,
    /// What they do.
    pub action: Action,
    /// The help text.
    pub help: &'static str,
}

/// The board-mode key map, in the order the help lists it.
pub const KEYMAP: &[Binding] = &[
    Binding {
        keys: &[KeyCode::Left, KeyCode::Char('h')],
        label: "← h",
        action: Action::Cursor(-1, 0),
        help: "cursor left",
    },
    Binding {
        keys: &[KeyCode::Down, KeyCode::Char('j')],
        label: "↓ j",
        action: Action::Cursor(0, -1),
        help: "cursor down",
    },
    Binding {
        keys: &[KeyCode::Up, KeyCode::Char('k')],
        label: "↑ k",
        action: Action::Cursor(0, 1),
        help: "cursor up",
    },
    Binding {
        keys: &[KeyCode::Right, KeyCode::Char('l')],
        label: "→ l",
        action: Action::Cursor(1, 0),
        help: "cursor right",
    },
    Binding {
        keys: &[KeyCode::Enter, KeyCode::Char(' ')],
        label: "Enter Space",
        action: Action::Select,
        help: "pick the piece, then its target",
    },
    Binding {
        keys: &[KeyCode::Char('s')],
        label: "s",
        action: Action::Split,
        help: "split: the piece, then two targets",
    },
    Binding {
        keys: &[KeyCode::Char('m')],
        label: "m",
        action: Action::Merge,
        help: "merge: two sources, then the target",
    },
    Binding {
        keys: &[KeyCode::Esc],
        label: "Esc",
        action: Action::Cancel,
        help: "cancel the selection or popup",
    },
    Binding {
        keys: &[KeyCode::Char(':')],
        label: ":",
        action: Action::Prompt,
        help: "type a move (e2e4, b1^a3c3, a3c3^b5)",
    },
    Binding {
        keys: &[KeyCode::Char('u')],
        label: "u",
        action: Action::Undo,
        help: "take back the last move",
    },
    Binding {
        keys: &[KeyCode::Char('f')],
        label: "f",
        action: Action::Flip,
        help: "flip the board",
    },
    Binding {
        keys: &[KeyCode::Char('['), KeyCode::Char(']')],
        label: "[ ]",
        action: Action::HistoryPrev,
        help: "previous / next move: its circuit",
    },
    Binding {
        keys: &[KeyCode::Char('c')],
        label: "c",
        action: Action::CircuitView,
        help: "circuit as drawing / list / auto",
    },
    Binding {
        keys: &[KeyCode::Char('<'), KeyCode::Char('>')],
        label: "< >",
        action: Action::CircuitLeft,
        help: "scroll the circuit left / right",
    },
    Binding {
        keys: &[KeyCode::PageUp, KeyCode::PageDown],
        label: "PgUp PgDn",
        action: Action::CircuitUp,
        help: "scroll the circuit up / down",
    },
    Binding {
        keys: &[KeyCode::Char('i')],
        label: "i",
        action: Action::Inspect,
        help: "inspect: entanglement map, then Bell values of a pair",
    },
    Binding {
        keys: &[KeyCode::Char('n')],
        label: "n",
        action: Action::NewGame,
        help: "new game (when the game is over)",
    },
    Binding {
        keys: &[KeyCode::Char('?')],
        label: "?",
        action: Action::Help,
        help: "this help",
    },
    Binding {
        keys: &[KeyCode::Char('q')],
        label: "q",
        action: Action::Quit,
        help: "quit",
    },
];

/// The action of a board-mode key. Pairs like `[ ]` share one binding: the second key
/// gives the opposite direction.
fn board_action(code: KeyCode) -> Option<Action> {
    let b = KEYMAP.iter().find(|b| b.keys.contains(&code))?;
    let second = b.keys.len() == 2 && b.keys[1] == code;
    Some(match (b.action, second) {
        (Action::HistoryPrev, true) => Action::HistoryNext,
        (Action::CircuitLeft, true) => Action::CircuitRight,
        (Action::CircuitUp, true) => Action::CircuitDown,
        (a, _) => a,
    })
}

/// The action for a key in a mode; `None` for keys that mean nothing there (and for key
/// releases). Ctrl-C quits everywhere.
pub fn translate(mode: InputMode, key: KeyEvent) -> Option<Action> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    if ctrl && key.code == KeyCode::Char('c') {
        return Some(Action::Quit);
    }
    if ctrl || key.modifiers.contains(KeyModifiers::ALT) {
        return None;
    }
    match mode {
        InputMode::Help => Some(Action::Help),
        InputMode::Prompt => match key.code {
            KeyCode::Esc => Some(Action::Cancel),
            KeyCode::Enter => Some(Action::Submit),
            KeyCode::Backspace => Some(Action::Backspace),
            KeyCode::Char(c) => Some(Action::Char(c)),
            _ => None,
        },
        InputMode::Promotion => match key.code {
            KeyCode::Esc => Some(Action::Cancel),
            KeyCode::Char(c) => match Kind::from_letter(c) {
                Some(k @ (Kind::Queen | Kind::Rook | Kind::Bishop | Kind::Knight)) => {
                    Some(Action::Promote(k))
                }
                _ => None,
            },
            _ => None,
        },
        InputMode::Board => board_action(key.code),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn pairs_and_modes() {
        let b = InputMode::Board;
        assert_eq!(
            translate(b, key(KeyCode::Char('['))),
            Some(Action::HistoryPrev)
        );
        assert_eq!(
            translate(b, key(KeyCode::Char(']'))),
            Some(Action::HistoryNext)
        );
        assert_eq!(
            translate(b, key(KeyCode::Char('>'))),
            Some(Action::CircuitRight)
        );
        assert_eq!(
            translate(b, key(KeyCode::PageDown)),
            Some(Action::CircuitDown)
        );
        assert_eq!(
            translate(b, key(KeyCode::Char('l'))),
            Some(Action::Cursor(1, 0))
        );
        assert_eq!(translate(b, key(KeyCode::Char('x'))), None);
        let p = InputMode::Prompt;
        assert_eq!(
            translate(p, key(KeyCode::Char('q'))),
            Some(Action::Char('q'))
        );
        let q = InputMode::Promotion;
        assert_eq!(
            translate(q, key(KeyCode::Char('q'))),
            Some(Action::Promote(Kind::Queen))
        );
        assert_eq!(translate(q, key(KeyCode::Char('k'))), None);
        let c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(translate(p, c), Some(Action::Quit));
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
