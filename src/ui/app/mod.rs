//! The game screen's state and its update function, for every rule system. Everything
//! the panes show lives here and changes only through [`App::update`]; there is no
//! terminal in it, so tests drive it with key events and draw it on a test backend.
//!
//! This file holds the state and what it tells the panes; beside it, each in its own
//! file, are how keys and the mouse are taken (`keys`), moves and their results
//! (`jobs`), the computer (`computer`), stepping through a game (`replay`), the clocks
//! and the endings outside the rules (`clocks`), the question before a risky move
//! (`king_risk`), lessons (`lesson`), puzzles (`puzzle`) and the review (`review`). The
//! game is a [`Playable`]; what differs between rule systems is how the board picks a
//! move (`quantum_moves` for Quantum Chess's splits and merges, `listed_moves` for
//! rule systems that list their moves) and the side panes ([`super::draw`]).

mod clocks;
mod computer;
mod jobs;
mod keys;
pub mod king_risk;
mod lesson;
pub mod listed_moves;
mod mode;
mod puzzle;
mod quantum_moves;
mod replay;
mod review;
mod steps;

use crate::chess::threat::Threat;
use crate::chess::{Game, Square, Status};
use crate::game::table::Place;
use crate::game::Playable;
use crate::record::{Recorder, SavedGame};
use crate::seats::Occupants;
use crate::style::color::Paint;
use crate::ui::input::line_edit::LineEdit;
use crate::ui::input::mouse::{Hits, Pointer};
use crate::ui::layers::explanation::Explanation;
use crate::ui::layers::inspector::Inspector;
use crate::ui::layers::prompts::{self, Asking};
use crate::ui::layers::question::Question;
use crate::ui::layers::typed_line::{Purpose, TypedLine};
use crate::ui::layers::{Layer, Layers};
use crate::ui::layout::Drawer;
use crate::ui::message::{Message, Tone};
use crate::ui::opponent::{self, Computer, Plays, ThinkingFor};
use crate::ui::panes::drawn::Drawn;
use crate::ui::talk::Talk;
use crate::ui::view::View;
use crate::ui::work::Exec;
pub use mode::{Mode, Replay};
use std::time::Duration;
use steps::Focus;

/// The whole state of the game screen.
#[derive(Debug)]
pub struct App {
    pub(in crate::ui) game: Box<dyn Playable>,
    /// What the Quantum Chess panes show that is costly to compute (empty for the other
    /// rule systems), refreshed after every change.
    pub(in crate::ui) view: View,
    pub(in crate::ui) cursor: Square,
    pub(in crate::ui) flipped: bool,
    pub(in crate::ui) mode: Mode,
    /// The message line, the last messages, the warning about the player's king.
    pub(in crate::ui) talk: Talk,
    /// The history entry whose circuit (or trace) is shown, its scroll and view.
    pub(in crate::ui) focus: Focus,
    /// The overlays shown over the board (help, explanation, question).
    pub(in crate::ui) layers: Layers,
    /// The lesson this screen teaches, if it does.
    pub(in crate::ui) lesson: Option<crate::ui::layers::lesson::Run>,
    /// The puzzles this screen sets, if it does.
    pub(in crate::ui) puzzle: Option<crate::ui::layers::puzzle::Solving>,
    pub(in crate::ui) game_over_popup: bool,
    pub(in crate::ui) quit: bool,
    pub(in crate::ui) paint: Paint,
    /// Where the game is saved and autosaved.
    pub(in crate::ui) recorder: Recorder,
    /// Who sits at each side.
    pub(in crate::ui) occupants: Occupants,
    /// Set while stepping through a game; `game` is then the state at the shown ply.
    pub(in crate::ui) replay: Option<Replay>,
    /// The inspector, while it is open.
    pub(in crate::ui) inspector: Option<Inspector>,
    /// The last move typed on the `:` line (Up brings it back).
    pub(in crate::ui) last_typed: String,
    /// Where the board and panes were last drawn, for the mouse.
    pub(super) hits: Hits,
    /// The mouse pointer (where a drag started).
    pub(super) pointer: Pointer,
    /// The pane below the board in the compact arrangement.
    pub(in crate::ui) drawer: Drawer,
    /// Where moves, take-backs and replay steps are carried out, the one underway and
    /// the keys pressed meanwhile.
    pub(super) work: jobs::Underway,
    /// The computer: the sides it plays, its search, its last score.
    pub(in crate::ui) computer: Computer,
    /// The table whose game this is, when the game is shared (a server room).
    pub(super) place: Option<Place<Box<dyn Playable>>>,
    /// A replay's review, and the work on it.
    pub(in crate::ui) reviewing: crate::ui::layers::review::Reviewing,
    /// The clocks, in a game on a time control.
    pub(in crate::ui) clocks: crate::ui::layers::clocks::Clocks,
    /// How the game ended outside its rules (time, resignation, agreement).
    pub(in crate::ui) ending: Option<crate::game::clock::Ending>,
    /// The opponent at the table who left a rated game, while the win may be claimed
    /// from them.
    pub(super) opponent_left: Option<crate::game::table::Left>,
    /// Whether a move that puts the player's safe king in danger is asked about first
    /// (see [`super::king_risk`]).
    pub(in crate::ui) king_question: bool,
    /// Shown by `qchess serve` to a player far away, outside a room (a game of the
    /// club's archive): nothing is saved on the server and no search of its own runs.
    pub(super) served: bool,
}

/// What a job's work led to.
pub(super) enum Led {
    /// The game as the job left it, and the panes' view of it.
    Game(Box<dyn Playable>, View),
    /// A move held back before it was played: it would leave the mover's safe king
    /// this likely to be captured.
    Risky(Threat),
    /// A puzzle move judged, and the defence's reply.
    Judged(Box<Judged>),
}

/// A puzzle move judged (on a worker thread or here): the try with its judgement, and
/// the game after the defence's reply, with its view and words, when there was one.
pub(super) struct Judged {
    pub(super) attempt: crate::puzzles::Attempt,
    pub(super) replied: Option<(Box<dyn Playable>, View, String)>,
}

/// The panes' costly facts about `game` with the cursor on `cursor` (Quantum Chess).
pub(super) fn view_of(game: &dyn Playable, cursor: Square) -> View {
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
            talk: Talk::default(),
            focus: Focus::default(),
            layers: Layers::default(),
            lesson: None,
            puzzle: None,
            game_over_popup: false,
            quit: false,
            paint: paint.with_ascii(ascii),
            recorder: Recorder::off(),
            occupants: Occupants::default(),
            replay: None,
            inspector: None,
            last_typed: String::new(),
            hits: Hits::default(),
            pointer: Pointer::default(),
            drawer: Drawer::default(),
            work: jobs::Underway::default(),
            computer: Computer::default(),
            place: None,
            reviewing: Default::default(),
            clocks: Default::default(),
            ending: None,
            opponent_left: None,
            king_question: false,
            served: false,
        };
        app.welcome();
        app
    }

    /// The first message: how to move, or the result of a finished game.
    pub(super) fn welcome(&mut self) {
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
        self.computer.line(self.paint.ascii, self.replay.is_some())
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
            opponent::last_ply_from_book(self.game.as_ref(), rec, &self.occupants)
        });
        self.tell_last_move(book, false);
    }

    /// Sets who may ask for hints and the hint searches shared with other screens.
    pub fn set_hint_rules(&mut self, rules: opponent::HintRules) {
        self.computer.set_hint_rules(rules);
    }

    /// Who sits at each side, the recorder keeping their names as they are (a saved
    /// game's names stay as saved).
    pub fn with_occupants(mut self, occupants: Occupants) -> App {
        self.occupants = occupants;
        self
    }

    /// Seats `occupants` at the sides: their names are shown in results and at a table,
    /// and saved.
    pub fn set_players(&mut self, occupants: Occupants) {
        self.recorder.players = occupants.players();
        self.occupants = occupants;
    }

    /// "game over: Ann wins: a king was captured with certainty".
    pub(super) fn game_over_words(&self) -> String {
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
            self.layers.drawn_help(pages);
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
        self.layers.question()
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
        self.talk.message()
    }

    /// What the player is in the middle of on the board.
    pub fn mode(&self) -> &Mode {
        &self.mode
    }

    /// The line being typed at the bottom, while it is open.
    pub fn typed_line(&self) -> Option<&TypedLine> {
        self.layers.typed_line()
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
        self.layers.help().is_some()
    }

    /// The help page shown (the help turns its pages on small screens).
    pub fn help_page(&self) -> usize {
        self.layers.help().map_or(0, |h| h.page())
    }

    /// The explanation of the shown move while it is open: who played what, and the
    /// explanation's lines.
    pub fn explanation(&self) -> Option<(String, Vec<String>)> {
        if !self.layers.explaining() {
            return None;
        }
        Explanation::of(self.game.as_ref(), self.shown_move()?)
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
        self.focus.shown(self.game.ply())
    }

    /// Carries out moves, take-backs and replay steps on worker threads (`Background`,
    /// as the terminal does) or on the calling thread (`Inline`, the default: the work is
    /// done when the key returns).
    pub fn set_exec(&mut self, exec: Exec) {
        self.work.exec = exec;
    }

    /// The work being carried out, once it has taken long enough to show: what it is and
    /// how long it has run.
    pub fn busy(&self) -> Option<(&str, Duration)> {
        self.work.pending.as_ref()?.busy()
    }

    /// Whether a move, a take-back or a replay step is being carried out (shown or not
    /// yet).
    pub fn carrying_out(&self) -> bool {
        self.work.pending.is_some()
    }

    /// Whether work is being carried out (shown or not yet), or the computer thinks
    /// (or waits to move in a watched game).
    pub fn working(&self) -> bool {
        self.work.pending.is_some()
            || self.computer.busy()
            || self.reviewing.running()
            || self.clocks.running()
    }

    /// Sets the message line, keeping the warning about the player's king on it.
    pub(in crate::ui) fn say(&mut self, tone: Tone, text: impl Into<String>) {
        // The warning stays in a game: lessons and puzzles say their own words.
        let game = self.replay.is_none()
            && self.lesson.is_none()
            && self.puzzle.is_none()
            && self.ending.is_none()
            && self.status() == Status::Ongoing;
        self.talk.say(tone, text.into(), game);
    }

    /// Writes the autosave; a failure is added to the message line, never fatal.
    pub(in crate::ui) fn autosave(&mut self) {
        let saved = self.record();
        self.recorder.changed(&saved);
        if let Some(m) = prompts::autosave_message(&self.recorder, &saved, self.talk.message()) {
            self.set_message(m);
        }
    }

    /// Why this screen may not move now: at a table, only the seat to move may.
    pub(in crate::ui) fn seat_error(&self) -> Option<String> {
        let place = self.place.as_ref()?;
        place.refusal(self.game.to_move(), &self.recorder.players)
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
    fn show_question(&mut self, q: Question) {
        self.layers.open(Layer::Question(q));
    }
    fn set_message(&mut self, m: Message) {
        self.talk.set(m);
    }
    fn open_line(&mut self, purpose: Purpose, line: LineEdit) {
        self.mode = Mode::Idle;
        self.layers
            .open(Layer::TypedLine(TypedLine::open(purpose, line)));
    }
    fn close_line(&mut self) {
        self.layers.close_line();
    }
    fn leave(&mut self) {
        self.quit = true;
    }
}
