//! The club's tournaments over SSH: members join with `tournament NAME`, wait on its
//! page, are taken into their rooms when the director pairs them and come back to the
//! page after each game; a 5-round Swiss of 8 (one joining late, one leaving) and a
//! one-minute arena run to their standings. The director looks every 100 ms; the
//! arena's minute began before the test, so that it ends within seconds.

use super::{bounded, scratch, start, T};
use crate::support::ssh_term::{connect, Ask, Term};
use qchess::club::tournament::record::{
    Entry, KeptPairing, Length, NewTournament, State, Tournament,
};
use qchess::club::tournament::standings::standings;
use qchess::club::tournament::{Entrant, Kind, Pairing};
use qchess::club::{GameQuery, MemberId};
use qchess::server::hub::tournaments::board_room;
use qchess::server::limits::ServerLimits;
use qchess::server::Server;
use russh::keys::ssh_key::private::Ed25519Keypair;
use russh::keys::PrivateKey;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn key(seed: u8) -> Arc<PrivateKey> {
    Arc::new(PrivateKey::from(Ed25519Keypair::from_seed(&[seed; 32])))
}

/// A session of member `user` (with `seed`'s key) running `command`.
async fn session(
    addr: std::net::SocketAddr,
    user: &str,
    seed: u8,
    command: &str,
) -> Result<Term, String> {
    let h = connect(addr, user, Some(key(seed))).await?;
    Term::on(h, Ask::Exec(command), (120, 40)).await
}

/// A server whose director looks every 100 ms, for a dozen members on one address.
async fn server(dir: &std::path::Path) -> Server {
    let limits = ServerLimits {
        director_looks: Duration::from_millis(100),
        joins_per_hour: 20,
        per_address: 16,
        ..ServerLimits::default()
    };
    start(dir, limits).await
}

/// The tournament, its entries and its pairings as the server's club keeps them.
fn kept(srv: &Server, name: &str) -> Result<(Tournament, Vec<Entry>, Vec<KeptPairing>), String> {
    let store = srv.hub().club().ok_or("no club")?.store();
    let t = store
        .tournament(name)
        .map_err(|e| e.to_string())?
        .ok_or("no tournament")?;
    let entries = store.entries(t.id).map_err(|e| e.to_string())?;
    let pairings = store.pairings(t.id).map_err(|e| e.to_string())?;
    Ok((t, entries, pairings))
}

/// Waits until `ready` holds of the kept tournament.
async fn until(
    srv: &Server,
    name: &str,
    what: &str,
    ready: impl Fn(&Tournament, &[Entry], &[KeptPairing]) -> bool,
) -> Result<(), String> {
    let end = Instant::now() + 3 * T;
    loop {
        let (t, e, p) = kept(srv, name)?;
        if ready(&t, &e, &p) {
            return Ok(());
        }
        if Instant::now() > end {
            return Err(format!("{what} never came: {t:?} {p:?}"));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Makes the tournament `name` in the server's club.
fn create(srv: &Server, name: &str, kind: Kind, length: Length, starts: i64) -> Result<(), String> {
    let new = NewTournament {
        name: name.into(),
        kind,
        control: "5+3".parse().map_err(|_| "clock")?,
        length,
        starts,
        creator: None,
    };
    let club = srv.hub().club().ok_or("no club")?;
    club.store()
        .create_tournament(&new)
        .map(drop)
        .map_err(|e| e.to_string())
}

fn now() -> i64 {
    qchess::server::club::Club::now()
}

/// The two players of a game move once each, then it ends as `how` says (0: white
/// resigns, 1: black resigns, 2: a draw agreed); both go back to the page.
async fn play(white: &mut Term, black: &mut Term, how: usize, page: &str) -> Result<(), String> {
    white.send(b":e2e4\r").await?;
    black.wait_for("1. e4", T).await?;
    black.send(b":e7e5\r").await?;
    white.wait_for("1... e5", T).await?;
    match how {
        0 => {
            white.send(b"X").await?;
            white.wait_for("Resign?", T).await?;
            white.send(b"y").await?;
        }
        1 => {
            black.send(b"X").await?;
            black.wait_for("Resign?", T).await?;
            black.send(b"y").await?;
        }
        _ => {
            white.send(b"D").await?;
            white.wait_for("Offer a draw?", T).await?;
            white.send(b"y").await?;
            black.wait_for("Draw offered", T).await?;
            black.send(b"y").await?;
        }
    }
    for t in [&mut *white, &mut *black] {
        // Kept and rated: the changes are told.
        t.wait_for("rated blitz", T).await?;
        t.send(b"q").await?;
        left_the_game(t, page).await?;
    }
    Ok(())
}

/// Reads until the screen shows `what` by `ok`; fails with the screen after `T`.
async fn until_shown(t: &mut Term, what: &str, ok: impl Fn(&str) -> bool) -> Result<(), String> {
    let end = Instant::now() + T;
    while !ok(&t.text()) {
        if Instant::now() > end {
            return Err(format!(
                "waited for {what}; the screen shows:\n{}",
                t.text()
            ));
        }
        // Reads for a moment (nothing on a screen is a NUL).
        let _ = t.wait_for("\0", Duration::from_millis(100)).await;
    }
    Ok(())
}

/// Reads until the screen has left a finished game (after two plies): the
/// tournament's page, or at once the room of the next game (before its second ply).
async fn left_the_game(t: &mut Term, page: &str) -> Result<(), String> {
    until_shown(t, "the page or the next game", |s| {
        s.contains(page) || s.contains("ply 0 │") || s.contains("ply 1 │")
    })
    .await
}

/// Each present entrant's points as the rules compute them from the kept pairings.
fn computed(kind: Kind, entries: &[Entry], pairings: &[KeptPairing]) -> Vec<(MemberId, u32)> {
    let entrants: Vec<Entrant> = entries.iter().map(Entry::entrant).collect();
    let games: Vec<Pairing> = pairings.iter().map(|k| k.pairing).collect();
    standings(kind, &entrants, &games)
        .into_iter()
        .map(|s| (s.member, s.units))
        .collect()
}

/// Every game of the tournament is in the archive under its name, rated, and is its
/// pairing's game; the kept points are the rules' standings.
fn check_archive_and_points(srv: &Server, name: &str, kind: Kind) -> Result<Vec<MemberId>, String> {
    let (_, entries, pairings) = kept(srv, name)?;
    let store = srv.hub().club().ok_or("no club")?.store();
    let query = GameQuery {
        member: None,
        limit: 500,
    };
    let games = store.games(query).map_err(|e| e.to_string())?;
    drop(store);
    let ours: Vec<_> = games
        .iter()
        .filter(|g| g.event.as_deref() == Some(name))
        .collect();
    let boards: Vec<&KeptPairing> = pairings
        .iter()
        .filter(|k| k.pairing.black.is_some())
        .collect();
    assert_eq!(ours.len(), boards.len(), "one archived game a board");
    for k in &boards {
        let id = k.game.ok_or("a board without its game")?;
        let g = ours
            .iter()
            .find(|g| g.id == id)
            .ok_or("the game is not the tournament's")?;
        assert!(g.rated, "{g:?}");
        assert_eq!(Some(g.result), k.pairing.result);
        assert_eq!(g.white.member, Some(k.pairing.white));
        assert_eq!(g.black.member, k.pairing.black);
    }
    let table = computed(kind, &entries, &pairings);
    for (member, units) in &table {
        let e = entries
            .iter()
            .find(|e| e.member == *member)
            .ok_or("entry")?;
        assert_eq!(e.units, *units, "kept points of {}", e.name);
    }
    Ok(table.into_iter().map(|(m, _)| m).collect())
}

/// The name of `member` among `entries`.
fn name_of(entries: &[Entry], member: MemberId) -> String {
    entries
        .iter()
        .find(|e| e.member == member)
        .map_or_else(String::new, |e| e.name.clone())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_five_round_swiss_of_eight_runs_to_its_standings() {
    bounded(400, async {
        let dir = scratch("swiss");
        let srv = server(&dir).await;
        let addr = srv.addr();
        let name = "Spring Swiss";
        let page = "you are in Spring Swiss";
        let command = format!("tournament {name}");
        // A guest is told how to join the club.
        let mut guest = Term::open(addr, "zed", Ask::Exec(&command), (120, 40)).await?;
        guest.wait_closed(T).await?;
        assert_eq!(guest.exit, Some(1));
        assert!(
            guest.stderr.contains("tournaments are for club members"),
            "{}",
            guest.stderr
        );
        create(&srv, name, Kind::Swiss, Length::Rounds(5), now() + 6)?;
        let names = ["ann", "bo", "cy", "di", "ed", "flo", "gus", "hal"];
        let mut terms: HashMap<String, Term> = HashMap::new();
        // Seven join before the start; the eighth once round 1 is paired.
        for (i, who) in names.iter().enumerate().take(7) {
            let mut t = session(addr, who, 60 + i as u8, &command).await?;
            if let Err(e) = t.wait_for(page, T).await {
                return Err(format!("{e} {:?} {:?}", t.stderr, t.exit));
            }
            terms.insert(who.to_string(), t);
        }
        let (t, entries, _) = kept(&srv, name)?;
        assert_eq!(
            (t.state, entries.len()),
            (State::Scheduled, 7),
            "joined before the start"
        );
        let mut left: Option<String> = None;
        for round in 1..=5u32 {
            until(&srv, name, "the round", |t, _, _| t.round == round).await?;
            if round == 1 {
                let mut late = session(addr, "hal", 67, &command).await?;
                late.wait_for(page, T).await?;
                terms.insert("hal".into(), late);
            }
            if round == 2 {
                // Round 2 is paired: no newcomer now.
                let mut ivy = session(addr, "ivy", 70, &command).await?;
                ivy.wait_for("takes new players until its round 2 is paired", T)
                    .await?;
            }
            let (_, entries, pairings) = kept(&srv, name)?;
            let boards: Vec<(String, String)> = pairings
                .iter()
                .filter(|k| k.pairing.round == round)
                .filter_map(|k| {
                    let black = k.pairing.black?;
                    Some((name_of(&entries, k.pairing.white), name_of(&entries, black)))
                })
                .collect();
            for (i, (w, b)) in boards.iter().enumerate() {
                let mut white = terms.remove(w).ok_or("white's terminal")?;
                let mut black = terms.remove(b).ok_or("black's terminal")?;
                white
                    .wait_for(&format!("you play white against {b}"), T)
                    .await?;
                black
                    .wait_for(&format!("you play black against {w}"), T)
                    .await?;
                let how = (round as usize + i) % 3;
                play(&mut white, &mut black, how, page).await?;
                if round == 3 && i == 0 {
                    // White of the first board leaves the tournament before the round
                    // is over: not paired again.
                    white.send(b"q").await?;
                    white.wait_for("you left the tournament", T).await?;
                    let gone = w.clone();
                    until(&srv, name, "the withdrawal", |_, e, _| {
                        e.iter().any(|e| e.name == gone && e.withdrawn)
                    })
                    .await?;
                    left = Some(w.clone());
                }
                terms.insert(w.clone(), white);
                terms.insert(b.clone(), black);
            }
        }
        until(&srv, name, "the end", |t, _, _| t.state == State::Finished).await?;
        let (_, entries, pairings) = kept(&srv, name)?;
        let left = left.ok_or("nobody left")?;
        let left_id = entries
            .iter()
            .find(|e| e.name == left)
            .ok_or("left")?
            .member;
        assert_eq!(pairings.iter().map(|k| k.pairing.round).max(), Some(5));
        // No pair met twice; no colour difference past two.
        let mut met = HashSet::new();
        let mut colours: HashMap<MemberId, i64> = HashMap::new();
        for k in &pairings {
            let Some(black) = k.pairing.black else {
                continue;
            };
            let pair = (k.pairing.white.min(black), k.pairing.white.max(black));
            assert!(met.insert(pair), "{pair:?} met twice");
            *colours.entry(k.pairing.white).or_default() += 1;
            *colours.entry(black).or_default() -= 1;
            assert!(
                !k.pairing.has(left_id) || k.pairing.round <= 3,
                "paired after leaving"
            );
        }
        assert!(colours.values().all(|d| d.abs() <= 2), "{colours:?}");
        // Seven in rounds 1, 4 and 5: a bye each time, to the lowest placed (points,
        // then rating, then the later member) of those who had none. In this run the
        // others can always be paired without them; the rule's next one up, when they
        // cannot, is swiss.rs's property test.
        let byes: Vec<&Pairing> = pairings
            .iter()
            .map(|k| &k.pairing)
            .filter(|p| p.black.is_none())
            .collect();
        assert_eq!(byes.iter().map(|p| p.round).collect::<Vec<_>>(), [1, 4, 5]);
        for bye in &byes {
            let before: Vec<&Pairing> = pairings
                .iter()
                .map(|k| &k.pairing)
                .filter(|p| p.round < bye.round)
                .collect();
            let present: Vec<&Entry> = entries
                .iter()
                .filter(|e| match bye.round {
                    1 => e.name != "hal",
                    4 | 5 => e.name != left,
                    _ => true,
                })
                .collect();
            let points = |m: MemberId| before.iter().map(|p| p.units(m)).sum::<u32>();
            let had_bye = |m: MemberId| before.iter().any(|p| p.black.is_none() && p.white == m);
            let rank = |e: &Entry| {
                (
                    std::cmp::Reverse(points(e.member)),
                    std::cmp::Reverse(e.rating.to_bits()),
                    e.member,
                )
            };
            let lowest = present
                .iter()
                .filter(|e| !had_bye(e.member))
                .max_by_key(|e| rank(e))
                .ok_or("no candidate")?;
            assert_eq!(lowest.member, bye.white, "the bye of round {}", bye.round);
        }
        // Every game archived under the tournament, rated; the points are the rules'.
        let table = check_archive_and_points(&srv, name, Kind::Swiss)?;
        // Each player's page says their place in those standings.
        for (place, member) in table.iter().enumerate() {
            let who = name_of(&entries, *member);
            if who == left {
                continue;
            }
            let t = terms.get_mut(&who).ok_or("terminal")?;
            t.wait_for(&format!("you placed {} of 8", place + 1), T)
                .await?;
        }
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

/// One arena player: plays every game the director pairs them into (white moves,
/// black answers, white resigns), back to the page after each, until the arena is
/// over. The games played.
async fn arena_player(mut t: Term, page: String) -> Result<(Term, u32), String> {
    let mut games = 0;
    let end = Instant::now() + 6 * T;
    loop {
        if Instant::now() > end {
            return Err(format!("the arena never ended:\n{}", t.text()));
        }
        let text = t.text();
        if text.contains("it is over: you placed") {
            return Ok((t, games));
        }
        if !(text.contains("ply 0 │") || text.contains("ply 1 │")) {
            let _ = t.wait_for("ply ", Duration::from_millis(200)).await;
            continue;
        }
        // Black sees the board from its side.
        if text.contains("Board (flipped)") {
            t.wait_for("ply 1 │", T).await?;
            t.send(b":e7e5\r").await?;
        } else {
            t.send(b":e2e4\r").await?;
            t.wait_for("ply 2 │", T).await?;
            t.send(b"X").await?;
            t.wait_for("Resign?", T).await?;
            t.send(b"y").await?;
        }
        t.wait_for("rated blitz", T).await?;
        games += 1;
        t.send(b"q").await?;
        left_the_game(&mut t, &page).await?;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_one_minute_arena_pairs_the_free_at_once_and_runs_to_its_standings() {
    bounded(200, async {
        let dir = scratch("arena");
        let srv = server(&dir).await;
        let addr = srv.addr();
        let name = "Blitz Arena";
        let page = format!("you are in {name}");
        // Its minute began 48 s ago: it ends 12 s from now.
        create(&srv, name, Kind::Arena, Length::Minutes(1), now() - 48)?;
        let mut players = Vec::new();
        for (i, who) in ["ann", "bo", "cy", "di"].iter().enumerate() {
            let mut t = session(addr, who, 80 + i as u8, &format!("tournament {name}")).await?;
            t.wait_for(&page, T).await?;
            players.push(tokio::spawn(arena_player(t, page.clone())));
        }
        let mut terms = Vec::new();
        let mut played = 0;
        for p in players {
            let (t, games) = p.await.map_err(|e| e.to_string())??;
            played += games;
            terms.push(t);
        }
        let (t, entries, pairings) = kept(&srv, name)?;
        assert_eq!(t.state, State::Finished);
        assert!(
            pairings.iter().all(|k| k.pairing.over()),
            "every game finished"
        );
        assert_eq!(
            played as usize,
            2 * pairings.len(),
            "each game has two players"
        );
        assert!(
            pairings.len() >= 2,
            "paired again after a game: {pairings:?}"
        );
        let table = check_archive_and_points(&srv, name, Kind::Arena)?;
        // Nobody is paired after the end, though all wait on the page.
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(
            kept(&srv, name)?.2.len(),
            pairings.len(),
            "no pairing after the end"
        );
        for (place, member) in table.iter().enumerate() {
            let who = name_of(&entries, *member);
            let i = ["ann", "bo", "cy", "di"]
                .iter()
                .position(|n| *n == who)
                .ok_or("a player")?;
            terms[i]
                .wait_for(&format!("you placed {} of 4", place + 1), T)
                .await?;
        }
        srv.shutdown("bye").await;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}

/// The variable that turns the test below into the server it kills: the data
/// directory to serve.
const KILLED: &str = "QCHESS_TEST_KILLED_SERVER";

/// Serves `dir` (the director every 100 ms) until killed, or for 60 s at most; says its
/// address on stdout.
async fn serve_until_killed(dir: &std::path::Path) -> ! {
    use std::io::Write;
    let srv = server(dir).await;
    let mut out = std::io::stdout();
    // Past the test harness's capture of `println!`.
    let said = writeln!(out, "serving {}", srv.addr()).and_then(|()| out.flush());
    if said.is_ok() {
        tokio::time::sleep(Duration::from_secs(60)).await;
    }
    std::process::exit(0)
}

/// A server process on `dir`, killed (SIGKILL) when this is dropped.
struct Killable {
    child: std::process::Child,
    addr: std::net::SocketAddr,
}

impl Killable {
    fn start(dir: &std::path::Path) -> Result<Killable, String> {
        use std::io::BufRead;
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let mut child = std::process::Command::new(exe)
            .args([
                "tournaments::a_server_killed_in_a_round_loses_nothing_of_it",
                "--exact",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(KILLED, dir)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .map_err(|e| e.to_string())?;
        let out = child.stdout.take().ok_or("no stdout")?;
        let mut out = std::io::BufReader::new(out);
        let mut line = String::new();
        // The harness's own words may stand before it on the line.
        let addr = loop {
            line.clear();
            if out.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
                let _ = child.kill();
                return Err("the server process ended before serving".into());
            }
            if let Some((_, addr)) = line.trim_end().split_once("serving ") {
                break addr.parse().map_err(|_| format!("an address: {line}"))?;
            }
        };
        Ok(Killable { child, addr })
    }
}

impl Drop for Killable {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The tournament `name`, its entries and pairings as the club file in `dir` keeps them.
fn kept_in(
    dir: &std::path::Path,
    name: &str,
) -> Result<(Tournament, Vec<Entry>, Vec<KeptPairing>), String> {
    use qchess::club::ClubStore;
    let store = qchess::club::SqliteStore::open_existing(&qchess::club::default_db(dir))
        .map_err(|e| e.to_string())?;
    let t = store
        .tournament(name)
        .map_err(|e| e.to_string())?
        .ok_or("no tournament")?;
    let entries = store.entries(t.id).map_err(|e| e.to_string())?;
    let pairings = store.pairings(t.id).map_err(|e| e.to_string())?;
    Ok((t, entries, pairings))
}

/// `kill -9` of the server in the middle of a Swiss round: the game finished before is
/// kept with its points, the game under way comes back with its moves when the server
/// starts again, its players rejoin it with `tournament NAME` and finish it, its result
/// is written to its pairing, and the director goes on to the next round.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_in_a_round_loses_nothing_of_it() {
    if let Some(dir) = std::env::var_os(KILLED) {
        serve_until_killed(std::path::Path::new(&dir)).await;
    }
    bounded(120, async {
        let dir = scratch("killed");
        let name = "Night Swiss";
        let page = format!("you are in {name}");
        let command = format!("tournament {name}");
        let first = Killable::start(&dir)?;
        {
            use qchess::club::ClubStore;
            let mut store = qchess::club::SqliteStore::open(&qchess::club::default_db(&dir))
                .map_err(|e| e.to_string())?;
            let new = NewTournament {
                name: name.into(),
                kind: Kind::Swiss,
                control: "5+3".parse().map_err(|_| "clock")?,
                length: Length::Rounds(3),
                // Brought forward once all four have joined, however slow the joining.
                starts: now() + 3600,
                creator: None,
            };
            store.create_tournament(&new).map_err(|e| e.to_string())?;
        }
        let who = ["kim", "lev", "max", "nia"];
        let mut terms: HashMap<String, Term> = HashMap::new();
        for (i, w) in who.iter().enumerate() {
            let mut t = session(first.addr, w, 90 + i as u8, &command).await?;
            t.wait_for(&page, T).await?;
            terms.insert(w.to_string(), t);
        }
        // The operator's clock comes: it starts now.
        rusqlite::Connection::open(qchess::club::default_db(&dir))
            .and_then(|c| c.execute("UPDATE tournaments SET starts = ?1", [now()]))
            .map_err(|e| e.to_string())?;
        let end = Instant::now() + 3 * T;
        let (entries, pairings) = loop {
            let (t, e, p) = kept_in(&dir, name)?;
            if t.round == 1 {
                break (e, p);
            }
            if Instant::now() > end {
                return Err(format!("round 1 never came: {t:?}"));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        let boards: Vec<(i64, String, String)> = pairings
            .iter()
            .filter_map(|k| {
                let black = k.pairing.black?;
                Some((
                    k.id,
                    name_of(&entries, k.pairing.white),
                    name_of(&entries, black),
                ))
            })
            .collect();
        let [(done_id, w0, b0), (open_id, w1, b1)] = &boards[..] else {
            return Err(format!("two boards in round 1: {boards:?}"));
        };
        // The first board's game ends before the kill: white resigns.
        let mut white = terms.remove(w0).ok_or("white")?;
        let mut black = terms.remove(b0).ok_or("black")?;
        for t in [&mut white, &mut black] {
            t.wait_for("ply 0 │", T).await?;
        }
        play(&mut white, &mut black, 0, &page).await?;
        // The second board's is under way: two moves, kept in the room's files.
        let mut white = terms.remove(w1).ok_or("white")?;
        let mut black = terms.remove(b1).ok_or("black")?;
        white.wait_for("ply 0 │", T).await?;
        white.send(b":e2e4\r").await?;
        black.wait_for("ply 1 │", T).await?;
        black.send(b":e7e5\r").await?;
        white.wait_for("ply 2 │", T).await?;
        // A move shown is a move kept: once a screen shows it, the open board's file
        // holds it (the room shows the game before a move until the move is written).
        let (t, _, _) = kept_in(&dir, name)?;
        let room_file = dir
            .join("server")
            .join("rooms")
            .join(format!("{}.toml", board_room(t.id, *open_id)));
        let kept = std::fs::read_to_string(&room_file).map_err(|e| e.to_string())?;
        assert!(kept.contains("e7e5"), "shown before it was kept: {kept}");
        drop(first);
        for t in [&mut white, &mut black] {
            t.wait_closed(T).await?;
        }
        let (t, _, pairings) = kept_in(&dir, name)?;
        let pairing = |id: i64| pairings.iter().find(|k| k.id == id).cloned();
        assert_eq!((t.state, t.round), (State::Running, 1));
        let done = pairing(*done_id).ok_or("the finished board")?;
        assert_eq!(done.pairing.result, Some(qchess::chess::Status::BlackWins));
        assert!(done.game.is_some(), "the finished game is archived");
        assert_eq!(
            pairing(*open_id).ok_or("the open board")?.pairing.result,
            None
        );

        // Started again: the two players of the open board come back to it.
        let second = Killable::start(&dir)?;
        let seed = |n: &str| 90 + who.iter().position(|w| *w == n).unwrap_or(0) as u8;
        let mut white = session(second.addr, w1, seed(w1), &command).await?;
        let mut black = session(second.addr, b1, seed(b1), &command).await?;
        for t in [&mut white, &mut black] {
            t.wait_for("ply 2 │", T).await?;
        }
        black.send(b"X").await?;
        black.wait_for("Resign?", T).await?;
        black.send(b"y").await?;
        white.wait_for("rated blitz", T).await?;
        let end = Instant::now() + T;
        let (entries, pairings) = loop {
            let (t, e, p) = kept_in(&dir, name)?;
            if t.round == 2 {
                break (e, p);
            }
            if Instant::now() > end {
                return Err(format!("round 2 never came after the restart: {t:?} {p:?}"));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        let open = pairings
            .iter()
            .find(|k| k.id == *open_id)
            .ok_or("open board")?;
        assert_eq!(open.pairing.result, Some(qchess::chess::Status::WhiteWins));
        // The game written to the pairing is the one played before and after the kill.
        let store = qchess::club::SqliteStore::open_existing(&qchess::club::default_db(&dir))
            .map_err(|e| e.to_string())?;
        let record = {
            use qchess::club::ClubStore;
            let id = open.game.ok_or("the open board's game")?;
            store
                .game_record(id)
                .map_err(|e| e.to_string())?
                .ok_or("archived")?
        };
        assert!(record.contains("e7e5"), "{record}");
        drop(store);
        // Each player's points are the rules' for the two games.
        for (member, units) in computed(Kind::Swiss, &entries, &pairings) {
            let e = entries.iter().find(|e| e.member == member).ok_or("entry")?;
            assert_eq!(e.units, units, "{}", e.name);
        }
        assert_eq!(entries.iter().map(|e| e.units).sum::<u32>(), 4);
        drop(second);
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })
    .await;
}
