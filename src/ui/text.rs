//! Laying styled text out in a width: words flowed into lines, at most so many lines
//! (the rest cut at a word with "…"), and a status line that drops its least needed
//! parts rather than cutting them.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// The words of `text` (split at spaces), each with `style`.
pub fn words(text: &str, style: Style) -> Vec<Span<'static>> {
    text.split(' ')
        .filter(|w| !w.is_empty())
        .map(|w| Span::styled(w.to_string(), style))
        .collect()
}

/// Lays styled words out in lines of at most `width` cells, one space between words;
/// continuation lines start with `indent` spaces. A word wider than a line is cut.
pub fn flow(words: Vec<Span<'static>>, indent: usize, width: usize) -> Vec<Line<'static>> {
    flow_after(Vec::new(), words, indent, width)
}

/// As [`flow`], with the first line starting with `lead` (kept whole, as one word).
pub fn flow_after(
    lead: Vec<Span<'static>>,
    words: Vec<Span<'static>>,
    indent: usize,
    width: usize,
) -> Vec<Line<'static>> {
    let width = width.max(indent + 8);
    let mut lines = Vec::new();
    let mut used: usize = lead.iter().map(|s| s.width()).sum();
    // Whether the current line has no word yet.
    let mut fresh = lead.is_empty();
    let mut cur: Vec<Span<'static>> = lead;
    for w in words {
        let ww = w.width();
        if !fresh && used + 1 + ww > width {
            lines.push(Line::from(std::mem::take(&mut cur)));
            cur.push(Span::raw(" ".repeat(indent)));
            used = indent;
            fresh = true;
        }
        if !fresh {
            cur.push(Span::raw(" "));
            used += 1;
        }
        if used + ww > width {
            let cut: String = w.content.chars().take(width - used).collect();
            cur.push(Span::styled(cut, w.style));
            used = width;
        } else {
            used += ww;
            cur.push(w);
        }
        fresh = false;
    }
    if !cur.is_empty() {
        lines.push(Line::from(cur));
    }
    lines
}

/// The first `max` of `lines` (each at most `width` cells); when some are left out, the
/// last kept line ends with "…" in `style`, after as many of its words as fit.
pub fn clip(
    mut lines: Vec<Line<'static>>,
    max: usize,
    width: usize,
    style: Style,
) -> Vec<Line<'static>> {
    if lines.len() <= max {
        return lines;
    }
    lines.truncate(max);
    if let Some(last) = lines.last_mut() {
        while last.width() + 2 > width && last.spans.len() > 1 {
            last.spans.pop();
        }
        while last
            .spans
            .last()
            .is_some_and(|s| s.content.trim().is_empty())
        {
            last.spans.pop();
        }
        last.spans.push(Span::styled(" …", style));
    }
    lines
}

/// The parts of a status line joined by `sep`, dropping parts from the end of `drop`
/// (indices into `parts`, most needed first; parts not named there always stay) until
/// the line fits `width`.
pub fn status_line(
    parts: Vec<Vec<Span<'static>>>,
    drop: &[usize],
    sep: Span<'static>,
    width: usize,
) -> Line<'static> {
    let mut keep = vec![true; parts.len()];
    let len = |keep: &[bool]| {
        let shown: Vec<usize> = (0..parts.len()).filter(|&i| keep[i]).collect();
        let words: usize = shown
            .iter()
            .map(|&i| parts[i].iter().map(|s| s.width()).sum::<usize>())
            .sum();
        words + sep.width() * shown.len().saturating_sub(1)
    };
    let mut order = drop.iter().rev();
    while len(&keep) > width {
        match order.next() {
            Some(&i) => keep[i] = false,
            None => break,
        }
    }
    let mut spans = Vec::new();
    for (i, part) in parts.into_iter().enumerate().filter(|(i, _)| keep[*i]) {
        if !spans.is_empty() && i > 0 {
            spans.push(sep.clone());
        }
        spans.extend(part);
    }
    Line::from(spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: &[Line]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn flow_wraps_with_a_hanging_indent() {
        let s = Style::default();
        let l = flow(words("QFT† inverse QFT on q7..q12: 24 gates", s), 2, 16);
        assert_eq!(
            text(&l),
            ["QFT† inverse QFT", "  on q7..q12: 24", "  gates"]
        );
        let l = flow(words("abcdefghijklmnopqrstuvwxyz", s), 2, 10);
        assert_eq!(text(&l), ["abcdefghij"]);
        let l = flow_after(
            vec![Span::raw(": e2e4_")],
            words("Enter plays it", s),
            0,
            14,
        );
        assert_eq!(text(&l), [": e2e4_ Enter", "plays it"]);
    }

    #[test]
    fn clipped_lines_end_with_an_ellipsis_at_a_word() {
        let s = Style::default();
        let l = flow(words("one two three four five six", s), 0, 10);
        assert_eq!(text(&l), ["one two", "three four", "five six"]);
        assert_eq!(text(&clip(l.clone(), 3, 10, s)), text(&l));
        assert_eq!(text(&clip(l, 2, 10, s)), ["one two", "three …"]);
    }

    #[test]
    fn status_lines_drop_parts_instead_of_cutting_them() {
        let parts = || {
            vec![
                vec![Span::raw("game over: white wins")],
                vec![Span::raw("ply 9")],
                vec![Span::raw("sparse")],
                vec![Span::raw("? help")],
            ]
        };
        let sep = Span::raw(" | ");
        let all = status_line(parts(), &[1, 2, 3], sep.clone(), 80);
        assert_eq!(
            all.to_string(),
            "game over: white wins | ply 9 | sparse | ? help"
        );
        let l = status_line(parts(), &[3, 1, 2], sep.clone(), 40);
        assert_eq!(l.to_string(), "game over: white wins | ply 9 | ? help");
        let l = status_line(parts(), &[3, 1, 2], sep, 10);
        assert_eq!(l.to_string(), "game over: white wins");
    }
}
