//! The lobby's pages besides the rooms: the leaderboard, the archive, a player's page
//! and the seeks, what each asks the session for ([`Ask`]), and how the session answers
//! the club's from the club ([`open`]): one read of the club when a page opens, bounded.

use super::ask::{failed, Ask, Step, NO_ACCOUNT};
use super::board::Board;
use super::games::Games;
use super::player::PlayerPage;
use super::seeks::SeeksPage;
use super::tournaments::{parse_new, TournamentsPage};
use crate::club::{ClubError, GameId, MemberId};
use crate::server::club::Club;
use crate::server::limits::TOURNAMENTS_PER_MEMBER;
use crate::server::room::Person;
use crate::style::color::Paint;
use crate::ui::input::{self, Press};
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::Frame;

/// A page of the lobby.
pub enum Page {
    /// The leaderboard.
    Board(Board),
    /// The archive.
    Games(Games),
    /// A player's page.
    Player(Box<PlayerPage>),
    /// The seeks open, and the player's challenges.
    Seeks(SeeksPage),
    /// The club's tournaments.
    Tournaments(Box<TournamentsPage>),
}

impl Page {
    /// Handles a key.
    pub fn key(&mut self, key: KeyEvent) -> Step {
        match self {
            Page::Player(p) if p.typing() => return p.line_key(key),
            Page::Seeks(s) if s.typing() => return s.line_key(key),
            Page::Tournaments(t) if t.typing() => return t.line_key(key),
            _ => {}
        }
        let code = match input::press(key) {
            Press::Interrupt => return Step::Quit,
            Press::Ignored => return Step::Stay,
            Press::Key(code) => code,
        };
        let one = matches!(self, Page::Tournaments(t) if t.showing_one());
        if matches!(code, KeyCode::Esc | KeyCode::Char('q')) && !one {
            return Step::Rooms;
        }
        match self {
            Page::Tournaments(t) => t.key(code),
            Page::Board(b) => b.key(code),
            Page::Games(g) => g.key(code),
            Page::Player(p) => p.key(code),
            Page::Seeks(s) => s.key(code),
        }
    }

    /// Whether a line is being typed on the page.
    pub fn typing(&self) -> bool {
        match self {
            Page::Player(p) => p.typing(),
            Page::Seeks(s) => s.typing(),
            Page::Tournaments(t) => t.typing(),
            Page::Board(_) | Page::Games(_) => false,
        }
    }

    /// Takes pasted text (a key's OpenSSH line on the player's own page, an offer on
    /// the seeks page).
    pub fn paste(&mut self, text: &str) {
        match self {
            Page::Player(p) => p.paste(text),
            Page::Seeks(s) => s.paste(text),
            Page::Tournaments(t) => t.paste(text),
            Page::Board(_) | Page::Games(_) => {}
        }
    }

    /// The page's keys, a line each, for the lobby's key lines.
    pub fn keys(&self) -> Vec<String> {
        match self {
            Page::Board(b) => b.keys(),
            Page::Games(g) => g.keys(),
            Page::Player(p) => p.keys(),
            Page::Seeks(s) => s.keys(),
            Page::Tournaments(t) => t.keys(),
        }
    }

    /// Draws the page in `area`.
    pub fn draw(&self, f: &mut Frame, area: Rect, paint: &Paint) {
        match self {
            Page::Board(b) => b.draw(f, area, paint),
            Page::Games(g) => g.draw(f, area, paint),
            Page::Player(p) => p.draw(f, area, paint),
            Page::Seeks(s) => s.draw(f, area, paint),
            Page::Tournaments(t) => t.draw(f, area, paint),
        }
    }
}

/// What the session makes of a [`Ask`].
pub enum Opened {
    /// Show this page, saying this first when there is something to say.
    Show(Box<Page>, Option<String>),
    /// Open this game's record (saved-game TOML) in the replay screen.
    Replay(GameId, String),
    /// Refused, or failed: why, in the player's words.
    Refused(String),
    /// The player's account is deleted (this member); back to the rooms, saying this.
    Deleted(MemberId, String),
}

/// Carries out `want` for `me` with the club, now being `now` (seconds since the Unix
/// epoch).
pub fn open(club: &Club, me: &Person, want: Ask, now: i64) -> Opened {
    let shown = |page: Result<Page, ClubError>, said: Option<String>| match page {
        Ok(page) => Opened::Show(Box::new(page), said),
        Err(e) => Opened::Refused(failed(&e)),
    };
    let store = || club.store();
    match want {
        Ask::Board(category) => shown(
            Board::load(&**store(), category, now).map(Page::Board),
            None,
        ),
        Ask::Games(of) => shown(Games::load(&**store(), of).map(Page::Games), None),
        Ask::Player(member, name) => shown(
            PlayerPage::load(&**store(), Some(member), &name, false).map(player),
            None,
        ),
        Ask::Me => shown(
            PlayerPage::load(&**store(), me.member, &me.name, true).map(player),
            None,
        ),
        Ask::Replay(id) => match store().game_record(id) {
            Ok(Some(record)) => Opened::Replay(id, record),
            Ok(None) => Opened::Refused(format!("game {} is not in the archive", id.0)),
            Err(e) => Opened::Refused(failed(&e)),
        },
        // Each store call ends before the page is read again (the store is one lock).
        Ask::AddKey(text) => {
            let added = super::account::add(&mut **store(), me, &text, now);
            match added {
                Ok(said) => shown(mine(club, me), Some(said)),
                Err(why) => Opened::Refused(why),
            }
        }
        Ask::RemoveKey(fingerprint) => {
            let removed = super::account::remove(&mut **store(), me, &fingerprint);
            match removed {
                Ok(said) => shown(mine(club, me), Some(said)),
                Err(why) => Opened::Refused(why),
            }
        }
        Ask::Tournaments(one) => shown(
            TournamentsPage::load(&**store(), one, me.member.is_some()).map(|p| Page::Tournaments(Box::new(p))),
            None,
        ),
        Ask::NewTournament(text) => match new_tournament(club, me, &text, now) {
            Ok(said) => shown(
                TournamentsPage::load(&**store(), None, true).map(|p| Page::Tournaments(Box::new(p))),
                Some(said),
            ),
            Err(why) => Opened::Refused(why),
        },
        Ask::DeleteAccount => match me.member {
            None => Opened::Refused(NO_ACCOUNT.into()),
            Some(member) => match store().delete_member(member) {
                Ok(_) => Opened::Deleted(
                    member,
                    format!(
                        "your account is deleted: its keys and ratings are gone, its games stay under the name {}, which is free now",
                        me.name
                    ),
                ),
                Err(e) => Opened::Refused(failed(&e)),
            },
        },
    }
}

/// Makes the tournament `text` types for `me` at `now`, within
/// [`TOURNAMENTS_PER_MEMBER`] open at once; what the player is told.
fn new_tournament(club: &Club, me: &Person, text: &str, now: i64) -> Result<String, String> {
    let member = me.member.ok_or(NO_ACCOUNT)?;
    let new = parse_new(text, member, now)?;
    let mut store = club.store();
    let theirs = store
        .tournaments()
        .map_err(|e| failed(&e))?
        .iter()
        .filter(|t| t.made.creator == Some(member) && t.state.open())
        .count();
    if theirs >= TOURNAMENTS_PER_MEMBER {
        return Err(format!(
            "you have {theirs} tournaments not over yet: a member may have {TOURNAMENTS_PER_MEMBER} at once"
        ));
    }
    match store.create_tournament(&new) {
        Ok(t) => Ok(format!(
            "{} is made: it starts {}; players join with ssh -t NAME@host tournament {}",
            t.made.name,
            super::ask::when(t.made.starts),
            t.made.name
        )),
        Err(e @ ClubError::TournamentTaken(_)) => Err(e.to_string()),
        Err(e) => Err(failed(&e)),
    }
}

/// The player's own page, read again, the pick on their keys.
fn mine(club: &Club, me: &Person) -> Result<Page, ClubError> {
    PlayerPage::load(&**club.store(), me.member, &me.name, true).map(|p| player(p.on_keys()))
}

fn player(p: PlayerPage) -> Page {
    Page::Player(Box::new(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Status;
    use crate::club::tournament::record::TournamentId;
    use crate::club::{Category, ClubStore, FinishedGame, Member, MemberKey, Seat, SqliteStore};
    use crate::server::lobby::Lobby;
    use crate::style::color::Tier;
    use crossterm::event::{Event, KeyModifiers};
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;

    /// The first game's end: a fixed moment, so that the pages read the same every day.
    const T0: i64 = 1_764_000_000;

    /// A club of three members: ann and bob play rated blitz often enough to settle,
    /// ann plays the computer and a guest; ann has two keys.
    fn club(name: &str) -> (SqliteStore, [Member; 3], std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("qchess-pages-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut store = SqliteStore::open(&dir.join("club.sqlite")).unwrap();
        let ann = store
            .join(
                "ann",
                "SHA256:annsfirstkeyAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
                "ssh-ed25519 A",
                T0 - 9000,
            )
            .unwrap();
        store
            .add_key(&MemberKey {
                fingerprint: "SHA256:annslaptopBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB".into(),
                openssh: "ssh-ed25519 B".into(),
                member: ann.id,
                added: T0 - 3000,
            })
            .unwrap();
        let bob = store.add_member("bob", T0 - 8000).unwrap();
        let cy = store.add_member("cy-the-long-name", T0 - 7000).unwrap();
        let seat = |m: &Member| Seat {
            member: Some(m.id),
            name: m.name.clone(),
        };
        let other = |name: &str| Seat {
            member: None,
            name: name.into(),
        };
        let results = [
            Status::WhiteWins,
            Status::Draw,
            Status::BlackWins,
            Status::Draw,
        ];
        let fin = |white, black, rated, control: &str, result, why: Option<&str>| FinishedGame {
            white,
            black,
            rated,
            control: control.parse().ok(),
            result,
            reason: why.map(str::to_string),
            record: "format = 1\nmoves = []\n".into(),
            started: 0,
            ended: 0,
            key: None,
        };
        let mut games: Vec<FinishedGame> = (0..24)
            .map(|n| {
                let (w, b) = if n % 2 == 0 {
                    (&ann, &bob)
                } else {
                    (&bob, &ann)
                };
                let why = (results[n % 4] != Status::Draw).then_some("resigned");
                fin(seat(w), seat(b), true, "5+3", results[n % 4], why)
            })
            .collect();
        games.extend([
            fin(
                seat(&cy),
                seat(&ann),
                true,
                "1+0",
                Status::WhiteWins,
                Some("black lost on time"),
            ),
            fin(
                seat(&ann),
                other("qchess level 2"),
                false,
                "none",
                Status::WhiteWins,
                None,
            ),
            fin(
                other("qchess level 3"),
                seat(&ann),
                false,
                "none",
                Status::Draw,
                None,
            ),
            fin(
                other("guest-4"),
                seat(&ann),
                false,
                "10+5",
                Status::BlackWins,
                None,
            ),
        ]);
        for (n, mut game) in games.into_iter().enumerate() {
            game.ended = T0 + n as i64 * 3600;
            game.started = game.ended - 600;
            store.record_game(&game).unwrap();
        }
        (store, [ann, bob, cy], dir)
    }

    fn drawn(page: Page, w: u16, h: u16) -> String {
        let mut lobby = Lobby::new("ann", Vec::new(), "24 h", None);
        lobby.show(page);
        let paint = Paint::new(Default::default(), Tier::None);
        let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
        t.draw(|f| lobby.draw(f, &paint, "classic", false)).unwrap();
        t.backend().to_string()
    }

    fn both(name: &str, page: impl Fn() -> Page) {
        insta::assert_snapshot!(format!("{name}_80x24"), drawn(page(), 80, 24));
        insta::assert_snapshot!(format!("{name}_120x40"), drawn(page(), 120, 40));
    }

    #[test]
    fn the_pages_drawn() {
        let (store, [ann, ..], dir) = club("drawn");
        let now = T0 + 30 * 3600;
        both("leaderboard", || {
            Page::Board(Board::load(&store, Category::Blitz, now).unwrap())
        });
        both("leaderboard_empty", || {
            Page::Board(Board::load(&store, Category::Classical, now).unwrap())
        });
        both("games", || Page::Games(Games::load(&store, None).unwrap()));
        both("own_page", || {
            player(PlayerPage::load(&store, Some(ann.id), "ann", true).unwrap())
        });
        both("player_page", || {
            player(PlayerPage::load(&store, Some(ann.id), "ann", false).unwrap())
        });
        both("guest_page", || {
            player(PlayerPage::load(&store, None, "guest-12", true).unwrap())
        });
        // The own page with the line for a new key open.
        both("own_page_adding_a_key", || {
            let mut page = player(PlayerPage::load(&store, Some(ann.id), "ann", true).unwrap());
            page.key(crossterm::event::KeyEvent::new(
                KeyCode::Char('a'),
                KeyModifiers::NONE,
            ));
            page.paste("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA laptop");
            page
        });
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A Swiss of ann, bob and cy running its first round (ann beat bob, cy has the
    /// bye) and an arena to come.
    fn tournaments(store: &mut SqliteStore, [ann, bob, cy]: &[Member; 3]) -> TournamentId {
        use crate::club::tournament::record::{Length, NewTournament, State};
        use crate::club::tournament::{Board, Kind};
        let new = |name: &str, kind, length, starts| NewTournament {
            name: name.into(),
            kind,
            control: "3+2".parse().unwrap(),
            length,
            starts,
            creator: Some(ann.id),
        };
        let swiss = store
            .create_tournament(&new("Winter Cup", Kind::Swiss, Length::Rounds(3), T0))
            .unwrap();
        store
            .create_tournament(&new(
                "Lunch Arena",
                Kind::Arena,
                Length::Minutes(30),
                T0 + 7200,
            ))
            .unwrap();
        for (m, rating) in [(ann, 1620.0), (bob, 1540.0), (cy, 1500.0)] {
            store.enter(swiss.id, m.id, rating, T0 - 60).unwrap();
        }
        store
            .set_tournament_state(swiss.id, State::Running)
            .unwrap();
        let board = Board {
            white: ann.id,
            black: bob.id,
        };
        let kept = store.pair(swiss.id, 1, &[board], Some(cy.id)).unwrap();
        let seat = |m: &Member| Seat {
            member: Some(m.id),
            name: m.name.clone(),
        };
        let game = FinishedGame {
            white: seat(ann),
            black: seat(bob),
            rated: true,
            control: "3+2".parse().ok(),
            result: Status::WhiteWins,
            reason: Some("black resigned".into()),
            record: "format = 1\nmoves = []\n".into(),
            started: T0,
            ended: T0 + 300,
            key: None,
        };
        store.record_pairing(kept[0].id, &game).unwrap();
        swiss.id
    }

    #[test]
    fn the_tournaments_page_lists_them_and_shows_one_s_standings() {
        let (mut store, members, dir) = club("tournaments");
        let swiss = tournaments(&mut store, &members);
        both("tournaments", || {
            Page::Tournaments(Box::new(TournamentsPage::load(&store, None, true).unwrap()))
        });
        both("tournament_standings", || {
            Page::Tournaments(Box::new(
                TournamentsPage::load(&store, Some(swiss), true).unwrap(),
            ))
        });
        // Esc leaves the standings for the list, then the list for the rooms.
        let mut page = Page::Tournaments(Box::new(
            TournamentsPage::load(&store, Some(swiss), true).unwrap(),
        ));
        let esc = crossterm::event::KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE);
        assert_eq!(page.key(esc), Step::Stay);
        assert_eq!(page.key(esc), Step::Rooms);
        // A guest may not make one; a member types it.
        let n = crossterm::event::KeyEvent::new(KeyCode::Char('n'), KeyModifiers::NONE);
        let mut guest = Page::Tournaments(Box::new(
            TournamentsPage::load(&store, None, false).unwrap(),
        ));
        assert!(matches!(guest.key(n), Step::Say(_, true)));
        let mut page =
            Page::Tournaments(Box::new(TournamentsPage::load(&store, None, true).unwrap()));
        page.key(n);
        page.paste("arena 1+0 30 Lunch");
        let enter = crossterm::event::KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE);
        assert_eq!(
            page.key(enter),
            Step::Ask(Ask::NewTournament("arena 1+0 30 Lunch".into()))
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_member_makes_a_few_tournaments_at_once() {
        let dir = std::env::temp_dir().join(format!("qchess-pages-new-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let club = Club::open(&dir.join("club.sqlite")).unwrap();
        let ann = club.store().add_member("ann", T0).unwrap();
        let me = Person {
            name: "ann".into(),
            key: Some("SHA256:a".into()),
            from: None,
            member: Some(ann.id),
        };
        let refused = |text: &str| match open(&club, &me, Ask::NewTournament(text.into()), T0) {
            Opened::Refused(why) => why,
            _ => String::new(),
        };
        assert!(refused("swiss 3+2 40 Long").contains("1 to 11 rounds"));
        assert!(refused("arena 3+2 5 Short").contains("10 to 180 minutes"));
        assert!(refused("arena 3+2 30").contains("a tournament's name"));
        assert!(refused("cup 3+2 30 X").contains("arena or swiss"));
        for name in ["One", "Two"] {
            let made = open(
                &club,
                &me,
                Ask::NewTournament(format!("swiss 3+2 5 {name}")),
                T0,
            );
            assert!(
                matches!(&made, Opened::Show(page, Some(_)) if matches!(**page, Page::Tournaments(_)))
            );
        }
        assert!(refused("swiss 3+2 5 One").contains("you have 2 tournaments not over yet"));
        let one = club.store().tournament("One").unwrap().unwrap();
        assert_eq!(one.made.starts, T0 + super::super::tournaments::LEAD_SECS);
        assert_eq!(one.made.creator, Some(ann.id));
        // One over: another may be made.
        club.store()
            .set_tournament_state(one.id, crate::club::tournament::record::State::Cancelled)
            .unwrap();
        assert!(refused("swiss 3+2 5 One").contains("named \"One\" already"));
        let made = open(
            &club,
            &me,
            Ask::NewTournament("arena 1+0 30 Three".into()),
            T0,
        );
        assert!(matches!(made, Opened::Show(..)));
        let guest = Person {
            member: None,
            ..me.clone()
        };
        assert!(matches!(
            open(
                &club,
                &guest,
                Ask::NewTournament("arena 1+0 30 Four".into()),
                T0
            ),
            Opened::Refused(_)
        ));
        drop(club);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn esc_goes_back_to_the_rooms_and_keys_ask_the_session() {
        let (store, _, dir) = club("keys");
        let mut lobby = Lobby::new("ann", Vec::new(), "24 h", None);
        let key = |c: KeyCode| Event::Key(crossterm::event::KeyEvent::new(c, KeyModifiers::NONE));
        for (c, ask) in [
            ('r', Ask::Board(Category::Blitz)),
            ('g', Ask::Games(None)),
            ('m', Ask::Me),
            ('u', Ask::Tournaments(None)),
        ] {
            lobby.handle_event(key(KeyCode::Char(c)));
            assert_eq!(lobby.take_intent(), Some(super::super::Intent::Page(ask)));
        }
        lobby.show(Page::Games(Games::load(&store, None).unwrap()));
        lobby.handle_event(key(KeyCode::Enter));
        assert!(matches!(
            lobby.take_intent(),
            Some(super::super::Intent::Page(Ask::Replay(_)))
        ));
        lobby.handle_event(key(KeyCode::Esc));
        assert_eq!(
            lobby.take_intent(),
            None,
            "Esc leaves the page, not the server"
        );
        lobby.handle_event(key(KeyCode::Esc));
        assert_eq!(lobby.take_intent(), Some(super::super::Intent::Quit));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
