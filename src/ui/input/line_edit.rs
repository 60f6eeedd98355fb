//! One line being typed at the bottom of the screen (a move, a file name, a ply number):
//! the editing keys on top of the `tui-input` buffer, an offered text that typing
//! replaces, and the part of a long line that fits around the cursor.

use ratatui::style::{Modifier, Style};
use ratatui::text::Span;
use tui_input::{Input, InputRequest};
use unicode_width::UnicodeWidthStr;

/// An editing key in a typed line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Type a character at the cursor.
    Insert(char),
    /// Cursor one character left.
    Left,
    /// Cursor one character right.
    Right,
    /// Cursor to the start (Home, Ctrl-A).
    Home,
    /// Cursor to the end (End, Ctrl-E).
    End,
    /// Delete the character before the cursor.
    Backspace,
    /// Delete the character under the cursor.
    Delete,
    /// Delete everything before the cursor (Ctrl-U).
    ClearToStart,
    /// Delete the word before the cursor (Ctrl-W).
    DeleteWord,
}

/// A line of text with a cursor. An offered line (the save path) starts selected: the
/// first character typed replaces it, a deleting key empties it, and a cursor key keeps
/// it for editing.
#[derive(Clone, Debug, Default)]
pub struct LineEdit {
    input: Input,
    selected: bool,
}

impl PartialEq for LineEdit {
    fn eq(&self, other: &Self) -> bool {
        self.text() == other.text()
            && self.cursor() == other.cursor()
            && self.selected == other.selected
    }
}

impl Eq for LineEdit {}

impl LineEdit {
    /// An empty line.
    pub fn empty() -> LineEdit {
        LineEdit::default()
    }

    /// A line holding `text`, cursor at its end, not selected.
    pub fn with_text(text: impl Into<String>) -> LineEdit {
        LineEdit {
            input: Input::new(text.into()),
            selected: false,
        }
    }

    /// A line offering `text`, all of it selected (typing replaces it).
    pub fn offered(text: impl Into<String>) -> LineEdit {
        LineEdit {
            selected: true,
            ..LineEdit::with_text(text)
        }
    }

    /// The text.
    pub fn text(&self) -> &str {
        self.input.value()
    }

    /// The cursor, in characters from the start.
    pub fn cursor(&self) -> usize {
        self.input.cursor()
    }

    /// Whether the whole (offered) text is selected.
    pub fn selected(&self) -> bool {
        self.selected
    }

    /// Applies one editing key.
    pub fn edit(&mut self, e: Edit) {
        if std::mem::take(&mut self.selected) {
            match e {
                // The selection collapses to one of its ends.
                Edit::Left | Edit::Home => {
                    self.input.handle(InputRequest::GoToStart);
                    return;
                }
                Edit::Right | Edit::End => return,
                // Anything that types or deletes replaces the whole selection.
                _ => self.input.reset(),
            }
            if !matches!(e, Edit::Insert(_)) {
                return;
            }
        }
        let req = match e {
            Edit::Insert(c) => InputRequest::InsertChar(c),
            Edit::Left => InputRequest::GoToPrevChar,
            Edit::Right => InputRequest::GoToNextChar,
            Edit::Home => InputRequest::GoToStart,
            Edit::End => InputRequest::GoToEnd,
            Edit::Backspace => InputRequest::DeletePrevChar,
            Edit::Delete => InputRequest::DeleteNextChar,
            Edit::ClearToStart => InputRequest::DeleteFromStart,
            Edit::DeleteWord => {
                // The word before the cursor (a run of letters and digits) and what
                // separates it from the cursor. Not tui-input's own word, which follows
                // Unicode's word boundaries, by which `game.toml` is one word.
                let chars: Vec<char> = self.text().chars().collect();
                let end = self.cursor().min(chars.len());
                let before = &chars[..end];
                let gap = before
                    .iter()
                    .rev()
                    .take_while(|c| !c.is_alphanumeric())
                    .count();
                let word = before[..end - gap]
                    .iter()
                    .rev()
                    .take_while(|c| c.is_alphanumeric())
                    .count();
                let start = end - gap - word;
                let text: String = chars[..start].iter().chain(&chars[end..]).collect();
                self.input = Input::new(text).with_cursor(start);
                return;
            }
        };
        self.input.handle(req);
    }

    /// Types pasted text at the cursor (control characters, line breaks among them,
    /// are dropped).
    pub fn paste(&mut self, text: &str) {
        for c in text.chars().filter(|c| !c.is_control()) {
            self.edit(Edit::Insert(c));
        }
    }

    /// The line drawn in `width` columns: the text scrolled so that the cursor (a
    /// reversed cell, a space at the end of the text) stays in view; the selection is
    /// reversed too.
    pub fn spans(&self, width: usize, style: Style) -> Vec<Span<'static>> {
        if width == 0 {
            return Vec::new();
        }
        let scroll = self.input.visual_scroll(width - 1);
        let mut skipped = 0;
        let mut before = String::new();
        let mut at = String::from(" ");
        let mut after = String::new();
        for (i, c) in self.text().chars().enumerate() {
            if skipped < scroll {
                skipped += c.to_string().width();
                continue;
            }
            match i.cmp(&self.cursor()) {
                std::cmp::Ordering::Less => before.push(c),
                std::cmp::Ordering::Equal => at = c.to_string(),
                std::cmp::Ordering::Greater => after.push(c),
            }
        }
        let rev = style.add_modifier(Modifier::REVERSED);
        let marked = if self.selected { rev } else { style };
        // What does not fit right of the cursor is cut.
        let room = width.saturating_sub(before.width() + at.width());
        let after: String = after
            .chars()
            .scan(0, |w, c| {
                *w += c.to_string().width();
                (*w <= room).then_some(c)
            })
            .collect();
        vec![
            Span::styled(before, marked),
            Span::styled(at, rev),
            Span::styled(after, marked),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(line: &mut LineEdit, s: &str) {
        for c in s.chars() {
            line.edit(Edit::Insert(c));
        }
    }

    fn drawn(line: &LineEdit, width: usize) -> String {
        line.spans(width, Style::default())
            .iter()
            .map(|s| s.content.to_string())
            .collect()
    }

    #[test]
    fn editing_keys() {
        let mut l = LineEdit::empty();
        typed(&mut l, "e2e4");
        l.edit(Edit::Left);
        l.edit(Edit::Left);
        typed(&mut l, "x");
        assert_eq!(l.text(), "e2xe4");
        l.edit(Edit::Home);
        l.edit(Edit::Delete);
        assert_eq!(l.text(), "2xe4");
        l.edit(Edit::End);
        l.edit(Edit::Backspace);
        assert_eq!(l.text(), "2xe");
        l.edit(Edit::Left);
        l.edit(Edit::ClearToStart);
        assert_eq!((l.text(), l.cursor()), ("e", 0));
        let mut w = LineEdit::with_text("saves/my game.toml");
        w.edit(Edit::DeleteWord);
        assert_eq!(w.text(), "saves/my game.");
        w.edit(Edit::DeleteWord);
        assert_eq!(w.text(), "saves/my ");
    }

    #[test]
    fn offered_text_is_replaced_by_typing() {
        let mut l = LineEdit::offered("/data/saves/qchess-1.toml");
        assert!(l.selected());
        typed(&mut l, "g.toml");
        assert_eq!(l.text(), "g.toml");
        assert!(!l.selected());

        let mut l = LineEdit::offered("/data/x.toml");
        l.edit(Edit::Backspace);
        assert_eq!(l.text(), "");

        // A cursor key keeps the offer for editing.
        let mut l = LineEdit::offered("x.toml");
        l.edit(Edit::Home);
        typed(&mut l, "my-");
        assert_eq!(l.text(), "my-x.toml");
        let mut l = LineEdit::offered("x.toml");
        l.edit(Edit::End);
        l.edit(Edit::Backspace);
        assert_eq!(l.text(), "x.tom");
    }

    #[test]
    fn long_lines_scroll_to_keep_the_cursor_in_view() {
        let mut l = LineEdit::with_text("abcdefghijklmnopqrstuvwxyz");
        // Cursor at the end: the tail shows, with the cursor cell last.
        assert_eq!(drawn(&l, 10), "rstuvwxyz ");
        l.edit(Edit::Home);
        assert_eq!(drawn(&l, 10), "abcdefghij");
        for _ in 0..15 {
            l.edit(Edit::Right);
        }
        let s = drawn(&l, 10);
        assert_eq!(s.chars().count(), 10);
        assert!(s.ends_with('p'), "{s}");
        // Short lines are drawn whole.
        assert_eq!(drawn(&LineEdit::with_text("e2e4"), 10), "e2e4 ");
    }
}
