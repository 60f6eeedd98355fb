//! The lobby: the open rooms (variant, players, clock, plies so far), and the keys to
//! join one as white, black or a watcher, to open a new room (name, variant, backend,
//! time control), to play the computer (a new room with the computer in one seat: the
//! player's side and the computer's level), to pick a theme, or to leave; the club's
//! pages in its place (`pages.rs`): the leaderboard, the archive, a player's page; the
//! seeks page (`seeks.rs`), and a challenge to the player asked over it all. No
//! terminal in here: the session draws it and feeds it events.

pub mod account;
pub mod ask;
pub mod board;
pub mod games;
pub mod pages;
pub mod play;
pub mod player;
pub mod seeks;
pub mod tournament;
pub mod tournaments;

use self::ask::{Ask, Step};
use self::pages::Page;
use self::seeks::SeeksPage;
use super::computer::ComputerSeat;
use super::hub::Plan;
use super::offers::{Offer, Shown};
use super::public::Elsewhere;
use super::room::{Roster, Summary, Want};
use crate::chess::{Color, Status};
use crate::club::Category;
use crate::engine;
use crate::game::clock::TimeControl;
use crate::game::RuleSet;
use crate::quantum::BackendKind;
use crate::seats::strength::Strength;
use crate::seats::Occupant;
use crate::style::color::Paint;
use crate::ui::input::line_edit::LineEdit;
use crate::ui::input::{self, Action, InputMode, Press};
use crate::ui::message::{Message, Tone};
use crate::ui::panes::top_bar;
use crate::ui::popup::centered;
use crossterm::event::{Event, KeyCode, KeyEvent, MouseButton, MouseEventKind};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Block, Borders, Cell, Clear, HighlightSpacing, Paragraph, Row, Table, TableState, Wrap,
};
use ratatui::Frame;
use std::cell::Cell as StdCell;

/// What the player asked the lobby for; the session carries it out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Intent {
    /// Enter the room called `0` as `1` asks.
    Join(String, Want),
    /// Open a new room and enter it.
    Create {
        /// Its name.
        name: String,
        /// What it plays (with the computer in the other seat, when the player plays
        /// the computer).
        plan: Plan,
    },
    /// Open the lessons (`qchess learn`) in this session.
    Learn,
    /// Open the pairing page ([`play`]).
    Play,
    /// Open a page of the club, or change what the club keeps of the player.
    Page(Ask),
    /// Make, take or answer an offer of a game (a seek, a challenge).
    Offer(Offer),
    /// Use the next theme.
    NextTheme,
    /// Switch between chess glyphs and letters.
    Letters,
    /// Leave the server.
    Quit,
}

/// The backends a new Quantum Chess room may use.
const BACKENDS: [BackendKind; 2] = [BackendKind::Sparse, BackendKind::Dense];

/// The time controls the form offers (the server's own is added among them), from
/// bullet to classical.
const CLOCKS: [&str; 10] = [
    "1+0", "2+1", "3+0", "3+2", "5+0", "5+3", "10+0", "10+5", "15+10", "30+0",
];

/// The time controls a new room may play, shortest first, no clock last; the
/// server's own `default` among them.
fn clock_choices(default: Option<TimeControl>) -> Vec<Option<TimeControl>> {
    let mut all: Vec<TimeControl> = CLOCKS.iter().filter_map(|c| c.parse().ok()).collect();
    if let Some(d) = default.filter(|d| !all.contains(d)) {
        all.push(d);
    }
    all.sort_by_key(|c| (c.base, c.increment));
    all.into_iter().map(Some).chain([None]).collect()
}

/// A time control in the lobby: "10+5", "none".
fn clock_words(clock: Option<TimeControl>) -> String {
    clock.map_or_else(|| "none".into(), |c| c.to_string())
}

/// The computer's level a new computer room starts with: level 2 rather than the
/// engine's default 3, because a server shares its cores among every room's computer
/// (level 2's budget of work is a third of level 3's), and a player who wants more picks
/// it in the form.
pub const COMPUTER_LEVEL: u8 = 2;

/// The new-room form.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Form {
    name: LineEdit,
    rules: usize,
    backend: usize,
    /// Against the computer: the player's side and the computer's level.
    computer: Option<(Color, u8)>,
    /// The time control picked, in [`Lobby::clocks`].
    clock: usize,
    /// The field with the focus, in [`Form::fields`].
    field: usize,
}

/// A field of the form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Name,
    Variant,
    Backend,
    Side,
    Level,
    Clock,
}

impl Form {
    /// Its fields, in order: against the computer, the side and the level too.
    fn fields(&self) -> &'static [Field] {
        use Field::*;
        if self.computer.is_some() {
            &[Name, Variant, Backend, Side, Level, Clock]
        } else {
            &[Name, Variant, Backend, Clock]
        }
    }

    /// The field with the focus.
    fn focus(&self) -> Field {
        self.fields()[self.field]
    }
}

/// What the lobby says first.
const ROOMS_HELLO: &str = "pick a room with ↑ ↓ and Enter, or c to open a new one";

/// `table` with its picked row shown as the lobby's lists show it.
fn picking<'a>(table: Table<'a>, paint: &Paint) -> Table<'a> {
    let text = paint.fg(paint.theme.text);
    table
        .row_highlight_style(paint.on(text.add_modifier(Modifier::REVERSED), paint.theme.cursor))
        .highlight_symbol("> ")
}

/// The smallest terminal the lobby draws in.
pub const MIN_SIZE: (u16, u16) = (40, 10);

/// The lobby of one session.
pub struct Lobby {
    me: String,
    /// The time controls a new room may play, and the server's own, offered first.
    clocks: (Vec<Option<TimeControl>>, usize),
    /// How long a room no player is in is kept, in words.
    kept: String,
    rooms: Vec<Summary>,
    /// The rooms open on the club's other servers, listed after this one's, and their
    /// seeks (on the seeks page).
    elsewhere: Elsewhere,
    /// The room picked: one of [`Lobby::rooms`], or past them one of the others.
    selected: usize,
    form: Option<Form>,
    /// The club's page shown in place of the rooms.
    page: Option<Page>,
    /// The offers of games as last shown, and their version.
    offers: (Option<u64>, Shown),
    message: Message,
    intent: Option<Intent>,
    /// Where the room lists were last drawn, for clicks: each one's first row on the
    /// screen, the index (among all the rooms) of the room shown there, and how many
    /// rows are shown; this server's rooms, then the others'.
    list_at: [StdCell<(u16, usize, u16)>; 2],
}

impl Lobby {
    /// The lobby of `me`, listing `rooms`; `kept` says how long a room no player is in
    /// is kept; `clock` is the server's time control for a new room.
    pub fn new(me: &str, rooms: Vec<Summary>, kept: &str, clock: Option<TimeControl>) -> Lobby {
        let choices = clock_choices(clock);
        let default = choices.iter().position(|c| *c == clock).unwrap_or(0);
        Lobby {
            me: me.to_string(),
            clocks: (choices, default),
            kept: kept.to_string(),
            rooms,
            elsewhere: Elsewhere::default(),
            selected: 0,
            form: None,
            page: None,
            offers: (None, Shown::default()),
            message: Message {
                text: ROOMS_HELLO.into(),
                tone: Tone::Plain,
            },
            intent: None,
            list_at: [StdCell::new((0, 0, 0)), StdCell::new((0, 0, 0))],
        }
    }

    /// Shows the rooms as they are now; true when that changed the list.
    pub fn refresh(&mut self, rooms: Vec<Summary>) -> bool {
        if rooms == self.rooms {
            return false;
        }
        let keep = self.picked_key();
        self.rooms = rooms;
        self.pick_again(keep);
        true
    }

    /// Shows the rooms and seeks open on the club's other servers as they are now; true
    /// when that changed the lists.
    pub fn refresh_elsewhere(&mut self, there: Elsewhere) -> bool {
        if there == self.elsewhere {
            return false;
        }
        if let Some(Page::Seeks(p)) = &mut self.page {
            p.refresh_elsewhere(there.seeks.clone());
        }
        let keep = self.picked_key();
        self.elsewhere = there;
        self.pick_again(keep);
        true
    }

    /// The room picked, to find it again in a new list: its name, and where it is
    /// when it is on another server.
    fn picked_key(&self) -> Option<(String, Option<String>)> {
        match self.rooms.get(self.selected) {
            Some(s) => Some((s.name.clone(), None)),
            None => self
                .elsewhere
                .rooms
                .get(self.selected - self.rooms.len())
                .map(|r| (r.room.name.clone(), Some(r.address.to_string()))),
        }
    }

    /// Picks the room `key` again in the lists as they are now (else the same place).
    fn pick_again(&mut self, key: Option<(String, Option<String>)>) {
        let found = key.and_then(|(name, at)| match at {
            None => self.rooms.iter().position(|s| s.name == name),
            Some(at) => self
                .elsewhere
                .rooms
                .iter()
                .position(|r| r.room.name == name && r.address.to_string() == at)
                .map(|i| self.rooms.len() + i),
        });
        let all = self.rooms.len() + self.elsewhere.rooms.len();
        self.selected = found.unwrap_or(self.selected).min(all.saturating_sub(1));
    }

    /// Puts `text` on the message line.
    pub fn say(&mut self, tone: Tone, text: impl Into<String>) {
        self.message = Message {
            text: text.into(),
            tone,
        };
    }

    /// What the player asked for since the last look.
    pub fn take_intent(&mut self) -> Option<Intent> {
        self.intent.take()
    }

    /// The rooms listed.
    pub fn rooms(&self) -> &[Summary] {
        &self.rooms
    }

    /// Shows a page of the club in place of the rooms.
    pub fn show(&mut self, page: Page) {
        self.page = Some(page);
        self.form = None;
        self.say(Tone::Plain, "");
    }

    /// The version of the offers last shown (none yet).
    pub fn offers_version(&self) -> Option<u64> {
        self.offers.0
    }

    /// Shows the offers of games as they are at `version`.
    pub fn show_offers(&mut self, version: u64, shown: Shown) {
        if let Some(Page::Seeks(p)) = &mut self.page {
            p.refresh(shown.clone());
        }
        self.offers = (Some(version), shown);
    }

    /// Shows the seeks page in place of the rooms.
    pub fn show_seeks(&mut self) {
        let mut page = SeeksPage::new(self.offers.1.clone());
        page.refresh_elsewhere(self.elsewhere.seeks.clone());
        self.show(Page::Seeks(page));
    }

    /// The tournaments page, when it is shown (the session reads it again).
    pub fn tournaments_shown(&mut self) -> Option<&mut tournaments::TournamentsPage> {
        match &mut self.page {
            Some(Page::Tournaments(t)) => Some(t.as_mut()),
            _ => None,
        }
    }

    /// Back to the rooms from a page.
    pub fn show_rooms(&mut self) {
        self.page = None;
    }

    fn page_key(&mut self, key: KeyEvent) {
        let Some(page) = &mut self.page else {
            return;
        };
        match page.key(key) {
            Step::Stay => {}
            Step::Rooms => {
                self.page = None;
                self.say(Tone::Plain, ROOMS_HELLO);
            }
            Step::Ask(ask) => self.intent = Some(Intent::Page(ask)),
            Step::Offer(offer) => self.intent = Some(Intent::Offer(offer)),
            Step::Quit => self.intent = Some(Intent::Quit),
            Step::Say(text, error) => {
                let tone = if error { Tone::Error } else { Tone::Plain };
                self.say(tone, text);
            }
        }
    }

    /// Handles one terminal event.
    pub fn handle_event(&mut self, event: Event) {
        if let Event::Key(k) = &event {
            let typing = self.form.is_some() || self.page.as_ref().is_some_and(Page::typing);
            let answer = match input::press(*k) {
                Press::Key(code) if !typing => seeks::answer(code, &self.offers.1),
                _ => None,
            };
            if let Some(answer) = answer {
                self.intent = Some(Intent::Offer(answer));
                return;
            }
        }
        match event {
            Event::Key(k) if self.page.is_some() => self.page_key(k),
            Event::Key(k) if self.form.is_some() => self.form_key(k),
            Event::Key(k) => self.key(k),
            Event::Paste(text) => {
                if let Some(page) = &mut self.page {
                    page.paste(&text);
                } else if let Some(form) = &mut self.form {
                    form.name.paste(&text);
                }
            }
            Event::Mouse(m) if self.form.is_none() && self.page.is_none() => match m.kind {
                MouseEventKind::Down(MouseButton::Left) => {
                    let all = self.rooms.len() + self.elsewhere.rooms.len();
                    let lists = [self.list_at[0].get(), self.list_at[1].get()];
                    for (top, first, rows) in lists {
                        if m.row >= top && m.row < top + rows {
                            let i = first + usize::from(m.row - top);
                            if i < all {
                                if i == self.selected {
                                    self.join(Want::Any);
                                }
                                self.selected = i;
                            }
                        }
                    }
                }
                MouseEventKind::ScrollDown => self.step(1),
                MouseEventKind::ScrollUp => self.step(-1),
                _ => {}
            },
            _ => {}
        }
    }

    fn step(&mut self, by: i64) {
        let n = (self.rooms.len() + self.elsewhere.rooms.len()) as i64;
        if n > 0 {
            self.selected = (self.selected as i64 + by).clamp(0, n - 1) as usize;
        }
    }

    fn join(&mut self, want: Want) {
        if let Some(s) = self.rooms.get(self.selected) {
            return self.intent = Some(Intent::Join(s.name.clone(), want));
        }
        // On another server: where to go, nothing opened.
        let there = self.selected.checked_sub(self.rooms.len());
        match there.and_then(|i| self.elsewhere.rooms.get(i)) {
            Some(r) => {
                let words = format!(
                    "{} is on the club's server {}: connect with {}",
                    r.room.name,
                    r.address,
                    r.command(Some(&self.me))
                );
                self.say(Tone::Info, words);
            }
            None => self.say(Tone::Error, "there is no room yet: c opens one"),
        }
    }

    fn key(&mut self, key: KeyEvent) {
        let code = match input::press(key) {
            Press::Interrupt => return self.intent = Some(Intent::Quit),
            Press::Ignored => return,
            Press::Key(code) => code,
        };
        match code {
            KeyCode::Up | KeyCode::Char('k') => self.step(-1),
            KeyCode::Down | KeyCode::Char('j') => self.step(1),
            KeyCode::Home => self.step(i64::MIN / 2),
            KeyCode::End => self.step(i64::MAX / 2),
            KeyCode::Enter => self.join(Want::Any),
            KeyCode::Char('w') => self.join(Want::Side(Color::White)),
            KeyCode::Char('b') => self.join(Want::Side(Color::Black)),
            KeyCode::Char('s') => self.join(Want::Watch),
            KeyCode::Char('c') => self.open_form(None),
            KeyCode::Char('e') => self.open_form(Some((Color::White, COMPUTER_LEVEL))),
            KeyCode::Char('l') => self.intent = Some(Intent::Learn),
            KeyCode::Char('p') => self.intent = Some(Intent::Play),
            KeyCode::Char('r') => self.intent = Some(Intent::Page(Ask::Board(Category::Blitz))),
            KeyCode::Char('g') => self.intent = Some(Intent::Page(Ask::Games(None))),
            KeyCode::Char('m') => self.intent = Some(Intent::Page(Ask::Me)),
            KeyCode::Char('o') => self.show_seeks(),
            KeyCode::Char('u') => self.intent = Some(Intent::Page(Ask::Tournaments(None))),
            KeyCode::Char('t') => self.intent = Some(Intent::NextTheme),
            KeyCode::Char('a') => self.intent = Some(Intent::Letters),
            KeyCode::Char('q') | KeyCode::Esc => self.intent = Some(Intent::Quit),
            KeyCode::Char(c) => self.say(
                Tone::Error,
                format!("the key '{c}' does nothing here: the keys are listed below"),
            ),
            _ => {}
        }
    }

    fn open_form(&mut self, computer: Option<(Color, u8)>) {
        self.form = Some(Form {
            name: LineEdit::offered(self.free_name()),
            rules: 0,
            backend: 0,
            computer,
            clock: self.clocks.1,
            field: 0,
        });
        let what = if computer.is_some() {
            "play the computer: a room name"
        } else {
            "new room: type its name"
        };
        self.say(
            Tone::Plain,
            format!("{what}; Tab next field, ← → choose, Enter opens, Esc cancels"),
        );
    }

    /// A room name nobody uses yet: the player's name, numbered if need be.
    fn free_name(&self) -> String {
        let taken = |n: &str| self.rooms.iter().any(|s| s.name == n);
        let base: String = self
            .me
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .take(16)
            .collect();
        let base = if base.is_empty() {
            "room".to_string()
        } else {
            base
        };
        (1..)
            .map(|i| {
                if i == 1 {
                    base.clone()
                } else {
                    format!("{base}{i}")
                }
            })
            .find(|n| !taken(n))
            .unwrap_or(base)
    }

    fn form_key(&mut self, key: KeyEvent) {
        let Some(form) = &mut self.form else {
            return;
        };
        let on_name = form.focus() == Field::Name;
        let fields = form.fields().len();
        let choose = |n: usize, i: usize, by: i64| (i as i64 + by).rem_euclid(n as i64) as usize;
        match (key.code, on_name) {
            (KeyCode::Tab | KeyCode::Down, _) => form.field = (form.field + 1) % fields,
            (KeyCode::BackTab | KeyCode::Up, _) => form.field = (form.field + fields - 1) % fields,
            (KeyCode::Left | KeyCode::Right, false) => {
                let by = if key.code == KeyCode::Left { -1 } else { 1 };
                match (form.focus(), &mut form.computer) {
                    (Field::Variant, _) => form.rules = choose(RuleSet::ALL.len(), form.rules, by),
                    (Field::Backend, _) => form.backend = choose(BACKENDS.len(), form.backend, by),
                    (Field::Clock, _) => form.clock = choose(self.clocks.0.len(), form.clock, by),
                    (Field::Side, Some((side, _))) => *side = side.opposite(),
                    (Field::Level, Some((_, level))) => {
                        let levels = usize::from(engine::level::MAX_LEVEL);
                        *level = choose(levels, usize::from(*level) - 1, by) as u8 + 1;
                    }
                    _ => {}
                }
            }
            _ => match input::translate(InputMode::Prompt, key) {
                Some(Action::Interrupt) => self.intent = Some(Intent::Quit),
                Some(Action::Cancel) => {
                    self.form = None;
                    self.say(Tone::Plain, "no new room");
                }
                Some(Action::Submit) => {
                    let rules = RuleSet::ALL[form.rules];
                    // The variants have no search: their computer is the greedy player.
                    let computer = form.computer.map(|(side, level)| ComputerSeat {
                        side: side.opposite(),
                        level: rules.searched().then_some(level),
                    });
                    let intent = Intent::Create {
                        name: form.name.text().trim().to_string(),
                        plan: Plan {
                            rules,
                            backend: BACKENDS[form.backend],
                            computer,
                            clock: self.clocks.0.get(form.clock).copied().flatten(),
                            rated: false,
                        },
                    };
                    self.form = None;
                    self.intent = Some(intent);
                }
                Some(Action::Edit(e)) if on_name => form.name.edit(e),
                _ => {}
            },
        }
    }

    /// Draws the lobby in `paint`'s colours: `theme` names the theme, `letters` tells
    /// whether pieces are letters.
    pub fn draw(&self, f: &mut Frame, paint: &Paint, theme: &str, letters: bool) {
        let area = f.area();
        let style = match self.message.tone {
            Tone::Plain => paint.dim(),
            Tone::Info => paint.fg(paint.theme.info),
            Tone::Error => paint.fg(paint.theme.error).add_modifier(Modifier::BOLD),
        };
        let said = Line::styled(self.message.text.clone(), style);
        // A message wider than the screen takes a second line from the list.
        let said_rows = if said.width() > usize::from(area.width) {
            2
        } else {
            1
        };
        let [head, list, keys, message] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(3),
            Constraint::Length(4),
            Constraint::Length(said_rows),
        ])
        .areas(area);
        let head_line = Line::from(vec![
            Span::styled(" qchess ", paint.title()),
            Span::styled("Quantum Chess over SSH", paint.fg(paint.theme.text)),
            Span::styled(format!("   you are {}", self.me), paint.dim()),
        ]);
        f.render_widget(Paragraph::new(head_line), head);
        let pieces = if letters { "glyphs" } else { "letters" };
        let key_text: Vec<Line> = match &self.page {
            Some(page) => {
                page.draw(f, list, paint);
                page.keys()
                    .into_iter()
                    .map(|l| Line::styled(l, paint.fg(paint.theme.text)))
                    .collect()
            }
            None => {
                self.draw_rooms(f, list, paint);
                vec![
                    Line::styled(
                        "↑ ↓ pick   Enter join (a free seat, else watch)   w white   b black   s watch",
                        paint.fg(paint.theme.text),
                    ),
                    Line::styled(
                        format!("c new room   p pairing   l lessons   t theme ({theme})   a {pieces}   q leave"),
                        paint.fg(paint.theme.text),
                    ),
                    Line::styled(
                        format!(
                            "e play the computer (side, level)   rooms without players close after {}",
                            self.kept
                        ),
                        paint.fg(paint.theme.text),
                    ),
                    Line::styled(
                        "r leaderboard   g games   m your page   o seeks and challenges   u tournaments",
                        paint.fg(paint.theme.text),
                    ),
                ]
            }
        };
        f.render_widget(Paragraph::new(key_text).wrap(Wrap { trim: true }), keys);
        f.render_widget(Paragraph::new(said).wrap(Wrap { trim: true }), message);
        if let Some(form) = &self.form {
            let clock = self.clocks.0.get(form.clock).copied().flatten();
            draw_form(f, area, paint, form, clock);
        }
        let incoming = &self.offers.1.incoming;
        if let Some(c) = incoming.first() {
            seeks::draw_challenge(f, area, paint, c, incoming.len() - 1);
        }
    }

    fn draw_rooms(&self, f: &mut Frame, area: Rect, paint: &Paint) {
        // The other servers' rooms below this one's, in at most half the height.
        let (here, there) = if self.elsewhere.rooms.is_empty() {
            (area, None)
        } else {
            let wanted = u16::try_from(self.elsewhere.rooms.len() + 3).unwrap_or(u16::MAX);
            let [here, there] = Layout::vertical([
                Constraint::Min(3),
                Constraint::Length(wanted.min(area.height / 2)),
            ])
            .areas(area);
            (here, Some(there))
        };
        self.draw_own_rooms(f, here, paint);
        match there {
            Some(there) => self.draw_elsewhere(f, there, paint),
            None => self.list_at[1].set((0, 0, 0)),
        }
    }

    fn draw_own_rooms(&self, f: &mut Frame, area: Rect, paint: &Paint) {
        let title = match self.offers.1.seeks.len() {
            0 => " Rooms ".to_string(),
            1 => " Rooms · a seek is open: o lists it ".to_string(),
            n => format!(" Rooms · {n} seeks open: o lists them "),
        };
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(paint.fg(paint.theme.border))
            .title(Span::styled(title, paint.title()));
        let inner = block.inner(area);
        if self.rooms.is_empty() {
            self.list_at[0].set((0, 0, 0));
            let text = Paragraph::new("No rooms yet: c opens one (or ssh -t ... ROOM).")
                .style(paint.dim())
                .block(block);
            f.render_widget(text, area);
            return;
        }
        let text = paint.fg(paint.theme.text);
        let header = Row::new([
            "room", "variant", "white", "black", "clock", "watch", "plies", "state",
        ])
        .style(paint.title());
        let rows: Vec<Row> = self
            .rooms
            .iter()
            .map(|s| {
                Row::new([
                    Cell::from(s.name.clone()),
                    Cell::from(s.variant()),
                    Cell::from(seat_words(s.roster.white.as_ref())),
                    Cell::from(seat_words(s.roster.black.as_ref())),
                    Cell::from(clock_words(s.clock)),
                    Cell::from(s.roster.watching.to_string()),
                    Cell::from(s.ply.to_string()),
                    Cell::from(state_words(s)),
                ])
                .style(text)
            })
            .collect();
        // The fixed columns fit their longest words ("quantum sparse", "15+10",
        // "white to move"); the names share what is left, so that 80 columns show
        // every column (a name column 9 wide).
        let widths = [
            Constraint::Fill(1),
            Constraint::Length(14),
            Constraint::Fill(1),
            Constraint::Fill(1),
            Constraint::Length(5),
            Constraint::Length(5),
            Constraint::Length(5),
            Constraint::Length(13),
        ];
        // The pick's column kept while the pick is on another server's room.
        let table = picking(Table::new(rows, widths).header(header).block(block), paint)
            .highlight_spacing(HighlightSpacing::Always);
        let picked = (self.selected < self.rooms.len()).then_some(self.selected);
        let mut state = TableState::default().with_selected(picked);
        f.render_stateful_widget(table, area, &mut state);
        // Rows start below the header; the table scrolled so that the pick is shown.
        let shown = usize::from(inner.height.saturating_sub(1));
        let first = state.offset();
        let rows = shown.min(self.rooms.len() - first) as u16;
        self.list_at[0].set((inner.y + 1, first, rows));
    }

    /// The rooms open on the club's other servers, each with the command that enters
    /// it.
    fn draw_elsewhere(&self, f: &mut Frame, area: Rect, paint: &Paint) {
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(paint.fg(paint.theme.border))
            .title(Span::styled(
                " On other servers of the club ",
                paint.title(),
            ));
        let inner = block.inner(area);
        let text = paint.fg(paint.theme.text);
        let header = Row::new(["room", "players", "clock", "connect with"]).style(paint.title());
        let seat = |seat: &Option<String>| seat.as_deref().unwrap_or("free").to_string();
        let rows: Vec<Row> = self
            .elsewhere
            .rooms
            .iter()
            .map(|r| {
                let players = format!("{} - {}", seat(&r.room.white), seat(&r.room.black));
                Row::new([
                    Cell::from(r.room.name.clone()),
                    Cell::from(players),
                    Cell::from(r.room.clock.clone().unwrap_or_else(|| "none".into())),
                    Cell::from(r.command(None)),
                ])
                .style(text)
            })
            .collect();
        // The command takes what it needs at 80 columns (a port and a host of 13).
        let widths = [
            Constraint::Fill(1),
            Constraint::Fill(2),
            Constraint::Length(5),
            Constraint::Fill(4),
        ];
        let table = picking(Table::new(rows, widths).header(header).block(block), paint)
            .highlight_spacing(HighlightSpacing::Always);
        let picked = self.selected.checked_sub(self.rooms.len());
        let mut state = TableState::default().with_selected(picked);
        f.render_stateful_widget(table, area, &mut state);
        let shown = usize::from(inner.height.saturating_sub(1));
        let first = state.offset();
        let rows = shown.min(self.elsewhere.rooms.len().saturating_sub(first)) as u16;
        self.list_at[1].set((inner.y + 1, self.rooms.len() + first, rows));
    }
}

/// A seat in the room list: "free", the player's name (away or not), the computer in
/// brief ("qchess L3": at 80 columns a name column is 9 wide).
fn seat_words(seat: Option<&(Occupant, bool)>) -> String {
    let Some((who, here)) = seat else {
        return "free".into();
    };
    match who.strength() {
        Some(Strength::Level(l)) => format!("qchess L{l}"),
        Some(_) => "qchess".into(),
        None if *here => who.name(),
        None => format!("{} (away)", who.name()),
    }
}

/// "white to move", "black wins", "draw".
fn state_words(s: &Summary) -> String {
    match s.status {
        Status::Ongoing => format!("{} to move", s.to_move.name()),
        other => other.describe().to_string(),
    }
}

/// The title bar of a room: who plays (white first; a computer as "thinking" while it
/// thinks), who watches, the room's name.
pub fn room_bar(name: &str, roster: &Roster) -> String {
    let seat = |s: Option<&(Occupant, bool)>, side: Color| match s {
        None => "(free)".to_string(),
        Some((who, here)) => top_bar::seat(&who.name(), *here, roster.thinking == Some(side)),
    };
    format!(
        " {} · {} watching · room {name} ",
        top_bar::versus(
            &seat(roster.white.as_ref(), Color::White),
            &seat(roster.black.as_ref(), Color::Black)
        ),
        roster.watching
    )
}

fn draw_form(f: &mut Frame, area: Rect, paint: &Paint, form: &Form, clock: Option<TimeControl>) {
    let (height, title) = match form.computer {
        Some(_) => (11, " Play the computer "),
        None => (9, " New room "),
    };
    let r = centered(area, 52, height);
    f.render_widget(Clear, r);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(paint.fg(paint.theme.title))
        .title(Span::styled(title, paint.title()));
    let inner = block.inner(r);
    f.render_widget(block, r);
    let text = paint.fg(paint.theme.text);
    let label = |field: Field, s: &'static str| {
        let st = if form.focus() == field {
            paint.title()
        } else {
            paint.dim()
        };
        Span::styled(s, st)
    };
    let choice = |field: Field, s: String| {
        let st = if form.focus() == field {
            text.add_modifier(Modifier::REVERSED)
        } else {
            text
        };
        Span::styled(format!("‹ {s} ›"), st)
    };
    let mut name = vec![label(Field::Name, "name     ")];
    if form.focus() == Field::Name {
        name.extend(
            form.name
                .spans(usize::from(inner.width.saturating_sub(10)), text),
        );
    } else {
        name.push(Span::styled(form.name.text().to_string(), text));
    }
    let rules = RuleSet::ALL[form.rules];
    let backend = if rules.simulated() {
        choice(Field::Backend, BACKENDS[form.backend].name().to_string())
    } else {
        Span::styled("(quantum only)", paint.dim())
    };
    let mut lines = vec![
        Line::from(name),
        Line::from(vec![
            label(Field::Variant, "variant  "),
            choice(Field::Variant, rules.name().to_string()),
        ]),
        Line::from(vec![label(Field::Backend, "backend  "), backend]),
    ];
    if let Some((side, level)) = form.computer {
        let level = if rules.searched() {
            choice(Field::Level, format!("{level} of 5"))
        } else {
            Span::styled("greedy (in the variants)", paint.dim())
        };
        lines.push(Line::from(vec![
            label(Field::Side, "you play "),
            choice(Field::Side, side.name().to_string()),
        ]));
        lines.push(Line::from(vec![label(Field::Level, "level    "), level]));
    }
    let minutes = match clock {
        Some(_) => "   minutes + seconds a move",
        None => "",
    };
    lines.push(Line::from(vec![
        label(Field::Clock, "clock    "),
        choice(Field::Clock, clock_words(clock)),
        Span::styled(minutes, paint.dim()),
    ]));
    lines.extend([
        Line::raw(""),
        Line::styled("Enter opens   Tab next field   Esc cancels", paint.dim()),
    ]);
    f.render_widget(Paragraph::new(lines), inner);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::public::RemoteRoom;
    use crossterm::event::KeyModifiers;

    /// The other servers' lists with these rooms and no seek.
    fn rooms_there(rooms: Vec<RemoteRoom>) -> Elsewhere {
        Elsewhere {
            rooms,
            seeks: Vec::new(),
        }
    }

    fn key(code: KeyCode) -> Event {
        Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    fn summary(name: &str) -> Summary {
        Summary {
            name: name.into(),
            rules: RuleSet::Quantum,
            backend: Some(BackendKind::Sparse),
            roster: Roster::default(),
            ply: 0,
            status: Status::Ongoing,
            to_move: Color::White,
            clock: None,
            rated: false,
        }
    }

    #[test]
    fn seats_fit_the_room_list_at_80_columns() {
        let seat = |who: Occupant, here: bool| seat_words(Some(&(who, here)));
        let ann = || Occupant::Person("ann".into());
        assert_eq!(seat_words(None), "free");
        assert_eq!(seat(ann(), true), "ann");
        assert_eq!(seat(ann(), false), "ann (away)");
        let level = Occupant::Computer(Strength::Level(3));
        assert_eq!(seat(level, false), "qchess L3");
        assert_eq!(seat(Occupant::Computer(Strength::Greedy), false), "qchess");
    }

    #[test]
    fn keys_ask_for_rooms_and_seats() {
        let mut l = Lobby::new("ann", vec![summary("a"), summary("b")], "24 h", None);
        l.handle_event(key(KeyCode::Down));
        l.handle_event(key(KeyCode::Char('b')));
        assert_eq!(
            l.take_intent(),
            Some(Intent::Join("b".into(), Want::Side(Color::Black)))
        );
        l.handle_event(key(KeyCode::Char('s')));
        assert_eq!(l.take_intent(), Some(Intent::Join("b".into(), Want::Watch)));
        // The list changes under the pick: the pick stays on its room.
        assert!(l.refresh(vec![summary("0"), summary("a"), summary("b")]));
        l.handle_event(key(KeyCode::Enter));
        assert_eq!(l.take_intent(), Some(Intent::Join("b".into(), Want::Any)));
        assert!(!l.refresh(l.rooms().to_vec()));
    }

    #[test]
    fn the_form_opens_a_room() {
        let mut l = Lobby::new("ann", vec![summary("ann")], "24 h", None);
        l.handle_event(key(KeyCode::Char('c')));
        assert_eq!(l.form.as_ref().map(|f| f.name.text()), Some("ann2"));
        l.handle_event(Event::Paste("game\n".into()));
        l.handle_event(key(KeyCode::Tab));
        l.handle_event(key(KeyCode::Right));
        l.handle_event(key(KeyCode::Enter));
        assert_eq!(
            l.take_intent(),
            Some(Intent::Create {
                name: "game".into(),
                plan: Plan {
                    rules: RuleSet::Harmonics,
                    backend: BackendKind::Sparse,
                    computer: None,
                    clock: None,
                    rated: false,
                },
            })
        );
        // Esc closes the form without a room.
        l.handle_event(key(KeyCode::Char('c')));
        l.handle_event(key(KeyCode::Esc));
        assert!(l.form.is_none());
        assert_eq!(l.take_intent(), None);
    }

    #[test]
    fn the_computer_form_asks_side_and_level() {
        let mut l = Lobby::new("ann", Vec::new(), "24 h", None);
        let opened = |l: &mut Lobby, keys: &[KeyCode]| {
            l.handle_event(key(KeyCode::Char('e')));
            for k in keys {
                l.handle_event(key(*k));
            }
            l.handle_event(key(KeyCode::Enter));
            match l.take_intent() {
                Some(Intent::Create { plan, .. }) => plan.computer,
                other => panic!("{other:?}"),
            }
        };
        // As it comes: the player white, the computer black at the default level.
        let black = |level| ComputerSeat {
            side: Color::Black,
            level,
        };
        assert_eq!(opened(&mut l, &[]), Some(black(Some(COMPUTER_LEVEL))));
        // Side and level: Tab to the side, → flips it; Tab to the level, ← ← from 2 is 5.
        let (tab, left, right) = (KeyCode::Tab, KeyCode::Left, KeyCode::Right);
        let keys = [tab, tab, tab, right, tab, left, left];
        let white = ComputerSeat {
            side: Color::White,
            level: Some(5),
        };
        assert_eq!(opened(&mut l, &keys), Some(white));
        // Back-tab from the name reaches the clock, then the level; harmonics' computer
        // is the greedy one.
        let keys = [
            KeyCode::BackTab,
            KeyCode::BackTab,
            right,
            KeyCode::Up,
            KeyCode::Up,
            KeyCode::Up,
            right,
        ];
        assert_eq!(opened(&mut l, &keys), Some(black(None)));
    }

    #[test]
    fn the_form_offers_the_servers_clock_first_and_the_others_around_it() {
        let tc = |s: &str| Some(s.parse::<TimeControl>().unwrap());
        let choices = clock_choices(tc("0.05+0"));
        assert_eq!(choices.first(), Some(&tc("0.05+0")), "the shortest first");
        assert_eq!(choices.last(), Some(&None), "no clock last");
        assert_eq!(clock_choices(tc("10+5")).len(), CLOCKS.len() + 1);
        let opened = |l: &mut Lobby, keys: &[KeyCode]| {
            l.handle_event(key(KeyCode::Char('c')));
            for k in keys {
                l.handle_event(key(*k));
            }
            l.handle_event(key(KeyCode::Enter));
            match l.take_intent() {
                Some(Intent::Create { plan, .. }) => plan.clock,
                other => panic!("{other:?}"),
            }
        };
        let mut l = Lobby::new("ann", Vec::new(), "24 h", tc("10+5"));
        assert_eq!(opened(&mut l, &[]), tc("10+5"), "the server's");
        let (up, right, left) = (KeyCode::Up, KeyCode::Right, KeyCode::Left);
        assert_eq!(opened(&mut l, &[up, right]), tc("15+10"));
        assert_eq!(opened(&mut l, &[up, left]), tc("10+0"));
        let mut none = Lobby::new("ann", Vec::new(), "24 h", None);
        assert_eq!(opened(&mut none, &[]), None);
        assert_eq!(opened(&mut none, &[up, right]), tc("1+0"));
        // The room list names each room's clock.
        let mut blitz = summary("b");
        blitz.clock = tc("3+2");
        assert_eq!(clock_words(blitz.clock), "3+2");
        assert_eq!(clock_words(None), "none");
    }

    /// A room open on another server of the club.
    fn remote(name: &str, at: &str, white: Option<&str>) -> RemoteRoom {
        RemoteRoom {
            address: at.parse().unwrap(),
            room: crate::club::live::LiveRoom {
                name: name.into(),
                rules: "quantum sparse".into(),
                clock: Some("5+3".into()),
                white: white.map(Into::into),
                black: None,
                watchers: 1,
                rated: false,
            },
        }
    }

    #[test]
    fn a_room_on_another_server_is_picked_for_the_command_that_reaches_it() {
        let mut l = Lobby::new("ann", vec![summary("a")], "24 h", None);
        let bo = || rooms_there(vec![remote("bo", "play2.example:2222", Some("bo"))]);
        assert!(l.refresh_elsewhere(bo()));
        assert!(!l.refresh_elsewhere(bo()));
        l.handle_event(key(KeyCode::End));
        for k in [KeyCode::Enter, KeyCode::Char('w'), KeyCode::Char('s')] {
            l.handle_event(key(k));
            assert_eq!(l.take_intent(), None, "nothing opened");
            assert_eq!(
                l.message.text,
                "bo is on the club's server play2.example:2222: connect with ssh -t -p 2222 ann@play2.example bo"
            );
        }
        // The lists change under the pick: it stays on its room.
        assert!(l.refresh(vec![summary("0"), summary("a")]));
        l.handle_event(key(KeyCode::Char('b')));
        assert!(l.message.text.starts_with("bo is on"), "{}", l.message.text);
        l.handle_event(key(KeyCode::Up));
        l.handle_event(key(KeyCode::Enter));
        assert_eq!(l.take_intent(), Some(Intent::Join("a".into(), Want::Any)));
        // The other server's rooms gone: the pick is on this server's last.
        l.handle_event(key(KeyCode::End));
        assert!(l.refresh_elsewhere(Elsewhere::default()));
        l.handle_event(key(KeyCode::Enter));
        assert_eq!(l.take_intent(), Some(Intent::Join("a".into(), Want::Any)));
    }

    fn lobby_at(l: &Lobby, w: u16, h: u16) -> String {
        use crate::style::color::Tier;
        use ratatui::backend::TestBackend;
        use ratatui::Terminal;
        let paint = Paint::new(Default::default(), Tier::None);
        let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
        t.draw(|f| l.draw(f, &paint, "classic", false)).unwrap();
        t.backend().to_string()
    }

    #[test]
    fn the_other_servers_rooms_are_listed_below_this_ones() {
        let mut playing = summary("ann");
        playing.roster.white = Some((Occupant::Person("ann".into()), true));
        playing.clock = "10+5".parse().ok();
        let mut l = Lobby::new("cy", vec![playing, summary("quiet")], "24 h", None);
        l.refresh_elsewhere(rooms_there(vec![
            remote("bo", "play2.example:2222", Some("bo")),
            remote("t3-17", "play2.example:2222", Some("di")),
            remote("eve", "[2001:db8::7]:22", None),
        ]));
        l.handle_event(key(KeyCode::End));
        l.handle_event(key(KeyCode::Up));
        l.handle_event(key(KeyCode::Enter));
        insta::assert_snapshot!("elsewhere_80x24", lobby_at(&l, 80, 24));
        insta::assert_snapshot!("elsewhere_120x40", lobby_at(&l, 120, 40));
        // No room here: the others' are listed all the same.
        let mut empty = Lobby::new("cy", Vec::new(), "24 h", None);
        empty.refresh_elsewhere(rooms_there(vec![remote(
            "bo",
            "play2.example:2222",
            Some("bo"),
        )]));
        insta::assert_snapshot!("elsewhere_only_80x24", lobby_at(&empty, 80, 24));
        insta::assert_snapshot!("elsewhere_only_120x40", lobby_at(&empty, 120, 40));
    }

    #[test]
    fn the_other_servers_seeks_are_listed_on_the_seeks_page() {
        use crate::club::live::LiveSeek;
        use crate::server::public::RemoteSeek;
        let seek = |id, poster: &str, rated, range: Option<&str>| RemoteSeek {
            address: "play2.example:2222".parse().unwrap(),
            seek: LiveSeek {
                id,
                poster: poster.into(),
                rating: "1500?".into(),
                clock: "7+2".into(),
                rated,
                colour: "random".into(),
                range: range.map(Into::into),
            },
        };
        let mut l = Lobby::new("cy", Vec::new(), "24 h", None);
        l.refresh_elsewhere(Elsewhere {
            rooms: Vec::new(),
            seeks: vec![
                seek(1, "bo", true, Some("1400-1700")),
                seek(4, "eve", false, None),
            ],
        });
        l.handle_event(key(KeyCode::Char('o')));
        insta::assert_snapshot!("seeks_elsewhere_80x24", lobby_at(&l, 80, 24));
        insta::assert_snapshot!("seeks_elsewhere_120x40", lobby_at(&l, 120, 40));
        // Taken away there: gone from the page shown.
        assert!(l.refresh_elsewhere(Elsewhere::default()));
        assert!(!lobby_at(&l, 120, 40).contains("play2.example"));
    }

    #[test]
    fn room_bar_words() {
        let roster = Roster {
            white: Some((Occupant::Person("ann".into()), true)),
            black: Some((Occupant::Person("bo".into()), false)),
            watching: 2,
            thinking: None,
        };
        assert_eq!(
            room_bar("r1", &roster),
            " ann v bo (away) · 2 watching · room r1 "
        );
        assert_eq!(
            room_bar("r1", &Roster::default()),
            " (free) v (free) · 0 watching · room r1 "
        );
        let thinking = Roster {
            white: Some((Occupant::Computer(Strength::Level(2)), true)),
            thinking: Some(Color::White),
            ..roster
        };
        assert_eq!(
            room_bar("r1", &thinking),
            " qchess level 2 (thinking…) v bo (away) · 2 watching · room r1 "
        );
    }
}
