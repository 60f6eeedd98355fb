//! The computer at the game screen: when it moves, its searches, and the hints.

use super::App;
use crate::chess::{Square, Status};
use crate::engine::Choice;
use crate::game::table::Seat;
use crate::game::Move;
use crate::ui::message::Tone;
use crate::ui::opponent::{self, Computer, Plays, ThinkingFor};
use crate::ui::work::MoveBy;

impl App {
    /// Whether the computer plays the side to move in the game being played.
    pub(in crate::ui) fn computer_to_move(&self) -> bool {
        self.replay.is_none()
            && self.status() == Status::Ongoing
            && self.computer.plays(self.game.to_move())
    }

    /// What starts the computer's search for `purpose` in the game as it is: the
    /// engine in Quantum Chess; elsewhere a greedy search on a copy, on its own thread.
    pub(super) fn search(
        &mut self,
        purpose: ThinkingFor,
    ) -> Box<dyn FnOnce() -> crate::engine::Thinking> {
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
    pub(super) fn ask_hint(&mut self) {
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
        let input = match self.game.quantum() {
            Some(_) => match crate::chess::notation::parse(mv) {
                Ok(text) => Move::Quantum {
                    given: mv.clone(),
                    text,
                },
                Err(e) => return self.say(Tone::Error, format!("the computer's move {mv}: {e}")),
            },
            None => Move::Text(mv.clone()),
        };
        let book = choice.from_book;
        self.play(input, MoveBy::Computer { book });
    }

    fn hint_squares(&self, mv: &str) -> Vec<Square> {
        match self.game.quantum() {
            Some(_) => crate::chess::notation::parse(mv)
                .map(|t| crate::ui::panes::glyphs::shape_squares(t.shape))
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
        if !self.computer_to_move() || self.work.pending.is_some() || searching {
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
