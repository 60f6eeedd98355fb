//! The key map: which key does what, in each input mode. The help screen is generated
//! from [`KEYMAP`], so the two cannot disagree.

pub mod line_edit;
pub mod mouse;
pub mod tty_input;

use crate::chess::Kind;
use crate::ui::input::line_edit::Edit;
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
    /// Leave the game (asks first while a game is going on).
    Quit,
    /// Ctrl-C: leave at once, from anywhere.
    Interrupt,
    /// Yes to the question shown.
    Yes,
    /// No to the question shown.
    No,
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
    /// An editing key in the typed line.
    Edit(Edit),
    /// Bring back the last move typed (Up on the move line).
    Recall,
    /// Use what was typed into the line (a move, a file name, a ply).
    Submit,
    /// Save the game to a file (asks for the path).
    Save,
    /// Replay: show this many plies later (negative: earlier).
    PlyStep(i64),
    /// Replay: show the start position.
    PlyFirst,
    /// Replay: show the last ply.
    PlyLast,
    /// Replay: ask for a ply number and show it.
    GotoPly,
    /// Replay: leave the replay and play on from the shown ply.
    PlayFromHere,
    /// Replay: review the game with the engine (or stop the review running).
    Review,
    /// Resign the game (asks first).
    Resign,
    /// Offer a draw.
    OfferDraw,
    /// Replay: show the previous move the review marked.
    MarkPrev,
    /// Replay: show the next move the review marked.
    MarkNext,
    /// Variants: switch the selected piece between ordinary and quantum moves.
    QuantumMove,
    /// Small screens: show the next pane below the board.
    NextPane,
    /// Ask the engine for the best move of the side to move.
    Hint,
    /// The computer plays both sides: stop the game, or let it go on.
    Pause,
    /// Open the explanation of the shown move (what it asked, what changed).
    Explain,
    /// Lessons: open the next lesson.
    NextLesson,
    /// Lessons: start this lesson again.
    RestartLesson,
    /// Lessons: show the list of lessons.
    LessonList,
    /// Puzzles: show the best line.
    ShowBest,
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
    /// The help is shown: Esc and q close it, any other key turns its page.
    Help,
    /// Stepping through a game: the replay key map applies.
    Replay,
    /// Playing another rule system: the variant key map applies.
    Variant,
    /// A yes/no question is shown (quit? create the folder?).
    Question,
    /// A lesson: its own keys, then the game's.
    Lesson,
    /// A list to pick from (the lessons): up, down, Enter, Esc.
    List,
}

/// One entry of a key map (the game's, or another screen's with its own actions).
#[derive(Clone, Copy, Debug)]
pub struct Binding<A = Action> {
    /// The keys.
    pub keys: &'static [KeyCode],
    /// How the keys are written in the help.
    pub label: &'static str,
    /// What they do.
    pub action: A,
    /// The help text.
    pub help: &'static str,
}

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

const LEFT: Binding = Binding {
    keys: &[KeyCode::Left, KeyCode::Char('h')],
    label: "← h",
    action: Action::Cursor(-1, 0),
    help: "cursor left",
};

const DOWN: Binding = Binding {
    keys: &[KeyCode::Down, KeyCode::Char('j')],
    label: "↓ j",
    action: Action::Cursor(0, -1),
    help: "cursor down",
};

const UP: Binding = Binding {
    keys: &[KeyCode::Up, KeyCode::Char('k')],
    label: "↑ k",
    action: Action::Cursor(0, 1),
    help: "cursor up",
};

const RIGHT: Binding = Binding {
    keys: &[KeyCode::Right, KeyCode::Char('l')],
    label: "→ l",
    action: Action::Cursor(1, 0),
    help: "cursor right",
};

const SELECT: Binding = Binding {
    keys: &[KeyCode::Enter, KeyCode::Char(' ')],
    label: "Enter Space",
    action: Action::Select,
    help: "pick the piece, then its target",
};

const CANCEL: Binding = Binding {
    keys: &[KeyCode::Esc],
    label: "Esc",
    action: Action::Cancel,
    help: "cancel the selection or popup",
};

const UNDO: Binding = Binding {
    keys: &[KeyCode::Char('u')],
    label: "u",
    action: Action::Undo,
    help: "take back the last move",
};

const FLIP: Binding = Binding {
    keys: &[KeyCode::Char('f')],
    label: "f",
    action: Action::Flip,
    help: "flip the board",
};

const CIRCUIT_VIEW: Binding = Binding {
    keys: &[KeyCode::Char('c')],
    label: "c",
    action: Action::CircuitView,
    help: "circuit as drawing / list / auto",
};

const CIRCUIT_X: Binding = Binding {
    keys: &[KeyCode::Char('<'), KeyCode::Char('>')],
    label: "< >",
    action: Action::CircuitLeft,
    help: "scroll the circuit left / right",
};

const CIRCUIT_Y: Binding = Binding {
    keys: &[KeyCode::PageUp, KeyCode::PageDown],
    label: "PgUp PgDn",
    action: Action::CircuitUp,
    help: "scroll the circuit up / down",
};

const INSPECT: Binding = Binding {
    keys: &[KeyCode::Char('i')],
    label: "i",
    action: Action::Inspect,
    help: "inspect: entanglement map, then Bell values of a pair",
};

const NEW_GAME: Binding = Binding {
    keys: &[KeyCode::Char('n'), KeyCode::Char('R')],
    label: "n R",
    action: Action::NewGame,
    help: "new game / review it, once over",
};

const SAVE: Binding = Binding {
    keys: &[KeyCode::Char('w')],
    label: "w",
    action: Action::Save,
    help: "save the game to a file",
};

const NEXT_PANE: Binding = Binding {
    keys: &[KeyCode::Tab],
    label: "Tab",
    action: Action::NextPane,
    help: "small screens: the next pane below the board",
};

const HINT: Binding = Binding {
    keys: &[KeyCode::Char('H')],
    label: "H",
    action: Action::Hint,
    help: "hint: the engine's move for the side to move",
};

const PAUSE: Binding = Binding {
    keys: &[KeyCode::Char('p')],
    label: "p",
    action: Action::Pause,
    help: "computer vs computer: pause / go on",
};

const EXPLAIN: Binding = Binding {
    keys: &[KeyCode::Char('e')],
    label: "e",
    action: Action::Explain,
    help: "explain the shown move in full",
};

const RESIGN_OR_DRAW: Binding = Binding {
    keys: &[KeyCode::Char('X'), KeyCode::Char('D')],
    label: "X D",
    action: Action::Resign,
    help: "resign / offer a draw",
};

const HELP: Binding = Binding {
    keys: &[KeyCode::Char('?')],
    label: "?",
    action: Action::Help,
    help: "this help, then the last messages in full",
};

const QUIT: Binding = Binding {
    keys: &[KeyCode::Char('q')],
    label: "q",
    action: Action::Quit,
    help: "quit (asks first during a game)",
};

/// The board-mode key map, in the order the help lists it.
pub const KEYMAP: &[Binding] = &[
    LEFT,
    DOWN,
    UP,
    RIGHT,
    SELECT,
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
    CANCEL,
    Binding {
        keys: &[KeyCode::Char(':')],
        label: ":",
        action: Action::Prompt,
        help: "type a move (e2e4, Nf3, b1^a3c3, a3c3^b5)",
    },
    UNDO,
    FLIP,
    Binding {
        keys: &[KeyCode::Char('['), KeyCode::Char(']')],
        label: "[ ]",
        action: Action::HistoryPrev,
        help: "previous / next move: its circuit",
    },
    EXPLAIN,
    CIRCUIT_VIEW,
    CIRCUIT_X,
    CIRCUIT_Y,
    NEXT_PANE,
    INSPECT,
    HINT,
    PAUSE,
    RESIGN_OR_DRAW,
    NEW_GAME,
    SAVE,
    HELP,
    QUIT,
];

/// The keys a lesson adds to the game's (consulted first), in the order the help lists
/// them.
pub const LESSON_KEYMAP: &[Binding] = &[
    Binding {
        keys: &[KeyCode::Char('n')],
        label: "n",
        action: Action::NextLesson,
        help: "the next lesson or puzzle",
    },
    Binding {
        keys: &[KeyCode::Char('r')],
        label: "r",
        action: Action::RestartLesson,
        help: "this lesson or puzzle again",
    },
    Binding {
        keys: &[KeyCode::Char('L')],
        label: "L",
        action: Action::LessonList,
        help: "the list of lessons or puzzles, with the ones you finished",
    },
    Binding {
        keys: &[KeyCode::Char('b')],
        label: "b",
        action: Action::ShowBest,
        help: "puzzles: the best line",
    },
];

/// The key map of the other rule systems (harmonics, haft), in the order the help lists
/// it.
pub const VARIANT_KEYMAP: &[Binding] = &[
    LEFT,
    DOWN,
    UP,
    RIGHT,
    SELECT,
    Binding {
        keys: &[KeyCode::Char('t'), KeyCode::Char('~')],
        label: "t ~",
        action: Action::QuantumMove,
        help: "harmonics: the picked piece makes a quantum move",
    },
    CANCEL,
    Binding {
        keys: &[KeyCode::Char(':')],
        label: ":",
        action: Action::Prompt,
        help: "type a move (e2e4, e7e8q, b1~d5)",
    },
    UNDO,
    FLIP,
    Binding {
        keys: &[KeyCode::Char('['), KeyCode::Char(']')],
        label: "[ ]",
        action: Action::HistoryPrev,
        help: "previous / next move: what it did",
    },
    EXPLAIN,
    Binding {
        keys: &[KeyCode::PageUp, KeyCode::PageDown],
        label: "PgUp PgDn",
        action: Action::CircuitUp,
        help: "scroll the trace up / down",
    },
    NEXT_PANE,
    HINT,
    PAUSE,
    RESIGN_OR_DRAW,
    NEW_GAME,
    SAVE,
    HELP,
    QUIT,
];

/// The key map while stepping through a game, in the order the help lists it.
pub const REPLAY_KEYMAP: &[Binding] = &[
    Binding {
        keys: &[KeyCode::Left, KeyCode::Right],
        label: "← →",
        action: Action::PlyStep(-1),
        help: "one ply back / forward",
    },
    Binding {
        keys: &[KeyCode::Home, KeyCode::End],
        label: "Home End",
        action: Action::PlyFirst,
        help: "the start / the last ply",
    },
    Binding {
        keys: &[KeyCode::Char('g')],
        label: "g",
        action: Action::GotoPly,
        help: "go to ply N",
    },
    Binding {
        keys: &[KeyCode::Char('p')],
        label: "p",
        action: Action::PlayFromHere,
        help: "play on from the shown ply (a new game)",
    },
    Binding {
        keys: &[KeyCode::Char('R')],
        label: "R",
        action: Action::Review,
        help: "review the game: the engine's verdict on every move (Esc stops)",
    },
    Binding {
        keys: &[KeyCode::Char('['), KeyCode::Char(']')],
        label: "[ ]",
        action: Action::MarkPrev,
        help: "previous / next move the review marked",
    },
    Binding {
        keys: &[KeyCode::Char('h')],
        label: "h",
        action: Action::Cursor(-1, 0),
        help: "cursor left",
    },
    Binding {
        keys: &[KeyCode::Char('j')],
        label: "j",
        action: Action::Cursor(0, -1),
        help: "cursor down",
    },
    Binding {
        keys: &[KeyCode::Char('k')],
        label: "k",
        action: Action::Cursor(0, 1),
        help: "cursor up",
    },
    Binding {
        keys: &[KeyCode::Char('l')],
        label: "l",
        action: Action::Cursor(1, 0),
        help: "cursor right",
    },
    EXPLAIN,
    INSPECT,
    Binding {
        keys: &[KeyCode::Enter],
        label: "Enter",
        action: Action::Select,
        help: "inspector: pick the second square",
    },
    FLIP,
    CIRCUIT_VIEW,
    CIRCUIT_X,
    Binding {
        keys: &[KeyCode::PageUp, KeyCode::PageDown],
        label: "PgUp PgDn",
        action: Action::CircuitUp,
        help: "scroll the inspector when cut, else the circuit",
    },
    NEXT_PANE,
    SAVE,
    CANCEL,
    HELP,
    QUIT,
];

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
