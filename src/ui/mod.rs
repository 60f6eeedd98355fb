//! The terminal game (ratatui + crossterm). The game screen is [`app`] (its state and
//! update), [`layers`] (what is stacked over the board: help, explanation, questions,
//! the inspector, lessons, puzzles, the review, the clocks) and [`panes`] (the drawing);
//! [`input`] holds the key map, the mouse and the typed line, and [`terminal`] the event
//! loop. The modules left at this level are shared with the Skat lab or with `qchess
//! play`'s start (layout, popups, the message line and its area, text flow, work on
//! worker threads, colours and themes, the computer opponent).

pub mod app;
pub mod input;
pub mod layers;
pub mod layout;
pub mod message;
pub mod open;
pub mod opponent;
pub mod panes;
pub mod popup;
pub mod recent;
pub mod start;
pub mod status;
pub mod talk;
pub mod terminal;
pub mod text;
pub mod view;
pub mod work;

pub use app::App;
pub use open::PlayOptions;
pub use panes::drawn::Drawn;
pub use start::run;
pub use terminal::{run_screen, Screen};

use ratatui::Frame;

/// Draws the whole screen for `app`: the Quantum Chess panes, or those of a rule
/// system that lists its moves. What it learned goes back to the app with
/// [`App::took`].
pub fn draw(f: &mut Frame, app: &App) -> Drawn {
    match app.quantum() {
        Some(game) => panes::screen::quantum(f, app, game),
        None => panes::screen::listed(f, app),
    }
}
