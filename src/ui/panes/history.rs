//! The history pane: numbered moves, ordinary ones in SAN (`Nf3`, `O-O`; in squares
//! with the `notation = "coordinates"` setting) and quantum ones in Quantum Chess
//! notation, each with what it did in words (a measurement's outcome, harmonics collapsed); the shown move is highlighted
//! and kept in view. Drawn from a [`HistoryModel`] of any rule system's game.

use crate::chess::Color;
use crate::format::wrap;
use crate::game::Playable;
use crate::style::color::Paint;
use crate::ui::input::mouse::HistorySpot;
use crate::ui::layout::hint_fits;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

/// One move as the history lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The full-move number.
    pub number: usize,
    /// The side that moved.
    pub color: Color,
    /// The move in notation.
    pub text: String,
    /// What it did, in words (empty when there is nothing to say).
    pub note: String,
}

/// What the history pane shows.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryModel {
    /// The moves.
    pub entries: Vec<Entry>,
    /// The highlighted move (0-based).
    pub shown: Option<usize>,
    /// Moves from this index on are after the replay's shown ply (drawn dim).
    pub future: usize,
    /// Stepping through a replay (the keys at the bottom say so).
    pub replay: bool,
}

impl HistoryModel {
    /// The history of `game` (in replay the whole game, the plies after `replay_ply`
    /// dim), with move `shown` highlighted, its ordinary moves in squares when
    /// `coordinates`, else in SAN.
    pub fn of(
        game: &dyn Playable,
        shown: Option<usize>,
        replay_ply: Option<usize>,
        coordinates: bool,
    ) -> HistoryModel {
        // Full-move numbers go on from the start position's.
        let start = game
            .setup()
            .start
            .and_then(|fen| crate::chess::fen::parse(&fen).ok());
        let first = start.as_ref().map_or(1, |p| p.fullmove as usize);
        let black_first = start.is_some_and(|p| p.to_move == Color::Black);
        HistoryModel {
            entries: entries(game, first, black_first, coordinates),
            shown,
            future: replay_ply.unwrap_or(usize::MAX),
            replay: replay_ply.is_some(),
        }
    }
}

/// The moves of `game`, numbered from `first` (black's move first when `black_first`),
/// each with its remark and the pieces that vanished in it; an ordinary move of Quantum
/// Chess in SAN unless `coordinates`.
fn entries(game: &dyn Playable, first: usize, black_first: bool, coordinates: bool) -> Vec<Entry> {
    let san: Vec<Option<String>> = match game.quantum() {
        Some(q) if !coordinates => q.history().iter().map(|m| m.san.clone()).collect(),
        _ => Vec::new(),
    };
    game.history()
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let ply = i + black_first as usize;
            let mut note = r.note.clone();
            let vanished = r.explanation.vanished();
            if !vanished.is_empty() {
                if !note.is_empty() {
                    note.push_str("; ");
                }
                note.push_str(&format!("gone {}", vanished.join(" ")));
            }
            Entry {
                number: first + ply / 2,
                color: r.color,
                text: san
                    .get(i)
                    .cloned()
                    .flatten()
                    .unwrap_or_else(|| r.text.clone()),
                note,
            }
        })
        .collect()
}

/// Draws the history pane; says which move each row shows, for the mouse.
pub fn render(f: &mut Frame, area: Rect, paint: &Paint, model: &HistoryModel) -> HistorySpot {
    let block = paint
        .block()
        .title(Span::styled(" History ", paint.title()))
        .title_bottom(Span::styled(
            hint_fits(
                if model.replay {
                    " ← → step, g go to ply "
                } else {
                    " [ ] pick a move "
                },
                area.width,
            ),
            paint.dim(),
        ));
    let inner = block.inner(area);
    f.render_widget(block, area);

    let text = paint.fg(paint.theme.text);
    let info = paint.fg(paint.theme.info);
    let mut lines: Vec<Line> = Vec::new();
    // The move of each line.
    let mut owners: Vec<Option<usize>> = Vec::new();
    let mut shown_line = 0;
    let width = inner.width as usize;
    for (i, m) in model.entries.iter().enumerate() {
        let dots = if m.color == Color::White { "." } else { "..." };
        let mut style = if i >= model.future { paint.dim() } else { text };
        if Some(i) == model.shown {
            style = style.add_modifier(Modifier::REVERSED);
            shown_line = lines.len();
        }
        lines.push(Line::from(Span::styled(
            format!("{}{dots} {}", m.number, m.text),
            style,
        )));
        if !m.note.is_empty() {
            for chunk in wrap(&m.note, width.saturating_sub(3)) {
                lines.push(Line::from(vec![
                    Span::raw("   "),
                    Span::styled(chunk, info),
                ]));
            }
        }
        owners.resize(lines.len(), Some(i));
    }
    if lines.is_empty() {
        lines.push(Line::styled("no moves yet", paint.dim()));
    }
    let h = inner.height as usize;
    // Keep the shown move (and its outcome lines) in view.
    let mut end = shown_line + 1;
    while end < lines.len() && lines[end].spans.first().is_some_and(|s| s.content == "   ") {
        end += 1;
    }
    let offset = end.saturating_sub(h);
    f.render_widget(Paragraph::new(lines).scroll((offset as u16, 0)), inner);
    HistorySpot {
        area: inner,
        rows: owners.into_iter().skip(offset).take(h).collect(),
    }
}
