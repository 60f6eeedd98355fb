//! What the game screen tells the player: the message line, the last messages (the help
//! shows them in full), the warning about the player's king that stays on the line until
//! the next move, and the words of the last move made here, told again with the reply
//! that answers it.

use crate::ui::message::{Message, Tone};
use crate::ui::recent::Recent;

/// The screen's words to the player.
#[derive(Debug)]
pub struct Talk {
    message: Message,
    recent: Recent,
    warning: Option<String>,
    /// What the last move made at this screen did, and the ply it led to.
    own: Option<(usize, String)>,
}

impl Default for Talk {
    fn default() -> Talk {
        Talk {
            message: Message {
                text: String::new(),
                tone: Tone::Plain,
            },
            recent: Recent::default(),
            warning: None,
            own: None,
        }
    }
}

impl Talk {
    /// The message line.
    pub fn message(&self) -> &Message {
        &self.message
    }

    /// The last messages, for the help.
    pub fn recent(&self) -> &Recent {
        &self.recent
    }

    /// Says `text`; `in_game` (a game being played, not a lesson, a puzzle or a replay)
    /// keeps the warning about the player's king on the line, whatever else it says.
    pub fn say(&mut self, tone: Tone, text: String, in_game: bool) {
        let mut text = text;
        if let Some(w) = self.warning.as_ref().filter(|_| in_game) {
            if !text.contains(w.as_str()) {
                text = format!("{text}. {w}");
            }
        }
        self.set(Message { text, tone });
    }

    /// Puts `m` on the line as it is.
    pub fn set(&mut self, m: Message) {
        self.recent.note(&m);
        self.message = m;
    }

    /// Forgets the warning: a new move tells its own.
    pub fn forget_warning(&mut self) {
        self.warning = None;
    }

    /// The words for the last move, which led to `ply`: `said` (what it did), then
    /// `warning` about the player's king, which stays until the next move. A move not
    /// made here (`own` false) that answers the move made here is told after it, so both
    /// stay readable: "white played ... Reply: black played ...".
    pub fn tell_move(
        &mut self,
        said: String,
        warning: Option<String>,
        ply: usize,
        own: bool,
    ) -> String {
        let mut said = said;
        self.warning = warning;
        let mine = self
            .own
            .take()
            .filter(|(at, _)| !own && at + 1 == ply)
            .map(|(_, mine)| mine);
        if let Some(w) = &self.warning {
            // Said once: the move made here may have said it already.
            if !mine.as_ref().is_some_and(|m| m.ends_with(w.as_str())) {
                said = format!("{said}. {w}");
            }
        }
        if let Some(mine) = mine {
            said = format!("{mine}. Reply: {said}");
        }
        if own {
            self.own = Some((ply, said.clone()));
        }
        said
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_is_told_after_the_move_it_answers_and_the_warning_once() {
        let mut talk = Talk::default();
        let w = "Careful: your king can be captured (50% by d8)".to_string();
        let mine = talk.tell_move("white played e2e4".into(), Some(w.clone()), 1, true);
        assert_eq!(mine, format!("white played e2e4. {w}"));
        let reply = talk.tell_move("black played d8h4".into(), Some(w.clone()), 2, false);
        assert_eq!(
            reply,
            format!("white played e2e4. {w}. Reply: black played d8h4")
        );
        // A reply to an older move is told alone.
        talk.tell_move("white played a2a3".into(), None, 3, true);
        let late = talk.tell_move("black played a7a6".into(), None, 5, false);
        assert_eq!(late, "black played a7a6");
    }

    #[test]
    fn the_warning_stays_on_the_line_in_a_game_only() {
        let mut talk = Talk::default();
        talk.tell_move("white played e2e4".into(), Some("Careful".into()), 1, true);
        talk.say(Tone::Error, "e9 is no square".into(), true);
        assert_eq!(talk.message().text, "e9 is no square. Careful");
        talk.say(Tone::Error, "e9 is no square".into(), false);
        assert_eq!(talk.message().text, "e9 is no square");
        talk.forget_warning();
        talk.say(Tone::Info, "saved".into(), true);
        assert_eq!(talk.message().text, "saved");
        assert_eq!(talk.recent().newest_first().count(), 3);
    }
}
