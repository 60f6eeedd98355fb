//! The game screen's input: which key does what in each input mode ([`translate`], over
//! the key maps of `keymap`; the help screen is generated from [`KEYMAP`], so the two
//! cannot disagree), the mouse ([`mouse`]), the typed line ([`line_edit`]) and the
//! keys read from a tty ([`tty_input`]).

mod action;
mod keymap;
pub mod line_edit;
pub mod mouse;
pub mod tty_input;

use crate::chess::Kind;
pub use action::{Action, Binding, InputMode};
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
pub use keymap::{KEYMAP, LESSON_KEYMAP, REPLAY_KEYMAP, VARIANT_KEYMAP};
use line_edit::Edit;

/// A key press before any key map looks at it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Press {
    /// A release, or a key with Ctrl or Alt: means nothing.
    Ignored,
    /// Ctrl-C: quit from anywhere.
    Interrupt,
    /// A plain key.
    Key(KeyCode),
}

/// Sorts a key event into [`Press`].
pub fn press(key: KeyEvent) -> Press {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    if key.kind == KeyEventKind::Release {
        Press::Ignored
    } else if ctrl && key.code == KeyCode::Char('c') {
        Press::Interrupt
    } else if ctrl || key.modifiers.contains(KeyModifiers::ALT) {
        Press::Ignored
    } else {
        Press::Key(key.code)
    }
}

/// The action of a key in a key map. Pairs like `[ ]` share one binding: the second key
/// gives the opposite direction.
fn map_action(map: &[Binding], code: KeyCode) -> Option<Action> {
    let b = map.iter().find(|b| b.keys.contains(&code))?;
    let second = b.keys.len() == 2 && b.keys[1] == code;
    Some(match (b.action, second) {
        (Action::HistoryPrev, true) => Action::HistoryNext,
        (Action::CircuitLeft, true) => Action::CircuitRight,
        (Action::CircuitUp, true) => Action::CircuitDown,
        (Action::PlyStep(d), true) => Action::PlyStep(-d),
        (Action::PlyFirst, true) => Action::PlyLast,
        (Action::MarkPrev, true) => Action::MarkNext,
        (Action::Resign, true) => Action::OfferDraw,
        (Action::NewGame, true) => Action::Review,
        (a, _) => a,
    })
}

/// The action for a key in a mode; `None` for keys that mean nothing there (and for key
/// releases). Ctrl-C leaves from everywhere.
pub fn translate(mode: InputMode, key: KeyEvent) -> Option<Action> {
    match press(key) {
        Press::Interrupt => return Some(Action::Interrupt),
        // The typed line has its own Ctrl keys.
        _ if mode == InputMode::Prompt && key.kind != KeyEventKind::Release => {
            return line_key(key)
        }
        Press::Ignored => return None,
        Press::Key(_) => {}
    }
    match mode {
        InputMode::Help => match key.code {
            KeyCode::Esc | KeyCode::Char('q') => Some(Action::Cancel),
            _ => Some(Action::Help),
        },
        InputMode::Prompt => None,
        InputMode::Question => match key.code {
            KeyCode::Char('y' | 'Y') => Some(Action::Yes),
            KeyCode::Char('n' | 'N') | KeyCode::Esc => Some(Action::No),
            KeyCode::Char('q') => Some(Action::Quit),
            KeyCode::Char('w') => Some(Action::Save),
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
        InputMode::Board => map_action(KEYMAP, key.code),
        InputMode::Lesson => {
            map_action(LESSON_KEYMAP, key.code).or_else(|| map_action(KEYMAP, key.code))
        }
        InputMode::List => match key.code {
            KeyCode::Up | KeyCode::Char('k') => Some(Action::Cursor(0, 1)),
            KeyCode::Down | KeyCode::Char('j') => Some(Action::Cursor(0, -1)),
            KeyCode::Enter | KeyCode::Char(' ') => Some(Action::Select),
            KeyCode::Esc | KeyCode::Char('L') => Some(Action::Cancel),
            KeyCode::Char('t') => Some(Action::NextTheme),
            KeyCode::Char('q') => Some(Action::Quit),
            _ => None,
        },
        InputMode::Replay => map_action(REPLAY_KEYMAP, key.code),
        InputMode::Variant => map_action(VARIANT_KEYMAP, key.code),
    }
}

/// The keys of a typed line: Enter, Esc, the arrows, Home/End, Backspace/Delete and the
/// readline Ctrl keys (A E B F H D U W).
fn line_key(key: KeyEvent) -> Option<Action> {
    let edit = |e| Some(Action::Edit(e));
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return match key.code {
            KeyCode::Char('a') => edit(Edit::Home),
            KeyCode::Char('e') => edit(Edit::End),
            KeyCode::Char('b') => edit(Edit::Left),
            KeyCode::Char('f') => edit(Edit::Right),
            KeyCode::Char('h') => edit(Edit::Backspace),
            KeyCode::Char('d') => edit(Edit::Delete),
            KeyCode::Char('u') => edit(Edit::ClearToStart),
            KeyCode::Char('w') | KeyCode::Backspace => edit(Edit::DeleteWord),
            _ => None,
        };
    }
    if key.modifiers.contains(KeyModifiers::ALT) {
        return match key.code {
            KeyCode::Backspace => edit(Edit::DeleteWord),
            _ => None,
        };
    }
    match key.code {
        KeyCode::Esc => Some(Action::Cancel),
        KeyCode::Enter => Some(Action::Submit),
        KeyCode::Backspace => edit(Edit::Backspace),
        KeyCode::Delete => edit(Edit::Delete),
        KeyCode::Left => edit(Edit::Left),
        KeyCode::Right => edit(Edit::Right),
        KeyCode::Home => edit(Edit::Home),
        KeyCode::End => edit(Edit::End),
        KeyCode::Up => Some(Action::Recall),
        KeyCode::Char(c) => edit(Edit::Insert(c)),
        _ => None,
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
            Some(Action::Edit(Edit::Insert('q')))
        );
        let ctrl = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
        assert_eq!(translate(p, ctrl('a')), Some(Action::Edit(Edit::Home)));
        assert_eq!(translate(p, ctrl('e')), Some(Action::Edit(Edit::End)));
        assert_eq!(
            translate(p, ctrl('u')),
            Some(Action::Edit(Edit::ClearToStart))
        );
        assert_eq!(
            translate(p, ctrl('w')),
            Some(Action::Edit(Edit::DeleteWord))
        );
        assert_eq!(
            translate(p, key(KeyCode::Left)),
            Some(Action::Edit(Edit::Left))
        );
        assert_eq!(translate(b, ctrl('a')), None);
        let q = InputMode::Promotion;
        assert_eq!(
            translate(q, key(KeyCode::Char('q'))),
            Some(Action::Promote(Kind::Queen))
        );
        assert_eq!(translate(q, key(KeyCode::Char('k'))), None);
        let c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(translate(p, c), Some(Action::Interrupt));
        assert_eq!(translate(b, c), Some(Action::Interrupt));
        let y = InputMode::Question;
        assert_eq!(translate(y, key(KeyCode::Char('y'))), Some(Action::Yes));
        assert_eq!(translate(y, key(KeyCode::Esc)), Some(Action::No));
        assert_eq!(translate(y, key(KeyCode::Char('q'))), Some(Action::Quit));
        assert_eq!(translate(y, key(KeyCode::Enter)), None);
    }

    #[test]
    fn no_key_is_bound_twice() {
        for map in [KEYMAP, REPLAY_KEYMAP, VARIANT_KEYMAP] {
            let mut seen = Vec::new();
            for b in map {
                for k in b.keys {
                    assert!(!seen.contains(k), "{k:?} bound twice");
                    seen.push(*k);
                }
            }
        }
    }

    #[test]
    fn replay_keys() {
        let r = InputMode::Replay;
        assert_eq!(translate(r, key(KeyCode::Left)), Some(Action::PlyStep(-1)));
        assert_eq!(translate(r, key(KeyCode::Right)), Some(Action::PlyStep(1)));
        assert_eq!(translate(r, key(KeyCode::End)), Some(Action::PlyLast));
        assert_eq!(
            translate(r, key(KeyCode::Char('l'))),
            Some(Action::Cursor(1, 0))
        );
        assert_eq!(
            translate(r, key(KeyCode::Char('k'))),
            Some(Action::Cursor(0, 1))
        );
        assert_eq!(translate(r, key(KeyCode::Char('s'))), None);
    }
}
