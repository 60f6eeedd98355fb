//! The start of a plain `qchess`: when the newest autosave holds an unfinished game, a
//! small popup over the new game offers to resume it or to play the new one; no key
//! reaches the game until the player chose. Also what is printed on leaving.

use super::app::App;
use super::input::{self, Press};
use super::layers::kept::{home_dir, tilde};
use super::layers::question::Asked;
use super::open::{open, open_watched, Open, OpenError, PlayOptions};
use super::popup;
use super::terminal::{require_terminal, run_screen, Ended, Screen, TerminalOptions};
use super::work::{busy_line, Exec, Polled, Work};
use crate::game::CancelFlag;
use crate::record::{self, SavedGame};
use crossterm::event::{Event, KeyCode};
use ratatui::Frame;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// An unfinished autosaved game offered for resuming.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    /// The autosave file.
    pub path: PathBuf,
    /// The game in a few words: players, rules, the move it is at, side to move, start
    /// date.
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

/// "Ann vs Bo, quantum, move 7, white to move (started 2026-11-23 16:40 UTC)": the
/// move is numbered as chess players number it (a move is white's and black's ply;
/// the start position's FEN gives the first number).
fn summary(saved: &SavedGame) -> String {
    let mut fen = saved
        .start
        .as_deref()
        .unwrap_or_default()
        .split_whitespace();
    let black_starts = fen.nth(1) == Some("b");
    let first: usize = fen.nth(3).and_then(|n| n.parse().ok()).unwrap_or(1);
    // Plies counted from white's first move of the first numbered move.
    let plies = saved.moves.len() + usize::from(black_starts);
    let to_move = if plies % 2 == 1 { "black" } else { "white" };
    let started = saved
        .date
        .get(..16)
        .map_or_else(|| saved.date.clone(), |d| d.replace('T', " "));
    format!(
        "{} vs {}, {}, move {}, {to_move} to move (started {started} UTC)",
        saved.players.white,
        saved.players.black,
        saved.variant,
        first + plies / 2,
    )
}

impl Offer {
    /// The popup's words; `busy`: the game has been loading for this long.
    pub fn asked(&self, busy: Option<Duration>, ascii: bool) -> Asked {
        let home = home_dir();
        let mut lines = vec![
            "An unfinished game was autosaved:".into(),
            self.summary.clone(),
            format!("in {}", tilde(&self.path, home.as_deref())),
        ];
        if let Some(e) = &self.error {
            lines.push(format!("It could not be resumed: {e}"));
        }
        if let Some(elapsed) = busy {
            lines.push(busy_line("loading it", elapsed, "Esc stops", ascii));
        }
        Asked {
            title: " Resume? ",
            lines,
            keys: if busy.is_some() {
                "Esc stop loading   q quit"
            } else {
                "r or Enter resume   n or Esc new game   q quit"
            },
        }
    }
}

/// Runs the game in the terminal until the player quits or a signal stops it. The
/// terminal is given back in its normal state on every way out; after a quit, where the
/// game is saved is printed on it.
pub fn run(opts: PlayOptions) -> Result<Ended, OpenError> {
    // What is wrong with the game asked for is said first, then that a terminal is missing.
    let opened = open(&opts)?;
    require_terminal()?;
    let term = TerminalOptions { mouse: opts.mouse };
    let offer = match (&opts.open, &opts.data_dir) {
        (Open::New, Some(dir)) if opts.offer_resume && opts.autosave => resumable(dir),
        _ => None,
    };
    let mut session = Session::new(opened, offer, opts);
    let ended = run_screen(&mut session, term)?;
    if ended == Ended::Quit {
        if let Some(bye) = session.farewell() {
            // Where the game is saved; a terminal closed meanwhile just misses it.
            let _ = writeln!(io::stdout(), "{bye}");
        }
    }
    Ok(ended)
}

/// The game on screen, with the resume offer over it until the player chose.
pub struct Session {
    game: Box<App>,
    offer: Option<Offer>,
    opts: PlayOptions,
    quit: bool,
    /// Where the game on screen runs its moves (a resumed game gets it too), and where
    /// the offered game is loaded.
    exec: Exec,
    /// The offered game being loaded (replayed) on a worker thread.
    loading: Option<Loading>,
}

/// The offered game being loaded on a worker thread.
struct Loading {
    work: Work<Result<Box<App>, String>>,
    /// Esc asked it to stop: its result is thrown away (which gives back the autosave's
    /// lock), and the offer is shown again once it has stopped.
    stopping: bool,
}

impl Session {
    /// `game` (a new one) with `offer` shown over it; `opts` open the offered game.
    pub fn new(game: Box<App>, offer: Option<Offer>, opts: PlayOptions) -> Session {
        Session {
            game,
            offer,
            opts,
            quit: false,
            exec: Exec::default(),
            loading: None,
        }
    }

    /// The game on screen.
    pub fn game(&self) -> &App {
        &self.game
    }

    /// The resume offer, while it is shown.
    pub fn offer(&self) -> Option<&Offer> {
        self.offer.as_ref()
    }

    /// What to print on the restored terminal after leaving.
    pub fn farewell(&self) -> Option<String> {
        self.game.farewell()
    }

    /// Whether the offered game is being loaded.
    pub fn loading(&self) -> bool {
        self.loading.is_some()
    }

    /// A key while the offer is shown: r/Enter resume, n/Esc the new game, q or
    /// Ctrl-C leave; while the game loads, Esc stops loading it.
    fn choose(&mut self, event: &Event) {
        let Event::Key(key) = event else {
            return;
        };
        if let Some(loading) = &mut self.loading {
            match input::press(*key) {
                Press::Interrupt | Press::Key(KeyCode::Char('q')) => self.quit = true,
                Press::Key(KeyCode::Esc) => {
                    // The replay stops at its next gate.
                    loading.work.cancel();
                    loading.stopping = true;
                }
                _ => {}
            }
            return;
        }
        match input::press(*key) {
            Press::Interrupt => self.quit = true,
            Press::Ignored => {}
            Press::Key(KeyCode::Char('r') | KeyCode::Enter) => self.resume(),
            Press::Key(KeyCode::Char('n') | KeyCode::Esc) => self.offer = None,
            Press::Key(KeyCode::Char('q')) => self.quit = true,
            Press::Key(_) => {}
        }
    }

    /// Opens the offered game in place of the new one, here or on a worker thread (its
    /// moves are replayed); the offer stays up meanwhile, and with the reason when the
    /// game cannot be opened.
    fn resume(&mut self) {
        let opts = PlayOptions {
            open: Open::Resume,
            ..self.opts.clone()
        };
        let load =
            move |cancel: CancelFlag| open_watched(&opts, Some(cancel)).map_err(|e| e.to_string());
        match self.exec {
            Exec::Inline => {
                let result = load(CancelFlag::default());
                self.resumed(result);
            }
            Exec::Background => {
                self.loading = Some(Loading {
                    work: Work::start("loading it", load),
                    stopping: false,
                })
            }
        }
    }

    /// Takes in the offered game, opened or not.
    fn resumed(&mut self, result: Result<Box<App>, String>) {
        match result {
            Ok(game) => {
                self.offer = None;
                self.game = game;
                self.set_exec(self.exec);
            }
            Err(e) => {
                if let Some(offer) = &mut self.offer {
                    offer.error = Some(e);
                }
            }
        }
    }
}

impl Screen for Session {
    fn draw(&mut self, f: &mut Frame) {
        self.game.draw(f);
        if let Some(offer) = &self.offer {
            let paint = self.game.paint();
            let busy = self.loading.as_ref().map(|l| l.work.elapsed());
            popup::question_box(f, f.area(), paint, &offer.asked(busy, paint.ascii));
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
        if let Some(l) = &self.loading {
            let result = match l.work.poll() {
                Polled::Running => return true,
                _ if l.stopping => Err("loading was stopped (Esc)".to_string()),
                Polled::Done(r) => r,
                Polled::Failed(why) => Err(format!("it failed inside qchess ({why})")),
            };
            self.loading = None;
            self.resumed(result);
            return true;
        }
        self.game.tick()
    }

    fn working(&self) -> bool {
        self.loading.is_some() || self.game.working()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Game, GameOptions};
    use crate::record::Players;

    fn saved(fen: Option<&str>, moves: &[&str]) -> SavedGame {
        let mut g = match fen {
            Some(f) => Game::from_fen(f, GameOptions::default()).unwrap(),
            None => Game::standard(GameOptions::default()),
        };
        for m in moves {
            g.play(m).unwrap();
        }
        SavedGame::of(
            &*Box::<dyn crate::game::Playable>::from(g),
            &Players::default(),
            "2026-11-23T16:40:00Z",
        )
    }

    #[test]
    fn the_summary_numbers_moves_as_chess_players_do() {
        let sixteen = [
            "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "b1c3", "g8f6", "d2d3", "d7d6", "c1g5",
            "c8g4", "h2h3", "h7h6", "a2a3", "a7a6",
        ];
        assert_eq!(
            summary(&saved(None, &sixteen)),
            "White vs Black, quantum, move 9, white to move (started 2026-11-23 16:40 UTC)"
        );
        assert!(summary(&saved(None, &sixteen[..15])).contains("move 8, black to move"));
        let black_first = Some("4k3/8/8/8/8/8/8/4K3 b - - 0 30");
        assert!(summary(&saved(black_first, &[])).contains("move 30, black to move"));
        assert!(summary(&saved(black_first, &["e8d8"])).contains("move 31, white to move"));
    }
}
