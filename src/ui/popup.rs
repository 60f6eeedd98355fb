//! Overlays: the help (generated from the key map, with the last messages), the
//! game-over popup, and the "terminal too small" screen.

use super::input::{Action, Binding, KEYMAP, LESSON_KEYMAP, REPLAY_KEYMAP, VARIANT_KEYMAP};
use super::layers::question::Asked;
use super::recent::Recent;
use crate::format::wrap;
use crate::style::color::Paint;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};
use ratatui::Frame;

/// A rectangle of `w` x `h` centred in `area` (shrunk to fit).
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let (w, h) = (w.min(area.width), h.min(area.height));
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// Draws `lines` in a box `w` wide with the `title` on its border, centred in `area`
/// over whatever is below.
pub fn titled_box(
    f: &mut Frame,
    area: Rect,
    paint: &Paint,
    w: u16,
    title: String,
    lines: Vec<Line>,
) {
    let r = centered(area, w, lines.len() as u16 + 2);
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines).block(
            paint
                .block()
                .border_style(paint.fg(paint.theme.title))
                .title(Span::styled(title, paint.title())),
        ),
        r,
    );
}

/// The help lines: one per entry of the key map in use (the replay one in replay, else
/// Quantum Chess's or the one of the rule systems that list their moves); the
/// pause key only while the computer plays both sides (`watching`), where it acts.
pub fn help_lines(
    replay: bool,
    quantum: bool,
    watching: bool,
    shared: bool,
) -> Vec<(String, String)> {
    let map = match (replay, quantum) {
        (true, _) => REPLAY_KEYMAP,
        (false, true) => KEYMAP,
        (false, false) => VARIANT_KEYMAP,
    };
    let mut v = map_lines(&shown_bindings(map, watching, shared));
    if !replay && quantum {
        v.push(("q r b n".into(), "promotion piece, when asked".into()));
    }
    v
}

/// The help lines of a lesson: its own keys first, then the game's without the new
/// game (`n` is the next lesson there) and the keys that end a game (a lesson has no
/// result to give away).
pub fn with_lesson_keys(lines: Vec<(String, String)>) -> Vec<(String, String)> {
    let mut v = map_lines(LESSON_KEYMAP);
    v.extend(
        lines
            .into_iter()
            .filter(|(k, _)| !matches!(k.as_str(), "n R" | "X D" | "X D n R")),
    );
    v
}

/// The bindings of `map` the help lists: the pause key only when `watching`; in a
/// `shared` game (a server room) not the keys a shared game refuses (take back, new
/// game, save: the server keeps it), and claiming a win only there.
pub fn shown_bindings(map: &[Binding], watching: bool, shared: bool) -> Vec<Binding> {
    map.iter()
        .filter(|b| watching || b.action != Action::Pause)
        .filter(|b| shared || b.action != Action::ClaimWin)
        .filter(|b| !(shared && matches!(b.action, Action::Undo | Action::NewGame | Action::Save)))
        .copied()
        .collect()
}

/// The group of bindings that share a help line when they follow each other.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Run {
    Cursor,
    Scroll,
    Result,
    Alone,
}

fn run_of(action: Action) -> Run {
    match action {
        Action::Cursor(..) => Run::Cursor,
        Action::CircuitLeft | Action::CircuitUp => Run::Scroll,
        Action::Resign | Action::NewGame => Run::Result,
        _ => Run::Alone,
    }
}

/// One help line per binding of `map`; Ctrl-C is listed with quitting, and a run of
/// cursor keys (or of scroll keys, or of the keys that end a game) shares one line, its words said once ("cursor left,
/// down", "scroll the circuit left / right, up / down").
pub fn map_lines(map: &[Binding]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut run = Run::Alone;
    let mut first_help = "";
    for b in map {
        let line = match b.action {
            Action::Quit => (
                format!("{} Ctrl-C", b.label),
                format!("{}; Ctrl-C leaves at once", b.help),
            ),
            _ => (b.label.to_string(), b.help.to_string()),
        };
        let this = run_of(b.action);
        match out.last_mut() {
            Some((keys, help)) if this != Run::Alone && this == run => {
                keys.push(' ');
                keys.push_str(b.label);
                help.push_str(", ");
                help.push_str(after_common_words(first_help, b.help));
            }
            _ => {
                first_help = b.help;
                out.push(line)
            }
        }
        run = this;
    }
    out
}

/// `text` without the words it starts with in common with `first`.
fn after_common_words<'a>(first: &str, text: &'a str) -> &'a str {
    let mut cut = 0;
    for (a, b) in first.split_inclusive(' ').zip(text.split_inclusive(' ')) {
        if a != b || !a.ends_with(' ') {
            break;
        }
        cut += a.len();
    }
    &text[cut..]
}

/// How to read the board, after the keys.
const LEGEND: [&str; 2] = [
    "Board: a number is the chance (%) the piece is there; none means certain",
    "[ ] cursor  < > selected  ( ) legal target  * * hint  ! ! king attacked",
];

/// Draws page `page` of a help box listing `entries` (keys, what they do), how to read
/// the board and the `recent` messages in full (newest first), wrapped to the screen;
/// returns how many pages the screen needs (a page turns with any key but Esc and q,
/// which close it, as any key does on the last page).
pub fn help_box(
    f: &mut Frame,
    area: Rect,
    paint: &Paint,
    entries: Vec<(String, String)>,
    rules: &[&str],
    recent: &Recent,
    page: usize,
) -> usize {
    let w = area.width.min(78);
    let key_w = entries
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    // Inside the borders: a space, the keys, two spaces, the words.
    let text_w = (w as usize).saturating_sub(key_w + 5).max(8);
    let text = paint.fg(paint.theme.text);
    // Each entry (and the legend) as a block of lines that a page never splits.
    let mut blocks: Vec<Vec<Line>> = entries
        .into_iter()
        .map(|(k, h)| {
            wrap(&h, text_w)
                .into_iter()
                .enumerate()
                .map(|(i, part)| {
                    let keys = if i == 0 { k.as_str() } else { "" };
                    Line::from(vec![
                        Span::styled(format!(" {keys:<key_w$}  "), paint.title()),
                        Span::styled(part, text),
                    ])
                })
                .collect()
        })
        .collect();
    blocks.push(
        LEGEND
            .iter()
            .flat_map(|l| wrap(l, w as usize - 3))
            .map(|l| Line::styled(format!(" {l}"), paint.dim()))
            .collect(),
    );
    let rows = (area.height.saturating_sub(2) as usize).max(1);
    // The messages as one block under their heading, on a page of their own if need
    // be: as many as a page holds, newest first.
    let mut said = vec![Line::styled(" Last messages, newest first:", paint.title())];
    for m in recent.newest_first() {
        let lines: Vec<Line> = wrap(m, w as usize - 5)
            .into_iter()
            .enumerate()
            .map(|(k, l)| Line::styled(format!(" {} {l}", if k == 0 { '-' } else { ' ' }), text))
            .collect();
        if said.len() + lines.len() > rows {
            break;
        }
        said.extend(lines);
    }
    if said.len() > 1 {
        blocks.push(said);
    }
    let mut pages: Vec<Vec<Line>> = vec![Vec::new()];
    for b in blocks {
        let last = pages.last_mut().expect("one page at least");
        if !last.is_empty() && last.len() + b.len() > rows {
            pages.push(b);
        } else {
            last.extend(b);
        }
    }
    let keys = pages.len();
    pages.extend(rules_pages(paint, rules, w as usize - 3, rows));
    let n = pages.len();
    let page = page.min(n - 1);
    let what = if page < keys { "Keys" } else { "Rules" };
    let title = if n == 1 {
        format!(" {what} (any key closes) ")
    } else if page + 1 < n {
        format!(" {what} {}/{n} (any key: more, Esc closes) ", page + 1)
    } else {
        format!(" {what} {}/{n} (any key closes) ", page + 1)
    };
    titled_box(f, area, paint, w, title, pages.swap_remove(page));
    n
}

/// The explanation of one move (`title`: the ply and the move) in a box over the
/// screen: each line wrapped to the box, indented lines kept indented; cut with a note
/// where the screen is too short.
pub fn explanation_box(f: &mut Frame, area: Rect, paint: &Paint, title: &str, lines: &[String]) {
    let w = area.width.min(78);
    let inner = (w as usize).saturating_sub(3).max(8);
    let text = paint.fg(paint.theme.text);
    let mut shown: Vec<Line> = Vec::new();
    for l in lines {
        let indent = l.len() - l.trim_start().len();
        let style = if indent == 0 { paint.title() } else { text };
        for (k, part) in wrap(l.trim_start(), inner.saturating_sub(indent + 2).max(8))
            .into_iter()
            .enumerate()
        {
            let pad = if k == 0 { indent } else { indent + 2 };
            shown.push(Line::styled(format!(" {}{part}", " ".repeat(pad)), style));
        }
    }
    let rows = area.height.saturating_sub(2) as usize;
    if shown.len() > rows {
        shown.truncate(rows.saturating_sub(1));
        shown.push(Line::styled(
            " ... (the whole text: qchess analyze --explain)",
            paint.dim(),
        ));
    }
    titled_box(
        f,
        area,
        paint,
        w,
        format!(" {title} (any key closes) "),
        shown,
    );
}

/// The rules in short (a heading, then paragraphs), wrapped to `width` and cut into
/// pages of `rows` lines (a paragraph is never split; a blank line between two).
fn rules_pages<'a>(paint: &Paint, rules: &[&str], width: usize, rows: usize) -> Vec<Vec<Line<'a>>> {
    let Some((heading, paragraphs)) = rules.split_first() else {
        return Vec::new();
    };
    let text = paint.fg(paint.theme.text);
    let heading = wrap(heading, width)
        .into_iter()
        .map(|l| Line::styled(format!(" {l}"), paint.title()));
    let mut pages = vec![heading.collect::<Vec<_>>()];
    for p in paragraphs {
        let lines: Vec<Line> = wrap(p, width)
            .into_iter()
            .map(|l| Line::styled(format!(" {l}"), text))
            .collect();
        let last = pages.last_mut().expect("one page at least");
        if last.len() + 1 + lines.len() > rows {
            pages.push(lines);
        } else {
            last.push(Line::raw(""));
            last.extend(lines);
        }
    }
    pages
}

/// Writes on the top border of the compact arrangement's pane below the board which
/// pane Tab shows next (`next`).
pub fn drawer_hint(f: &mut Frame, drawer: Rect, paint: &Paint, next: &str) {
    let text = format!(" Tab: {next} ");
    let w = text.chars().count() as u16;
    if drawer.width < w + 20 {
        return;
    }
    let r = Rect::new(drawer.right() - w - 1, drawer.y, w, 1);
    f.render_widget(Paragraph::new(Span::styled(text, paint.dim())), r);
}

/// Draws a game-over box with the result (in the players' names), the reason and the
/// keys that work now.
pub fn game_over_box(
    f: &mut Frame,
    area: Rect,
    paint: &Paint,
    result: &str,
    reason: &str,
    keys: &str,
) {
    let mut lines = vec![
        Line::styled(
            result.to_string(),
            paint.title().add_modifier(Modifier::BOLD),
        ),
        Line::styled(reason.to_string(), paint.fg(paint.theme.text)),
        Line::raw(""),
    ];
    lines.extend(
        keys.lines()
            .map(|k| Line::styled(k.to_string(), paint.dim())),
    );
    let r = centered(area, 60, 8);
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .centered()
            .block(
                paint
                    .block()
                    .border_style(paint.fg(paint.theme.title))
                    .title(Span::styled(" Game over ", paint.title())),
            ),
        r,
    );
}

/// Draws the "terminal too small" note: the size needed (`min`), the size there is, and
/// that only quitting works meanwhile.
pub fn too_small(f: &mut Frame, area: Rect, min: (u16, u16)) {
    let text = format!(
        "terminal too small: need {}x{}, have {}x{}. Enlarge it to go on (keys wait; q quits)",
        min.0, min.1, area.width, area.height
    );
    let y = area.height / 2;
    let r = Rect::new(area.x, area.y + y, area.width, area.height - y);
    f.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }).centered(), r);
}

/// Draws a yes/no question: its words (wrapped; a long path takes several lines), then
/// the answering keys.
pub fn question_box(f: &mut Frame, area: Rect, paint: &Paint, asked: &Asked) {
    let w = 64.min(area.width.saturating_sub(4)).max(20);
    let inner_w = w.saturating_sub(4) as usize;
    let mut lines: Vec<Line> = asked
        .lines
        .iter()
        .flat_map(|l| crate::format::wrap(l, inner_w))
        .map(|l| Line::styled(l, paint.fg(paint.theme.text)))
        .collect();
    lines.push(Line::raw(""));
    lines.push(Line::styled(asked.keys, paint.title()));
    let r = centered(area, w, lines.len() as u16 + 2);
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines).block(
            paint
                .block()
                .padding(ratatui::widgets::Padding::horizontal(1))
                .border_style(paint.fg(paint.theme.title))
                .title(Span::styled(asked.title, paint.title())),
        ),
        r,
    );
}

/// The keys the game-over popup names, a line each: the review first (not at a
/// table); at a table (`shared`), the game can be neither taken back nor restarted,
/// and `q` leaves the room; `u` only where a take-back is allowed (not `final_`: a game
/// on a clock, or ended by a flag, a resignation or an agreement).
pub(super) fn game_over_keys(shared: bool, final_: bool) -> &'static str {
    match (shared, final_) {
        (true, _) => "Esc look at the board   q leave the room",
        (false, true) => {
            "R review the game: the engine's verdict on every move\nn new game   Esc look at the board   q quit"
        }
        (false, false) => {
            "R review the game: the engine's verdict on every move\nn new game   u take back   Esc look at the board   q quit"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(lines: &[(String, String)]) -> Vec<&str> {
        lines.iter().map(|(k, _)| k.as_str()).collect()
    }

    #[test]
    fn the_help_lists_only_keys_that_act_here() {
        let alone = help_lines(false, true, false, false);
        for k in ["u", "X D n R", "w"] {
            assert!(keys(&alone).contains(&k), "{k} in {alone:?}");
        }
        assert!(!keys(&alone).contains(&"p"), "pause only when watching");
        assert!(keys(&help_lines(false, true, true, false)).contains(&"p"));
        // A server room refuses take-backs, new games and saving: not listed there;
        // resigning and draw offers go through the room.
        let room = help_lines(false, true, false, true);
        for k in ["u", "X D n R", "n R", "w"] {
            assert!(!keys(&room).contains(&k), "{k} in {room:?}");
        }
        assert!(keys(&room).contains(&"X D"), "{room:?}");
        // Claiming the win from a player who left is a room's only.
        assert!(keys(&room).contains(&"C") && !keys(&alone).contains(&"C"));
        assert_eq!(room.len(), alone.len() - 1, "{room:?}");
    }
}
