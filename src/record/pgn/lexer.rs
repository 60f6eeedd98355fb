//! The PGN tokenizer: splits a file's text into tokens, each with the line and column
//! where it starts. Any text is accepted as input; what is not PGN is an error with its
//! place, never a panic.

use super::{GameResult, PgnError, Pos};

/// One token of a PGN file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token {
    /// `[`, the start of a tag pair.
    TagOpen,
    /// `]`, the end of a tag pair.
    TagClose,
    /// A quoted string, its escapes (`\"`, `\\`) undone, a control character a space.
    Str(String),
    /// A symbol: a tag's name, or a move (`e4`, `Nf3`, `b1^a3c3`, `e4xd5.m1`, `O-O`).
    Symbol(String),
    /// A move number (`12.`, `12...`); its value is not used.
    MoveNumber,
    /// A numeric annotation glyph: `$n`, or a suffix `!`, `?`, `!!`, `??`, `!?`, `?!`.
    Nag(u8),
    /// The text of a `{...}` or `;` comment.
    Comment(String),
    /// `(`, the start of a variation.
    VariationOpen,
    /// `)`, the end of a variation.
    VariationClose,
    /// A game termination marker: `1-0`, `0-1`, `1/2-1/2` or `*`.
    Result(GameResult),
}

/// The tokens of `text`, in order, each with where it starts.
pub fn tokens(text: &str) -> Lexer {
    let mut chars: Vec<char> = text.chars().collect();
    if chars.first() == Some(&'\u{feff}') {
        chars.remove(0);
    }
    Lexer {
        chars,
        at: 0,
        pos: Pos { line: 1, column: 1 },
    }
}

/// The tokenizer over one text ([`tokens`]): an iterator of tokens or the first error.
pub struct Lexer {
    chars: Vec<char>,
    at: usize,
    pos: Pos,
}

/// Characters that go on a symbol once it has started.
fn continues_symbol(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_+#=:-^~./".contains(c)
}

impl Lexer {
    /// Where the next character is: the end of the text once every token is read.
    pub fn pos(&self) -> Pos {
        self.pos
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += 1;
        if c == '\n' {
            self.pos.line += 1;
            self.pos.column = 1;
        } else {
            self.pos.column += 1;
        }
        Some(c)
    }

    /// Reads characters while `keep` holds.
    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek().filter(|c| keep(*c)) {
            s.push(c);
            self.bump();
        }
        s
    }

    /// Skips blanks, and `%` escape lines (a `%` in the first column hides its line).
    fn skip_blanks(&mut self) {
        while let Some(c) = self.peek() {
            if c == '%' && self.pos.column == 1 {
                self.take_while(|c| c != '\n');
            } else if c.is_whitespace() {
                self.bump();
            } else {
                break;
            }
        }
    }

    fn next_token(&mut self) -> Option<Result<(Pos, Token), PgnError>> {
        self.skip_blanks();
        let start = self.pos;
        let c = self.peek()?;
        let fail = |message: String| Some(Err(PgnError::at(start, message)));
        let single = match c {
            '[' => Some(Token::TagOpen),
            ']' => Some(Token::TagClose),
            '(' => Some(Token::VariationOpen),
            ')' => Some(Token::VariationClose),
            '*' => Some(Token::Result(GameResult::Unknown)),
            _ => None,
        };
        if let Some(t) = single {
            self.bump();
            return Some(Ok((start, t)));
        }
        let token =
            match c {
                '{' => {
                    self.bump();
                    let body = self.take_while(|c| c != '}');
                    if self.bump().is_none() {
                        return fail("unterminated comment: this `{` has no closing `}`".into());
                    }
                    Token::Comment(body)
                }
                ';' => {
                    self.bump();
                    Token::Comment(self.take_while(|c| c != '\n'))
                }
                '"' => {
                    self.bump();
                    let mut s = String::new();
                    loop {
                        match self.bump() {
                            None | Some('\n') => return fail(
                                "unterminated string: this `\"` has no closing `\"` on its line"
                                    .into(),
                            ),
                            Some('"') => break,
                            Some('\\') => match self.peek() {
                                Some(e @ ('"' | '\\')) => {
                                    self.bump();
                                    s.push(e);
                                }
                                _ => s.push('\\'),
                            },
                            // A tab (or another control character) is a space.
                            Some(c) if c.is_control() => s.push(' '),
                            Some(c) => s.push(c),
                        }
                    }
                    Token::Str(s)
                }
                '$' => {
                    self.bump();
                    let digits = self.take_while(|c| c.is_ascii_digit());
                    match digits.parse::<u8>() {
                        Ok(n) => Token::Nag(n),
                        Err(_) if digits.is_empty() => {
                            return fail("a `$` is a numeric annotation: `$` and a number".into())
                        }
                        Err(_) => {
                            return fail(format!("annotation ${digits} is out of range (0 to 255)"))
                        }
                    }
                }
                '!' | '?' => {
                    let s = self.take_while(|c| c == '!' || c == '?');
                    match suffix_nag(&s) {
                        Some(n) => Token::Nag(n),
                        None => return fail(format!("unknown move annotation `{s}`")),
                    }
                }
                c if c.is_ascii_digit() => {
                    let digits = self.take_while(|c| c.is_ascii_digit());
                    if self.peek() == Some('.') {
                        self.take_while(|c| c == '.');
                        Token::MoveNumber
                    } else {
                        let rest = self.take_while(continues_symbol);
                        let word = format!("{digits}{rest}");
                        // A result with a check mark stays a result (`1-0+`).
                        match GameResult::parse(word.trim_end_matches(['+', '#'])) {
                            Some(r) => Token::Result(r),
                            None => Token::Symbol(word),
                        }
                    }
                }
                c if c.is_ascii_alphabetic() || c == '-' => {
                    Token::Symbol(self.take_while(continues_symbol))
                }
                '½' => {
                    let word = self.take_while(|c| c == '½' || c == '-');
                    match GameResult::parse(&word) {
                        Some(r) => Token::Result(r),
                        None => return fail(format!("`{word}` is not a result")),
                    }
                }
                c => {
                    return fail(format!(
                        "unexpected character `{c}` (not part of a move, tag, comment or result)"
                    ))
                }
            };
        Some(Ok((start, token)))
    }
}

/// The glyph number of a move suffix: `!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6.
fn suffix_nag(s: &str) -> Option<u8> {
    Some(match s {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        _ => return None,
    })
}

impl Iterator for Lexer {
    type Item = Result<(Pos, Token), PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        let item = self.next_token();
        if matches!(item, Some(Err(_))) {
            // After an error the rest is not read.
            self.at = self.chars.len();
        }
        item
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Token> {
        tokens(text)
            .map(|t| t.map(|(_, t)| t))
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| panic!("{text:?}: {e}"))
    }

    fn sym(s: &str) -> Token {
        Token::Symbol(s.into())
    }

    fn error(text: &str) -> PgnError {
        match tokens(text).find_map(Result::err) {
            Some(e) => e,
            None => panic!("{text:?} tokenized without an error"),
        }
    }

    #[test]
    fn tags_moves_numbers_and_results() {
        assert_eq!(
            kinds("[Event \"A \\\"b\\\" \\\\\tc\"]\n1. e4 e5 2.Nf3 1-0"),
            vec![
                Token::TagOpen,
                sym("Event"),
                Token::Str("A \"b\" \\ c".into()),
                Token::TagClose,
                Token::MoveNumber,
                sym("e4"),
                sym("e5"),
                Token::MoveNumber,
                sym("Nf3"),
                Token::Result(GameResult::WhiteWins),
            ]
        );
        assert_eq!(
            kinds("12... O-O-O 0-0 0-1 1/2-1/2 ½-½ 1-0+ *"),
            vec![
                Token::MoveNumber,
                sym("O-O-O"),
                sym("0-0"),
                Token::Result(GameResult::BlackWins),
                Token::Result(GameResult::Draw),
                Token::Result(GameResult::Draw),
                Token::Result(GameResult::WhiteWins),
                Token::Result(GameResult::Unknown),
            ]
        );
    }

    #[test]
    fn quantum_moves_are_one_symbol_each() {
        for m in [
            "b1^a3c3",
            "a3c3^b5",
            "e4xd5.m1",
            "e7we8",
            "e5xd6ep",
            "e7e8Q",
            "b1wc3.m0",
            "e8=Q+",
            "Qxf7#",
            "b1~d5.c3=N",
        ] {
            assert_eq!(kinds(m), vec![sym(m)], "{m}");
        }
    }

    #[test]
    fn comments_annotations_and_variations() {
        assert_eq!(
            kinds("e4!? {a {b} ; c\nd5?? $14 (1... c5)\n% hidden line\ne5"),
            vec![
                sym("e4"),
                Token::Nag(5),
                Token::Comment("a {b".into()),
                Token::Comment(" c".into()),
                sym("d5"),
                Token::Nag(4),
                Token::Nag(14),
                Token::VariationOpen,
                Token::MoveNumber,
                sym("c5"),
                Token::VariationClose,
                sym("e5"),
            ]
        );
        // A `%` only hides its line in the first column.
        assert!(tokens("e4 %").any(|t| t.is_err()));
        assert_eq!(kinds("\u{feff}e4"), vec![sym("e4")]);
    }

    #[test]
    fn places_are_lines_and_columns_of_characters() {
        let places: Vec<Pos> = tokens("[A \"é\"]\n  {x\ny} e4")
            .map(|t| t.unwrap().0)
            .collect();
        let p = |line, column| Pos { line, column };
        assert_eq!(
            places,
            vec![p(1, 1), p(1, 2), p(1, 4), p(1, 7), p(2, 3), p(3, 4)]
        );
    }

    #[test]
    fn bad_input_is_an_error_with_its_place() {
        let e = error("1. e4 {never closed\n\ne5");
        assert_eq!((e.pos.line, e.pos.column), (1, 7));
        assert!(e.message.contains("unterminated comment"), "{e}");
        let e = error("[Event \"open");
        assert_eq!((e.pos.line, e.pos.column), (1, 8));
        assert!(e.message.contains("unterminated string"), "{e}");
        let e = error("e4 $ e5");
        assert_eq!((e.pos.line, e.pos.column), (1, 4));
        assert!(error("e4 $300").message.contains("out of range"));
        assert!(error("e4 !!!").message.contains("annotation"));
        assert!(error("e4 <e5>")
            .message
            .contains("unexpected character `<`"));
        assert!(error("e4 ½x").message.contains("not a result"));
        // After an error, nothing more.
        let mut lexer = tokens("{ e4");
        assert!(lexer.next().unwrap().is_err());
        assert!(lexer.next().is_none());
    }

    #[test]
    fn any_text_tokenizes_or_fails_without_a_panic() {
        for text in [
            "",
            "\"",
            "\\",
            "[",
            "{",
            "}",
            ";",
            "$",
            "$1a",
            "1",
            "1.",
            "1-",
            "½",
            "é4",
            "♘f3",
            "\u{0}",
            "\r\n\r",
            "%%",
            "(((",
            ")))",
            "9999999999999999999999.",
            "e4\"x",
        ] {
            let _ = tokens(text).count();
        }
    }
}
