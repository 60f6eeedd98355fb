//! A tournament's waiting page (`ssh -t host tournament NAME`): the tournament, the
//! player's place, what comes next for them, the standings and the boards of the
//! round; Esc leaves the tournament. The standings and boards are drawn the same way on
//! the lobby's tournaments page. No terminal in here: the session draws it, feeds it
//! events and carries out what it asks.

use super::ask::when;
use crate::chess::Status;
use crate::club::tournament::record::{Length, State, TournamentId};
use crate::club::tournament::Kind;
use crate::club::MemberId;
use crate::server::director::{arena_end, TournamentView};
use crate::server::public::PublicAddress;
use crate::style::color::Paint;
use crate::ui::input::{self, Press};
use crate::ui::message::{Message, Tone};
use crossterm::event::{Event, KeyCode};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table, Wrap};
use ratatui::Frame;
use std::time::{Duration, Instant};

/// What the player asked the waiting page for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TournamentIntent {
    /// Leave the tournament, back to the lobby.
    Leave,
    /// Leave the server.
    Quit,
}

/// A tournament's waiting page of one session.
pub struct TournamentPage {
    me: String,
    member: MemberId,
    view: TournamentView,
    message: Message,
    intent: Option<TournamentIntent>,
    /// When the tournament was last looked at.
    looked: Instant,
    /// Where the player's game is, when it is on another server of the club: the
    /// words that say so and how to get there.
    elsewhere: Option<String>,
}

/// How often the page looks at its tournament again.
const LOOK_EVERY: Duration = Duration::from_millis(500);

/// Points as a tournament of `kind` shows them: a Swiss's in points (halves for
/// draws), an arena's in its units (two a win).
pub fn points(kind: Kind, units: u32) -> String {
    match kind {
        Kind::Swiss if units % 2 == 1 => format!("{}.5", units / 2),
        Kind::Swiss => (units / 2).to_string(),
        Kind::Arena => units.to_string(),
    }
}

/// What the tournament is, in one line: `swiss · 5 rounds · 3+2 · running, round 2`.
pub fn summary(view: &TournamentView) -> String {
    let t = &view.tournament;
    let length = match t.made.length {
        Length::Rounds(r) => format!("{r} rounds"),
        Length::Minutes(m) => format!("{m} minutes"),
    };
    let at = match (t.state, t.made.kind) {
        (State::Scheduled, _) => format!("starts {}", when(t.made.starts)),
        (State::Running, Kind::Swiss) => format!("running, round {}", t.round),
        (State::Running, Kind::Arena) => {
            format!(
                "running, ends {}",
                when(arena_end(t).unwrap_or(t.made.starts))
            )
        }
        (state, _) => state.name().to_string(),
    };
    format!("{} · {length} · {} · {at}", t.made.kind, t.made.control)
}

/// What comes next for `member`, in one line.
pub fn next_for(view: &TournamentView, member: MemberId) -> String {
    let t = &view.tournament;
    let current = view.current();
    let mine = current.iter().find(|p| p.has(member));
    let opponent = mine.and_then(|p| p.opponent(member));
    match (t.state, t.made.kind) {
        (State::Scheduled, _) => format!(
            "the first pairing is made when it starts, {}",
            when(t.made.starts)
        ),
        (State::Running, _) if mine.is_some_and(|p| !p.over()) => format!(
            "your game against {} is paired: it opens now",
            opponent.map_or("?", |o| view.name_of(o))
        ),
        (State::Running, Kind::Swiss) => {
            let playing = current.iter().filter(|p| !p.over()).count();
            let last = matches!(t.made.length, Length::Rounds(r) if t.round >= r);
            match (playing, last) {
                (0, _) => "the next round is being paired".to_string(),
                (n, true) => format!("the last round ends when its {n} games left are over"),
                (n, false) => format!(
                    "round {} is paired when the {n} games left of round {} are over",
                    t.round + 1,
                    t.round
                ),
            }
        }
        (State::Running, Kind::Arena) => {
            "you are paired as soon as another player is free".to_string()
        }
        (State::Finished, _) => match view.place_of(member) {
            Some(place) => format!("it is over: you placed {place} of {}", view.standings.len()),
            None => "it is over".to_string(),
        },
        (State::Cancelled, _) => "it was called off".to_string(),
    }
}

/// The standings as a table: place, name, points, games, the tie-break.
pub fn standings_table<'a>(view: &TournamentView, paint: &Paint) -> Table<'a> {
    let kind = view.tournament.made.kind;
    let text = paint.fg(paint.theme.text);
    let tie = match kind {
        Kind::Swiss => "Buchholz",
        Kind::Arena => "perf",
    };
    let header = Row::new(["#", "player", "points", "games", tie]).style(paint.title());
    let rows: Vec<Row> = view
        .standings
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let name = view.name_of(s.member);
            let name = if s.present {
                name.to_string()
            } else {
                format!("{name} (left)")
            };
            let tie = match kind {
                Kind::Swiss => format!("{:.1}", s.buchholz),
                Kind::Arena => s.performance.map_or("-".into(), |p| format!("{p:.0}")),
            };
            Row::new([
                Cell::from((i + 1).to_string()),
                Cell::from(name),
                Cell::from(points(kind, s.units)),
                Cell::from(s.games().to_string()),
                Cell::from(tie),
            ])
            .style(text)
        })
        .collect();
    let widths = [
        Constraint::Length(3),
        Constraint::Fill(1),
        Constraint::Length(6),
        Constraint::Length(5),
        Constraint::Length(8),
    ];
    Table::new(rows, widths).header(header).block(
        Block::default()
            .borders(Borders::ALL)
            .border_style(paint.fg(paint.theme.border))
            .title(Span::styled(" Standings ", paint.title())),
    )
}

/// The boards of the round (a Swiss) or under way (an arena), one a line.
pub fn boards_lines(view: &TournamentView) -> Vec<String> {
    let current = view.current();
    if current.is_empty() {
        return vec!["no game paired yet".into()];
    }
    current
        .iter()
        .map(|p| {
            let white = view.name_of(p.white);
            match p.black {
                None => format!("{white}: a bye"),
                Some(b) => {
                    let result = match p.result {
                        Some(Status::WhiteWins) => "1-0",
                        Some(Status::BlackWins) => "0-1",
                        Some(Status::Draw) => "½-½",
                        Some(Status::Ongoing) | None => "playing",
                    };
                    format!("{white} - {}   {result}", view.name_of(b))
                }
            }
        })
        .collect()
}

/// Draws the boards' lines in a box titled `title` over `area`.
pub fn draw_boards(f: &mut Frame, area: Rect, view: &TournamentView, paint: &Paint) {
    let text = paint.fg(paint.theme.text);
    let lines: Vec<Line> = boards_lines(view)
        .into_iter()
        .map(|l| Line::styled(l, text))
        .collect();
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(paint.fg(paint.theme.border))
        .title(Span::styled(" Boards ", paint.title()));
    f.render_widget(Paragraph::new(lines).block(block), area);
}

impl TournamentPage {
    /// The page of `me` (member `member`) in the tournament `view` shows.
    pub fn new(me: &str, member: MemberId, view: TournamentView) -> TournamentPage {
        let name = view.tournament.made.name.clone();
        TournamentPage {
            me: me.to_string(),
            member,
            view,
            message: Message {
                text: format!("you are in {name}: stay on this page to be paired; Esc leaves it"),
                tone: Tone::Info,
            },
            intent: None,
            looked: Instant::now(),
            elsewhere: None,
        }
    }

    /// The tournament shown.
    pub fn tournament(&self) -> TournamentId {
        self.view.tournament.id
    }

    /// Whether it is time to look at the tournament again.
    pub fn due(&self) -> bool {
        self.looked.elapsed() >= LOOK_EVERY
    }

    /// Shows the tournament as it is now; true when that changed the page.
    pub fn refresh(&mut self, view: TournamentView) -> bool {
        let changed = view != self.view;
        let t = &view.tournament;
        if self.view.tournament.state.open() && !t.state.open() {
            let over = format!("{} is {}: Esc goes back to the lobby", t.made.name, t.state);
            self.say(Tone::Info, over);
        }
        self.view = view;
        self.looked = Instant::now();
        changed
    }

    /// Says that the player's game (of `round`) is on the club's server at `address`,
    /// with the command that takes them there; none: it is not; true when that changed
    /// the page.
    pub fn game_elsewhere(&mut self, found: Option<(u32, PublicAddress)>) -> bool {
        let words = found.map(|(round, at)| {
            let t = &self.view.tournament;
            let game = match t.made.kind {
                Kind::Swiss => format!("your game in round {round}"),
                Kind::Arena => "your game".to_string(),
            };
            let command = at.ssh(Some(&self.me), &format!("tournament {}", t.made.name));
            format!("{game} is on {at}: {command}")
        });
        let changed = words != self.elsewhere;
        self.elsewhere = words;
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
    pub fn take_intent(&mut self) -> Option<TournamentIntent> {
        self.intent.take()
    }

    /// Handles one terminal event.
    pub fn handle_event(&mut self, event: Event) {
        let Event::Key(key) = event else {
            return;
        };
        match input::press(key) {
            Press::Interrupt => self.intent = Some(TournamentIntent::Quit),
            Press::Key(KeyCode::Esc | KeyCode::Char('q')) => {
                self.intent = Some(TournamentIntent::Leave)
            }
            Press::Key(_) | Press::Ignored => {}
        }
    }

    /// Draws the page over the whole frame.
    pub fn draw(&self, f: &mut Frame, paint: &Paint) {
        // Where the game is elsewhere takes a line more (two rows at 80 columns).
        let info_rows = if self.elsewhere.is_some() { 5 } else { 4 };
        let [head, info, body, keys, message] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(info_rows),
            Constraint::Min(3),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(f.area());
        let name = &self.view.tournament.made.name;
        let head_line = Line::from(vec![
            Span::styled(" qchess ", paint.title()),
            Span::styled(format!("tournament {name}"), paint.fg(paint.theme.text)),
            Span::styled(format!("   you are {}", self.me), paint.dim()),
        ]);
        f.render_widget(Paragraph::new(head_line), head);
        let text = paint.fg(paint.theme.text);
        let place = match self.view.place_of(self.member) {
            Some(p) => {
                let units = self.view.standings[p - 1].units;
                format!(
                    "you: place {p} of {}, {} points",
                    self.view.standings.len(),
                    points(self.view.tournament.made.kind, units)
                )
            }
            None => "you: not entered".to_string(),
        };
        let next = match &self.elsewhere {
            Some(there) => Line::styled(there.clone(), paint.fg(paint.theme.info)),
            None => Line::styled(format!("next: {}", next_for(&self.view, self.member)), text),
        };
        let lines = vec![
            Line::styled(summary(&self.view), text),
            Line::styled(place, text),
            next,
        ];
        let block = Block::default()
            .borders(Borders::TOP)
            .border_style(paint.fg(paint.theme.border));
        f.render_widget(
            Paragraph::new(lines).block(block).wrap(Wrap { trim: true }),
            info,
        );
        let [left, right] =
            Layout::horizontal([Constraint::Fill(3), Constraint::Fill(2)]).areas(body);
        f.render_widget(standings_table(&self.view, paint), left);
        draw_boards(f, right, &self.view, paint);
        f.render_widget(
            Paragraph::new(Line::styled(
                "Esc leaves the tournament (join again with the same command)",
                text,
            )),
            keys,
        );
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
    use crate::club::tournament::record::{Entry, KeptPairing, NewTournament, Tournament};
    use crate::club::tournament::{standings, Pairing};
    use crate::style::color::Tier;
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;

    /// Round 2 of a Swiss of four: ann (member 1) plays cy, bo plays di.
    fn round_two() -> TournamentView {
        let entries: Vec<Entry> = ["ann", "bo", "cy", "di"]
            .iter()
            .zip(1..)
            .map(|(name, m)| Entry {
                member: MemberId(m),
                name: (*name).into(),
                rating: 1500.0,
                joined: 10,
                withdrawn: false,
                units: 0,
            })
            .collect();
        let kept = |id, round, white, black, result| KeptPairing {
            id,
            pairing: Pairing {
                round,
                white: MemberId(white),
                black: Some(MemberId(black)),
                result,
            },
            game: None,
        };
        let pairings = vec![
            kept(1, 1, 1, 2, Some(Status::WhiteWins)),
            kept(2, 1, 3, 4, Some(Status::Draw)),
            kept(3, 2, 3, 1, None),
            kept(4, 2, 2, 4, None),
        ];
        let entrants: Vec<_> = entries.iter().map(Entry::entrant).collect();
        let games: Vec<Pairing> = pairings.iter().map(|k| k.pairing).collect();
        TournamentView {
            tournament: Tournament {
                id: TournamentId(3),
                made: NewTournament {
                    name: "Friday Swiss".into(),
                    kind: Kind::Swiss,
                    control: "3+2".parse().unwrap(),
                    length: Length::Rounds(3),
                    starts: 100,
                    creator: None,
                },
                state: State::Running,
                round: 2,
            },
            standings: standings::standings(Kind::Swiss, &entrants, &games),
            entries,
            pairings,
        }
    }

    fn page_at(page: &TournamentPage, w: u16, h: u16) -> String {
        let paint = Paint::new(Default::default(), Tier::None);
        let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
        t.draw(|f| page.draw(f, &paint)).unwrap();
        t.backend().to_string()
    }

    #[test]
    fn a_game_on_another_server_is_said_with_the_command_that_reaches_it() {
        let mut page = TournamentPage::new("ann", MemberId(1), round_two());
        assert!(!page.game_elsewhere(None));
        assert!(page_at(&page, 80, 24).contains("your game against cy is paired"));
        let there = "play1.example:2222".parse().unwrap();
        assert!(page.game_elsewhere(Some((2, there))));
        let text = page_at(&page, 120, 40);
        assert!(
            text.contains("your game in round 2 is on play1.example:2222: ssh -t -p 2222 ann@play1.example tournament Friday Swiss"),
            "{text}"
        );
        insta::assert_snapshot!("game_elsewhere_80x24", page_at(&page, 80, 24));
        insta::assert_snapshot!("game_elsewhere_120x40", text);
        // Back on this server (or over): the page says what comes next again.
        assert!(page.game_elsewhere(None));
        assert!(!page_at(&page, 120, 40).contains("play1.example"));
    }

    #[test]
    fn the_end_of_the_tournament_replaces_the_waiting_words() {
        let mut page = TournamentPage::new("ann", MemberId(1), round_two());
        assert!(page_at(&page, 80, 24).contains("stay on this page to be paired"));
        let mut over = round_two();
        over.tournament.state = State::Finished;
        assert!(page.refresh(over));
        let text = page_at(&page, 80, 24);
        assert!(!text.contains("stay on this page"), "{text}");
        assert!(
            text.contains("Friday Swiss is finished: Esc goes back to the lobby"),
            "{text}"
        );
    }

    #[test]
    fn a_swiss_shows_halves_and_an_arena_its_units() {
        assert_eq!(points(Kind::Swiss, 3), "1.5");
        assert_eq!(points(Kind::Swiss, 4), "2");
        assert_eq!(points(Kind::Arena, 3), "3");
    }
}
