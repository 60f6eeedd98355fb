//! The Skat lab in the terminal: the same four-pane layout as the game, showing an
//! endgame (table and hands, per-card probabilities with the distributions, the tricks
//! of one line of play, the circuit) or the paper's four-card example phase by phase.

pub mod circuit;
pub mod help;
pub mod keys;
pub mod lab;
pub mod probs;
pub mod status;
pub mod table;
pub mod tricks;

pub use lab::{builtin_entries, Entry, Pane, SkatLab};

use crate::skat::analysis::{AnalysisError, AnalyzeOptions};
use crate::skat::cards::{Card, Suit};
use crate::style::color::{ColorChoice, Paint};
use crate::style::theme::Theme;
use crate::ui::layout::{self, Drawer};
use crate::ui::popup;
use crate::ui::terminal::{require_terminal, run_screen, Ended, NoTerminal, TerminalOptions};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui::Frame;

/// How `qchess skat` was asked to start the lab.
#[derive(Clone, Debug)]
pub struct LabOptions {
    /// What can be shown, in key order (1, 2, ...).
    pub entries: Vec<Entry>,
    /// Index into `entries` shown first.
    pub start: usize,
    /// Backend and encoding of the analyses (and the toy's backend).
    pub analyze: AnalyzeOptions,
    /// Suit letters (C S H D) instead of suit symbols.
    pub ascii: bool,
    /// Colour tier, or detection.
    pub color: ColorChoice,
}

/// Why the lab could not run.
#[derive(Debug, thiserror::Error)]
pub enum LabError {
    /// The first endgame could not be analysed.
    #[error("{name}: {source}")]
    Analysis {
        /// The endgame.
        name: String,
        /// Why.
        source: AnalysisError,
    },
    /// The terminal failed.
    #[error("terminal: {0}")]
    Io(#[from] std::io::Error),
    /// Standard input or output is not a terminal.
    #[error("{0}")]
    NoTerminal(#[from] NoTerminal),
}

/// Opens the lab in the terminal until the player quits or a signal stops it.
pub fn run(opts: LabOptions) -> Result<Ended, LabError> {
    require_terminal()?;
    let tier = opts.color.resolve(|k| std::env::var(k).ok());
    let paint = Paint::new(Theme::default(), tier);
    // The first endgame is analysed while the lab is already on screen.
    let mut lab = SkatLab::in_background(opts.entries, opts.start, opts.analyze, paint, opts.ascii);
    // The lab has no mouse actions: leave the mouse to the terminal (text selection).
    Ok(run_screen(&mut lab, TerminalOptions { mouse: false })?)
}

/// Draws the whole lab screen.
pub fn draw(f: &mut Frame, lab: &SkatLab) {
    let area = f.area();
    // The lab has no compact arrangement: its panes need the full one.
    let message = status::message_lines(lab, area.width);
    let p = match layout::panes(area, Drawer::default(), message.len() as u16) {
        Some(p) if p.drawer.is_none() => p,
        _ => return popup::too_small(f, area, layout::MIN_SIZE),
    };
    // The board's place, the largest, holds the probabilities and the distributions;
    // the table takes the probabilities' place.
    probs::render(f, p.board, lab);
    table::render(f, p.probs, lab);
    tricks::render(f, p.history, lab);
    circuit::render(f, p.circuit, lab);
    status::render(f, p.status, p.message, lab, message);
    if lab.help_shown() {
        help::render(f, area, lab);
    }
}

/// A card as shown: suit symbol (or letter with `ascii`) and rank, e.g. "♥10".
pub fn card_label(c: Card, ascii: bool) -> String {
    if ascii {
        return c.to_string();
    }
    let suit = match c.suit {
        Suit::Clubs => '♣',
        Suit::Spades => '♠',
        Suit::Hearts => '♥',
        Suit::Diamonds => '♦',
    };
    format!("{suit}{}", c.rank.label())
}

/// Cards as shown, separated by spaces; "-" for none.
pub fn cards_label(cards: &[Card], ascii: bool) -> String {
    if cards.is_empty() {
        return "-".to_string();
    }
    cards
        .iter()
        .map(|&c| card_label(c, ascii))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A pane's frame: its title, and a highlighted border when it has the focus.
pub fn pane_block<'a>(lab: &SkatLab, pane: Pane, title: String) -> Block<'a> {
    let paint = &lab.paint;
    let border = if lab.focus() == pane {
        paint.fg(paint.theme.title)
    } else {
        paint.fg(paint.theme.border)
    };
    paint
        .block()
        .border_style(border)
        .title(Span::styled(format!(" {title} "), paint.title()))
}

/// The first line to show so that line `keep` is visible in `height` lines, starting
/// from `offset` where possible.
pub fn keep_in_view(offset: usize, keep: usize, height: usize) -> usize {
    let height = height.max(1);
    offset.min(keep).max((keep + 1).saturating_sub(height))
}

/// Draws `lines` in the pane's `inner` area of `area`, scrolled as the pane is (and the
/// largest scroll recorded).
pub fn show_scrolled(
    f: &mut Frame,
    area: Rect,
    inner: Rect,
    lab: &SkatLab,
    pane: Pane,
    lines: Vec<Line<'static>>,
) {
    let max = lines.len().saturating_sub(inner_height(area));
    lab.set_max_scroll(pane, max);
    let offset = lab.scroll(pane).min(max);
    f.render_widget(Paragraph::new(lines).scroll((offset as u16, 0)), inner);
}

/// The inner height of a bordered pane of `area`.
pub fn inner_height(area: Rect) -> usize {
    area.height.saturating_sub(2) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skat::cards::Rank;

    #[test]
    fn cards_with_symbols_or_letters() {
        let c = Card::new(Suit::Hearts, Rank::Ten);
        assert_eq!(card_label(c, false), "♥10");
        assert_eq!(card_label(c, true), "H10");
        assert_eq!(cards_label(&[], false), "-");
    }

    #[test]
    fn kept_in_view() {
        assert_eq!(keep_in_view(0, 3, 5), 0);
        assert_eq!(keep_in_view(0, 7, 5), 3);
        assert_eq!(keep_in_view(6, 2, 5), 2);
    }
}
