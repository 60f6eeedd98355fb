//! Text formatting shared by the rules' reports and the panes: percentages, and text
//! wrapped to a width in terminal columns.

use crate::quantum::CERTAIN_EPS;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// A probability as a whole percentage that never says 0 or 100 unless it is.
pub fn percent(p: f64) -> String {
    if p >= 1.0 - CERTAIN_EPS {
        return "100".into();
    }
    if p <= CERTAIN_EPS {
        return "0".into();
    }
    match (p * 100.0).round() as i64 {
        0 => "<1".into(),
        100 => "99".into(),
        n => n.to_string(),
    }
}

/// Splits `s` at spaces into lines at most `width` columns wide on the terminal (a
/// wide character, as in CJK names, takes two; longer words are cut between characters).
pub fn wrap(s: &str, width: usize) -> Vec<String> {
    let width = width.max(8);
    let mut out = Vec::new();
    let mut cur = String::new();
    for word in s.split(' ') {
        let need = cur.width() + word.width() + usize::from(!cur.is_empty());
        if need > width && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        for c in word.chars() {
            if cur.width() + c.width().unwrap_or(0) > width && !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            cur.push(c);
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_never_round_to_certainty() {
        assert_eq!(percent(1.0), "100");
        assert_eq!(percent(0.999), "99");
        assert_eq!(percent(0.5), "50");
        assert_eq!(percent(0.001), "<1");
        assert_eq!(percent(0.0), "0");
    }

    #[test]
    fn wraps_at_spaces() {
        assert_eq!(
            wrap("excluded: c3 was occupied, the move stopped", 20),
            vec!["excluded: c3 was", "occupied, the move", "stopped"]
        );
        assert_eq!(wrap("abcdefghijkl", 8), vec!["abcdefgh", "ijkl"]);
    }

    #[test]
    fn wraps_by_columns_not_characters() {
        // Each of these takes two columns: four fit in eight.
        assert_eq!(
            wrap("名人名人名人 white", 8),
            vec!["名人名人", "名人", "white"]
        );
        assert_eq!(wrap("ab 名人名人", 8), vec!["ab", "名人名人"]);
        // Combining accents take none.
        assert_eq!(
            wrap("e\u{301}e\u{301}e\u{301} ok", 8),
            vec!["e\u{301}e\u{301}e\u{301} ok"]
        );
        for line in wrap("名人 名人名人名人名人 x", 9) {
            assert!(
                unicode_width::UnicodeWidthStr::width(line.as_str()) <= 9,
                "{line}"
            );
        }
    }
}
