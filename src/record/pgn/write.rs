//! Writing games as PGN text in the export format: the seven-tag roster first, the
//! other tags in ASCII order, a blank line, the movetext with move numbers, comments and
//! annotations, the result, lines of at most 79 characters.

use super::{GameResult, PgnGame, Tag};

/// The seven tags every exported game has, in their order.
pub const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The longest line written.
const WIDTH: usize = 79;

/// The PGN text of `game`, ending in a newline. The `Result` tag is the game's
/// result; a roster tag the game lacks is written as `?` (a date as `????.??.??`).
pub fn write(game: &PgnGame) -> String {
    let mut out = String::new();
    for name in ROSTER {
        let value = match name {
            "Result" => game.result.token().to_string(),
            _ => match game.value(name) {
                Some(v) => v.to_string(),
                None if name == "Date" => "????.??.??".into(),
                None => "?".into(),
            },
        };
        out.push_str(&tag_line(name, &value));
    }
    let mut others: Vec<&Tag> = game
        .tags
        .iter()
        .filter(|t| !ROSTER.contains(&t.name.as_str()))
        .collect();
    others.sort_by(|a, b| a.name.cmp(&b.name));
    for t in others {
        out.push_str(&tag_line(&t.name, &t.value));
    }
    out.push('\n');
    for line in wrap(&movetext_words(game)) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The PGN text of several games, a blank line between them.
pub fn write_all(games: &[PgnGame]) -> String {
    games.iter().map(write).collect::<Vec<_>>().join("\n")
}

/// `[Name "value"]` and a newline, the value escaped (a line break becomes a space: a
/// PGN string is one line).
fn tag_line(name: &str, value: &str) -> String {
    let mut v = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '"' => v.push_str("\\\""),
            '\\' => v.push_str("\\\\"),
            c if c.is_control() => v.push(' '),
            c => v.push(c),
        }
    }
    format!("[{name} \"{v}\"]\n")
}

/// The side to move and the move number at the start, from the `FEN` tag (white and 1
/// without one).
fn first_number(game: &PgnGame) -> (bool, u64) {
    let Some(fen) = game.value("FEN") else {
        return (true, 1);
    };
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let white = fields.get(1) != Some(&"b");
    let number = fields
        .get(5)
        .and_then(|n| n.parse::<u64>().ok())
        .filter(|n| *n > 0)
        .unwrap_or(1);
    (white, number)
}

/// A comment as words for wrapping: `{first`, ..., `last}` (a `}` inside becomes `)`);
/// a command such as `[%clk 0:04:59]` stays one word.
fn comment_words(text: &str, words: &mut Vec<String>) {
    let clean = text.replace('}', ")");
    let mut inner: Vec<String> = Vec::new();
    let mut command = false;
    for w in clean.split_whitespace() {
        match inner.last_mut() {
            Some(last) if command => {
                last.push(' ');
                last.push_str(w);
            }
            _ => inner.push(w.to_string()),
        }
        if w.starts_with("[%") {
            command = true;
        }
        if w.ends_with(']') {
            command = false;
        }
    }
    match inner.as_slice() {
        [] => words.push("{}".into()),
        [only] => words.push(format!("{{{only}}}")),
        [first, middle @ .., last] => {
            words.push(format!("{{{first}"));
            words.extend(middle.iter().map(|w| w.to_string()));
            words.push(format!("{last}}}"));
        }
    }
}

/// The movetext as words: numbers, moves, annotations, comments, the result.
fn movetext_words(game: &PgnGame) -> Vec<String> {
    let mut words = Vec::new();
    for c in &game.comments {
        comment_words(c, &mut words);
    }
    let (mut white, mut number) = first_number(game);
    // A black move is numbered (`12...`) first, and after a comment or annotation.
    let mut interrupted = true;
    for m in &game.moves {
        if white {
            words.push(format!("{number}."));
        } else if interrupted {
            words.push(format!("{number}..."));
        }
        words.push(m.text.clone());
        interrupted = !m.nags.is_empty() || !m.comments.is_empty();
        words.extend(m.nags.iter().map(|n| format!("${n}")));
        for c in &m.comments {
            comment_words(c, &mut words);
        }
        if !white {
            // A FEN tag may say any number, the largest too.
            number = number.saturating_add(1);
        }
        white = !white;
    }
    words.push(game.result.token().into());
    words
}

/// The words in lines of at most [`WIDTH`] characters (a longer word alone on its line).
fn wrap(words: &[String]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut len = 0;
    for w in words {
        let n = w.chars().count();
        if len > 0 && len + 1 + n > WIDTH {
            lines.push(std::mem::take(&mut line));
            len = 0;
        }
        if len > 0 {
            line.push(' ');
            len += 1;
        }
        line.push_str(w);
        len += n;
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// A game with these tags, moves and result (places left at their defaults), for
/// writing.
pub fn game(tags: Vec<(String, String)>, moves: Vec<super::Move>, result: GameResult) -> PgnGame {
    PgnGame {
        tags: tags
            .into_iter()
            .map(|(name, value)| Tag {
                name,
                value,
                pos: Default::default(),
            })
            .collect(),
        comments: Vec::new(),
        moves,
        result,
        result_pos: Default::default(),
        start: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{read, Move};
    use super::*;

    fn tags(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn roster_first_then_the_other_tags_in_order() {
        let g = game(
            tags(&[
                ("Variant", "Quantum"),
                ("White", "Ann \"the\" \\ best"),
                ("Event", "Club"),
                ("FEN", "8/8/8/8/8/8/8/K6k b - - 0 7"),
            ]),
            vec![Move::new("a1a2")],
            GameResult::Draw,
        );
        let text = write(&g);
        assert_eq!(
            text,
            "[Event \"Club\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
             [White \"Ann \\\"the\\\" \\\\ best\"]\n[Black \"?\"]\n[Result \"1/2-1/2\"]\n\
             [FEN \"8/8/8/8/8/8/8/K6k b - - 0 7\"]\n[Variant \"Quantum\"]\n\n\
             7... a1a2 1/2-1/2\n"
        );
        let back = &read(&text).unwrap()[0];
        assert_eq!(back.value("White"), Some("Ann \"the\" \\ best"));
    }

    #[test]
    fn numbers_comments_and_wrapping() {
        let mut moves: Vec<Move> = Vec::new();
        for i in 0..40 {
            let mut m = Move::new(if i % 2 == 0 { "b1^a3c3" } else { "e7we8.m0" });
            if i == 5 {
                m.comments.push("blocked".into());
                m.nags.push(2);
            }
            moves.push(m);
        }
        let g = game(Vec::new(), moves, GameResult::Unknown);
        let text = write(&g);
        let movetext: Vec<&str> = text.lines().skip(8).collect();
        assert!(movetext.len() > 5);
        for line in &movetext {
            assert!(line.chars().count() <= WIDTH, "{line}");
        }
        let joined = movetext.join(" ");
        assert!(
            joined.starts_with("1. b1^a3c3 e7we8.m0 2. b1^a3c3 e7we8.m0 3. b1^a3c3 e7we8.m0 $2 {blocked} 4. b1^a3c3"),
            "{joined}"
        );
        assert!(joined.ends_with("20. b1^a3c3 e7we8.m0 *"), "{joined}");
        let back = &read(&text).unwrap()[0];
        assert_eq!(back.moves.len(), 40);
        assert!(back.moves[5].blocked());
        assert_eq!(back.moves[5].nags, vec![2]);
    }

    #[test]
    fn a_black_move_after_a_comment_is_numbered_and_long_comments_wrap() {
        let mut first = Move::new("e2e4");
        first
            .comments
            .push(format!("{} }} end", "word ".repeat(40)));
        let g = game(
            Vec::new(),
            vec![first, Move::new("e7e5"), Move::new("g1f3")],
            GameResult::WhiteWins,
        );
        let text = write(&g);
        assert!(text.contains("end} 1... e7e5 2. g1f3 1-0"), "{text}");
        assert!(text.lines().all(|l| l.chars().count() <= WIDTH), "{text}");
        let back = &read(&text).unwrap()[0];
        assert_eq!(back.moves.len(), 3);
        assert!(back.moves[0].comments[0].contains(") end"));
        let multi = write_all(&[g.clone(), g]);
        assert_eq!(read(&multi).unwrap().len(), 2);
    }

    #[test]
    fn clock_commands_are_never_broken_across_lines() {
        let moves = (0..40)
            .map(|i| {
                let mut m = Move::new(if i % 2 == 0 { "g1f3" } else { "g8f6" });
                m.comments.push(format!("[%clk 0:02:{:02}.5] left", 59 - i));
                m
            })
            .collect();
        let text = write(&game(Vec::new(), moves, GameResult::Unknown));
        assert!(text.lines().all(|l| l.chars().count() <= WIDTH), "{text}");
        for line in text.lines() {
            assert_eq!(
                line.matches("[%clk").count(),
                line.matches(".5]").count(),
                "{text}"
            );
        }
    }

    #[test]
    fn any_move_number_of_a_fen_tag_is_written() {
        let fen = format!("7k/8/8/8/8/8/8/K7 b - - 0 {}", u64::MAX);
        let g = game(
            vec![("FEN".into(), fen)],
            vec![Move::new("h8g8"), Move::new("a1a2"), Move::new("g8h8")],
            GameResult::Unknown,
        );
        let text = write(&g);
        let max = u64::MAX;
        assert!(
            text.contains(&format!("{max}... h8g8 {max}. a1a2 g8h8 *")),
            "{text}"
        );
    }
}
