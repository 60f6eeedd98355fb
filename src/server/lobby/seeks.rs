//! The seeks page: the custom seeks open on the server (who, their rating in the seek's
//! category, the clock, rated or casual, the colour they play, the ratings they take),
//! those open on the club's other servers with the command that reaches each, the
//! player's challenges waiting for an answer, and the lines to post a seek or
//! challenge a player by name; and the question a challenge to the player puts over
//! the lobby. No terminal in here: the lobby draws it and the session carries out what
//! it asks.

use super::ask::{line_key, moved, pick_move, LineKey, Step};
use super::picking;
use crate::club::Category;
use crate::server::challenge_book::Challenge;
use crate::server::offers::{Offer, SeekRow, Shown};
use crate::server::public::RemoteSeek;
use crate::server::terms::{parse_challenge, parse_terms, OfferError};
use crate::style::color::Paint;
use crate::ui::input::line_edit::LineEdit;
use crate::ui::popup::centered;
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Clear, Paragraph, Row, Table, TableState, Wrap};
use ratatui::Frame;

/// What the typed line is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Typing {
    /// A new seek's terms.
    Seek,
    /// A name and the terms of a challenge.
    Challenge,
}

/// The seeks page of one session.
pub struct SeeksPage {
    shown: Shown,
    /// The seeks open on the club's other servers (listed, taken there).
    elsewhere: Vec<RemoteSeek>,
    pick: usize,
    line: Option<(Typing, LineEdit)>,
}

impl SeeksPage {
    /// The page showing `shown`.
    pub fn new(shown: Shown) -> SeeksPage {
        SeeksPage {
            shown,
            elsewhere: Vec::new(),
            pick: 0,
            line: None,
        }
    }

    /// Shows the seeks open on the club's other servers as they are now.
    pub fn refresh_elsewhere(&mut self, seeks: Vec<RemoteSeek>) {
        self.elsewhere = seeks;
    }

    /// Shows the offers as they are now, the pick on the seek it was on.
    pub fn refresh(&mut self, shown: Shown) {
        let picked = self.shown.seeks.get(self.pick).map(|r| r.seek.id);
        self.pick = picked
            .and_then(|id| shown.seeks.iter().position(|r| r.seek.id == id))
            .unwrap_or(self.pick)
            .min(shown.seeks.len().saturating_sub(1));
        self.shown = shown;
    }

    /// Whether a line is being typed (its keys are the line's).
    pub fn typing(&self) -> bool {
        self.line.is_some()
    }

    /// Takes pasted text into the line, when one is open.
    pub fn paste(&mut self, text: &str) {
        if let Some((_, line)) = &mut self.line {
            line.paste(text.trim());
        }
    }

    /// Handles a key while the line is open: Enter posts or sends what it reads (a
    /// mistake is said and the line stays), Esc closes it.
    pub fn line_key(&mut self, key: KeyEvent) -> Step {
        if let LineKey::Step(step) = line_key(&mut self.line, key, "nothing offered") {
            return step;
        }
        let Some((typing, line)) = &self.line else {
            return Step::Stay;
        };
        match read(*typing, line.text()) {
            Ok(offer) => {
                self.line = None;
                Step::Offer(offer)
            }
            Err(e) => Step::Say(e.to_string(), true),
        }
    }

    /// Handles a key (Esc and q are the lobby's).
    pub fn key(&mut self, code: KeyCode) -> Step {
        if let Some(by) = pick_move(code) {
            self.pick = moved(self.pick, self.shown.seeks.len(), by);
            return Step::Stay;
        }
        let picked = self.shown.seeks.get(self.pick);
        match code {
            KeyCode::Enter => match picked {
                Some(row) => match &row.refusal {
                    Some(why) => Step::Say(why.to_string(), true),
                    None => Step::Offer(Offer::Take(row.seek.id)),
                },
                None => Step::Say("no seek to take: n posts one".into(), true),
            },
            KeyCode::Char('x') => match picked {
                Some(row) if row.refusal == Some(OfferError::Own) => {
                    Step::Offer(Offer::Cancel(row.seek.id))
                }
                _ => Step::Say("pick one of your seeks to cancel it".into(), true),
            },
            KeyCode::Char('n') => self.open_line(
                Typing::Seek,
                "new seek: a clock, rated or casual, white, black or random, a range; like 7+2 casual 1400-1700",
            ),
            KeyCode::Char('v') => self.open_line(
                Typing::Challenge,
                "challenge: a player's name, a clock, rated or casual, white, black or random; like bo 5+3",
            ),
            _ => Step::Say(
                "that key does nothing here: the keys are listed below".into(),
                true,
            ),
        }
    }

    fn open_line(&mut self, typing: Typing, said: &str) -> Step {
        self.line = Some((typing, LineEdit::empty()));
        Step::Say(format!("{said}; Enter sends, Esc cancels"), false)
    }

    /// The page's keys.
    pub fn keys(&self) -> Vec<String> {
        vec![
            "↑ ↓ pick   Enter take the seek   n new seek   x cancel yours   Esc back".into(),
            "v challenge a player by name   a challenge to you: y accepts, n declines".into(),
        ]
    }

    /// Draws the page in `area`.
    pub fn draw(&self, f: &mut Frame, area: Rect, paint: &Paint) {
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(paint.fg(paint.theme.border))
            .title(Span::styled(" Seeks ", paint.title()));
        let inner = block.inner(area);
        f.render_widget(block, area);
        let mine = self.shown.outgoing.len() as u16;
        // The other servers' seeks below this one's, in at most half the height.
        let there = match self.elsewhere.len() {
            0 => 0,
            n => (u16::try_from(n).unwrap_or(u16::MAX).saturating_add(2)).min(inner.height / 2),
        };
        let [list, elsewhere, challenges, line] = Layout::vertical([
            Constraint::Min(2),
            Constraint::Length(there),
            Constraint::Length(if mine > 0 { mine + 1 } else { 0 }),
            Constraint::Length(u16::from(self.line.is_some())),
        ])
        .areas(inner);
        self.draw_seeks(f, list, paint);
        if there > 0 {
            self.draw_elsewhere(f, elsewhere, paint);
        }
        let text = paint.fg(paint.theme.text);
        if mine > 0 {
            let mut lines = vec![Line::styled("your challenges", paint.title())];
            lines.extend(self.shown.outgoing.iter().map(|c| {
                Line::styled(
                    format!("to {}: {}, waiting for the answer", c.to, c.terms),
                    text,
                )
            }));
            f.render_widget(Paragraph::new(lines), challenges);
        }
        if let Some((typing, edit)) = &self.line {
            let label = match typing {
                Typing::Seek => "new seek: ",
                Typing::Challenge => "challenge: ",
            };
            let mut spans = vec![Span::styled(label, paint.title())];
            spans.extend(edit.spans(usize::from(line.width).saturating_sub(label.len()), text));
            f.render_widget(Paragraph::new(Line::from(spans)), line);
        }
    }

    fn draw_seeks(&self, f: &mut Frame, area: Rect, paint: &Paint) {
        if self.shown.seeks.is_empty() {
            let none = "No seeks open: n posts one (or ssh -t … seek 7+2 casual).";
            f.render_widget(Paragraph::new(none).style(paint.dim()), area);
            return;
        }
        let text = paint.fg(paint.theme.text);
        let header = Row::new([
            "who", "rating", "clock", "category", "kind", "colour", "range", "",
        ])
        .style(paint.title());
        let rows: Vec<Row> = self
            .shown
            .seeks
            .iter()
            .map(|r| seek_row(r).style(text))
            .collect();
        let widths = [
            Constraint::Fill(1),
            Constraint::Length(6),
            Constraint::Length(6),
            Constraint::Length(9),
            Constraint::Length(6),
            Constraint::Length(6),
            Constraint::Length(9),
            Constraint::Fill(1),
        ];
        let table = picking(Table::new(rows, widths).header(header), paint);
        let mut state = TableState::default().with_selected(Some(self.pick));
        f.render_stateful_widget(table, area, &mut state);
    }
}

impl SeeksPage {
    /// The seeks open on the club's other servers: who, rating, terms, and the command
    /// that opens their server's lobby, whose seeks page lists them.
    fn draw_elsewhere(&self, f: &mut Frame, area: Rect, paint: &Paint) {
        let text = paint.fg(paint.theme.text);
        let [title, table] =
            Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(area);
        f.render_widget(
            Paragraph::new(Line::styled(
                "on other servers of the club (take one there: o on its seeks page)",
                paint.title(),
            )),
            title,
        );
        let header = Row::new([
            "who",
            "rating",
            "clock",
            "kind",
            "colour",
            "range",
            "connect with",
        ])
        .style(paint.title());
        let rows: Vec<Row> = self
            .elsewhere
            .iter()
            .map(|r| {
                let s = &r.seek;
                let kind = if s.rated { "rated" } else { "casual" };
                Row::new([
                    Cell::from(s.poster.clone()),
                    Cell::from(s.rating.clone()),
                    Cell::from(s.clock.clone()),
                    Cell::from(kind),
                    Cell::from(s.colour.clone()),
                    Cell::from(s.range.clone().unwrap_or_else(|| "any".into())),
                    Cell::from(r.command()),
                ])
                .style(text)
            })
            .collect();
        // The command takes what it needs at 80 columns (a port and a host of 13).
        let widths = [
            Constraint::Fill(1),
            Constraint::Length(6),
            Constraint::Length(5),
            Constraint::Length(6),
            Constraint::Length(6),
            Constraint::Length(9),
            Constraint::Fill(3),
        ];
        f.render_widget(Table::new(rows, widths).header(header), table);
    }
}

/// A seek's row: its poster, their rating, the terms, and whether the viewer may take
/// it (`yours`, `members only`, `out of range`).
fn seek_row(r: &SeekRow) -> Row<'static> {
    let s = &r.seek;
    let state = match &r.refusal {
        None => "",
        Some(OfferError::Own) => "yours",
        Some(OfferError::GuestRated) => "members only",
        Some(OfferError::OutOfRange(..)) => "out of range",
        Some(_) => "closed",
    };
    Row::new([
        Cell::from(s.poster.name.clone()),
        Cell::from(s.rating.to_string()),
        Cell::from(s.terms.control.to_string()),
        Cell::from(Category::of(s.terms.control).name()),
        Cell::from(s.terms.kind()),
        Cell::from(s.terms.colour_words()),
        Cell::from(s.range.map_or_else(|| "any".into(), |r| r.to_string())),
        Cell::from(state),
    ])
}

/// What the typed line reads: a seek's terms, or a name and a challenge's terms.
fn read(typing: Typing, text: &str) -> Result<Offer, OfferError> {
    match typing {
        Typing::Seek => {
            let (terms, range) = parse_terms(text, true)?;
            Ok(Offer::Post(terms, range))
        }
        Typing::Challenge => {
            let (name, terms) = parse_challenge(text)?;
            Ok(Offer::Challenge(name, terms))
        }
    }
}

/// The answer a key gives to the challenge shown over the lobby: `y` accepts it, `n`
/// declines it.
pub fn answer(code: KeyCode, shown: &Shown) -> Option<Offer> {
    let c = shown.incoming.first()?;
    match code {
        KeyCode::Char('y') => Some(Offer::Answer(c.id, true)),
        KeyCode::Char('n') => Some(Offer::Answer(c.id, false)),
        _ => None,
    }
}

/// Draws the first challenge to the player over `area`: who (with their rating), the
/// terms, the colour the player would play, and the keys.
pub fn draw_challenge(f: &mut Frame, area: Rect, paint: &Paint, c: &Challenge, more: usize) {
    let r = centered(area, 56, 7);
    f.render_widget(Clear, r);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(paint.fg(paint.theme.title))
        .title(Span::styled(" A challenge ", paint.title()));
    let inner = block.inner(r);
    f.render_widget(block, r);
    let you = c
        .terms
        .colour
        .map_or("colours drawn at random".into(), |side| {
            format!("you play {}", side.opposite().name())
        });
    let text = paint.fg(paint.theme.text);
    let mut lines = vec![
        Line::styled(
            format!("{} ({}) challenges you:", c.from.name, c.rating),
            text,
        ),
        Line::styled(
            format!("{} {}, {you}", c.terms.control, c.terms.kind()),
            text,
        ),
        Line::raw(""),
        Line::styled("y accept   n decline", paint.title()),
    ];
    if more > 0 {
        lines.push(Line::styled(
            format!("{more} more after this one"),
            paint.dim(),
        ));
    }
    f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), inner);
}
