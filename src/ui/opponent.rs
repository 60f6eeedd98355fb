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

use super::message::Tone;
use super::work::spinner;
use crate::chess::{notation, Color, Square};
use crate::engine::book;
use crate::engine::level::DEFAULT_LEVEL;
use crate::engine::player::{Running, SearchSlots};
use crate::engine::{Choice, Event, Info, Player, PlayerError, Thinking};
use crate::game::{Playable, PlyRecord};
use crate::record::Players;
use crate::review::expected;
use crate::seats::strength::Strength;
use crate::uqci::client::{UqciPlayer, NAME_PREFIX};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The command of an external engine a player's name stands for ("uqci: CMD").
fn engine_command(name: &str) -> Option<&str> {
    name.trim().strip_prefix(NAME_PREFIX).map(str::trim)
}

/// Which sides the computer plays, at what strength.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sides {
    /// White's computer, if the computer plays white.
    pub white: Option<Strength>,
    /// Black's computer, if the computer plays black.
    pub black: Option<Strength>,
}

impl Sides {
    /// The sides the players' names give to the computer: the built-in engine's names,
    /// and `external`'s name ("uqci: CMD") when the player gave that engine this time.
    pub fn of_players(players: &Players, external: Option<&UqciPlayer>) -> Sides {
        let of = |name: &str| {
            Strength::from_name(name).or_else(|| {
                let p = external?;
                (engine_command(name) == Some(p.command())).then(|| Strength::External(p.clone()))
            })
        };
        Sides {
            white: of(&players.white),
            black: of(&players.black),
        }
    }

    /// The sides named after an external engine other than `external` (the one the
    /// player gave): they are played by hand. What to tell the player, if any.
    pub fn unclaimed(players: &Players, external: Option<&UqciPlayer>) -> Option<String> {
        let given = external.map(UqciPlayer::command);
        let unclaimed: Vec<(Color, &str)> = [
            (Color::White, players.white.as_str()),
            (Color::Black, players.black.as_str()),
        ]
        .into_iter()
        .filter_map(|(side, name)| Some((side, engine_command(name)?)))
        .filter(|(_, command)| Some(*command) != given)
        .collect();
        let (_, command) = unclaimed.first()?;
        let who = match unclaimed.as_slice() {
            [(side, _)] => format!("{} is", side.name()),
            _ => "white and black are".into(),
        };
        Some(format!(
            "{who} played by hand: the engine \"{command}\" plays again only when named \
             again (--engine-cmd), a saved game never starts a program"
        ))
    }

    /// The computer playing `side`, if any.
    pub fn of(&self, side: Color) -> Option<&Strength> {
        match side {
            Color::White => self.white.as_ref(),
            Color::Black => self.black.as_ref(),
        }
    }

    /// Whether the computer plays both sides (a game to watch).
    pub fn both(&self) -> bool {
        self.white.is_some() && self.black.is_some()
    }

    /// Whether the computer plays a side at all.
    pub fn any(&self) -> bool {
        self.white.is_some() || self.black.is_some()
    }

    /// How many plies `u` takes back from a game whose moves were played by `movers`
    /// (in order): the last move; against the computer, back to before the player's
    /// last move (the computer's reply with it), so that it is the player's turn again;
    /// in a watched game one move.
    pub fn take_back(&self, movers: &[Color]) -> Result<usize, &'static str> {
        if movers.is_empty() {
            return Err("there is no move to take back");
        }
        let player = match (&self.white, &self.black) {
            (None, Some(_)) => Color::White,
            (Some(_), None) => Color::Black,
            _ => return Ok(1),
        };
        match movers.iter().rposition(|c| *c == player) {
            Some(i) => Ok(movers.len() - i),
            None => Err("none of the moves is yours to take back"),
        }
    }
}

/// Whether `rec`, the last ply of `game`, was the computer's move from its opening book:
/// the mover's side is named after a computer that plays from the book, and the move is
/// one of the book's in the position before it (where such a computer never searches).
/// So a replay tells it as the live game did.
pub fn last_ply_from_book(game: &dyn Playable, rec: &PlyRecord, players: &Players) -> bool {
    let sides = Sides::of_players(players, None);
    if !sides.of(rec.color).is_some_and(Strength::plays_book) {
        return false;
    }
    // A book move leaves every piece certain: anything else is decided without a copy.
    if game.cells().iter().any(|(_, c)| c.probability < 1.0) {
        return false;
    }
    let mut before = game.clone_box();
    before.undo().is_ok()
        && before
            .quantum()
            .is_some_and(|g| book::is_book_move(g, &rec.text))
}

/// What a player trying to move on the computer's turn is told.
pub fn wait_words(side: Color) -> String {
    format!(
        "{} is the computer's: wait for its move (Esc makes it move now, u takes back)",
        side.name()
    )
}

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThinkingFor {
    /// The computer's own move.
    Move,
    /// A hint for the player to move.
    Hint,
}

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

/// The engine's last score: centipawns for `side`, the side to move at `ply`.
#[derive(Clone, Debug, PartialEq)]
pub struct Score {
    /// Centipawns for `side`.
    pub centipawns: f64,
    /// The side it is for (the side that was to move).
    pub side: Color,
    /// The depth of the search.
    pub depth: u32,
    /// From a hint, else from the computer's own search.
    pub purpose: ThinkingFor,
    /// White's expected result of the line found, its measurement weighed as results
    /// (the search's answer); `None` while it runs.
    pub weighed: Option<f64>,
}

impl Score {
    /// White's expected result: the answer's weighed one, else the score's.
    pub fn white(&self) -> f64 {
        self.weighed
            .unwrap_or_else(|| expected::from_side(self.centipawns, self.side))
    }
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

/// The score as the probabilities pane shows it, always from White's side: who stands
/// better, White's expected result ([`Score::white`]: as a review values a line) and
/// the centipawns: "about even (0.53 for white, +35 cp; black's search, depth 2)".
pub fn score_words(s: &Score) -> String {
    let from = match s.purpose {
        ThinkingFor::Hint => "hint".to_string(),
        ThinkingFor::Move => format!("{}'s search", s.side.name()),
    };
    let white = s.white();
    format!(
        "{} ({} for white, {:+} cp; {from}, depth {})",
        expected::verdict(white),
        expected::words(white),
        white_cp(s).round() as i64,
        s.depth
    )
}

/// The score's centipawns from White's side.
fn white_cp(s: &Score) -> f64 {
    match s.side {
        Color::White => s.centipawns,
        Color::Black => -s.centipawns,
    }
}

/// The hint on the message line: "hint for black: e7e5 (about even, depth 3, expecting
/// g1f3); Esc hides it" (who stands better after it, the answer the search expects; the
/// numbers are in the probabilities pane), first what a quantum move or one that may not
/// happen does ("a3c3^b5 (merge: the knight on a3 and c3 comes together on b5; …)"), or
/// for a move of the opening book "hint for black: e7e5 (a main line of the opening);
/// Esc hides it".
fn hint_words(
    side: Color,
    choice: &Choice,
    score: Option<&Score>,
    about: Option<String>,
) -> String {
    let mv = &choice.mv;
    if choice.from_book {
        return format!(
            "hint for {}: {mv} (a main line of the opening); Esc hides it",
            side.name()
        );
    }
    let mut words: Vec<String> = about.into_iter().collect();
    if let Some(s) = score.filter(|s| s.purpose == ThinkingFor::Hint) {
        let white = s.white();
        let answer = choice.info.as_ref().and_then(|i| expected_answer(&i.pv));
        let answer = answer
            .map(|a| format!(", expecting {a}"))
            .unwrap_or_default();
        words.push(format!(
            "{}, depth {}{answer}",
            expected::verdict(white),
            s.depth
        ));
    }
    let words = if words.is_empty() {
        String::new()
    } else {
        format!(" ({})", words.join("; "))
    };
    format!("hint for {}: {mv}{words}; Esc hides it", side.name())
}

/// The answer a search's line expects to its first move (the line's second move,
/// without an outcome); none when the first move asks a question (the line then
/// answers one of its outcomes) or the line stops there.
fn expected_answer(pv: &[String]) -> Option<String> {
    let first = notation::parse(pv.first()?).ok()?;
    if first.outcome.is_some() {
        return None;
    }
    notation::without_outcome(pv.get(1)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thinking_line_follows_the_search_and_the_answer_keeps_its_score() {
        use std::sync::atomic::Ordering;
        let mut c = Computer::new(Sides::default(), 0);
        let info = Info {
            depth: 2,
            score: -35.4,
            nodes: 1234,
            time: Duration::from_millis(5),
            pv: vec!["e7e5".into(), "g1f3".into()],
        };
        let sent = info.clone();
        // A search that reports one iteration, then waits to be stopped.
        let thinking = Thinking::spawn(move |stop, progress| {
            progress(&sent);
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            Ok(Choice {
                mv: "e7e5".into(),
                info: Some(sent),
                from_book: false,
                expected: None,
            })
        });
        c.start(ThinkingFor::Move, Color::Black, 1, thinking);
        let line = c.thinking_line(true).unwrap();
        assert!(
            line.contains("black thinks") && line.ends_with("searching"),
            "{line}"
        );
        let start = Instant::now();
        let mut changed = false;
        while !c.thinking_line(true).unwrap().contains("depth") {
            assert!(c.poll(&mut changed).is_none(), "no answer before the stop");
            assert!(start.elapsed() < Duration::from_secs(30));
            std::thread::sleep(Duration::from_millis(1));
        }
        let line = c.thinking_line(true).unwrap();
        assert!(
            line.ends_with("depth 2, 1234 nodes, best e7e5 g1f3"),
            "{line}"
        );
        // The score shows while it searches, from the last info.
        let s = c.score().expect("a score from the info");
        assert_eq!(
            score_words(s),
            "about even (0.53 for white, +35 cp; black's search, depth 2)"
        );
        c.hurry();
        let a = c.wait().expect("an answer");
        assert_eq!(
            (a.purpose, a.side, a.ply),
            (ThinkingFor::Move, Color::Black, 1)
        );
        assert_eq!(a.choice.unwrap().mv, "e7e5");
        assert_eq!(c.thinking_line(true), None);
        let s = c.score().expect("its score");
        assert_eq!(
            score_words(s),
            "about even (0.53 for white, +35 cp; black's search, depth 2)"
        );
        c.forget();
        assert!(c.score().is_none());
    }

    #[test]
    fn a_hint_says_what_a_quantum_move_does_first() {
        let score = Score {
            centipawns: 10.0,
            side: Color::White,
            depth: 2,
            purpose: ThinkingFor::Hint,
            weighed: None,
        };
        let merge = "merge: the knight on a3 and c3 comes together on b5";
        let chose = |line: &[&str]| Choice {
            // The move itself without the outcome its line assumes.
            mv: line[0].split('.').next().unwrap_or_default().to_string(),
            info: Some(Info {
                depth: 2,
                score: 10.0,
                nodes: 100,
                time: Duration::ZERO,
                pv: line.iter().map(|m| m.to_string()).collect(),
            }),
            from_book: false,
            expected: None,
        };
        assert_eq!(
            hint_words(
                Color::White,
                &chose(&["a3c3^b5"]),
                Some(&score),
                Some(merge.into())
            ),
            format!("hint for white: a3c3^b5 ({merge}; about even, depth 2); Esc hides it")
        );
        assert_eq!(
            hint_words(
                Color::White,
                &chose(&["e2e4", "d7xd5.m1", "d1d4"]),
                Some(&score),
                None
            ),
            "hint for white: e2e4 (about even, depth 2, expecting d7xd5); Esc hides it"
        );
        // A capture's line answers one of its outcomes: no answer is named.
        assert_eq!(
            hint_words(
                Color::White,
                &chose(&["e4xd5.m1", "d8xd5"]),
                Some(&score),
                None
            ),
            "hint for white: e4xd5 (about even, depth 2); Esc hides it"
        );
        assert_eq!(
            hint_words(Color::Black, &chose(&["a3c3^b5"]), None, Some(merge.into())),
            format!("hint for black: a3c3^b5 ({merge}); Esc hides it")
        );
        let book = Choice {
            from_book: true,
            ..chose(&["e7e5", "g1f3"])
        };
        assert_eq!(
            hint_words(Color::Black, &book, Some(&score), None),
            "hint for black: e7e5 (a main line of the opening); Esc hides it"
        );
    }

    #[test]
    fn names_round_trip() {
        for s in [
            Strength::Level(1),
            Strength::Level(5),
            Strength::Movetime(250),
            Strength::Greedy,
        ] {
            assert_eq!(Strength::from_name(&s.name()), Some(s));
        }
        for other in [
            "White",
            "qchess",
            "qchess level 9",
            "qchess 0 ms",
            "qchess x ms",
        ] {
            assert_eq!(Strength::from_name(other), None, "{other}");
        }
        let (w, b) = (Color::White, Color::Black);
        let one = Sides {
            black: Some(Strength::Level(1)),
            ..Sides::default()
        };
        // The player (white) moved last: their move and nothing else; the computer
        // replied: both.
        assert_eq!(one.take_back(&[w, b, w]), Ok(1));
        assert_eq!(one.take_back(&[w, b, w, b]), Ok(2));
        assert!(one.take_back(&[]).is_err());
        let computer_white = Sides {
            white: Some(Strength::Level(1)),
            ..Sides::default()
        };
        assert!(computer_white.take_back(&[w]).is_err());
        assert_eq!(computer_white.take_back(&[w, b, w]), Ok(2));
        assert_eq!(Sides::default().take_back(&[w, b]), Ok(1));
        let p = Players {
            white: "Ann".into(),
            black: "qchess level 2".into(),
        };
        let s = Sides::of_players(&p, None);
        assert_eq!(s.of(Color::Black), Some(&Strength::Level(2)));
        assert!(s.any() && !s.both());
    }

    #[test]
    fn an_external_engines_side_is_its_own_only_when_named_again() {
        let engine = UqciPlayer::new("my-engine --uqci", Duration::from_millis(100));
        let players = Players {
            white: "Ann".into(),
            black: Strength::External(engine.clone()).name(),
        };
        assert_eq!(players.black, "uqci: my-engine --uqci");
        let named = Sides::of_players(&players, Some(&engine));
        assert_eq!(named.black, Some(Strength::External(engine.clone())));
        assert_eq!(named.white, None);
        assert_eq!(Sides::unclaimed(&players, Some(&engine)), None);
        let other = UqciPlayer::new("other-engine", Duration::from_millis(100));
        for given in [None, Some(&other)] {
            assert!(!Sides::of_players(&players, given).any());
            let why = Sides::unclaimed(&players, given).expect("said");
            assert!(
                why.starts_with("black is played by hand: the engine \"my-engine --uqci\""),
                "{why}"
            );
        }
        let both = Players {
            white: players.black.clone(),
            black: players.black.clone(),
        };
        let why = Sides::unclaimed(&both, None).unwrap();
        assert!(
            why.starts_with("white and black are played by hand"),
            "{why}"
        );
    }

    #[test]
    fn a_failed_external_engine_hands_its_sides_over() {
        let engine = UqciPlayer::new("my-engine", Duration::from_millis(100));
        let sides = Sides {
            white: Some(Strength::Level(1)),
            black: Some(Strength::External(engine)),
        };
        let mut c = Computer::new(sides, 0);
        let said = c.failed(
            Color::Black,
            &PlayerError::Engine("the engine ended".into()),
        );
        assert_eq!(
            said,
            "black is played by hand from here (hot-seat, every move kept): the engine ended"
        );
        assert_eq!(c.sides().black, None);
        assert_eq!(
            c.sides().white,
            Some(Strength::Level(1)),
            "the built-in stays"
        );
        // Any other failure leaves the sides as they are.
        assert_eq!(
            c.failed(Color::White, &PlayerError::NoMove),
            "white: there is no legal move to play"
        );
        assert!(c.plays(Color::White));
    }
}
