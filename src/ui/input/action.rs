//! What the player can ask for ([`Action`]), which keys are live ([`InputMode`]), and
//! one entry of a key map ([`Binding`]).

use crate::chess::Kind;
use crate::ui::input::line_edit::Edit;
use crossterm::event::KeyCode;

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
    /// Claim the win from an opponent who left a rated game (asks first).
    ClaimWin,
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
    /// The puzzle list: show the next theme's puzzles only (after the last, all).
    NextTheme,
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
