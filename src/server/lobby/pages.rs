//! The lobby's pages besides the rooms: the leaderboard, the archive, a player's page
//! and the seeks, what each asks the session for ([`Ask`]), and how the session answers
//! the club's from the club ([`open`]): one read of the club when a page opens, bounded.

use super::ask::{failed, Ask, Step, NO_ACCOUNT};
use super::board::Board;
use super::games::Games;
use super::player::PlayerPage;
use super::seeks::SeeksPage;
use crate::club::{ClubError, GameId, MemberId};
use crate::server::club::Club;
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
}

impl Page {
    /// Handles a key.
    pub fn key(&mut self, key: KeyEvent) -> Step {
        match self {
            Page::Player(p) if p.typing() => return p.line_key(key),
            Page::Seeks(s) if s.typing() => return s.line_key(key),
            _ => {}
        }
        let code = match input::press(key) {
            Press::Interrupt => return Step::Quit,
            Press::Ignored => return Step::Stay,
            Press::Key(code) => code,
        };
        if matches!(code, KeyCode::Esc | KeyCode::Char('q')) {
            return Step::Rooms;
        }
        match self {
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
            Page::Board(_) | Page::Games(_) => false,
        }
    }

    /// Takes pasted text (a key's OpenSSH line on the player's own page, an offer on
    /// the seeks page).
    pub fn paste(&mut self, text: &str) {
        match self {
            Page::Player(p) => p.paste(text),
            Page::Seeks(s) => s.paste(text),
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
        }
    }

    /// Draws the page in `area`.
    pub fn draw(&self, f: &mut Frame, area: Rect, paint: &Paint) {
        match self {
            Page::Board(b) => b.draw(f, area, paint),
            Page::Games(g) => g.draw(f, area, paint),
            Page::Player(p) => p.draw(f, area, paint),
            Page::Seeks(s) => s.draw(f, area, paint),
        }
    }
}

/// What the session makes of a [`Ask`].
pub enum Opened {
    /// Show this page, saying this first when there is something to say.
    Show(Page, Option<String>),
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
        Ok(page) => Opened::Show(page, said),
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

    #[test]
    fn esc_goes_back_to_the_rooms_and_keys_ask_the_session() {
        let (store, _, dir) = club("keys");
        let mut lobby = Lobby::new("ann", Vec::new(), "24 h", None);
        let key = |c: KeyCode| Event::Key(crossterm::event::KeyEvent::new(c, KeyModifiers::NONE));
        for (c, ask) in [
            ('r', Ask::Board(Category::Blitz)),
            ('g', Ask::Games(None)),
            ('m', Ask::Me),
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
