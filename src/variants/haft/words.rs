//! Wording helpers: lists, small counts, large counts.

/// "a", "a and b", "a, b and c" (with `word` in place of "and").
pub fn join(items: &[String], word: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} {word} {last}", rest.join(", ")),
    }
}

/// A small count in words ("three"), larger ones in digits.
pub fn count_word(n: u32) -> String {
    const WORDS: [&str; 9] = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight",
    ];
    WORDS
        .get(n as usize)
        .map_or_else(|| n.to_string(), |w| w.to_string())
}

/// A count with thousands separators: 25,401,600.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words() {
        assert_eq!(count_word(3), "three");
        assert_eq!(count_word(12), "12");
        assert_eq!(grouped(25_401_600), "25,401,600");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(0), "0");
        let items = ["a".to_string(), "b".to_string(), "c".to_string()];
        assert_eq!(join(&items, "or"), "a, b or c");
        assert_eq!(join(&items[..1], "or"), "a");
    }
}
