//! The leaderboard page: a category's players who are not provisional and played a
//! rated game in it in the last 30 days, best first.

use super::ask::{moved, pick_move, when, Ask, Step, PAGE_ROWS};
use super::picking;
use crate::club::{BoardQuery, Category, CategoryRating, ClubError, ClubStore, Member};
use crate::style::color::Paint;
use crossterm::event::KeyCode;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Row, Table, TableState};
use ratatui::Frame;

/// How far back a rated game keeps a player on the leaderboard.
pub const RECENT_SECS: i64 = 30 * 24 * 3600;

/// The leaderboard of one category.
pub struct Board {
    category: Category,
    rows: Vec<(Member, CategoryRating)>,
    pick: usize,
}

impl Board {
    /// Reads the leaderboard of `category` as it is at `now`.
    pub fn load(store: &dyn ClubStore, category: Category, now: i64) -> Result<Board, ClubError> {
        let rows = store.leaderboard(BoardQuery {
            category,
            since: now - RECENT_SECS,
            limit: PAGE_ROWS,
        })?;
        Ok(Board::of(category, rows))
    }

    /// The leaderboard of `category` with these players, best first.
    pub fn of(category: Category, rows: Vec<(Member, CategoryRating)>) -> Board {
        Board {
            category,
            rows,
            pick: 0,
        }
    }

    /// Handles a key (Esc and q are the lobby's).
    pub fn key(&mut self, code: KeyCode) -> Step {
        let shift = |by: i64| {
            let all = Category::ALL;
            let at = all.iter().position(|c| *c == self.category).unwrap_or(0) as i64;
            all[(at + by).rem_euclid(all.len() as i64) as usize]
        };
        if let Some(by) = pick_move(code) {
            self.pick = moved(self.pick, self.rows.len(), by);
            return Step::Stay;
        }
        match code {
            KeyCode::Tab | KeyCode::Right | KeyCode::Char('l') => Step::Ask(Ask::Board(shift(1))),
            KeyCode::BackTab | KeyCode::Left | KeyCode::Char('h') => {
                Step::Ask(Ask::Board(shift(-1)))
            }
            KeyCode::Enter => match self.rows.get(self.pick) {
                Some((m, _)) => Step::Ask(Ask::Player(m.id, m.name.clone())),
                None => Step::Say("nobody to open here".into(), true),
            },
            _ => Step::Say(
                "that key does nothing here: the keys are listed below".into(),
                true,
            ),
        }
    }

    /// The page's keys.
    pub fn keys(&self) -> Vec<String> {
        vec![
            "Tab or ← → category   ↑ ↓ pick   Enter the player's page".into(),
            "Esc back to the rooms".into(),
        ]
    }

    /// Draws the page in `area`.
    pub fn draw(&self, f: &mut Frame, area: Rect, paint: &Paint) {
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(paint.fg(paint.theme.border))
            .title(Span::styled(" Leaderboard ", paint.title()));
        let inner = block.inner(area);
        f.render_widget(block, area);
        let [tabs, list] =
            Layout::vertical([Constraint::Length(2), Constraint::Min(1)]).areas(inner);
        let text = paint.fg(paint.theme.text);
        let mut spans = Vec::new();
        for c in Category::ALL {
            let style = if c == self.category {
                paint.title().add_modifier(Modifier::REVERSED)
            } else {
                paint.dim()
            };
            spans.push(Span::styled(format!(" {c} "), style));
            spans.push(Span::raw(" "));
        }
        let lines = vec![
            Line::from(spans),
            Line::styled(
                "players with a settled rating and a rated game in the last 30 days",
                paint.dim(),
            ),
        ];
        f.render_widget(Paragraph::new(lines), tabs);
        if self.rows.is_empty() {
            let none = format!(
                "Nobody yet: a {} rating settles after some rated games (its ? goes).",
                self.category
            );
            f.render_widget(Paragraph::new(none).style(paint.dim()), list);
            return;
        }
        let header =
            Row::new(["#", "player", "rating", "games", "last played"]).style(paint.title());
        let rows: Vec<Row> = self
            .rows
            .iter()
            .enumerate()
            .map(|(i, (m, r))| {
                Row::new([
                    (i + 1).to_string(),
                    m.name.clone(),
                    r.rating.to_string(),
                    r.games.to_string(),
                    when(r.last_played),
                ])
                .style(text)
            })
            .collect();
        let widths = [
            Constraint::Length(4),
            Constraint::Fill(1),
            Constraint::Length(7),
            Constraint::Length(6),
            Constraint::Length(16),
        ];
        let table = picking(Table::new(rows, widths).header(header), paint);
        let mut state = TableState::default().with_selected(Some(self.pick));
        f.render_stateful_widget(table, list, &mut state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::{MemberId, Rating};

    #[test]
    fn keys_switch_categories_and_open_players() {
        let ann = Member {
            id: MemberId(4),
            name: "ann".into(),
            created: 0,
        };
        let r = CategoryRating {
            category: Category::Blitz,
            rating: Rating::NEW,
            games: 3,
            last_played: 0,
        };
        let mut b = Board::of(Category::Bullet, vec![(ann, r)]);
        assert_eq!(b.key(KeyCode::Tab), Step::Ask(Ask::Board(Category::Blitz)));
        assert_eq!(
            b.key(KeyCode::Left),
            Step::Ask(Ask::Board(Category::Classical))
        );
        assert_eq!(b.key(KeyCode::Down), Step::Stay);
        assert_eq!(
            b.key(KeyCode::Enter),
            Step::Ask(Ask::Player(MemberId(4), "ann".into()))
        );
        let mut empty = Board::of(Category::Rapid, Vec::new());
        assert!(matches!(empty.key(KeyCode::Enter), Step::Say(_, true)));
    }
}
