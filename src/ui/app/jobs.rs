//! Moves, take-backs and replay steps carried out here or on a worker thread, and what
//! their results change on the screen.

use super::king_risk::KingCheck;
use super::{view_of, Led};
use super::{App, Mode};
use crate::chess::Status;
use crate::game::table::{self, Seat};
use crate::game::{CancelFlag, Move, Playable};
use crate::ui::app::steps;
use crate::ui::layers::prompts::Asking;
use crate::ui::layers::typed_line::Purpose;
use crate::ui::message::Tone;
use crate::ui::opponent::{self, Plays};
use crate::ui::view::View;
use crate::ui::work::{Exec, Job, MoveBy, Pending};
use std::sync::Arc;
use std::time::Duration;

/// The work of a screen: where it runs, the job underway, and the keys pressed while
/// it runs.
#[derive(Debug, Default)]
pub(in crate::ui) struct Underway {
    /// Where moves, take-backs and replay steps are carried out.
    pub(super) exec: Exec,
    /// The job being carried out on a worker thread.
    pub(super) pending: Option<Pending<Led>>,
    /// Replay steps pressed while a step was still being shown (key repeat, or keys
    /// faster than a step): taken once it is shown.
    pub(super) steps: i64,
    /// A resignation, draw offer or claim pressed while work was carried out: asked
    /// once the work is in, unless it asks a question of its own.
    pub(super) decision: Option<crate::ui::input::Action>,
}

impl App {
    /// Takes in work that finished on its worker thread, and the computer's progress and
    /// answer. True when the screen should be drawn again: the work finished, or the
    /// busy line's time moved on, or the computer thinks.
    pub fn tick(&mut self) -> bool {
        let worked = self.tick_work() | self.tick_review() | self.tick_clock();
        if self.work.pending.is_some() {
            return worked;
        }
        let changed = opponent::tick(self) || worked;
        if self.computer.hint().is_some() && self.lesson.is_some() {
            let hint = self.message().text.clone();
            self.lesson_key_goal(crate::learn::Met::Hinted(hint));
        }
        changed
    }

    /// Takes in the work on a worker thread (see [`App::tick`]).
    pub(super) fn tick_work(&mut self) -> bool {
        let Some(p) = &self.work.pending else {
            return false;
        };
        let Some(result) = p.result() else {
            return p.shown();
        };
        if let Some(p) = self.work.pending.take() {
            self.finish(p.job, result);
        }
        if let Some(a) = self.work.decision.take() {
            if self.work.pending.is_none() && self.layers.question().is_none() {
                self.update(a);
            }
        }
        true
    }

    /// Waits for the work being carried out and takes it in, and for the computer's
    /// search (not for a watched game's next move, which waits for its pause).
    pub fn finish_work(&mut self) {
        while self.work.pending.is_some() || self.computer.thinking().is_some() {
            self.tick();
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Runs `job`'s work `f` here or on a worker thread (see [`App::set_exec`]); `f`
    /// gets the flag that Esc sets, and gives the game the job leads to (watching no
    /// flag). The panes' view of it is computed there too. [`App::finish`] takes the
    /// result in.
    pub(super) fn run_job(
        &mut self,
        job: Job,
        f: impl FnOnce(CancelFlag) -> Result<Box<dyn Playable>, String> + Send + 'static,
    ) {
        self.run_checked(job, None, f);
    }

    /// As [`App::run_job`], first looking at the move with `check` (there too): a move
    /// it finds risky is held back, unplayed, to be asked about.
    pub(super) fn run_checked(
        &mut self,
        job: Job,
        check: Option<KingCheck>,
        f: impl FnOnce(CancelFlag) -> Result<Box<dyn Playable>, String> + Send + 'static,
    ) {
        let cursor = self.cursor;
        self.run_led(job, move |cancel| {
            if let Some(threat) = check.and_then(|c| c.risk()) {
                return Ok(Led::Risky(threat));
            }
            let game = f(cancel)?;
            let view = view_of(game.as_ref(), cursor);
            Ok(Led::Game(game, view))
        });
    }

    /// Runs `job`'s `work` here or on a worker thread; [`App::finish`] takes in what it
    /// led to.
    pub(super) fn run_led(
        &mut self,
        job: Job,
        work: impl FnOnce(CancelFlag) -> Result<Led, String> + Send + 'static,
    ) {
        match self.work.exec {
            Exec::Inline => {
                let result = work(CancelFlag::default());
                self.finish(job, result);
            }
            Exec::Background => {
                self.work.pending = Some(Pending::start(job, work));
            }
        }
    }

    /// Runs `job` on a copy of the game that watches the flag Esc sets while `f` changes
    /// it (see [`App::run_job`]).
    pub(super) fn on_copy(
        &mut self,
        job: Job,
        game: Box<dyn Playable>,
        f: impl FnOnce(&mut dyn Playable) -> Result<(), String> + Send + 'static,
    ) {
        self.run_job(job, copied(game, f));
    }

    /// Enter on the typed line: saves to the typed path, goes to the typed ply, or plays
    /// the typed move.
    pub(super) fn submit(&mut self, purpose: Purpose, input: String) {
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
        self.layers.close_line();
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
    /// thread (see [`App::set_exec`]); [`App::finish`] tells the player. A move read
    /// already is played as read (a room, which checks what it is handed, gets its text).
    pub(in crate::ui) fn play(&mut self, input: Move, by: MoveBy) {
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
        // A move that would put the player's safe king in danger is looked at first, on
        // the same worker thread, and held back to be asked about.
        let check = self.king_check(&input, by);
        let job = Job::Move {
            input: input.clone(),
            by,
        };
        if let Some(place) = &self.place {
            // A shared game: the room plays the move and hands back its game.
            let (table, side, ply) = (
                Arc::clone(&place.table),
                self.game.to_move(),
                self.game.ply(),
            );
            return self.run_checked(job, check, move |cancel| {
                table.play(side, ply, &input, cancel)
            });
        }
        // The move is played on a copy: the screen keeps drawing this game, and a
        // cancelled move leaves it as it was.
        let work = copied(self.game.clone_box(), move |g| {
            g.play_move(&input).map(|_| ()).map_err(|e| e.to_string())
        });
        self.run_checked(job, check, work);
    }

    /// Takes in what `job` led to (the game and its view) and tells the player, or says
    /// why it could not be done (the game is then unchanged).
    pub(super) fn finish(&mut self, job: Job, result: Result<Led, String>) {
        let (game, view) = match result {
            Ok(Led::Game(game, view)) => (game, view),
            Ok(Led::Risky(threat)) => {
                // The player decides on the clock, as before the move was entered.
                self.clock_refused();
                return self.ask_king_risk(job, &threat);
            }
            Ok(Led::Judged(judged)) => {
                if let Job::Judge { said, .. } = job {
                    self.took_judgement(said, *judged);
                }
                return;
            }
            Err(e) => {
                match job {
                    Job::Move { .. } => self.clock_refused(),
                    Job::Judge { .. } => self.unjudged_puzzle_try("it could not be judged"),
                    _ => {}
                }
                self.work.steps = 0;
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
                let by = std::mem::take(&mut self.work.steps);
                if by != 0 {
                    self.step_ply(by);
                }
            }
            // A judgement leads to `Led::Judged`, taken in above.
            Job::Judge { .. } => {}
        }
    }

    /// Tells what the last move did (and that it came from the computer's opening
    /// `book`), warns when it left a king of this screen's player likely to be captured,
    /// and tells the result when it ended the game. A move not made here (`own` false:
    /// the computer's, or one from another screen of the table) that answers the move
    /// made here is told after that move, so both stay readable: "white played ...
    /// Reply: black played ...".
    pub(super) fn tell_last_move(&mut self, book: bool, own: bool) {
        let Some(last) = self.game.history().last().cloned() else {
            return;
        };
        let said = if book {
            steps::book_ply_words(&last)
        } else {
            steps::ply_words(&last)
        };
        let warning = self.king_warning(last.color);
        let said = self.talk.tell_move(said, warning, self.game.ply(), own);
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
    pub(super) fn king_warning(&self, mover: crate::chess::Color) -> Option<String> {
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

    /// Puts a new position on the screen (a lesson's or a puzzle's): nothing picked,
    /// inspected or explained, the computer's work on the old one forgotten.
    pub(super) fn set_position(&mut self, game: crate::chess::Game) {
        self.game = game.into();
        self.mode = Mode::Idle;
        self.inspector = None;
        self.focus.unpick();
        self.layers.close_explanation();
        self.computer.forget();
        self.after_change();
    }

    /// Refreshes everything derived from the game after it changed.
    pub(in crate::ui) fn after_change(&mut self) {
        let view = view_of(self.game.as_ref(), self.cursor);
        self.after_change_with(view);
    }

    /// As [`App::after_change`], with the view already computed.
    pub(super) fn after_change_with(&mut self, view: View) {
        // A line being typed stays open (it is not a mode): the computer's move may come
        // meanwhile.
        self.mode = Mode::Idle;
        self.computer.hide_hint();
        self.focus.follow_last();
        self.view = view;
        // A new move tells its own warning.
        self.talk.forget_warning();
        // A lesson or a puzzle says how it ended in its own pane.
        self.game_over_popup =
            self.status() != Status::Ongoing && self.lesson.is_none() && self.puzzle.is_none();
        if let (Some(ins), Some(g)) = (&mut self.inspector, self.game.quantum()) {
            ins.refresh(g);
        }
    }

    /// Takes back the last move (against the computer the last full move, see
    /// [`opponent::Sides::take_back`]), here or on a worker thread.
    pub(super) fn undo(&mut self) {
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

    /// `n` once the game is over: the same start and options, with new outcomes.
    pub(super) fn new_game(&mut self) {
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
