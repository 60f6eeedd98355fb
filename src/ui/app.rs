//! The application state and its update function. Everything the panes show lives here
//! and changes only through [`App::update`]; there is no terminal in it, so tests drive
//! it with key events and draw it on a test backend.

use super::circuit::CircuitView;
use super::color::Paint;
use super::input::{self, Action, InputMode};
use super::inspector::Inspector;
use super::layout::Drawer;
use super::line_edit::LineEdit;
use super::message::{Message, Tone};
use super::mouse::{self, Act, Hits, Pointer, Shown};
use super::opponent::{self, Computer, Plays, Purpose as Thought};
pub use super::prompts::Purpose;
use super::prompts::{self, Asking, Question};
use super::recent::Recent;
use super::steps;
use super::view::{self, Pick, View};
use super::work::{Exec, Job, Pending};
use crate::chess::notation::{self, MoveText};
use crate::chess::{
    Game, GameOptions, Kind, MoveError, PlayedMove, Position, Shape, Square, Status,
};
use crate::game::table::{self, Place, Seat};
use crate::game::CancelFlag;
use crate::record::{Players, Recorder, SavedGame};
use crossterm::event::{Event, KeyCode, KeyEvent, MouseEvent};
use std::cell::{Cell, RefCell};
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
    pub full: Game,
    /// How many plies of it are shown (0 = the start position).
    pub ply: usize,
}

impl Mode {
    /// The selected source squares.
    pub fn sources(&self) -> Vec<Square> {
        match self {
            Mode::Source { from, .. }
            | Mode::SplitFirst { from, .. }
            | Mode::SplitSecond { from, .. }
            | Mode::Promotion { from, .. } => vec![*from],
            Mode::MergeSecond { from1, .. } => vec![*from1],
            Mode::MergeTarget { from1, from2, .. } => vec![*from1, *from2],
            Mode::Idle | Mode::Arm { .. } | Mode::Prompt { .. } => Vec::new(),
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
            | Mode::MergeTarget { targets, .. } => targets,
            _ => &[],
        }
    }
}

/// The whole state of the terminal game.
#[derive(Debug)]
pub struct App {
    pub(super) game: Game,
    pub(super) view: View,
    pub(super) cursor: Square,
    pub(super) flipped: bool,
    pub(super) mode: Mode,
    pub(super) message: Message,
    /// The last messages, for the help to show in full.
    pub(super) recent: Recent,
    /// The history entry whose circuit is shown; `None` follows the last move.
    pub(super) selected_move: Option<usize>,
    /// Circuit scroll: columns, rows.
    pub(super) circuit_scroll: (u16, u16),
    pub(super) circuit_view: CircuitView,
    pub(super) help: bool,
    /// The help page shown, and how many pages the last drawing needed.
    help_page: usize,
    help_pages: Cell<usize>,
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
    last_typed: String,
    /// Where the board and panes were last drawn, for the mouse.
    pub(super) hits: RefCell<Hits>,
    /// The mouse pointer (where a drag started).
    pointer: Pointer,
    /// The pane below the board in the compact arrangement.
    pub(super) drawer: Drawer,
    /// Where moves, take-backs and replay steps are carried out.
    exec: Exec,
    /// The work being carried out on a worker thread.
    pending: Option<Pending<(Game, View)>>,
    /// The computer: the sides it plays, its search, its last score.
    pub(super) computer: Computer,
    /// The table whose game this is, when the game is shared (a server room).
    place: Option<Place<Game>>,
}

const REPLAY_WELCOME: &str =
    "replay: ← → step, Home End, g go to ply, p play on from here, ? help, q quit";

const WELCOME: &str =
    "white to move: pick a piece with Enter, s split, m merge, : type a move, ? help";

impl App {
    /// A new app around `game`, drawn with `paint`, with letters instead of glyphs when
    /// `ascii`.
    pub fn new(game: Game, paint: Paint, ascii: bool) -> App {
        let cursor = Square::parse("e2").unwrap_or(Square(12));
        let view = View::of(&game, cursor);
        let mut app = App {
            game,
            view,
            cursor,
            flipped: false,
            mode: Mode::Idle,
            message: Message {
                text: WELCOME.into(),
                tone: Tone::Plain,
            },
            recent: Recent::default(),
            selected_move: None,
            circuit_scroll: (0, 0),
            circuit_view: CircuitView::Auto,
            help: false,
            help_page: 0,
            help_pages: Cell::new(1),
            game_over_popup: false,
            quit: false,
            paint: paint.with_ascii(ascii),
            ascii,
            recorder: Recorder::off(),
            replay: None,
            inspector: None,
            question: None,
            last_typed: String::new(),
            hits: RefCell::default(),
            pointer: Pointer::default(),
            drawer: Drawer::default(),
            exec: Exec::Inline,
            pending: None,
            computer: Computer::default(),
            place: None,
        };
        if app.game.status() != Status::Ongoing {
            app.game_over_popup = true;
            app.say(Tone::Info, app.game_over_words());
        } else if app.game.to_move() != crate::chess::Color::White {
            app.say(Tone::Plain, WELCOME.replacen("white", "black", 1));
        }
        app
    }

    /// Saves the game with `recorder`: autosave after every change, and `w` to save.
    pub fn with_recorder(mut self, recorder: Recorder) -> App {
        self.recorder = recorder;
        if self.game.status() != Status::Ongoing {
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
        if self.computer.thinking() == Some(Thought::Move) {
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
    pub fn at_table(mut self, place: Place<Game>) -> App {
        self.place = Some(place);
        self
    }

    /// The table this game is shared at, if any.
    pub fn place(&self) -> Option<&Place<Game>> {
        self.place.as_ref()
    }

    /// Takes in the shared game after a move made at another screen of the table: the
    /// panes show it and the message line tells the move. The game shown already is
    /// left as it is.
    pub fn sync(&mut self, game: Game) {
        let last = |g: &Game| g.history().last().map(|m| m.played.clone());
        if game.ply() == self.game.ply() && last(&game) == last(&self.game) {
            return;
        }
        self.game = game;
        self.after_change();
        self.tell_last_move();
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
        let reason = self.game.end_reason().map_or("", |r| r.describe());
        format!("game over: {}: {reason}", self.result_words())
    }

    /// The result in the players' names (`Ann wins`, `draw`).
    pub fn result_words(&self) -> String {
        prompts::result_words(self.game.status(), &self.recorder.players)
    }

    /// Where the board and the panes were last drawn (what the mouse hits).
    pub fn hits(&self) -> Hits {
        self.hits.borrow().clone()
    }

    /// The yes/no question shown, if any.
    pub fn question(&self) -> Option<&Question> {
        self.question.as_ref()
    }

    /// What to print on the restored terminal after leaving: where the game is saved and
    /// how to play on (nothing for a replay or a game without moves).
    pub fn farewell(&self) -> Option<String> {
        if self.replay.is_some() {
            return None;
        }
        let ongoing = self.game.status() == Status::Ongoing;
        prompts::farewell(&self.recorder, self.game.history().len(), ongoing)
    }

    /// Starts with `text` on the message line (unless the game is already over).
    pub fn announce(mut self, text: impl Into<String>) -> App {
        if self.game.status() == Status::Ongoing {
            self.say(Tone::Info, text);
        }
        self
    }

    /// Shows `full` for stepping through it, from its start position.
    pub fn into_replay(mut self, full: Game) -> App {
        self.replay = Some(Replay { full, ply: 0 });
        self.show_ply(0);
        self.finish_work();
        self.say(Tone::Plain, REPLAY_WELCOME);
        self
    }

    /// The game being played, or in replay the state at the shown ply.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The replay, while stepping through a game.
    pub fn replay(&self) -> Option<&Replay> {
        self.replay.as_ref()
    }

    /// The game whose moves the history pane lists: the whole game in replay.
    pub fn history_game(&self) -> &Game {
        self.replay.as_ref().map_or(&self.game, |r| &r.full)
    }

    /// Where the game is saved.
    pub fn recorder(&self) -> &Recorder {
        &self.recorder
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

    /// Records how many pages the help needed when last drawn.
    pub fn set_help_pages(&self, pages: usize) {
        self.help_pages.set(pages);
    }

    /// True while the game-over popup is shown.
    pub fn game_over_shown(&self) -> bool {
        self.game_over_popup
    }

    /// The inspector, while it is open.
    pub fn inspector(&self) -> Option<&Inspector> {
        self.inspector.as_ref()
    }

    /// The history entry whose circuit is shown (the last move unless one was picked).
    pub fn shown_move(&self) -> Option<usize> {
        steps::shown(self.selected_move, self.game.history().len())
    }

    /// Which keys are live now.
    pub fn input_mode(&self) -> InputMode {
        if self.help {
            return InputMode::Help;
        }
        if self.question.is_some() {
            return InputMode::Question;
        }
        match self.mode {
            Mode::Prompt { .. } => InputMode::Prompt,
            Mode::Promotion { .. } => InputMode::Promotion,
            _ if self.replay.is_some() => InputMode::Replay,
            _ => InputMode::Board,
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

    /// Whether work is being carried out (shown or not yet), or the computer thinks
    /// (or waits to move in a watched game).
    pub fn working(&self) -> bool {
        self.pending.is_some() || self.computer.busy()
    }

    /// Takes in work that finished on its worker thread, and the computer's progress and
    /// answer. True when the screen should be drawn again: the work finished, or the
    /// busy line's time moved on, or the computer thinks.
    pub fn tick(&mut self) -> bool {
        let worked = self.tick_work();
        if self.pending.is_some() {
            return worked;
        }
        opponent::tick(self) || worked
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
    fn computer_to_move(&self) -> bool {
        self.replay.is_none()
            && self.game.status() == Status::Ongoing
            && self.computer.plays(self.game.to_move())
    }

    /// `H`: the engine's best move for the side to move, searched off the screen's
    /// thread.
    fn ask_hint(&mut self) {
        if self.game.status() != Status::Ongoing {
            return self.say(Tone::Error, "the game is over: there is no move to hint");
        }
        if self.computer_to_move() {
            return self.say(Tone::Error, opponent::wait_words(self.game.to_move()));
        }
        let (side, ply) = (self.game.to_move(), self.game.ply());
        let watching = self.place.as_ref().is_some_and(|p| p.seat == Seat::Watches);
        let mut player = self.computer.player(Thought::Hint, side);
        let game = &self.game;
        let search = || player.think(game);
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
    /// flag) with its view. [`App::finish`] takes the result in.
    fn run_job(
        &mut self,
        job: Job,
        f: impl FnOnce(CancelFlag) -> Result<(Game, View), String> + Send + 'static,
    ) {
        match self.exec {
            Exec::Inline => {
                let result = f(CancelFlag::default());
                self.finish(job, result);
            }
            Exec::Background => {
                self.pending = Some(Pending::start(job, f));
            }
        }
    }

    /// `q`, Ctrl-C and Esc while work is pending (finished or not): quit, or cancel the
    /// work (dropping it sets its cancel flag; its result is thrown away). True when the
    /// key was one of them.
    fn stop_key(&mut self, key: KeyEvent) -> bool {
        match input::press(key) {
            input::Press::Interrupt | input::Press::Key(KeyCode::Char('q')) => self.quit = true,
            input::Press::Key(KeyCode::Esc) => {
                if let Some(p) = self.pending.take() {
                    if !matches!(p.job, Job::Move { typed: true, .. }) {
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
    /// to a target too), the wheel scrolls the history and the circuit, a click in the
    /// history picks a move, the right button cancels as Esc does.
    pub fn handle_mouse(&mut self, ev: MouseEvent) {
        let Some(g) = mouse::gesture(&self.hits.borrow(), ev) else {
            return;
        };
        let shown = Shown {
            help: self.help,
            game_over: self.game_over_popup,
            question: self.question.is_some(),
            replay: self.replay.is_some(),
            targets: !self.mode.targets().is_empty(),
        };
        match self.pointer.act(g, shown) {
            Some(Act::Action(a)) => self.update(a),
            Some(Act::Square(sq)) => self.click_square(sq),
            Some(Act::Move(i)) => self.click_move(i),
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
            // A click on the board leaves the typed line.
            Mode::Prompt { .. } => self.mode = Mode::Idle,
            _ => {}
        }
        self.cursor = sq;
        self.view.focus(&self.game, sq);
        if self.replay.is_some() && self.inspector.is_none() {
            return;
        }
        if self.mode == Mode::Idle && self.inspector.is_none() {
            if let Some(why) = self.source_error(sq) {
                return self.say(Tone::Plain, why);
            }
        }
        self.update(Action::Select);
    }

    /// A click on move `i` in the history: its circuit is shown (in replay, the game
    /// after it).
    fn click_move(&mut self, i: usize) {
        if let Some(r) = &self.replay {
            let by = (i + 1) as i64 - r.ply as i64;
            return self.step_ply(by);
        }
        self.selected_move = steps::repick(i, 0, self.game.history().len());
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
        if self.pending.is_some() {
            return;
        }
        match input::translate(self.input_mode(), key) {
            Some(a) => self.update(a),
            None => self.unmapped(key),
        }
    }

    fn unmapped(&mut self, key: KeyEvent) {
        match (self.input_mode(), key.code) {
            (InputMode::Promotion, _) => self.say(
                Tone::Error,
                "choose the new piece: q queen, r rook, b bishop, n knight (Esc cancels)",
            ),
            (InputMode::Board, KeyCode::Char(c)) => self.say(
                Tone::Error,
                format!("the key '{c}' does nothing here: press ? for the keys"),
            ),
            _ => {}
        }
    }

    fn say(&mut self, tone: Tone, text: impl Into<String>) {
        self.set_message(Message {
            text: text.into(),
            tone,
        });
    }

    /// Applies one action.
    pub fn update(&mut self, action: Action) {
        if action == Action::Interrupt {
            self.quit = true;
            return;
        }
        if self.help {
            // Any key turns the page; after the last page it closes the help.
            if action != Action::Quit && self.help_page + 1 < self.help_pages.get() {
                self.help_page += 1;
                return;
            }
            self.help = false;
            self.help_page = 0;
            return;
        }
        if let Some(q) = self.question.take() {
            return self.answer(q, action);
        }
        if self.inspector.is_some() && self.inspecting(action) {
            return;
        }
        match action {
            Action::Inspect => self.open_inspector(),
            Action::Select
            | Action::Split
            | Action::Merge
            | Action::Prompt
            | Action::Undo
            | Action::NewGame
                if self.replay.is_some() =>
            {
                self.say(
                    Tone::Error,
                    "this is a replay: p plays on from the shown ply, i inspects",
                )
            }
            Action::Hint | Action::Pause if self.replay.is_some() => self.say(
                Tone::Error,
                "this is a replay: p plays on from the shown ply, then H gives hints",
            ),
            Action::Cursor(dx, dy) => self.move_cursor(dx, dy),
            Action::Select | Action::Split | Action::Merge
                if self.computer_to_move() && self.mode == Mode::Idle =>
            {
                self.say(Tone::Error, opponent::wait_words(self.game.to_move()))
            }
            Action::Select => self.select(),
            Action::Split => self.start_split(),
            Action::Merge => self.start_merge(),
            Action::Hint => self.ask_hint(),
            Action::Pause => self.pause(),
            Action::Cancel => self.cancel(),
            Action::Prompt => {
                self.mode = Mode::Prompt {
                    line: LineEdit::empty(),
                    purpose: Purpose::Move,
                };
                self.say(
                    Tone::Plain,
                    "type a move: e2e4 or Nf3, b1^a3c3 (split), a3c3^b5 (merge), e7e8q; Enter plays, Esc cancels",
                );
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
            Action::QuantumMove => self.say(
                Tone::Error,
                "t makes quantum moves in the harmonics variant; here s splits and m merges",
            ),
            Action::Undo => self.undo(),
            Action::Flip => self.flipped = !self.flipped,
            Action::NextPane => {
                self.drawer = self.drawer.next();
                self.say(
                    Tone::Plain,
                    format!(
                        "small screens show the {} below the board",
                        self.drawer.name("circuit")
                    ),
                );
            }
            Action::Help => self.help = true,
            Action::Quit => self.ask_quit(),
            Action::Interrupt => self.quit = true,
            Action::Yes | Action::No => {}
            Action::NewGame => self.new_game(),
            Action::HistoryPrev => self.pick_move(-1),
            Action::HistoryNext => self.pick_move(1),
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
        let ply = ply.min(r.full.history().len());
        let moves: Vec<String> = r.full.history()[..ply]
            .iter()
            .map(|m| m.played.clone())
            .collect();
        // Forward by one ply plays one move on the shown state; anything else replays.
        let shown = (ply == r.ply + 1 && self.game.ply() == r.ply).then(|| self.game.clone());
        let (start, opts, cursor) = (r.full.start().clone(), r.full.options(), self.cursor);
        self.run_job(Job::Ply { ply }, move |cancel| {
            let game = match shown {
                Some(mut g) => {
                    g.set_cancel(Some(cancel));
                    g.play(&moves[ply - 1])
                        .map_err(|e| format!("ply {ply} does not replay: {e}"))?;
                    g.set_cancel(None);
                    g
                }
                None => replayed(start, opts, &moves, cancel)?,
            };
            let view = View::of(&game, cursor);
            Ok((game, view))
        });
    }

    /// Takes in the replay's state at `ply`.
    fn took_in_ply(&mut self, ply: usize, view: View) {
        let Some(r) = &mut self.replay else {
            return;
        };
        r.ply = ply;
        let n = r.full.history().len();
        if let Some(ins) = &mut self.inspector {
            ins.refresh(&self.game);
        }
        self.mode = Mode::Idle;
        self.selected_move = None;
        self.circuit_scroll = (0, 0);
        self.view = view;
        self.game_over_popup = false;
        let last = self
            .game
            .history()
            .last()
            .map(|m| (m.color, m.played.as_str()));
        let said = steps::ply_said(ply, n, last);
        self.say(Tone::Info, said);
    }

    fn step_ply(&mut self, by: i64) {
        let Some(r) = &self.replay else {
            return;
        };
        let n = r.full.history().len();
        self.show_ply(steps::ply_after(r.ply, by, n));
    }

    /// Leaves the replay and plays on from the shown ply as a new game.
    fn play_from_here(&mut self) {
        let Some(r) = self.replay.take() else {
            return;
        };
        self.recorder.restart(crate::record::now_secs());
        self.after_change();
        let said = match self.game.status() {
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
    fn autosave(&mut self) {
        let saved = SavedGame::of(&self.game, &self.recorder.players, &self.recorder.date);
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

    /// Opens the inspector on the cursor square (dropping any move selection).
    fn open_inspector(&mut self) {
        self.mode = Mode::Idle;
        self.inspector = Some(Inspector::open(&self.game, self.cursor));
        self.say(
            Tone::Plain,
            format!(
                "inspecting {}: Enter on a second square shows their Bell values; Esc leaves",
                self.cursor
            ),
        );
    }

    /// Keys that mean something else while the inspector is open; true when handled.
    fn inspecting(&mut self, action: Action) -> bool {
        let Some(ins) = &mut self.inspector else {
            return false;
        };
        match action {
            Action::Select | Action::Inspect => {
                let first = ins.first();
                match ins.pick(&self.game, self.cursor) {
                    Ok(()) => self.say(
                        Tone::Info,
                        format!("Bell values of {first} and {}", self.cursor),
                    ),
                    Err(e) => self.say(Tone::Error, e),
                }
            }
            Action::Cancel => {
                self.inspector = None;
                self.say(Tone::Plain, "left the inspector");
            }
            Action::Split | Action::Merge | Action::Prompt => self.say(
                Tone::Error,
                "the inspector is open: Esc leaves it, then make your move",
            ),
            // A cut inspector scrolls; one shown whole leaves the keys to the circuit.
            Action::CircuitUp => return ins.scroll_by(-3),
            Action::CircuitDown => return ins.scroll_by(3),
            _ => return false,
        }
        true
    }

    fn move_cursor(&mut self, dx: i8, dy: i8) {
        let (dx, dy) = if self.flipped { (-dx, -dy) } else { (dx, dy) };
        if let Some(s) = self.cursor.offset(dx as i32, dy as i32) {
            self.cursor = s;
            self.view.focus(&self.game, s);
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
                Thought::Move => self.hurry(),
                Thought::Hint => {
                    self.computer.forget();
                    self.say(Tone::Plain, "hint stopped");
                }
            }
        } else if self.game_over_popup {
            self.game_over_popup = false;
            let words = if self.place.is_some() {
                "the game is over: q leaves the room"
            } else {
                "the game is over: n new game, u take back, q quit"
            };
            self.say(Tone::Plain, words);
        }
    }

    /// Why `sq` can't be the source of a move, in the rules' words.
    fn source_error(&self, sq: Square) -> Option<String> {
        self.seat_error()
            .or_else(|| self.game.check_source(sq).err().map(|e| e.to_string()))
    }

    /// Why this screen may not move now: at a table, only the seat to move may.
    fn seat_error(&self) -> Option<String> {
        let place = self.place.as_ref()?;
        place.refusal(self.game.to_move(), &self.recorder.players)
    }

    fn piece_name(&self, sq: Square) -> String {
        self.game
            .state()
            .piece(sq)
            .map_or_else(|| "piece".into(), |p| p.kind.name().to_string())
    }

    fn pick_source(&mut self, sq: Square) {
        if let Some(e) = self.source_error(sq) {
            return self.say(Tone::Error, e);
        }
        let targets = view::legal_squares(&self.game, Pick::Target(sq));
        let name = self.piece_name(sq);
        if targets.is_empty() {
            self.say(
                Tone::Plain,
                format!(
                    "the {name} on {sq} has no standard move here; s splits, m merges, Esc cancels"
                ),
            );
        } else {
            self.say(
                Tone::Plain,
                format!("{name} on {sq}: pick its target (s split, m merge, Esc cancel)"),
            );
        }
        self.mode = Mode::Source { from: sq, targets };
    }

    fn select(&mut self) {
        let sq = self.cursor;
        match self.mode.clone() {
            Mode::Idle | Mode::Prompt { .. } | Mode::Promotion { .. } => self.pick_source(sq),
            Mode::Arm { merge: false } => self.start_split(),
            Mode::Arm { merge: true } => self.start_merge(),
            Mode::Source { from, targets } => {
                let own = self.game.state().piece(sq).map(|p| p.color)
                    == self.game.state().piece(from).map(|p| p.color);
                if sq == from {
                    self.mode = Mode::Idle;
                    self.say(Tone::Plain, "selection cleared");
                } else if targets.contains(&sq) && view::promotes(&self.game, from, sq) {
                    self.mode = Mode::Promotion { from, to: sq };
                    self.say(
                        Tone::Plain,
                        "promote to: q queen, r rook, b bishop, n knight (Esc cancels)",
                    );
                } else if !targets.contains(&sq) && own {
                    self.pick_source(sq);
                } else {
                    self.play_text(MoveText::standard(from, sq));
                }
            }
            Mode::SplitFirst { from, targets } => {
                if targets.contains(&sq) {
                    let targets = view::legal_squares(&self.game, Pick::SplitSecond(from, sq));
                    self.mode = Mode::SplitSecond {
                        from,
                        to1: sq,
                        targets,
                    };
                    self.say(
                        Tone::Plain,
                        format!("split {from} to {sq} and ...: pick the second target"),
                    );
                } else {
                    let why = self.why_not_split_target(from, sq);
                    self.say(Tone::Error, why);
                }
            }
            Mode::SplitSecond { from, to1, .. } => self.play_text(MoveText {
                shape: Shape::Split { from, to1, to2: sq },
                ..MoveText::standard(from, to1)
            }),
            Mode::MergeSecond { from1, targets } => {
                if targets.contains(&sq) {
                    let targets = view::legal_squares(&self.game, Pick::MergeTarget(from1, sq));
                    self.mode = Mode::MergeTarget {
                        from1,
                        from2: sq,
                        targets,
                    };
                    self.say(
                        Tone::Plain,
                        format!("merge {from1} and {sq}: pick the target"),
                    );
                } else {
                    let why = self.why_not_merge_source(from1, sq);
                    self.say(Tone::Error, why);
                }
            }
            Mode::MergeTarget { from1, from2, .. } => self.play_text(MoveText {
                shape: Shape::Merge {
                    from1,
                    from2,
                    to: sq,
                },
                ..MoveText::standard(from1, sq)
            }),
        }
    }

    /// Why `sq` can't be a split target of the piece on `from`.
    fn why_not_split_target(&self, from: Square, sq: Square) -> String {
        if sq == from {
            return MoveError::RepeatedSquares.to_string();
        }
        // A split target must first be reachable as a standard move would be.
        let text = MoveText::standard(from, sq);
        match crate::chess::classify::classify(
            self.game.state(),
            &text,
            self.game.options().free_turns,
        ) {
            Err(e) => e.to_string(),
            Ok(_) => match self.game.state().piece(sq) {
                Some(p) => MoveError::SplitTarget {
                    square: sq,
                    what: format!("a {}", p.describe()),
                }
                .to_string(),
                None => format!("{sq} cannot be a target of this split"),
            },
        }
    }

    /// Why `sq` can't be the second source of a merge with `from1`.
    fn why_not_merge_source(&self, from1: Square, sq: Square) -> String {
        let st = self.game.state();
        match (st.piece(from1), st.piece(sq)) {
            (_, None) => MoveError::NoPiece(sq).to_string(),
            (Some(p1), Some(p2)) if p1 != p2 => MoveError::MergeSources {
                from1,
                p1: p1.describe(),
                from2: sq,
                p2: p2.describe(),
            }
            .to_string(),
            _ if sq == from1 => MoveError::RepeatedSquares.to_string(),
            _ => format!("the pieces on {from1} and {sq} have no empty square both can reach"),
        }
    }

    /// The source a split or merge starts from: the selected piece, else the cursor.
    fn first_source(&self) -> Square {
        match self.mode {
            Mode::Source { from, .. } => from,
            _ => self.cursor,
        }
    }

    /// `s`: splits the selected piece (or the one under the cursor); when that piece
    /// cannot split, says why and waits for the piece to split to be picked.
    fn start_split(&mut self) {
        let from = self.first_source();
        match self.sources_of(from, Pick::SplitFirst(from)) {
            Ok(targets) => {
                let name = self.piece_name(from);
                self.mode = Mode::SplitFirst { from, targets };
                self.say(
                    Tone::Plain,
                    format!("split the {name} on {from}: pick the first target"),
                );
            }
            Err(why) => self.arm(false, why),
        }
    }

    /// `m`: merges from the selected piece (or the one under the cursor); when that
    /// piece cannot merge, says why and waits for the first source to be picked.
    fn start_merge(&mut self) {
        let from1 = self.first_source();
        match self.sources_of(from1, Pick::MergeSecond(from1)) {
            Ok(targets) => {
                let name = self.piece_name(from1);
                self.mode = Mode::MergeSecond { from1, targets };
                self.say(
                    Tone::Plain,
                    format!("merge the {name} on {from1} with ...: pick the second source"),
                );
            }
            Err(why) => self.arm(true, why),
        }
    }

    /// The squares the next pick of a split (or merge) from `from` may be, or why it
    /// cannot start there.
    fn sources_of(&self, from: Square, pick: Pick) -> Result<Vec<Square>, String> {
        if let Some(e) = self.source_error(from) {
            return Err(e);
        }
        if self.game.state().piece(from).map(|p| p.kind) == Some(Kind::Pawn) {
            return Err(MoveError::PawnSplit.to_string());
        }
        let targets = view::legal_squares(&self.game, pick);
        let name = self.piece_name(from);
        match (targets.is_empty(), pick) {
            (false, _) => Ok(targets),
            (true, Pick::MergeSecond(_)) => Err(format!("the {name} on {from} has nothing to merge with: it needs another {name} of its side that can reach a common empty square")),
            (true, _) => Err(format!("the {name} on {from} cannot split: it needs two reachable squares that are empty or hold a {name} of its side in superposition")),
        }
    }

    /// Waits for the piece a split (or merge) starts from. When the last square held no
    /// piece of the side to move, that is just a hint; when its piece could not split
    /// (or merge), the reason is told.
    fn arm(&mut self, merge: bool, why: String) {
        let none_there = self.source_error(self.first_source()).is_some();
        self.mode = Mode::Arm { merge };
        let (what, then) = if merge {
            ("merge", "a second source and the target")
        } else {
            ("split", "two targets")
        };
        if none_there {
            self.say(
                Tone::Plain,
                format!("{what}: pick the piece, then {then} (Esc cancels)"),
            );
        } else {
            self.say(Tone::Error, format!("{why}; pick another piece to {what}"));
        }
    }

    fn promote(&mut self, k: Kind) {
        if let Mode::Promotion { from, to } = self.mode {
            self.play_text(MoveText {
                promotion: Some(k),
                ..MoveText::standard(from, to)
            });
        }
    }

    /// Plays a move picked on the board. A refused move keeps the selection (a refused
    /// promotion goes back to no selection).
    fn play_text(&mut self, text: MoveText) {
        let input = text.to_string();
        self.play(&input, &text, false);
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
        match self.game.read(&input) {
            Ok(t) => match t.outcome {
                Some(o) if !self.game.options().free_turns => self.say(
                    Tone::Error,
                    refused_outcome(&input, &format!(".m{}", u8::from(o))),
                ),
                // A move typed in SAN goes on as the canonical move it names.
                _ if notation::parse(&input).is_err() => self.play(&t.to_string(), &t, true),
                _ => self.play(&input, &t, true),
            },
            Err(e) => self.say(Tone::Error, e.to_string()),
        }
    }

    /// Plays a move (`typed` on the `:` line, else picked on the board), here or on a
    /// worker thread (see [`App::set_exec`]); [`App::finish`] tells the player.
    fn play(&mut self, input: &str, text: &MoveText, typed: bool) {
        if let Some(why) = self.seat_error() {
            self.mode = Mode::Idle;
            return self.say(Tone::Error, why);
        }
        let job = Job::Move {
            input: input.to_string(),
            typed,
        };
        if let Some(place) = &self.place {
            // A shared game: the room plays the move and hands back its game.
            let (table, side, ply) = (
                Arc::clone(&place.table),
                self.game.to_move(),
                self.game.ply(),
            );
            let (owned, cursor) = (input.to_string(), self.cursor);
            return self.run_job(job, move |cancel| {
                let game = table.play(side, ply, &owned, cancel)?;
                let view = View::of(&game, cursor);
                Ok((game, view))
            });
        }
        // The move is played on a copy: the screen keeps drawing this game, and a
        // cancelled move leaves it as it was.
        let mut game = self.game.clone();
        let (owned, text, cursor) = (input.to_string(), *text, self.cursor);
        self.run_job(job, move |cancel| {
            game.set_cancel(Some(cancel));
            let r = carry_out(&mut game, &owned, &text, cursor);
            game.set_cancel(None);
            r.map(|view| (game, view)).map_err(|e| e.to_string())
        });
    }

    /// Takes in what `job` led to (the game and its view) and tells the player, or says
    /// why it could not be done (the game is then unchanged).
    fn finish(&mut self, job: Job, result: Result<(Game, View), String>) {
        let (game, view) = match result {
            Ok(done) => done,
            Err(e) => {
                self.say(Tone::Error, job.failed(&e));
                // A refused target keeps the selected piece; a refused promotion ends
                // the question. (A typed move's line is closed already.)
                if matches!(self.mode, Mode::Promotion { .. }) {
                    self.mode = Mode::Idle;
                }
                return;
            }
        };
        self.game = game;
        match job {
            Job::Move { .. } => {
                self.after_change_with(view);
                self.tell_last_move();
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
            Job::Ply { ply } => self.took_in_ply(ply, view),
        }
    }

    /// Tells what the last move did, and the result when it ended the game.
    fn tell_last_move(&mut self) {
        let said = self.game.history().last().map(describe).unwrap_or_default();
        let said = match self.game.status() {
            Status::Ongoing => said,
            _ => format!("{said}. Game over: {}", self.result_words()),
        };
        self.say(Tone::Info, said);
    }

    /// Refreshes everything derived from the game after it changed.
    fn after_change(&mut self) {
        let view = View::of(&self.game, self.cursor);
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
        self.game_over_popup = self.game.status() != Status::Ongoing;
        if let Some(ins) = &mut self.inspector {
            ins.refresh(&self.game);
        }
    }

    /// Takes back the last move (against the computer the last full move, see
    /// [`opponent::Sides::take_back`]): the others are replayed with their recorded
    /// outcomes, here or on a worker thread.
    fn undo(&mut self) {
        if self.place.is_some() {
            return self.say(Tone::Error, table::NO_UNDO);
        }
        let movers: Vec<_> = self.game.history().iter().map(|m| m.color).collect();
        let n = match self.computer.sides().take_back(&movers) {
            Ok(n) => n,
            Err(why) => return self.say(Tone::Error, why),
        };
        if self.computer.sides().both() {
            self.computer.set_paused(true);
        }
        // A search for the position being taken back is stopped.
        self.computer.forget();
        let history = self.game.history();
        let (kept, gone) = history.split_at(history.len() - n);
        let moves: Vec<String> = kept.iter().map(|m| m.played.clone()).collect();
        let (start, opts, cursor) = (self.game.start().clone(), self.game.options(), self.cursor);
        let taken = gone
            .iter()
            .map(|m| m.played.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        self.run_job(Job::Undo { taken }, move |cancel| {
            let game = replayed(start, opts, &moves, cancel)?;
            let view = View::of(&game, cursor);
            Ok((game, view))
        });
    }

    fn new_game(&mut self) {
        if self.place.is_some() {
            return self.say(Tone::Error, table::NO_NEW_GAME);
        }
        if self.game.status() == Status::Ongoing {
            return self.say(
                Tone::Error,
                "n starts a new game once this one is over (q quits)",
            );
        }
        let opts = GameOptions {
            seed: self.game.options().seed.wrapping_add(1),
            ..self.game.options()
        };
        let start: Position = self.game.start().clone();
        self.game = Game::from_position(start, opts);
        self.recorder.restart(crate::record::now_secs());
        self.computer.forget();
        self.after_change();
        self.say(Tone::Info, "new game");
        self.autosave();
        self.computer_turn();
    }

    fn pick_move(&mut self, step: i64) {
        let n = self.game.history().len();
        let Some(cur) = self.shown_move() else {
            return self.say(Tone::Error, "no moves yet");
        };
        self.selected_move = steps::repick(cur, step, n);
        self.circuit_scroll = (0, 0);
    }

    fn scroll_circuit(&mut self, dx: i32, dy: i32) {
        let (w, h) = self
            .shown_move()
            .map(|i| super::circuit::extent(&self.game.history()[i].ops))
            .unwrap_or((0, 0));
        let (x, y) = self.circuit_scroll;
        self.circuit_scroll = (
            (x as i32 + dx).clamp(0, w as i32) as u16,
            (y as i32 + dy).clamp(0, h as i32) as u16,
        );
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

    fn play_computer_move(&mut self, mv: &str) {
        match notation::parse(mv) {
            Ok(text) => self.play(mv, &text, false),
            Err(e) => self.say(Tone::Error, format!("the computer's move {mv}: {e}")),
        }
    }

    fn hint_squares(&self, mv: &str) -> Vec<Square> {
        notation::parse(mv)
            .map(|t| super::board::shape_squares(t.shape))
            .unwrap_or_default()
    }

    /// Starts the computer's search when it is to move (in a watched game once the
    /// pause after the last move is over).
    fn computer_turn(&mut self) {
        let searching = self.computer.thinking() == Some(Thought::Move);
        if !self.computer_to_move() || self.pending.is_some() || searching {
            return;
        }
        if !self.computer.ready() {
            return;
        }
        let side = self.game.to_move();
        let thinking = self.computer.player(Thought::Move, side).think(&self.game);
        self.computer
            .start(Thought::Move, side, self.game.ply(), thinking);
    }
}

impl Asking for App {
    fn recorder(&self) -> &Recorder {
        &self.recorder
    }
    fn record(&self) -> SavedGame {
        SavedGame::of(
            self.history_game(),
            &self.recorder.players,
            &self.recorder.date,
        )
    }
    fn playing(&self) -> bool {
        // At a table, leaving loses nothing: the table keeps the game and the seat.
        self.place.is_none()
            && self.replay.is_none()
            && self.game.status() == Status::Ongoing
            && !self.game.history().is_empty()
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

/// Why a typed outcome is refused in a game: outcomes are drawn, not picked.
pub(super) fn refused_outcome(input: &str, suffix: &str) -> String {
    format!("{input}: outcomes are drawn at random; type it without {suffix}")
}

/// The game after `moves` from `start` (their recorded outcomes forced), stopped once
/// `cancel` is set; the game returned watches no flag.
fn replayed(
    start: Position,
    opts: GameOptions,
    moves: &[String],
    cancel: CancelFlag,
) -> Result<Game, String> {
    let mut game = Game::replay_watched(start, opts, moves, Some(cancel))
        .map_err(|(i, e)| format!("ply {} does not replay: {e}", i + 1))?;
    game.set_cancel(None);
    Ok(game)
}

/// Plays a move on `game` and computes the panes' view of the result (both can take
/// long on a big state).
fn carry_out(
    game: &mut Game,
    input: &str,
    text: &MoveText,
    cursor: Square,
) -> Result<View, MoveError> {
    game.play_text(input, text)?;
    Ok(View::of(game, cursor))
}

/// What a played move did, in words.
fn describe(m: &PlayedMove) -> String {
    let who = m.color.name();
    match (&m.summary, m.p1) {
        (Some(s), Some(p1)) => format!(
            "{who} {}: {s} (it had a {:.0}% chance to go on)",
            m.played,
            p1 * 100.0
        ),
        _ => format!("{who} played {}", m.played),
    }
}
