//! Reading a PGN file's games: the tag pairs, the main line's moves with their
//! comments and annotations, and the result of each game. Variations are skipped;
//! move numbers are not checked (the replay decides whose move it is).

use super::dialect::is_en_passant_mark;
use super::lexer::{tokens, Lexer, Token};
use super::{GameResult, Move, PgnError, PgnGame, Pos, Tag};

/// The games of a PGN file's text, in order (none for a text with no game in it).
pub fn read(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let mut lexer = tokens(text);
    let mut games = Vec::new();
    while let Some(game) = next_game(&mut lexer)? {
        games.push(game);
    }
    Ok(games)
}

/// The next game, or `None` at the end of the text.
fn next_game(lexer: &mut Lexer) -> Result<Option<PgnGame>, PgnError> {
    let mut game: Option<PgnGame> = None;
    let mut in_movetext = false;
    // Comments before anything else of a game are its own, if a game follows.
    let mut comments = Vec::new();
    // Whether the last token was a move: an en passant mark after it is its own.
    let mut after_move = false;
    loop {
        let Some(item) = lexer.next() else {
            return match game {
                None => Ok(None),
                Some(g) => Err(PgnError::at(
                    lexer.pos(),
                    format!(
                        "missing result: the game that starts at line {} ends without \
                         1-0, 0-1, 1/2-1/2 or *",
                        g.start.line
                    ),
                )),
            };
        };
        let (pos, token) = item?;
        let follows_move = std::mem::replace(&mut after_move, matches!(token, Token::Symbol(_)));
        if game.is_none() {
            if let Token::Comment(c) = token {
                comments.push(c);
                continue;
            }
        }
        let g = game.get_or_insert_with(|| PgnGame {
            tags: Vec::new(),
            comments: std::mem::take(&mut comments),
            moves: Vec::new(),
            result: GameResult::Unknown,
            result_pos: pos,
            start: pos,
        });
        match token {
            Token::TagOpen if in_movetext => {
                return Err(PgnError::at(
                    pos,
                    format!(
                        "missing result: the game that starts at line {} has no 1-0, 0-1, \
                         1/2-1/2 or * before this tag",
                        g.start.line
                    ),
                ))
            }
            Token::TagOpen => g.tags.push(tag(lexer, pos)?),
            Token::Result(r) => {
                g.result = r;
                g.result_pos = pos;
                return Ok(game);
            }
            Token::Symbol(text) => {
                in_movetext = true;
                // A symbol starts with a letter, a digit or `-`: something is left.
                let text = text.trim_end_matches(['+', '#']).to_string();
                match g.moves.last_mut() {
                    // `exf6 e.p.`: the mark goes with the move, as in `exf6e.p.`.
                    Some(m) if follows_move && is_en_passant_mark(&text) => m.text.push_str(&text),
                    _ => g.moves.push(Move {
                        text,
                        pos,
                        nags: Vec::new(),
                        comments: Vec::new(),
                    }),
                }
            }
            Token::MoveNumber => in_movetext = true,
            Token::Nag(n) => {
                in_movetext = true;
                if let Some(m) = g.moves.last_mut() {
                    m.nags.push(n);
                }
            }
            Token::Comment(c) => match g.moves.last_mut() {
                Some(m) => m.comments.push(c),
                None => g.comments.push(c),
            },
            Token::VariationOpen => {
                in_movetext = true;
                skip_variation(lexer, pos)?;
            }
            Token::VariationClose => {
                return Err(PgnError::at(pos, "a `)` without the `(` of a variation"))
            }
            Token::TagClose => return Err(PgnError::at(pos, "a `]` outside a tag")),
            Token::Str(_) => {
                return Err(PgnError::at(
                    pos,
                    "a quoted string outside a tag (tags are written [Name \"value\"])",
                ))
            }
        }
    }
}

/// The rest of a tag pair whose `[` is at `open`.
fn tag(lexer: &mut Lexer, open: Pos) -> Result<Tag, PgnError> {
    let unterminated = || {
        PgnError::at(
            open,
            "unterminated tag: this `[` is not followed by a name, a quoted value and `]`",
        )
    };
    let mut next = || lexer.next().transpose().map(|t| t.map(|(_, t)| t));
    let name = match next()? {
        Some(Token::Symbol(name)) if valid_tag_name(&name) => name,
        Some(Token::Symbol(name)) => {
            return Err(PgnError::at(
                open,
                format!("`{name}` is not a tag name (letters, digits and _, from a letter)"),
            ))
        }
        _ => return Err(unterminated()),
    };
    let value = match next()? {
        Some(Token::Str(v)) => v,
        _ => return Err(unterminated()),
    };
    match next()? {
        Some(Token::TagClose) => Ok(Tag {
            name,
            value,
            pos: open,
        }),
        _ => Err(unterminated()),
    }
}

/// Whether `name` may name a tag: letters, digits and `_`, from a letter.
pub fn valid_tag_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Skips a variation whose `(` is at `open`, with the variations inside it.
fn skip_variation(lexer: &mut Lexer, open: Pos) -> Result<(), PgnError> {
    let mut depth = 1usize;
    while depth > 0 {
        match lexer.next().transpose()? {
            None => {
                return Err(PgnError::at(
                    open,
                    "unterminated variation: this `(` has no closing `)`",
                ))
            }
            Some((_, Token::VariationOpen)) => depth += 1,
            Some((_, Token::VariationClose)) => depth -= 1,
            Some((pos, Token::TagOpen)) => {
                return Err(PgnError::at(
                    pos,
                    format!(
                        "a tag inside the variation that starts at line {}, column {} \
                         (is a `)` missing?)",
                        open.line, open.column
                    ),
                ))
            }
            Some(_) => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(g: &PgnGame) -> Vec<&str> {
        g.moves.iter().map(|m| m.text.as_str()).collect()
    }

    fn err(text: &str) -> PgnError {
        match read(text) {
            Err(e) => e,
            Ok(g) => panic!("{text:?} read as {} games", g.len()),
        }
    }

    #[test]
    fn a_game_with_everything_pgn_has() {
        let text = "[Event \"Test\"]\n[White \"Ann\"]\n\n{before} 1. e4!? {good} $14 e5 \
                    (1... c5 2. Nf3 (2. c3) d6) 2. Nf3+ Nc6 3. Bb5# ; end\n1-0\n";
        let games = read(text).unwrap();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.value("Event"), Some("Test"));
        assert_eq!(g.value("White"), Some("Ann"));
        assert_eq!(g.comments, vec!["before"]);
        assert_eq!(texts(g), vec!["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        assert_eq!(g.moves[0].nags, vec![5, 14]);
        assert_eq!(g.moves[0].comments, vec!["good"]);
        assert_eq!(g.moves[4].comments, vec![" end"]);
        assert_eq!(g.result, GameResult::WhiteWins);
        assert_eq!(
            g.moves[2].pos,
            Pos {
                line: 4,
                column: 63
            }
        );
        assert_eq!(g.result_pos, Pos { line: 5, column: 1 });
    }

    #[test]
    fn quantum_moves_and_blocked() {
        let g = &read("1. b1^a3c3 e7e5 2. a3c3^b5 {x} 2... d8wh4.m0 {blocked} *").unwrap()[0];
        assert_eq!(texts(g), vec!["b1^a3c3", "e7e5", "a3c3^b5", "d8wh4.m0"]);
        assert!(g.moves[3].blocked() && !g.moves[2].blocked());
        assert_eq!(g.result, GameResult::Unknown);
    }

    #[test]
    fn an_en_passant_mark_apart_goes_with_its_move() {
        let g = &read("1. e4 d5 2. e5 f5 3. exf6 e.p. Nxf6 4. d4 *").unwrap()[0];
        assert_eq!(
            texts(g),
            vec!["e4", "d5", "e5", "f5", "exf6e.p.", "Nxf6", "d4"]
        );
        let g = &read("1. e5xd6 ep+ 2. d4 *").unwrap()[0];
        assert_eq!(texts(g), vec!["e5xd6ep", "d4"]);
        // Not after a move, it is a move of its own (which the replay refuses).
        let g = &read("1. e4 {x} e.p. *").unwrap()[0];
        assert_eq!(texts(g), vec!["e4", "e.p."]);
    }

    #[test]
    fn several_games_and_none() {
        let games = read("[Round \"1\"] 1. e4 1-0\n\n[Round \"2\"]\n1. d4 d5 0-1\n\n").unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].value("Round"), Some("2"));
        assert_eq!(games[1].start, Pos { line: 3, column: 1 });
        assert_eq!(texts(&games[1]), vec!["d4", "d5"]);
        assert!(read("").unwrap().is_empty());
        assert!(
            read("% only an escape line\n ; and a comment {and another}")
                .unwrap()
                .is_empty()
        );
        // A game with no moves at all.
        let g = &read("[Event \"x\"] *").unwrap()[0];
        assert!(g.moves.is_empty());
    }

    #[test]
    fn errors_have_a_line_and_a_column() {
        let e = err("[Event \"x\"]\n1. e4 e5\n[Event \"y\"]\n1. d4 *");
        assert_eq!(e.pos, Pos { line: 3, column: 1 });
        assert!(e.message.starts_with("missing result"), "{e}");
        let e = err("[Event \"x\"]\n1. e4 e5\n");
        assert_eq!(e.pos, Pos { line: 3, column: 1 });
        assert!(e.message.contains("starts at line 1"), "{e}");
        let e = err("[Event \"x\"\n1. e4 *");
        assert_eq!(e.pos, Pos { line: 1, column: 1 });
        assert!(e.message.starts_with("unterminated tag"), "{e}");
        let e = err("\n  [Event]");
        assert_eq!(e.pos, Pos { line: 2, column: 3 });
        assert!(err("[1x \"a\"] *").message.contains("not a tag name"));
        assert!(err("[Event \"a\" \"b\"] *")
            .message
            .starts_with("unterminated tag"));
        let e = err("1. e4 (1. d4 e5 *");
        assert_eq!(e.pos, Pos { line: 1, column: 7 });
        assert!(e.message.starts_with("unterminated variation"), "{e}");
        assert!(err("1. e4 ) *").message.contains("without the `(`"));
        assert!(err("1. e4 ] *").message.contains("outside a tag"));
        assert!(err("1. e4 \"x\" *").message.contains("outside a tag"));
        assert!(err("1. + *").message.contains("unexpected character `+`"));
        assert!(err("1. e4 (e5\n[Event \"x\"] *) *")
            .message
            .contains("inside the variation"));
    }

    #[test]
    fn deep_variations_do_not_overflow() {
        let deep = format!("1. e4 {}{} *", "(".repeat(100_000), ")".repeat(100_000));
        assert_eq!(read(&deep).unwrap()[0].moves.len(), 1);
    }
}
