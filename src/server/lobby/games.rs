//! The archive page: finished games, most recent first, all of them or one member's;
//! Enter opens one in the replay screen ([`replay_screen`]).

use super::ask::{moved, pick_move, when, Ask, Step, PAGE_ROWS};
use super::picking;
use crate::chess::Status;
use crate::club::{
    ArchivedGame, Category, ClubError, ClubStore, GameId, GameQuery, MemberId, Seat,
};
use crate::record::SavedGame;
use crate::seats::strength::Strength;
use crate::seats::{Occupant, Occupants};
use crate::style::color::Paint;
use crate::ui::app::App;
use crossterm::event::KeyCode;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders, Paragraph, Row, Table, TableState};
use ratatui::Frame;
use std::path::Path;

/// The archive as the page lists it.
pub struct Games {
    of: Option<(MemberId, String)>,
    games: Vec<ArchivedGame>,
    pick: usize,
}

impl Games {
    /// Reads the most recent games, all or `of` one member's.
    pub fn load(store: &dyn ClubStore, of: Option<(MemberId, String)>) -> Result<Games, ClubError> {
        let games = store.games(GameQuery {
            member: of.as_ref().map(|(m, _)| *m),
            limit: PAGE_ROWS,
        })?;
        Ok(Games::of(of, games))
    }

    /// The page listing `games`, `of` one member's or all.
    pub fn of(of: Option<(MemberId, String)>, games: Vec<ArchivedGame>) -> Games {
        Games { of, games, pick: 0 }
    }

    /// Handles a key (Esc and q are the lobby's).
    pub fn key(&mut self, code: KeyCode) -> Step {
        if let Some(by) = pick_move(code) {
            self.pick = moved(self.pick, self.games.len(), by);
            return Step::Stay;
        }
        let picked = self.games.get(self.pick);
        let page_of = |seat: &Seat| match seat.member {
            Some(m) => Step::Ask(Ask::Player(m, seat.name.clone())),
            None => Step::Say(format!("{} has no account here", seat.name), true),
        };
        match (code, picked) {
            (KeyCode::Char('a'), _) if self.of.is_some() => Step::Ask(Ask::Games(None)),
            (KeyCode::Enter | KeyCode::Char('w' | 'b'), None) => {
                Step::Say("no game to open here".into(), true)
            }
            (KeyCode::Enter, Some(g)) => Step::Ask(Ask::Replay(g.id)),
            (KeyCode::Char('w'), Some(g)) => page_of(&g.white),
            (KeyCode::Char('b'), Some(g)) => page_of(&g.black),
            _ => Step::Say(
                "that key does nothing here: the keys are listed below".into(),
                true,
            ),
        }
    }

    /// The page's keys.
    pub fn keys(&self) -> Vec<String> {
        let all = if self.of.is_some() {
            "   a all games"
        } else {
            ""
        };
        vec![
            "↑ ↓ pick   Enter replay the game   w white's page   b black's page".into(),
            format!("Esc back to the rooms{all}"),
        ]
    }

    /// Draws the page in `area`.
    pub fn draw(&self, f: &mut Frame, area: Rect, paint: &Paint) {
        let title = match &self.of {
            Some((_, name)) => format!(" Games of {name} · most recent first "),
            None => " Games · most recent first ".into(),
        };
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(paint.fg(paint.theme.border))
            .title(Span::styled(title, paint.title()));
        if self.games.is_empty() {
            let none = Paragraph::new("No finished games yet.")
                .style(paint.dim())
                .block(block);
            f.render_widget(none, area);
            return;
        }
        let text = paint.fg(paint.theme.text);
        let header = Row::new(["ended", "white", "black", "clock", "result"]).style(paint.title());
        let rows: Vec<Row> = self
            .games
            .iter()
            .map(|g| {
                let (white, black) = players(g);
                Row::new([when(g.ended), white, black, clock_words(g), result_words(g)]).style(text)
            })
            .collect();
        let widths = [
            Constraint::Length(16),
            Constraint::Fill(2),
            Constraint::Fill(2),
            Constraint::Length(16),
            Constraint::Fill(3),
        ];
        let table = picking(Table::new(rows, widths).header(header).block(block), paint);
        let mut state = TableState::default().with_selected(Some(self.pick));
        f.render_stateful_widget(table, area, &mut state);
    }
}

/// Both players, with their ratings before a rated game (`ann 1512`), the computer in
/// brief (`qchess L2`).
pub fn players(g: &ArchivedGame) -> (String, String) {
    let short = |seat: &Seat| match Occupant::from_name(&seat.name).strength() {
        Some(Strength::Level(l)) => format!("qchess L{l}"),
        _ => seat.name.clone(),
    };
    match g.ratings {
        Some(r) => (
            format!("{} {}", g.white.name, r.white.0),
            format!("{} {}", g.black.name, r.black.0),
        ),
        None => (short(&g.white), short(&g.black)),
    }
}

/// The time control and whether the game was rated: `5+3 blitz`, `5+3 casual`, `none`.
pub fn clock_words(g: &ArchivedGame) -> String {
    match (g.control, g.rated) {
        (Some(c), true) => format!("{c} {}", Category::of(c)),
        (Some(c), false) => format!("{c} casual"),
        (None, _) => "none".into(),
    }
}

/// The result and why: `1-0 black resigned`, `½-½`.
pub fn result_words(g: &ArchivedGame) -> String {
    let score = match g.result {
        Status::WhiteWins => "1-0",
        Status::BlackWins => "0-1",
        _ => "½-½",
    };
    match &g.reason {
        Some(why) => format!("{score} {why}"),
        None => score.into(),
    }
}

/// Why an archived game does not open.
#[derive(Debug, thiserror::Error)]
#[error("game {id} of the archive does not open: {why}")]
pub struct NoReplay {
    id: i64,
    why: String,
}

/// The replay screen of game `id` of the archive from its `record` (saved-game TOML),
/// opened as `qchess replay` opens a file, for a player far away: nothing saved on the
/// server, no searches of its own.
pub fn replay_screen(
    id: GameId,
    record: &str,
    paint: Paint,
    letters: bool,
) -> Result<App, NoReplay> {
    let name = format!("club game {}", id.0);
    let path = Path::new(&name);
    let bad = |why: String| NoReplay { id: id.0, why };
    let saved = SavedGame::parse(record, path).map_err(|e| bad(e.to_string()))?;
    let game = saved
        .replay(path, None, None)
        .map_err(|e| bad(e.to_string()))?;
    let clock = match &saved.clock {
        Some(c) => Some((
            c.time_control(path).map_err(|e| bad(e.to_string()))?,
            c.clone(),
        )),
        None => None,
    };
    let app = App::new(game, paint, letters)
        .with_occupants(Occupants::of_players(&saved.players))
        .with_ending(saved.ending())
        .into_replay()
        .served();
    Ok(match clock {
        Some((control, saved)) => app.with_clock(control, Some(saved)),
        None => app,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::{RatedSides, Rating};

    fn game(n: i64, white: Option<MemberId>) -> ArchivedGame {
        ArchivedGame {
            id: GameId(n),
            white: Seat {
                member: white,
                name: "ann".into(),
            },
            black: Seat {
                member: None,
                name: "qchess level 2".into(),
            },
            rated: false,
            control: "5+3".parse().ok(),
            result: Status::BlackWins,
            reason: Some("white resigned".into()),
            ratings: None,
            started: 0,
            ended: 60,
            event: None,
        }
    }

    #[test]
    fn rows_say_players_clock_and_result() {
        let mut g = game(1, None);
        assert_eq!(clock_words(&g), "5+3 casual");
        assert_eq!(result_words(&g), "0-1 white resigned");
        g.rated = true;
        g.ratings = Some(RatedSides {
            category: Category::Blitz,
            white: (Rating::NEW, Rating::NEW),
            black: (
                Rating {
                    deviation: 60.0,
                    ..Rating::NEW
                },
                Rating::NEW,
            ),
        });
        assert_eq!(clock_words(&g), "5+3 blitz");
        assert_eq!(
            players(&g),
            ("ann 1500?".into(), "qchess level 2 1500".into())
        );
    }

    #[test]
    fn keys_open_games_and_players() {
        let mut page = Games::of(None, vec![game(7, Some(MemberId(3))), game(8, None)]);
        assert_eq!(page.key(KeyCode::Enter), Step::Ask(Ask::Replay(GameId(7))));
        assert_eq!(
            page.key(KeyCode::Char('w')),
            Step::Ask(Ask::Player(MemberId(3), "ann".into()))
        );
        assert!(matches!(page.key(KeyCode::Char('b')), Step::Say(_, true)));
        page.key(KeyCode::End);
        assert_eq!(page.key(KeyCode::Enter), Step::Ask(Ask::Replay(GameId(8))));
        assert!(matches!(page.key(KeyCode::Char('a')), Step::Say(_, true)));
        let mut mine = Games::of(Some((MemberId(3), "ann".into())), Vec::new());
        assert_eq!(mine.key(KeyCode::Char('a')), Step::Ask(Ask::Games(None)));
        assert!(matches!(mine.key(KeyCode::Enter), Step::Say(_, true)));
    }

    #[test]
    fn an_archived_record_opens_in_the_replay_screen() {
        let record = "format = 1\nmoves = [\"e2e4\", \"e7e5\"]\nresult = \"draw\"\n";
        let paint = Paint::new(Default::default(), crate::style::color::Tier::None);
        let app = replay_screen(GameId(3), record, paint.clone(), false).unwrap();
        assert_eq!(app.replay().map(|r| r.ply), Some(0));
        let e = replay_screen(GameId(4), "format = 99\n", paint, false)
            .err()
            .unwrap();
        assert!(
            e.to_string()
                .starts_with("game 4 of the archive does not open"),
            "{e}"
        );
    }
}
