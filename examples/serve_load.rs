//! Load benchmark of `qchess serve`, run by hand (bounded: about a minute):
//!
//! ```sh
//! cargo build --release --bin qchess --example serve_load
//! target/release/examples/serve_load [ROOMS] [SECONDS] [COMPUTER_ROOMS] [HINT_SPAM] [ATTACK] [RATED]
//! target/release/examples/serve_load hostile
//! ```
//!
//! Starts `qchess serve` (the release binary beside this example) on a free loopback
//! port, opens two SSH sessions per room (25 rooms, 50 sessions by default), and has
//! every session make one move a second for 30 s: white and black take turns, half a
//! second apart. For every move it times how long until the other player's screen
//! shows it (from the moment the mover's keys were sent), and it reads the server's
//! CPU time, resident memory and threads from /proc. Prints p50, p99 and max, CPU and
//! memory per session, and the peak of threads and memory.
//!
//! `COMPUTER_ROOMS` (0 by default) more rooms play the computer at level 5, which moves
//! first; their player answers a few moves. `HINT_SPAM` 1 adds a player in a room of
//! its own who pastes `H` at the server's full input rate all the while. `ATTACK` 1
//! (the fifth number) runs three attackers beside them all the while: a squatter opening
//! a room under a new name every time (open, play a move, leave), eight addresses holding
//! eight silent connections each and opening them again as soon as they close, and four
//! sessions sending window sizes as fast as they can. Every player comes from a network
//! of its own (127.0.N.1), as players do, so that the per-network limits are the
//! server's defaults.
//!
//! `RATED` 1 (the sixth number) has every room's two players sign in with keys of their
//! own (club members) and reach their room by `seek 10+5`: the rooms are rated rooms
//! made by pairing.
//!
//! `hostile` instead holds connections that never sign in, from one address and from
//! five, and reports how many the server let in and how long it held them.
//!
//! `shared URL [ROOMS] [SECONDS]` runs two servers on one PostgreSQL club, in a scratch
//! database made on the server of URL (`postgres://USER@HOST:PORT/DATABASE`, as
//! `QCHESS_TEST_POSTGRES` names one) and dropped after: ROOMS rated rooms on each (25 by
//! default), paired by `seek 10+5`, play SECONDS (30) of moves at once, then every black
//! resigns, so that both servers rate and archive their games at the same moment. It
//! prints the move-to-screen times of both, the time from a resignation to the game's
//! end on white's screen (the club's transaction inside it), and checks the club: every
//! game archived and rated once, every player's rating moved by exactly one game.

#[path = "../tests/support/ssh_term.rs"]
mod ssh_term;

use qchess::chess::{Game, GameOptions, Square, Status};
use ssh_term::{Ask, Term};
use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A line of quiet moves (no capture, no measurement, no repeated position) from the
/// standard start, `plies` long: every session can play it in any room.
fn quiet_line(plies: usize) -> Vec<String> {
    let mut game = Game::standard(GameOptions::default());
    let mut seen = HashSet::new();
    seen.insert(game.fen());
    let mut line = Vec::new();
    'ply: for _ in 0..plies {
        let side = game.to_move();
        for from in 0..64u8 {
            let Some(piece) = game.state().piece(Square(from)) else {
                continue;
            };
            if piece.color != side {
                continue;
            }
            for to in 0..64u8 {
                if game.state().piece(Square(to)).is_some() {
                    continue;
                }
                let text = format!("{}{}", Square(from), Square(to));
                let mut next = game.clone();
                let quiet = next.play(&text).is_ok_and(|m| m.outcome.is_none());
                let fen = next.fen();
                let key = fen.split(' ').take(2).collect::<Vec<_>>().join(" ");
                if quiet && next.status() == Status::Ongoing && seen.insert(key) {
                    game = next;
                    line.push(text);
                    continue 'ply;
                }
            }
        }
        break;
    }
    line
}

/// utime + stime of a process, in seconds.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // Fields 14 and 15 of stat; after the name they are the 12th and 13th.
    (ticks(11) + ticks(12)) / 100.0
}

/// A number field of a process's /proc status (`VmRSS:` in KiB, `Threads:`).
fn status_field(pid: u32, field: &str) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0)
}

/// Resident memory of a process, in KiB.
fn rss_kib(pid: u32) -> f64 {
    status_field(pid, "VmRSS:")
}

/// Samples a process's threads and memory every 50 ms until `stop`; the peaks.
fn watch_peaks(pid: u32, stop: Arc<AtomicBool>) -> std::thread::JoinHandle<(f64, f64)> {
    std::thread::spawn(move || {
        let (mut threads, mut rss) = (0.0f64, 0.0f64);
        while !stop.load(Ordering::Relaxed) {
            threads = threads.max(status_field(pid, "Threads:"));
            rss = rss.max(rss_kib(pid));
            std::thread::sleep(Duration::from_millis(50));
        }
        (threads, rss)
    })
}

/// A room whose computer (level 5, white) moves first; its player (black) answers
/// with the first of a few pawn moves the room takes, `answers` times.
async fn computer_room(addr: SocketAddr, n: usize, answers: usize) -> Term {
    let name = format!("cpu{n}");
    let mut t = open_from(addr, 100 + n as u8, &format!("c{n}"), Ask::Shell).await;
    t.wait_for("Quantum Chess over SSH", Duration::from_secs(20))
        .await
        .expect("the lobby shows");
    // e, the name, Tab to the side (→: the player takes black), Tab to the level
    // (← ← from 2 is 5), Enter.
    t.send(b"e").await.expect("send");
    t.send(name.as_bytes()).await.expect("send");
    t.send(b"\t\t\t\x1b[C\t\x1b[D\x1b[D\r").await.expect("send");
    t.wait_for("you play black", Duration::from_secs(20))
        .await
        .expect("the computer's room");
    for _ in 0..answers {
        if t.wait_for("white played", Duration::from_secs(60))
            .await
            .is_err()
        {
            break;
        }
        for mv in [
            "e7e6", "d7d6", "c7c6", "b7b6", "a7a6", "h7h6", "g7g6", "f7f6",
        ] {
            t.send(format!(":{mv}\r").as_bytes()).await.expect("send");
            if t.wait_for(&format!("black played {mv}"), Duration::from_millis(400))
                .await
                .is_ok()
            {
                break;
            }
        }
    }
    t
}

/// A player alone in a room pasting `H` at the server's input rate (8 KiB a second)
/// until `stop`.
async fn hint_spammer(addr: SocketAddr, stop: Arc<AtomicBool>) -> usize {
    let mut t = open_from(addr, 99, "hinter", Ask::Room("hints")).await;
    t.wait_for("you play white", Duration::from_secs(20))
        .await
        .expect("seated");
    let mut sent = 0;
    while !stop.load(Ordering::Relaxed) {
        t.send(&[b'H'; 1024]).await.expect("send");
        sent += 1024;
        t.drain(Duration::ZERO).await;
        tokio::time::sleep(Duration::from_millis(125)).await;
    }
    sent
}

/// Connections that never sign in, from one address and from five: how many the
/// server let in (it sent its SSH banner) and how long it held them.
async fn hostile(addr: SocketAddr) {
    use tokio::io::AsyncReadExt;
    async fn hold(from: std::net::IpAddr, addr: SocketAddr) -> Option<Duration> {
        let s = tokio::net::TcpSocket::new_v4().ok()?;
        s.bind(SocketAddr::new(from, 0)).ok()?;
        let mut c = s.connect(addr).await.ok()?;
        let t0 = Instant::now();
        let mut buf = [0u8; 256];
        // Let in: the server's banner arrives; then wait for it to hang up.
        match c.read(&mut buf).await {
            Ok(n) if n > 0 => {}
            _ => return None,
        }
        loop {
            match tokio::time::timeout(Duration::from_secs(120), c.read(&mut buf)).await {
                Ok(Ok(0)) | Ok(Err(_)) | Err(_) => return Some(t0.elapsed()),
                Ok(Ok(_)) => {}
            }
        }
    }
    for (label, addresses) in [("one address", 1u8), ("five addresses", 5)] {
        let mut tasks = Vec::new();
        for a in 0..addresses {
            for _ in 0..40 {
                let from = std::net::IpAddr::from([127, 0, 1, 10 + a]);
                tasks.push(tokio::spawn(hold(from, addr)));
            }
        }
        let mut held = Vec::new();
        for t in tasks {
            if let Ok(Some(d)) = t.await {
                held.push(d);
            }
        }
        let longest = held.iter().max().copied().unwrap_or_default();
        println!(
            "{label}: {} connections tried, {} let in, held at most {:.1} s",
            40 * usize::from(addresses),
            held.len(),
            longest.as_secs_f64()
        );
    }
}

fn start_server(dir: &std::path::Path, args: &[&str]) -> (Child, SocketAddr) {
    let exe = std::env::current_exe().expect("the example's path");
    let qchess = exe
        .parent()
        .and_then(|d| d.parent())
        .map(|d| d.join("qchess"))
        .expect("the target folder");
    let mut child = Command::new(&qchess)
        .args(["serve", "--listen", "127.0.0.1:0", "--max-sessions", "128"])
        .args(args)
        .args(["--max-rooms", "64", "--data-dir"])
        .arg(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", qchess.display()));
    let out = child.stdout.take().expect("its output");
    let mut lines = BufReader::new(out).lines();
    let first = lines.next().and_then(Result::ok).unwrap_or_default();
    let addr = first
        .rsplit(' ')
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {first:?}"));
    // Keep reading its output so that it never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    (child, addr)
}

/// A session of `name` from the network 127.0.`net`.0/24.
async fn open_from(addr: SocketAddr, net: u8, name: &str, ask: Ask<'_>) -> Term {
    keyed_from(addr, net, name, None, ask).await
}

/// A session of `name` from the network 127.0.`net`.0/24, with the key of `seed` when
/// given.
async fn keyed_from(addr: SocketAddr, net: u8, name: &str, seed: Option<u8>, ask: Ask<'_>) -> Term {
    let from = std::net::IpAddr::from([127, 0, net, 1]);
    let key = seed.map(|s| {
        let pair = russh::keys::ssh_key::private::Ed25519Keypair::from_seed(&[s; 32]);
        Arc::new(russh::keys::PrivateKey::from(pair))
    });
    let h = ssh_term::connect_from(from, addr, name, key)
        .await
        .expect("connects");
    Term::on(h, ask, (80, 24)).await.expect("a session")
}

/// The two players of rated room `r`, members with keys of their own, paired by
/// `seek 10+5`: white first. `club` tells the members of one server's rooms from
/// another's (0 for the first: their names and keys).
async fn rated_pair(addr: SocketAddr, r: usize, club: usize) -> (Term, Term) {
    let net = 10 + r as u8;
    let seek = Ask::Exec("seek 10+5");
    let (w, b) = match club {
        0 => (format!("w{r}"), format!("b{r}")),
        c => (format!("s{c}w{r}"), format!("s{c}b{r}")),
    };
    let seed = |n: usize| Some((100 * club + 2 * r + n) as u8);
    let mut a = keyed_from(addr, net, &w, seed(1), seek).await;
    a.wait_for("waiting for an opponent", Duration::from_secs(20))
        .await
        .expect("waiting");
    let mut b = keyed_from(addr, net, &b, seed(2), seek).await;
    for t in [&mut a, &mut b] {
        t.wait_for("you play", Duration::from_secs(20))
            .await
            .expect("paired");
    }
    if a.text().contains("you play white") {
        (a, b)
    } else {
        (b, a)
    }
}

/// What the attackers did: rooms the squatter opened and was refused, silent
/// connections the hammers opened, window sizes the resizers sent.
#[derive(Default)]
struct Attacks {
    squatted: usize,
    squat_refused: usize,
    silent: usize,
    resizes: usize,
}

/// Runs the three attackers until `stop`.
async fn attack(addr: SocketAddr, stop: Arc<AtomicBool>) -> Attacks {
    let squatter = {
        let stop = Arc::clone(&stop);
        tokio::spawn(async move {
            let (mut opened, mut refused) = (0, 0);
            let mut n = 0;
            while !stop.load(Ordering::Relaxed) {
                n += 1;
                let name = format!("sq{n}");
                let from = std::net::IpAddr::from([127, 0, 2, 1]);
                let Ok(h) = ssh_term::connect_from(from, addr, &name, None).await else {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                };
                let Ok(mut t) = Term::on(h, Ask::Room(&name), (80, 24)).await else {
                    continue;
                };
                if t.wait_for("you play white", Duration::from_secs(2))
                    .await
                    .is_ok()
                {
                    let _ = t.send(b":e2e4\r").await;
                    let _ = t.wait_for("white played", Duration::from_secs(2)).await;
                    opened += 1;
                } else {
                    refused += 1;
                }
            }
            (opened, refused)
        })
    };
    let mut hammers = Vec::new();
    for host in 1..=8u8 {
        for _ in 0..8 {
            let stop = Arc::clone(&stop);
            hammers.push(tokio::spawn(async move {
                use tokio::io::AsyncReadExt;
                let mut opened = 0;
                while !stop.load(Ordering::Relaxed) {
                    let from = std::net::IpAddr::from([127, 0, 3, host]);
                    let Ok(s) = tokio::net::TcpSocket::new_v4() else {
                        break;
                    };
                    if s.bind(SocketAddr::new(from, 0)).is_err() {
                        break;
                    }
                    let Ok(mut c) = s.connect(addr).await else {
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        continue;
                    };
                    opened += 1;
                    let mut buf = [0u8; 256];
                    while !stop.load(Ordering::Relaxed) {
                        match tokio::time::timeout(Duration::from_millis(200), c.read(&mut buf))
                            .await
                        {
                            Ok(Ok(0)) | Ok(Err(_)) => break,
                            _ => {}
                        }
                    }
                }
                opened
            }));
        }
    }
    let mut resizers = Vec::new();
    for host in 1..=4u8 {
        let stop = Arc::clone(&stop);
        resizers.push(tokio::spawn(async move {
            let mut t = open_from(addr, 4, &format!("rs{host}"), Ask::Shell).await;
            let mut sent = 0;
            while !stop.load(Ordering::Relaxed) {
                if t.resize(60 + sent % 40, 20 + sent % 10).await.is_err() {
                    break;
                }
                sent += 1;
                if sent % 64 == 0 {
                    t.drain(Duration::ZERO).await;
                }
            }
            sent as usize
        }));
    }
    let mut done = Attacks::default();
    (done.squatted, done.squat_refused) = squatter.await.unwrap_or_default();
    for h in hammers {
        done.silent += h.await.unwrap_or(0);
    }
    for r in resizers {
        done.resizes += r.await.unwrap_or(0);
    }
    done
}

/// Plays `line` in every room of `pairs` (white, black), a ply every half second from
/// `t0` (the rooms spread over its first half second): each task's times from a move
/// sent to the other screen showing it, and its two sessions.
fn play(
    pairs: Vec<(Term, Term)>,
    line: &[String],
    t0: Instant,
) -> Vec<tokio::task::JoinHandle<(Vec<Duration>, [Term; 2])>> {
    let rooms = pairs.len().max(1) as u64;
    let mut tasks = Vec::new();
    for (i, (w, b)) in pairs.into_iter().enumerate() {
        let line = line.to_vec();
        let start = t0 + Duration::from_millis((i as u64 * 500) / rooms);
        tasks.push(tokio::spawn(async move {
            let mut terms = [w, b];
            let mut waits = Vec::new();
            for (ply, mv) in line.iter().enumerate() {
                tokio::time::sleep_until((start + Duration::from_millis(500 * ply as u64)).into())
                    .await;
                let (mover, other) = (ply % 2, 1 - ply % 2);
                let side = if mover == 0 { "white" } else { "black" };
                let sent = Instant::now();
                terms[mover]
                    .send(format!(":{mv}\r").as_bytes())
                    .await
                    .expect("send");
                let shown = format!("{side} played {mv}");
                terms[other]
                    .wait_for(&shown, Duration::from_secs(10))
                    .await
                    .expect("the move shows on the other screen");
                waits.push(sent.elapsed());
                // The mover's own screen catches up too (its channel is read).
                terms[mover].drain(Duration::ZERO).await;
            }
            (waits, terms)
        }));
    }
    tasks
}

/// The `p` quantile of sorted `times`, in milliseconds.
fn quantile(times: &[Duration], p: f64) -> f64 {
    if times.is_empty() {
        return 0.0;
    }
    let at = ((times.len() as f64 * p).ceil() as usize)
        .saturating_sub(1)
        .min(times.len() - 1);
    times[at].as_secs_f64() * 1e3
}

/// `shared URL [ROOMS] [SECONDS]`: two servers on one PostgreSQL club (see the top).
async fn shared(admin: &str, rooms: usize, seconds: u64, dir: &std::path::Path) {
    use qchess::club::ClubStore;
    let name = format!("qchess_load_{}", std::process::id());
    // The synchronous client runs a runtime of its own: off this one's worker.
    let on_server = |sql: String| {
        tokio::task::block_in_place(|| {
            postgres::Client::connect(admin, postgres::NoTls)
                .and_then(|mut c| c.batch_execute(&sql))
                .unwrap_or_else(|e| panic!("PostgreSQL at {admin}: {sql}: {e}"))
        })
    };
    on_server(format!("CREATE DATABASE {name}"));
    let url = qchess::club::database::with_database(admin, &name);
    let servers: Vec<(Child, SocketAddr)> = (0..2)
        .map(|i| {
            start_server(
                &dir.join(format!("server{i}")),
                &["--max-per-address", "128", "--database", &url],
            )
        })
        .collect();
    let mut pairs = Vec::new();
    for (i, (_, addr)) in servers.iter().enumerate() {
        for r in 0..rooms {
            pairs.push(rated_pair(*addr, r, i + 1).await);
            eprint!(
                "\rserver {}: paired {} of {rooms} rated rooms",
                i + 1,
                r + 1
            );
        }
        eprintln!();
    }
    let line = quiet_line(seconds as usize * 2);
    let t0 = Instant::now() + Duration::from_millis(500);
    let mut waits = Vec::new();
    let mut seated = Vec::new();
    for t in play(pairs, &line, t0) {
        let (w, terms) = t.await.expect("a room's task");
        waits.extend(w);
        seated.push(terms);
    }
    // Every black resigns at once: both servers end their games together.
    let mut ends = Vec::new();
    for [mut white, mut black] in seated {
        ends.push(tokio::spawn(async move {
            black.send(b"X").await.expect("send");
            black
                .wait_for("Resign?", Duration::from_secs(10))
                .await
                .expect("asked");
            let sent = Instant::now();
            black.send(b"y").await.expect("send");
            white
                .wait_for("black resigned", Duration::from_secs(10))
                .await
                .expect("the game's end on white's screen");
            sent.elapsed()
        }));
    }
    let mut resigned = Vec::new();
    for e in ends {
        resigned.push(e.await.expect("a resignation"));
    }
    waits.sort();
    resigned.sort();
    println!(
        "two servers on one PostgreSQL, {rooms} rated rooms each: {} moves in {seconds} s",
        waits.len()
    );
    println!(
        "move to the other screen: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        quantile(&waits, 0.5),
        quantile(&waits, 0.99),
        quantile(&waits, 1.0)
    );
    println!(
        "resignation to white's screen (the game rated and archived): p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        quantile(&resigned, 0.5),
        quantile(&resigned, 0.99),
        quantile(&resigned, 1.0)
    );
    for (i, (mut child, _)) in servers.into_iter().enumerate() {
        let _ = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status();
        let status = child.wait().map(|s| s.to_string()).unwrap_or_default();
        println!("server {} stopped by SIGTERM: {status}", i + 1);
    }
    // The club: every game once, rated; every player moved by one game.
    let club = qchess::club::PostgresStore::open(&url).expect("the club");
    let games = club
        .games(qchess::club::GameQuery {
            member: None,
            limit: 10_000,
        })
        .expect("the archive");
    let rated = games.iter().filter(|g| g.ratings.is_some()).count();
    let roster = club.roster().expect("the players");
    let once = roster
        .iter()
        .filter(|(_, ratings)| ratings.len() == 1 && ratings[0].games == 1)
        .count();
    println!(
        "club: {} games archived ({rated} rated) of {}; {once} of {} players rated by exactly one game",
        games.len(),
        2 * rooms,
        roster.len()
    );
    drop(club);
    on_server(format!("DROP DATABASE {name} WITH (FORCE)"));
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = std::env::temp_dir().join(format!("qchess-serve-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    if args.first().map(String::as_str) == Some("hostile") {
        // The server's own limits: 8 a address (and one more), 64 in all (and four).
        let (mut server, addr) = start_server(&dir, &[]);
        hostile(addr).await;
        let _ = server.kill();
        let _ = server.wait();
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    if args.first().map(String::as_str) == Some("shared") {
        let Some(admin) = args.get(1) else {
            eprintln!("serve_load shared URL [ROOMS] [SECONDS]: name a PostgreSQL server, postgres://USER@HOST:PORT/DATABASE");
            std::process::exit(2);
        };
        let number =
            |i: usize, default: usize| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
        shared(admin, number(2, 25), number(3, 30) as u64, &dir).await;
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let number =
        |i: usize, default: usize| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let (rooms, seconds) = (number(0, 25), number(1, 30) as u64);
    let (computer_rooms, spam) = (number(2, 0), number(3, 0) == 1);
    let attacked = number(4, 0) == 1;
    let rated = number(5, 0) == 1;
    let plies = seconds as usize * 2;
    let line = quiet_line(plies);
    assert_eq!(line.len(), plies, "a quiet line of {plies} plies");

    let (mut server, addr) = start_server(&dir, &["--max-per-address", "128"]);
    let pid = server.id();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let rss_idle = rss_kib(pid);
    let stop = Arc::new(AtomicBool::new(false));
    let peaks = watch_peaks(pid, Arc::clone(&stop));
    let mut extras = Vec::new();
    for n in 0..computer_rooms {
        extras.push(tokio::spawn(computer_room(addr, n, 4)));
    }
    let spammer = spam.then(|| tokio::spawn(hint_spammer(addr, Arc::clone(&stop))));
    let attackers = attacked.then(|| tokio::spawn(attack(addr, Arc::clone(&stop))));

    let mut pairs = Vec::new();
    for r in 0..rooms {
        if rated {
            pairs.push(rated_pair(addr, r, 0).await);
            eprint!("\rpaired {} of {rooms} rated rooms", r + 1);
            continue;
        }
        let room = format!("load{r}");
        // White first: the first name in a room takes white.
        let net = 10 + r as u8;
        let mut w = open_from(addr, net, &format!("w{r}"), Ask::Room(&room)).await;
        w.wait_for("you play white", Duration::from_secs(20))
            .await
            .expect("white seated");
        let mut b = open_from(addr, net, &format!("b{r}"), Ask::Room(&room)).await;
        b.wait_for("you play black", Duration::from_secs(20))
            .await
            .expect("black seated");
        pairs.push((w, b));
        eprint!("\rseated {} of {rooms} rooms", r + 1);
    }
    eprintln!();
    let rss_loaded = rss_kib(pid);
    let cpu0 = cpu_seconds(pid);
    let t0 = Instant::now() + Duration::from_millis(500);
    let mut waits = Vec::new();
    for t in play(pairs, &line, t0) {
        waits.extend(t.await.expect("a room's task").0);
    }
    let busy = t0.elapsed();
    let cpu = cpu_seconds(pid) - cpu0;
    let rss_end = rss_kib(pid);
    stop.store(true, Ordering::Relaxed);
    let hints_sent = match spammer {
        Some(s) => s.await.unwrap_or(0),
        None => 0,
    };
    let attacks = match attackers {
        Some(a) => a.await.ok(),
        None => None,
    };
    let (threads_peak, rss_peak) = peaks.join().unwrap_or_default();
    for e in extras {
        e.abort();
    }

    waits.sort();
    let sessions = rooms * 2;
    println!(
        "sessions {sessions} in {rooms} rooms, {} moves in {:.1} s; {computer_rooms} rooms with the computer at level 5; {hints_sent} bytes of H pasted",
        waits.len(),
        busy.as_secs_f64()
    );
    if let Some(a) = attacks {
        println!(
            "beside them: a squatter opened {} rooms under new names ({} refused), eight addresses opened {} silent connections, four sessions sent {} window sizes",
            a.squatted, a.squat_refused, a.silent, a.resizes
        );
    }
    println!(
        "move to the other screen: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        quantile(&waits, 0.5),
        quantile(&waits, 0.99),
        quantile(&waits, 1.0)
    );
    println!(
        "server CPU {:.1} s in {:.1} s = {:.1}% of one core ({:.2}% per session)",
        cpu,
        busy.as_secs_f64(),
        100.0 * cpu / busy.as_secs_f64(),
        100.0 * cpu / busy.as_secs_f64() / sessions as f64
    );
    println!(
        "server memory: {:.1} MiB idle, {:.1} MiB with the sessions, {:.1} MiB at the end: {:.0} KiB per session",
        rss_idle / 1024.0,
        rss_loaded / 1024.0,
        rss_end / 1024.0,
        (rss_end - rss_idle) / sessions as f64
    );

    println!(
        "peaks: {threads_peak:.0} threads, {:.1} MiB resident",
        rss_peak / 1024.0
    );

    // SIGTERM: every room saved, every session closed, within 2 s.
    let stop = Instant::now();
    let _ = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status();
    let _ = server.wait();
    println!(
        "SIGTERM to exit: {:.0} ms",
        stop.elapsed().as_secs_f64() * 1e3
    );
    let saved = std::fs::read_dir(dir.join("server/rooms")).map_or(0, |d| {
        d.filter_map(Result::ok)
            .filter(|e| {
                e.file_name().to_string_lossy().ends_with(".toml")
                    && !e.file_name().to_string_lossy().contains(".seats")
            })
            .count()
    });
    println!("rooms saved: {saved}");
    let _ = std::fs::remove_dir_all(&dir);
}
