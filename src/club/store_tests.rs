//! The club's storage tests, run on each engine: on SQLite always, on PostgreSQL when
//! `QCHESS_TEST_POSTGRES` names a server where scratch databases may be made (each test
//! its own, dropped after it, so that they run in parallel).

use super::*;
use crate::game::clock::TimeControl;
use std::sync::atomic::{AtomicUsize, Ordering};
use tournament::record::Length;
use tournament::standings::Standing;
use tournament::{swiss, Kind};

/// The variable naming the PostgreSQL server the tests may make databases on.
pub const POSTGRES_VARIABLE: &str = "QCHESS_TEST_POSTGRES";

/// A fresh, empty club of one engine for one test, removed after it.
pub struct Scratch {
    store: Option<Box<dyn ClubStore + Send>>,
    place: Place,
}

/// Where a scratch club is, to remove it.
enum Place {
    Folder(PathBuf),
    Postgres { admin: String, name: String },
}

impl Scratch {
    /// A club in a new SQLite file in a folder of its own, `name` telling the folder.
    pub fn sqlite(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!(
            "qchess-club-{name}-{}-{}",
            std::process::id(),
            serial()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let store = SqliteStore::open(&dir.join("club.sqlite")).unwrap();
        Scratch {
            store: Some(Box::new(store)),
            place: Place::Folder(dir),
        }
    }

    /// A club in a new PostgreSQL database, or none (said on standard error) when
    /// [`POSTGRES_VARIABLE`] is not set.
    pub fn postgres() -> Option<Scratch> {
        let (admin, name, url) = scratch_database()?;
        let store = PostgresStore::open(&url).unwrap();
        Some(Scratch {
            store: Some(Box::new(store)),
            place: Place::Postgres { admin, name },
        })
    }

    /// Its store.
    pub fn store(&mut self) -> &mut dyn ClubStore {
        &mut **self
            .store
            .as_mut()
            .expect("the store lives as long as its scratch")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        drop(self.store.take());
        match &self.place {
            Place::Folder(dir) => {
                let _ = std::fs::remove_dir_all(dir);
            }
            Place::Postgres { admin, name } => drop_database(admin, name),
        }
    }
}

/// A number no other scratch of this process has.
fn serial() -> usize {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A new empty PostgreSQL database on the server of [`POSTGRES_VARIABLE`]: that URL,
/// the new database's name and its URL. None, said on standard error, when the
/// variable is not set.
pub fn scratch_database() -> Option<(String, String, String)> {
    let Ok(admin) = std::env::var(POSTGRES_VARIABLE) else {
        // Once a run, past the tests' capture of their output (a write of its own to
        // standard error), so that a run without PostgreSQL says so.
        static SAID: std::sync::Once = std::sync::Once::new();
        SAID.call_once(|| {
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "the club's tests on PostgreSQL skipped: set {POSTGRES_VARIABLE}=postgres://USER@HOST:PORT/DATABASE to run them"
            );
        });
        return None;
    };
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let name = format!("qchess_test_{}_{}_{nanos}", std::process::id(), serial());
    let mut client = ::postgres::Client::connect(&admin, ::postgres::NoTls).unwrap();
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .unwrap();
    let url = super::database::with_database(&admin, &name);
    Some((admin, name, url))
}

/// Drops a scratch database, whoever is still connected to it.
pub fn drop_database(admin: &str, name: &str) {
    if let Ok(mut client) = ::postgres::Client::connect(admin, ::postgres::NoTls) {
        let _ = client.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
    }
}

/// Instantiates each named test (a function taking a fresh store) once per engine.
macro_rules! on_each_engine {
    ($($test:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[test]
                fn $test() {
                    let mut scratch = super::Scratch::sqlite(stringify!($test));
                    super::$test(scratch.store());
                }
            )*
        }
        mod postgres {
            $(
                #[test]
                fn $test() {
                    if let Some(mut scratch) = super::Scratch::postgres() {
                        super::$test(scratch.store());
                    }
                }
            )*
        }
    };
}

on_each_engine!(
    joining_makes_the_member_and_their_key_or_neither,
    names_are_unique_whatever_the_case_and_keys_belong_to_one_member,
    bans_are_kept_by_key,
    a_rated_game_is_archived_with_both_ratings_moved,
    a_game_recorded_again_under_its_key_is_kept_once,
    games_that_cannot_be_rated_or_are_not_over_are_refused_whole,
    listings_are_most_recent_first_and_bounded,
    the_leaderboard_is_the_settled_and_recent_players_best_first,
    a_deleted_member_leaves_their_games_under_their_name_and_frees_it,
    results_against_the_computer_are_counted_per_level,
    bans_are_listed_most_recent_first,
    a_backup_is_a_whole_sqlite_database_of_its_own,
    a_swiss_round_is_kept_paired_scored_and_archived_under_its_name,
    a_round_is_paired_once_whoever_asks_twice,
    servers_publish_their_rooms_for_the_others_until_they_stop_or_go_quiet,
);

/// A member's seat.
pub fn seat(m: &Member) -> Seat {
    Seat {
        member: Some(m.id),
        name: m.name.clone(),
    }
}

/// A finished game with an empty record, started five minutes before it ended.
pub fn game(
    white: Seat,
    black: Seat,
    rated: bool,
    control: &str,
    result: Status,
    ended: i64,
) -> FinishedGame {
    FinishedGame {
        white,
        black,
        rated,
        control: control.parse::<TimeControl>().ok(),
        result,
        reason: None,
        record: "format = 1\nmoves = []\n".into(),
        started: ended - 300,
        ended,
        key: None,
    }
}

fn joining_makes_the_member_and_their_key_or_neither(store: &mut dyn ClubStore) {
    let ann = store
        .join("Ann", "SHA256:a", "ssh-ed25519 AAAA ann", 10)
        .unwrap();
    assert_eq!(store.key_owner("SHA256:a").unwrap(), Some(ann.clone()));
    // The name taken (whatever the case): no key is added.
    assert!(matches!(
        store.join("ann", "SHA256:b", "ssh-ed25519 BBBB", 11),
        Err(ClubError::NameTaken(_))
    ));
    assert_eq!(store.key_owner("SHA256:b").unwrap(), None);
    // The key taken: no member is made.
    assert!(matches!(
        store.join("bo", "SHA256:a", "ssh-ed25519 AAAA", 12),
        Err(ClubError::KeyTaken(_))
    ));
    assert_eq!(store.member("bo").unwrap(), None);
    assert_eq!(store.keys(ann.id).unwrap().len(), 1);
}

fn names_are_unique_whatever_the_case_and_keys_belong_to_one_member(store: &mut dyn ClubStore) {
    let ann = store.add_member("Ann", 10).unwrap();
    assert!(matches!(store.add_member("aNN", 11), Err(ClubError::NameTaken(n)) if n == "aNN"));
    // Composed and decomposed letters are one name.
    store.add_member("Z\u{e9}lie", 12).unwrap();
    assert!(store.add_member("ze\u{301}lie", 13).is_err());
    let bob = store.add_member("bob", 14).unwrap();
    assert_eq!(store.member("ANN").unwrap(), Some(ann.clone()));
    assert_eq!(store.member("carl").unwrap(), None);
    let key = |fp: &str, member: MemberId| MemberKey {
        fingerprint: fp.into(),
        openssh: format!("ssh-ed25519 AAAA {fp}"),
        member,
        added: 20,
    };
    store.add_key(&key("SHA256:a1", ann.id)).unwrap();
    store.add_key(&key("SHA256:a2", ann.id)).unwrap();
    assert!(matches!(
        store.add_key(&key("SHA256:a1", bob.id)),
        Err(ClubError::KeyTaken(_))
    ));
    assert_eq!(store.keys(ann.id).unwrap().len(), 2);
    assert_eq!(
        store.key_owner("SHA256:a2").unwrap().map(|m| m.name),
        Some("Ann".into())
    );
    // Only its owner removes a key.
    assert!(!store.remove_key(bob.id, "SHA256:a1").unwrap());
    assert!(store.remove_key(ann.id, "SHA256:a1").unwrap());
    assert_eq!(store.key_owner("SHA256:a1").unwrap(), None);
    // A key of no member is refused by the foreign key.
    assert!(store.add_key(&key("SHA256:x", MemberId(999))).is_err());
    let names: Vec<String> = store
        .roster()
        .unwrap()
        .into_iter()
        .map(|(m, _)| m.name)
        .collect();
    assert_eq!(names, ["Ann", "bob", "Z\u{e9}lie"]);
}

fn bans_are_kept_by_key(store: &mut dyn ClubStore) {
    let ban = Ban {
        fingerprint: "SHA256:spam".into(),
        reason: "flooding".into(),
        since: 5,
    };
    store.ban(&ban).unwrap();
    store
        .ban(&Ban {
            reason: "flooding again".into(),
            ..ban.clone()
        })
        .unwrap();
    let kept = store.banned("SHA256:spam").unwrap().unwrap();
    assert_eq!((kept.reason.as_str(), kept.since), ("flooding again", 5));
    assert!(store.unban("SHA256:spam").unwrap());
    assert!(!store.unban("SHA256:spam").unwrap());
    assert_eq!(store.banned("SHA256:spam").unwrap(), None);
}

fn a_rated_game_is_archived_with_both_ratings_moved(store: &mut dyn ClubStore) {
    let ann = store.add_member("ann", 0).unwrap();
    let bob = store.add_member("bob", 0).unwrap();
    let (id, sides) = store
        .record_game(&game(
            seat(&ann),
            seat(&bob),
            true,
            "5+3",
            Status::WhiteWins,
            1000,
        ))
        .unwrap();
    let sides = sides.unwrap();
    assert_eq!(sides.category, Category::Blitz);
    let expected = super::rating::rate_game(Rating::NEW, Rating::NEW, Status::WhiteWins).unwrap();
    assert_eq!((sides.white.1, sides.black.1), expected);
    assert_eq!(store.rating(ann.id, Category::Blitz).unwrap(), expected.0);
    assert_eq!(store.rating(bob.id, Category::Blitz).unwrap(), expected.1);
    assert_eq!(store.rating(ann.id, Category::Rapid).unwrap(), Rating::NEW);
    // The second game starts from the first one's ratings.
    let (_, second) = store
        .record_game(&game(
            seat(&bob),
            seat(&ann),
            true,
            "3+2",
            Status::Draw,
            2000,
        ))
        .unwrap();
    assert_eq!(second.unwrap().white.0, expected.1);
    let ratings = store.ratings(ann.id).unwrap();
    assert_eq!(ratings.len(), 1);
    assert_eq!((ratings[0].games, ratings[0].last_played), (2, 2000));
    // A casual game moves no rating.
    let (_, none) = store
        .record_game(&game(
            seat(&ann),
            seat(&bob),
            false,
            "1+0",
            Status::BlackWins,
            3000,
        ))
        .unwrap();
    assert_eq!(none, None);
    assert_eq!(store.ratings(ann.id).unwrap().len(), 1);
    let listed = store
        .games(GameQuery {
            member: Some(ann.id),
            limit: 10,
        })
        .unwrap();
    assert_eq!(listed.len(), 3);
    assert!(listed.windows(2).all(|w| w[0].ended >= w[1].ended));
    assert_eq!(listed[2].id, id);
    assert_eq!(listed[2].ratings, Some(sides));
    assert_eq!(listed[0].ratings, None);
    assert_eq!(
        store.game_record(id).unwrap().unwrap(),
        "format = 1\nmoves = []\n"
    );
    assert_eq!(store.game_record(GameId(99)).unwrap(), None);
}

fn a_game_recorded_again_under_its_key_is_kept_once(store: &mut dyn ClubStore) {
    let ann = store.add_member("ann", 0).unwrap();
    let bob = store.add_member("bob", 0).unwrap();
    let keyed = |key: &str| FinishedGame {
        key: Some(key.into()),
        ..game(seat(&ann), seat(&bob), true, "5+3", Status::WhiteWins, 1000)
    };
    let first = store.record_game(&keyed("room-1")).unwrap();
    assert!(first.1.is_some());
    // Again, as after a crash before the server noted it: the first write answers.
    assert_eq!(store.record_game(&keyed("room-1")).unwrap(), first);
    let ratings = store.ratings(ann.id).unwrap();
    assert_eq!(ratings[0].games, 1, "rated once");
    // Another key, or none, is another game.
    let (other, sides) = store.record_game(&keyed("room-2")).unwrap();
    assert_ne!(other, first.0);
    assert_eq!(sides.unwrap().white.0, first.1.unwrap().white.1);
    let unkeyed = game(seat(&ann), seat(&bob), false, "5+3", Status::Draw, 3000);
    store.record_game(&unkeyed).unwrap();
    store.record_game(&unkeyed).unwrap();
    let query = GameQuery {
        member: None,
        limit: 10,
    };
    assert_eq!(store.games(query).unwrap().len(), 4);
}

fn games_that_cannot_be_rated_or_are_not_over_are_refused_whole(store: &mut dyn ClubStore) {
    let ann = store.add_member("ann", 0).unwrap();
    let guest = Seat {
        member: None,
        name: "guest-1".into(),
    };
    for refused in [
        game(seat(&ann), seat(&ann), true, "5+3", Status::Draw, 1),
        game(seat(&ann), guest.clone(), true, "5+3", Status::Draw, 1),
        game(seat(&ann), seat(&ann), true, "none", Status::Draw, 1),
    ] {
        assert!(matches!(
            store.record_game(&refused),
            Err(ClubError::NotRateable)
        ));
    }
    let unfinished = game(seat(&ann), guest.clone(), false, "5+3", Status::Ongoing, 1);
    assert!(matches!(
        store.record_game(&unfinished),
        Err(ClubError::Unfinished)
    ));
    assert!(store
        .games(GameQuery {
            member: None,
            limit: 10
        })
        .unwrap()
        .is_empty());
    // A casual game with a guest and no clock is archived.
    store
        .record_game(&game(guest, seat(&ann), false, "none", Status::Draw, 1))
        .unwrap();
    let listed = store
        .games(GameQuery {
            member: None,
            limit: 10,
        })
        .unwrap();
    assert_eq!(
        (listed[0].control, listed[0].white.name.as_str()),
        (None, "guest-1")
    );
}

fn listings_are_most_recent_first_and_bounded(store: &mut dyn ClubStore) {
    let members: Vec<Member> = (0..4)
        .map(|i| store.add_member(&format!("p{i}"), 0).unwrap())
        .collect();
    for n in 0..40_i64 {
        let w = &members[(n % 4) as usize];
        let b = &members[((n + 1) % 4) as usize];
        // Out of order in time: the listing sorts.
        let ended = (n * 7919) % 101;
        store
            .record_game(&game(seat(w), seat(b), true, "10+5", Status::Draw, ended))
            .unwrap();
    }
    let all = store
        .games(GameQuery {
            member: None,
            limit: 100,
        })
        .unwrap();
    assert_eq!(all.len(), 40);
    assert!(all
        .windows(2)
        .all(|w| (w[0].ended, w[0].id) > (w[1].ended, w[1].id)));
    let p0 = members[0].id;
    let mine = store
        .games(GameQuery {
            member: Some(p0),
            limit: 5,
        })
        .unwrap();
    assert_eq!(mine.len(), 5);
    let expected: Vec<GameId> = all
        .iter()
        .filter(|g| g.white.member == Some(p0) || g.black.member == Some(p0))
        .take(5)
        .map(|g| g.id)
        .collect();
    assert_eq!(mine.iter().map(|g| g.id).collect::<Vec<_>>(), expected);
    let roster = store.roster().unwrap();
    assert!(roster.iter().all(|(_, r)| r.len() == 1 && r[0].games == 20));
}

fn the_leaderboard_is_the_settled_and_recent_players_best_first(store: &mut dyn ClubStore) {
    let [ann, bob, cy, dee] = ["ann", "bob", "cy", "dee"].map(|n| store.add_member(n, 0).unwrap());
    // Dee settled long ago and has not played since; ann and bob play often enough
    // to settle (ann the better); cy plays once (provisional).
    for n in 0..30 {
        store
            .record_game(&game(seat(&dee), seat(&bob), true, "5+3", Status::Draw, n))
            .unwrap();
    }
    for n in 0..30 {
        let result = [Status::WhiteWins, Status::Draw, Status::Draw][n as usize % 3];
        store
            .record_game(&game(seat(&ann), seat(&bob), true, "5+3", result, 1000 + n))
            .unwrap();
    }
    store
        .record_game(&game(
            seat(&cy),
            seat(&ann),
            true,
            "5+3",
            Status::Draw,
            2000,
        ))
        .unwrap();
    store
        .record_game(&game(
            seat(&cy),
            seat(&ann),
            true,
            "1+0",
            Status::Draw,
            2000,
        ))
        .unwrap();
    let board = |category, since, limit| {
        store
            .leaderboard(BoardQuery {
                category,
                since,
                limit,
            })
            .unwrap()
            .into_iter()
            .map(|(m, r)| (m.name, r.rating.provisional(), r.category))
            .collect::<Vec<_>>()
    };
    let blitz = board(Category::Blitz, 500, 10);
    assert_eq!(
        blitz,
        [
            ("ann".to_string(), false, Category::Blitz),
            ("bob".to_string(), false, Category::Blitz)
        ]
    );
    assert_eq!(board(Category::Blitz, 0, 10).len(), 3, "dee, long ago");
    assert_eq!(board(Category::Blitz, 500, 1).len(), 1);
    assert!(board(Category::Bullet, 0, 10).is_empty(), "all provisional");
}

fn a_deleted_member_leaves_their_games_under_their_name_and_frees_it(store: &mut dyn ClubStore) {
    let ann = store
        .join("ann", "SHA256:a", "ssh-ed25519 AAAA ann", 1)
        .unwrap();
    let bob = store.add_member("bob", 1).unwrap();
    store
        .record_game(&game(seat(&ann), seat(&bob), true, "5+3", Status::Draw, 9))
        .unwrap();
    assert!(store.delete_member(ann.id).unwrap());
    assert!(!store.delete_member(ann.id).unwrap());
    assert_eq!(store.member("ann").unwrap(), None);
    assert_eq!(store.key_owner("SHA256:a").unwrap(), None);
    assert!(store.ratings(ann.id).unwrap().is_empty());
    assert_eq!(store.ratings(bob.id).unwrap().len(), 1, "bob's stays");
    let games = store
        .games(GameQuery {
            member: None,
            limit: 10,
        })
        .unwrap();
    assert_eq!(games[0].white.name, "ann");
    assert_eq!(games[0].white.member, None);
    assert!(games[0].ratings.is_some(), "the game reads as it did");
    // The name and the key are free for anyone.
    let again = store
        .join("Ann", "SHA256:a", "ssh-ed25519 AAAA ann", 2)
        .unwrap();
    assert_ne!(again.id, ann.id);
}

fn results_against_the_computer_are_counted_per_level(store: &mut dyn ClubStore) {
    let ann = store.add_member("ann", 0).unwrap();
    let named = |name: &str| Seat {
        member: None,
        name: name.into(),
    };
    let l2 = || named("qchess level 2");
    for (w, b, result) in [
        (seat(&ann), l2(), Status::WhiteWins),
        (l2(), seat(&ann), Status::WhiteWins),
        (l2(), seat(&ann), Status::BlackWins),
        (seat(&ann), l2(), Status::Draw),
        (seat(&ann), named("qchess level 5"), Status::BlackWins),
        // A guest, and a member named like the computer, are not the computer.
        (seat(&ann), named("guest-1"), Status::WhiteWins),
    ] {
        store
            .record_game(&game(w, b, false, "none", result, 1))
            .unwrap();
    }
    let results = store.computer_results(ann.id).unwrap();
    let row = |name: &str, wins, draws, losses| ComputerResults {
        name: name.into(),
        wins,
        draws,
        losses,
    };
    assert_eq!(
        results,
        [
            row("qchess level 2", 2, 1, 1),
            row("qchess level 5", 0, 0, 1)
        ]
    );
}

fn bans_are_listed_most_recent_first(store: &mut dyn ClubStore) {
    for (fp, since) in [("SHA256:a", 5), ("SHA256:b", 9)] {
        store
            .ban(&Ban {
                fingerprint: fp.into(),
                reason: "spam".into(),
                since,
            })
            .unwrap();
    }
    let listed: Vec<String> = store
        .bans()
        .unwrap()
        .into_iter()
        .map(|b| b.fingerprint)
        .collect();
    assert_eq!(listed, ["SHA256:b", "SHA256:a"]);
}

fn a_backup_is_a_whole_sqlite_database_of_its_own(store: &mut dyn ClubStore) {
    let ann = store
        .join("ann", "SHA256:a", "ssh-ed25519 AAAA ann", 1)
        .unwrap();
    let bob = store.add_member("bob", 0).unwrap();
    store
        .ban(&Ban {
            fingerprint: "SHA256:x".into(),
            reason: "spam".into(),
            since: 3,
        })
        .unwrap();
    let rated = game(seat(&ann), seat(&bob), true, "1+0", Status::BlackWins, 9);
    store.record_game(&rated).unwrap();
    let dir = std::env::temp_dir().join(format!(
        "qchess-club-backup-{}-{}",
        std::process::id(),
        serial()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let copy_path = dir.join("copy.sqlite");
    store.backup(&copy_path).unwrap();
    // The original goes on; the copy keeps the moment it was taken.
    store
        .record_game(&game(
            seat(&ann),
            seat(&bob),
            true,
            "1+0",
            Status::BlackWins,
            10,
        ))
        .unwrap();
    let copy = SqliteStore::open_existing(&copy_path).unwrap();
    assert_eq!(copy.integrity_problems().unwrap(), Vec::<String>::new());
    let all = GameQuery {
        member: None,
        limit: 10,
    };
    assert_eq!(copy.games(all).unwrap().len(), 1);
    assert_eq!(
        copy.rating(bob.id, Category::Bullet).unwrap(),
        store.games(all).unwrap()[1].ratings.unwrap().black.1
    );
    assert_eq!(copy.key_owner("SHA256:a").unwrap(), Some(ann));
    assert_eq!(copy.bans().unwrap().len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

fn a_swiss_round_is_kept_paired_scored_and_archived_under_its_name(store: &mut dyn ClubStore) {
    let members: Vec<_> = ["ann", "bo", "cy"]
        .iter()
        .map(|n| store.add_member(n, 1).unwrap())
        .collect();
    let new = NewTournament {
        name: "Friday Swiss".into(),
        kind: Kind::Swiss,
        control: "3+2".parse().unwrap(),
        length: Length::Rounds(3),
        starts: 100,
        creator: None,
    };
    let t = store.create_tournament(&new).unwrap();
    let again = NewTournament {
        name: "FRIDAY swiss".into(),
        ..new.clone()
    };
    assert!(matches!(
        store.create_tournament(&again),
        Err(ClubError::TournamentTaken(_))
    ));
    for (i, m) in members.iter().enumerate() {
        store.enter(t.id, m.id, 1600.0 - i as f64, 50).unwrap();
    }
    assert!(store.withdraw(t.id, members[2].id).unwrap());
    store.enter(t.id, members[2].id, 0.0, 60).unwrap();
    let entries = store.entries(t.id).unwrap();
    assert_eq!(entries.len(), 3);
    assert!(entries.iter().all(|e| !e.withdrawn));
    // Back again: the rating at the first entry stays.
    assert_eq!(entries[2].rating, 1598.0);

    let entrants: Vec<_> = entries.iter().map(|e| e.entrant()).collect();
    let round = swiss::pair_round(&entrants, &[]).unwrap();
    let kept = store.pair(t.id, 1, &round.boards, round.bye).unwrap();
    assert_eq!(kept.len(), 2);
    assert_eq!(store.tournament("friday swiss").unwrap().unwrap().round, 1);
    assert!(store.set_tournament_state(t.id, State::Running).unwrap());
    let board = kept.iter().find(|k| k.pairing.black.is_some()).unwrap();
    let seat = |id| Seat {
        member: Some(id),
        name: members.iter().find(|m| m.id == id).unwrap().name.clone(),
    };
    let game = FinishedGame {
        white: seat(board.pairing.white),
        black: seat(board.pairing.black.unwrap()),
        rated: true,
        control: Some(new.control),
        result: Status::Draw,
        reason: None,
        record: "format = 1\nmoves = []\n".into(),
        started: 200,
        ended: 300,
        key: Some("tour-1".into()),
    };
    let (id, sides) = store.record_pairing(board.id, &game).unwrap();
    assert!(sides.is_some());
    // Recorded again (a crash before the room noted it): nothing changes.
    assert_eq!(store.record_pairing(board.id, &game).unwrap().0, id);
    let units: Vec<u32> = store
        .entries(t.id)
        .unwrap()
        .iter()
        .map(|e| e.units)
        .collect();
    assert_eq!(
        units.iter().sum::<u32>(),
        2 + 2,
        "a draw and a bye: {units:?}"
    );
    let pairings = store.pairings(t.id).unwrap();
    let played = pairings.iter().find(|k| k.id == board.id).unwrap();
    assert_eq!(
        (played.game, played.pairing.result),
        (Some(id), Some(Status::Draw))
    );
    let archived = store
        .games(GameQuery {
            member: None,
            limit: 5,
        })
        .unwrap();
    assert_eq!(archived.len(), 1);
    assert_eq!(archived[0].event.as_deref(), Some("Friday Swiss"));
    // A game of other players is not this pairing's.
    let swapped = FinishedGame {
        white: game.black.clone(),
        black: game.white.clone(),
        key: None,
        ..game.clone()
    };
    assert!(matches!(
        store.record_pairing(board.id, &swapped),
        Err(ClubError::NoSuchPairing(_))
    ));
}

fn a_round_is_paired_once_whoever_asks_twice(store: &mut dyn ClubStore) {
    let members: Vec<_> = ["ann", "bo", "cy", "di"]
        .iter()
        .map(|n| store.add_member(n, 1).unwrap())
        .collect();
    let t = store
        .create_tournament(&NewTournament {
            name: "Twice".into(),
            kind: Kind::Swiss,
            control: "3+2".parse().unwrap(),
            length: Length::Rounds(3),
            starts: 10,
            creator: None,
        })
        .unwrap();
    for m in &members {
        store.enter(t.id, m.id, 1500.0, 5).unwrap();
    }
    let board = |w: usize, b: usize| tournament::Board {
        white: members[w].id,
        black: members[b].id,
    };
    store
        .pair(t.id, 1, &[board(0, 1), board(2, 3)], None)
        .unwrap();
    // Round 3 before round 2 is refused too.
    assert!(matches!(
        store.pair(t.id, 3, &[board(0, 2)], None),
        Err(ClubError::PairedElsewhere { round: 3, .. })
    ));
    let first = store
        .pair(t.id, 2, &[board(0, 2)], Some(members[3].id))
        .unwrap();
    // The second server's director, a moment late, with other boards and another bye.
    let second = store.pair(t.id, 2, &[board(1, 3)], Some(members[0].id));
    assert!(
        matches!(
            second,
            Err(ClubError::PairedElsewhere {
                round: 2,
                tournament
            }) if tournament == t.id.0
        ),
        "{second:?}"
    );
    assert_eq!(store.tournament("twice").unwrap().unwrap().round, 2);
    let round_2: Vec<_> = store
        .pairings(t.id)
        .unwrap()
        .into_iter()
        .filter(|k| k.pairing.round == 2)
        .collect();
    assert_eq!(round_2, first, "one set of pairings");
    let units: Vec<u32> = store
        .entries(t.id)
        .unwrap()
        .iter()
        .map(|e| e.units)
        .collect();
    assert_eq!(units, [0, 0, 0, 2], "the first bye scored, not the second");
}

/// A room of a server's list, playing `white` against `black`.
fn live_room(name: &str, white: Option<&str>, black: Option<&str>) -> live::LiveRoom {
    live::LiveRoom {
        name: name.into(),
        rules: "quantum sparse".into(),
        clock: Some("5+3".into()),
        white: white.map(Into::into),
        black: black.map(Into::into),
        watchers: 2,
        rated: true,
    }
}

/// A seek of a server's list, posted by `poster`.
fn live_seek(id: i64, poster: &str, range: Option<&str>) -> live::LiveSeek {
    live::LiveSeek {
        id,
        poster: poster.into(),
        rating: "1500?".into(),
        clock: "7+2".into(),
        rated: false,
        colour: "random".into(),
        range: range.map(Into::into),
    }
}

fn servers_publish_their_rooms_for_the_others_until_they_stop_or_go_quiet(
    store: &mut dyn ClubStore,
) {
    let t0 = 1_000_000;
    let ann = live_room("ann", Some("ann"), None);
    let t1 = live_room("t1-4", Some("bo"), Some("cy"));
    let seek = live_seek(3, "eve", Some("1400-1700"));
    store
        .publish_live(
            "a",
            "play1.example:2222",
            (&[ann.clone(), t1.clone()], std::slice::from_ref(&seek)),
            t0,
        )
        .unwrap();
    let di = live_room("di", None, None);
    store
        .publish_live("b", "play2.example:22", (&[di], &[]), t0)
        .unwrap();
    // Each server lists the others' rooms and seeks, not its own.
    let seen_by_b = store.live_rooms("b", t0 + 1).unwrap();
    let names: Vec<(&str, &str)> = seen_by_b
        .iter()
        .map(|r| (r.address.as_str(), r.room.name.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("play1.example:2222", "ann"),
            ("play1.example:2222", "t1-4")
        ]
    );
    assert_eq!(seen_by_b[1].room, t1);
    assert_eq!(seen_by_b[0].server, "a");
    let seeks_seen_by_b = store.live_seeks("b", t0 + 1).unwrap();
    assert_eq!(seeks_seen_by_b.len(), 1);
    assert_eq!(seeks_seen_by_b[0].seek, seek);
    assert_eq!(seeks_seen_by_b[0].address, "play1.example:2222");
    let seen_by_a = store.live_rooms("a", t0 + 1).unwrap();
    assert_eq!(seen_by_a.len(), 1);
    assert_eq!(seen_by_a[0].room.white, None);
    assert!(store.live_seeks("a", t0 + 1).unwrap().is_empty());
    // Published again: its rooms and seeks are replaced, not added to.
    let ann_playing = live_room("ann", Some("ann"), Some("eve"));
    let other = live_seek(4, "fay", None);
    store
        .publish_live(
            "a",
            "play1.example:2222",
            (
                std::slice::from_ref(&ann_playing),
                std::slice::from_ref(&other),
            ),
            t0 + 5,
        )
        .unwrap();
    let seen_by_b = store.live_rooms("b", t0 + 6).unwrap();
    assert_eq!(seen_by_b.len(), 1);
    assert_eq!(seen_by_b[0].room, ann_playing);
    let seeks_seen_by_b = store.live_seeks("b", t0 + 6).unwrap();
    assert_eq!(seeks_seen_by_b.len(), 1);
    assert_eq!(seeks_seen_by_b[0].seek, other);
    // A server quiet for longer than LISTED_FOR is not listed; one that stops is gone.
    let later = t0 + 5 + live::LISTED_FOR + 1;
    assert_eq!(store.live_rooms("c", later).unwrap().len(), 0);
    assert_eq!(store.live_seeks("c", later).unwrap().len(), 0);
    let last = t0 + 5 + live::LISTED_FOR;
    assert_eq!(store.live_rooms("c", last).unwrap().len(), 1);
    assert_eq!(store.live_seeks("c", last).unwrap().len(), 1);
    store.withdraw_server("a").unwrap();
    let left = store.live_rooms("c", t0 + 6).unwrap();
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].server, "b");
    assert!(store.live_seeks("c", t0 + 6).unwrap().is_empty());
    // A server quiet for longer still is forgotten by the next to publish.
    let much_later = t0 + live::FORGOTTEN_AFTER + 1;
    store
        .publish_live("c", "play3.example:2222", (&[], &[]), much_later)
        .unwrap();
    // Asked as of a time when b was fresh: its rows are gone.
    assert_eq!(store.live_rooms("c", t0 + 6).unwrap().len(), 0);
}

/// A 5-round Swiss of 7 players played through `store` as a server plays one: each
/// round paired from the kept entries and pairings, each game recorded with a result
/// from a fixed pattern (the higher rated wins two games in three, the third a draw,
/// a win for black every seventh). Its pairings as kept, and its standings.
fn a_swiss_played_through(store: &mut dyn ClubStore) -> (Vec<KeptPairing>, Vec<Standing>) {
    let members: Vec<Member> = (0..7)
        .map(|i| store.add_member(&format!("p{i}"), 1).unwrap())
        .collect();
    let t = store
        .create_tournament(&NewTournament {
            name: "Seven".into(),
            kind: Kind::Swiss,
            control: "3+2".parse().unwrap(),
            length: Length::Rounds(5),
            starts: 10,
            creator: None,
        })
        .unwrap();
    for (i, m) in members.iter().enumerate() {
        store
            .enter(t.id, m.id, 1400.0 + 37.0 * ((i * 3) % 7) as f64, 5)
            .unwrap();
    }
    let mut n = 0;
    for round in 1..=5 {
        let entrants: Vec<_> = store
            .entries(t.id)
            .unwrap()
            .iter()
            .map(|e| e.entrant())
            .collect();
        let history: Vec<_> = store
            .pairings(t.id)
            .unwrap()
            .iter()
            .map(|k| k.pairing)
            .collect();
        let paired = swiss::pair_round(&entrants, &history).unwrap();
        for kept in store.pair(t.id, round, &paired.boards, paired.bye).unwrap() {
            let Some(black) = kept.pairing.black else {
                continue;
            };
            n += 1;
            let result = match n % 7 {
                0 => Status::BlackWins,
                k if k % 3 == 2 => Status::Draw,
                _ => Status::WhiteWins,
            };
            let of = |id| members.iter().find(|m| m.id == id).unwrap();
            let g = game(
                seat(of(kept.pairing.white)),
                seat(of(black)),
                true,
                "3+2",
                result,
                100 * i64::from(round) + n,
            );
            store.record_pairing(kept.id, &g).unwrap();
        }
    }
    let entrants: Vec<_> = store
        .entries(t.id)
        .unwrap()
        .iter()
        .map(|e| e.entrant())
        .collect();
    let kept = store.pairings(t.id).unwrap();
    let all: Vec<_> = kept.iter().map(|k| k.pairing).collect();
    let table = tournament::standings::standings(Kind::Swiss, &entrants, &all);
    // The points kept with each result are the standings' points.
    for e in store.entries(t.id).unwrap() {
        let line = table.iter().find(|s| s.member == e.member).unwrap();
        assert_eq!(e.units, line.units, "{}", e.name);
    }
    (kept, table)
}

#[test]
fn a_swiss_is_paired_scored_and_ranked_alike_on_both_engines() {
    let Some(mut on_postgres) = Scratch::postgres() else {
        return;
    };
    let mut on_sqlite = Scratch::sqlite("same-swiss");
    let (lite_pairings, lite_table) = a_swiss_played_through(on_sqlite.store());
    let (pg_pairings, pg_table) = a_swiss_played_through(on_postgres.store());
    assert_eq!(lite_pairings.len(), 5 * 4, "three boards and a bye a round");
    assert_eq!(lite_pairings, pg_pairings);
    assert_eq!(lite_table, pg_table);
}
