//! The terminal game (ratatui + crossterm): app state and update, one module per pane,
//! the key map, layout, colours, and the terminal event loop.

pub mod app;
pub mod board;
pub mod circuit;
pub mod cli;
pub mod color;
pub mod history;
pub mod input;
pub mod inspector;
pub mod layout;
pub mod line_edit;
pub mod listed_moves;
pub mod message;
pub mod mouse;
pub mod open;
pub mod opponent;
pub mod popup;
pub mod probs;
pub mod prompts;
pub mod quantum_moves;
pub mod recent;
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
pub use open::PlayOptions;
pub use terminal::{run, run_screen, Screen};

use layout::Panes;
use ratatui::Frame;

/// What drawing the game screen learned: where the board and panes went (for the
/// mouse), and how many pages the help needed when it is shown.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Drawn {
    /// Where things were drawn.
    pub hits: mouse::Hits,
    /// The help's page count, when the help was drawn.
    pub help_pages: Option<usize>,
}

/// Draws the whole screen for `app`: the Quantum Chess panes, or those of a rule
/// system that lists its moves. What it learned goes back to the app with
/// [`App::took`].
pub fn draw(f: &mut Frame, app: &App) -> Drawn {
    let Some(game) = app.quantum() else {
        return variant_panes::draw(f, app);
    };
    let area = f.area();
    let message = status::message_lines(app, area.width);
    // Where things are drawn, for the mouse: nothing while the terminal is too small.
    let mut hits = mouse::Hits::default();
    let Some(p) = layout::panes(area, app.drawer(), message.len() as u16) else {
        popup::too_small(f, area, layout::COMPACT_SIZE);
        return Drawn::default();
    };
    hits.board = Some(board::render(f, p.board, app, game, p.cell));
    match &app.inspector {
        Some(ins) => inspector::render(f, p.inspector(), app, game, ins),
        None => {
            if Panes::shown(p.probs) {
                probs::render(f, p.probs, app, game);
            }
            let model = history::HistoryModel::of(app);
            hits.history = Some(history::render(f, p.history, &app.paint, &model));
        }
    }
    if Panes::shown(p.circuit) {
        circuit::render(f, p.circuit, app, game);
        hits.circuit = Some(p.circuit);
    }
    if let Some(d) = p.drawer.filter(|_| app.inspector.is_none()) {
        popup::drawer_hint(f, d, &app.paint, app.drawer().next().name("circuit"));
    }
    status::render(f, p.status, p.message, app, message);
    let help_pages = overlays(f, area, app);
    Drawn { hits, help_pages }
}

/// What is drawn over the panes of every rule system: who plays the computer, the
/// game-over box, a question, the help; the help's page count when it is shown.
fn overlays(f: &mut Frame, area: ratatui::layout::Rect, app: &App) -> Option<usize> {
    if app.place().is_none() {
        let players = &app.recorder().players;
        top_bar::against_computer(f, players, app.computer().sides(), app.paint.title());
    }
    if app.game_over_shown() {
        popup::game_over(f, area, app);
    }
    if let Some(q) = app.question() {
        popup::question_box(f, area, &app.paint, &q.asked(app.recorder()));
    }
    app.help_shown().then(|| popup::help(f, area, app))
}
