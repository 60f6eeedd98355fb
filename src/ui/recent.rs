//! The last messages of a game screen, kept so that the help can show them in full: the
//! message area shows two rows at most, and a long message (an engine that failed, a
//! saved side that is not handed back) is cut there.

use super::message::{Message, Tone};
use std::collections::VecDeque;

/// How many messages are kept.
pub const KEPT: usize = 6;

/// The last [`KEPT`] news and refusals, newest first (the hints of the `Plain` tone
/// are not kept: they repeat what the help says).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recent(VecDeque<String>);

impl Recent {
    /// Keeps `m` unless it is a hint, blank, or the same words as the newest kept.
    pub fn note(&mut self, m: &Message) {
        let text = m.text.trim();
        if m.tone == Tone::Plain || text.is_empty() || self.0.front().is_some_and(|t| t == text) {
            return;
        }
        self.0.push_front(text.to_string());
        self.0.truncate(KEPT);
    }

    /// The messages kept, newest first.
    pub fn newest_first(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(tone: Tone, text: &str) -> Message {
        Message {
            text: text.into(),
            tone,
        }
    }

    #[test]
    fn keeps_the_last_news_and_refusals_newest_first() {
        let mut r = Recent::default();
        r.note(&m(Tone::Plain, "white to move: pick a piece"));
        r.note(&m(Tone::Error, "zz9 is not a move"));
        r.note(&m(Tone::Error, "zz9 is not a move"));
        r.note(&m(Tone::Info, "  "));
        r.note(&m(Tone::Info, "black played e7e5"));
        fn kept(r: &Recent) -> Vec<&str> {
            r.newest_first().collect()
        }
        assert_eq!(kept(&r), ["black played e7e5", "zz9 is not a move"]);
        for i in 0..10 {
            r.note(&m(Tone::Info, &format!("move {i}")));
        }
        assert_eq!(kept(&r).len(), KEPT);
        assert_eq!(kept(&r)[0], "move 9");
    }
}
