//! One SSH session: a thread that runs the lobby, or a room's game, through the same
//! loop as the local terminal ([`drive`]) on a [`Remote`] console. A room's game is the
//! local game's screen ([`App`]) seated at the room's table: its moves go to the room,
//! and the room's moves come back through the screen's `sync`.

use super::club::Club;
use super::console::{Out, Remote};
use super::hub::{Hub, NameNote};
use super::incoming::Incoming;
use super::limits::Ticket;
use super::lobby::ask::Ask;
use super::lobby::pages::{self, Opened};
use super::lobby::play::{PlayIntent, PlayPage};
use super::lobby::tournament::{TournamentIntent, TournamentPage};
use super::lobby::{self, Intent, Lobby};
use super::offers::Offer;
use super::pairing::Pool;
use super::room::{Person, Room, Roster, SessionId, Sitting, Wake, Want};
use super::terms::{Range, Terms};
use crate::chess::Color;
use crate::game::table::{Place, Seat};
use crate::learn::Progress;
use crate::seats::Occupant;
use crate::style::color::{detect, Paint, Tier};
use crate::ui::app::App;
use crate::ui::input::Action;
use crate::ui::layers::prompts::Asking;
use crate::ui::message::{Message, Tone};
use crate::ui::panes::top_bar;
use crate::ui::terminal::{drive, give_back_terminal, take_terminal, Screen, TerminalOptions};
use crate::ui::work::Exec;
use crossterm::event::Event;
use ratatui::Frame;
use std::io::{self, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{Receiver, SyncSender};
use std::sync::Arc;

/// Where a session starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// In the lobby.
    Lobby,
    /// In the room of this name (`ssh -t host ROOM`), created when new.
    Room(String),
    /// Waiting in this pairing pool (`ssh -t host seek 5+3`).
    Seek(Pool),
    /// On the seeks page with this seek posted (`ssh -t host seek 7+2`).
    Post(Terms, Option<Range>),
    /// In the lobby, this player challenged (`ssh -t host challenge bo 5+3`).
    Challenge(String, Terms),
    /// On the page of this tournament, joined (`ssh -t host tournament NAME`).
    Tournament(String),
}

/// Everything a session thread starts from.
pub struct SessionStart {
    /// The server's shared state.
    pub hub: Arc<Hub>,
    /// Who connected.
    pub person: Person,
    /// What the lobby tells first about the name (why the one asked for was refused,
    /// when the person then has a guest name).
    pub note: Option<NameNote>,
    /// The session's number.
    pub id: SessionId,
    /// The terminal type of the pty (picks the colour tier).
    pub term: String,
    /// The window size, clamped.
    pub size: (u16, u16),
    /// Where it starts.
    pub start: Start,
    /// The session's place in the server's count, given back when it ends.
    pub ticket: Ticket,
    /// A sender into the session's own input, for the rooms' wake-ups.
    pub tx: SyncSender<Incoming>,
    /// Held while the session runs (its connection is cut some time after it ends).
    pub alive: Arc<()>,
}

/// Starts the session's thread: events arrive on `rx`, frames leave on `out`.
pub fn spawn(
    setup: SessionStart,
    rx: Receiver<Incoming>,
    out: tokio::sync::mpsc::Sender<Out>,
) -> io::Result<std::thread::JoinHandle<()>> {
    std::thread::Builder::new()
        .name("qchess-session".into())
        .spawn(move || run(setup, rx, out))
}

fn run(setup: SessionStart, rx: Receiver<Incoming>, out: tokio::sync::mpsc::Sender<Out>) {
    let SessionStart {
        hub,
        person,
        note,
        id,
        term,
        size,
        start,
        ticket,
        tx,
        alive,
    } = setup;
    hub.register(id, tx.clone(), &person);
    let name = person.name.clone();
    hub.name_entered(&name);
    let mut console = match Remote::new(out, size, rx, hub.limits.idle) {
        Ok(c) => c,
        Err(_) => {
            hub.unregister(id);
            hub.name_left(&name);
            return;
        }
    };
    let mut start_up = Vec::new();
    let _ = take_terminal(&mut start_up, TerminalOptions { mouse: true });
    let _ = console.send(start_up);
    let tier = detect(|k| (k == "TERM").then(|| term.clone()));
    let wake: Wake = Arc::new(move || {
        let _ = tx.try_send(Incoming::Wake);
    });
    let mut screen = SessionScreen::new(Arc::clone(&hub), person, id, tier, wake);
    if let Some(note) = &note {
        screen.name_note(note);
    }
    match start {
        // A refused name is told first, in the lobby: a player who meant to be
        // someone else should know before playing under a guest name.
        Start::Room(room) if !note.as_ref().is_some_and(|n| n.refused) => screen.open(&room),
        Start::Seek(pool) if !note.as_ref().is_some_and(|n| n.refused) => screen.seek(pool),
        Start::Post(terms, range) if !note.as_ref().is_some_and(|n| n.refused) => {
            if let At::Lobby(l) = &mut screen.at {
                l.show_seeks();
            }
            screen.offer(Offer::Post(terms, range));
        }
        Start::Challenge(name, terms) if !note.as_ref().is_some_and(|n| n.refused) => {
            screen.offer(Offer::Challenge(name, terms));
        }
        Start::Tournament(name) if !note.as_ref().is_some_and(|n| n.refused) => {
            screen.tournament(&name);
        }
        Start::Room(_)
        | Start::Seek(_)
        | Start::Post(..)
        | Start::Challenge(..)
        | Start::Tournament(_)
        | Start::Lobby => {}
    }
    let ended = catch_unwind(AssertUnwindSafe(|| drive(&mut console, &mut screen)));
    // Out of the room and the pools whatever happened: the seat stays its player's.
    screen.leave_room();
    hub.session_ended(id);
    let why = match ended {
        Ok(Ok(_)) => console.why().map(str::to_string),
        Ok(Err(e)) => Some(format!("the session failed: {e}")),
        Err(_) => Some("the session failed inside qchess; your seat is kept".into()),
    };
    let mut bye = Vec::new();
    let _ = give_back_terminal(&mut bye);
    if let Some(why) = why {
        let _ = write!(bye, "qchess: {why}\r\n");
    }
    console.end(bye, 0);
    hub.unregister(id);
    hub.name_left(&name);
    drop(ticket);
    drop(alive);
}

/// A room seen by one session: the game on screen, seated at the room's table.
struct RoomView {
    room: Arc<Room>,
    game: Box<App>,
    /// The room's versions last taken in.
    seen: (u64, u64),
    roster: Roster,
    /// Why the room cannot be saved, as last told.
    unsaved: Option<String>,
    /// The number of the room's last word shown.
    notice: u64,
    /// Whether its game counts for the ratings.
    rated: bool,
}

/// Where a session is.
enum At {
    Lobby(Box<Lobby>),
    Room(Box<RoomView>),
    /// The lessons: this session's own board, nothing shared.
    Lesson(Box<App>),
    /// The pairing page, waiting for an opponent or not.
    Play(Box<PlayPage>),
    /// A game of the club's archive stepped through, and the lobby to go back to.
    Replay(Box<App>, Box<Lobby>),
    /// A tournament's page, waiting to be paired.
    Tournament(Box<TournamentPage>),
}

/// What a session shows and drives: the lobby or a room.
pub struct SessionScreen {
    hub: Arc<Hub>,
    me: Person,
    id: SessionId,
    tier: Tier,
    theme: usize,
    letters: bool,
    wake: Wake,
    at: At,
    exec: Exec,
    quit: bool,
}

impl SessionScreen {
    /// The lobby of `me`, on a terminal of colour `tier`; `wake` is how rooms reach the
    /// session.
    pub fn new(hub: Arc<Hub>, me: Person, id: SessionId, tier: Tier, wake: Wake) -> SessionScreen {
        let kept = super::limits::words_for(hub.limits.room_idle);
        let mut lobby = Lobby::new(&me.name, hub.summaries(), &kept, hub.clock);
        lobby.refresh_elsewhere(hub.elsewhere());
        SessionScreen {
            theme: hub.default_theme,
            hub,
            me,
            id,
            tier,
            letters: false,
            wake,
            at: At::Lobby(Box::new(lobby)),
            exec: Exec::default(),
            quit: false,
        }
    }

    fn paint(&self) -> Paint {
        Paint::new(self.hub.themes[self.theme].1.clone(), self.tier)
    }

    /// The name of the room the session is in, if any.
    pub fn room(&self) -> Option<&str> {
        match &self.at {
            At::Room(v) => Some(v.room.name()),
            At::Lobby(_) | At::Lesson(_) | At::Play(_) | At::Replay(..) | At::Tournament(_) => None,
        }
    }

    /// Opens the pairing page, waiting in `pool`.
    pub fn seek(&mut self, pool: Pool) {
        let page = PlayPage::new(&self.me.name, self.hub.pools_waiting());
        self.at = At::Play(Box::new(page));
        self.play(PlayIntent::Seek(pool));
    }

    /// Carries out what the pairing page asked for.
    fn play(&mut self, intent: PlayIntent) {
        match intent {
            PlayIntent::Seek(pool) => {
                if let Err(e) = self.hub.seek(self.id, &self.me, pool) {
                    if let At::Play(page) = &mut self.at {
                        page.say(Tone::Error, e.to_string());
                    }
                }
            }
            PlayIntent::Unseek => self.hub.unseek(self.id),
            PlayIntent::Back => {
                self.hub.unseek(self.id);
                self.back_to_lobby("you left the pairing page".into());
            }
            PlayIntent::Quit => self.quit = true,
        }
    }

    /// Joins the tournament `name` and waits on its page; stays in the lobby, with the
    /// reason, when that cannot be.
    pub fn tournament(&mut self, name: &str) {
        let joined = self.hub.join_tournament(self.id, &self.me, name);
        let view = joined.map(|t| (self.hub.tournament_view(t.id), self.me.member));
        match view {
            Ok((Some(view), Some(member))) => {
                let page = TournamentPage::new(&self.me.name, member, view);
                self.at = At::Tournament(Box::new(page));
            }
            Ok(_) => {
                self.hub.leave_tournament(self.id);
                self.lobby_says(Tone::Error, "the tournament could not be read".into());
            }
            Err(e) => self.lobby_says(Tone::Error, e.to_string()),
        }
    }

    /// Back on the page of the tournament the session is in (from its room), when it is
    /// in one.
    fn back_to_tournament(&mut self) -> bool {
        let Some(t) = self.hub.tournament_of(self.id) else {
            return false;
        };
        let (Some(view), Some(member)) = (self.hub.tournament_view(t), self.me.member) else {
            return false;
        };
        self.hub.tournament_page(self.id);
        let page = TournamentPage::new(&self.me.name, member, view);
        self.at = At::Tournament(Box::new(page));
        true
    }

    /// Carries out what a tournament's page asked for.
    fn tournament_intent(&mut self, intent: TournamentIntent) {
        match intent {
            TournamentIntent::Leave => {
                self.hub.leave_tournament(self.id);
                self.back_to_lobby(
                    "you left the tournament: you are not paired until you join it again".into(),
                );
            }
            TournamentIntent::Quit => self.quit = true,
        }
    }

    /// Enters the room `name` (created when new), in a free seat or as a watcher.
    pub fn open(&mut self, name: &str) {
        match self.hub.open(name, &self.me) {
            Ok(room) => self.enter(room, Want::Any),
            Err(e) => self.lobby_says(Tone::Error, e.to_string()),
        }
    }

    /// Tells, in the lobby, what the server made of the name asked for: why it was
    /// refused and what the player is called here instead, or whose key they came
    /// with.
    pub fn name_note(&mut self, note: &NameNote) {
        let tone = if note.refused {
            Tone::Error
        } else {
            Tone::Plain
        };
        self.lobby_says(tone, note.text.clone());
    }

    fn lobby_says(&mut self, tone: Tone, text: String) {
        if let At::Lobby(l) = &mut self.at {
            l.say(tone, text);
        }
    }

    /// Enters `room` as `want` asks; stays in the lobby, with the reason, when that
    /// cannot be.
    fn enter(&mut self, room: Arc<Room>, want: Want) {
        let seat = match room.join(self.id, self.me.clone(), want, Arc::clone(&self.wake)) {
            Ok(seat) => seat,
            Err(e) => {
                self.hub.left(&room);
                return self.lobby_says(Tone::Error, e.to_string());
            }
        };
        let Some(snap) = room.snapshot(self.id, (0, 0)) else {
            return;
        };
        let Some(board) = snap.game else {
            return;
        };
        // In a game, the player's seeks and challenges are withdrawn.
        self.hub.withdraw_offers(self.id);
        let sitting = Arc::new(Sitting {
            room: Arc::clone(&room),
            session: self.id,
        });
        let (paint, letters) = (self.paint(), self.letters);
        let place = Place {
            table: sitting,
            seat,
        };
        // Players here have no configuration file: the rooms always ask before a move
        // that puts a safe king in danger.
        let mut game = Box::new(
            App::new(board, paint, letters)
                .at_table(place)
                .with_king_question(true),
        );
        game.set_players(seated(&snap.roster));
        game.set_hint_rules(self.hub.hint_rules());
        game.set_exec(self.exec);
        let elsewhere = (seat == Seat::Watches && want != Want::Watch)
            .then(|| room.side_of(&self.me))
            .flatten();
        let said = Message {
            text: match elsewhere {
                Some(side) => format!(
                    "{}: you play {} here from another connection, so this one watches",
                    room.name(),
                    side.name()
                ),
                None => welcome(room.name(), seat, &snap.roster),
            },
            tone: Tone::Info,
        };
        let said = match &snap.unsaved {
            Some(why) => Message {
                text: format!("this room cannot be saved: {why}"),
                tone: Tone::Error,
            },
            None => said,
        };
        // Black sees the board from its side.
        let flip = seat == Seat::Plays(Color::Black);
        if flip {
            game.update(Action::Flip);
        }
        game.set_message(said);
        game.take_news(snap.news);
        self.at = At::Room(Box::new(RoomView {
            rated: room.is_rated(),
            room,
            game,
            seen: snap.seen,
            roster: snap.roster,
            unsaved: snap.unsaved,
            notice: snap.notice.0,
        }));
    }

    /// Leaves the room the session is in (its seat stays), back to the lobby.
    pub fn leave_room(&mut self) {
        if let At::Room(v) = &self.at {
            let room = Arc::clone(&v.room);
            room.leave(self.id);
            self.hub.left(&room);
            let said = format!(
                "you left {}: a seat you hold there stays yours",
                room.name()
            );
            if !self.back_to_tournament() {
                self.back_to_lobby(said);
            }
        }
    }

    /// Shows the lobby again, saying `said`.
    fn back_to_lobby(&mut self, said: String) {
        let mut lobby = self.new_lobby();
        lobby.say(Tone::Plain, said);
        self.at = At::Lobby(Box::new(lobby));
    }

    /// Back from a replay to the lobby it was opened from.
    fn leave_replay(&mut self) {
        let fresh = Box::new(self.new_lobby());
        if let At::Replay(_, lobby) = &mut self.at {
            let mut lobby = std::mem::replace(lobby, fresh);
            lobby.refresh(self.hub.summaries());
            self.at = At::Lobby(lobby);
        }
    }

    /// The lobby of the rooms as they are now.
    fn new_lobby(&self) -> Lobby {
        let kept = super::limits::words_for(self.hub.limits.room_idle);
        let mut lobby = Lobby::new(&self.me.name, self.hub.summaries(), &kept, self.hub.clock);
        lobby.refresh_elsewhere(self.hub.elsewhere());
        lobby
    }

    fn act(&mut self, intent: Intent) {
        match intent {
            Intent::Quit => self.quit = true,
            Intent::Join(name, want) => match self.hub.room(&name) {
                Some(room) => self.enter(room, want),
                None => self.lobby_says(Tone::Error, format!("{name} has closed")),
            },
            Intent::Create { name, plan } => match self.hub.create(&name, &self.me, plan) {
                Ok(room) => {
                    let want = plan
                        .computer
                        .map_or(Want::Any, |c| Want::Side(c.side.opposite()));
                    self.enter(room, want)
                }
                Err(e) => self.lobby_says(Tone::Error, e.to_string()),
            },
            Intent::Play => {
                let page = PlayPage::new(&self.me.name, self.hub.pools_waiting());
                self.at = At::Play(Box::new(page));
            }
            Intent::Learn => {
                // Over SSH a name is not an identity: the progress lasts the session.
                let seed = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64);
                let look = (self.paint(), self.letters);
                let mut app = App::learning(None, Progress::default(), None, seed, look);
                app.set_exec(self.exec);
                self.at = At::Lesson(Box::new(app));
            }
            Intent::Page(ask) => self.page(ask),
            Intent::Offer(offer) => self.offer(offer),
            Intent::NextTheme => {
                self.theme = (self.theme + 1) % self.hub.themes.len();
                let name = self.hub.themes[self.theme].0.clone();
                self.lobby_says(Tone::Info, format!("theme {name}: rooms you enter use it"));
            }
            Intent::Letters => {
                self.letters = !self.letters;
                let what = if self.letters {
                    "letters"
                } else {
                    "chess glyphs"
                };
                self.lobby_says(Tone::Info, format!("pieces are drawn as {what}"));
            }
        }
    }
}

impl SessionScreen {
    /// Makes, takes or answers an offer of a game, and says how it went in the lobby;
    /// a game begun opens at the next tick ([`Hub::offer_taken`]).
    pub fn offer(&mut self, offer: Offer) {
        let (hub, id, me) = (&self.hub, self.id, &self.me);
        let done = match offer {
            Offer::Post(terms, range) => hub.post_seek(id, me, (terms, range)).map(|()| {
                format!(
                    "your seek is open: {terms}; it stays while you are in the lobby (x cancels)"
                )
            }),
            Offer::Cancel(seek) if hub.cancel_seek(id, seek) => {
                Ok("your seek is cancelled".to_string())
            }
            Offer::Cancel(_) => Err(super::terms::OfferError::SeekGone),
            Offer::Take(seek) => hub
                .take_seek(id, me, seek)
                .map(|()| "you took the seek: the game opens".to_string()),
            Offer::Challenge(name, terms) => hub.challenge(id, me, &name, terms).map(|()| {
                let lapse = super::limits::words_for(hub.limits.challenge_lapse);
                format!(
                    "you challenged {name} ({terms}): waiting for the answer, for {lapse} at most"
                )
            }),
            Offer::Answer(challenge, yes) => hub.answer(id, me, challenge, yes).map(|()| {
                let done = if yes { "accepted" } else { "declined" };
                format!("you {done} the challenge")
            }),
        };
        match done {
            Ok(said) => self.lobby_says(Tone::Info, said),
            Err(e) => self.lobby_says(Tone::Error, e.to_string()),
        }
    }

    /// What the offers did since the last look: the room of a seek or challenge taken
    /// (entered at once, from anywhere but a room), the offers as they are now, and
    /// what the player is told about their challenges. Whether the screen changed.
    fn offers_news(&mut self) -> bool {
        if matches!(self.at, At::Room(_) | At::Play(_)) {
            return false;
        }
        if let Some(taken) = self.hub.offer_taken(self.id) {
            match taken {
                Ok(room) => {
                    self.back_to_lobby(format!("paired: {}", room.name()));
                    self.enter(room, Want::Any);
                }
                Err(why) => {
                    self.back_to_lobby(String::new());
                    self.lobby_says(Tone::Error, format!("no room for your game: {why}"));
                }
            }
            return true;
        }
        let At::Lobby(l) = &mut self.at else {
            return false;
        };
        let mut changed = false;
        let version = self.hub.offers_version();
        if l.offers_version() != Some(version) {
            l.show_offers(version, self.hub.offers_shown(self.id, &self.me));
            changed = true;
        }
        for said in self.hub.told(self.id) {
            l.say(Tone::Info, said);
            changed = true;
        }
        changed
    }

    /// Carries out what a page of the lobby asks for with the club.
    fn page(&mut self, ask: Ask) {
        let Some(club) = self.hub.club() else {
            return self.lobby_says(
                Tone::Error,
                "this server keeps no club: no accounts, ratings or archive here".into(),
            );
        };
        let removing = matches!(ask, Ask::RemoveKey(_));
        let opened = pages::open(club, &self.me, ask, Club::now());
        if removing {
            // Other sessions signed in with the key removed end now.
            self.hub.end_revoked_sessions();
        }
        match opened {
            Opened::Show(page, said) => {
                if let At::Lobby(l) = &mut self.at {
                    l.show(*page);
                    if let Some(said) = said {
                        l.say(Tone::Info, said);
                    }
                }
            }
            Opened::Refused(why) => self.lobby_says(Tone::Error, why),
            Opened::Replay(id, record) => {
                let (paint, letters) = (self.paint(), self.letters);
                match lobby::games::replay_screen(id, &record, paint, letters) {
                    Ok(mut app) => {
                        app.set_exec(self.exec);
                        // Its review takes one of the server's searches.
                        app.set_hint_rules(self.hub.hint_rules());
                        let fresh = Box::new(self.new_lobby());
                        if let At::Lobby(l) = &mut self.at {
                            let lobby = std::mem::replace(l, fresh);
                            self.at = At::Replay(Box::new(app), lobby);
                        }
                    }
                    Err(e) => self.lobby_says(Tone::Error, e.to_string()),
                }
            }
            Opened::Deleted(member, said) => {
                self.hub.forget_member(member, self.id);
                self.me.member = None;
                if let At::Lobby(l) = &mut self.at {
                    l.show_rooms();
                    l.say(Tone::Info, said);
                }
            }
        }
    }
}

/// Who holds each seat of the room, a free one named as its side.
fn seated(roster: &Roster) -> crate::seats::Occupants {
    let holder = |seat: &Option<(Occupant, bool)>| seat.as_ref().map(|(o, _)| o.clone());
    crate::seats::Occupants::or_free([holder(&roster.white), holder(&roster.black)])
}

/// What a session is told on entering a room.
fn welcome(room: &str, seat: Seat, roster: &Roster) -> String {
    let name = |s: &Option<(Occupant, bool)>| {
        s.as_ref()
            .map_or_else(|| "a free seat".to_string(), |(who, _)| who.name())
    };
    match seat {
        Seat::Plays(side) => {
            let other = match side {
                Color::White => &roster.black,
                Color::Black => &roster.white,
            };
            format!(
                "{room}: you play {} against {}; q leaves, your seat stays yours",
                side.name(),
                name(other)
            )
        }
        Seat::Watches => format!(
            "{room}: you watch {} and {}; q leaves",
            name(&roster.white),
            name(&roster.black)
        ),
    }
}

impl Screen for SessionScreen {
    fn draw(&mut self, f: &mut Frame) {
        let paint = self.paint();
        match &mut self.at {
            At::Lobby(l) => {
                let theme = &self.hub.themes[self.theme].0;
                l.draw(f, &paint, theme, self.letters);
            }
            At::Lesson(a) | At::Replay(a, _) => a.draw(f),
            At::Play(page) => page.draw(f, &paint),
            At::Tournament(page) => page.draw(f, &paint),
            At::Room(v) => {
                v.game.draw(f);
                let mut bar = lobby::room_bar(v.room.name(), &v.roster);
                if v.rated {
                    bar = format!(" rated ·{bar}");
                }
                if v.unsaved.is_some() {
                    bar = format!("NOT SAVED · {}", bar.trim_start());
                }
                top_bar::overlay(f, &bar, v.game.paint().title());
            }
        }
    }

    fn handle_event(&mut self, event: Event) {
        match &mut self.at {
            At::Lobby(l) => {
                l.handle_event(event);
                if let Some(intent) = l.take_intent() {
                    self.act(intent);
                }
            }
            At::Room(v) => {
                v.game.handle_event(event);
                if v.game.should_quit() {
                    self.leave_room();
                }
            }
            At::Lesson(a) => {
                a.handle_event(event);
                if a.should_quit() {
                    self.back_to_lobby("you left the lessons".into());
                }
            }
            At::Play(page) => {
                page.handle_event(event);
                if let Some(intent) = page.take_intent() {
                    self.play(intent);
                }
            }
            At::Replay(a, _) => {
                a.handle_event(event);
                if a.should_quit() {
                    self.leave_replay();
                }
            }
            At::Tournament(page) => {
                page.handle_event(event);
                if let Some(intent) = page.take_intent() {
                    self.tournament_intent(intent);
                }
            }
        }
    }

    fn should_quit(&self) -> bool {
        self.quit
    }

    fn set_exec(&mut self, exec: Exec) {
        self.exec = exec;
        match &mut self.at {
            At::Room(v) => v.game.set_exec(exec),
            At::Lesson(a) | At::Replay(a, _) => a.set_exec(exec),
            At::Lobby(_) | At::Play(_) | At::Tournament(_) => {}
        }
    }

    fn tick(&mut self) -> bool {
        let id = self.id;
        let v = match &mut self.at {
            At::Lobby(l) => {
                let rooms =
                    l.refresh(self.hub.summaries()) | l.refresh_elsewhere(self.hub.elsewhere());
                let mut standings = false;
                let shown = l.tournaments_shown().filter(|t| t.due());
                if let (Some(page), Some(club)) = (shown, self.hub.club()) {
                    standings = page.reload(&**club.store()).unwrap_or(false);
                }
                return self.offers_news() | rooms | standings;
            }
            At::Lesson(a) | At::Replay(a, _) => return a.tick() | self.offers_news(),
            At::Play(page) => {
                return match self.hub.paired(id) {
                    Some(Ok(room)) => {
                        self.back_to_lobby(format!("paired: {}", room.name()));
                        self.enter(room, Want::Any);
                        true
                    }
                    Some(Err(why)) => {
                        page.say(Tone::Error, format!("no room for your game: {why}"));
                        true
                    }
                    None => page.refresh(self.hub.pools_waiting(), self.hub.seeking(id)),
                }
            }
            At::Tournament(page) => {
                if let Some(room) = self.hub.tournament_paired(id) {
                    self.enter(room, Want::Any);
                    return true;
                }
                if !page.due() {
                    return false;
                }
                let Some(view) = self.hub.tournament_view(page.tournament()) else {
                    return false;
                };
                let there = self
                    .me
                    .member
                    .and_then(|m| self.hub.game_elsewhere(&view, m));
                return page.refresh(view) | page.game_elsewhere(there);
            }
            At::Room(v) => v,
        };
        let mut changed = v.game.tick();
        // The player's own move is taken in first; the room's news after it.
        if v.game.carrying_out() {
            return changed;
        }
        if v.room.is_closed() {
            let name = v.room.name().to_string();
            let why = v
                .room
                .closed_why()
                .unwrap_or("the server closed it")
                .to_string();
            let kept = if v.room.played() {
                "; its game is kept with the finished ones"
            } else {
                ""
            };
            self.leave_room();
            self.lobby_says(Tone::Info, format!("{name} closed: {why}{kept}"));
            return true;
        }
        let Some(snap) = v.room.snapshot(id, v.seen) else {
            return changed;
        };
        v.seen = snap.seen;
        if !snap.seated {
            let name = v.room.name().to_string();
            self.leave_room();
            self.lobby_says(
                Tone::Info,
                format!("you no longer hold your seat in {name}"),
            );
            return true;
        }
        if snap.unsaved != v.unsaved {
            let said = match &snap.unsaved {
                Some(why) => Message {
                    text: format!("this room cannot be saved: {why}"),
                    tone: Tone::Error,
                },
                None => Message {
                    text: "this room is saved again".into(),
                    tone: Tone::Info,
                },
            };
            v.game.set_message(said);
            v.unsaved = snap.unsaved;
        }
        if let Some(game) = snap.game {
            v.game.sync(game);
        }
        // The room's word after the ending's own (a rated game's rating changes).
        v.game.take_news(snap.news);
        if snap.notice.0 != v.notice {
            v.notice = snap.notice.0;
            v.game.set_message(Message {
                text: snap.notice.1,
                tone: Tone::Info,
            });
        }
        v.game.set_players(seated(&snap.roster));
        v.roster = snap.roster;
        changed |= true;
        changed
    }

    fn working(&self) -> bool {
        match &self.at {
            At::Room(v) => v.game.working(),
            At::Lesson(a) | At::Replay(a, _) => a.working(),
            At::Lobby(_) | At::Play(_) | At::Tournament(_) => false,
        }
    }

    fn min_size(&self) -> (u16, u16) {
        match &self.at {
            At::Room(v) => v.game.min_size(),
            At::Lesson(a) | At::Replay(a, _) => a.min_size(),
            At::Lobby(_) | At::Play(_) | At::Tournament(_) => lobby::MIN_SIZE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::RuleSet;
    use crate::quantum::BackendKind;
    use crate::seats::strength::Strength;
    use crate::server::limits::ServerLimits;
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;

    fn key(c: char) -> Event {
        Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
    }

    fn typed(s: &mut SessionScreen, text: &str) {
        for c in text.chars() {
            s.handle_event(key(c));
        }
        s.handle_event(Event::Key(KeyEvent::new(
            KeyCode::Enter,
            KeyModifiers::NONE,
        )));
    }

    fn screen_text(s: &mut SessionScreen) -> String {
        let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
        t.draw(|f| s.draw(f)).unwrap();
        let buf = t.backend().buffer();
        (0..24)
            .map(|y| (0..80).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n")
            .collect()
    }

    fn session(hub: &Arc<Hub>, name: &str) -> SessionScreen {
        let me = Person {
            name: name.into(),
            key: None,
            from: None,
            member: None,
        };
        let id = hub.next_session();
        SessionScreen::new(Arc::clone(hub), me, id, Tier::None, Arc::new(|| {}))
    }

    #[test]
    fn two_players_and_a_watcher_share_one_game() {
        let hub = Arc::new(Hub::new(ServerLimits::default(), None, Vec::new(), 0));
        let (mut ann, mut bo, mut cy) = (
            session(&hub, "ann"),
            session(&hub, "bo"),
            session(&hub, "cy"),
        );
        for s in [&mut ann, &mut bo, &mut cy] {
            s.open("r1");
            assert_eq!(s.room(), Some("r1"));
        }
        // Black cannot move first; the watcher cannot move at all.
        typed(&mut bo, ":e7e5");
        assert!(screen_text(&mut bo).contains("white to move (ann): you play black"));
        typed(&mut cy, ":e2e4");
        assert!(screen_text(&mut cy).contains("you are watching"));
        typed(&mut ann, ":e2e4");
        for s in [&mut bo, &mut cy] {
            assert!(s.tick());
            assert!(
                screen_text(s).contains("white played e2e4"),
                "{}",
                screen_text(s)
            );
        }
        let bar = screen_text(&mut cy);
        assert!(bar.contains("ann v bo · 1 watching"), "{bar}");
        // Ann leaves: her seat is kept, and she gets it back.
        ann.handle_event(key('q'));
        assert_eq!(ann.room(), None);
        cy.tick();
        assert!(screen_text(&mut cy).contains("ann (away) v bo"));
        ann.open("r1");
        let text = screen_text(&mut ann);
        assert!(text.contains("you play white"), "{text}");
        assert!(text.contains("e2e4"), "the whole game: {text}");
    }

    fn screen_at(s: &mut SessionScreen, w: u16, h: u16) -> String {
        let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
        t.draw(|f| s.draw(f)).unwrap();
        t.backend().to_string()
    }

    fn both(name: &str, s: &mut SessionScreen) {
        insta::assert_snapshot!(format!("{name}_80x24"), screen_at(s, 80, 24));
        insta::assert_snapshot!(format!("{name}_120x40"), screen_at(s, 120, 40));
    }

    #[test]
    fn lobby_form_and_room_screens() {
        let hub = Arc::new(Hub::new(ServerLimits::default(), None, Vec::new(), 0));
        let (mut ann, mut bo) = (session(&hub, "ann"), session(&hub, "bo-the-long-name"));
        let eve = Person {
            name: "eve".into(),
            key: None,
            from: None,
            member: None,
        };
        let haft = super::super::hub::Plan {
            rules: RuleSet::Haft,
            backend: BackendKind::Sparse,
            computer: None,
            clock: "5+3".parse().ok(),
            rated: false,
        };
        hub.create("haft-game", &eve, haft).unwrap();
        ann.open("room1");
        bo.open("room1");
        typed(&mut ann, ":e2e4");
        bo.tick();
        let mut cy = session(&hub, "cy");
        cy.tick();
        both("lobby", &mut cy);
        cy.handle_event(key('c'));
        both("lobby_form", &mut cy);
        cy.handle_event(Event::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)));
        cy.handle_event(key('e'));
        both("lobby_computer_form", &mut cy);
        both("room_black", &mut bo);
    }

    #[test]
    fn seeks_and_a_challenge_in_the_lobby() {
        let hub = Arc::new(Hub::new(ServerLimits::default(), None, Vec::new(), 0));
        let (mut ann, mut bo, mut cy) = (
            session(&hub, "ann"),
            session(&hub, "bo-the-long-name"),
            session(&hub, "cy"),
        );
        for (s, name) in [(&ann, "ann"), (&bo, "bo-the-long-name"), (&cy, "cy")] {
            hub.name_entered(name);
            assert!(s.room().is_none());
        }
        ann.handle_event(key('o'));
        ann.handle_event(key('n'));
        typed(&mut ann, "7+2 casual white 1400-1700");
        assert!(screen_text(&mut ann).contains("your seek is open: 7+2 casual, white"));
        // Wider than 80 columns, the line takes two rows there, not cut.
        let narrow = screen_at(&mut ann, 80, 24);
        assert!(narrow.contains("cancels)"), "{narrow}");
        // A guest's rated seek is refused; a casual one is listed.
        bo.handle_event(key('o'));
        bo.handle_event(key('n'));
        typed(&mut bo, "3+0");
        let refused = screen_text(&mut bo);
        assert!(
            refused.contains("rated games are for club members"),
            "{refused}"
        );
        bo.handle_event(key('n'));
        typed(&mut bo, "3+0 casual any");
        cy.tick();
        both("lobby_seeks_open", &mut cy);
        cy.handle_event(key('o'));
        both("seeks_page", &mut cy);
        // Bo challenges cy: the question comes over cy's lobby, wherever it is.
        bo.handle_event(key('v'));
        typed(&mut bo, "CY 5+3 casual black");
        ticked_until(&mut bo, "your challenges");
        ticked_until(&mut cy, "y accept");
        both("challenged", &mut cy);
        cy.handle_event(key('n'));
        ticked_until(&mut bo, "cy declined your challenge (5+3 casual, black)");
        // Cy takes ann's seek: both are in its room, ann white as she asked.
        cy.handle_event(Event::Key(KeyEvent::new(
            KeyCode::Enter,
            KeyModifiers::NONE,
        )));
        ticked_until(&mut cy, "you play black against ann");
        ticked_until(&mut ann, "you play white against cy");
        assert_eq!(ann.room(), cy.room());
        // In a game, ann's seeks are withdrawn; bo's stays.
        let left = hub.offers_shown(99, &cy.me).seeks;
        assert_eq!(left.len(), 1);
        assert_eq!(left[0].seek.poster.name, "bo-the-long-name");
        // Bo cancels it: x on his own seek.
        ticked_until(&mut bo, "yours");
        bo.handle_event(key('x'));
        ticked_until(&mut bo, "your seek is cancelled");
        assert!(hub.offers_shown(99, &cy.me).seeks.is_empty());
    }

    #[test]
    fn a_rooms_clocks_show_on_every_screen() {
        let clock = "10+5".parse().ok();
        let hub =
            Arc::new(Hub::new(ServerLimits::default(), None, Vec::new(), 0).with_clock(clock));
        let (mut ann, mut cy) = (session(&hub, "ann"), session(&hub, "cy"));
        ann.open("c1");
        let room = hub.room("c1").unwrap();
        cy.enter(Arc::clone(&room), Want::Watch);
        // Black's seat is free: the clocks wait, full, on the players' and the
        // watchers' screens, down to the smallest game screen.
        for s in [&mut ann, &mut cy] {
            s.tick();
            let text = screen_text(s);
            assert!(text.contains("white 10:00"), "{text}");
            assert!(text.contains("black 10:00"), "{text}");
        }
        insta::assert_snapshot!("room_clocks_watcher_60x20", screen_at(&mut cy, 60, 20));
        both("room_clocks_watcher", &mut cy);
        // Bo sits down: white's clock runs, marked, on every screen.
        let mut bo = session(&hub, "bo");
        bo.open("c1");
        for s in [&mut ann, &mut bo, &mut cy] {
            ticked_until(s, "▶white 9:5");
        }
        // Ann resigns: every screen says so.
        ann.handle_event(key('X'));
        ann.handle_event(key('y'));
        for s in [&mut ann, &mut bo, &mut cy] {
            ticked_until(s, "bo wins, white resigned");
        }
    }

    /// Ticks `s` until its screen shows `words`, for at most a minute.
    fn ticked_until(s: &mut SessionScreen, words: &str) -> String {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
        loop {
            s.tick();
            let text = screen_text(s);
            if text.contains(words) {
                return text;
            }
            assert!(std::time::Instant::now() < until, "no {words:?} in\n{text}");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }

    #[test]
    fn a_player_whose_opponent_left_a_rated_game_is_asked_to_claim_or_wait() {
        let hub = Arc::new(Hub::new(ServerLimits::default(), None, Vec::new(), 0));
        let plan = super::super::hub::Plan {
            rules: RuleSet::Quantum,
            backend: BackendKind::Sparse,
            computer: None,
            clock: "5+3".parse().ok(),
            rated: true,
        };
        let (mut ann, mut bo) = (session(&hub, "ann"), session(&hub, "bo"));
        hub.create("r1", &ann.me.clone(), plan).unwrap();
        ann.open("r1");
        bo.open("r1");
        typed(&mut ann, ":e2e4");
        ticked_until(&mut bo, "white played e2e4");
        typed(&mut bo, ":e7e5");
        ticked_until(&mut ann, "black played e7e5");
        // Bo leaves: ann is asked; she waits, and C asks again.
        bo.leave_room();
        ticked_until(&mut ann, "Your opponent left");
        ann.handle_event(key('n'));
        let text = screen_text(&mut ann);
        assert!(text.contains("you wait for your opponent"), "{text}");
        assert!(!text.contains("Your opponent left"), "{text}");
        ann.handle_event(key('C'));
        assert!(screen_text(&mut ann).contains("Your opponent left"));
        // Bo is back: the question goes.
        bo.open("r1");
        let text = ticked_until(&mut ann, "black is back: play on");
        assert!(!text.contains("Your opponent left"), "{text}");
        // He leaves again; ann claims; he is back in time: the claim lapses.
        bo.leave_room();
        ticked_until(&mut ann, "Your opponent left");
        ann.handle_event(key('y'));
        ticked_until(
            &mut ann,
            "white claims the win: black has 1 min to come back",
        );
        bo.open("r1");
        ticked_until(&mut bo, "you play black");
        ticked_until(&mut ann, "black is back: the claim lapses, play on");
        ann.handle_event(key('C'));
        let text = screen_text(&mut ann);
        assert!(
            text.contains("nothing to claim: your opponent is here"),
            "{text}"
        );
    }

    #[test]
    fn the_computer_answers_in_its_room_and_is_watched() {
        let hub = Arc::new(Hub::new(ServerLimits::default(), None, Vec::new(), 0));
        let mut ann = session(&hub, "ann");
        // e opens the form: the name offered, ann white; Tab to the level, ← to 1.
        ann.handle_event(key('e'));
        let tab = Event::Key(KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE));
        for _ in 0..4 {
            ann.handle_event(tab.clone());
        }
        ann.handle_event(Event::Key(KeyEvent::new(KeyCode::Left, KeyModifiers::NONE)));
        ann.handle_event(Event::Key(KeyEvent::new(
            KeyCode::Enter,
            KeyModifiers::NONE,
        )));
        assert_eq!(ann.room(), Some("ann"));
        let text = screen_text(&mut ann);
        assert!(
            text.contains("you play white against qchess level 1"),
            "{text}"
        );
        both("room_computer", &mut ann);
        let mut cy = session(&hub, "cy");
        cy.open("ann");
        typed(&mut ann, ":e2e4");
        ticked_until(&mut ann, "black played");
        ticked_until(&mut cy, "black played");
        assert_eq!(hub.summaries()[0].ply, 2);
        assert_eq!(
            hub.summaries()[0].roster.black,
            Some((Occupant::Computer(Strength::Level(1)), true))
        );
        // The computer's seat is not anyone's to take.
        let mut bo = session(&hub, "bo");
        bo.handle_event(key('b'));
        let text = screen_text(&mut bo);
        assert!(text.contains("black is taken by qchess level 1"), "{text}");
    }
}
