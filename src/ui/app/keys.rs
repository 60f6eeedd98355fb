//! How the game screen takes keys, the mouse and pasted text: the layers over the board
//! first, then the game's own actions.

use super::{App, Mode};
use crate::chess::Square;
use crate::game::table::{self};
use crate::ui::input::line_edit::LineEdit;
use crate::ui::input::mouse::{self, Act, OnScreen};
use crate::ui::input::{self, Action, InputMode};
use crate::ui::layers::explanation::Explanation;
use crate::ui::layers::prompts::Asking;
use crate::ui::layers::question::{Answer, Question};
use crate::ui::layers::typed_line::{Purpose, TypedLine};
use crate::ui::layers::{Layer, Outcome, Request};
use crate::ui::message::Tone;
use crate::ui::opponent::{self, Plays, ThinkingFor};
use crate::ui::work::{Job, MoveBy};
use crossterm::event::{Event, KeyCode, KeyEvent, MouseEvent};

impl App {
    /// Opens the explanation of the shown move, or says there is none yet.
    pub(super) fn open_explanation(&mut self) {
        if self.shown_move().is_none() {
            self.say(Tone::Plain, "no move yet: e explains the shown move");
        } else {
            self.layers.open(Layer::Explanation(Explanation));
            self.lesson_key_goal(crate::learn::Met::Explained);
        }
    }

    /// Which keys are live now.
    pub fn input_mode(&self) -> InputMode {
        if let Some(keys) = self.layers.keys() {
            return keys;
        }
        if self.lesson.as_ref().is_some_and(|r| r.list.is_some())
            || self.puzzle.as_ref().is_some_and(|r| r.list.is_some())
        {
            return InputMode::List;
        }
        match self.mode {
            Mode::Promotion { .. } => InputMode::Promotion,
            _ if self.replay.is_some() => InputMode::Replay,
            _ if self.lesson.is_some() || self.puzzle.is_some() => InputMode::Lesson,
            _ if self.game.quantum().is_some() => InputMode::Board,
            _ => InputMode::Variant,
        }
    }

    /// `q`, Ctrl-C and Esc while work is pending (finished or not): quit, or cancel the
    /// work (dropping it sets its cancel flag; its result is thrown away). True when the
    /// key was one of them.
    pub(super) fn stop_key(&mut self, key: KeyEvent) -> bool {
        match input::press(key) {
            input::Press::Interrupt | input::Press::Key(KeyCode::Char('q')) => self.quit = true,
            input::Press::Key(KeyCode::Esc) => {
                if let Some(p) = self.work.pending.take() {
                    self.work.steps = 0;
                    let typed = matches!(
                        p.job,
                        Job::Move {
                            by: MoveBy::Typed,
                            ..
                        }
                    );
                    if !typed {
                        self.mode = Mode::Idle;
                    }
                    if matches!(p.job, Job::Judge { .. }) {
                        self.unjudged_puzzle_try("the judging was stopped");
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
        if self.work.pending.is_some() {
            return;
        }
        match event {
            Event::Mouse(m) => self.handle_mouse(m),
            Event::Paste(text) => {
                if let Some(t) = self.layers.typed_line_mut() {
                    t.paste(&text);
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
            help: self.layers.help().is_some(),
            game_over: self.game_over_popup,
            question: self.layers.question().is_some(),
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
    pub(super) fn click_square(&mut self, sq: Square) {
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
            _ => {}
        }
        // A click on the board leaves the typed line.
        self.layers.close_line();
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
    pub(super) fn click_move(&mut self, i: usize) {
        if let Some(r) = &self.replay {
            let by = (i + 1) as i64 - r.ply as i64;
            return self.step_ply(by);
        }
        self.focus.pick(i, 0, self.game.ply());
    }

    /// Handles one key press.
    pub fn handle_key(&mut self, key: KeyEvent) {
        // q, Ctrl-C and Esc act on pending work at once; before any other key, work
        // that has just finished is taken in, so that quick steps (a replay's →) never
        // swallow the next key.
        if self.work.pending.is_some() && self.stop_key(key) {
            return;
        }
        self.tick();
        if let Some(p) = &self.work.pending {
            // A replay's steps are kept, to be taken once the step being shown is in;
            // so is a resignation, a draw offer or a claim (a player may resign at any
            // moment, the moment after their own move too); other keys do nothing
            // while work runs.
            let step = input::translate(self.input_mode(), key);
            match (&p.job, step) {
                (Job::Ply { .. }, Some(Action::PlyStep(by))) => self.work.steps += by,
                (_, Some(a @ (Action::Resign | Action::OfferDraw | Action::ClaimWin))) => {
                    self.work.decision = Some(a)
                }
                _ => {}
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

    /// A key that means nothing in the input mode: cancels a risky move, else is named
    /// as doing nothing.
    pub(super) fn unmapped(&mut self, key: KeyEvent) {
        // Any key cancels a risky move: only `y` plays it.
        let risky = matches!(self.layers.question(), Some(Question::KingRisk { .. }));
        if risky && input::press(key) != input::Press::Ignored {
            let cancelled = self
                .layers
                .close_question()
                .and_then(|q| q.answer(Action::No));
            if let Some(a) = cancelled {
                return self.carry_out(a);
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

    /// Applies one action.
    pub fn update(&mut self, action: Action) {
        if action == Action::Interrupt {
            self.quit = true;
            return;
        }
        // The layers over the board, then the lesson or puzzle, then the inspector take
        // the action before the game.
        let over = self.layers.handle(action);
        if self.follow(over) || self.guide_action(action) || self.inspector_action(action) {
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
                self.mode = Mode::Idle;
                let line = TypedLine::for_move(&self.last_typed);
                self.layers.open(Layer::TypedLine(line));
                self.say(Tone::Plain, hint);
            }
            Action::Save | Action::PlayFromHere if self.served => self.say(
                Tone::Info,
                "archived games are for stepping and review: ← → step, R review, q leaves",
            ),
            Action::Save if self.place.is_some() => self.say(Tone::Info, table::NO_SAVE),
            Action::Save => self.ask_save_path(),
            Action::PlyStep(d) => self.step_ply(d),
            Action::PlyFirst => self.step_ply(i64::MIN / 2),
            Action::PlyLast => self.step_ply(i64::MAX / 2),
            Action::GotoPly => {
                self.open_line(Purpose::GotoPly, LineEdit::empty());
                self.say(
                    Tone::Plain,
                    "type a ply number, Enter shows it, Esc cancels",
                );
            }
            Action::PlayFromHere => self.play_from_here(),
            Action::Review => self.review_key(),
            Action::Resign => self.resign_key(),
            Action::OfferDraw => self.draw_key(),
            Action::ClaimWin => self.claim_key(),
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
            Action::Help => self.layers.open_help(),
            Action::Explain => self.open_explanation(),
            Action::NextLesson
            | Action::RestartLesson
            | Action::LessonList
            | Action::NextTheme
            | Action::ShowBest => {
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
                self.focus.scroll_by(0, by, (0, u16::MAX));
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
                let view = self.focus.next_view();
                self.say(
                    Tone::Plain,
                    format!("circuit shown as: {}", view.describe()),
                );
            }
            Action::CircuitLeft => self.scroll_circuit(-8, 0),
            Action::CircuitRight => self.scroll_circuit(8, 0),
            Action::CircuitUp => self.scroll_circuit(0, -3),
            Action::CircuitDown => self.scroll_circuit(0, 3),
            Action::Promote(k) => self.promote(k),
            // The typed line's own keys, when no line is open.
            Action::Edit(_) | Action::Recall | Action::Submit => {}
        }
    }

    /// Hands `action` to the lesson or the puzzle this screen sets, if any; true when it
    /// took it.
    fn guide_action(&mut self, action: Action) -> bool {
        let outcome = match (&mut self.lesson, &mut self.puzzle) {
            (Some(run), _) => run.handle(action),
            (None, Some(run)) => run.handle(action),
            (None, None) => return false,
        };
        self.follow(outcome)
    }

    /// Hands `action` to the inspector, while it is open; true when it took it.
    fn inspector_action(&mut self, action: Action) -> bool {
        let (Some(ins), Some(game)) = (&mut self.inspector, self.game.quantum()) else {
            return false;
        };
        match ins.handle(action, game, self.cursor) {
            Outcome::Close => {
                self.inspector = None;
                self.say(Tone::Plain, "left the inspector");
                true
            }
            outcome => self.follow(outcome),
        }
    }

    /// Carries out what a layer's handler returned; true when the layer took the action.
    fn follow(&mut self, outcome: Outcome) -> bool {
        match outcome {
            Outcome::Pass => return false,
            Outcome::Consumed | Outcome::Close => {}
            Outcome::Answered(a) => self.carry_out(a),
            Outcome::Ask(r) | Outcome::CloseAsking(r) => self.grant(r),
            Outcome::Typed(purpose, text) => self.submit(purpose, text),
        }
        true
    }

    /// Carries out what a layer asked for.
    fn grant(&mut self, r: Request) {
        match r {
            Request::OpenLesson(n) => self.open_lesson(n),
            Request::OpenPuzzle(at) => self.open_puzzle(at),
            Request::Say(tone, text) => self.say(tone, text),
            Request::Quit => self.quit = true,
        }
    }

    /// Carries out the answer to a question.
    pub(super) fn carry_out(&mut self, a: Answer) {
        match a {
            Answer::Decide(side, decision) => self.take_decision(side, decision),
            Answer::PlayOn(words) => self.say(Tone::Plain, words),
            Answer::PlayRisky(input) => self.play(input, MoveBy::Confirmed),
            Answer::DropRisky(input) => self.say(
                Tone::Plain,
                format!("{input} not played: the game is unchanged"),
            ),
            a => self.answered(a),
        }
    }

    /// Esc: the selection, the hint, the search or the game-over box, in that order.
    pub(super) fn cancel(&mut self) {
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

    /// Moves the cursor by (`dx`, `dy`) as seen on the screen.
    pub(super) fn move_cursor(&mut self, dx: i8, dy: i8) {
        let (dx, dy) = if self.flipped { (-dx, -dy) } else { (dx, dy) };
        if let Some(s) = self.cursor.offset(dx as i32, dy as i32) {
            self.cursor = s;
            if let Some(g) = self.game.quantum() {
                self.view.focus(g, s);
            }
        }
    }

    /// Picks the history entry `step` away from the one shown (its circuit is shown).
    pub(super) fn pick_move(&mut self, step: i64) {
        let n = self.game.ply();
        let Some(cur) = self.shown_move() else {
            return self.say(Tone::Error, "no moves yet");
        };
        self.focus.pick(cur, step, n);
    }
}
