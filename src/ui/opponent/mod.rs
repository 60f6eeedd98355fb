//! The computer in the terminal game: which sides it plays and how strongly, its search
//! running on its own thread while the screen keeps drawing (the thinking line), the
//! hint, and the engine's last score for the probabilities pane.
//!
//! Who plays is kept in the saved game's `[players]` entry: a side named
//! `qchess level N`, `qchess N ms` or `qchess greedy` is played by the computer, so a
//! resumed or loaded game hands that side back to it (a person who names themselves
//! so gets the computer in their place; `--white`/`--black` choose other names).
//!
//! A side named `uqci: CMD` was played by an external UQCI engine. It goes back to that
//! engine only when the player names the same command again (`--engine-cmd` or
//! `engine_cmd` in config.toml): a saved game is data, possibly from someone else, and
//! opening one never starts a program. Otherwise the side is played by hand, and
//! [`Sides::unclaimed`] says how to hand it back. An external engine that fails (does
//! not start, crashes, hangs, answers an illegal move) hands its sides to the player
//! ([`Computer::failed`]): the game goes on hot-seat with every move kept.

mod sides;
mod told;

pub use sides::{last_ply_from_book, Sides};
use told::hint_words;
pub use told::{score_words, wait_words, Score, ThinkingFor};

use crate::chess::{Color, Square};
use crate::engine::level::DEFAULT_LEVEL;
use crate::engine::player::{Running, SearchSlots};
use crate::engine::{Choice, Event, Info, Player, PlayerError, Thinking};
use crate::seats::strength::Strength;
use crate::ui::message::Tone;
use crate::ui::work::spinner;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A search under way.
struct Thought {
    thinking: Thinking,
    purpose: ThinkingFor,
    /// The side it searches for and the ply it started at (a take-back or a new game
    /// since makes its answer stale).
    side: Color,
    ply: usize,
    started: Instant,
    /// The last finished iteration.
    info: Option<Info>,
}

/// A finished search.
#[derive(Debug)]
pub struct Answer {
    /// What it was for.
    pub purpose: ThinkingFor,
    /// The side it searched for.
    pub side: Color,
    /// The ply it started at.
    pub ply: usize,
    /// The move, or why there is none.
    pub choice: Result<Choice, PlayerError>,
}

/// The pause between the computer's moves when it plays both sides, so a person can
/// follow the game.
pub const WATCH_DELAY: Duration = Duration::from_millis(800);

/// The computer's side of a game: the sides it plays, its search, the hint, the score.
pub struct Computer {
    sides: Sides,
    /// Seed of its choices among equal moves (the game's seed).
    seed: u64,
    /// The level a hint searches at when the computer plays no side.
    hint_level: u8,
    /// `both`: the player stopped the game to look at it.
    paused: bool,
    thought: Option<Thought>,
    /// `both`: the next move starts no sooner than this.
    next_at: Option<Instant>,
    score: Option<Score>,
    /// The hint shown: the move and its squares (marked until the next move or Esc).
    hint: Option<(String, Vec<Square>)>,
    /// Who may ask for hints, and the searches they share with other screens.
    hint_rules: HintRules,
    /// The thread of the last hint search, which may run a little after it was stopped.
    last_hint: Running,
}

/// Who may ask for hints and how many hint searches run at once beyond this screen.
/// A screen runs one hint search at a time whatever the rules (a new `H` while one
/// runs, or while a stopped one winds down, starts nothing).
#[derive(Clone, Debug, Default)]
pub struct HintRules {
    /// Searches shared with other screens (a server's sessions); `None`: no bound
    /// beyond this screen's one.
    pub shared: Option<Arc<SearchSlots>>,
    /// Whether a screen that watches a shared game may ask for hints.
    pub watchers: bool,
}

impl std::fmt::Debug for Computer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Computer")
            .field("sides", &self.sides)
            .field("paused", &self.paused)
            .field("thinking", &self.thought.as_ref().map(|t| t.purpose))
            .finish()
    }
}

impl Default for Computer {
    fn default() -> Self {
        Computer::new(Sides::default(), 0)
    }
}

impl Computer {
    /// The computer playing `sides`, choosing among equal moves by `seed`.
    pub fn new(sides: Sides, seed: u64) -> Computer {
        Computer {
            sides,
            seed,
            hint_level: DEFAULT_LEVEL,
            paused: false,
            thought: None,
            next_at: None,
            score: None,
            hint: None,
            hint_rules: HintRules::default(),
            last_hint: Running::default(),
        }
    }

    /// Sets who may ask for hints and the searches shared with other screens.
    pub fn set_hint_rules(&mut self, rules: HintRules) {
        self.hint_rules = rules;
    }

    /// The searches this screen shares with others (a server's), if any.
    pub fn shared_searches(&self) -> Option<Arc<SearchSlots>> {
        self.hint_rules.shared.clone()
    }

    /// Starts the hint search `make` gives for `side` at `ply`, unless the screen
    /// `watching` a shared game may not have hints, a hint search of this screen still
    /// runs, or the shared searches are all taken: then says why, and `make` is not
    /// called (no thread is started).
    pub fn start_hint(
        &mut self,
        watching: bool,
        side: Color,
        ply: usize,
        make: impl FnOnce() -> Thinking,
    ) -> Result<(), &'static str> {
        if watching && !self.hint_rules.watchers {
            return Err("hints are for the players in this room, not for watchers");
        }
        if self.thinking() == Some(ThinkingFor::Hint) {
            return Err("already looking for a hint: wait for it, or Esc stops it");
        }
        if self.last_hint.now() {
            return Err("the last hint search is still stopping: ask again in a moment");
        }
        let thinking = match &self.hint_rules.shared {
            Some(slots) => slots
                .start(make)
                .ok_or("every hint search of the server is busy: ask again in a moment")?,
            None => make(),
        };
        self.last_hint = thinking.tracker();
        self.start(ThinkingFor::Hint, side, ply, thinking);
        Ok(())
    }

    /// Hints (when the computer plays no side) search at `level`.
    pub fn with_hint_level(mut self, level: u8) -> Computer {
        self.hint_level = level;
        self
    }

    /// The level of the hints (and of a replay's review).
    pub fn hint_level(&self) -> u8 {
        self.hint_level
    }

    /// The sides it plays.
    pub fn sides(&self) -> &Sides {
        &self.sides
    }

    /// Whether it plays `side`.
    pub fn plays(&self, side: Color) -> bool {
        self.sides.of(side).is_some()
    }

    /// The player for `purpose` on `side`'s turn: its own strength, or for a hint the
    /// other side's computer, else the hint level, searching as it judges a position
    /// ([`Strength::adviser`]).
    pub fn player(&self, purpose: ThinkingFor, side: Color) -> Box<dyn Player> {
        match purpose {
            ThinkingFor::Move => match self.sides.of(side) {
                Some(s) => s.player(self.seed),
                None => Strength::Level(self.hint_level).player(self.seed),
            },
            ThinkingFor::Hint => self
                .sides
                .of(side)
                .or(self.sides.of(side.opposite()))
                .unwrap_or(&Strength::Level(self.hint_level))
                .adviser(self.seed),
        }
    }

    /// What to say when the search for `side` gave no move. An external engine that
    /// failed hands every side it played to the player: the game goes on hot-seat.
    pub fn failed(&mut self, side: Color, e: &PlayerError) -> String {
        let (PlayerError::Engine(why) | PlayerError::NotStarted(why)) = e else {
            return format!("{}: {e}", side.name());
        };
        let mut freed = Vec::new();
        for (color, s) in [
            (Color::White, &mut self.sides.white),
            (Color::Black, &mut self.sides.black),
        ] {
            if matches!(s, Some(Strength::External(_))) {
                *s = None;
                freed.push(color.name());
            }
        }
        if freed.is_empty() {
            return format!("{}: {why}", side.name());
        }
        self.paused = false;
        self.next_at = None;
        let who = match freed.as_slice() {
            [one] => format!("{one} is"),
            _ => "both sides are".into(),
        };
        // The hand-over first: a long engine path may cut the end of the reason.
        format!("{who} played by hand from here (hot-seat, every move kept): {why}")
    }

    /// Whether a search runs.
    pub fn thinking(&self) -> Option<ThinkingFor> {
        self.thought.as_ref().map(|t| t.purpose)
    }

    /// Whether anything is under way: a search, or the pause before a watched move.
    pub fn busy(&self) -> bool {
        self.thought.is_some() || (self.next_at.is_some() && !self.paused)
    }

    /// Starts `thinking` for `purpose`, for `side` at `ply` (a search already running
    /// is dropped, which stops it).
    pub fn start(&mut self, purpose: ThinkingFor, side: Color, ply: usize, thinking: Thinking) {
        self.next_at = None;
        self.thought = Some(Thought {
            thinking,
            purpose,
            side,
            ply,
            started: Instant::now(),
            info: None,
        });
    }

    /// Stops and forgets the search (a take-back, a new game, a hint stopped), any
    /// pending start, and the last score (of a position no longer shown).
    pub fn forget(&mut self) {
        self.thought = None;
        self.next_at = None;
        self.score = None;
    }

    /// Asks the search to answer now with the best move so far.
    pub fn hurry(&self) {
        if let Some(t) = &self.thought {
            t.thinking.stop();
        }
    }

    /// `both`: the next move waits for [`WATCH_DELAY`] first.
    pub fn delay_next(&mut self) {
        self.next_at = Some(Instant::now() + WATCH_DELAY);
    }

    /// Whether a delayed move may start now (no delay pending, or it is over).
    pub fn ready(&self) -> bool {
        !self.paused && self.next_at.is_none_or(|t| Instant::now() >= t)
    }

    /// Whether the game is paused (`both`).
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// `p`: pauses a game the computer plays against itself, or lets it go on; what to
    /// tell the player (an error when the computer does not play both sides).
    pub fn toggle_pause(&mut self) -> Result<&'static str, &'static str> {
        if !self.sides.both() {
            return Err("p pauses a game the computer plays against itself (play --engine both)");
        }
        self.set_paused(!self.paused);
        Ok(if self.paused { "paused" } else { "going on" })
    }

    /// Pauses or resumes; pausing stops a search for a move (it starts again on
    /// resuming).
    pub fn set_paused(&mut self, paused: bool) {
        self.paused = paused;
        if paused && self.thinking() == Some(ThinkingFor::Move) {
            self.thought = None;
        }
    }

    /// Takes in the search's progress; the answer once it came. `changed` is set when
    /// something new is to be drawn.
    pub fn poll(&mut self, changed: &mut bool) -> Option<Answer> {
        let t = self.thought.as_mut()?;
        while let Some(ev) = t.thinking.poll() {
            *changed = true;
            match ev {
                Event::Info(i) => {
                    // The pane's score follows the search as it goes.
                    self.score = Some(Score {
                        centipawns: i.score,
                        side: t.side,
                        depth: i.depth,
                        purpose: t.purpose,
                        weighed: None,
                    });
                    t.info = Some(i);
                }
                Event::Done(choice) => {
                    let t = self.thought.take()?;
                    match &choice {
                        Ok(Choice {
                            info: Some(i),
                            expected,
                            ..
                        }) => {
                            self.score = Some(Score {
                                centipawns: i.score,
                                side: t.side,
                                depth: i.depth,
                                purpose: t.purpose,
                                weighed: *expected,
                            })
                        }
                        // A move without a search (the opening book): an earlier hint's
                        // score would not be this move's.
                        Ok(_) if t.purpose == ThinkingFor::Hint => self.score = None,
                        _ => {}
                    }
                    return Some(Answer {
                        purpose: t.purpose,
                        side: t.side,
                        ply: t.ply,
                        choice,
                    });
                }
            }
        }
        None
    }

    /// Waits for the search's answer (tests, and screens run inline).
    pub fn wait(&mut self) -> Option<Answer> {
        loop {
            let mut changed = false;
            if let Some(a) = self.poll(&mut changed) {
                return Some(a);
            }
            self.thought.as_ref()?;
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// The hint shown: the move and its squares.
    pub fn hint(&self) -> Option<&(String, Vec<Square>)> {
        self.hint.as_ref()
    }

    /// Shows the hint `choice` (on `squares`; `about`: what it does, when that needs
    /// words); what the message line says.
    pub fn show_hint(
        &mut self,
        side: Color,
        choice: Choice,
        squares: Vec<Square>,
        about: Option<String>,
    ) -> String {
        let said = hint_words(side, &choice, self.score(), about);
        self.hint = Some((choice.mv, squares));
        said
    }

    /// Hides the hint; whether one was shown.
    pub fn hide_hint(&mut self) -> bool {
        self.hint.take().is_some()
    }

    /// The engine's last score (from a hint or the computer's own search).
    pub fn score(&self) -> Option<&Score> {
        self.score.as_ref()
    }

    /// The thinking line: a spinner, who thinks for what, for how long, and what the
    /// search knows so far (depth, nodes, best line); `keys` that act meanwhile.
    pub fn thinking_line(&self, ascii: bool) -> Option<String> {
        let t = self.thought.as_ref()?;
        let elapsed = t.started.elapsed();
        let who = match t.purpose {
            ThinkingFor::Move => format!("{} thinks", t.side.name()),
            ThinkingFor::Hint => format!("hint for {}", t.side.name()),
        };
        let what = match &t.info {
            Some(i) => format!(
                "depth {}, {} nodes, best {}",
                i.depth,
                i.nodes,
                i.pv.iter().take(4).cloned().collect::<Vec<_>>().join(" ")
            ),
            None => "searching".into(),
        };
        let keys = match t.purpose {
            ThinkingFor::Move => "Esc moves now",
            ThinkingFor::Hint => "Esc stops",
        };
        Some(format!(
            "{} {who} {:.1} s ({keys}): {what}",
            spinner(elapsed, ascii),
            elapsed.as_secs_f64()
        ))
    }

    /// The line under a game's message: the thinking line, or while a watched game is
    /// paused, how to go on (not in a `replay`).
    pub fn line(&self, ascii: bool, replay: bool) -> Option<String> {
        self.thinking_line(ascii).or_else(|| {
            (self.paused && self.sides.both() && !replay)
                .then(|| "paused: p goes on, u takes back a move".to_string())
        })
    }
}

/// A game screen the computer plays on (the Quantum Chess app, the variants' app).
pub(super) trait Plays {
    /// Its computer.
    fn computer_mut(&mut self) -> &mut Computer;
    /// The ply and the side to move an answer must be for, while a game is played (not
    /// in a replay); an answer for another (a take-back came first) is dropped.
    fn awaited(&self) -> Option<(usize, Color)>;
    /// Plays the computer's move.
    fn play_computer_move(&mut self, choice: &Choice);
    /// The squares a hint marks on the board.
    fn hint_squares(&self, mv: &str) -> Vec<Square>;
    /// The hinted move `mv` in words, when it needs them (a quantum move, or one that
    /// may not happen, with its chance).
    fn hint_foresight(&self, mv: &str) -> Option<String>;
    /// Starts the computer's search when it is to move.
    fn computer_turn(&mut self);
    /// Puts `text` on the message line.
    fn tell(&mut self, tone: Tone, text: &str);

    /// Takes in the computer's answer: plays its move, or shows the hint; a failure is
    /// said (and a failed external engine hands its sides over).
    fn take_answer(&mut self, a: Answer) {
        if self.awaited() != Some((a.ply, a.side)) {
            return;
        }
        match (a.choice, a.purpose) {
            (Err(e), _) => {
                let said = self.computer_mut().failed(a.side, &e);
                self.tell(Tone::Error, &said);
            }
            (Ok(choice), ThinkingFor::Move) => self.play_computer_move(&choice),
            (Ok(choice), ThinkingFor::Hint) => {
                let squares = self.hint_squares(&choice.mv);
                let about = self.hint_foresight(&choice.mv);
                let said = self
                    .computer_mut()
                    .show_hint(a.side, choice, squares, about);
                self.tell(Tone::Info, &said);
            }
        }
    }

    /// `p`: pauses a game the computer plays against itself, or lets it go on.
    fn pause(&mut self) {
        match self.computer_mut().toggle_pause() {
            Ok(said) => {
                self.tell(Tone::Info, said);
                self.computer_turn();
            }
            Err(why) => self.tell(Tone::Error, why),
        }
    }
}

/// The computer's part of a screen's tick: takes in its answer, starts a watched game's
/// next move once the pause is over. True when the screen should be drawn again (news,
/// or a search whose thinking line's time moves on).
pub(super) fn tick(screen: &mut impl Plays) -> bool {
    let mut changed = false;
    if let Some(a) = screen.computer_mut().poll(&mut changed) {
        screen.take_answer(a);
    }
    let c = screen.computer_mut();
    if c.thinking().is_none() && c.busy() && c.ready() {
        screen.computer_turn();
        changed = true;
    }
    changed || screen.computer_mut().thinking().is_some()
}

#[cfg(test)]
mod tests;
