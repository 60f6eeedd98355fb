//! The computer at a room's table: who it is ([`ComputerSeat`]: a side and a level) and the
//! searches that play it ([`Computers`]: a fixed set of worker threads, one search each).
//!
//! A room whose computer is to move asks the workers (a queue) for its turn; a worker
//! takes the turn, which runs the engine on a copy of the room's game and hands the move
//! to the room through the same path as a player's move. The searches run on these
//! threads (the engine's own search thread under them), never on the tokio runtime or a
//! session's thread, and no more of them run at once than there are workers: by default
//! one per core, so that 25 computer rooms wait their turn in the queue instead of
//! starving the server's sessions; every search is bounded by its level's budget of
//! work, and stops at once when its room closes or the server stops.

use crate::chess::Color;
use crate::engine::level;
use crate::engine::player::{Event, Player, Random, Thinking};
use crate::engine::PlayerError;
use crate::game::clock::ClockTimes;
use crate::game::Playable;
use crate::seats::strength::Strength;
use crate::seats::Occupant;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// How often a search looks whether it should stop.
const POLL: Duration = Duration::from_millis(25);

/// Moves tried at random when the room refuses the engine's choice (a move past the
/// room's size limits): the computer then plays one of these rather than stalling.
pub const FALLBACK_TRIES: u64 = 16;

/// The computer's seat in a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComputerSeat {
    /// The side it plays.
    pub side: Color,
    /// Its level (1..5) in Quantum Chess; none in harmonics and haft, where it is the
    /// variants' greedy player (the engine has no search of its own for them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
}

impl ComputerSeat {
    /// How the seat is named on screens and in the saved game ("qchess level 2",
    /// "qchess greedy").
    pub fn name(&self) -> String {
        self.strength().name()
    }

    /// Who sits at its side: qchess's computer at its strength.
    pub fn occupant(&self) -> Occupant {
        Occupant::Computer(self.strength())
    }

    /// The terminal game's computer of the same strength: the engine at the level, or
    /// the greedy player in the variants.
    fn strength(&self) -> Strength {
        self.level.map_or(Strength::Greedy, Strength::Level)
    }

    /// The same computer with its level within 1..5 (a hand-edited seats file).
    pub fn checked(self) -> ComputerSeat {
        ComputerSeat {
            level: self
                .level
                .map(|l| l.clamp(level::MIN_LEVEL, level::MAX_LEVEL)),
            ..self
        }
    }

    /// The computer's move in `board` (its side to move), choosing among equal moves
    /// by `seed`; on a clock showing `clock`, it spends its time from its clock as at
    /// one keyboard ([`Player::think_on_clock`]); `Ok(None)` once `stop` says so (the
    /// search is abandoned).
    pub fn choose(
        &self,
        board: &dyn Playable,
        seed: u64,
        clock: Option<&ClockTimes>,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<String>, PlayerError> {
        let mut player = self.strength().player(seed);
        let thinking = match clock {
            Some(times) => player.think_on_clock(board, times),
            None => player.think(board),
        };
        wait(thinking, stop)
    }

    /// A random legal move (the `n`th try), for when the room refused the chosen one.
    pub fn fallback(board: &dyn Playable, seed: u64, n: u64) -> Option<String> {
        let mut random = Random::new(seed.wrapping_add(n));
        wait(random.think(board), &|| false).ok().flatten()
    }
}

/// Waits for `thinking`'s move, stopping when `stop` says so.
fn wait(thinking: Thinking, stop: &dyn Fn() -> bool) -> Result<Option<String>, PlayerError> {
    loop {
        if stop() {
            // Dropping the handle stops the search thread.
            return Ok(None);
        }
        if let Some(Event::Done(answer)) = thinking.next_event(POLL) {
            return answer.map(|c| Some(c.mv));
        }
    }
}

/// A room's computer turn, as the workers run it: it is handed the question "should the
/// search stop?".
pub type Turn = Box<dyn FnOnce(&dyn Fn() -> bool) + Send>;

/// The workers that play the rooms' computers.
pub struct Computers {
    queue: Mutex<Sender<Turn>>,
}

impl Computers {
    /// Starts `workers` threads (at least one); every search stops once `stopping` is
    /// set. The threads end when the last handle to these workers is dropped.
    pub fn start(workers: usize, stopping: Arc<AtomicBool>) -> Arc<Computers> {
        let (tx, rx) = mpsc::channel::<Turn>();
        let rx = Arc::new(Mutex::new(rx));
        for _ in 0..workers.max(1) {
            let rx = Arc::clone(&rx);
            let stopping = Arc::clone(&stopping);
            let spawned = std::thread::Builder::new()
                .name("qchess-computer".into())
                .spawn(move || work(&rx, &stopping));
            if let Err(e) = spawned {
                eprintln!("qchess serve: cannot start a computer worker: {e}");
            }
        }
        Arc::new(Computers {
            queue: Mutex::new(tx),
        })
    }

    /// Puts a room's computer `turn` in the queue for a worker to run.
    pub fn ask(&self, turn: Turn) {
        let queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = queue.send(turn);
    }
}

fn work(rx: &Mutex<Receiver<Turn>>, stopping: &AtomicBool) {
    loop {
        let next = rx.lock().unwrap_or_else(PoisonError::into_inner).recv();
        let Ok(turn) = next else {
            return;
        };
        turn(&|| stopping.load(Ordering::Relaxed));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{RuleSet, Setup};
    use crate::quantum::BackendKind;

    fn board(rules: RuleSet) -> Box<dyn Playable> {
        let mut setup = Setup::new(rules, 5);
        setup.options.simulator.backend = BackendKind::Sparse;
        crate::variants::new_game(&setup).unwrap()
    }

    #[test]
    fn names_and_levels() {
        let c = ComputerSeat {
            side: Color::Black,
            level: Some(2),
        };
        assert_eq!(c.name(), "qchess level 2");
        let greedy = ComputerSeat { level: None, ..c };
        assert_eq!(greedy.name(), "qchess greedy");
        let wild = ComputerSeat {
            level: Some(9),
            ..c
        };
        assert_eq!(wild.checked().level, Some(5));
        let text = toml::to_string(&c).unwrap();
        assert_eq!(toml::from_str::<ComputerSeat>(&text).unwrap(), c);
    }

    #[test]
    fn the_computer_moves_in_every_variant_and_stops_when_told() {
        for rules in [RuleSet::Quantum, RuleSet::Harmonics, RuleSet::Haft] {
            let level = (rules == RuleSet::Quantum).then_some(1);
            let c = ComputerSeat {
                side: Color::White,
                level,
            };
            let b = board(rules);
            let mv = c
                .choose(b.as_ref(), 3, None, &|| false)
                .unwrap()
                .expect("a move");
            let mut after = b.clone();
            assert!(after.play(&mv).is_ok(), "{rules:?}: {mv}");
            assert!(ComputerSeat::fallback(b.as_ref(), 3, 0).is_some());
        }
        let c = ComputerSeat {
            side: Color::White,
            level: Some(5),
        };
        assert_eq!(
            c.choose(board(RuleSet::Quantum).as_ref(), 3, None, &|| true),
            Ok(None)
        );
    }
}
