//! The game screen put together: the models each pane draws from, built from the
//! screen's state once per frame, and the order the panes and overlays are drawn in.
//! The panes themselves know nothing of the screen.

use crate::chess::threat::Threat;
use crate::chess::{Color, Game, Piece, Square};
use crate::format::percent;
use crate::ui::app::listed_moves::move_squares;
use crate::ui::app::App;
use crate::ui::input::mouse::{BoardSpot, Hits};
use crate::ui::layers::inspector::{self, InspectorModel};
use crate::ui::layers::lesson;
use crate::ui::layers::puzzle;
use crate::ui::layout::{self, Panes};
use crate::ui::panes::circuit::{self, CircuitModel};
use crate::ui::panes::drawn::Drawn;
use crate::ui::panes::glyphs::{glyph, shape_squares};
use crate::ui::panes::history::{self, HistoryModel};
use crate::ui::panes::probs::{self, ProbsModel};
use crate::ui::panes::review_pane::{self, GraphSpot};
use crate::ui::panes::squares::{self, BoardModel, ShownPiece};
use crate::ui::panes::top_bar;
use crate::ui::panes::variant_panes::{self, TraceModel};
use crate::ui::popup;
use crate::ui::status::{self, StatusModel};
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::Frame;

/// Draws the Quantum Chess screen of `app` (its game is `game`); what it learned.
pub(in crate::ui) fn quantum(f: &mut Frame, app: &App, game: &Game) -> Drawn {
    let area = f.area();
    let message = message_lines(app, area.width);
    // Where things are drawn, for the mouse: nothing while the terminal is too small.
    let mut hits = Hits::default();
    let arrange = match guided(app) {
        true => layout::lesson_panes,
        false => layout::panes,
    };
    let Some(p) = arrange(area, app.drawer(), message.len() as u16) else {
        popup::too_small(f, area, layout::COMPACT_SIZE);
        return Drawn::default();
    };
    let p = with_review(app, p);
    hits.graph = review(f, &p, app);
    let lesson_hidden = match (app.lesson_run(), app.puzzle_run()) {
        (Some(run), _) => Some(lesson::render(f, p.lesson, &app.paint, run)),
        (_, Some(run)) => Some(puzzle::render(f, p.lesson, &app.paint, run)),
        _ => None,
    };
    hits.board = Some(board(f, p.board, app, game, p.cell));
    let mut inspector_hidden = None;
    match &app.inspector {
        Some(ins) => {
            let on = InspectorModel {
                paint: &app.paint,
                ascii: app.paint.ascii,
                view: &app.view,
                game,
            };
            inspector_hidden = Some(inspector::render(f, p.inspector(), &on, ins));
        }
        None => {
            if Panes::shown(p.probs) {
                let model = ProbsModel {
                    paint: &app.paint,
                    cursor: app.cursor,
                    piece: game.state().piece(app.cursor),
                    view: &app.view,
                    score: app.engine_words(),
                };
                probs::render(f, p.probs, &model);
            }
            hits.history = Some(history::render(
                f,
                p.history,
                &app.paint,
                &history_model(app),
            ));
        }
    }
    if Panes::shown(p.circuit) {
        let model = CircuitModel {
            paint: &app.paint,
            moves: game.history(),
            shown: app.shown_move(),
            scroll: app.focus.scroll(),
            view: app.focus.view(),
            ascii: app.paint.ascii,
        };
        circuit::render(f, p.circuit, &model);
        hits.circuit = Some(p.circuit);
    }
    let drawer = p.drawer.filter(|_| app.inspector.is_none());
    let help_pages = below_and_over(f, app, &p, drawer.map(|d| (d, "circuit")), message);
    Drawn {
        hits,
        help_pages,
        inspector_hidden,
        lesson_hidden,
    }
}

/// Draws what every game screen has below and over its panes: the drawer's hint (`pane`
/// is what the drawer shows next), the status line, the message area and the overlays;
/// the help's page count when it is shown.
fn below_and_over(
    f: &mut Frame,
    app: &App,
    p: &layout::Panes,
    drawer: Option<(Rect, &'static str)>,
    message: Vec<Line<'static>>,
) -> Option<usize> {
    if let Some((d, pane)) = drawer {
        popup::drawer_hint(f, d, &app.paint, app.drawer().next().name(pane));
    }
    let model = status_model(app);
    status::render(f, (p.status, p.message), &app.paint, model, message);
    overlays(f, f.area(), app)
}

/// Draws the screen of a rule system that lists its moves; what it learned.
pub(in crate::ui) fn listed(f: &mut Frame, app: &App) -> Drawn {
    let area = f.area();
    let message = message_lines(app, area.width);
    // Where things are drawn, for the mouse: nothing while the terminal is too small.
    let Some(p) = layout::panes(area, app.drawer(), message.len() as u16) else {
        popup::too_small(f, area, layout::COMPACT_SIZE);
        return Drawn::default();
    };
    let p = with_review(app, p);
    let graph = review(f, &p, app);
    let board = listed_board(f, p.board, app, p.cell);
    let g = app.game();
    if Panes::shown(p.probs) {
        let mut details = g.details(app.cursor());
        if let Some(score) = app.engine_words() {
            // After the first line (the count), where a long list below cannot push it
            // out of the pane.
            let score = format!("engine: {score}");
            details.insert(details.len().min(1), score);
        }
        variant_panes::details(f, p.probs, &app.paint, &details);
    }
    let history = history::render(f, p.history, &app.paint, &history_model(app));
    let circuit = Panes::shown(p.circuit).then(|| {
        let shown = app
            .shown_move()
            .and_then(|i| g.history().get(i).map(|r| (i, r)));
        let model = TraceModel {
            lines: shown
                .as_ref()
                .map(|(_, r)| r.trace.clone())
                .unwrap_or_default(),
            shown: shown.map(|(i, r)| (i, r.text.clone())),
            scroll: app.focus.scroll().1,
        };
        variant_panes::trace(f, p.circuit, &app.paint, &model);
        p.circuit
    });
    let hits = Hits {
        board: Some(board),
        history: Some(history),
        circuit,
        graph,
    };
    let help_pages = below_and_over(f, app, &p, p.drawer.map(|d| (d, "trace")), message);
    Drawn {
        hits,
        help_pages,
        ..Drawn::default()
    }
}

/// Draws the board of a rule system that lists its moves; where the squares went.
fn listed_board(f: &mut Frame, area: Rect, app: &App, cell: (u16, u16)) -> BoardSpot {
    let g = app.game();
    let mut pieces = [None; 64];
    for (sq, c) in g.cells() {
        let glyph = match c.kind {
            Some(kind) => glyph(
                Piece {
                    color: c.color,
                    kind,
                },
                app.paint.ascii,
            ),
            None if c.color == Color::White => 'M',
            None => 'm',
        };
        pieces[sq.0 as usize] = Some(ShownPiece {
            glyph,
            color: c.color,
            probability: c.probability,
        });
    }
    let last: Vec<_> = g
        .history()
        .last()
        .and_then(|r| move_squares(&r.text))
        .map(|(a, b, _)| vec![a, b])
        .unwrap_or_default();
    let selected = app.mode().sources();
    let title = format!(
        " Board: {}{} ",
        g.rules(),
        if app.flipped { " (flipped)" } else { "" }
    );
    let model = BoardModel {
        title: &title,
        pieces,
        cursor: app.cursor(),
        selected: &selected,
        targets: app.mode().targets(),
        last: &last,
        hint: app
            .computer()
            .hint()
            .map_or(&[], |(_, squares)| squares.as_slice()),
        attacked: None,
        flipped: app.flipped,
        ascii: app.paint.ascii,
        heat: None,
    };
    squares::render(f, area, &app.paint, &model, cell)
}

/// The panes of `p`, with room for the review in a replay.
fn with_review(app: &App, p: Panes) -> Panes {
    match app.replay() {
        Some(_) => layout::with_review(p),
        None => p,
    }
}

/// Draws a replay's review pane where there is room; where its graph went.
fn review(f: &mut Frame, p: &Panes, app: &App) -> Option<GraphSpot> {
    let model = app.review_model().filter(|_| Panes::shown(p.review))?;
    Some(review_pane::render(f, p.review, &app.paint, &model))
}

/// The history the screen shows: in replay the whole game, each move with the
/// review's mark (`??`, `?`, `?!`).
pub(in crate::ui) fn history_model(app: &App) -> HistoryModel {
    let mut model = HistoryModel::of(
        app.history_game(),
        app.shown_move(),
        app.replay().map(|r| r.ply),
        app.paint.coordinates,
    );
    for (i, e) in model.entries.iter_mut().enumerate() {
        if let Some(mark) = app.reviewing().verdict(i + 1).and_then(|v| v.mark) {
            e.text.push_str(mark.symbol());
        }
    }
    model
}

/// The message area's lines at `width`: the message, or the line being typed.
pub fn message_lines(app: &App, width: u16) -> Vec<Line<'static>> {
    let prompt = app.typed_line().map(|t| (t.purpose(), t.line()));
    let below = app.thinking_line();
    status::message_area(&app.paint, app.message(), prompt, app.busy(), below, width)
}

/// The status line: the replay position, who is to move, and the facts about the game
/// (for Quantum Chess the 50-move count, the branches and the backend; for the others
/// their name).
pub(in crate::ui) fn status_model(app: &App) -> StatusModel {
    let g = app.game();
    let ply = format!("ply {}", g.ply());
    let mut facts = app.clock_facts();
    facts.extend(match g.quantum() {
        Some(q) => vec![
            ply,
            format!("50-move {}/100", q.fifty_counter()),
            format!("branches {}", app.view.branches),
            q.options().simulator.backend.name().to_string(),
        ],
        None => vec![ply, g.rules().name().to_string()],
    });
    StatusModel {
        replay: app.replay().map(|r| (r.ply, r.full.ply())),
        who: status::who(app.status(), g.to_move(), &app.result_words()),
        warning: app.view.threat(g.to_move()).map(threat_words),
        facts,
    }
}

/// Whether the screen is a lesson's or a puzzle's.
fn guided(app: &App) -> bool {
    app.lesson_run().is_some() || app.puzzle_run().is_some()
}

/// "king attacked: 50% by e7xe1".
pub(in crate::ui) fn threat_words(t: &Threat) -> String {
    format!("king attacked: {}% by {}", percent(t.p), t.by)
}

/// What is drawn over the panes of every rule system: who plays the computer, the
/// game-over box, a question, the help; the help's page count when it is shown.
pub(in crate::ui) fn overlays(f: &mut Frame, area: Rect, app: &App) -> Option<usize> {
    if app.place().is_none() {
        let players = &app.recorder().players;
        top_bar::against_computer(f, players, app.computer().sides(), app.paint.title());
    }
    if app.game_over_shown() {
        let reason = match app.ending() {
            Some(e) => e.reason.clone(),
            None => app.game().end_reason().unwrap_or_default(),
        };
        let keys = popup::game_over_keys(app.place().is_some(), app.take_back_rule().is_err());
        popup::game_over_box(f, area, &app.paint, &app.result_words(), &reason, keys);
    }
    if let Some(q) = app.question() {
        popup::question_box(f, area, &app.paint, &q.asked(app.recorder()));
    }
    if let Some((title, lines)) = app.explanation() {
        popup::explanation_box(f, area, &app.paint, &title, &lines);
    }
    if let Some((run, at)) = app.lesson_run().and_then(|r| Some((r, r.list?))) {
        lesson::render_list(f, area, &app.paint, run, at);
    }
    if let Some((run, at)) = app.puzzle_run().and_then(|r| Some((r, r.list?))) {
        puzzle::render_list(f, area, &app.paint, run, at);
    }
    app.help_shown().then(|| {
        let mut lines = popup::help_lines(
            app.replay().is_some(),
            app.quantum().is_some(),
            app.computer().sides().both(),
            app.place().is_some(),
        );
        if guided(app) {
            lines = popup::with_lesson_keys(lines);
        }
        let rules = app.game().rules().short_rules();
        popup::help_box(
            f,
            area,
            &app.paint,
            lines,
            rules,
            app.talk.recent(),
            app.help_page(),
        )
    })
}

/// The squares of the last move (sources and targets).
fn last_move_squares(game: &Game) -> Vec<Square> {
    game.history()
        .last()
        .map_or_else(Vec::new, |m| shape_squares(m.class.text.shape))
}

/// Draws the Quantum Chess board; says where the squares went, for the mouse.
fn board(f: &mut Frame, area: Rect, app: &App, game: &Game, cell: (u16, u16)) -> BoardSpot {
    let title = if app.flipped {
        " Board (flipped) "
    } else {
        " Board "
    };
    let mut selected = app.mode.sources();
    if let Some(ins) = &app.inspector {
        selected.extend(ins.squares());
    }
    selected.extend(app.mode.picked_targets());
    let mut pieces = [None; 64];
    for (i, shown) in pieces.iter_mut().enumerate() {
        let sq = Square(i as u8);
        *shown = game.state().piece(sq).map(|p| ShownPiece {
            glyph: glyph(p, app.paint.ascii),
            color: p.color,
            probability: app.view.chance(sq),
        });
    }
    let heat = app.inspector.as_ref().map(|ins| {
        let mut h = [0.0; 64];
        for (i, v) in h.iter_mut().enumerate() {
            *v = ins.heat(Square(i as u8));
        }
        h
    });
    let model = BoardModel {
        title,
        pieces,
        cursor: app.cursor,
        selected: &selected,
        targets: app.mode.targets(),
        last: &last_move_squares(game),
        hint: app
            .computer
            .hint()
            .map_or(&[], |(_, squares)| squares.as_slice()),
        attacked: app.view.threat(game.to_move()).map(|t| t.king),
        flipped: app.flipped,
        ascii: app.paint.ascii,
        heat,
    };
    squares::render(f, area, &app.paint, &model, cell)
}
