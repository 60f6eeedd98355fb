//! The key maps of the game screen: the board's, a lesson's, the other rule systems'
//! and the replay's, each in the order the help lists it.

use super::action::{Action, Binding};
use crossterm::event::KeyCode;

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

const CLAIM: Binding = Binding {
    keys: &[KeyCode::Char('C')],
    label: "C",
    action: Action::ClaimWin,
    help: "claim the win when your opponent left a rated game",
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
    CLAIM,
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
