//! A room's files: the game in the saved-game format of local games, its seats beside
//! it, written after every change, read back after a restart, put away when it closes.

use super::seats::players;
use super::{run_clock, status, wake_all, ComputerSeat, Kept, Person, Referee, Room, RoomState};
use crate::record::{self, RecordError, SavedGame};
use crate::server::club::Club;
use crate::server::limits::ServerLimits;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::PoisonError;
use std::time::{Duration, Instant};

/// The seats as saved beside the game, so that keys are asked for again after a
/// restart.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatsFile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    white: Option<Person>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    black: Option<Person>,
    /// The computer's seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    computer: Option<ComputerSeat>,
    /// When white's player left (Unix seconds), while away.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    white_away: Option<u64>,
    /// When black's player left (Unix seconds), while away.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    black_away: Option<u64>,
    /// Who opened the room.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    opened_by: Option<Person>,
    /// When a player was last connected (Unix seconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    last_player: Option<u64>,
    /// Whether the game counts for the ratings.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    rated: bool,
    /// When the game started, as the club counts time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    started: Option<i64>,
    /// Whether the finished game is in the club's archive already.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    kept: bool,
    /// The game's name in the club's archive (older files have none: one is made).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    game_key: Option<String>,
    /// The seconds each side has for its first move before the game is aborted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    first_moves: Option<u64>,
    /// The tournament pairing its game is written to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pairing: Option<i64>,
}

/// The room's game as qchess's saved-game format keeps it: moves, result and reason,
/// clocks.
pub(super) fn saved_game(st: &RoomState) -> SavedGame {
    let mut game = SavedGame::of(st.game.as_ref(), &players(st), &st.date);
    game.result = status(st);
    game.reason = st.referee.ending().map(|e| e.reason.clone());
    game.clock = st.referee.record().cloned();
    game
}

impl Room {
    /// The room saved in `path` (`NAME.toml`, its seats beside it), as it was.
    pub fn restore(path: &Path, limits: &ServerLimits) -> Result<Room, RecordError> {
        let saved = record::load(path)?;
        let simulator = crate::quantum::SimulatorSettings {
            backend: saved.backend_kind(path)?,
            ..limits.simulator
        };
        let board = saved.replay(path, Some(simulator), None)?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let seats = read_seats(&seats_path(path))?;
        let dir = path.parent();
        let room = Room::new(&name, board, dir)
            .with_grace(limits.seat_grace)
            .with_claim_wait(limits.claim_wait);
        {
            let mut st = room.lock();
            let now = record::now_secs();
            st.date = saved.date.clone();
            // Nobody is connected after a restart: a seat's player is away since they
            // left, or since now.
            let away = |person: &Option<Person>, at: Option<u64>| {
                person.as_ref().map(|_| at.unwrap_or(now))
            };
            st.seats[0].away = away(&seats.white, seats.white_away);
            st.seats[1].away = away(&seats.black, seats.black_away);
            st.seats[0].person = seats.white;
            st.seats[1].person = seats.black;
            st.computer = seats.computer.map(ComputerSeat::checked);
            st.opened_by = seats.opened_by;
            st.last_player = seats.last_player.unwrap_or(now);
            st.rated = seats.rated;
            st.started = seats.started.unwrap_or_else(Club::now);
            st.kept = if seats.kept { Kept::Done } else { Kept::Not };
            if let Some(key) = seats.game_key {
                st.game_key = key;
            }
            // The first moves' limit runs again from the restart.
            st.first_moves = seats
                .first_moves
                .map(|s| (Duration::from_secs(s), Instant::now()));
            st.pairing = seats.pairing;
            // Each side has the time it had after its last move; the clock of the
            // side to move runs again at once.
            let control = match &saved.clock {
                Some(c) => Some((c.time_control(path)?, c.clone())),
                None => None,
            };
            let history = st.game.history();
            let first = history.first().map_or(st.game.to_move(), |r| r.color);
            st.referee = Referee::resumed(control, history.len(), first, saved.ending());
            run_clock(&mut st, std::time::Instant::now());
        }
        Ok(room)
    }

    /// Writes the seats and the game to the room's files, unless they hold that
    /// already (saves land in order). A failure is kept until a save works again: the
    /// room's screens show it, the server's log says it once, and the room goes on.
    /// Whether the files hold the room as it is now.
    pub fn save(&self) -> Result<(), String> {
        let Some(path) = &self.file else {
            return Ok(());
        };
        let mut written = self.saving.lock().unwrap_or_else(PoisonError::into_inner);
        let (game, seats) = {
            let st = self.lock();
            let away = |i: usize| st.seats[i].away.filter(|_| st.seats[i].person.is_some());
            let seats = SeatsFile {
                white: st.seats[0].person.clone(),
                black: st.seats[1].person.clone(),
                computer: st.computer,
                white_away: away(0),
                black_away: away(1),
                opened_by: st.opened_by.clone(),
                last_player: Some(st.last_player),
                rated: st.rated,
                started: Some(st.started),
                kept: st.kept == Kept::Done,
                game_key: Some(st.game_key.clone()),
                first_moves: st.first_moves.map(|(limit, _)| limit.as_secs()),
                pairing: st.pairing,
            };
            (saved_game(&st), seats)
        };
        let now = (game.to_toml(), toml::to_string(&seats).unwrap_or_default());
        if *written == now {
            return Ok(());
        }
        // The seats first: a game file on disk always has its seats beside it.
        let result = crate::files::write_atomic(&seats_path(path), &now.1)
            .and_then(|()| crate::files::write_atomic(path, &now.0));
        let problem = result
            .err()
            .map(|e| format!("cannot save {}: {e}", path.display()));
        if problem.is_none() {
            *written = now;
        }
        let mut st = self.lock();
        if st.unsaved != problem {
            match &problem {
                Some(p) if st.unsaved.is_none() => {
                    eprintln!("qchess serve: room {}: {p}", self.name)
                }
                None => eprintln!("qchess serve: room {}: saved again", self.name),
                Some(_) => {}
            }
            st.unsaved.clone_from(&problem);
            st.version += 1;
            wake_all(&st);
        }
        problem.map_or(Ok(()), Err)
    }

    /// Puts the room's files away once it closed: a game the club's archive holds is
    /// deleted (the club's database is the archive of a server that keeps one); any
    /// other game in which each side moved (a server without a club, a game left
    /// unfinished, one the database refused) goes to the `finished` folder beside the
    /// rooms (`NAME-STAMP.toml`, or `NAME-STAMP.guests.toml` when no player had a key);
    /// an aborted one (a side that never moved) is deleted.
    pub fn archive(&self) {
        self.closed.store(true, Ordering::Relaxed);
        let Some(path) = &self.file else {
            return;
        };
        let _written = self.saving.lock().unwrap_or_else(PoisonError::into_inner);
        let (played, date, guests) = {
            let st = self.lock();
            let keyed = st
                .seats
                .iter()
                .any(|h| h.person.as_ref().is_some_and(|p| p.key.is_some()));
            let played = st.game.ply() >= 2 && st.kept != Kept::Done;
            (played, st.date.clone(), !keyed)
        };
        let _ = std::fs::remove_file(seats_path(path));
        let kept = match path.parent() {
            Some(dir) if played => {
                let stamp = date.replace(['-', ':'], "").replace('T', "-");
                let end = if guests {
                    super::super::archive::GUESTS
                } else {
                    ".toml"
                };
                let to = dir.join("finished").join(format!(
                    "{}-{}{end}",
                    self.name,
                    stamp.trim_end_matches('Z')
                ));
                std::fs::create_dir_all(dir.join("finished"))
                    .and_then(|()| std::fs::rename(path, &to))
            }
            _ => std::fs::remove_file(path),
        };
        if let Err(e) = kept {
            if e.kind() != std::io::ErrorKind::NotFound {
                eprintln!(
                    "qchess serve: room {}: cannot put {} away: {e}",
                    self.name,
                    path.display()
                );
            }
        }
    }
}

/// The seats saved at `path`: none when there is no file (a room nobody sat in yet);
/// an unreadable file is an error, so that a room never comes back with its players'
/// seats free for anyone.
fn read_seats(path: &Path) -> Result<SeatsFile, RecordError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(SeatsFile::default()),
        Err(source) => {
            return Err(RecordError::Io {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    toml::from_str(&text).map_err(|e| RecordError::Field {
        path: path.to_path_buf(),
        key: "seats",
        message: format!("not a seats file: {}", e.message().trim()),
    })
}

/// The seats file beside a room's game file.
pub(super) fn seats_path(game: &Path) -> PathBuf {
    game.with_extension("seats.toml")
}
