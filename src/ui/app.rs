//! The game screen's state and its update function, for every rule system. Everything
//! the panes show lives here and changes only through [`App::update`]; there is no
//! terminal in it, so tests drive it with key events and draw it on a test backend.
//!
//! The game is a [`Playable`]; the parts that differ between rule systems are small
//! pieces beside this file: how the board picks a move ([`super::quantum_moves`] for
//! Quantum Chess's splits and merges, [`super::listed_moves`] for rule systems that list
//! their moves) and the side panes ([`super::draw`]).

use super::circuit::CircuitView;
use super::drawn::Drawn;
use super::input::{self, Action, InputMode};
use super::inspector::Inspector;
use super::king_risk::KingCheck;
use super::layout::Drawer;
use super::line_edit::LineEdit;
use super::message::{Message, Tone};
use super::mouse::{self, Act, Hits, OnScreen, Pointer};
use super::opponent::{self, Computer, Plays, ThinkingFor};
pub use super::prompts::Purpose;
use super::prompts::{self, Asking, Question};
use super::recent::Recent;
use super::steps;
use super::view::View;
use super::work::{Exec, Job, MoveBy, Pending};
use crate::chess::threat::Threat;
use crate::chess::{Game, Square, Status};
use crate::engine::Choice;
use crate::game::table::{self, Place, Seat};
use crate::game::{CancelFlag, Playable};
use crate::record::{Players, Recorder, SavedGame};
use crate::style::color::Paint;
use crate::variants::ReplayError;
use crossterm::event::{Event, KeyCode, KeyEvent, MouseEvent};
use std::sync::Arc;
use std::time::Duration;

/// What the player is in the middle of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Nothing selected.
    Idle,
    /// Picking the target of a standard move from `from`.
    Source {
        /// The selected piece.
        from: Square,
        /// Its legal targets.
        targets: Vec<Square>,
    },
    /// Picking the first target of a split.
    SplitFirst {
        /// The piece that splits.
        from: Square,
        /// Legal first targets.
        targets: Vec<Square>,
    },
    /// Picking the second target of a split.
    SplitSecond {
        /// The piece that splits.
        from: Square,
        /// The first target.
        to1: Square,
        /// Legal second targets.
        targets: Vec<Square>,
    },
    /// Picking the second source of a merge.
    MergeSecond {
        /// The first source.
        from1: Square,
        /// Legal second sources.
        targets: Vec<Square>,
    },
    /// Picking the target of a merge.
    MergeTarget {
        /// The first source.
        from1: Square,
        /// The second source.
        from2: Square,
        /// Legal targets.
        targets: Vec<Square>,
    },
    /// Waiting for the promotion piece of a pawn move.
    Promotion {
        /// The pawn.
        from: Square,
        /// The last-rank square.
        to: Square,
    },
    /// `s` or `m` was pressed where no split or merge could start: the next pick is
    /// the piece to start from.
    Arm {
        /// A merge (else a split).
        merge: bool,
    },
    /// A piece is picked in a rule system that lists its moves (harmonics, haft): its
    /// legal moves of one kind.
    Moves {
        /// The picked piece.
        from: Square,
        /// Quantum moves (harmonics `~`) instead of ordinary ones.
        quantum: bool,
        /// The legal moves of the piece in this kind, in notation.
        moves: Vec<String>,
        /// Their targets.
        targets: Vec<Square>,
    },
    /// Several listed moves go to the same square (promotion): pick one by its letter.
    Choice {
        /// The moves, in notation.
        moves: Vec<String>,
        /// Their target.
        targets: Vec<Square>,
    },
    /// Typing into the message line: a move, a file name or a ply number.
    Prompt {
        /// The text so far, with its cursor.
        line: LineEdit,
        /// What the text is for.
        purpose: Purpose,
    },
}

/// Stepping through a finished or saved game: the whole game, and the ply shown.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The whole game.
    pub full: Box<dyn Playable>,
    /// How many plies of it are shown (0 = the start position).
    pub ply: usize,
    /// Whether the game was played here and is reviewed at its end (`R` after the
    /// game-over box), not opened from a file: leaving still says where it is saved.
    pub from_play: bool,
}

impl Mode {
    /// The selected source squares.
    pub fn sources(&self) -> Vec<Square> {
        match self {
            Mode::Source { from, .. }
            | Mode::SplitFirst { from, .. }
            | Mode::SplitSecond { from, .. }
            | Mode::Promotion { from, .. }
            | Mode::Moves { from, .. } => vec![*from],
            Mode::MergeSecond { from1, .. } => vec![*from1],
            Mode::MergeTarget { from1, from2, .. } => vec![*from1, *from2],
            Mode::Idle | Mode::Arm { .. } | Mode::Choice { .. } | Mode::Prompt { .. } => Vec::new(),
        }
    }

    /// Squares picked as targets so far (the first target of a split).
    pub fn picked_targets(&self) -> Vec<Square> {
        match self {
            Mode::SplitSecond { to1, .. } => vec![*to1],
            Mode::Promotion { to, .. } => vec![*to],
            _ => Vec::new(),
        }
    }

    /// The squares the next pick may be.
    pub fn targets(&self) -> &[Square] {
        match self {
            Mode::Source { targets, .. }
            | Mode::SplitFirst { targets, .. }
            | Mode::SplitSecond { targets, .. }
            | Mode::MergeSecond { targets, .. }
            | Mode::MergeTarget { targets, .. }
            | Mode::Moves { targets, .. }
            | Mode::Choice { targets, .. } => targets,
            _ => &[],
        }
    }
}

/// The whole state of the game screen.
#[derive(Debug)]
pub struct App {
    pub(super) game: Box<dyn Playable>,
    /// What the Quantum Chess panes show that is costly to compute (empty for the other
    /// rule systems), refreshed after every change.
    pub(super) view: View,
    pub(super) cursor: Square,
    pub(super) flipped: bool,
    pub(super) mode: Mode,
    pub(super) message: Message,
    /// The last messages, for the help to show in full.
    pub(super) recent: Recent,
    /// The history entry whose circuit (or trace) is shown; `None` follows the last move.
    pub(super) selected_move: Option<usize>,
    /// Circuit (or trace) scroll: columns, rows.
    pub(super) circuit_scroll: (u16, u16),
    pub(super) circuit_view: CircuitView,
    pub(super) help: bool,
    /// The explanation of the shown move is open.
    pub(super) explaining: bool,
    /// The lesson this screen teaches, if it does.
    pub(super) lesson: Option<super::lesson::Run>,
    /// The puzzles this screen sets, if it does.
    pub(super) puzzle: Option<super::puzzle::Solving>,
    /// The help page shown, and how many pages the last drawing needed.
    help_page: usize,
    help_pages: usize,
    pub(super) game_over_popup: bool,
    pub(super) quit: bool,
    pub(super) paint: Paint,
    pub(super) ascii: bool,
    /// Where the game is saved and autosaved.
    pub(super) recorder: Recorder,
    /// Set while stepping through a game; `game` is then the state at the shown ply.
    pub(super) replay: Option<Replay>,
    /// The inspector, while it is open.
    pub(super) inspector: Option<Inspector>,
    /// The yes/no question shown, if any.
    pub(super) question: Option<Question>,
    /// The last move typed on the `:` line (Up brings it back).
    pub(super) last_typed: String,
    /// Where the board and panes were last drawn, for the mouse.
    hits: Hits,
    /// The mouse pointer (where a drag started).
    pointer: Pointer,
    /// The pane below the board in the compact arrangement.
    pub(super) drawer: Drawer,
    /// Where moves, take-backs and replay steps are carried out.
    exec: Exec,
    /// The work being carried out on a worker thread.
    pending: Option<Pending<Led>>,
    /// Replay steps pressed while a step was still being shown (key repeat, or keys
    /// faster than a step): taken once it is shown.
    queued_steps: i64,
    /// The computer: the sides it plays, its search, its last score.
    pub(super) computer: Computer,
    /// The table whose game this is, when the game is shared (a server room).
    place: Option<Place<Box<dyn Playable>>>,
    /// A replay's review, and the work on it.
    pub(super) reviewing: super::review::Reviewing,
    /// The clocks, in a game on a time control.
    pub(super) clocks: super::clocks::Clocks,
    /// How the game ended outside its rules (time, resignation, agreement).
    pub(super) ending: Option<crate::game::clock::Ending>,
    /// Whether a move that puts the player's safe king in danger is asked about first
    /// (see [`super::king_risk`]).
    pub(super) king_question: bool,
    /// What the last move made at this screen did, and the ply it led to: told again
    /// with the reply that follows it.
    own_told: Option<(usize, String)>,
    /// The warning about a king of this screen's player after the last move, kept on the
    /// message line until the next move.
    warning: Option<String>,
}

/// What a job's work led to.
enum Led {
    /// The game as the job left it, and the panes' view of it.
    Game(Box<dyn Playable>, View),
    /// A move held back before it was played: it would leave the mover's safe king
    /// this likely to be captured.
    Risky(Threat),
}

const REPLAY_WELCOME: &str =
    "replay: ← → step, Home End, g go to ply, p play on from here, ? help, q quit";

/// The panes' costly facts about `game` with the cursor on `cursor` (Quantum Chess).
fn view_of(game: &dyn Playable, cursor: Square) -> View {
    game.quantum()
        .map(|g| View::of(g, cursor))
        .unwrap_or_default()
}

impl App {
    /// A new screen around `game` (a Quantum Chess [`Game`] or any [`Playable`]), drawn
    /// with `paint`, with letters instead of glyphs when `ascii`.
    pub fn new(game: impl Into<Box<dyn Playable>>, paint: Paint, ascii: bool) -> App {
        let game = game.into();
        let cursor = Square::parse("e2").unwrap_or(Square(12));
        let view = view_of(game.as_ref(), cursor);
        let mut app = App {
            game,
            view,
            cursor,
            flipped: false,
            mode: Mode::Idle,
            message: Message {
                text: String::new(),
                tone: Tone::Plain,
            },
            recent: Recent::default(),
            selected_move: None,
            circuit_scroll: (0, 0),
            circuit_view: CircuitView::Auto,
            help: false,
            explaining: false,
            lesson: None,
            puzzle: None,
            help_page: 0,
            help_pages: 1,
            game_over_popup: false,
            quit: false,
            paint: paint.with_ascii(ascii),
            ascii,
            recorder: Recorder::off(),
            replay: None,
            inspector: None,
            question: None,
            last_typed: String::new(),
            hits: Hits::default(),
            pointer: Pointer::default(),
            drawer: Drawer::default(),
            exec: Exec::Inline,
            pending: None,
            queued_steps: 0,
            computer: Computer::default(),
            place: None,
            reviewing: Default::default(),
            clocks: Default::default(),
            ending: None,
            king_question: false,
            own_told: None,
            warning: None,
        };
        app.welcome();
        app
    }

    /// The first message: how to move, or the result of a finished game.
    fn welcome(&mut self) {
        if self.status() != Status::Ongoing {
            self.game_over_popup = true;
            return self.say(Tone::Info, self.game_over_words());
        }
        let keys = if self.game.quantum().is_some() {
            ", s split, m merge"
        } else {
            self.listed_move_keys()
        };
        let side = self.game.to_move().name();
        self.say(
            Tone::Plain,
            format!("{side} to move: pick a piece with Enter{keys}, : type a move, ? help"),
        );
    }

    /// Saves the game with `recorder`: autosave after every change, and `w` to save.
    pub fn with_recorder(mut self, recorder: Recorder) -> App {
        self.recorder = recorder;
        if self.status() != Status::Ongoing {
            // The result is told in the players' names.
            self.say(Tone::Info, self.game_over_words());
        }
        self
    }

    /// Lets `computer` play its sides (and give hints); it starts thinking at once when
    /// it is to move.
    pub fn with_computer(mut self, computer: Computer) -> App {
        self.computer = computer;
        self.computer_turn();
        self
    }

    /// The computer: the sides it plays, whether it thinks, its last score.
    pub fn computer(&self) -> &Computer {
        &self.computer
    }

    /// Esc while the computer thinks: its search answers at once with the best move so
    /// far.
    pub fn hurry(&mut self) {
        if self.computer.thinking() == Some(ThinkingFor::Move) {
            self.computer.hurry();
            self.say(Tone::Plain, "moving now with the best move found so far");
        }
    }

    /// The line under the message while the computer thinks (or a watched game is
    /// paused).
    pub fn thinking_line(&self) -> Option<String> {
        self.computer.line(self.ascii, self.replay.is_some())
    }

    /// Shows a game shared at `place`: moves go to its table, and take-backs, new games
    /// and saving to a file are refused (see [`crate::game::table`]).
    pub fn at_table(mut self, place: Place<Box<dyn Playable>>) -> App {
        self.place = Some(place);
        self
    }

    /// The table this game is shared at, if any.
    pub fn place(&self) -> Option<&Place<Box<dyn Playable>>> {
        self.place.as_ref()
    }

    /// Takes in the shared game after a move made at another screen of the table: the
    /// panes show it and the message line tells the move (a room's computer's book move
    /// as such, known by its name). The game shown already is left as it is.
    pub fn sync(&mut self, game: Box<dyn Playable>) {
        let last = |g: &dyn Playable| g.history().last().map(|r| r.text.clone());
        if game.ply() == self.game.ply() && last(game.as_ref()) == last(self.game.as_ref()) {
            return;
        }
        self.game = game;
        self.after_change();
        let book = self.game.history().last().is_some_and(|rec| {
            opponent::last_ply_from_book(self.game.as_ref(), rec, &self.recorder.players)
        });
        self.tell_last_move(book, false);
    }

    /// Sets who may ask for hints and the hint searches shared with other screens.
    pub fn set_hint_rules(&mut self, rules: opponent::HintRules) {
        self.computer.set_hint_rules(rules);
    }

    /// Names the players (shown in results and at a table).
    pub fn set_players(&mut self, players: Players) {
        self.recorder.players = players;
    }

    /// "game over: Ann wins: a king was captured with certainty".
    fn game_over_words(&self) -> String {
        let reason = self.game.end_reason().unwrap_or_default();
        format!("game over: {}: {reason}", self.result_words())
    }

    /// The result in the players' names (`Ann wins`, `draw`).
    pub fn result_words(&self) -> String {
        prompts::result_words(self.status(), &self.recorder.players)
    }

    /// Where the board and the panes were last drawn (what the mouse hits).
    pub fn hits(&self) -> Hits {
        self.hits.clone()
    }

    /// Keeps what the last drawing learned ([`super::draw`]).
    pub fn took(&mut self, drawn: Drawn) {
        self.hits = drawn.hits;
        if let Some(pages) = drawn.help_pages {
            self.help_pages = pages;
        }
        if let (Some(hidden), Some(ins)) = (drawn.inspector_hidden, &mut self.inspector) {
            ins.drawn_hiding(hidden);
        }
        if let (Some(hidden), Some(run)) = (drawn.lesson_hidden, &mut self.lesson) {
            run.hidden = hidden;
        }
        if let (Some(hidden), Some(run)) = (drawn.lesson_hidden, &mut self.puzzle) {
            run.hidden = hidden;
        }
    }

    /// The yes/no question shown, if any.
    pub fn question(&self) -> Option<&Question> {
        self.question.as_ref()
    }

    /// What to print on the restored terminal after leaving: where the game is saved and
    /// how to play on (nothing for a replay or a game without moves).
    pub fn farewell(&self) -> Option<String> {
        if self.replay.as_ref().is_some_and(|r| !r.from_play) {
            return None;
        }
        let ongoing = self.final_status() == Status::Ongoing;
        prompts::farewell(&self.recorder, self.history_game().ply(), ongoing)
    }

    /// Starts with `text` on the message line (unless the game is already over).
    pub fn announce(mut self, text: impl Into<String>) -> App {
        if self.status() == Status::Ongoing {
            self.say(Tone::Info, text);
        }
        self
    }

    /// Steps through the game played so far, from its start position.
    pub fn into_replay(mut self) -> App {
        let full = self.game.clone_box();
        self.replay = Some(Replay {
            full,
            ply: 0,
            from_play: false,
        });
        self.show_ply(0);
        self.finish_work();
        self.say(Tone::Plain, REPLAY_WELCOME);
        self
    }

    /// `R` once a game played here is over: the game's replay, at its last ply, and its
    /// review there, kept in the file the game is saved in. Refused while the game goes
    /// on, in a lesson or puzzle, and at a table of `qchess serve` (whose reviews are
    /// made from the room's saved file, off the server).
    pub(super) fn review_ended_game(&mut self) {
        let refusal = if self.place.is_some() {
            Some("no reviews at a table: the server keeps its cores for the games")
        } else if self.lesson.is_some() || self.puzzle.is_some() {
            Some("lessons and puzzles have no review: R reviews a game once it is over")
        } else if self.status() == Status::Ongoing {
            Some("R reviews the game once it is over")
        } else {
            None
        };
        if let Some(r) = refusal {
            return self.say(Tone::Plain, r);
        }
        self.mode = Mode::Idle;
        self.selected_move = None;
        self.game_over_popup = false;
        self.replay = Some(Replay {
            full: self.game.clone_box(),
            ply: self.game.ply(),
            from_play: true,
        });
        self.reviewing.source = prompts::kept_in(&self.recorder).map(|k| k.file().to_path_buf());
        self.review_key();
    }

    /// The game being played, or in replay the state at the shown ply.
    pub fn game(&self) -> &dyn Playable {
        self.game.as_ref()
    }

    /// The Quantum Chess game, when this is one (for its circuit, inspector and engine).
    pub fn quantum(&self) -> Option<&Game> {
        self.game.quantum()
    }

    /// The replay, while stepping through a game.
    pub fn replay(&self) -> Option<&Replay> {
        self.replay.as_ref()
    }

    /// The game whose moves the history pane lists: the whole game in replay.
    pub fn history_game(&self) -> &dyn Playable {
        self.replay
            .as_ref()
            .map_or(self.game.as_ref(), |r| r.full.as_ref())
    }

    /// Where the game is saved.
    pub fn recorder(&self) -> &Recorder {
        &self.recorder
    }

    /// The colours the game is drawn with.
    pub fn paint(&self) -> &Paint {
        &self.paint
    }

    /// The message line.
    pub fn message(&self) -> &Message {
        &self.message
    }

    /// What the player is in the middle of.
    pub fn mode(&self) -> &Mode {
        &self.mode
    }

    /// The square under the cursor.
    pub fn cursor(&self) -> Square {
        self.cursor
    }

    /// True once the player asked to quit.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// The pane shown below the board on small screens.
    pub fn drawer(&self) -> Drawer {
        self.drawer
    }

    /// True while the help is shown.
    pub fn help_shown(&self) -> bool {
        self.help
    }

    /// The help page shown (the help turns its pages on small screens).
    pub fn help_page(&self) -> usize {
        self.help_page
    }

    /// The explanation of the shown move while it is open: who played what, and the
    /// explanation's lines.
    pub fn explanation(&self) -> Option<(String, Vec<String>)> {
        if !self.explaining {
            return None;
        }
        let i = self.shown_move()?;
        let rec = self.game.history().get(i)?;
        let title = format!("ply {}: {} {}", i + 1, rec.color.name(), rec.text);
        Some((title, rec.explanation.lines()))
    }

    /// Opens the explanation of the shown move, or says there is none yet.
    fn open_explanation(&mut self) {
        if self.shown_move().is_none() {
            self.say(Tone::Plain, "no move yet: e explains the shown move");
        } else {
            self.explaining = true;
            self.lesson_key_goal(super::lesson::Met::Explained);
        }
    }

    /// True while the game-over popup is shown.
    pub fn game_over_shown(&self) -> bool {
        self.game_over_popup
    }

    /// The inspector, while it is open.
    pub fn inspector(&self) -> Option<&Inspector> {
        self.inspector.as_ref()
    }

    /// The history entry whose circuit (or trace) is shown (the last move unless one was
    /// picked).
    pub fn shown_move(&self) -> Option<usize> {
        steps::shown(self.selected_move, self.game.ply())
    }

    /// Which keys are live now.
    pub fn input_mode(&self) -> InputMode {
        if self.help || self.explaining {
            return InputMode::Help;
        }
        if self.question.is_some() {
            return InputMode::Question;
        }
        if self.lesson.as_ref().is_some_and(|r| r.list.is_some())
            || self.puzzle.as_ref().is_some_and(|r| r.list.is_some())
        {
            return InputMode::List;
        }
        match self.mode {
            Mode::Prompt { .. } => InputMode::Prompt,
            Mode::Promotion { .. } => InputMode::Promotion,
            _ if self.replay.is_some() => InputMode::Replay,
            _ if self.lesson.is_some() || self.puzzle.is_some() => InputMode::Lesson,
            _ if self.game.quantum().is_some() => InputMode::Board,
            _ => InputMode::Variant,
        }
    }

    /// Carries out moves, take-backs and replay steps on worker threads (`Background`,
    /// as the terminal does) or on the calling thread (`Inline`, the default: the work is
    /// done when the key returns).
    pub fn set_exec(&mut self, exec: Exec) {
        self.exec = exec;
    }

    /// The work being carried out, once it has taken long enough to show: what it is and
    /// how long it has run.
    pub fn busy(&self) -> Option<(&str, Duration)> {
        self.pending.as_ref()?.busy()
    }

    /// Whether a move, a take-back or a replay step is being carried out (shown or not
    /// yet).
    pub fn carrying_out(&self) -> bool {
        self.pending.is_some()
    }

    /// Whether work is being carried out (shown or not yet), or the computer thinks
    /// (or waits to move in a watched game).
    pub fn working(&self) -> bool {
        self.pending.is_some()
            || self.computer.busy()
            || self.reviewing.running()
            || self.clocks.running()
    }

    /// Takes in work that finished on its worker thread, and the computer's progress and
    /// answer. True when the screen should be drawn again: the work finished, or the
    /// busy line's time moved on, or the computer thinks.
    pub fn tick(&mut self) -> bool {
        let worked = self.tick_work() | self.tick_review() | self.tick_clock();
        if self.pending.is_some() {
            return worked;
        }
        let changed = opponent::tick(self) || worked;
        if self.computer.hint().is_some() {
            self.lesson_key_goal(super::lesson::Met::Hinted);
        }
        changed
    }

    /// Takes in the work on a worker thread (see [`App::tick`]).
    fn tick_work(&mut self) -> bool {
        let Some(p) = &self.pending else {
            return false;
        };
        let Some(result) = p.result() else {
            return p.shown();
        };
        if let Some(p) = self.pending.take() {
            self.finish(p.job, result);
        }
        true
    }

    /// Waits for the work being carried out and takes it in, and for the computer's
    /// search (not for a watched game's next move, which waits for its pause).
    pub fn finish_work(&mut self) {
        while self.pending.is_some() || self.computer.thinking().is_some() {
            self.tick();
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Whether the computer plays the side to move in the game being played.
    pub(super) fn computer_to_move(&self) -> bool {
        self.replay.is_none()
            && self.status() == Status::Ongoing
            && self.computer.plays(self.game.to_move())
    }

    /// What starts the computer's search for `purpose` in the game as it is: the
    /// engine in Quantum Chess; elsewhere a greedy search on a copy, on its own thread.
    fn search(&mut self, purpose: ThinkingFor) -> Box<dyn FnOnce() -> crate::engine::Thinking> {
        let side = self.game.to_move();
        if self.game.quantum().is_some() {
            let mut player = self.computer.player(purpose, side);
            let game = self.game.clone_box();
            // On a clock the computer's own moves spend its clock's time.
            let clock = self.clocks.times().filter(|_| purpose == ThinkingFor::Move);
            return Box::new(move || match clock {
                Some(times) => player.think_on_clock(game.as_ref(), &times),
                None => player.think(game.as_ref()),
            });
        }
        let copy = self.game.clone_box();
        let seed = self.game.setup().options.seed ^ self.game.ply() as u64;
        Box::new(move || {
            crate::engine::Thinking::spawn(move |_, _| {
                crate::engine::variant::greedy_variant(copy.as_ref(), seed)
            })
        })
    }

    /// `H`: the computer's best move for the side to move, searched off the screen's
    /// thread.
    fn ask_hint(&mut self) {
        if self.status() != Status::Ongoing {
            return self.say(Tone::Error, "the game is over: there is no move to hint");
        }
        if self.computer_to_move() {
            return self.say(Tone::Error, opponent::wait_words(self.game.to_move()));
        }
        let (side, ply) = (self.game.to_move(), self.game.ply());
        let watching = self.place.as_ref().is_some_and(|p| p.seat == Seat::Watches);
        let search = self.search(ThinkingFor::Hint);
        match self.computer.start_hint(watching, side, ply, search) {
            Ok(()) => self.say(
                Tone::Plain,
                format!("looking for a move for {}...", side.name()),
            ),
            Err(why) => self.say(Tone::Error, why),
        }
    }

    /// Runs `job`'s work `f` here or on a worker thread (see [`App::set_exec`]); `f`
    /// gets the flag that Esc sets, and gives the game the job leads to (watching no
    /// flag). The panes' view of it is computed there too. [`App::finish`] takes the
    /// result in.
    fn run_job(
        &mut self,
        job: Job,
        f: impl FnOnce(CancelFlag) -> Result<Box<dyn Playable>, String> + Send + 'static,
    ) {
        self.run_checked(job, None, f);
    }

    /// As [`App::run_job`], first looking at the move with `check` (there too): a move
    /// it finds risky is held back, unplayed, to be asked about.
    fn run_checked(
        &mut self,
        job: Job,
        check: Option<KingCheck>,
        f: impl FnOnce(CancelFlag) -> Result<Box<dyn Playable>, String> + Send + 'static,
    ) {
        let cursor = self.cursor;
        let work = move |cancel| {
            if let Some(threat) = check.and_then(|c| c.risk()) {
                return Ok(Led::Risky(threat));
            }
            let game = f(cancel)?;
            let view = view_of(game.as_ref(), cursor);
            Ok(Led::Game(game, view))
        };
        match self.exec {
            Exec::Inline => {
                let result = work(CancelFlag::default());
                self.finish(job, result);
            }
            Exec::Background => {
                self.pending = Some(Pending::start(job, work));
            }
        }
    }

    /// Runs `job` on a copy of the game that watches the flag Esc sets while `f` changes
    /// it (see [`App::run_job`]).
    fn on_copy(
        &mut self,
        job: Job,
        game: Box<dyn Playable>,
        f: impl FnOnce(&mut dyn Playable) -> Result<(), String> + Send + 'static,
    ) {
        self.run_job(job, copied(game, f));
    }

    /// `q`, Ctrl-C and Esc while work is pending (finished or not): quit, or cancel the
    /// work (dropping it sets its cancel flag; its result is thrown away). True when the
    /// key was one of them.
    fn stop_key(&mut self, key: KeyEvent) -> bool {
        match input::press(key) {
            input::Press::Interrupt | input::Press::Key(KeyCode::Char('q')) => self.quit = true,
            input::Press::Key(KeyCode::Esc) => {
                if let Some(p) = self.pending.take() {
                    self.queued_steps = 0;
                    let typed = matches!(
                        p.job,
                        Job::Move {
                            by: MoveBy::Typed,
                            ..
                        }
                    );
                    if !typed && !matches!(self.mode, Mode::Prompt { .. }) {
                        self.mode = Mode::Idle;
                    }
                    self.say(Tone::Plain, p.job.cancelled());
                }
            }
            _ => return false,
        }
        true
    }

    /// Handles one terminal event; a resize needs nothing here (the next draw fits the
    /// new size).
    pub fn handle_event(&mut self, event: Event) {
        if let Event::Key(k) = event {
            return self.handle_key(k);
        }
        // Work that has just finished is taken in before the event.
        self.tick();
        if self.pending.is_some() {
            return;
        }
        match event {
            Event::Mouse(m) => self.handle_mouse(m),
            Event::Paste(text) => {
                if let Mode::Prompt { line, .. } = &mut self.mode {
                    line.paste(&text);
                }
            }
            _ => {}
        }
    }

    /// Handles one mouse event, hit-tested against the screen as last drawn: a click on
    /// a square acts as moving the cursor there and pressing Enter (a drag from a piece
    /// to a target too), the wheel scrolls the history and the circuit (or trace), a
    /// click in the history picks a move, the right button cancels as Esc does.
    pub fn handle_mouse(&mut self, ev: MouseEvent) {
        let Some(g) = mouse::gesture(&self.hits, ev) else {
            return;
        };
        let shown = OnScreen {
            help: self.help,
            game_over: self.game_over_popup,
            question: self.question.is_some(),
            replay: self.replay.is_some(),
            targets: !self.mode.targets().is_empty(),
        };
        let quantum = self.game.quantum().is_some();
        match self.pointer.act(g, shown) {
            // A trace pane does not scroll sideways.
            Some(Act::Action(Action::CircuitLeft | Action::CircuitRight)) if !quantum => {}
            Some(Act::Action(a)) => self.update(a),
            Some(Act::Square(sq)) => self.click_square(sq),
            Some(Act::Move(i)) => self.click_move(i),
            Some(Act::Ply(ply)) => self.click_graph(ply),
            None => {}
        }
    }

    /// A click on `sq`: the cursor goes there and the square is picked as Enter would
    /// (in replay, with the inspector closed, only the cursor moves). With nothing
    /// selected, a square that cannot start a move only gets the cursor, and the reason
    /// is told as a hint.
    fn click_square(&mut self, sq: Square) {
        match self.mode {
            Mode::Promotion { .. } => {
                return self.say(
                    Tone::Error,
                    "choose the new piece: q queen, r rook, b bishop, n knight (Esc cancels)",
                )
            }
            Mode::Choice { .. } => {
                return self.say(
                    Tone::Error,
                    "pick the promotion by its letter (Esc cancels)",
                )
            }
            // A click on the board leaves the typed line.
            Mode::Prompt { .. } => self.mode = Mode::Idle,
            _ => {}
        }
        self.cursor = sq;
        if let Some(g) = self.game.quantum() {
            self.view.focus(g, sq);
        }
        if self.replay.is_some() && self.inspector.is_none() {
            return;
        }
        if self.mode == Mode::Idle && self.inspector.is_none() {
            let why = match self.game.quantum() {
                Some(_) => self.source_error(sq),
                None => self.listed_source_error(sq),
            };
            if let Some(why) = why {
                return self.say(Tone::Plain, why);
            }
        }
        self.update(Action::Select);
    }

    /// A click on move `i` in the history: its circuit (or trace) is shown (in replay,
    /// the game after it).
    fn click_move(&mut self, i: usize) {
        if let Some(r) = &self.replay {
            let by = (i + 1) as i64 - r.ply as i64;
            return self.step_ply(by);
        }
        self.selected_move = steps::repick(i, 0, self.game.ply());
        self.circuit_scroll = (0, 0);
    }

    /// Handles one key press.
    pub fn handle_key(&mut self, key: KeyEvent) {
        // q, Ctrl-C and Esc act on pending work at once; before any other key, work
        // that has just finished is taken in, so that quick steps (a replay's →) never
        // swallow the next key.
        if self.pending.is_some() && self.stop_key(key) {
            return;
        }
        self.tick();
        if let Some(p) = &self.pending {
            // A replay's steps are kept, to be taken once the step being shown is in;
            // other keys do nothing while work runs.
            let step = input::translate(self.input_mode(), key);
            if let (Job::Ply { .. }, Some(Action::PlyStep(by))) = (&p.job, step) {
                self.queued_steps += by;
            }
            return;
        }
        if let KeyCode::Char(c) = key.code {
            if self.choose_listed(c) {
                return;
            }
        }
        match input::translate(self.input_mode(), key) {
            Some(a) => self.update(a),
            None => self.unmapped(key),
        }
    }

    fn unmapped(&mut self, key: KeyEvent) {
        // Any key cancels a risky move: only `y` plays it.
        let risky = matches!(self.question, Some(Question::KingRisk { .. }));
        if risky && input::press(key) != input::Press::Ignored {
            if let Some(q) = self.question.take() {
                return self.answer_king_risk(q, Action::No);
            }
        }
        // Quantum Chess names a stray key on the board only; the others anywhere.
        let listed = self.game.quantum().is_none();
        match (self.input_mode(), key.code) {
            (InputMode::Promotion, _) => self.say(
                Tone::Error,
                "choose the new piece: q queen, r rook, b bishop, n knight (Esc cancels)",
            ),
            (mode, KeyCode::Char(c)) if listed || mode == InputMode::Board => self.say(
                Tone::Error,
                format!("the key '{c}' does nothing here: press ? for the keys"),
            ),
            _ => {}
        }
    }

    pub(super) fn say(&mut self, tone: Tone, text: impl Into<String>) {
        let mut text = text.into();
        // A warning about the player's king stays on the message line until the next
        // move, whatever else it says meanwhile (in a game: lessons and puzzles say
        // their own words).
        let game = self.replay.is_none()
            && self.lesson.is_none()
            && self.puzzle.is_none()
            && self.ending.is_none()
            && self.status() == Status::Ongoing;
        if let Some(w) = self.warning.as_ref().filter(|_| game) {
            if !text.contains(w.as_str()) {
                text = format!("{text}. {w}");
            }
        }
        self.set_message(Message { text, tone });
    }

    /// Applies one action.
    pub fn update(&mut self, action: Action) {
        if action == Action::Interrupt {
            self.quit = true;
            return;
        }
        if self.explaining {
            // Any key closes the explanation.
            self.explaining = false;
            return;
        }
        if self.help {
            // Esc and q close the help at once; any other key turns the page, and
            // after the last page closes it.
            let close = action == Action::Cancel;
            if !close && self.help_page + 1 < self.help_pages {
                self.help_page += 1;
                return;
            }
            self.help = false;
            self.help_page = 0;
            return;
        }
        if let Some(q) = self.question.take() {
            return match q {
                Question::Resign { .. } | Question::OfferDraw { .. } | Question::Draw { .. } => {
                    self.answer_decision(q, action)
                }
                Question::KingRisk { .. } => self.answer_king_risk(q, action),
                q => self.answer(q, action),
            };
        }
        if self.lesson_action(action) || self.puzzle_action(action) {
            return;
        }
        if self.inspector.is_some() && self.inspecting(action) {
            return;
        }
        let quantum = self.game.quantum().is_some();
        match action {
            Action::Inspect if !quantum => self.say(
                Tone::Plain,
                "the inspector (Bell values, entanglement) belongs to Quantum Chess",
            ),
            Action::Inspect => self.open_inspector(),
            Action::Select
            | Action::Split
            | Action::Merge
            | Action::QuantumMove
            | Action::Prompt
            | Action::Undo
            | Action::NewGame
                if self.replay.is_some() =>
            {
                let inspects = if quantum { ", i inspects" } else { "" };
                self.say(
                    Tone::Error,
                    format!("this is a replay: p plays on from the shown ply{inspects}"),
                )
            }
            Action::Hint | Action::Pause if self.replay.is_some() => self.say(
                Tone::Error,
                "this is a replay: R reviews every move with the engine; p plays on from here, then H gives hints",
            ),
            Action::Cursor(dx, dy) => self.move_cursor(dx, dy),
            Action::Select | Action::Split | Action::Merge | Action::QuantumMove
                if self.computer_to_move() && self.mode == Mode::Idle =>
            {
                self.say(Tone::Error, opponent::wait_words(self.game.to_move()))
            }
            Action::Select if quantum => self.select(),
            Action::Select => self.select_listed(false),
            Action::QuantumMove if quantum => self.say(
                Tone::Error,
                "t makes quantum moves in the harmonics variant; here s splits and m merges",
            ),
            Action::QuantumMove => self.select_listed(true),
            Action::Split | Action::Merge if !quantum => self.say(
                Tone::Error,
                "splits and merges belong to Quantum Chess; harmonics has quantum moves (t)",
            ),
            Action::Split => self.start_split(),
            Action::Merge => self.start_merge(),
            Action::Hint => self.ask_hint(),
            Action::Pause => self.pause(),
            Action::Cancel if self.reviewing.running() => self.stop_review(),
            Action::Cancel => self.cancel(),
            Action::Prompt => {
                let hint = self.game.typing_hint();
                self.mode = Mode::Prompt {
                    line: LineEdit::empty(),
                    purpose: Purpose::Move,
                };
                self.say(Tone::Plain, hint);
            }
            Action::Save if self.place.is_some() => self.say(Tone::Info, table::NO_SAVE),
            Action::Save => self.ask_save_path(),
            Action::PlyStep(d) => self.step_ply(d),
            Action::PlyFirst => self.step_ply(i64::MIN / 2),
            Action::PlyLast => self.step_ply(i64::MAX / 2),
            Action::GotoPly => {
                self.mode = Mode::Prompt {
                    line: LineEdit::empty(),
                    purpose: Purpose::GotoPly,
                };
                self.say(
                    Tone::Plain,
                    "type a ply number, Enter shows it, Esc cancels",
                );
            }
            Action::PlayFromHere => self.play_from_here(),
            Action::Review => self.review_key(),
            Action::Resign => self.resign_key(),
            Action::OfferDraw => self.draw_key(),
            Action::MarkPrev => self.jump_marked(-1),
            Action::MarkNext => self.jump_marked(1),
            Action::Undo => self.undo(),
            Action::Flip => self.flipped = !self.flipped,
            Action::NextPane => {
                self.drawer = self.drawer.next();
                let name = self.drawer.name(if quantum { "circuit" } else { "trace" });
                self.say(
                    Tone::Plain,
                    format!("small screens show the {name} below the board"),
                );
            }
            Action::Help => self.help = true,
            Action::Explain => self.open_explanation(),
            Action::NextLesson | Action::RestartLesson | Action::LessonList | Action::ShowBest => {
                self.say(
                    Tone::Plain,
                    "lessons: qchess learn; puzzles: qchess puzzles play",
                )
            }
            Action::Quit => self.ask_quit(),
            Action::Interrupt => self.quit = true,
            Action::Yes | Action::No => {}
            Action::NewGame => self.new_game(),
            Action::HistoryPrev => self.pick_move(-1),
            Action::HistoryNext => self.pick_move(1),
            Action::CircuitUp | Action::CircuitDown if !quantum => {
                let by = if action == Action::CircuitUp { -3 } else { 3 };
                let rows = (self.circuit_scroll.1 as i32 + by).max(0);
                self.circuit_scroll.1 = rows.min(u16::MAX as i32) as u16;
            }
            Action::CircuitView
            | Action::CircuitLeft
            | Action::CircuitRight
            | Action::Promote(_)
                if !quantum =>
            {
                self.say(
                    Tone::Plain,
                    "this variant has no circuit: the trace pane lists what each move did",
                )
            }
            Action::CircuitView => {
                self.circuit_view = self.circuit_view.next();
                self.say(
                    Tone::Plain,
                    format!("circuit shown as: {}", self.circuit_view.describe()),
                );
            }
            Action::CircuitLeft => self.scroll_circuit(-8, 0),
            Action::CircuitRight => self.scroll_circuit(8, 0),
            Action::CircuitUp => self.scroll_circuit(0, -3),
            Action::CircuitDown => self.scroll_circuit(0, 3),
            Action::Promote(k) => self.promote(k),
            Action::Edit(e) => {
                if let Mode::Prompt { line, .. } = &mut self.mode {
                    line.edit(e);
                }
            }
            Action::Recall => {
                if let Mode::Prompt {
                    line,
                    purpose: Purpose::Move,
                } = &mut self.mode
                {
                    *line = LineEdit::with_text(self.last_typed.clone());
                }
            }
            Action::Submit => self.submit(),
        }
    }

    /// Shows ply `ply` of the replayed game (clamped to the game), replayed here or on a
    /// worker thread.
    fn show_ply(&mut self, ply: usize) {
        let Some(r) = &self.replay else {
            return;
        };
        let texts: Vec<String> = r.full.history().iter().map(|p| p.text.clone()).collect();
        let ply = ply.min(texts.len());
        // Forward by one ply plays one move on the shown state; anything else replays.
        if ply == r.ply + 1 && self.game.ply() == r.ply {
            let text = texts[ply - 1].clone();
            return self.on_copy(Job::Ply { ply }, self.game.clone_box(), move |g| {
                g.play(&text)
                    .map(|_| ())
                    .map_err(|e| format!("ply {ply} does not replay: {e}"))
            });
        }
        let setup = r.full.setup();
        self.run_job(Job::Ply { ply }, move |cancel| {
            let mut game = crate::variants::replay(&setup, &texts[..ply], Some(cancel)).map_err(
                |e| match e {
                    ReplayError::Move { ply, reason, .. } => {
                        format!("ply {ply} does not replay: {reason}")
                    }
                    e => e.to_string(),
                },
            )?;
            game.set_cancel(None);
            Ok(game)
        });
    }

    /// Takes in the replay's state at `ply`.
    fn took_in_ply(&mut self, ply: usize, view: View) {
        let Some(r) = &mut self.replay else {
            return;
        };
        r.ply = ply;
        let n = r.full.ply();
        if let (Some(ins), Some(g)) = (&mut self.inspector, self.game.quantum()) {
            ins.refresh(g);
        }
        self.mode = Mode::Idle;
        self.selected_move = None;
        self.circuit_scroll = (0, 0);
        self.view = view;
        self.game_over_popup = false;
        let last = self.game.history().last().cloned();
        let book = last.as_ref().is_some_and(|rec| {
            opponent::last_ply_from_book(self.game.as_ref(), rec, &self.recorder.players)
        });
        let mut said = steps::ply_said(ply, n, last.as_ref(), book);
        if let Some(v) = self.reviewing.verdict(ply).filter(|v| v.said()) {
            said = format!("{} · {said}", v.words());
        }
        if let Some(e) = self.ending.as_ref().filter(|_| ply == n) {
            said = format!("{said}; then {}", e.reason);
        }
        self.say(Tone::Info, said);
    }

    pub(super) fn step_ply(&mut self, by: i64) {
        let Some(r) = &self.replay else {
            return;
        };
        let n = r.full.ply();
        self.show_ply(steps::ply_after(r.ply, by, n));
    }

    /// Leaves the replay and plays on from the shown ply as a new game.
    fn play_from_here(&mut self) {
        let Some(r) = self.replay.take() else {
            return;
        };
        self.recorder.restart(crate::record::now_secs());
        self.after_change();
        let said = match self.status() {
            Status::Ongoing => format!(
                "a new game from ply {}: {} to move",
                r.ply,
                self.game.to_move().name()
            ),
            s => format!(
                "a new game from ply {}, already over: {}",
                r.ply,
                s.describe()
            ),
        };
        self.say(Tone::Info, said);
        self.autosave();
        self.computer_turn();
    }

    /// Writes the autosave; a failure is added to the message line, never fatal.
    pub(super) fn autosave(&mut self) {
        let saved = self.record();
        self.recorder.changed(&saved);
        if let Some(m) = prompts::autosave_message(&self.recorder, &saved, &self.message) {
            self.set_message(m);
        }
    }

    fn goto_ply(&mut self, typed: &str) {
        match typed.parse::<usize>() {
            Ok(p) => {
                let current = self.replay.as_ref().map_or(0, |r| r.ply) as i64;
                self.mode = Mode::Idle;
                self.step_ply(p as i64 - current);
            }
            Err(_) => self.say(
                Tone::Error,
                format!("{typed:?} is not a ply number (0 is the start)"),
            ),
        }
    }

    fn move_cursor(&mut self, dx: i8, dy: i8) {
        let (dx, dy) = if self.flipped { (-dx, -dy) } else { (dx, dy) };
        if let Some(s) = self.cursor.offset(dx as i32, dy as i32) {
            self.cursor = s;
            if let Some(g) = self.game.quantum() {
                self.view.focus(g, s);
            }
        }
    }

    fn cancel(&mut self) {
        if self.mode != Mode::Idle {
            self.mode = Mode::Idle;
            self.say(Tone::Plain, "cancelled");
        } else if self.computer.hide_hint() {
            self.say(Tone::Plain, "hint hidden");
        } else if let Some(purpose) = self.computer.thinking() {
            match purpose {
                ThinkingFor::Move => self.hurry(),
                ThinkingFor::Hint => {
                    self.computer.forget();
                    self.say(Tone::Plain, "hint stopped");
                }
            }
        } else if self.game_over_popup {
            self.game_over_popup = false;
            let words = match (self.place.is_some(), self.take_back_rule().is_ok()) {
                (true, _) => "the game is over: q leaves the room",
                (false, true) => "the game is over: R review it, n new game, u take back, q quit",
                (false, false) => "the game is over: R review it, n new game, q quit",
            };
            self.say(Tone::Plain, words);
        }
    }

    /// Why this screen may not move now: at a table, only the seat to move may.
    pub(super) fn seat_error(&self) -> Option<String> {
        let place = self.place.as_ref()?;
        place.refusal(self.game.to_move(), &self.recorder.players)
    }

    fn submit(&mut self) {
        let Mode::Prompt { line, purpose } = &self.mode else {
            return;
        };
        let input = line.text().trim().to_string();
        match purpose {
            Purpose::SavePath if input.is_empty() => {
                return self.say(Tone::Error, "type a file name to save to (Esc cancels)")
            }
            Purpose::SavePath => return self.save_typed_path(&input),
            Purpose::GotoPly => return self.goto_ply(&input),
            Purpose::Move => {}
        }
        // The line closes whatever happens; the message says what did, and Up on the
        // next line brings the text back.
        self.mode = Mode::Idle;
        if self.computer_to_move() {
            self.last_typed = input;
            return self.say(Tone::Error, opponent::wait_words(self.game.to_move()));
        }
        if input.is_empty() {
            return self.say(Tone::Plain, "no move typed");
        }
        self.last_typed = input.clone();
        if let Some(said) = self.over_words() {
            return self.say(Tone::Error, said);
        }
        match self.game.quantum() {
            Some(_) => self.submit_quantum(&input),
            None => self.submit_listed(&input),
        }
    }

    /// Plays `input` (given `by` the player or the computer), here or on a worker
    /// thread (see [`App::set_exec`]); [`App::finish`] tells the player.
    pub(super) fn play(&mut self, input: &str, by: MoveBy) {
        if self.replay.is_some() {
            return self.say(
                Tone::Error,
                "this is a replay: p plays on from the shown ply",
            );
        }
        if let Some(why) = self.seat_error() {
            self.mode = Mode::Idle;
            return self.say(Tone::Error, why);
        }
        // A finished game never changes: no move is entered, so no clock runs again.
        if let Some(said) = self.over_words() {
            self.mode = Mode::Idle;
            return self.say(Tone::Error, said);
        }
        self.clock_entered();
        let owned = input.to_string();
        let job = Job::Move {
            input: owned.clone(),
            by,
        };
        // A move that would put the player's safe king in danger is looked at first, on
        // the same worker thread, and held back to be asked about.
        let check = self.king_check(input, by);
        if let Some(place) = &self.place {
            // A shared game: the room plays the move and hands back its game.
            let (table, side, ply) = (
                Arc::clone(&place.table),
                self.game.to_move(),
                self.game.ply(),
            );
            return self.run_checked(job, check, move |cancel| {
                table.play(side, ply, &owned, cancel)
            });
        }
        // The move is played on a copy: the screen keeps drawing this game, and a
        // cancelled move leaves it as it was.
        let work = copied(self.game.clone_box(), move |g| {
            g.play(&owned).map(|_| ()).map_err(|e| e.to_string())
        });
        self.run_checked(job, check, work);
    }

    /// Takes in what `job` led to (the game and its view) and tells the player, or says
    /// why it could not be done (the game is then unchanged).
    fn finish(&mut self, job: Job, result: Result<Led, String>) {
        let (game, view) = match result {
            Ok(Led::Game(game, view)) => (game, view),
            Ok(Led::Risky(threat)) => {
                // The player decides on the clock, as before the move was entered.
                self.clock_refused();
                return self.ask_king_risk(job, &threat);
            }
            Err(e) => {
                if matches!(job, Job::Move { .. }) {
                    self.clock_refused();
                }
                self.queued_steps = 0;
                self.say(Tone::Error, job.failed(&e));
                // A refused target keeps the selected piece; a refused promotion ends
                // the question. (A typed move's line is closed already.)
                if matches!(self.mode, Mode::Promotion { .. } | Mode::Choice { .. }) {
                    self.mode = Mode::Idle;
                }
                return;
            }
        };
        self.game = game;
        match job {
            Job::Move { by, .. } => {
                self.clock_moved();
                self.after_change_with(view);
                let own = !matches!(by, MoveBy::Computer { .. });
                self.tell_last_move(by == MoveBy::Computer { book: true }, own);
                self.autosave();
                if self.computer.sides().both() {
                    self.computer.delay_next();
                }
                self.computer_turn();
            }
            Job::Undo { taken } => {
                self.after_change_with(view);
                let to_move = self.game.to_move().name();
                self.say(Tone::Info, format!("took back {taken}; {to_move} to move"));
                self.autosave();
                self.computer_turn();
            }
            Job::Ply { ply } => {
                self.took_in_ply(ply, view);
                let by = std::mem::take(&mut self.queued_steps);
                if by != 0 {
                    self.step_ply(by);
                }
            }
        }
    }

    /// Tells what the last move did (and that it came from the computer's opening
    /// `book`), warns when it left a king of this screen's player likely to be captured,
    /// and tells the result when it ended the game. A move not made here (`own` false:
    /// the computer's, or one from another screen of the table) that answers the move
    /// made here is told after that move, so both stay readable: "white played ...
    /// Reply: black played ...".
    fn tell_last_move(&mut self, book: bool, own: bool) {
        let Some(last) = self.game.history().last().cloned() else {
            return;
        };
        let mut said = if book {
            steps::book_ply_words(&last)
        } else {
            steps::ply_words(&last)
        };
        self.warning = self.king_warning(last.color);
        let ply = self.game.ply();
        let mine = self
            .own_told
            .take()
            .filter(|(at, _)| !own && at + 1 == ply)
            .map(|(_, mine)| mine);
        if let Some(w) = &self.warning {
            // Said once: the move made here may have said it already.
            if !mine.as_ref().is_some_and(|m| m.ends_with(w.as_str())) {
                said = format!("{said}. {w}");
            }
        }
        if let Some(mine) = mine {
            said = format!("{mine}. Reply: {said}");
        }
        if own {
            self.own_told = Some((ply, said.clone()));
        }
        let said = match self.status() {
            Status::Ongoing => said,
            _ => format!("{said}. Game over: {}", self.result_words()),
        };
        self.say(Tone::Info, said);
        self.judge_lesson_move();
        self.judge_puzzle_move();
    }

    /// The warning about a king of this screen's player after a move by `mover`: the
    /// mover's own king when the mover plays here and it can be captured with a chance
    /// of [`super::king_risk::ASK_AT`] or more, else the same of the side to move (a
    /// watcher, and the computer against itself, get none).
    fn king_warning(&self, mover: crate::chess::Color) -> Option<String> {
        let here = |side| match &self.place {
            Some(p) => p.seat == Seat::Plays(side),
            None => !self.computer.plays(side),
        };
        let t = [mover, mover.opposite()]
            .into_iter()
            .filter(|&side| here(side))
            .find_map(|side| {
                self.view
                    .threat(side)
                    .filter(|t| t.p >= super::king_risk::ASK_AT)
            })?;
        Some(format!(
            "Careful: your king can be captured ({}% by {})",
            crate::format::percent(t.p),
            t.by
        ))
    }

    /// Refreshes everything derived from the game after it changed.
    pub(super) fn after_change(&mut self) {
        let view = view_of(self.game.as_ref(), self.cursor);
        self.after_change_with(view);
    }

    /// As [`App::after_change`], with the view already computed.
    fn after_change_with(&mut self, view: View) {
        // A line being typed stays open: the computer's move may come meanwhile.
        if !matches!(self.mode, Mode::Prompt { .. }) {
            self.mode = Mode::Idle;
        }
        self.computer.hide_hint();
        self.selected_move = None;
        self.circuit_scroll = (0, 0);
        self.view = view;
        // A new move tells its own warning.
        self.warning = None;
        // A lesson or a puzzle says how it ended in its own pane.
        self.game_over_popup =
            self.status() != Status::Ongoing && self.lesson.is_none() && self.puzzle.is_none();
        if let (Some(ins), Some(g)) = (&mut self.inspector, self.game.quantum()) {
            ins.refresh(g);
        }
    }

    /// Takes back the last move (against the computer the last full move, see
    /// [`opponent::Sides::take_back`]), here or on a worker thread.
    fn undo(&mut self) {
        if let Err(why) = self.take_back_rule() {
            return self.say(Tone::Error, why);
        }
        let history = self.game.history();
        let movers: Vec<_> = history.iter().map(|m| m.color).collect();
        let n = match self.computer.sides().take_back(&movers) {
            Ok(n) => n,
            Err(why) => return self.say(Tone::Error, why),
        };
        if self.computer.sides().both() {
            self.computer.set_paused(true);
        }
        // A search for the position being taken back is stopped.
        self.computer.forget();
        let taken = history[history.len() - n..]
            .iter()
            .map(|m| m.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        self.on_copy(Job::Undo { taken }, self.game.clone_box(), move |g| {
            (0..n).try_for_each(|_| g.undo().map_err(|e| e.to_string()))
        });
    }

    fn new_game(&mut self) {
        if self.place.is_some() {
            return self.say(Tone::Error, table::NO_NEW_GAME);
        }
        if self.status() == Status::Ongoing {
            return self.say(
                Tone::Error,
                "n starts a new game once this one is over (q quits)",
            );
        }
        // The same start and options, and new outcomes.
        let mut setup = self.game.setup();
        setup.options.seed = setup.options.seed.wrapping_add(1);
        match crate::variants::new_game(&setup) {
            Ok(game) => self.game = game,
            Err(e) => return self.say(Tone::Error, format!("no new game: {e}")),
        }
        // The same time control, both clocks full again.
        self.ending = None;
        if let Some(control) = self.clocks.control() {
            self.set_clock(control, None);
        }
        self.recorder.restart(crate::record::now_secs());
        self.computer.forget();
        self.after_change();
        self.say(Tone::Info, "new game");
        self.autosave();
        self.computer_turn();
    }

    fn pick_move(&mut self, step: i64) {
        let n = self.game.ply();
        let Some(cur) = self.shown_move() else {
            return self.say(Tone::Error, "no moves yet");
        };
        self.selected_move = steps::repick(cur, step, n);
        self.circuit_scroll = (0, 0);
    }
}

impl Plays for App {
    fn computer_mut(&mut self) -> &mut Computer {
        &mut self.computer
    }

    fn tell(&mut self, tone: Tone, text: &str) {
        self.say(tone, text);
    }

    fn awaited(&self) -> Option<(usize, crate::chess::Color)> {
        self.replay
            .is_none()
            .then(|| (self.game.ply(), self.game.to_move()))
    }

    fn play_computer_move(&mut self, choice: &Choice) {
        let mv = &choice.mv;
        if self.game.quantum().is_some() {
            if let Err(e) = crate::chess::notation::parse(mv) {
                return self.say(Tone::Error, format!("the computer's move {mv}: {e}"));
            }
        }
        let book = choice.from_book;
        self.play(mv, MoveBy::Computer { book });
    }

    fn hint_squares(&self, mv: &str) -> Vec<Square> {
        match self.game.quantum() {
            Some(_) => crate::chess::notation::parse(mv)
                .map(|t| super::board::shape_squares(t.shape))
                .unwrap_or_default(),
            None => self.listed_move_squares(mv),
        }
    }

    fn hint_foresight(&self, mv: &str) -> Option<String> {
        let text = crate::chess::notation::parse(mv).ok()?;
        self.game.quantum()?.foresee(&text).ok()?.foresight()
    }

    /// Starts the computer's search when it is to move (in a watched game once the
    /// pause after the last move is over).
    fn computer_turn(&mut self) {
        let searching = self.computer.thinking() == Some(ThinkingFor::Move);
        if !self.computer_to_move() || self.pending.is_some() || searching {
            return;
        }
        if !self.computer.ready() {
            return;
        }
        let (side, ply) = (self.game.to_move(), self.game.ply());
        let thinking = self.search(ThinkingFor::Move)();
        self.computer.start(ThinkingFor::Move, side, ply, thinking);
    }
}

impl Asking for App {
    fn recorder(&self) -> &Recorder {
        &self.recorder
    }
    fn recorder_mut(&mut self) -> &mut Recorder {
        &mut self.recorder
    }
    fn record(&self) -> SavedGame {
        let mut saved = self.recorder.saved(self.history_game());
        if self.replay.is_some() {
            saved.review = self.reviewing.review().cloned();
        }
        saved.result = self.status();
        saved.reason = self.ending.as_ref().map(|e| e.reason.clone());
        saved.clock = self.clocks.record().cloned();
        saved
    }
    fn playing(&self) -> bool {
        // At a table, leaving loses nothing: the table keeps the game and the seat; a
        // lesson keeps its progress and can be played again.
        self.place.is_none()
            && self.replay.is_none()
            && self.lesson.is_none()
            && self.puzzle.is_none()
            && self.status() == Status::Ongoing
            && self.game.ply() > 0
    }
    fn question_mut(&mut self) -> &mut Option<Question> {
        &mut self.question
    }
    fn set_message(&mut self, m: Message) {
        self.recent.note(&m);
        self.message = m;
    }
    fn open_line(&mut self, purpose: Purpose, line: LineEdit) {
        self.mode = Mode::Prompt { line, purpose };
    }
    fn close_line(&mut self) {
        if let Mode::Prompt { .. } = self.mode {
            self.mode = Mode::Idle;
        }
    }
    fn leave(&mut self) {
        self.quit = true;
    }
}

/// The work that changes the copy `game` with `f`, watching the flag Esc sets.
fn copied(
    mut game: Box<dyn Playable>,
    f: impl FnOnce(&mut dyn Playable) -> Result<(), String> + Send + 'static,
) -> impl FnOnce(CancelFlag) -> Result<Box<dyn Playable>, String> + Send + 'static {
    move |cancel| {
        game.set_cancel(Some(cancel));
        let r = f(game.as_mut());
        game.set_cancel(None);
        r.map(|()| game)
    }
}

/// Why a typed outcome is refused in a game: outcomes are drawn, not picked.
pub(super) fn refused_outcome(input: &str, suffix: &str) -> String {
    format!("{input}: outcomes are drawn at random; type it without {suffix}")
}
