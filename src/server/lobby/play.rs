//! The pairing page: the quick pairing pools (rated and casual) with how many wait in
//! each; Enter waits in the picked pool, Esc leaves the queue (and, not waiting, the
//! page). It is also the waiting screen of `ssh -t host seek 5+3`. No terminal in here:
//! the session draws it, feeds it events and carries out what it asks.

use super::picking;
use crate::club::Category;
use crate::server::pairing::Pool;
use crate::style::color::Paint;
use crate::ui::input::{self, Press};
use crate::ui::message::{Message, Tone};
use crossterm::event::{Event, KeyCode};
use ratatui::layout::{Constraint, Layout};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table, TableState, Wrap};
use ratatui::Frame;

/// What the player asked the pairing page for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayIntent {
    /// Wait in this pool.
    Seek(Pool),
    /// Wait no more.
    Unseek,
    /// Back to the lobby.
    Back,
    /// Leave the server.
    Quit,
}

/// The pairing page of one session.
pub struct PlayPage {
    me: String,
    /// Every pool with how many wait in it.
    pools: Vec<(Pool, usize)>,
    selected: usize,
    /// The pool the player waits in.
    waiting: Option<Pool>,
    message: Message,
    intent: Option<PlayIntent>,
}

impl PlayPage {
    /// The page of `me`, listing `pools` (with how many wait in each).
    pub fn new(me: &str, pools: Vec<(Pool, usize)>) -> PlayPage {
        PlayPage {
            me: me.to_string(),
            pools,
            selected: 0,
            waiting: None,
            message: Message {
                text: "pick a pool with ↑ ↓ and Enter to wait for an opponent".into(),
                tone: Tone::Plain,
            },
            intent: None,
        }
    }

    /// Shows the pools as they are now and the one the player waits in; true when
    /// that changed the page.
    pub fn refresh(&mut self, pools: Vec<(Pool, usize)>, waiting: Option<Pool>) -> bool {
        let changed = pools != self.pools || waiting != self.waiting;
        if let Some(i) = waiting.and_then(|w| pools.iter().position(|(p, _)| *p == w)) {
            if self.waiting != waiting {
                self.selected = i;
                self.say(
                    Tone::Info,
                    format!(
                        "waiting for an opponent in {}: the rating range widens as you wait; Esc leaves",
                        pools[i].0
                    ),
                );
            }
        }
        self.pools = pools;
        self.waiting = waiting;
        changed
    }

    /// Puts `text` on the message line.
    pub fn say(&mut self, tone: Tone, text: impl Into<String>) {
        self.message = Message {
            text: text.into(),
            tone,
        };
    }

    /// What the player asked for since the last look.
    pub fn take_intent(&mut self) -> Option<PlayIntent> {
        self.intent.take()
    }

    /// Handles one terminal event.
    pub fn handle_event(&mut self, event: Event) {
        let Event::Key(key) = event else {
            return;
        };
        let code = match input::press(key) {
            Press::Interrupt => return self.intent = Some(PlayIntent::Quit),
            Press::Ignored => return,
            Press::Key(code) => code,
        };
        let last = self.pools.len().saturating_sub(1);
        match code {
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => self.selected = (self.selected + 1).min(last),
            KeyCode::Enter => {
                if let Some((pool, _)) = self.pools.get(self.selected) {
                    self.intent = Some(PlayIntent::Seek(*pool));
                }
            }
            KeyCode::Esc | KeyCode::Char('q') if self.waiting.is_some() => {
                self.intent = Some(PlayIntent::Unseek);
                self.say(Tone::Plain, "you left the queue");
            }
            KeyCode::Esc | KeyCode::Char('q') => self.intent = Some(PlayIntent::Back),
            _ => {}
        }
    }

    /// Draws the page over the whole frame.
    pub fn draw(&self, f: &mut Frame, paint: &Paint) {
        let [head, list, keys, message] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(3),
            Constraint::Length(2),
            Constraint::Length(1),
        ])
        .areas(f.area());
        let head_line = Line::from(vec![
            Span::styled(" qchess ", paint.title()),
            Span::styled("quick pairing", paint.fg(paint.theme.text)),
            Span::styled(format!("   you are {}", self.me), paint.dim()),
        ]);
        f.render_widget(Paragraph::new(head_line), head);
        let text = paint.fg(paint.theme.text);
        let header = Row::new(["pool", "category", "kind", "waiting", ""]).style(paint.title());
        let rows: Vec<Row> = self
            .pools
            .iter()
            .map(|(pool, n)| {
                let kind = if pool.rated { "rated" } else { "casual" };
                let you = if self.waiting == Some(*pool) {
                    "you wait here"
                } else {
                    ""
                };
                Row::new([
                    Cell::from(pool.control.to_string()),
                    Cell::from(Category::of(pool.control).name()),
                    Cell::from(kind),
                    Cell::from(n.to_string()),
                    Cell::from(you),
                ])
                .style(text)
            })
            .collect();
        let widths = [
            Constraint::Length(6),
            Constraint::Length(10),
            Constraint::Length(7),
            Constraint::Length(8),
            Constraint::Fill(1),
        ];
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(paint.fg(paint.theme.border))
            .title(Span::styled(" Pools ", paint.title()));
        let table = picking(Table::new(rows, widths).header(header).block(block), paint);
        let mut state = TableState::default().with_selected(Some(self.selected));
        f.render_stateful_widget(table, list, &mut state);
        let key_text = vec![
            Line::styled(
                "↑ ↓ pick   Enter wait for an opponent   Esc leave the queue, or the page",
                text,
            ),
            Line::styled(
                "rated pools are for club members; guests play casual ones",
                text,
            ),
        ];
        f.render_widget(Paragraph::new(key_text).wrap(Wrap { trim: true }), keys);
        let style = match self.message.tone {
            Tone::Plain => paint.dim(),
            Tone::Info => paint.fg(paint.theme.info),
            Tone::Error => paint.fg(paint.theme.error).add_modifier(Modifier::BOLD),
        };
        f.render_widget(
            Paragraph::new(Line::styled(self.message.text.clone(), style)),
            message,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::pairing::{parse_seek, pools};
    use crossterm::event::{KeyEvent, KeyModifiers};

    fn key(code: KeyCode) -> Event {
        Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    #[test]
    fn enter_waits_in_the_picked_pool_and_esc_leaves_the_queue_then_the_page() {
        let all: Vec<_> = pools().into_iter().map(|p| (p, 0)).collect();
        let mut page = PlayPage::new("ann", all.clone());
        page.handle_event(key(KeyCode::Down));
        page.handle_event(key(KeyCode::Down));
        page.handle_event(key(KeyCode::Enter));
        let blitz = parse_seek("5+3").unwrap();
        assert_eq!(page.take_intent(), Some(PlayIntent::Seek(blitz)));
        assert!(page.refresh(all.clone(), Some(blitz)));
        assert!(page
            .message
            .text
            .contains("waiting for an opponent in 5+3 rated"));
        page.handle_event(key(KeyCode::Esc));
        assert_eq!(page.take_intent(), Some(PlayIntent::Unseek));
        page.refresh(all, None);
        page.handle_event(key(KeyCode::Char('q')));
        assert_eq!(page.take_intent(), Some(PlayIntent::Back));
    }
}
