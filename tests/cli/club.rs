//! `qchess club` through the binary on a real database in a scratch folder, and the
//! club's storage killed with SIGKILL while it records games.

use crate::support::cli::{qchess_in, scratch};
use qchess::chess::Status;
use qchess::club::{ClubStore, FinishedGame, Member, Seat, SqliteStore};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Runs qchess with `dir` as its configuration and data directory.
fn qchess(dir: &Path, args: &[&str]) -> (i32, String, String) {
    qchess_in(dir, dir, args)
}

fn seat(m: &Member) -> Seat {
    Seat {
        member: Some(m.id),
        name: m.name.clone(),
    }
}

/// A finished game between `white` and `black` as the server will hand it over: its
/// saved-game record with the players, moves, clock and result.
fn finished(white: Seat, black: Seat, control: &str, result: Status, ended: i64) -> FinishedGame {
    let record = format!(
        "format = 1\nvariant = \"quantum\"\nseed = 7\ndate = \"2026-12-01T10:00:00Z\"\n\
         result = \"{}\"\nmoves = [\"e2e4\", \"e7e5\", \"g1f3\"]\n\
         [players]\nwhite = \"{}\"\nblack = \"{}\"\n\
         [clock]\nversion = 1\ncontrol = \"{control}\"\nleft = [300000, 301000, 299000]\n",
        result.name(),
        white.name,
        black.name
    );
    FinishedGame {
        white,
        black,
        rated: true,
        control: Some(control.parse().unwrap()),
        result,
        reason: Some("black resigned".into()),
        record,
        started: ended - 600,
        ended,
        key: None,
    }
}

/// A club of ann, bob and carl with three rated games, in the data directory `dir`.
fn club(dir: &Path) -> PathBuf {
    let path = qchess::club::default_db(dir);
    let mut store = SqliteStore::open(&path).unwrap();
    let ann = store.add_member("ann", 1_764_000_000).unwrap();
    let bob = store.add_member("Bob", 1_764_000_000).unwrap();
    store.add_member("carl", 1_764_000_000).unwrap();
    let games = [
        (&ann, &bob, "5+3", Status::WhiteWins, 1_764_590_000),
        (&bob, &ann, "5+3", Status::Draw, 1_764_591_000),
        (&ann, &bob, "1+0", Status::BlackWins, 1_764_592_000),
    ];
    for (w, b, tc, result, ended) in games {
        store
            .record_game(&finished(seat(w), seat(b), tc, result, ended))
            .unwrap();
    }
    path
}

#[test]
fn players_and_games_are_listed_with_ratings() {
    let dir = scratch("list");
    club(&dir);
    let (code, out, err) = qchess(&dir, &["club", "players"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("name") && lines[0].contains("classical"),
        "{out}"
    );
    assert!(
        lines[1].starts_with("ann") && lines[1].contains("? (2)"),
        "{out}"
    );
    assert!(lines[2].starts_with("Bob"), "{out}");
    assert!(
        lines[3].starts_with("carl") && !lines[3].contains('?'),
        "{out}"
    );

    let (code, out, err) = qchess(&dir, &["club", "games"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[0].starts_with("#3  2025-12-01")
            && lines[0].contains("ann - Bob  0-1  1+0 bullet rated"),
        "{out}"
    );
    assert!(
        lines[2].contains("ann 1500? -> 1662? (+162), Bob 1500? -> 1338? (-162)"),
        "{out}"
    );

    let (code, out, _) = qchess(
        &dir,
        &["club", "games", "--player", "BOB", "--limit", "1", "--json"],
    );
    assert_eq!(code, 0);
    let games: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(games.as_array().unwrap().len(), 1);
    assert_eq!(games[0]["id"], 3);
    assert_eq!(games[0]["category"], "bullet");
    assert_eq!(games[0]["result"], "0-1");

    let (code, out, _) = qchess(&dir, &["club", "players", "--json"]);
    assert_eq!(code, 0);
    let players: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(players[0]["name"], "ann");
    assert_eq!(players[0]["ratings"]["blitz"]["games"], 2);
    assert_eq!(players[0]["ratings"]["blitz"]["provisional"], true);
    assert_eq!(players[2]["ratings"], serde_json::json!({}));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_players_games_export_as_quantum_pgn_that_reads_back() {
    let dir = scratch("export");
    let db = club(&dir);
    let db = db.to_str().unwrap();
    let (code, out, err) = qchess(&dir, &["club", "export", "--player", "ann", "--db", db]);
    assert_eq!(code, 0, "{err}");
    let games = qchess::record::pgn::read(&out).unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].value("Event"), Some("Rated bullet game"));
    assert_eq!(games[0].value("TimeControl"), Some("60+0"));
    // Why it ended, from the archive when the record does not say it.
    assert_eq!(games[0].value("QchessReason"), Some("black resigned"));
    assert_eq!(games[2].value("WhiteElo"), Some("1500"));
    assert_eq!(games[2].value("WhiteRatingDiff"), Some("+162"));
    assert_eq!(games[2].moves.len(), 3);
    // Each game is a Quantum Chess game qchess replays.
    for g in &games {
        qchess::record::pgn::from_pgn(g).unwrap();
    }
    let file = dir.join("ann.pgn");
    let file_arg = file.to_str().unwrap();
    let (code, out, err) = qchess(
        &dir,
        &["club", "export", "--player", "ann", "--out", file_arg],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("3 games of ann written to {file_arg}\n"));
    assert_eq!(
        qchess::record::pgn::read(&std::fs::read_to_string(&file).unwrap())
            .unwrap()
            .len(),
        3
    );
    // Not over a file that is not PGN.
    std::fs::write(&file, "notes = \"mine\"\n").unwrap();
    let (code, _, err) = qchess(
        &dir,
        &["club", "export", "--player", "ann", "--out", file_arg],
    );
    assert_eq!(code, 2);
    assert!(err.contains("not overwriting"), "{err}");
    let (code, _, err) = qchess(&dir, &["club", "export", "--player", "dora"]);
    assert_eq!(code, 2);
    assert_eq!(err, "qchess: no player named \"dora\" in the club\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_backup_is_a_database_the_club_commands_read() {
    let dir = scratch("backup");
    club(&dir);
    let copy = dir.join("copy.sqlite");
    let copy_arg = copy.to_str().unwrap();
    let (code, out, err) = qchess(&dir, &["club", "backup", copy_arg, "--json"]);
    assert_eq!(code, 0, "{err}");
    let said: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(said["bytes"].as_u64().unwrap() > 0);
    let (code, out, _) = qchess(&dir, &["club", "games", "--db", copy_arg]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 3);
    let (code, _, err) = qchess(&dir, &["club", "backup", copy_arg]);
    assert_eq!(code, 2);
    assert!(err.contains("exists"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn missing_and_damaged_databases_are_said_plainly() {
    let dir = scratch("broken");
    let (code, _, err) = qchess(&dir, &["club", "players"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("server/club.sqlite: no club database there"),
        "{err}"
    );
    let junk = dir.join("junk.sqlite");
    std::fs::write(&junk, "a shopping list, not a database\n".repeat(200)).unwrap();
    let (code, _, err) = qchess(&dir, &["club", "games", "--db", junk.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("not a club database, or a damaged one"),
        "{err}"
    );
    for sub in ["players", "games", "export", "backup"] {
        let (code, out, _) = qchess(&dir, &["club", sub, "--help"]);
        assert_eq!(code, 0);
        assert!(out.contains("--database <URL|FILE>"), "{sub}: {out}");
        assert!(out.contains("--db"), "{sub}: {out}");
    }
    let (code, _, err) = qchess(
        &dir,
        &[
            "club",
            "players",
            "--database",
            "postgres://ann:pw@db:port/club",
        ],
    );
    assert_eq!(code, 2);
    assert!(err.contains("postgres://ann:***@db:port/club"), "{err}");
    assert!(err.contains("not a PostgreSQL URL"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn migrate_moves_a_club_into_an_empty_database_only() {
    let dir = scratch("migrate");
    let from = club(&dir);
    let to = dir.join("moved").join("club.sqlite");
    let [from_arg, to_arg] = [&from, &to].map(|p| p.to_str().unwrap());
    let (code, out, err) = qchess(
        &dir,
        &["club", "migrate", "--from", from_arg, "--to", to_arg],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        format!(
            "moved 3 members, 0 keys, 4 ratings, 3 games and 0 bans from {from_arg} to {to_arg}\n"
        )
    );
    let listed = |db: &str| qchess(&dir, &["club", "games", "--database", db]).1;
    assert_eq!(listed(to_arg), listed(from_arg));
    assert_eq!(listed(to_arg).lines().count(), 3);
    let (code, _, err) = qchess(
        &dir,
        &["club", "migrate", "--from", from_arg, "--to", to_arg],
    );
    assert_eq!(code, 1);
    assert!(err.contains("not empty"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The variable that turns the test below into the writer it kills.
const WRITER: &str = "QCHESS_TEST_CLUB_WRITER";

/// Records rated games among the members of the database at `db` until killed (or,
/// should the test that kills it be gone, for 20 seconds at most).
fn write_until_killed(db: &Path) -> ! {
    let started = Instant::now();
    let mut store = SqliteStore::open(db).unwrap();
    let roster: Vec<Member> = store
        .roster()
        .unwrap()
        .into_iter()
        .map(|(m, _)| m)
        .collect();
    let controls = ["1+0", "3+2", "10+5", "30+0"];
    let results = [Status::WhiteWins, Status::BlackWins, Status::Draw];
    for n in 0usize.. {
        if started.elapsed() > Duration::from_secs(20) {
            break;
        }
        let w = &roster[n % roster.len()];
        let b = &roster[(n / roster.len() + n + 1) % roster.len()];
        if w.id == b.id {
            continue;
        }
        let game = finished(seat(w), seat(b), controls[n % 4], results[n % 3], n as i64);
        store.record_game(&game).unwrap();
        if n == 0 {
            // Past the test harness's capture of `println!`.
            let mut out = std::io::stdout();
            out.write_all(b"writer ready\n")
                .and_then(|()| out.flush())
                .unwrap();
        }
    }
    std::process::exit(0)
}

/// A child process killed when this is dropped, whatever ended the test.
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Every rating row agrees with the archive: its game count is the member's rated
/// games in the category, and its rating is what their last one left.
fn consistent(db: &Path) -> usize {
    let store = SqliteStore::open_existing(db).unwrap();
    assert_eq!(store.integrity_problems().unwrap(), Vec::<String>::new());
    drop(store);
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut rows = conn
        .prepare(
            "SELECT r.member, r.category, r.games, r.rating,
                (SELECT COUNT(*) FROM games g WHERE g.rated AND g.category = r.category
                    AND (g.white = r.member OR g.black = r.member)),
                (SELECT CASE WHEN g.white = r.member THEN g.white_after ELSE g.black_after END
                    FROM games g WHERE g.rated AND g.category = r.category
                    AND (g.white = r.member OR g.black = r.member) ORDER BY g.id DESC LIMIT 1)
             FROM ratings r",
        )
        .unwrap();
    let checked = rows
        .query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, f64>(3)?,
                r.get::<_, i64>(4)?,
                r.get::<_, f64>(5)?,
            ))
        })
        .unwrap()
        .map(Result::unwrap)
        .inspect(|(member, category, games, rating, counted, last)| {
            assert_eq!(games, counted, "member {member}, {category}");
            assert_eq!(rating, last, "member {member}, {category}");
        })
        .count();
    let (rated, sides): (i64, i64) = conn
        .query_row(
            "SELECT (SELECT COUNT(*) FROM games WHERE rated), (SELECT SUM(games) FROM ratings)",
            [],
            |r| Ok((r.get(0)?, r.get::<_, Option<i64>>(1)?.unwrap_or(0))),
        )
        .unwrap();
    assert_eq!(2 * rated, sides);
    assert!(checked > 0 || rated == 0);
    rated as usize
}

/// `kill -9` at a random moment while games are recorded: the database opens, is
/// sound, and holds every game whole with its ratings, or not at all.
#[test]
fn a_kill_while_recording_games_leaves_each_whole_or_absent() {
    if let Some(db) = std::env::var_os(WRITER) {
        write_until_killed(Path::new(&db));
    }
    let dir = scratch("kill");
    let db = dir.join("club.sqlite");
    {
        let mut store = SqliteStore::open(&db).unwrap();
        for i in 0..7 {
            store.add_member(&format!("p{i}"), 0).unwrap();
        }
    }
    let started = Instant::now();
    let mut games = 0;
    for round in 0..5 {
        let child = Command::new(std::env::current_exe().unwrap())
            .args([
                "club::a_kill_while_recording_games_leaves_each_whole_or_absent",
                "--exact",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(WRITER, &db)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut child = Killed(child);
        let mut out = BufReader::new(child.0.stdout.take().unwrap());
        let mut line = String::new();
        // The harness's own words may stand before it on the line.
        while !line.trim_end().ends_with("writer ready") {
            line.clear();
            assert!(
                out.read_line(&mut line).unwrap() > 0,
                "the writer ended early"
            );
        }
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .subsec_nanos();
        std::thread::sleep(Duration::from_millis(10 + u64::from(nanos % 150)));
        drop(child);
        let now = consistent(&db);
        assert!(now > games, "round {round}: no game recorded");
        games = now;
    }
    assert!(started.elapsed() < Duration::from_secs(30));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn keys_are_banned_by_fingerprint_or_text_listed_and_unbanned() {
    let dir = scratch("club-bans");
    let db = club(&dir);
    let key = russh::keys::PrivateKey::from(
        russh::keys::ssh_key::private::Ed25519Keypair::from_seed(&[5; 32]),
    );
    let line = key.public_key().to_openssh().unwrap();
    let print = key
        .public_key()
        .fingerprint(russh::keys::HashAlg::Sha256)
        .to_string();
    let mut store = SqliteStore::open_existing(&db).unwrap();
    let ann = store.member("ann").unwrap().unwrap();
    store
        .add_key(&qchess::club::MemberKey {
            fingerprint: print.clone(),
            openssh: line.clone(),
            member: ann.id,
            added: 1,
        })
        .unwrap();
    let (code, out, err) = qchess(&dir, &["club", "ban", &line, "--reason", "flooding"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        format!("{print} (ann's key) may not sign in: flooding\n")
    );
    assert_eq!(store.banned(&print).unwrap().unwrap().reason, "flooding");
    let other = "SHA256:AVClTvWgXEolKWcHEcUxJSIs44sDGtNJ5xliK7332fo";
    let (code, _, err) = qchess(&dir, &["club", "ban", other]);
    assert_eq!(code, 0, "{err}");
    let (_, out, _) = qchess(&dir, &["club", "bans"]);
    let listed: Vec<&str> = out.lines().collect();
    assert_eq!(listed.len(), 2, "{out}");
    assert!(listed
        .iter()
        .any(|l| l.starts_with(&print) && l.ends_with("flooding")));
    assert!(listed.iter().any(|l| l.ends_with("banned by the operator")));
    let (_, json, _) = qchess(&dir, &["club", "bans", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v.as_array().map(Vec::len), Some(2));
    // Unbanned by its fingerprint; a second time there is no ban to lift.
    let (code, out, _) = qchess(&dir, &["club", "unban", &print]);
    assert_eq!((code, out), (0, format!("{print} may sign in again\n")));
    let (code, _, err) = qchess(&dir, &["club", "unban", &print]);
    assert_ne!(code, 0);
    assert!(err.contains("is not banned"), "{err}");
    // What is neither a key nor a fingerprint is refused with what to give.
    for bad in ["SHA256:short", "ssh-ed25519 nonsense"] {
        let (code, _, err) = qchess(&dir, &["club", "ban", bad]);
        assert_ne!(code, 0);
        assert!(err.contains("fingerprint"), "{bad}: {err}");
    }
    assert_eq!(store.bans().unwrap().len(), 1);
}

#[test]
fn tournaments_are_made_listed_shown_with_standings_and_called_off() {
    let dir = scratch("tournament");
    let db = club(&dir);
    let t = |args: &[&str]| {
        let mut all = vec!["club", "tournament"];
        all.extend_from_slice(args);
        qchess(&dir, &all)
    };
    let (code, out, err) = t(&[
        "create",
        "Friday Swiss",
        "--kind",
        "swiss",
        "--clock",
        "3+2",
        "--rounds",
        "3",
        "--starts",
        "2026-12-04 18:00",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "Friday Swiss made: 3+2 swiss, 3 rounds, scheduled, starts 2026-12-04 18:00 UTC; \
         players join with ssh -t HOST tournament \"Friday Swiss\"\n"
    );
    let (code, _, err) = t(&[
        "create",
        "Blitz Arena",
        "--kind",
        "arena",
        "--clock",
        "1+0",
        "--minutes",
        "30",
        "--starts",
        "now",
    ]);
    assert_eq!(code, 0, "{err}");
    // Refusals a player understands.
    let refused = [
        (
            vec![
                "create",
                "FRIDAY swiss",
                "--kind",
                "swiss",
                "--clock",
                "3+2",
                "--rounds",
                "3",
            ],
            "there is a tournament named \"FRIDAY swiss\" already",
        ),
        (
            vec![
                "create",
                "X",
                "--kind",
                "swiss",
                "--clock",
                "3+2",
                "--minutes",
                "30",
            ],
            "give --rounds N",
        ),
        (
            vec!["create", "X", "--kind", "arena", "--clock", "3+2"],
            "give --minutes M",
        ),
        (
            vec![
                "create", "X", "--kind", "blitz", "--clock", "3+2", "--rounds", "3",
            ],
            "not a kind of tournament",
        ),
        (
            vec![
                "create", "X", "--kind", "swiss", "--clock", "none", "--rounds", "3",
            ],
            "not a time control",
        ),
        (
            vec![
                "create", "X", "--kind", "swiss", "--clock", "3+2", "--rounds", "3", "--starts",
                "soon",
            ],
            "not a start time",
        ),
        (vec!["show", "Monday"], "no tournament named \"Monday\""),
    ];
    for (args, said) in refused {
        let (code, _, err) = t(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(said), "{args:?}: {err}");
    }
    // A round played, as the server keeps it: the standings follow the result.
    {
        let mut store = SqliteStore::open(&db).unwrap();
        let swiss = store.tournament("friday swiss").unwrap().unwrap();
        let members: Vec<Member> = ["ann", "bob", "carl"]
            .iter()
            .map(|n| store.member(n).unwrap().unwrap())
            .collect();
        for (i, m) in members.iter().enumerate() {
            store.enter(swiss.id, m.id, 1500.0 - i as f64, 10).unwrap();
        }
        let entrants: Vec<_> = store
            .entries(swiss.id)
            .unwrap()
            .iter()
            .map(|e| e.entrant())
            .collect();
        let round = qchess::club::tournament::swiss::pair_round(&entrants, &[]).unwrap();
        let kept = store.pair(swiss.id, 1, &round.boards, round.bye).unwrap();
        let board = kept.iter().find(|k| k.pairing.black.is_some()).unwrap();
        let seat_of = |id| seat(members.iter().find(|m| m.id == id).unwrap());
        let game = finished(
            seat_of(board.pairing.white),
            seat_of(board.pairing.black.unwrap()),
            "3+2",
            Status::WhiteWins,
            1_764_600_000,
        );
        store.record_pairing(board.id, &game).unwrap();
    }
    let (code, out, err) = t(&["show", "friday swiss"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("Friday Swiss: 3+2 swiss, 3 rounds"),
        "{out}"
    );
    let places: Vec<&str> = out
        .lines()
        .filter(|l| l.trim_start().starts_with(['1', '2', '3']) && l.contains("  "))
        .collect();
    assert_eq!(places.len(), 3, "{out}");
    // The winner and the bye have a point each; the loser none, last.
    assert!(places[2].contains("  0  "), "{out}");
    assert!(
        out.contains("\nround 1\n") && out.contains("has a bye") && out.contains("1-0"),
        "{out}"
    );
    let (code, out, _) = t(&["show", "Friday Swiss", "--json"]);
    assert_eq!(code, 0);
    let shown: serde_json::Value = serde_json::from_str(&out).unwrap();
    let table = shown["standings"].as_array().unwrap();
    assert_eq!(table.len(), 3);
    assert_eq!(table[2]["points"], 0.0);
    assert_eq!(shown["pairings"].as_array().unwrap().len(), 2);
    let (code, out, _) = t(&["list"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with("Blitz Arena ") && lines[0].ends_with("; 0 players"),
        "{out}"
    );
    assert!(
        lines[1].contains("scheduled") && lines[1].ends_with("; 3 players"),
        "{out}"
    );
    let (code, out, _) = t(&["cancel", "blitz arena"]);
    assert_eq!((code, out.as_str()), (0, "Blitz Arena is called off\n"));
    let (code, _, err) = t(&["cancel", "blitz arena"]);
    assert_eq!(code, 2);
    assert!(err.contains("is cancelled already"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
