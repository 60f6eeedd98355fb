//! A player's page: ratings per category with their history, results against the
//! computer's levels, recent games; on the player's own page, their keys (add one by
//! pasting it, remove one) and the deletion of their account.

use super::ask::{line_key, moved, pick_move, when, Ask, LineKey, Step, NO_ACCOUNT, PAGE_ROWS};
use super::picking;
use crate::club::{
    ArchivedGame, Category, CategoryRating, ClubError, ClubStore, ComputerResults, GameQuery,
    MemberId, MemberKey, Rating,
};
use crate::seats::strength::Strength;
use crate::seats::Occupant;
use crate::style::color::Paint;
use crate::ui::input::line_edit::LineEdit;
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Row, Table, TableState, Wrap};
use ratatui::Frame;

/// How many ratings a category's history shows.
const HISTORY: usize = 12;

/// What the typed line at the bottom of the own page is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Typing {
    /// A key's OpenSSH text.
    Key,
    /// The player's name, to confirm the account's deletion.
    Delete,
}

/// Which list the pick is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Focus {
    Games,
    Keys,
}

/// A player's page.
pub struct PlayerPage {
    name: String,
    member: Option<MemberId>,
    own: bool,
    /// When the account was made.
    since: Option<i64>,
    ratings: Vec<CategoryRating>,
    /// The ratings after each rated game, oldest first, per category.
    history: Vec<(Category, Vec<Rating>)>,
    games: Vec<ArchivedGame>,
    computer: Vec<ComputerResults>,
    keys: Vec<MemberKey>,
    focus: Focus,
    picks: (usize, usize),
    line: Option<(Typing, LineEdit)>,
}

impl PlayerPage {
    /// Reads the page of `member` (none: a guest), named `name`; `own` when it is the
    /// player's own (with their keys).
    pub fn load(
        store: &dyn ClubStore,
        member: Option<MemberId>,
        name: &str,
        own: bool,
    ) -> Result<PlayerPage, ClubError> {
        let mut page = PlayerPage {
            name: name.to_string(),
            member,
            own,
            since: None,
            ratings: Vec::new(),
            history: Vec::new(),
            games: Vec::new(),
            computer: Vec::new(),
            keys: Vec::new(),
            focus: Focus::Games,
            picks: (0, 0),
            line: None,
        };
        let Some(m) = member else {
            return Ok(page);
        };
        page.since = store.member(name)?.filter(|x| x.id == m).map(|x| x.created);
        page.ratings = store.ratings(m)?;
        page.games = store.games(GameQuery {
            member: Some(m),
            limit: PAGE_ROWS,
        })?;
        page.history = history(&page.games, m);
        page.computer = store.computer_results(m)?;
        page.computer.sort_by_key(|c| level_order(&c.name));
        if own {
            page.keys = store.keys(m)?;
        }
        Ok(page)
    }

    /// The page with the pick on the keys (after a key was added or removed).
    pub fn on_keys(mut self) -> PlayerPage {
        self.focus = Focus::Keys;
        self
    }

    /// Whether a line is being typed (its keys are the line's).
    pub fn typing(&self) -> bool {
        self.line.is_some()
    }

    /// Takes pasted text into the line (a key's text opens the line for it).
    pub fn paste(&mut self, text: &str) {
        if self.own && self.member.is_some() && self.line.is_none() {
            self.line = Some((Typing::Key, LineEdit::empty()));
        }
        if let Some((_, line)) = &mut self.line {
            line.paste(text.trim());
        }
    }

    /// Handles a key while the line is open.
    pub fn line_key(&mut self, key: KeyEvent) -> Step {
        if let LineKey::Step(step) = line_key(&mut self.line, key, "nothing changed") {
            return step;
        }
        let Some((typing, line)) = self.line.take() else {
            return Step::Stay;
        };
        let text = line.text().trim().to_string();
        match typing {
            Typing::Key => Step::Ask(Ask::AddKey(text)),
            Typing::Delete if text == self.name => Step::Ask(Ask::DeleteAccount),
            Typing::Delete => Step::Say(
                format!(
                    "{text:?} is not your name ({}): nothing was deleted",
                    self.name
                ),
                true,
            ),
        }
    }

    /// Handles a key (Esc and q are the lobby's).
    pub fn key(&mut self, code: KeyCode) -> Step {
        let manage = self.own && self.member.is_some();
        if let Some(by) = pick_move(code) {
            match self.focus {
                Focus::Games => self.picks.0 = moved(self.picks.0, self.games.len(), by),
                Focus::Keys => self.picks.1 = moved(self.picks.1, self.keys.len(), by),
            }
            return Step::Stay;
        }
        match code {
            KeyCode::Enter => match self.games.get(self.picks.0) {
                Some(g) if self.focus == Focus::Games => Step::Ask(Ask::Replay(g.id)),
                _ => Step::Say(
                    "pick a game first (Tab moves the pick to the games)".into(),
                    true,
                ),
            },
            KeyCode::Char('g') => match self.member {
                Some(m) => Step::Ask(Ask::Games(Some((m, self.name.clone())))),
                None => Step::Say(NO_ACCOUNT.into(), true),
            },
            KeyCode::Tab | KeyCode::BackTab if manage => {
                self.focus = match self.focus {
                    Focus::Games => Focus::Keys,
                    Focus::Keys => Focus::Games,
                };
                Step::Stay
            }
            KeyCode::Char('a') if manage => {
                self.line = Some((Typing::Key, LineEdit::empty()));
                Step::Say(
                    "paste your new public key (ssh-ed25519 AAAA… from its .pub file), Enter adds it, Esc cancels".into(),
                    false,
                )
            }
            KeyCode::Char('x') if manage => match self.keys.get(self.picks.1) {
                Some(k) if self.focus == Focus::Keys => {
                    Step::Ask(Ask::RemoveKey(k.fingerprint.clone()))
                }
                _ => Step::Say(
                    "pick a key first: Tab moves the pick to your keys".into(),
                    true,
                ),
            },
            KeyCode::Char('D') if manage => {
                self.line = Some((Typing::Delete, LineEdit::empty()));
                Step::Say(
                    format!(
                        "type {} and Enter to delete your account (keys, ratings; games stay), Esc keeps it",
                        self.name
                    ),
                    true,
                )
            }
            _ if self.own && self.member.is_none() => Step::Say(NO_ACCOUNT.into(), true),
            _ => Step::Say(
                "that key does nothing here: the keys are listed below".into(),
                true,
            ),
        }
    }

    /// The page's keys.
    pub fn keys(&self) -> Vec<String> {
        if self.member.is_none() {
            vec!["Esc back to the rooms".into()]
        } else if self.own {
            vec![
                "↑ ↓ pick   Enter replay   Tab games or keys   g all your games   Esc back".into(),
                "a add a key (paste it)   x remove the picked key   D delete the account".into(),
            ]
        } else {
            vec![
                "↑ ↓ pick a game   Enter replay it   g all their games".into(),
                "Esc back to the rooms".into(),
            ]
        }
    }

    /// Draws the page in `area`.
    pub fn draw(&self, f: &mut Frame, area: Rect, paint: &Paint) {
        let title = if self.own {
            format!(" {} · your page ", self.name)
        } else {
            format!(" {} ", self.name)
        };
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(paint.fg(paint.theme.border))
            .title(Span::styled(title, paint.title()));
        let inner = block.inner(area);
        f.render_widget(block, area);
        let text = paint.fg(paint.theme.text);
        if self.member.is_none() {
            let words = if self.own {
                NO_ACCOUNT.to_string()
            } else {
                format!("{} has no account here.", self.name)
            };
            f.render_widget(
                Paragraph::new(words).style(text).wrap(Wrap { trim: true }),
                inner,
            );
            return;
        }
        let keys_rows = if self.own {
            (self.keys.len() as u16 + 1).min(4)
        } else {
            0
        };
        let line_rows = u16::from(self.line.is_some());
        let [head, ratings, computer, games, keys, line] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(5),
            Constraint::Length(1),
            Constraint::Min(2),
            Constraint::Length(keys_rows),
            Constraint::Length(line_rows),
        ])
        .areas(inner);
        let since = self.since.map_or(String::new(), |s| {
            format!("member since {}", &when(s)[..10])
        });
        let played = format!("{since} · {} games in the archive", self.games.len());
        f.render_widget(Paragraph::new(Line::styled(played, paint.dim())), head);
        self.draw_ratings(f, ratings, paint);
        let vs = computer_words(&self.computer);
        f.render_widget(Paragraph::new(Line::styled(vs, text)), computer);
        self.draw_games(f, games, paint);
        if self.own {
            self.draw_keys(f, keys, paint);
        }
        if let Some((typing, edit)) = &self.line {
            let label = match typing {
                Typing::Key => "new key: ",
                Typing::Delete => "your name: ",
            };
            let mut spans = vec![Span::styled(label, paint.title())];
            spans.extend(edit.spans(usize::from(line.width).saturating_sub(label.len()), text));
            f.render_widget(Paragraph::new(Line::from(spans)), line);
        }
    }

    fn draw_ratings(&self, f: &mut Frame, area: Rect, paint: &Paint) {
        let text = paint.fg(paint.theme.text);
        let header = Row::new(["category", "rating", "games", "last played", "history"])
            .style(paint.title());
        let rows = Category::ALL.into_iter().map(|c| {
            let shown = self.ratings.iter().find(|r| r.category == c);
            let past = self
                .history
                .iter()
                .find(|(h, _)| *h == c)
                .map_or(&[][..], |(_, r)| r.as_slice());
            match shown {
                Some(r) => Row::new([
                    c.to_string(),
                    r.rating.to_string(),
                    r.games.to_string(),
                    when(r.last_played),
                    history_words(past),
                ]),
                None => Row::new([
                    c.to_string(),
                    "-".into(),
                    "0".into(),
                    String::new(),
                    String::new(),
                ]),
            }
            .style(text)
        });
        let widths = [
            Constraint::Length(9),
            Constraint::Length(6),
            Constraint::Length(5),
            Constraint::Length(16),
            Constraint::Fill(1),
        ];
        f.render_widget(Table::new(rows, widths).header(header), area);
    }

    fn draw_games(&self, f: &mut Frame, area: Rect, paint: &Paint) {
        let text = paint.fg(paint.theme.text);
        if self.games.is_empty() {
            f.render_widget(
                Paragraph::new("No finished games yet.").style(paint.dim()),
                area,
            );
            return;
        }
        let header =
            Row::new(["recent games", "white", "black", "clock", "result"]).style(paint.title());
        let rows = self.games.iter().map(|g| {
            let (white, black) = super::games::players(g);
            Row::new([
                when(g.ended),
                white,
                black,
                super::games::clock_words(g),
                super::games::result_words(g),
            ])
            .style(text)
        });
        let widths = [
            Constraint::Length(16),
            Constraint::Fill(2),
            Constraint::Fill(2),
            Constraint::Length(11),
            Constraint::Fill(3),
        ];
        let mut table = Table::new(rows, widths).header(header);
        if self.focus == Focus::Games {
            table = picking(table, paint);
        }
        let mut state = TableState::default().with_selected(Some(self.picks.0));
        f.render_stateful_widget(table, area, &mut state);
    }

    fn draw_keys(&self, f: &mut Frame, area: Rect, paint: &Paint) {
        let text = paint.fg(paint.theme.text);
        let header = Row::new(["your keys", "added"]).style(paint.title());
        let rows = self
            .keys
            .iter()
            .map(|k| Row::new([k.fingerprint.clone(), when(k.added)]).style(text));
        let widths = [Constraint::Fill(1), Constraint::Length(16)];
        let mut table = Table::new(rows, widths).header(header);
        if self.focus == Focus::Keys {
            table = picking(table, paint);
        }
        let mut state = TableState::default().with_selected(Some(self.picks.1));
        f.render_stateful_widget(table, area, &mut state);
    }
}

/// A member's ratings after each of their rated games in `games` (most recent first),
/// oldest first, per category.
fn history(games: &[ArchivedGame], member: MemberId) -> Vec<(Category, Vec<Rating>)> {
    let mut out: Vec<(Category, Vec<Rating>)> = Vec::new();
    for g in games.iter().rev() {
        let Some(r) = g.ratings else { continue };
        let after = if g.white.member == Some(member) {
            r.white.1
        } else if g.black.member == Some(member) {
            r.black.1
        } else {
            continue;
        };
        match out.iter_mut().find(|(c, _)| *c == r.category) {
            Some((_, all)) => all.push(after),
            None => out.push((r.category, vec![after])),
        }
    }
    out
}

/// The last ratings as a sparkline and the last change: `▁▃▅▇ +15`.
fn history_words(past: &[Rating]) -> String {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let last = &past[past.len().saturating_sub(HISTORY)..];
    let shown: Vec<i64> = last.iter().map(Rating::shown).collect();
    let (Some(lo), Some(hi)) = (shown.iter().min(), shown.iter().max()) else {
        return String::new();
    };
    let bars: String = shown
        .iter()
        .map(|r| {
            let at = if hi > lo {
                ((r - lo) * 7 / (hi - lo)) as usize
            } else {
                3
            };
            BARS[at]
        })
        .collect();
    match past {
        [.., before, after] => format!("{bars} {:+}", after.shown() - before.shown()),
        _ => bars,
    }
}

/// Where a computer's name sorts: its level, then the others by name.
fn level_order(name: &str) -> (u8, String) {
    match Occupant::from_name(name).strength() {
        Some(Strength::Level(l)) => (*l, String::new()),
        _ => (u8::MAX, name.to_string()),
    }
}

/// The results against the computer in a line: `vs the computer (won/drawn/lost):
/// level 1 2/0/1 · level 3 0/1/2`.
fn computer_words(results: &[ComputerResults]) -> String {
    if results.is_empty() {
        return "vs the computer: no games yet".into();
    }
    let each: Vec<String> = results
        .iter()
        .map(|c| {
            let who = c.name.strip_prefix("qchess ").unwrap_or(&c.name);
            format!("{who} {}/{}/{}", c.wins, c.draws, c.losses)
        })
        .collect();
    format!("vs the computer (won/drawn/lost): {}", each.join(" · "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Status;
    use crate::club::{GameId, RatedSides, Seat};
    use crossterm::event::KeyModifiers;

    fn rating(r: f64) -> Rating {
        Rating {
            rating: r,
            ..Rating::NEW
        }
    }

    #[test]
    fn the_history_is_the_ratings_after_each_game_oldest_first() {
        let me = MemberId(1);
        let game = |n: i64, white: bool, after: f64| ArchivedGame {
            id: GameId(n),
            white: Seat {
                member: Some(if white { me } else { MemberId(2) }),
                name: "w".into(),
            },
            black: Seat {
                member: Some(if white { MemberId(2) } else { me }),
                name: "b".into(),
            },
            rated: true,
            control: None,
            result: Status::Draw,
            reason: None,
            ratings: Some(RatedSides {
                category: Category::Blitz,
                white: (rating(0.0), rating(if white { after } else { 0.0 })),
                black: (rating(0.0), rating(if white { 0.0 } else { after })),
            }),
            started: 0,
            ended: n,
            event: None,
        };
        // Most recent first, as the archive lists them.
        let games = [
            game(3, true, 1530.0),
            game(2, false, 1515.0),
            game(1, true, 1400.0),
        ];
        let h = history(&games, me);
        assert_eq!(h.len(), 1);
        let shown: Vec<i64> = h[0].1.iter().map(Rating::shown).collect();
        assert_eq!(shown, [1400, 1515, 1530]);
        assert_eq!(history_words(&h[0].1), "▁▇█ +15");
        assert_eq!(history_words(&[rating(1500.0)]), "▄");
        assert_eq!(history_words(&[]), "");
    }

    #[test]
    fn computer_results_read_by_level() {
        let row = |name: &str, wins| ComputerResults {
            name: name.into(),
            wins,
            draws: 1,
            losses: 2,
        };
        let mut all = vec![
            row("qchess greedy", 1),
            row("qchess level 3", 0),
            row("qchess level 1", 4),
        ];
        all.sort_by_key(|c| level_order(&c.name));
        assert_eq!(
            computer_words(&all),
            "vs the computer (won/drawn/lost): level 1 4/1/2 · level 3 0/1/2 · greedy 1/1/2"
        );
        assert_eq!(computer_words(&[]), "vs the computer: no games yet");
    }

    fn own_page() -> PlayerPage {
        PlayerPage {
            name: "ann".into(),
            member: Some(MemberId(1)),
            own: true,
            since: Some(0),
            ratings: Vec::new(),
            history: Vec::new(),
            games: Vec::new(),
            computer: Vec::new(),
            keys: vec![MemberKey {
                fingerprint: "SHA256:k".into(),
                openssh: String::new(),
                member: MemberId(1),
                added: 0,
            }],
            focus: Focus::Games,
            picks: (0, 0),
            line: None,
        }
    }

    fn typed(p: &mut PlayerPage, text: &str) -> Step {
        for c in text.chars() {
            p.line_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
        }
        p.line_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE))
    }

    #[test]
    fn the_own_page_adds_and_removes_keys_and_deletes_on_the_name() {
        let mut p = own_page();
        assert!(matches!(p.key(KeyCode::Char('x')), Step::Say(_, true)));
        p.key(KeyCode::Tab);
        assert_eq!(
            p.key(KeyCode::Char('x')),
            Step::Ask(Ask::RemoveKey("SHA256:k".into()))
        );
        p.paste("ssh-ed25519 AAAA laptop\n");
        assert!(p.typing());
        assert_eq!(
            p.line_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
            Step::Ask(Ask::AddKey("ssh-ed25519 AAAA laptop".into()))
        );
        p.key(KeyCode::Char('D'));
        assert!(
            matches!(typed(&mut p, "Ann"), Step::Say(_, true)),
            "the name exactly"
        );
        p.key(KeyCode::Char('D'));
        assert_eq!(typed(&mut p, "ann"), Step::Ask(Ask::DeleteAccount));
        // Another's page manages nothing.
        let mut other = PlayerPage {
            own: false,
            ..own_page()
        };
        other.paste("ssh-ed25519 AAAA");
        assert!(!other.typing());
        assert!(matches!(other.key(KeyCode::Char('D')), Step::Say(_, true)));
        assert_eq!(
            other.key(KeyCode::Char('g')),
            Step::Ask(Ask::Games(Some((MemberId(1), "ann".into()))))
        );
    }
}
