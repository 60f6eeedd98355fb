//! The tournaments page: the club's tournaments (kind, clock, length, state, players,
//! start), Enter one for its live standings and the boards of its round, and a new
//! tournament typed by a member (`n`: kind, clock, length, name; it starts a few
//! minutes later). The session reads it again from the club while it is shown.

use super::ask::{line_key, moved, pick_move, when, Ask, LineKey, Step, NO_ACCOUNT, PAGE_ROWS};
use super::picking;
use super::tournament::{draw_boards, standings_table, summary};
use crate::club::tournament::record::{Length, NewTournament, State, Tournament, TournamentId};
use crate::club::tournament::Kind;
use crate::club::{ClubError, ClubStore, MemberId};
use crate::server::director::TournamentView;
use crate::style::color::Paint;
use crate::ui::input::line_edit::LineEdit;
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Row, Table, TableState, Wrap};
use ratatui::Frame;
use std::time::{Duration, Instant};

/// How long after it is made a member's tournament starts: time for players to join.
pub const LEAD_SECS: i64 = 5 * 60;

/// The most rounds of a member's Swiss.
pub const MAX_ROUNDS: u32 = 11;

/// The shortest and longest arena a member may make, in minutes.
pub const ARENA_MINUTES: (u32, u32) = (10, 180);

/// The longest tournament name.
pub const MAX_NAME: usize = 24;

/// How often the page is read again while shown.
const LOOK_EVERY: Duration = Duration::from_secs(1);

/// A tournament as the list shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Listed {
    /// The tournament.
    pub tournament: Tournament,
    /// Its players taking part now.
    pub players: usize,
}

/// The tournaments page.
pub struct TournamentsPage {
    rows: Vec<Listed>,
    pick: usize,
    /// The tournament opened with Enter, with its standings.
    open: Option<TournamentView>,
    /// The new tournament being typed.
    line: Option<((), LineEdit)>,
    /// Whether the player is a member (who may make one).
    member: bool,
    looked: Instant,
}

/// Reads the typed words of a new tournament, `KIND CLOCK LENGTH NAME…` (`swiss 3+2 5
/// Friday Blitz`: five rounds; `arena 1+0 30 Lunch`: thirty minutes), made by
/// `creator` at `now`.
pub fn parse_new(text: &str, creator: MemberId, now: i64) -> Result<NewTournament, String> {
    const USE: &str =
        "type KIND CLOCK LENGTH NAME: swiss 3+2 5 Friday Blitz (5 rounds), arena 1+0 30 Lunch (30 minutes)";
    let mut words = text.split_whitespace();
    let (Some(kind), Some(clock), Some(length)) = (words.next(), words.next(), words.next()) else {
        return Err(USE.into());
    };
    let kind: Kind = kind
        .parse()
        .map_err(|e: crate::club::tournament::BadKind| e.to_string())?;
    let control = clock
        .parse()
        .map_err(|_| format!("{clock} is not a time control: write it as 3+2"))?;
    let n: u32 = length
        .parse()
        .map_err(|_| format!("{length} is not a number: {USE}"))?;
    let length = match kind {
        Kind::Swiss if (1..=MAX_ROUNDS).contains(&n) => Length::Rounds(n),
        Kind::Swiss => return Err(format!("a Swiss has 1 to {MAX_ROUNDS} rounds")),
        Kind::Arena if (ARENA_MINUTES.0..=ARENA_MINUTES.1).contains(&n) => Length::Minutes(n),
        Kind::Arena => {
            let (least, most) = ARENA_MINUTES;
            return Err(format!("an arena lasts {least} to {most} minutes"));
        }
    };
    let name = words.collect::<Vec<_>>().join(" ");
    let fine = |c: char| c.is_alphanumeric() || " -_".contains(c);
    if name.is_empty() || name.chars().count() > MAX_NAME || !name.chars().all(fine) {
        return Err(format!(
            "a tournament's name is 1 to {MAX_NAME} letters, digits, spaces, - or _"
        ));
    }
    Ok(NewTournament {
        name,
        kind,
        control,
        length,
        starts: now + LEAD_SECS,
        creator: Some(creator),
    })
}

/// The tournaments of the club, at most [`PAGE_ROWS`], the latest to start first.
fn listed(store: &dyn ClubStore) -> Result<Vec<Listed>, ClubError> {
    let mut all = store.tournaments()?;
    all.reverse();
    all.truncate(PAGE_ROWS);
    all.into_iter()
        .map(|t| {
            let players = store.entries(t.id)?.iter().filter(|e| !e.withdrawn).count();
            Ok(Listed {
                tournament: t,
                players,
            })
        })
        .collect()
}

/// Where a tournament is, in a word or two: `scheduled`, `round 2/5`, `running`.
fn state_words(t: &Tournament) -> String {
    match (t.state, t.made.length) {
        (State::Running, Length::Rounds(r)) => format!("round {}/{r}", t.round),
        (state, _) => state.name().to_string(),
    }
}

impl TournamentsPage {
    /// Reads the list and, when `open` names one, that tournament's standings; the
    /// player `member` or not.
    pub fn load(
        store: &dyn ClubStore,
        open: Option<TournamentId>,
        member: bool,
    ) -> Result<TournamentsPage, ClubError> {
        let rows = listed(store)?;
        let pick = open
            .and_then(|id| rows.iter().position(|l| l.tournament.id == id))
            .unwrap_or(0);
        let open = match open.and_then(|id| rows.iter().find(|l| l.tournament.id == id)) {
            Some(l) => Some(TournamentView::load(store, l.tournament.clone())?),
            None => None,
        };
        Ok(TournamentsPage {
            rows,
            pick,
            open,
            line: None,
            member,
            looked: Instant::now(),
        })
    }

    /// Whether it is time to read the page again.
    pub fn due(&self) -> bool {
        self.looked.elapsed() >= LOOK_EVERY
    }

    /// Reads the list and the standings shown again; whether they changed.
    pub fn reload(&mut self, store: &dyn ClubStore) -> Result<bool, ClubError> {
        self.looked = Instant::now();
        let rows = listed(store)?;
        let open = match &self.open {
            Some(v) => match rows.iter().find(|l| l.tournament.id == v.tournament.id) {
                Some(l) => Some(TournamentView::load(store, l.tournament.clone())?),
                None => None,
            },
            None => None,
        };
        let changed = rows != self.rows || open != self.open;
        self.pick = self.pick.min(rows.len().saturating_sub(1));
        self.rows = rows;
        self.open = open;
        Ok(changed)
    }

    /// Whether one tournament's standings are shown (Esc goes back to the list).
    pub fn showing_one(&self) -> bool {
        self.open.is_some()
    }

    /// Whether a new tournament is being typed.
    pub fn typing(&self) -> bool {
        self.line.is_some()
    }

    /// Takes pasted text into the new tournament's line.
    pub fn paste(&mut self, text: &str) {
        if let Some((_, edit)) = &mut self.line {
            edit.paste(text);
        }
    }

    /// Handles a key on the new tournament's line.
    pub fn line_key(&mut self, key: KeyEvent) -> Step {
        match line_key(&mut self.line, key, "no tournament made") {
            LineKey::Step(step) => step,
            LineKey::Submit => {
                let text = self
                    .line
                    .take()
                    .map(|(_, e)| e.text().to_string())
                    .unwrap_or_default();
                Step::Ask(Ask::NewTournament(text))
            }
        }
    }

    /// Handles a key (Esc and q on the list are the lobby's).
    pub fn key(&mut self, code: KeyCode) -> Step {
        if self.open.is_some() {
            return match code {
                KeyCode::Esc | KeyCode::Char('q') => {
                    self.open = None;
                    Step::Stay
                }
                _ => Step::Say("Esc goes back to the tournaments".into(), true),
            };
        }
        if let Some(by) = pick_move(code) {
            self.pick = moved(self.pick, self.rows.len(), by);
            return Step::Stay;
        }
        match code {
            KeyCode::Enter => match self.rows.get(self.pick) {
                Some(l) => Step::Ask(Ask::Tournaments(Some(l.tournament.id))),
                None => Step::Say("no tournament to open".into(), true),
            },
            KeyCode::Char('n') if !self.member => Step::Say(NO_ACCOUNT.into(), true),
            KeyCode::Char('n') => {
                self.line = Some(((), LineEdit::empty()));
                Step::Say(
                    "new tournament: KIND CLOCK LENGTH NAME (swiss 3+2 5 Friday Blitz, arena 1+0 30 Lunch); it starts in 5 minutes".into(),
                    false,
                )
            }
            _ => Step::Say(
                "that key does nothing here: the keys are listed below".into(),
                true,
            ),
        }
    }

    /// The page's keys.
    pub fn keys(&self) -> Vec<String> {
        if self.open.is_some() {
            return vec![
                "the standings and boards follow the games as they end".into(),
                "Esc back to the tournaments".into(),
            ];
        }
        vec![
            "↑ ↓ pick   Enter its standings   n new tournament   Esc back to the rooms".into(),
            "join one with: ssh -t NAME@host tournament TOURNAMENT".into(),
        ]
    }

    /// Draws the page in `area`.
    pub fn draw(&self, f: &mut Frame, area: Rect, paint: &Paint) {
        match &self.open {
            Some(view) => self.draw_one(f, area, paint, view),
            None => self.draw_list(f, area, paint),
        }
    }

    fn draw_list(&self, f: &mut Frame, area: Rect, paint: &Paint) {
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(paint.fg(paint.theme.border))
            .title(Span::styled(" Tournaments ", paint.title()));
        let inner = block.inner(area);
        f.render_widget(block, area);
        let (list, line) = match &self.line {
            Some(_) => {
                let [list, line] =
                    Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(inner);
                (list, Some(line))
            }
            None => (inner, None),
        };
        if let (Some((_, edit)), Some(at)) = (&self.line, line) {
            let label = "new: ";
            let width = usize::from(at.width).saturating_sub(label.len());
            let mut spans = vec![Span::styled(label, paint.title())];
            spans.extend(edit.spans(width, paint.fg(paint.theme.text)));
            f.render_widget(Paragraph::new(Line::from(spans)), at);
        }
        if self.rows.is_empty() {
            let none = "No tournaments yet: n makes one.";
            f.render_widget(Paragraph::new(none).style(paint.dim()), list);
            return;
        }
        let text = paint.fg(paint.theme.text);
        let header = Row::new([
            "name", "kind", "clock", "length", "state", "players", "starts",
        ])
        .style(paint.title());
        let rows: Vec<Row> = self
            .rows
            .iter()
            .map(|l| {
                let t = &l.tournament;
                let length = match t.made.length {
                    Length::Rounds(r) => format!("{r} rounds"),
                    Length::Minutes(m) => format!("{m} min"),
                };
                Row::new([
                    t.made.name.clone(),
                    t.made.kind.to_string(),
                    t.made.control.to_string(),
                    length,
                    state_words(t),
                    l.players.to_string(),
                    when(t.made.starts),
                ])
                .style(text)
            })
            .collect();
        let widths = [
            Constraint::Fill(1),
            Constraint::Length(6),
            Constraint::Length(6),
            Constraint::Length(9),
            Constraint::Length(10),
            Constraint::Length(8),
            Constraint::Length(16),
        ];
        let table = picking(Table::new(rows, widths).header(header), paint);
        let mut state = TableState::default().with_selected(Some(self.pick));
        f.render_stateful_widget(table, list, &mut state);
    }

    fn draw_one(&self, f: &mut Frame, area: Rect, paint: &Paint, view: &TournamentView) {
        let [head, body] =
            Layout::vertical([Constraint::Length(2), Constraint::Min(3)]).areas(area);
        let title = Line::from(vec![
            Span::styled(format!(" {} ", view.tournament.made.name), paint.title()),
            Span::styled(summary(view), paint.fg(paint.theme.text)),
        ]);
        f.render_widget(Paragraph::new(title).wrap(Wrap { trim: true }), head);
        let [left, right] =
            Layout::horizontal([Constraint::Fill(3), Constraint::Fill(2)]).areas(body);
        f.render_widget(standings_table(view, paint), left);
        draw_boards(f, right, view, paint);
    }
}
