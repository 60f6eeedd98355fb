//! The terminal game (ratatui + crossterm): app state and update, one module per pane,
//! the key map, layout, colours, and the terminal event loop.

pub mod app;
pub mod board;
pub mod circuit;
pub mod cli;
pub mod color;
pub mod drawn;
pub mod history;
pub mod input;
pub mod inspector;
pub mod kept;
pub mod layers;
pub mod layout;
pub mod line_edit;
pub mod message;
pub mod mouse;
pub mod open;
pub mod opponent;
pub mod popup;
pub mod probs;
pub mod prompts;
pub mod recent;
pub mod review_pane;
pub mod screen;
pub mod skat;
pub mod squares;
pub mod start;
pub mod status;
pub mod steps;
pub mod terminal;
pub mod text;
pub mod theme;
pub mod top_bar;
pub mod tty_input;
pub mod variant_panes;
pub mod view;
pub mod work;

pub use app::App;
pub use drawn::Drawn;
pub use open::PlayOptions;
pub use start::run;
pub use terminal::{run_screen, Screen};

use ratatui::Frame;

/// Draws the whole screen for `app`: the Quantum Chess panes, or those of a rule
/// system that lists its moves. What it learned goes back to the app with
/// [`App::took`].
pub fn draw(f: &mut Frame, app: &App) -> Drawn {
    match app.quantum() {
        Some(game) => screen::quantum(f, app, game),
        None => screen::listed(f, app),
    }
}
