//! What is stacked over the board: the overlays (the typed line, help, explanation,
//! question) and the modes (inspector, lesson, puzzle, review, clocks), each owning its
//! state; [`Layers`] is the stack of overlays that hands each action to the topmost one
//! that wants it.
//! A layer's handler returns an [`Outcome`], never reaching into the screen.

pub mod clocks;
pub mod explanation;
pub mod help;
pub mod inspector;
pub mod kept;
pub mod lesson;
pub mod prompts;
pub mod puzzle;
pub mod question;
pub mod review;
pub mod typed_line;

use crate::ui::input::{Action, InputMode};
use crate::ui::message::Tone;
use explanation::Explanation;
use help::Help;
use question::{Answer, Question};
use typed_line::{Purpose, TypedLine};

/// What a layer did with an action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Taken: nothing else happens.
    Consumed,
    /// Not wanted: the layers below, then the game, get it.
    Pass,
    /// Taken, and the layer closes.
    Close,
    /// Taken: the layer closes, and the game carries out the answer.
    Answered(Answer),
    /// Taken: the layer stays, and asks the game for what only the game can do.
    Ask(Request),
    /// Taken: the layer closes, and asks the game for what only the game can do.
    CloseAsking(Request),
    /// Taken: the typed line hands back its text (trimmed) for the game to carry out;
    /// the line stays open until the game closes it.
    Typed(Purpose, String),
}

/// What a layer asks of the game screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Set up lesson `n` (from 1) on the board.
    OpenLesson(usize),
    /// Set up the puzzle at this index of the pack on the board.
    OpenPuzzle(usize),
    /// Tell the player.
    Say(Tone, String),
    /// Leave the screen.
    Quit,
}

/// One layer over the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layer {
    /// The line typed at the bottom.
    TypedLine(TypedLine),
    /// The help.
    Help(Help),
    /// The explanation of the shown move.
    Explanation(Explanation),
    /// A yes/no question.
    Question(Question),
}

impl Layer {
    /// Where the layer stands: a higher one is above a lower one, whichever opened
    /// first.
    fn rank(&self) -> u8 {
        match self {
            Layer::TypedLine(_) => 0,
            Layer::Question(_) => 1,
            Layer::Help(_) => 2,
            Layer::Explanation(_) => 3,
        }
    }

    fn handle(&mut self, action: Action) -> Outcome {
        match self {
            Layer::TypedLine(t) => t.handle(action),
            Layer::Help(h) => h.handle(action),
            Layer::Explanation(e) => e.handle(action),
            Layer::Question(q) => match q.answer(action) {
                Some(a) => Outcome::Answered(a),
                None => Outcome::Consumed,
            },
        }
    }

    /// The keys live while the layer is on top.
    fn keys(&self) -> InputMode {
        match self {
            Layer::Help(_) | Layer::Explanation(_) => InputMode::Help,
            Layer::Question(_) => InputMode::Question,
            Layer::TypedLine(_) => InputMode::Prompt,
        }
    }
}

/// The layers shown over the board, lowest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layers {
    stack: Vec<Layer>,
    /// How many pages the help needed when it was last drawn.
    help_pages: usize,
}

impl Default for Layers {
    fn default() -> Layers {
        Layers {
            stack: Vec::new(),
            help_pages: 1,
        }
    }
}

impl Layers {
    /// Opens `layer` at its rank, in place of one of its kind.
    pub fn open(&mut self, layer: Layer) {
        self.stack.retain(|l| l.rank() != layer.rank());
        let at = self.stack.partition_point(|l| l.rank() < layer.rank());
        self.stack.insert(at, layer);
    }

    /// Opens the help at its first page.
    pub fn open_help(&mut self) {
        self.open(Layer::Help(Help::open(self.help_pages)));
    }

    /// Hands `action` to the layers from the top: the first that does not pass it on
    /// takes it, and closes if it says so.
    pub fn handle(&mut self, action: Action) -> Outcome {
        for i in (0..self.stack.len()).rev() {
            let outcome = self.stack[i].handle(action);
            match outcome {
                Outcome::Pass => continue,
                Outcome::Consumed | Outcome::Ask(_) | Outcome::Typed(..) => {}
                Outcome::Close | Outcome::Answered(_) | Outcome::CloseAsking(_) => {
                    self.stack.remove(i);
                }
            }
            return outcome;
        }
        Outcome::Pass
    }

    /// The keys live now, when a layer is shown.
    pub fn keys(&self) -> Option<InputMode> {
        self.stack.last().map(Layer::keys)
    }

    /// Keeps how many pages the help needed when it was drawn.
    pub fn drawn_help(&mut self, pages: usize) {
        self.help_pages = pages;
        if let Some(h) = self.help_mut() {
            h.drawn(pages);
        }
    }

    /// The help, while it is shown.
    pub fn help(&self) -> Option<&Help> {
        self.stack.iter().find_map(|l| match l {
            Layer::Help(h) => Some(h),
            _ => None,
        })
    }

    fn help_mut(&mut self) -> Option<&mut Help> {
        self.stack.iter_mut().find_map(|l| match l {
            Layer::Help(h) => Some(h),
            _ => None,
        })
    }

    /// Whether the explanation is open.
    pub fn explaining(&self) -> bool {
        self.stack
            .iter()
            .any(|l| matches!(l, Layer::Explanation(_)))
    }

    /// The question shown, if any.
    pub fn question(&self) -> Option<&Question> {
        self.stack.iter().find_map(|l| match l {
            Layer::Question(q) => Some(q),
            _ => None,
        })
    }

    /// Takes the question off the screen, if one is shown.
    pub fn close_question(&mut self) -> Option<Question> {
        let at = self
            .stack
            .iter()
            .position(|l| matches!(l, Layer::Question(_)))?;
        match self.stack.remove(at) {
            Layer::Question(q) => Some(q),
            _ => None,
        }
    }

    /// Closes the explanation, if it is open.
    pub fn close_explanation(&mut self) {
        self.stack.retain(|l| !matches!(l, Layer::Explanation(_)));
    }

    /// The typed line, while it is open.
    pub fn typed_line(&self) -> Option<&TypedLine> {
        self.stack.iter().find_map(|l| match l {
            Layer::TypedLine(t) => Some(t),
            _ => None,
        })
    }

    /// The same, to paste into.
    pub fn typed_line_mut(&mut self) -> Option<&mut TypedLine> {
        self.stack.iter_mut().find_map(|l| match l {
            Layer::TypedLine(t) => Some(t),
            _ => None,
        })
    }

    /// Closes the typed line, if it is open.
    pub fn close_line(&mut self) {
        self.stack.retain(|l| !matches!(l, Layer::TypedLine(_)));
    }
}
