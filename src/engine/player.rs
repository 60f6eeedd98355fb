//! Players: anything that yields a move for a position. A player is asked to
//! [`Player::think`] and answers with a [`Thinking`]: a handle to work that may run on
//! its own thread, reports progress as [`Event`]s, can be stopped at any time, and ends
//! with a move. The match runner waits on it; a terminal game polls it between frames;
//! a UQCI front end forwards its progress as `info` lines.

use super::book;
use super::choice::{Choice, PlayerError};
use super::level;
use super::search::{search, Info, Limits};
use super::variant::greedy_variant;
use super::weighed;
use crate::chess::random::random_move;
use crate::chess::{Color, Game};
use crate::game::clock::ClockTimes;
use crate::game::Playable;
use crate::seeded::SeededRng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::Duration;

/// What a thinking player reports.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// Progress: an iteration of the search finished.
    Info(Info),
    /// The answer; nothing follows it.
    Done(Result<Choice, PlayerError>),
}

/// A player at work on one move.
pub struct Thinking {
    stop: Arc<AtomicBool>,
    events: Receiver<Event>,
    /// Alive while the work's thread runs (none for an answer known at once).
    alive: Running,
}

/// Tells whether a search's thread still runs, also after its handle is gone.
#[derive(Clone, Debug, Default)]
pub struct Running(Weak<()>);

/// A place among the [`SearchSlots`], taken until it is dropped.
#[derive(Debug)]
pub struct Slot {
    _held: Arc<()>,
}

impl Running {
    /// Whether the thread runs now.
    pub fn now(&self) -> bool {
        self.0.strong_count() > 0
    }
}

impl Thinking {
    /// Runs `work` on its own thread. It gets the stop flag and a callback for progress,
    /// and returns the answer.
    pub fn spawn<F>(work: F) -> Thinking
    where
        F: FnOnce(&AtomicBool, &mut dyn FnMut(&Info)) -> Result<Choice, PlayerError>
            + Send
            + 'static,
    {
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, events) = mpsc::channel();
        let flag = Arc::clone(&stop);
        let running = Arc::new(());
        let alive = Running(Arc::downgrade(&running));
        std::thread::spawn(move || {
            let _running = running;
            let progress = tx.clone();
            let mut report = move |i: &Info| {
                let _ = progress.send(Event::Info(i.clone()));
            };
            let answer = work(&flag, &mut report);
            // Counted as ended before its answer arrives.
            drop(_running);
            let _ = tx.send(Event::Done(answer));
        });
        Thinking {
            stop,
            events,
            alive,
        }
    }

    /// An answer known at once.
    pub fn done(answer: Result<Choice, PlayerError>) -> Thinking {
        let (tx, events) = mpsc::channel();
        let _ = tx.send(Event::Done(answer));
        Thinking {
            stop: Arc::new(AtomicBool::new(false)),
            events,
            alive: Running::default(),
        }
    }

    /// Whether the work's thread still runs (a stopped search runs until it notices).
    pub fn running(&self) -> bool {
        self.alive.now()
    }

    /// What tells whether the work's thread runs, for after the handle is dropped.
    pub fn tracker(&self) -> Running {
        self.alive.clone()
    }

    /// Asks the player to answer now with the best move so far.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// The next event if there is one, without waiting.
    pub fn poll(&self) -> Option<Event> {
        match self.events.try_recv() {
            Ok(e) => Some(e),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Event::Done(Err(PlayerError::Gone))),
        }
    }

    /// The next event, waiting at most `timeout`.
    pub fn next_event(&self, timeout: Duration) -> Option<Event> {
        match self.events.recv_timeout(timeout) {
            Ok(e) => Some(e),
            Err(mpsc::RecvTimeoutError::Timeout) => None,
            Err(mpsc::RecvTimeoutError::Disconnected) => Some(Event::Done(Err(PlayerError::Gone))),
        }
    }

    /// Waits for the answer (progress is dropped).
    pub fn wait(self) -> Result<Choice, PlayerError> {
        loop {
            match self.events.recv() {
                Ok(Event::Done(answer)) => return answer,
                Ok(Event::Info(_)) => {}
                Err(_) => return Err(PlayerError::Gone),
            }
        }
    }
}

impl Drop for Thinking {
    /// An abandoned search stops (its thread ends on its own).
    fn drop(&mut self) {
        self.stop();
    }
}

/// A bound on searches running at once, shared by whoever starts them (the hints of
/// a server's sessions): a search holds its place until its thread has ended, not only
/// until it was told to stop.
#[derive(Debug)]
pub struct SearchSlots {
    max: usize,
    running: Mutex<Vec<Running>>,
}

impl SearchSlots {
    /// Room for `max` searches at once (at least one).
    pub fn new(max: usize) -> SearchSlots {
        SearchSlots {
            max: max.max(1),
            running: Mutex::new(Vec::new()),
        }
    }

    /// Starts the search `start` makes when fewer than the maximum run; `None` (and
    /// `start` not called) when they are all taken.
    pub fn start(&self, start: impl FnOnce() -> Thinking) -> Option<Thinking> {
        let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        running.retain(Running::now);
        if running.len() >= self.max {
            return None;
        }
        let thinking = start();
        running.push(thinking.tracker());
        Some(thinking)
    }

    /// A place among the searches for work of another kind (a review): held while the
    /// [`Slot`] lives; `None` when they are all taken.
    pub fn claim(&self) -> Option<Slot> {
        let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        running.retain(Running::now);
        if running.len() >= self.max {
            return None;
        }
        let slot = Arc::new(());
        running.push(Running(Arc::downgrade(&slot)));
        Some(Slot { _held: slot })
    }

    /// Searches running now.
    pub fn running(&self) -> usize {
        let running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        running.iter().filter(|r| r.now()).count()
    }
}

/// Anything that yields a move for a position.
pub trait Player: Send {
    /// The name saved games and reports show ("qchess level 3", "random").
    fn name(&self) -> String;
    /// Starts choosing a move for the side to move (in Quantum Chess on a thread of its
    /// own; in harmonics and haft at once, on the caller's thread).
    fn think(&mut self, game: &dyn Playable) -> Thinking;
    /// As [`Player::think`], on a clock showing `times`: a player that manages time
    /// spends it from its clock; the others think as they always do.
    fn think_on_clock(&mut self, game: &dyn Playable, times: &ClockTimes) -> Thinking {
        let _ = times;
        self.think(game)
    }
}

/// The time a player on a clock may spend on its move, as `qchess uqci` spends a `go
/// wtime … btime …` ([`crate::engine::budget::think_time`]): its clock shared over 30
/// moves plus three quarters of the increment, never more than the clock less a margin.
pub fn clock_budget(times: &ClockTimes, side: Color) -> Duration {
    let go = clock_go(times);
    crate::engine::budget::think_time(&go, side).unwrap_or(Duration::from_millis(10))
}

/// A UQCI `go` with the clocks of `times`.
pub fn clock_go(times: &ClockTimes) -> super::budget::Go {
    let ms = |d: Duration| d.as_millis() as u64;
    super::budget::Go {
        wtime: Some(ms(times.of(Color::White))),
        btime: Some(ms(times.of(Color::Black))),
        winc: Some(ms(times.increment)),
        binc: Some(ms(times.increment)),
        ..Default::default()
    }
}

/// A seed for one move: the player's seed mixed with the ply, so a player's choices
/// depend on the game and its seed only.
fn move_seed(seed: u64, ply: usize) -> u64 {
    seed ^ (ply as u64)
        .wrapping_add(1)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Runs a search on its own thread for `game`; with `weigh`, the line's expected result
/// too ([`Choice::expected`]).
fn search_thread(game: &Game, limits: Limits, weigh: bool) -> Thinking {
    let root = game.detached();
    Thinking::spawn(move |stop, progress| {
        let report = search(&root, &limits, stop, progress);
        let expected = weigh
            .then(|| weighed::expected_of_line(&root, &report, &limits, stop))
            .flatten();
        match report.best {
            Some(mv) => Ok(Choice {
                mv,
                info: Some(report.info),
                from_book: false,
                expected,
            }),
            None => Err(PlayerError::NoMove),
        }
    })
}

/// The engine: expectimax search at a level, or for a time per move.
pub struct Engine {
    limits: Limits,
    name: String,
    /// Whether it plays from the opening book ([`super::book`]): levels 2 to 5.
    book: bool,
    /// For this many moves of each side it chooses among every sound move the book
    /// knows ([`book::choose_varied`]), not only the book's own (0: never).
    book_vary: u32,
    /// Whether its answers carry the line's weighed expected result (a person reads
    /// it; matches need only the move).
    weighs: bool,
}

impl Engine {
    /// The engine at `level` (1..5), choosing among equal moves by `seed`.
    pub fn at_level(level: u8, seed: u64) -> Engine {
        Engine {
            limits: level::limits(level, seed),
            name: level::name(level),
            book: level::uses_book(level),
            book_vary: 0,
            weighs: false,
        }
    }

    /// The engine at `level` playing a person: as [`Engine::at_level`], answering
    /// after [`level::play_cap`] at the latest, its line's weighed expected result with
    /// its move.
    pub fn in_play(level: u8, seed: u64) -> Engine {
        Engine {
            limits: level::limits_in_play(level, seed),
            name: level::name(level),
            book: level::uses_book(level),
            book_vary: 0,
            weighs: true,
        }
    }

    /// The engine at `level` advising a person (a hint): as [`Engine::in_play`],
    /// searching as the level judges a position ([`level::judging`]).
    pub fn advising(level: u8, seed: u64) -> Engine {
        Engine {
            limits: Limits {
                movetime: Some(level::play_cap(level)),
                ..level::judging(level, seed)
            },
            ..Engine::in_play(level, seed)
        }
    }

    /// The same engine choosing each of its first `moves` moves (counted for both
    /// sides, as a game's move numbers) at random among the sound moves the book knows,
    /// while it plays from the book: varied openings for matches between engines.
    pub fn varying(self, moves: u32) -> Engine {
        Engine {
            book_vary: moves,
            ..self
        }
    }

    /// The engine thinking `time` per move (a person's opponent or hint: its line's
    /// weighed expected result with its move).
    pub fn timed(time: Duration, seed: u64) -> Engine {
        Engine {
            limits: level::timed(time, seed),
            name: format!("qchess {} ms", time.as_millis()),
            book: true,
            book_vary: 0,
            weighs: true,
        }
    }
}

impl Player for Engine {
    fn name(&self) -> String {
        self.name.clone()
    }

    /// A book move while the game is in the book, else the search. The variants have no
    /// search of their own yet: the engine plays them greedily.
    fn think(&mut self, game: &dyn Playable) -> Thinking {
        let seed = move_seed(self.limits.seed, game.ply());
        let vary = game.ply() / 2 < self.book_vary as usize;
        let from_book = || {
            let g = game.quantum()?;
            if vary {
                book::choose_varied(g, seed)
            } else {
                book::choose(g, seed)
            }
        };
        if let Some(mv) = self.book.then(from_book).flatten() {
            return Thinking::done(Ok(Choice {
                mv,
                info: None,
                from_book: true,
                expected: None,
            }));
        }
        match game.quantum() {
            Some(game) => search_thread(
                game,
                Limits {
                    seed,
                    ..self.limits
                },
                self.weighs,
            ),
            None => Thinking::done(greedy_variant(game, seed)),
        }
    }

    /// The level's search, answering within the clock's budget at the latest (without
    /// weighing its line: that would run on its clock after the budget).
    fn think_on_clock(&mut self, game: &dyn Playable, times: &ClockTimes) -> Thinking {
        let budget = clock_budget(times, game.to_move());
        let (usual, weighs) = (self.limits, self.weighs);
        self.limits.movetime = Some(usual.movetime.map_or(budget, |t| t.min(budget)));
        self.weighs = false;
        let thinking = self.think(game);
        (self.limits, self.weighs) = (usual, weighs);
        thinking
    }
}

/// One ply of lookahead on king presence and expected material: the best expected
/// value after the move, both outcomes of a measurement weighed.
pub struct Greedy {
    seed: u64,
}

impl Greedy {
    /// A greedy player choosing among equal moves by `seed`.
    pub fn new(seed: u64) -> Greedy {
        Greedy { seed }
    }
}

impl Player for Greedy {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn think(&mut self, game: &dyn Playable) -> Thinking {
        let seed = move_seed(self.seed, game.ply());
        let Some(game) = game.quantum() else {
            return Thinking::done(greedy_variant(game, seed));
        };
        let limits = Limits {
            depth: 1,
            nodes: None,
            work: None,
            movetime: None,
            quiescence: 0,
            late_moves: 0,
            style: super::eval::Style::Material,
            extend_checks: false,
            seed,
        };
        search_thread(game, limits, false)
    }
}

/// A random legal move (Quantum Chess: standard moves 70%, splits 20%, merges 10%, as
/// the seeded test games choose; variants: uniform).
pub struct Random {
    rng: SeededRng,
}

impl Random {
    /// A random player drawing from `seed`.
    pub fn new(seed: u64) -> Random {
        Random {
            rng: SeededRng::new(seed),
        }
    }
}

impl Player for Random {
    fn name(&self) -> String {
        "random".into()
    }

    fn think(&mut self, game: &dyn Playable) -> Thinking {
        let Some(game) = game.quantum() else {
            let moves = game.legal_moves();
            let answer = self
                .rng
                .choose(&moves)
                .map(|mv| Choice {
                    mv: mv.clone(),
                    info: None,
                    from_book: false,
                    expected: None,
                })
                .ok_or(PlayerError::NoMove);
            return Thinking::done(answer);
        };
        let answer = match random_move(game, &mut self.rng) {
            Some(text) if game.status() == crate::chess::Status::Ongoing => Ok(Choice {
                mv: text.to_string(),
                info: None,
                from_book: false,
                expected: None,
            }),
            _ => Err(PlayerError::NoMove),
        };
        Thinking::done(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::GameOptions;

    #[test]
    fn a_persons_engine_weighs_its_line_except_on_a_clock() {
        // White's split queen may take the king from h5: a coin toss.
        let mut g: Box<dyn Playable> =
            Game::from_fen("q3k2r/8/8/8/8/8/8/3QK3 w - - 0 1", GameOptions::default())
                .unwrap()
                .into();
        for m in ["d1^d5h5", "a8a7"] {
            g.play(m).unwrap();
        }
        let weighed = Engine::in_play(2, 0)
            .think(g.as_ref())
            .wait()
            .unwrap()
            .expected;
        assert!(
            weighed.is_some_and(|w| (0.55..0.8).contains(&w)),
            "{weighed:?}"
        );
        assert_eq!(
            Engine::at_level(2, 0)
                .think(g.as_ref())
                .wait()
                .unwrap()
                .expected,
            None
        );
        let times = ClockTimes {
            remaining: [Duration::from_secs(60); 2],
            increment: Duration::ZERO,
        };
        let on_clock = Engine::in_play(2, 0)
            .think_on_clock(g.as_ref(), &times)
            .wait()
            .unwrap();
        assert_eq!(on_clock.expected, None);
    }

    #[test]
    fn thinking_reports_progress_then_the_move() {
        // Out of the opening book: a knight split.
        let mut g: Box<dyn Playable> = Game::standard(GameOptions::default()).into();
        g.play("g1^f3h3").unwrap();
        let t = Engine::at_level(2, 1).think(g.as_ref());
        let mut infos = 0;
        let answer = loop {
            match t.next_event(Duration::from_secs(60)) {
                Some(Event::Info(_)) => infos += 1,
                Some(Event::Done(a)) => break a,
                None => panic!("no answer in a minute"),
            }
        };
        assert_eq!(infos, 2, "one report per iteration");
        let mv = answer.unwrap().mv;
        g.play(&mv).unwrap();
    }

    #[test]
    fn levels_2_to_5_open_from_the_book_and_level_1_searches() {
        let g: Box<dyn Playable> = Game::standard(GameOptions::default()).into();
        for level in 2..=5 {
            let t = Engine::at_level(level, 9).think(g.as_ref());
            // A book move is known at once: no search runs, nothing is reported.
            assert!(!t.running(), "level {level}");
            let choice = t.wait().unwrap();
            assert_eq!(choice.info, None);
            assert!(["e2e4", "d2d4", "c2c4", "g1f3"].contains(&choice.mv.as_str()));
        }
        let searched = Engine::at_level(1, 9).think(g.as_ref()).wait().unwrap();
        assert!(searched.info.is_some(), "level 1 has no book");
    }

    #[test]
    fn stopped_search_returns_a_legal_move() {
        let g: Box<dyn Playable> = Game::standard(GameOptions::default()).into();
        let t = Engine::timed(Duration::from_secs(600), 3).think(g.as_ref());
        std::thread::sleep(Duration::from_millis(20));
        t.stop();
        let mv = t.wait().unwrap().mv;
        Game::standard(GameOptions::default()).play(&mv).unwrap();
    }

    #[test]
    fn random_and_greedy_play_legal_moves() {
        let mut g: Box<dyn Playable> = Game::standard(GameOptions::default()).into();
        let mut players: [Box<dyn Player>; 2] =
            [Box::new(Random::new(5)), Box::new(Greedy::new(5))];
        for ply in 0..6 {
            let mv = players[ply % 2].think(g.as_ref()).wait().unwrap().mv;
            g.play(&mv).unwrap();
        }
        assert_eq!(g.ply(), 6);
    }

    #[test]
    fn slots_hold_a_search_until_its_thread_ends() {
        let slots = SearchSlots::new(1);
        let (go, wait) = mpsc::channel::<()>();
        let first = slots
            .start(|| {
                Thinking::spawn(move |_, _| {
                    let _ = wait.recv();
                    Err(PlayerError::NoMove)
                })
            })
            .expect("a free slot");
        assert!(first.running());
        // Stopped but not ended: the slot is still taken.
        first.stop();
        assert!(slots.start(|| unreachable!("no slot")).is_none());
        assert_eq!(slots.running(), 1);
        go.send(()).unwrap();
        assert_eq!(first.wait(), Err(PlayerError::NoMove));
        let until = std::time::Instant::now() + Duration::from_secs(10);
        while slots.running() > 0 {
            assert!(std::time::Instant::now() < until, "the thread never ended");
            std::thread::sleep(Duration::from_millis(1));
        }
        let known = slots.start(|| Thinking::done(Err(PlayerError::NoMove)));
        assert!(known.is_some_and(|t| !t.running()));
        // A claimed slot (a review) counts as a search until it is dropped.
        let slot = slots.claim().expect("a free slot");
        assert!(slots.claim().is_none());
        assert!(slots.start(|| unreachable!("no slot")).is_none());
        drop(slot);
        assert!(slots.claim().is_some());
    }
}
