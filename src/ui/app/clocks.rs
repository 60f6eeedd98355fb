//! The game screen's clocks and the endings outside the rules: the time control's two
//! clocks (stopped while a move is computed), a flag that falls, resigning (`X`, asks
//! first) and draw offers (`D`: the other player answers at the keyboard; the computer
//! answers by its evaluation, [`crate::engine::draws`]), all recorded in the saved game.
//!
//! At a table (a server room) the table owns the clocks and the endings: the screen
//! shows the table's clocks ticking, sends its decisions to the table and shows what
//! the table decided ([`App::take_news`]). There a player whose opponent left a rated
//! game is asked once whether to claim the win or wait; `C` claims it later.

use super::App;
use crate::chess::{Color, Status};
use crate::game::clock::{Clock, Ending, TimeControl};
use crate::game::table::{Decision, Left, Seat, TableNews};
use crate::record::{SavedClock, CLOCK_VERSION};
use crate::ui::layers::clocks::Clocks;
use crate::ui::layers::prompts::Asking;
use crate::ui::layers::question::Question;
use crate::ui::message::Tone;
use std::sync::Arc;
use std::time::Instant;

impl App {
    /// This game on the clock `control`, with `saved`'s times when it is resumed; the
    /// clock of the side to move starts at once.
    pub fn with_clock(mut self, control: TimeControl, saved: Option<SavedClock>) -> App {
        self.set_clock(control, saved);
        self
    }

    /// Puts the game on the clock `control` (see [`App::with_clock`]).
    pub(in crate::ui) fn set_clock(&mut self, control: TimeControl, saved: Option<SavedClock>) {
        let record = saved.unwrap_or(SavedClock {
            version: CLOCK_VERSION,
            control: control.to_string(),
            left: Vec::new(),
        });
        let history = self.game.history();
        let first = history.first().map_or(self.game.to_move(), |r| r.color);
        let left = record.left_after(control, history.len(), first);
        let mut clock = Clock::resumed(control, left);
        if self.replay.is_none() && self.status() == Status::Ongoing {
            clock.start(self.game.to_move(), Instant::now());
        }
        let clock = Some(clock).filter(|_| self.replay.is_none());
        self.clocks.set(clock, record);
    }

    /// The game's clocks.
    pub fn clocks(&self) -> &Clocks {
        &self.clocks
    }

    /// This game ended as `ending` said (a saved game's recorded reason).
    pub fn with_ending(mut self, ending: Option<Ending>) -> App {
        self.ending = ending;
        self
    }

    /// The game's result: its rules', or how it ended outside them (in replay, once
    /// the last ply is shown).
    pub fn status(&self) -> Status {
        let at_end = self.replay.as_ref().is_none_or(|r| r.ply == r.full.ply());
        match at_end {
            true => self.final_status(),
            false => self.game.status(),
        }
    }

    /// The whole game's result, whichever ply a replay shows.
    pub fn final_status(&self) -> Status {
        match &self.ending {
            Some(e) => e.status,
            None => self.history_game().status(),
        }
    }

    /// Why the game ended outside its rules, when it did.
    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// Takes in what the table says beside the game: its clocks (shown ticking, as
    /// they run at the table), how the game ended outside its moves, the draw offer
    /// that stands (the player it is made to is asked to answer it), and an opponent
    /// who left a rated game (the player is asked once whether to claim the win).
    pub fn take_news(&mut self, news: TableNews) {
        self.clocks.take_table(news.clock);
        if let (Some(e), None) = (news.ending, &self.ending) {
            self.end(e);
        }
        let asked = matches!(self.layers.question(), Some(Question::Draw { .. }));
        match news.offer {
            Some(by) if self.table_side() == Some(by.opposite()) && !asked => {
                self.ask(Question::Draw { by })
            }
            None if asked => {
                self.layers.close_question();
            }
            _ => {}
        }
        self.take_left(news.left);
    }

    /// Takes in whether the opponent left a rated game: asked once when they leave
    /// whether to claim the win (unless another question is open: `C` asks then); the
    /// question goes when they are back or it is claimed.
    fn take_left(&mut self, left: Option<Left>) {
        let mine = left.filter(|l| self.table_side() == Some(l.side.opposite()));
        let asked = matches!(self.layers.question(), Some(Question::Claim { .. }));
        let free = self.layers.question().is_none();
        let claimed = mine.is_some_and(|l| l.claimed.is_some());
        match (self.opponent_left, mine) {
            (None, Some(l)) if !claimed && free => self.ask(Question::Claim {
                side: l.side,
                most: l.most,
            }),
            _ if asked && (mine.is_none() || claimed) => {
                self.layers.close_question();
            }
            _ => {}
        }
        self.opponent_left = mine;
    }

    /// The side this screen plays at a table.
    fn table_side(&self) -> Option<Color> {
        match self.place()?.seat {
            Seat::Plays(side) => Some(side),
            Seat::Watches => None,
        }
    }

    /// The clocks for the status line: "▶white 4:58", "black 5:00" (the running one
    /// marked); in replay, as they were after the shown ply.
    pub fn clock_facts(&self) -> Vec<String> {
        let shown = self.replay.as_ref().map(|r| {
            let first = r.full.history().first().map_or(Color::White, |m| m.color);
            (first, r.ply)
        });
        let mark = if self.paint.ascii { ">" } else { "▶" };
        self.clocks.facts(shown, mark)
    }

    /// A move was entered: the mover's clock stops (the simulator's work is on nobody's
    /// clock). At a table the table stops it.
    pub(in crate::ui) fn clock_entered(&mut self) {
        let side = self.game.to_move();
        if self.place().is_some() {
            return;
        }
        self.clocks.entered(side);
    }

    /// The entered move was played: the mover gains the increment, the other side's
    /// clock starts.
    pub(in crate::ui) fn clock_moved(&mut self) {
        let next = (self.status() == Status::Ongoing).then(|| self.game.to_move());
        self.clocks.moved(self.game.ply(), next);
    }

    /// The entered move was refused: the mover's clock runs again.
    pub(in crate::ui) fn clock_refused(&mut self) {
        self.clocks.refused();
    }

    /// Looks at the flags (at a table the table does); true when the clocks read
    /// otherwise than when last drawn.
    pub(in crate::ui) fn tick_clock(&mut self) -> bool {
        if self.clocks.control().is_none() {
            return false;
        }
        let here = self.place().is_none();
        if here && self.final_status() == Status::Ongoing {
            if let Some(side) = self.clocks.fallen() {
                self.end(Ending::on_time(side));
                return true;
            }
        }
        let facts = self.clock_facts();
        self.clocks.show(facts)
    }

    /// Ends the game outside its rules: the clocks stop, the computer stops thinking,
    /// the result shows and is saved. A game that is over already (by its rules or
    /// outside them) keeps its result: a finished game never changes.
    pub(in crate::ui) fn end(&mut self, ending: Ending) {
        if self.final_status() != Status::Ongoing {
            return;
        }
        self.clocks.stop();
        self.computer.forget();
        let reason = ending.reason.clone();
        self.ending = Some(ending);
        self.mode = super::Mode::Idle;
        self.layers.close_line();
        self.game_over_popup = self.lesson.is_none() && self.puzzle.is_none();
        self.say(
            Tone::Info,
            format!("Game over: {}, {reason}", self.result_words()),
        );
        self.autosave();
    }

    /// Why the game takes no move, when it is over: "the game is over: white lost on
    /// time", "the game is over: Black wins".
    pub(in crate::ui) fn over_words(&self) -> Option<String> {
        if let Some(e) = &self.ending {
            return Some(format!("the game is over: {}", e.reason));
        }
        let status = self.final_status();
        (status != Status::Ongoing).then(|| format!("the game is over: {}", self.result_words()))
    }

    /// Whether `u` may take a move back here; why not, in the player's words. Never at
    /// a table (the other player moved on that position), in a game on a clock (time
    /// was spent on the moves), or in one that ended outside its moves (a flag, a
    /// resignation, an agreement: taking a move back would change a finished result).
    /// A game ended by its moves alone, off the clock, may be taken back: that is how a
    /// player tries the other line after a lost king.
    pub(in crate::ui) fn take_back_rule(&self) -> Result<(), &'static str> {
        if self.place().is_some() {
            return Err(crate::game::table::NO_UNDO);
        }
        if self.clocks.record().is_some() || self.ending.is_some() {
            return Err("no take-backs in a game on a clock or one that has ended");
        }
        Ok(())
    }

    /// The side the player at this keyboard plays for a resignation or a draw offer:
    /// at a table its seat; else the side to move, or against the computer the other
    /// one. Who cannot, and why.
    fn player_side(&self) -> Result<Color, &'static str> {
        if self.place().is_some() {
            return self
                .table_side()
                .ok_or("you are watching: only the players resign or offer a draw");
        }
        let to_move = self.game.to_move();
        match (
            self.computer.plays(to_move),
            self.computer.plays(to_move.opposite()),
        ) {
            (true, true) => Err("the computer plays both sides: nobody to resign or offer a draw"),
            (true, false) => Ok(to_move.opposite()),
            _ => Ok(to_move),
        }
    }

    /// Why a resignation or a draw offer makes no sense now, if it does not.
    fn decision_error(&self) -> Option<&'static str> {
        if self.replay.is_some() {
            Some("this is a replay: the game's result is recorded")
        } else if self.status() != Status::Ongoing {
            Some("the game is over")
        } else if self.lesson.is_some() || self.puzzle.is_some() {
            Some("lessons and puzzles have no result to give away")
        } else {
            None
        }
    }

    /// `X`: resign (asks first).
    pub(in crate::ui) fn resign_key(&mut self) {
        if let Some(why) = self.decision_error() {
            return self.say(Tone::Error, why);
        }
        match self.player_side() {
            Ok(side) => self.ask(Question::Resign { side }),
            Err(why) => self.say(Tone::Error, why),
        }
    }

    /// `D`: offer a draw (asks first). At one keyboard the other player answers; the
    /// computer answers at once by its evaluation ([`crate::engine::draws`]); at a
    /// table the table asks the other seat.
    pub(in crate::ui) fn draw_key(&mut self) {
        if let Some(why) = self.decision_error() {
            return self.say(Tone::Error, why);
        }
        match self.player_side() {
            Ok(side) => self.ask(Question::OfferDraw { side }),
            Err(why) => self.say(Tone::Error, why),
        }
    }

    /// `C`: claim the win from an opponent who left a rated game (asks first).
    pub(in crate::ui) fn claim_key(&mut self) {
        if let Some(why) = self.decision_error() {
            return self.say(Tone::Error, why);
        }
        if let Err(why) = self.player_side() {
            return self.say(Tone::Error, why);
        }
        match self.opponent_left {
            Some(Left {
                claimed: Some(_), ..
            }) => self.say(Tone::Plain, "your claim stands: wait for its end"),
            Some(l) => self.ask(Question::Claim {
                side: l.side,
                most: l.most,
            }),
            None => self.say(
                Tone::Error,
                "nothing to claim: your opponent is here, or this game is not rated",
            ),
        }
    }

    /// Carries out `side`'s `decision`: at a table the table takes it and tells every
    /// screen (this one with the others); here the game ends, or goes on, at once.
    pub(in crate::ui) fn take_decision(&mut self, side: Color, decision: Decision) {
        if let Some(place) = self.place() {
            let table = Arc::clone(&place.table);
            if let Err(why) = table.decide(side, decision) {
                self.say(Tone::Error, why);
            }
            return;
        }
        let other = side.opposite();
        match decision {
            Decision::Resign => self.end(Ending::resigned(side)),
            Decision::AcceptDraw => self.end(Ending::agreed()),
            Decision::DeclineDraw => self.say(
                Tone::Plain,
                format!("{} declines the draw: play on", side.name()),
            ),
            Decision::OfferDraw if !self.computer.plays(other) => {
                self.ask(Question::Draw { by: side })
            }
            Decision::OfferDraw => {
                match crate::engine::draws::answer_draw(self.game.as_ref(), other) {
                    Ok(()) => self.end(Ending::agreed()),
                    Err(no) => self.say(Tone::Plain, no),
                }
            }
            // Nobody leaves a game played at one keyboard.
            Decision::ClaimWin => self.say(Tone::Error, "there is nobody here to claim a win from"),
        }
    }
}
