//! What a page of the lobby asks the session for ([`Ask`]), what a key on a page did
//! ([`Step`]), and what the pages share: how many rows they read, times as they show
//! them, the pick in a list, the words for guests and for a failing database.

use crate::club::tournament::record::TournamentId;
use crate::club::{Category, ClubError, GameId, MemberId};
use crate::server::offers::Offer;
use crate::ui::input::line_edit::LineEdit;
use crate::ui::input::{self, Action, InputMode};
use crossterm::event::{KeyCode, KeyEvent};

/// What a key did to a page's typed line.
pub enum LineKey {
    /// What the page does now (the line edited, closed, or Ctrl-C).
    Step(Step),
    /// Enter: the page reads the line.
    Submit,
}

/// Edits a page's typed `line` with `key`: Ctrl-C leaves, Esc closes it saying
/// `cancelled`, Enter asks the page to read it, the rest edit it.
pub fn line_key<T>(line: &mut Option<(T, LineEdit)>, key: KeyEvent, cancelled: &str) -> LineKey {
    let Some((_, edit)) = line else {
        return LineKey::Step(Step::Stay);
    };
    match input::translate(InputMode::Prompt, key) {
        Some(Action::Interrupt) => LineKey::Step(Step::Quit),
        Some(Action::Cancel) => {
            *line = None;
            LineKey::Step(Step::Say(cancelled.into(), false))
        }
        Some(Action::Submit) => LineKey::Submit,
        Some(Action::Edit(e)) => {
            edit.edit(e);
            LineKey::Step(Step::Stay)
        }
        _ => LineKey::Step(Step::Stay),
    }
}

/// What a page asks for; the session carries it out with the club.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ask {
    /// The leaderboard of a category.
    Board(Category),
    /// The archive: every game, or one member's (their number and name).
    Games(Option<(MemberId, String)>),
    /// A member's page.
    Player(MemberId, String),
    /// The player's own page.
    Me,
    /// A game of the archive in the replay screen.
    Replay(GameId),
    /// Registers the key pasted (OpenSSH text) for the player.
    AddKey(String),
    /// Removes one of the player's keys, by fingerprint.
    RemoveKey(String),
    /// Deletes the player's account.
    DeleteAccount,
    /// The club's tournaments, and the standings of this one.
    Tournaments(Option<TournamentId>),
    /// Makes the tournament typed (`KIND CLOCK LENGTH NAME`).
    NewTournament(String),
}

/// What a key did on a page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Nothing for the lobby to do.
    Stay,
    /// Back to the rooms.
    Rooms,
    /// Ask the session for this.
    Ask(Ask),
    /// Leave the server (Ctrl-C).
    Quit,
    /// Put this on the message line, an error when `true`.
    Say(String, bool),
    /// Ask the session to make, take or answer an offer of a game.
    Offer(Offer),
}

/// How many rows a page reads from the club at most.
pub const PAGE_ROWS: usize = 200;

/// What a guest is told about accounts.
pub const NO_ACCOUNT: &str =
    "you are a guest: an account comes with signing in with an SSH key (ssh -i KEY …)";

/// A failure of the club's database as a player reads it (the details go to the
/// server's standard error).
pub fn failed(e: &ClubError) -> String {
    eprintln!("qchess serve: the club's database: {e}");
    "the club's database failed just now; try again in a moment".into()
}

/// A time as the pages show it: `2026-12-02 14:05` (UTC).
pub fn when(secs: i64) -> String {
    crate::record::iso_date(secs.max(0) as u64)[..16].replace('T', " ")
}

/// The step of a pick in a list of `n` by `by` (a key's move), within the list.
pub fn moved(pick: usize, n: usize, by: i64) -> usize {
    if n == 0 {
        return 0;
    }
    (pick as i64 + by).clamp(0, n as i64 - 1) as usize
}

/// The move of the pick a key asks for: ↑ ↓ (k j), Page Up / Down, Home, End.
pub fn pick_move(code: KeyCode) -> Option<i64> {
    Some(match code {
        KeyCode::Up | KeyCode::Char('k') => -1,
        KeyCode::Down | KeyCode::Char('j') => 1,
        KeyCode::PageUp => -10,
        KeyCode::PageDown => 10,
        KeyCode::Home => i64::MIN / 2,
        KeyCode::End => i64::MAX / 2,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_stay_in_their_list() {
        assert_eq!(moved(0, 0, 1), 0);
        assert_eq!(moved(0, 3, -1), 0);
        assert_eq!(moved(1, 3, 10), 2);
        assert_eq!(moved(2, 3, i64::MIN / 2), 0);
        assert_eq!(when(1_764_684_300), "2025-12-02 14:05");
    }
}
