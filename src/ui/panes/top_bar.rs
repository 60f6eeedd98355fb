//! Who plays, written into the top border of the screen: a room's players and watchers
//! over SSH, and the computer's side and strength in a local game against it
//! ("Ann v qchess level 3").

use crate::chess::Color;
use crate::record::Players;
use crate::seats::strength::Strength;
use crate::ui::opponent::Sides;
use ratatui::style::Style;
use ratatui::Frame;
use unicode_width::UnicodeWidthStr;

/// A seat as the bar names it: the player; "(thinking…)" while the computer in it
/// searches; "(away)" while its player is disconnected.
pub fn seat(name: &str, here: bool, thinking: bool) -> String {
    match (thinking, here) {
        (true, _) => format!("{name} (thinking…)"),
        (false, true) => name.to_string(),
        (false, false) => format!("{name} (away)"),
    }
}

/// The two seats, white first: "Ann v qchess level 3".
pub fn versus(white: &str, black: &str) -> String {
    format!("{white} v {black}")
}

/// In a local game against the computer, names both sides on the top border: the
/// computer by its strength ("qchess level 3"), a person by name (the computer's
/// thinking shows on the message area); nothing in a hot-seat game. Where that does
/// not fit, the computer alone in brief ("v qchess L3").
pub fn against_computer(f: &mut Frame, players: &Players, sides: &Sides, style: Style) {
    if !sides.any() {
        return;
    }
    let name = |side: Color, person: &str, brief: bool| match sides.of(side) {
        Some(Strength::Level(l)) if brief => format!("qchess L{l}"),
        Some(s) => s.name(),
        None if brief => String::new(),
        None => person.to_string(),
    };
    let full = versus(
        &name(Color::White, &players.white, false),
        &name(Color::Black, &players.black, false),
    );
    let brief = versus(
        &name(Color::White, &players.white, true),
        &name(Color::Black, &players.black, true),
    );
    overlay_first(
        f,
        &[format!(" {full} "), format!(" {} ", brief.trim())],
        style,
    );
}

/// Writes `text` into the longest run of horizontal border on the top row (a pane's
/// top edge, `─` or with `--ascii` `-`), so that the game's own layout is left as it
/// is; cut with `…` when it does not fit.
pub fn overlay(f: &mut Frame, text: &str, style: Style) {
    overlay_first(f, &[text.to_string()], style);
}

/// As [`overlay`], with the first of `texts` that fits whole (else the last, cut).
fn overlay_first(f: &mut Frame, texts: &[String], style: Style) {
    let area = f.area();
    if area.height == 0 {
        return;
    }
    let buf = f.buffer_mut();
    let (mut best, mut run) = ((0u16, 0u16), None::<u16>);
    for x in area.x..=area.right() {
        let border = x < area.right() && matches!(buf[(x, area.y)].symbol(), "─" | "-");
        match (border, run) {
            (true, None) => run = Some(x),
            (false, Some(start)) => {
                if x - start > best.1 {
                    best = (start, x - start);
                }
                run = None;
            }
            _ => {}
        }
    }
    let (start, len) = best;
    if len < 8 {
        return;
    }
    let room = usize::from(len - 2);
    let Some(text) = texts.iter().find(|t| t.width() <= room).or(texts.last()) else {
        return;
    };
    let shown: String = if text.width() <= room {
        text.to_string()
    } else {
        let mut s = String::new();
        for c in text.chars() {
            if s.width() + 2 > room {
                break;
            }
            s.push(c);
        }
        format!("{s}… ")
    };
    buf.set_string(start + 1, area.y, shown, style);
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;

    fn top_row(border: &str, text: &str) -> String {
        let w = border.chars().count() as u16;
        let mut t = Terminal::new(TestBackend::new(w, 2)).unwrap();
        t.draw(|f| {
            f.buffer_mut().set_string(0, 0, border, Style::default());
            overlay(f, text, Style::default());
        })
        .unwrap();
        (0..w)
            .map(|x| t.backend().buffer()[(x, 0)].symbol().to_string())
            .collect()
    }

    #[test]
    fn overlay_goes_into_the_longest_border() {
        assert_eq!(
            top_row("┌ A ─────┐┌ B ────────────────┐", "room1 · ann vs bo"),
            "┌ A ─────┐┌ B ─room1 · ann v… ┐"
        );
        assert_eq!(
            top_row("+ A -----++ B ----------------+", " ann v bo "),
            "+ A -----++ B - ann v bo -----+"
        );
    }

    fn against(border: &str, sides: Sides) -> String {
        let w = border.chars().count() as u16;
        let mut t = Terminal::new(TestBackend::new(w, 2)).unwrap();
        t.draw(|f| {
            f.buffer_mut().set_string(0, 0, border, Style::default());
            against_computer(f, &Players::default(), &sides, Style::default());
        })
        .unwrap();
        (0..w)
            .map(|x| t.backend().buffer()[(x, 0)].symbol().to_string())
            .collect()
    }

    #[test]
    fn the_computer_is_named_by_its_strength_in_brief_where_the_whole_does_not_fit() {
        let black = |s| Sides {
            black: Some(s),
            ..Sides::default()
        };
        let wide = "┌ Board ───────────────────────────────────┐";
        assert_eq!(
            against(wide, black(Strength::Level(3))),
            "┌ Board ─ White v qchess level 3 ──────────┐"
        );
        let both = Sides {
            white: Some(Strength::Level(2)),
            black: Some(Strength::Level(3)),
        };
        assert_eq!(
            against(wide, both.clone()),
            "┌ Board ─ qchess level 2 v qchess level 3 ─┐"
        );
        let narrow = "┌ Board: harmonics ────────────────────────┐";
        assert_eq!(
            against("┌ Board ──────────────────────────┐", both),
            "┌ Board ─ qchess L2 v qchess L3 ──┐"
        );
        assert_eq!(
            against(narrow, black(Strength::Greedy)),
            "┌ Board: harmonics ─ v qchess greedy ──────┐"
        );
        assert_eq!(against(wide, Sides::default()), wide, "hot-seat: nothing");
    }

    #[test]
    fn seats() {
        assert_eq!(seat("ann", true, false), "ann");
        assert_eq!(seat("bo", false, false), "bo (away)");
        assert_eq!(
            seat("qchess level 2", true, true),
            "qchess level 2 (thinking…)"
        );
        assert_eq!(versus("Ann", "qchess level 3"), "Ann v qchess level 3");
    }
}
