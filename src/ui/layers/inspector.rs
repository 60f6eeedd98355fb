//! The inspector (spec section 5): for a first square, its entanglement (log negativity)
//! with every other square, drawn over the board as a heat map; for a second square, the
//! pair's Bell values O1..O8, "opposite" and "same" strengths and the merge reading.
//! Everything is computed from the game passed in, so it works for whatever state the
//! panes show (the live game or an earlier ply).

use super::{Outcome, Request};
use crate::analyze::{entanglement_map, BELL_NAMES};
use crate::chess::{Game, Square};
use crate::format::wrap;
use crate::quantum::bell::{bell, Bell};
use crate::style::color::Paint;
use crate::style::theme::{Rgb, Theme};
use crate::ui::input::Action;
use crate::ui::layout::hint_fits;
use crate::ui::message::Tone;
use crate::ui::view::View;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

/// Log negativities at or below this are drawn as none.
const NONE: f64 = 1e-9;

/// Shade characters of the four heat levels, and their ASCII stand-ins.
const SHADES: [char; 4] = ['░', '▒', '▓', '█'];
const ASCII_SHADES: [char; 4] = ['.', ':', '+', '#'];

/// What the inspector shows: the first square with its entanglement map, and the second
/// square with the pair's Bell values once picked.
#[derive(Clone, Debug, PartialEq)]
pub struct Inspector {
    first: Square,
    second: Option<Square>,
    pair: Option<Bell>,
    heat: Vec<(Square, f64)>,
    /// Lines scrolled past at the top (the compact arrangement cuts the pane).
    scroll: u16,
    /// How many lines the last drawing could not show: the most `scroll` can be.
    hidden: u16,
}

impl Inspector {
    /// Opens on `first`, with its entanglement map in `game`.
    pub fn open(game: &Game, first: Square) -> Inspector {
        Inspector {
            first,
            second: None,
            pair: None,
            heat: entanglement_map(game, first),
            scroll: 0,
            hidden: 0,
        }
    }

    /// The keys that mean something else while the inspector is open, in `game` with
    /// the cursor on `cursor`: Enter and `i` pick the second square, Esc closes it, a
    /// move is refused, PgUp/PgDn scroll a cut inspector (one shown whole passes them on
    /// to the circuit).
    pub fn handle(&mut self, action: Action, game: &Game, cursor: Square) -> Outcome {
        let said = |tone, text: String| Outcome::Ask(Request::Say(tone, text));
        match action {
            Action::Select | Action::Inspect => {
                let first = self.first;
                match self.pick(game, cursor) {
                    Ok(()) => said(Tone::Info, format!("Bell values of {first} and {cursor}")),
                    Err(e) => said(Tone::Error, e),
                }
            }
            Action::Cancel => Outcome::Close,
            Action::Split | Action::Merge | Action::Prompt => said(
                Tone::Error,
                "the inspector is open: Esc leaves it, then make your move".into(),
            ),
            Action::CircuitUp | Action::CircuitDown => {
                let by = if action == Action::CircuitUp { -3 } else { 3 };
                match self.scroll_by(by) {
                    true => Outcome::Consumed,
                    false => Outcome::Pass,
                }
            }
            _ => Outcome::Pass,
        }
    }

    /// Scrolls the pane by `lines` (up when negative) within what the last drawing cut
    /// off; false when everything was shown, so there is nothing to scroll.
    fn scroll_by(&mut self, lines: i16) -> bool {
        let hidden = self.hidden;
        if hidden == 0 {
            return false;
        }
        self.scroll = self.scroll.saturating_add_signed(lines).min(hidden);
        true
    }

    /// Keeps how many lines the last drawing could not show (see [`render`]).
    pub fn drawn_hiding(&mut self, hidden: u16) {
        self.hidden = hidden;
    }

    /// Picks the second square; an error in words when it is the first one.
    pub fn pick(&mut self, game: &Game, second: Square) -> Result<(), String> {
        if second == self.first {
            return Err(format!(
                "{second} is the first square: pick another one for the pair"
            ));
        }
        self.second = Some(second);
        self.refresh(game);
        Ok(())
    }

    /// Recomputes everything for `game` (call it whenever the state shown changes).
    pub fn refresh(&mut self, game: &Game) {
        let b = game.simulator().backend();
        self.heat = entanglement_map(game, self.first);
        self.pair = self
            .second
            .map(|y| bell(b, self.first.0 as u16, y.0 as u16));
    }

    /// The first square.
    pub fn first(&self) -> Square {
        self.first
    }

    /// The second square, once picked.
    pub fn second(&self) -> Option<Square> {
        self.second
    }

    /// The Bell values of the pair, once the second square is picked.
    pub fn bell(&self) -> Option<&Bell> {
        self.pair.as_ref()
    }

    /// The squares entangled with the first one, in board order.
    pub fn warm(&self) -> Vec<Square> {
        self.heat.iter().map(|(s, _)| *s).collect()
    }

    /// The log negativity of `sq` with the first square (0 for the first square itself).
    pub fn heat(&self, sq: Square) -> f64 {
        self.heat
            .iter()
            .find(|(s, _)| *s == sq)
            .map_or(0.0, |(_, v)| *v)
    }

    /// The squares picked so far.
    pub fn squares(&self) -> Vec<Square> {
        std::iter::once(self.first).chain(self.second).collect()
    }
}

/// The heat level (0..=3) of a log negativity, or None for none.
pub fn level(v: f64) -> Option<usize> {
    (v > NONE).then(|| ((v * 4.0).ceil() as usize).clamp(1, 4) - 1)
}

/// The shade character of a heat level.
pub fn shade(level: usize, ascii: bool) -> char {
    if ascii {
        ASCII_SHADES[level]
    } else {
        SHADES[level]
    }
}

/// A square's background under the heat map: its own colour blended toward the theme's
/// highlight colour, the more the higher the log negativity `v` (0..=1).
pub fn heat_color(theme: &Theme, base: Rgb, v: f64) -> Rgb {
    let t = 0.3 + 0.7 * v.clamp(0.0, 1.0);
    let mix = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * t).round() as u8;
    let hot = theme.target;
    Rgb(mix(base.0, hot.0), mix(base.1, hot.1), mix(base.2, hot.2))
}

/// What the inspector pane draws from besides the inspector's own state.
pub struct InspectorModel<'a> {
    /// The colours.
    pub paint: &'a Paint,
    /// Letters instead of glyphs.
    pub ascii: bool,
    /// The game's costly facts (the probabilities).
    pub view: &'a View,
    /// The game.
    pub game: &'a Game,
}

/// Draws the inspector pane (in place of the probability and history panes); how many
/// of its lines did not fit.
pub fn render(f: &mut Frame, area: Rect, on: &InspectorModel, ins: &Inspector) -> u16 {
    let (paint, game) = (on.paint, on.game);
    let mut block = paint
        .block()
        .border_style(paint.fg(paint.theme.title))
        .title(Span::styled(" Inspector (Esc leaves) ", paint.title()));
    let width = block.inner(area).width as usize;
    let text = paint.fg(paint.theme.text);
    let head = text.add_modifier(Modifier::BOLD);
    let dim = paint.dim();
    let describe = |sq: Square| match game.state().piece(sq) {
        Some(p) => {
            let chance = on.view.chance(sq);
            format!("{sq} {} {:.1}%", p.describe(), chance * 100.0)
        }
        None => format!("{sq} empty"),
    };
    let mut lines = vec![Line::styled(describe(ins.first), head)];
    match (ins.second, &ins.pair) {
        (Some(y), Some(b)) => {
            lines.push(Line::styled(format!("& {}", describe(y)), head));
            for k in 0..4 {
                lines.push(Line::from(vec![
                    Span::styled(format!("O{} {:<5} ", k + 1, BELL_NAMES[k]), dim),
                    Span::styled(format!("{:.3}   ", b.o[k]), text),
                    Span::styled(format!("O{} {:<5} ", k + 5, BELL_NAMES[k + 4]), dim),
                    Span::styled(format!("{:.3}", b.o[k + 4]), text),
                ]));
            }
            lines.push(Line::from(vec![
                Span::styled("opposite ", dim),
                Span::styled(format!("{:.3}", b.opposite), text),
                Span::styled("  same ", dim),
                Span::styled(format!("{:.3}", b.same), text),
            ]));
            lines.push(Line::from(vec![
                Span::styled("opposite share ", dim),
                Span::styled(format!("{:.0}%", b.opposite_ratio() * 100.0), text),
            ]));
            // A merge needs the same piece (type and colour) on both squares.
            let st = game.state();
            if st.piece(ins.first).is_some() && st.piece(ins.first) == st.piece(y) {
                for l in wrap(&format!("merge: {}", b.merge_reading()), width) {
                    lines.push(Line::styled(l, text));
                }
            }
        }
        _ => {
            let hint = "move the cursor to a second square, Enter picks it";
            lines.extend(wrap(hint, width).into_iter().map(|l| Line::styled(l, dim)));
        }
    }
    let title = format!("entanglement with {} (log negativity):", ins.first);
    lines.extend(
        wrap(&title, width)
            .into_iter()
            .map(|l| Line::styled(l, dim)),
    );
    let mut heat = ins.heat.clone();
    heat.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    if heat.is_empty() {
        let none = "none: no square is entangled with it";
        lines.extend(wrap(none, width).into_iter().map(|l| Line::styled(l, text)));
    } else {
        let list: Vec<String> = heat.iter().map(|(s, v)| format!("{s} {v:.2}")).collect();
        for l in wrap(&list.join("  "), width) {
            lines.push(Line::styled(l, text));
        }
    }
    lines.push(legend(paint, on.ascii));
    let height = block.inner(area).height;
    let hidden = (lines.len() as u16).saturating_sub(height);
    let scroll = ins.scroll.min(hidden);
    if hidden > 0 {
        let more = match (scroll > 0, scroll < hidden) {
            (true, true) => " PgUp PgDn: more ",
            (false, _) => " PgDn: more ",
            (true, false) => " PgUp: more ",
        };
        let hint = hint_fits(more, area.width);
        block = block.title_bottom(Span::styled(hint.to_string(), paint.dim()));
    }
    let inner = block.inner(area);
    f.render_widget(block, area);
    f.render_widget(Paragraph::new(lines).scroll((scroll, 0)), inner);
    hidden
}

/// The heat map's legend: each level's shade on its colour, with its range.
fn legend(paint: &Paint, ascii: bool) -> Line<'static> {
    let mut spans = vec![Span::styled("heat ", paint.dim())];
    for (l, upper) in ["≤.25", "≤.5", "≤.75", "≤1"].iter().enumerate() {
        let v = (l as f64 + 1.0) / 4.0;
        let bg = heat_color(&paint.theme, paint.theme.dark_square, v);
        let style = paint.on(paint.fg(paint.theme.text), bg);
        spans.push(Span::styled(format!("{}", shade(l, ascii)), style));
        spans.push(Span::styled(format!("{upper} "), paint.dim()));
    }
    Line::from(spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_and_colours() {
        assert_eq!(level(0.0), None);
        assert_eq!(level(0.1), Some(0));
        assert_eq!(level(0.25), Some(0));
        assert_eq!(level(0.3), Some(1));
        assert_eq!(level(1.0), Some(3));
        let t = Theme::default();
        assert_eq!(heat_color(&t, t.dark_square, 1.0), t.target);
        assert_ne!(heat_color(&t, t.dark_square, 0.1), t.dark_square);
    }
}
