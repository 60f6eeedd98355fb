//! The terminal game for the other rule systems (harmonics, haft): the same four panes
//! as Quantum Chess, driven only through [`Playable`]. No terminal in here: tests
//! drive it with key events and draw it on a test backend.

use super::app::refused_outcome;
use super::color::Paint;
use super::input::{self, Action, InputMode};
use super::layout::Drawer;
use super::line_edit::LineEdit;
use super::message::{Message, Tone};
use super::mouse::{self, Act, Hits, Pointer, Shown};
use super::opponent::{self, Computer, Plays, Purpose as Thought};
use super::prompts::{self, Asking, Purpose, Question};
use super::recent::Recent;
use super::steps;
use super::work::{Exec, Job, Pending};
use crate::chess::san::SanError;
use crate::chess::{Square, Status};
use crate::engine::variant::greedy_variant;
use crate::engine::Thinking;
use crate::game::table::{self, Place, Seat};
use crate::game::CancelFlag;
use crate::game::{Playable, PlyRecord, RuleSet};
use crate::record::{Players, Recorder, SavedGame};
use crossterm::event::{Event, KeyCode, KeyEvent, MouseEvent};
use std::cell::{Cell, RefCell};
use std::sync::Arc;
use std::time::Duration;

/// What the player is in the middle of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantMode {
    /// Nothing selected.
    Idle,
    /// A piece is picked; its legal moves (ordinary, or quantum when `quantum`).
    Source {
        /// The picked piece.
        from: Square,
        /// Quantum moves (harmonics `~`) instead of ordinary ones.
        quantum: bool,
        /// The legal moves of the piece in this kind, in notation.
        moves: Vec<String>,
    },
    /// Several moves go to the same square (promotion): pick one by its letter.
    Choice {
        /// The moves, in notation.
        moves: Vec<String>,
    },
    /// Typing into the message line.
    Prompt {
        /// The text so far, with its cursor.
        line: LineEdit,
        /// What it is for.
        purpose: Purpose,
    },
}

/// Stepping through a variant game.
pub struct VariantReplay {
    /// The whole game.
    pub full: Box<dyn Playable>,
    /// How many plies are shown.
    pub ply: usize,
}

/// The whole state of a variant game on screen.
pub struct VariantApp {
    pub(super) game: Box<dyn Playable>,
    /// The start of the game, for new games and replay.
    start: Box<dyn Playable>,
    pub(super) cursor: Square,
    pub(super) flipped: bool,
    pub(super) mode: VariantMode,
    pub(super) message: Message,
    /// The last messages, for the help to show in full.
    pub(super) recent: Recent,
    pub(super) selected_ply: Option<usize>,
    pub(super) trace_scroll: u16,
    pub(super) help: bool,
    /// The help page shown, and how many pages the last drawing needed.
    pub(super) help_page: usize,
    pub(super) help_pages: Cell<usize>,
    pub(super) game_over_popup: bool,
    quit: bool,
    pub(super) paint: Paint,
    pub(super) ascii: bool,
    recorder: Recorder,
    pub(super) replay: Option<VariantReplay>,
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
    pending: Option<Pending<Box<dyn Playable>>>,
    /// The computer (the variants' greedy player): its sides, its search, its score.
    pub(super) computer: Computer,
    /// The table whose game this is, when the game is shared (a server room).
    place: Option<Place<Box<dyn Playable>>>,
}

/// The squares a move in long algebraic notation (`e2e4`, `b1~d5`, `e7e8q`) names.
pub fn move_squares(text: &str) -> Option<(Square, Square, bool)> {
    let quantum = text.contains('~');
    let plain: String = text.chars().filter(|c| *c != '~').collect();
    let from = Square::parse(plain.get(0..2)?)?;
    let to = Square::parse(plain.get(2..4)?)?;
    Some((from, to, quantum))
}

impl VariantApp {
    /// A new app around `game`.
    pub fn new(game: Box<dyn Playable>, paint: Paint, ascii: bool) -> VariantApp {
        // The start is set up again from the game's setup (that cannot fail for a game
        // that was set up from it; the game itself stands in if it did).
        let start = crate::game::new_game(&game.setup()).unwrap_or_else(|_| game.clone_box());
        let mut app = VariantApp {
            game,
            start,
            cursor: Square(12),
            flipped: false,
            mode: VariantMode::Idle,
            message: Message {
                text: String::new(),
                tone: Tone::Plain,
            },
            recent: Recent::default(),
            selected_ply: None,
            trace_scroll: 0,
            help: false,
            help_page: 0,
            help_pages: Cell::new(1),
            game_over_popup: false,
            quit: false,
            paint: paint.with_ascii(ascii),
            ascii,
            recorder: Recorder::off(),
            replay: None,
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
        app.welcome();
        app
    }

    /// Lets `computer` play its sides greedily (and give hints); it starts at once when
    /// it is to move.
    pub fn with_computer(mut self, computer: Computer) -> VariantApp {
        self.computer = computer;
        self.computer_turn();
        self
    }

    /// The computer: its sides, whether it thinks, its last score.
    pub fn computer(&self) -> &Computer {
        &self.computer
    }

    /// The line under the message while the computer thinks (or a watched game is
    /// paused).
    pub fn thinking_line(&self) -> Option<String> {
        self.computer.line(self.ascii, self.replay.is_some())
    }

    /// Whether the computer plays the side to move in the game being played.
    fn computer_to_move(&self) -> bool {
        self.replay.is_none()
            && self.game.status() == Status::Ongoing
            && self.computer.plays(self.game.to_move())
    }

    /// What starts a greedy search on a copy of the game, on its own thread.
    fn greedy_search(&self) -> impl FnOnce() -> Thinking {
        let copy = self.game.clone_box();
        let seed = self.game.setup().options.seed ^ self.game.ply() as u64;
        move || Thinking::spawn(move |_, _| greedy_variant(copy.as_ref(), seed))
    }

    /// `H`: the greedy player's move for the side to move.
    fn ask_hint(&mut self) {
        if self.game.status() != Status::Ongoing {
            return self.say(Tone::Error, "the game is over: there is no move to hint");
        }
        if self.computer_to_move() {
            return self.say(Tone::Error, opponent::wait_words(self.game.to_move()));
        }
        let (side, ply) = (self.game.to_move(), self.game.history().len());
        let watching = self.place.as_ref().is_some_and(|p| p.seat == Seat::Watches);
        let search = self.greedy_search();
        match self.computer.start_hint(watching, side, ply, search) {
            Ok(()) => self.say(
                Tone::Plain,
                format!("looking for a move for {}...", side.name()),
            ),
            Err(why) => self.say(Tone::Error, why),
        }
    }

    /// Saves with `recorder` (autosave after every change, `w` to save).
    pub fn with_recorder(mut self, recorder: Recorder) -> VariantApp {
        self.recorder = recorder;
        self.welcome();
        self
    }

    /// Shows a game shared at `place`, as [`super::App::at_table`].
    pub fn at_table(mut self, place: Place<Box<dyn Playable>>) -> VariantApp {
        self.place = Some(place);
        self
    }

    /// The table this game is shared at, if any.
    pub fn place(&self) -> Option<&Place<Box<dyn Playable>>> {
        self.place.as_ref()
    }

    /// Takes in the shared game after a move made at another screen, as
    /// [`super::App::sync`].
    pub fn sync(&mut self, game: Box<dyn Playable>) {
        let last = |g: &dyn Playable| g.history().last().map(|r| r.text.clone());
        let (now, new) = (self.game.history().len(), game.history().len());
        if now == new && last(game.as_ref()) == last(self.game.as_ref()) {
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

    /// Why this screen may not move now: at a table, only the seat to move may.
    fn seat_error(&self) -> Option<String> {
        let place = self.place.as_ref()?;
        place.refusal(self.game.to_move(), &self.recorder.players)
    }

    /// The result in the players' names (`Ann wins`, `draw`).
    pub fn result_words(&self) -> String {
        prompts::result_words(self.game.status(), &self.recorder.players)
    }

    /// Where the game is saved.
    pub fn recorder(&self) -> &Recorder {
        &self.recorder
    }

    /// Where the board and the panes were last drawn (what the mouse hits).
    pub fn hits(&self) -> Hits {
        self.hits.borrow().clone()
    }

    /// The yes/no question shown, if any.
    pub fn question(&self) -> Option<&Question> {
        self.question.as_ref()
    }

    /// What to print on the restored terminal after leaving (see [`prompts::farewell`]).
    pub fn farewell(&self) -> Option<String> {
        if self.replay.is_some() {
            return None;
        }
        let ongoing = self.game.status() == Status::Ongoing;
        prompts::farewell(&self.recorder, self.game.history().len(), ongoing)
    }

    /// Steps through the game played so far, from its start.
    pub fn into_replay(mut self) -> VariantApp {
        let full = self.game.clone_box();
        self.replay = Some(VariantReplay { full, ply: 0 });
        self.show_ply(0);
        self.finish_work();
        self.say(
            Tone::Plain,
            "replay: ← → step, Home End, g go to ply, p play on from here, ? help, q quit",
        );
        self
    }

    /// Starts with `text` on the message line.
    pub fn announce(mut self, text: impl Into<String>) -> VariantApp {
        self.say(Tone::Info, text);
        self
    }

    fn welcome(&mut self) {
        let over = self.game.status() != Status::Ongoing;
        self.game_over_popup = over;
        let text = if over {
            format!(
                "game over: {}: {}",
                self.result_words(),
                self.game.end_reason().unwrap_or_default()
            )
        } else {
            let quantum = if self.game.rules() == RuleSet::Harmonics {
                ", t quantum move"
            } else {
                ""
            };
            format!(
                "{} to move: pick a piece with Enter{quantum}, : type a move, ? help",
                self.game.to_move().name()
            )
        };
        self.say(Tone::Plain, text);
    }

    /// The game, or in replay the state at the shown ply.
    pub fn game(&self) -> &dyn Playable {
        self.game.as_ref()
    }

    /// The game whose moves the history lists: the whole game in replay.
    pub fn history_game(&self) -> &dyn Playable {
        self.replay
            .as_ref()
            .map_or(self.game.as_ref(), |r| r.full.as_ref())
    }

    /// The message line.
    pub fn message(&self) -> &Message {
        &self.message
    }

    /// What the player is in the middle of.
    pub fn mode(&self) -> &VariantMode {
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

    /// The replay, while stepping through a game.
    pub fn replay(&self) -> Option<&VariantReplay> {
        self.replay.as_ref()
    }

    /// The ply whose trace is shown (0-based; the last one unless one was picked).
    pub fn shown_ply(&self) -> Option<usize> {
        steps::shown(self.selected_ply, self.game.history().len())
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
            VariantMode::Prompt { .. } => InputMode::Prompt,
            _ if self.replay.is_some() => InputMode::Replay,
            _ => InputMode::Variant,
        }
    }

    /// Carries out moves, take-backs and replay steps on worker threads (`Background`)
    /// or here (`Inline`, the default), as [`super::App::set_exec`].
    pub fn set_exec(&mut self, exec: Exec) {
        self.exec = exec;
    }

    /// The work being carried out, once it has taken long enough to show: what and how
    /// long.
    pub fn busy(&self) -> Option<(&str, Duration)> {
        self.pending.as_ref()?.busy()
    }

    /// Whether work is being carried out (shown or not yet), or the computer thinks.
    pub fn working(&self) -> bool {
        self.pending.is_some() || self.computer.busy()
    }

    /// Takes in work that finished on its worker thread and the computer's answer;
    /// true when the screen should be drawn again.
    pub fn tick(&mut self) -> bool {
        let worked = self.tick_work();
        if self.pending.is_some() {
            return worked;
        }
        opponent::tick(self) || worked
    }

    /// Takes in the work on a worker thread (see [`VariantApp::tick`]).
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

    /// Waits for the work being carried out and the computer's search, and takes
    /// them in.
    pub fn finish_work(&mut self) {
        while self.pending.is_some() || self.computer.thinking().is_some() {
            self.tick();
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Runs `job`'s work `f` on `game` (a copy) here or on a worker thread; `game`
    /// watches the flag Esc sets while `f` runs. [`VariantApp::finish`] takes the
    /// result in.
    fn run_job(
        &mut self,
        job: Job,
        mut game: Box<dyn Playable>,
        f: impl FnOnce(&mut dyn Playable) -> Result<(), String> + Send + 'static,
    ) {
        self.run_work(job, move |cancel: CancelFlag| {
            game.set_cancel(Some(cancel));
            let r = f(game.as_mut());
            game.set_cancel(None);
            r.map(|()| game)
        });
    }

    /// Runs `work` (given the flag Esc sets; it gives the game the job leads to) here
    /// or on a worker thread; [`VariantApp::finish`] takes the result in.
    fn run_work(
        &mut self,
        job: Job,
        work: impl FnOnce(CancelFlag) -> Result<Box<dyn Playable>, String> + Send + 'static,
    ) {
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

    /// `q`, Ctrl-C and Esc while work is pending (finished or not): quit, or cancel the
    /// work (dropping it sets its cancel flag; its result is thrown away). True when the
    /// key was one of them.
    fn stop_key(&mut self, key: KeyEvent) -> bool {
        match input::press(key) {
            input::Press::Interrupt | input::Press::Key(KeyCode::Char('q')) => self.quit = true,
            input::Press::Key(KeyCode::Esc) => {
                if let Some(p) = self.pending.take() {
                    if !matches!(self.mode, VariantMode::Prompt { .. }) {
                        self.mode = VariantMode::Idle;
                    }
                    self.say(Tone::Plain, p.job.cancelled());
                }
            }
            _ => return false,
        }
        true
    }

    /// Handles one terminal event, as [`super::App::handle_event`] does.
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
                if let VariantMode::Prompt { line, .. } = &mut self.mode {
                    line.paste(&text);
                }
            }
            _ => {}
        }
    }

    /// Handles one mouse event as [`super::App::handle_mouse`] does; the wheel over the
    /// trace pane scrolls it.
    pub fn handle_mouse(&mut self, ev: MouseEvent) {
        let Some(g) = mouse::gesture(&self.hits.borrow(), ev) else {
            return;
        };
        let shown = Shown {
            help: self.help,
            game_over: self.game_over_popup && self.game.status() != Status::Ongoing,
            question: self.question.is_some(),
            replay: self.replay.is_some(),
            targets: !self.targets().is_empty(),
        };
        match self.pointer.act(g, shown) {
            // The trace pane does not scroll sideways.
            Some(Act::Action(Action::CircuitLeft | Action::CircuitRight)) | None => {}
            Some(Act::Action(a)) => self.update(a),
            Some(Act::Square(sq)) => self.click_square(sq),
            Some(Act::Move(i)) => self.click_move(i),
        }
    }

    /// A click on `sq`: the cursor goes there and the square is picked as Enter would
    /// (in replay only the cursor moves); with nothing selected, a square without a
    /// piece of the side to move only gets the cursor.
    fn click_square(&mut self, sq: Square) {
        match self.mode {
            VariantMode::Choice { .. } => {
                return self.say(
                    Tone::Error,
                    "pick the promotion by its letter (Esc cancels)",
                )
            }
            VariantMode::Prompt { .. } => self.mode = VariantMode::Idle,
            _ => {}
        }
        self.cursor = sq;
        if self.replay.is_some() {
            return;
        }
        if let Some(why) = self.seat_error() {
            return self.say(Tone::Plain, why);
        }
        if self.mode == VariantMode::Idle && !self.piece_of_mover(sq) {
            return self.say(
                Tone::Plain,
                format!(
                    "{sq} holds no piece of the side to move ({})",
                    self.game.to_move().name()
                ),
            );
        }
        self.update(Action::Select);
    }

    /// A click on ply `i` in the history: what it did is shown (in replay, the game
    /// after it).
    fn click_move(&mut self, i: usize) {
        if let Some(r) = &self.replay {
            let by = (i + 1) as i64 - r.ply as i64;
            return self.step_ply(by);
        }
        self.selected_ply = steps::repick(i, 0, self.game.history().len());
        self.trace_scroll = 0;
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
        if let (VariantMode::Choice { moves }, KeyCode::Char(c)) = (&self.mode, key.code) {
            let pick = moves
                .iter()
                .find(|m| m.ends_with(c.to_ascii_lowercase()))
                .or_else(|| moves.iter().find(|m| c == 'm' && m.len() == 4))
                .cloned();
            if let Some(m) = pick {
                return self.play(&m);
            }
        }
        match input::translate(self.input_mode(), key) {
            Some(a) => self.update(a),
            None => {
                if let KeyCode::Char(c) = key.code {
                    self.say(
                        Tone::Error,
                        format!("the key '{c}' does nothing here: press ? for the keys"),
                    );
                }
            }
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
        match action {
            Action::Cursor(dx, dy) => {
                let (dx, dy) = if self.flipped { (-dx, -dy) } else { (dx, dy) };
                if let Some(s) = self.cursor.offset(dx as i32, dy as i32) {
                    self.cursor = s;
                }
            }
            Action::Select | Action::QuantumMove
                if self.computer_to_move() && self.mode == VariantMode::Idle =>
            {
                self.say(Tone::Error, opponent::wait_words(self.game.to_move()))
            }
            Action::Select => self.select(false),
            Action::QuantumMove => self.select(true),
            Action::Hint | Action::Pause if self.replay.is_some() => self.say(
                Tone::Error,
                "this is a replay: p plays on from the shown ply, then H gives hints",
            ),
            Action::Hint => self.ask_hint(),
            Action::Pause => self.pause(),
            Action::Cancel => {
                if self.mode != VariantMode::Idle {
                    self.mode = VariantMode::Idle;
                    self.say(Tone::Plain, "cancelled");
                } else if self.computer.hide_hint() {
                    self.say(Tone::Plain, "hint hidden");
                } else if self.computer.thinking() == Some(Thought::Hint) {
                    self.computer.forget();
                    self.say(Tone::Plain, "hint stopped");
                } else {
                    self.game_over_popup = false;
                }
            }
            Action::Prompt => self.prompt(Purpose::Move, LineEdit::empty()),
            Action::Save if self.place.is_some() => self.say(Tone::Info, table::NO_SAVE),
            Action::Save => self.ask_save_path(),
            Action::GotoPly => self.prompt(Purpose::GotoPly, LineEdit::empty()),
            Action::Edit(e) => {
                if let VariantMode::Prompt { line, .. } = &mut self.mode {
                    line.edit(e);
                }
            }
            Action::Recall => {
                if let VariantMode::Prompt {
                    line,
                    purpose: Purpose::Move,
                } = &mut self.mode
                {
                    *line = LineEdit::with_text(self.last_typed.clone());
                }
            }
            Action::Submit => self.submit(),
            Action::Undo => self.undo(),
            Action::Flip => self.flipped = !self.flipped,
            Action::NextPane => {
                self.drawer = self.drawer.next();
                let name = self.drawer.name("trace");
                self.say(
                    Tone::Plain,
                    format!("small screens show the {name} below the board"),
                );
            }
            Action::Help => self.help = true,
            Action::Quit => self.ask_quit(),
            Action::Interrupt => self.quit = true,
            Action::Yes | Action::No => {}
            Action::NewGame => self.new_game(),
            Action::HistoryPrev => self.pick_ply(-1),
            Action::HistoryNext => self.pick_ply(1),
            Action::CircuitUp => self.trace_scroll = self.trace_scroll.saturating_sub(3),
            Action::CircuitDown => self.trace_scroll = self.trace_scroll.saturating_add(3),
            Action::PlyStep(d) => self.step_ply(d),
            Action::PlyFirst => self.step_ply(i64::MIN / 2),
            Action::PlyLast => self.step_ply(i64::MAX / 2),
            Action::PlayFromHere => self.play_from_here(),
            Action::Split | Action::Merge => self.say(
                Tone::Error,
                "splits and merges belong to Quantum Chess; harmonics has quantum moves (t)",
            ),
            Action::Inspect => self.say(
                Tone::Plain,
                "the inspector (Bell values, entanglement) belongs to Quantum Chess",
            ),
            Action::CircuitView
            | Action::CircuitLeft
            | Action::CircuitRight
            | Action::Promote(_) => self.say(
                Tone::Plain,
                "this variant has no circuit: the trace pane lists what each move did",
            ),
        }
    }

    fn prompt(&mut self, purpose: Purpose, line: LineEdit) {
        let hint = match purpose {
            Purpose::Move if self.game.rules() == RuleSet::Harmonics => {
                "type a move: e2e4 or Nf3, e7e8q, b1~d5 (quantum); Enter plays, Esc cancels"
            }
            Purpose::Move => "type a move: e2e4, b1c3, e7e8 (type left open) or e7e8q",
            Purpose::SavePath => prompts::SAVE_HINT,
            Purpose::GotoPly => "type a ply number, Enter shows it, Esc cancels",
        };
        self.mode = VariantMode::Prompt { line, purpose };
        self.say(Tone::Plain, hint);
    }

    /// The legal moves of the piece on `from`, ordinary or quantum.
    fn moves_of(&self, from: Square, quantum: bool) -> Vec<String> {
        self.game
            .legal_moves()
            .into_iter()
            .filter(|m| move_squares(m).is_some_and(|(f, _, q)| f == from && q == quantum))
            .collect()
    }

    fn select(&mut self, quantum: bool) {
        if let Some(why) = self.seat_error() {
            return self.say(Tone::Error, why);
        }
        if quantum && self.game.rules() != RuleSet::Harmonics {
            return self.say(
                Tone::Error,
                format!(
                    "{} has no quantum moves: Enter picks a piece, then its target",
                    self.game.rules()
                ),
            );
        }
        let sq = self.cursor;
        if let VariantMode::Source {
            from,
            quantum: q,
            moves,
        } = self.mode.clone()
        {
            if quantum && !q {
                return self.pick(from, true);
            }
            if sq == from && !quantum {
                self.mode = VariantMode::Idle;
                return self.say(Tone::Plain, "selection cleared");
            }
            let to_here: Vec<String> = moves
                .into_iter()
                .filter(|m| move_squares(m).is_some_and(|(_, t, _)| t == sq))
                .collect();
            return match to_here.len() {
                0 if self.piece_of_mover(sq) => self.pick(sq, false),
                0 => {
                    let kind = if q { "quantum move" } else { "move" };
                    self.say(
                        Tone::Error,
                        format!("the piece on {from} has no legal {kind} to {sq}"),
                    )
                }
                1 => self.play(&to_here[0]),
                _ => {
                    let letters: Vec<String> = to_here
                        .iter()
                        .map(|m| {
                            m.get(4..)
                                .filter(|s| !s.is_empty())
                                .unwrap_or("m")
                                .to_string()
                        })
                        .collect();
                    self.say(
                        Tone::Plain,
                        format!("promote to: {} (Esc cancels)", letters.join(" ")),
                    );
                    self.mode = VariantMode::Choice { moves: to_here };
                }
            };
        }
        self.pick(sq, quantum);
    }

    /// Whether a piece of the side to move may stand on `sq`.
    fn piece_of_mover(&self, sq: Square) -> bool {
        let mover = self.game.to_move();
        self.game
            .cells()
            .iter()
            .any(|(s, c)| *s == sq && c.color == mover)
    }

    fn pick(&mut self, from: Square, quantum: bool) {
        let moves = self.moves_of(from, quantum);
        if moves.is_empty() {
            let what = if quantum {
                "quantum move"
            } else {
                "legal move"
            };
            let why = if self.piece_of_mover(from) {
                format!("the piece on {from} has no {what} now")
            } else {
                format!(
                    "{from} holds no piece of the side to move ({})",
                    self.game.to_move().name()
                )
            };
            self.mode = VariantMode::Idle;
            return self.say(Tone::Error, why);
        }
        let kind = if quantum { "quantum move" } else { "move" };
        self.say(
            Tone::Plain,
            format!("{from}: pick the target of its {kind} (Esc cancels)"),
        );
        self.mode = VariantMode::Source {
            from,
            quantum,
            moves,
        };
    }

    /// The targets of the selection, for the board.
    pub fn targets(&self) -> Vec<Square> {
        match &self.mode {
            VariantMode::Source { moves, .. } | VariantMode::Choice { moves } => moves
                .iter()
                .filter_map(|m| move_squares(m).map(|(_, t, _)| t))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The selected square, for the board.
    pub fn selected(&self) -> Option<Square> {
        match &self.mode {
            VariantMode::Source { from, .. } => Some(*from),
            _ => None,
        }
    }

    /// A harmonics move typed in standard algebraic notation (`Nf3`), as the move it
    /// names; `None` for anything else (haft's pieces have no type to name until their
    /// moves lock one in, so haft takes only squares).
    fn san_move(&self, input: &str) -> Option<Result<String, SanError>> {
        let harmonics = self.game.rules() == RuleSet::Harmonics;
        if !harmonics || crate::variants::harmonics::notation::parse(input).is_ok() {
            return None;
        }
        crate::variants::harmonics::san::read(self.game.as_ref(), input)
    }

    fn submit(&mut self) {
        let VariantMode::Prompt { line, purpose } = &self.mode else {
            return;
        };
        let (input, purpose) = (line.text().trim().to_string(), *purpose);
        match purpose {
            // The move line closes whatever happens; Up brings the text back.
            Purpose::Move if input.is_empty() => {
                self.mode = VariantMode::Idle;
                self.say(Tone::Plain, "no move typed");
            }
            Purpose::Move if self.computer_to_move() => {
                self.mode = VariantMode::Idle;
                self.last_typed = input;
                self.say(Tone::Error, opponent::wait_words(self.game.to_move()));
            }
            Purpose::Move => {
                self.mode = VariantMode::Idle;
                self.last_typed = input.clone();
                match (self.game.forced_outcome(&input), self.san_move(&input)) {
                    (Some(suffix), _) => self.say(Tone::Error, refused_outcome(&input, &suffix)),
                    (None, Some(Ok(mv))) => self.play(&mv),
                    (None, Some(Err(e))) => self.say(Tone::Error, e.to_string()),
                    (None, None) => self.play(&input),
                }
            }
            Purpose::SavePath if input.is_empty() => {
                self.say(Tone::Error, "type a file name to save to (Esc cancels)")
            }
            Purpose::SavePath => self.save_typed_path(&input),
            Purpose::GotoPly => match input.parse::<usize>() {
                Ok(p) => {
                    let cur = self.replay.as_ref().map_or(0, |r| r.ply) as i64;
                    self.mode = VariantMode::Idle;
                    self.step_ply(p as i64 - cur);
                }
                Err(_) => self.say(
                    Tone::Error,
                    format!("{input:?} is not a ply number (0 is the start)"),
                ),
            },
        }
    }

    fn play(&mut self, text: &str) {
        if self.replay.is_some() {
            return self.say(
                Tone::Error,
                "this is a replay: p plays on from the shown ply",
            );
        }
        if let Some(why) = self.seat_error() {
            self.mode = VariantMode::Idle;
            return self.say(Tone::Error, why);
        }
        let owned = text.to_string();
        let job = Job::Move {
            input: owned.clone(),
            typed: false,
        };
        if let Some(place) = &self.place {
            // A shared game: the room plays the move and hands back its game.
            let (table, side) = (Arc::clone(&place.table), self.game.to_move());
            let ply = self.game.history().len();
            return self.run_work(job, move |cancel| table.play(side, ply, &owned, cancel));
        }
        // On a copy: the screen keeps drawing this game meanwhile.
        self.run_job(job, self.game.clone_box(), move |g| {
            g.play(&owned).map(|_| ()).map_err(|e| e.to_string())
        });
    }

    /// Takes in the game `job` led to and tells the player, or says why it could not be
    /// done (the game is then unchanged).
    fn finish(&mut self, job: Job, result: Result<Box<dyn Playable>, String>) {
        let game = match result {
            Ok(game) => game,
            Err(e) => {
                // A refused target keeps the selected piece; a promotion choice ends.
                if let VariantMode::Choice { .. } = self.mode {
                    self.mode = VariantMode::Idle;
                }
                return self.say(Tone::Error, job.failed(&e));
            }
        };
        self.game = game;
        match job {
            Job::Move { .. } => {
                self.after_change();
                self.tell_last_move();
                self.autosave();
                if self.computer.sides().both() {
                    self.computer.delay_next();
                }
                self.computer_turn();
            }
            Job::Undo { taken } => {
                self.after_change();
                let to_move = self.game.to_move().name();
                self.say(Tone::Info, format!("took back {taken}; {to_move} to move"));
                self.autosave();
                self.computer_turn();
            }
            Job::Ply { ply } => self.took_in_ply(ply),
        }
    }

    /// Tells what the last ply did, and the result when it ended the game.
    fn tell_last_move(&mut self) {
        let said = self.game.history().last().map(describe).unwrap_or_default();
        let said = match self.game.status() {
            Status::Ongoing => said,
            _ => format!("{said}. Game over: {}", self.result_words()),
        };
        self.say(Tone::Info, said);
    }

    fn after_change(&mut self) {
        // A line being typed stays open: the computer's move may come meanwhile.
        if !matches!(self.mode, VariantMode::Prompt { .. }) {
            self.mode = VariantMode::Idle;
        }
        self.computer.hide_hint();
        self.selected_ply = None;
        self.trace_scroll = 0;
        self.game_over_popup = self.game.status() != Status::Ongoing;
    }

    /// Takes back the last move (against the computer the last full move, see
    /// [`opponent::Sides::take_back`]), here or on a worker thread (harmonics replays
    /// the others).
    fn undo(&mut self) {
        if self.replay.is_some() {
            return;
        }
        if self.place.is_some() {
            return self.say(Tone::Error, table::NO_UNDO);
        }
        let history = self.game.history();
        let movers: Vec<_> = history.iter().map(|r| r.color).collect();
        let n = match self.computer.sides().take_back(&movers) {
            Ok(n) => n,
            Err(why) => return self.say(Tone::Error, why),
        };
        let taken = history[history.len() - n..]
            .iter()
            .map(|r| r.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        if self.computer.sides().both() {
            self.computer.set_paused(true);
        }
        self.computer.forget();
        self.run_job(Job::Undo { taken }, self.game.clone_box(), move |g| {
            (0..n).try_for_each(|_| g.undo().map_err(|e| e.to_string()))
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
        self.game = self.start.clone_box();
        self.recorder.restart(crate::record::now_secs());
        self.computer.forget();
        self.after_change();
        self.say(Tone::Info, "new game");
        self.autosave();
        self.computer_turn();
    }

    fn pick_ply(&mut self, step: i64) {
        let n = self.game.history().len();
        let Some(cur) = self.shown_ply() else {
            return self.say(Tone::Error, "no moves yet");
        };
        self.selected_ply = steps::repick(cur, step, n);
        self.trace_scroll = 0;
    }

    /// Shows ply `ply` of the replayed game (clamped), replayed here or on a worker
    /// thread.
    fn show_ply(&mut self, ply: usize) {
        let Some(r) = &self.replay else {
            return;
        };
        let texts: Vec<String> = r.full.history().iter().map(|p| p.text.clone()).collect();
        let ply = ply.min(texts.len());
        // Forward by one ply plays one move on the shown state; anything else replays.
        let forward = ply == r.ply + 1 && self.game.history().len() == r.ply;
        let (g, from) = if forward {
            (self.game.clone_box(), r.ply)
        } else {
            (self.start.clone_box(), 0)
        };
        self.run_job(Job::Ply { ply }, g, move |g| {
            for (i, t) in texts[..ply].iter().enumerate().skip(from) {
                g.play(t)
                    .map_err(|e| format!("ply {} does not replay: {e}", i + 1))?;
            }
            Ok(())
        });
    }

    /// Takes in the replay's state at `ply`.
    fn took_in_ply(&mut self, ply: usize) {
        let Some(r) = &mut self.replay else {
            return;
        };
        r.ply = ply;
        let n = r.full.history().len();
        self.mode = VariantMode::Idle;
        self.selected_ply = None;
        self.trace_scroll = 0;
        self.game_over_popup = false;
        let history = self.game.history();
        let last = history.last().map(|p| (p.color, p.text.as_str()));
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

    fn play_from_here(&mut self) {
        let Some(r) = self.replay.take() else {
            return;
        };
        self.recorder.restart(crate::record::now_secs());
        self.after_change();
        self.say(
            Tone::Info,
            format!(
                "a new game from ply {}: {} to move",
                r.ply,
                self.game.to_move().name()
            ),
        );
        self.autosave();
        self.computer_turn();
    }

    fn autosave(&mut self) {
        if let Some(m) = prompts::autosave_message(&self.recorder, &self.record(), &self.message) {
            self.set_message(m);
        }
    }
}

impl Plays for VariantApp {
    fn computer_mut(&mut self) -> &mut Computer {
        &mut self.computer
    }

    fn tell(&mut self, tone: Tone, text: &str) {
        self.say(tone, text);
    }

    fn awaited(&self) -> Option<(usize, crate::chess::Color)> {
        self.replay
            .is_none()
            .then(|| (self.game.history().len(), self.game.to_move()))
    }

    fn play_computer_move(&mut self, mv: &str) {
        self.play(mv);
    }

    fn hint_squares(&self, mv: &str) -> Vec<Square> {
        move_squares(mv)
            .map(|(a, b, _)| vec![a, b])
            .unwrap_or_default()
    }

    /// Starts the computer's search when it is to move (in a watched game once the
    /// pause after the last move is over).
    fn computer_turn(&mut self) {
        let searching = self.computer.thinking() == Some(Thought::Move);
        if self.computer_to_move() && self.pending.is_none() && !searching && self.computer.ready()
        {
            let (side, ply) = (self.game.to_move(), self.game.history().len());
            let thinking = self.greedy_search()();
            self.computer.start(Thought::Move, side, ply, thinking);
        }
    }
}

impl Asking for VariantApp {
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
        self.mode = VariantMode::Prompt { line, purpose };
    }
    fn close_line(&mut self) {
        if let VariantMode::Prompt { .. } = self.mode {
            self.mode = VariantMode::Idle;
        }
    }
    fn leave(&mut self) {
        self.quit = true;
    }
}

/// What a ply did, in words.
fn describe(rec: &PlyRecord) -> String {
    let who = rec.color.name();
    if rec.note.is_empty() {
        format!("{who} played {}", rec.text)
    } else {
        format!("{who} played {}: {}", rec.text, rec.note)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_of_moves() {
        let sq = |s| Square::parse(s).unwrap();
        assert_eq!(move_squares("e2e4"), Some((sq("e2"), sq("e4"), false)));
        assert_eq!(move_squares("b1~d4"), Some((sq("b1"), sq("d4"), true)));
        assert_eq!(move_squares("e7e8q"), Some((sq("e7"), sq("e8"), false)));
        assert_eq!(move_squares("e7"), None);
    }
}
