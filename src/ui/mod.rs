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
pub mod mouse;
pub mod opponent;
pub mod popup;
pub mod probs;
pub mod prompts;
pub mod recent;
pub mod skat;
pub mod squares;
pub mod start;
pub mod status;
pub mod steps;
pub mod table;
pub mod terminal;
pub mod text;
pub mod theme;
pub mod top_bar;
pub mod tty_input;
pub mod variant;
pub mod variant_panes;
pub mod view;
pub mod work;

pub use app::App;
pub use terminal::{run, run_screen, PlayOptions, Screen};

use layout::Panes;
use ratatui::Frame;

/// Draws the whole screen for `app`.
pub fn draw(f: &mut Frame, app: &App) {
    let area = f.area();
    let message = status::message_lines(app, area.width);
    // Where things are drawn, for the mouse: nothing while the terminal is too small.
    let mut hits = mouse::Hits::default();
    let Some(p) = layout::panes(area, app.drawer(), message.len() as u16) else {
        app.hits.replace(hits);
        popup::too_small(f, area, layout::COMPACT_SIZE);
        return;
    };
    hits.board = Some(board::render(f, p.board, app, p.cell));
    match &app.inspector {
        Some(ins) => inspector::render(f, p.inspector(), app, ins),
        None => {
            if Panes::shown(p.probs) {
                probs::render(f, p.probs, app);
            }
            hits.history = Some(history::render(f, p.history, app));
        }
    }
    if Panes::shown(p.circuit) {
        circuit::render(f, p.circuit, app);
        hits.circuit = Some(p.circuit);
    }
    app.hits.replace(hits);
    if let Some(d) = p.drawer.filter(|_| app.inspector.is_none()) {
        popup::drawer_hint(f, d, &app.paint, app.drawer().next().name("circuit"));
    }
    status::render(f, p.status, p.message, app, message);
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
    if app.help_shown() {
        popup::help(f, area, app);
    }
}
