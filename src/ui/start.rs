//! The start of a plain `qchess`: when the newest autosave holds an unfinished game, a
//! small popup over the new game offers to resume it or to play the new one; no key
//! reaches the game until the player chose. Also what is printed on leaving.

use super::input::{self, Press};
use super::popup;
use super::prompts::{self, Asked};
use super::terminal::{open, Open, Opened, PlayOptions, Screen};
use super::work::Exec;
use crate::record::{self, SavedGame};
use crossterm::event::{Event, KeyCode};
use ratatui::Frame;
use std::path::{Path, PathBuf};

/// An unfinished autosaved game offered for resuming.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    /// The autosave file.
    pub path: PathBuf,
    /// The game in a few words: players, rules, moves, side to move, start date.
    pub summary: String,
    /// Why resuming failed, once it was tried.
    pub error: Option<String>,
}

/// The autosave `qchess resume` would open (the newest readable one not held by a
/// running game), when its game is unfinished, holds at least one move, and no newer game
/// was finished since: a player who finished their last game is not offered an older one.
pub fn resumable(data_dir: &Path) -> Option<Offer> {
    let search = record::newest_resumable(data_dir);
    let finished_since = search
        .skipped
        .iter()
        .any(|s| matches!(s.reason, record::SkipReason::Finished(_)));
    let (path, saved) = search.found?;
    (!finished_since && !saved.moves.is_empty()).then(|| Offer {
        summary: summary(&saved),
        path,
        error: None,
    })
}

/// "Ann vs Bo, quantum, 12 moves, white to move (started 2026-11-23 16:40 UTC)".
fn summary(saved: &SavedGame) -> String {
    let n = saved.moves.len();
    // The side to move: the start's, turned once per ply.
    let black_starts = saved
        .start
        .as_deref()
        .and_then(|fen| fen.split_whitespace().nth(1))
        == Some("b");
    let to_move = if black_starts ^ (n % 2 == 1) {
        "black"
    } else {
        "white"
    };
    let started = saved
        .date
        .get(..16)
        .map_or_else(|| saved.date.clone(), |d| d.replace('T', " "));
    format!(
        "{} vs {}, {}, {n} move{}, {to_move} to move (started {started} UTC)",
        saved.players.white,
        saved.players.black,
        saved.variant,
        if n == 1 { "" } else { "s" },
    )
}

impl Offer {
    /// The popup's words.
    pub fn asked(&self) -> Asked {
        let home = prompts::home_dir();
        let mut lines = vec![
            "An unfinished game was autosaved:".into(),
            self.summary.clone(),
            format!("in {}", prompts::tilde(&self.path, home.as_deref())),
        ];
        if let Some(e) = &self.error {
            lines.push(format!("It could not be resumed: {e}"));
        }
        Asked {
            title: " Resume? ",
            lines,
            keys: "r or Enter resume   n or Esc new game   q quit",
        }
    }
}

/// The game on screen, with the resume offer over it until the player chose.
pub struct Session {
    game: Opened,
    offer: Option<Offer>,
    opts: PlayOptions,
    quit: bool,
    /// Where the game on screen runs its moves (a resumed game gets it too).
    exec: Exec,
}

impl Session {
    /// `game` (a new one) with `offer` shown over it; `opts` open the offered game.
    pub fn new(game: Opened, offer: Option<Offer>, opts: PlayOptions) -> Session {
        Session {
            game,
            offer,
            opts,
            quit: false,
            exec: Exec::default(),
        }
    }

    /// The game on screen.
    pub fn game(&self) -> &Opened {
        &self.game
    }

    /// The resume offer, while it is shown.
    pub fn offer(&self) -> Option<&Offer> {
        self.offer.as_ref()
    }

    /// What to print on the restored terminal after leaving.
    pub fn farewell(&self) -> Option<String> {
        match &self.game {
            Opened::Quantum(app) => app.farewell(),
            Opened::Variant(app) => app.farewell(),
        }
    }

    /// A key while the offer is shown: r/Enter resume, n/Esc the new game, q or
    /// Ctrl-C leave.
    fn choose(&mut self, event: &Event) {
        let Event::Key(key) = event else {
            return;
        };
        match input::press(*key) {
            Press::Interrupt => self.quit = true,
            Press::Ignored => {}
            Press::Key(KeyCode::Char('r') | KeyCode::Enter) => self.resume(),
            Press::Key(KeyCode::Char('n') | KeyCode::Esc) => self.offer = None,
            Press::Key(KeyCode::Char('q')) => self.quit = true,
            Press::Key(_) => {}
        }
    }

    /// Opens the offered game in place of the new one (the offer stays up with the
    /// reason when it cannot be opened).
    fn resume(&mut self) {
        let Some(offer) = self.offer.take() else {
            return;
        };
        let opts = PlayOptions {
            open: Open::Resume,
            ..self.opts.clone()
        };
        match open(&opts) {
            Ok(game) => {
                self.game = game;
                self.set_exec(self.exec);
            }
            Err(e) => {
                self.offer = Some(Offer {
                    error: Some(e.to_string()),
                    ..offer
                })
            }
        }
    }
}

impl Screen for Session {
    fn draw(&self, f: &mut Frame) {
        self.game.draw(f);
        if let Some(offer) = &self.offer {
            popup::question_box(f, f.area(), self.game.paint(), &offer.asked());
        }
    }

    fn handle_event(&mut self, event: Event) {
        if self.offer.is_some() {
            return self.choose(&event);
        }
        self.game.handle_event(event)
    }

    fn should_quit(&self) -> bool {
        self.quit || self.game.should_quit()
    }

    fn set_exec(&mut self, exec: Exec) {
        self.exec = exec;
        self.game.set_exec(exec)
    }

    fn tick(&mut self) -> bool {
        self.game.tick()
    }

    fn working(&self) -> bool {
        self.game.working()
    }
}
