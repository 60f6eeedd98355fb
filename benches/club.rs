//! The club's database: the rating update and archive write of one finished game
//! (target: under 5 ms), on SQLite and, when `QCHESS_TEST_POSTGRES` names a server
//! to make a scratch database on, on PostgreSQL, listing the archive with 10,000 games
//! and 1,000 accounts
//! (target: under 20 ms), the lobby's pages read from it and drawn (target: under
//! 20 ms), the file's size per 1,000 games (printed), and tournaments' rules: a 64-player
//! Swiss round paired (target: under 100 ms), a 200-player arena's free players paired
//! (under 10 ms) and its standings (under 20 ms).

#[path = "support/full_run.rs"]
mod full_run;

use criterion::{criterion_group, criterion_main, Criterion};
use full_run::full_run;
use qchess::chess::Status;
use qchess::club::tournament::{arena, standings, swiss, Entrant, Kind, Pairing};
use qchess::club::{
    Category, ClubStore, FinishedGame, GameQuery, Member, MemberId, PostgresStore, Seat,
    SqliteStore,
};
use qchess::record::{SavedClock, SavedGame};
use qchess::server::lobby::board::Board;
use qchess::server::lobby::games::Games;
use qchess::server::lobby::pages::Page;
use qchess::server::lobby::player::PlayerPage;
use qchess::server::lobby::Lobby;
use qchess::style::color::{Paint, Tier};
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use std::hint::black_box;
use std::path::{Path, PathBuf};

/// A saved game as a rated game leaves it: a real game's moves, its players, the
/// clock's times after every ply.
fn record(white: &str, black: &str) -> String {
    let text = include_str!("../tests/record/fixtures/before-upgrade-quantum.toml");
    let mut saved = SavedGame::parse(text, Path::new("fixture")).unwrap();
    saved.result = Status::WhiteWins;
    saved.reason = Some("black resigned".into());
    saved.players.white = white.into();
    saved.players.black = black.into();
    saved.clock = Some(SavedClock {
        version: qchess::record::CLOCK_VERSION,
        control: "5+3".into(),
        left: (0..saved.moves.len() as u64)
            .map(|i| 300_000 - i * 1_234)
            .collect(),
    });
    saved.to_toml()
}

/// The `n`th game among `members`: rated, over the four categories and three results,
/// keyed as a room keys its game.
fn game(members: &[Member], n: usize) -> FinishedGame {
    let w = &members[n % members.len()];
    let b = &members[(n * 7 + 1 + n / members.len()) % members.len()];
    let b = if b.id == w.id {
        &members[(n + 1) % members.len()]
    } else {
        b
    };
    let seat = |m: &Member| Seat {
        member: Some(m.id),
        name: m.name.clone(),
    };
    FinishedGame {
        white: seat(w),
        black: seat(b),
        rated: true,
        control: ["1+0", "3+2", "10+5", "30+0"][n % 4].parse().ok(),
        result: [Status::WhiteWins, Status::BlackWins, Status::Draw][n % 3],
        reason: None,
        record: record(&w.name, &b.name),
        started: 1_764_000_000 + n as i64 * 600,
        ended: 1_764_000_000 + n as i64 * 600 + 480,
        // As a room names its game: the write looks the key up first.
        key: Some(format!("room-{n}")),
    }
}

/// A fresh database in a scratch folder with `accounts` members and `games` games.
fn club(name: &str, accounts: usize, games: usize) -> (PathBuf, SqliteStore, Vec<Member>) {
    let dir = std::env::temp_dir().join(format!("qchess-bench-club-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("club.sqlite");
    let mut store = SqliteStore::open(&path).unwrap();
    let members: Vec<Member> = (0..accounts)
        .map(|i| store.add_member(&format!("player{i:04}"), 0).unwrap())
        .collect();
    for n in 0..games {
        store.record_game(&game(&members, n)).unwrap();
    }
    (dir, store, members)
}

/// The file's bytes once the write-ahead log is folded into it.
fn size(store: &SqliteStore) -> u64 {
    rusqlite::Connection::open(store.path())
        .unwrap()
        .execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
        .unwrap();
    std::fs::metadata(store.path()).unwrap().len()
}

fn record_game(c: &mut Criterion) {
    let (dir, mut store, members) = club("record", 1_000, 0);
    let mut n = 0;
    c.bench_function("club/record_game", |b| {
        b.iter(|| {
            n += 1;
            store.record_game(black_box(&game(&members, n))).unwrap()
        })
    });
    drop(store);
    std::fs::remove_dir_all(dir).unwrap();
}

fn listing(c: &mut Criterion) {
    // Under `cargo test`, a tenth of the archive.
    let (accounts, games) = if full_run() {
        (1_000, 10_000)
    } else {
        (100, 1_000)
    };
    let (dir, store, members) = club("listing", accounts, games);
    let bytes = size(&store);
    eprintln!(
        "club: {games} games, {accounts} accounts: {bytes} bytes, {:.0} KiB per 1000 games",
        bytes as f64 / (games as f64 / 1000.0) / 1024.0
    );
    let mut g = c.benchmark_group(format!("club/{games}-games-{accounts}-accounts"));
    g.bench_function("games/recent-50", |b| {
        b.iter(|| {
            store
                .games(black_box(GameQuery {
                    member: None,
                    limit: 50,
                }))
                .unwrap()
        })
    });
    g.bench_function("games/one-player-50", |b| {
        b.iter(|| {
            store
                .games(black_box(GameQuery {
                    member: Some(members[17].id),
                    limit: 50,
                }))
                .unwrap()
        })
    });
    g.bench_function("roster", |b| b.iter(|| store.roster().unwrap()));
    // The lobby's pages as a session opens them: read from the club, drawn at 120x40.
    let now = members.len() as i64 + 1_764_000_000 + games as i64 * 600;
    let paint = Paint::new(Default::default(), Tier::None);
    let mut term = Terminal::new(TestBackend::new(120, 40)).unwrap();
    let mut opened = |page: Page| {
        let mut lobby = Lobby::new("player0017", Vec::new(), "24 h", None);
        lobby.show(page);
        term.draw(|f| lobby.draw(f, &paint, "classic", false))
            .unwrap();
    };
    g.bench_function("page/archive", |b| {
        b.iter(|| opened(Page::Games(Games::load(&store, None).unwrap())))
    });
    g.bench_function("page/leaderboard-blitz", |b| {
        b.iter(|| {
            opened(Page::Board(
                Board::load(&store, Category::Blitz, now).unwrap(),
            ))
        })
    });
    g.bench_function("page/player", |b| {
        let m = &members[17];
        b.iter(|| {
            let page = PlayerPage::load(&store, Some(m.id), &m.name, true).unwrap();
            opened(Page::Player(Box::new(page)))
        })
    });
    g.finish();
    drop(store);
    std::fs::remove_dir_all(dir).unwrap();
}

/// A result picked from `n` as a die would: white wins, black wins or a draw.
fn result(n: usize) -> Status {
    [Status::WhiteWins, Status::BlackWins, Status::Draw][(n * 7 + n / 3) % 3]
}

/// Tournaments' rules, no database: a Swiss's fifth round among 64 players after four
/// played, and an arena of 200 players with 2,000 games over: everyone free at once paired,
/// and the standings.
fn tournaments(c: &mut Criterion) {
    let entrants = |n: i64| -> Vec<Entrant> {
        (1..=n)
            .map(|i| Entrant {
                member: MemberId(i),
                rating: 1200.0 + ((i * 37) % 800) as f64,
                present: true,
            })
            .collect()
    };
    let swiss_field = entrants(64);
    let mut history: Vec<Pairing> = Vec::new();
    for round in 1..=4 {
        let r = swiss::pair_round(&swiss_field, &history).unwrap();
        history.extend(r.boards.iter().enumerate().map(|(i, b)| Pairing {
            round,
            white: b.white,
            black: Some(b.black),
            result: Some(result(i + round as usize)),
        }));
    }
    let mut g = c.benchmark_group("tournament");
    g.bench_function("swiss-64-round-5", |b| {
        b.iter(|| swiss::pair_round(black_box(&swiss_field), black_box(&history)).unwrap())
    });
    let arena_field = entrants(200);
    let games: Vec<Pairing> = (0..2_000)
        .map(|n| {
            let white = (n * 13) % 200;
            let black = (white + 1 + (n * 7) % 199) % 200;
            Pairing {
                round: n as u32 + 1,
                white: arena_field[white].member,
                black: Some(arena_field[black].member),
                result: Some(result(n)),
            }
        })
        .collect();
    let everyone: Vec<MemberId> = arena_field.iter().map(|e| e.member).collect();
    g.bench_function("arena-200-pair-free", |b| {
        b.iter(|| arena::pair_waiting(black_box(&arena_field), black_box(&games), &everyone))
    });
    g.bench_function("arena-200-standings", |b| {
        b.iter(|| standings::standings(Kind::Arena, black_box(&arena_field), black_box(&games)))
    });
    g.finish();
}

/// The same write on PostgreSQL, in a scratch database of the server that
/// `QCHESS_TEST_POSTGRES` names (dropped after); skipped, and said, without it.
fn record_game_postgres(c: &mut Criterion) {
    let Ok(admin) = std::env::var("QCHESS_TEST_POSTGRES") else {
        eprintln!("club/record_game on PostgreSQL skipped: set QCHESS_TEST_POSTGRES=postgres://USER@HOST:PORT/DATABASE to run it");
        return;
    };
    let name = format!("qchess_bench_{}", std::process::id());
    let mut server = postgres::Client::connect(&admin, postgres::NoTls).unwrap();
    server
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .unwrap();
    let mut store =
        PostgresStore::open(&qchess::club::database::with_database(&admin, &name)).unwrap();
    let members: Vec<Member> = (0..1_000)
        .map(|i| store.add_member(&format!("player{i:04}"), 0).unwrap())
        .collect();
    let mut n = 0;
    c.bench_function("club/record_game/postgres", |b| {
        b.iter(|| {
            n += 1;
            store.record_game(black_box(&game(&members, n))).unwrap()
        })
    });
    drop(store);
    server
        .batch_execute(&format!("DROP DATABASE {name} WITH (FORCE)"))
        .unwrap();
}

criterion_group!(
    benches,
    record_game,
    record_game_postgres,
    listing,
    tournaments
);
criterion_main!(benches);
