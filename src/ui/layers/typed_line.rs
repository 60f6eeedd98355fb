//! The line typed at the bottom of the screen (a move, a file name, a ply number): its
//! text and what it is for. It takes the editing keys itself and hands back what was
//! typed for the game to carry out.

use super::{Outcome, Request};
use crate::ui::input::line_edit::LineEdit;
use crate::ui::input::Action;
use crate::ui::message::Tone;

/// What a line typed at the bottom is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// A move in notation.
    Move,
    /// The file to save the game to.
    SavePath,
    /// The ply to show in replay.
    GotoPly,
}

impl Purpose {
    /// The label before the typed text.
    pub fn label(self) -> &'static str {
        match self {
            Purpose::Move => ": ",
            Purpose::SavePath => "save to: ",
            Purpose::GotoPly => "go to ply: ",
        }
    }
}

/// The line being typed, while it is open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypedLine {
    line: LineEdit,
    purpose: Purpose,
    /// What Up brings back on a move's line: the move typed last (empty on the others).
    recalled: String,
}

impl TypedLine {
    /// A line for `purpose` holding `line`.
    pub fn open(purpose: Purpose, line: LineEdit) -> TypedLine {
        TypedLine {
            line,
            purpose,
            recalled: String::new(),
        }
    }

    /// An empty line for a move, where Up brings back `last`, the move typed last.
    pub fn for_move(last: &str) -> TypedLine {
        TypedLine {
            recalled: last.to_string(),
            ..TypedLine::open(Purpose::Move, LineEdit::empty())
        }
    }

    /// The text so far, with its cursor.
    pub fn line(&self) -> &LineEdit {
        &self.line
    }

    /// What the text is for.
    pub fn purpose(&self) -> Purpose {
        self.purpose
    }

    /// Pasted text goes in at the cursor.
    pub fn paste(&mut self, text: &str) {
        self.line.paste(text);
    }

    /// The line's own keys: editing, Up, Enter (the text, trimmed, is handed back) and
    /// Esc (the line closes). Anything else is passed on.
    pub fn handle(&mut self, action: Action) -> Outcome {
        match action {
            Action::Edit(e) => self.line.edit(e),
            Action::Recall if self.purpose == Purpose::Move => {
                self.line = LineEdit::with_text(self.recalled.clone());
            }
            Action::Recall => {}
            Action::Submit => {
                return Outcome::Typed(self.purpose, self.line.text().trim().to_string())
            }
            Action::Cancel => {
                return Outcome::CloseAsking(Request::Say(Tone::Plain, "cancelled".into()))
            }
            _ => return Outcome::Pass,
        }
        Outcome::Consumed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::input::line_edit::Edit;

    #[test]
    fn the_line_edits_recalls_and_hands_back_its_text() {
        let mut t = TypedLine::for_move("e2e4");
        for c in [' ', 'd', '2'] {
            assert_eq!(t.handle(Action::Edit(Edit::Insert(c))), Outcome::Consumed);
        }
        assert_eq!(
            t.handle(Action::Submit),
            Outcome::Typed(Purpose::Move, "d2".into())
        );
        assert_eq!(t.handle(Action::Recall), Outcome::Consumed);
        assert_eq!(t.line().text(), "e2e4");
        assert_eq!(t.handle(Action::HistoryPrev), Outcome::Pass);
        assert_eq!(
            t.handle(Action::Cancel),
            Outcome::CloseAsking(Request::Say(Tone::Plain, "cancelled".into()))
        );
    }

    #[test]
    fn only_a_moves_line_recalls() {
        let mut t = TypedLine::open(Purpose::GotoPly, LineEdit::with_text("12"));
        assert_eq!(t.handle(Action::Recall), Outcome::Consumed);
        assert_eq!(t.line().text(), "12");
        assert_eq!(t.purpose(), Purpose::GotoPly);
    }
}
