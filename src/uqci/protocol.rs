//! The UQCI protocol's text: commands a front end sends ([`Command`]) and lines an
//! engine answers ([`Output`]), each parsed from a line and printed back as one. The
//! engine side parses commands and prints outputs; a front end does the reverse.
//!
//! Parsing follows the protocol's tolerance: unknown words before a command are skipped
//! (`joho debug on` is `debug on`), unknown tokens inside one are ignored, and a line with
//! no command yields nothing. A command that is recognised but cannot be honoured (a
//! `position` with neither `startpos` nor `fen`, a `calcbell` without two squares) is a
//! [`Command::Invalid`] whose message the engine reports as `info string error: …`.

pub use crate::engine::budget::Go;
use std::fmt;

/// A command from the front end to the engine.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `uci`: identify yourself and list the options.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`: answer `readyok`.
    IsReady,
    /// `setoption name NAME [value VALUE]` (names compared case-insensitively).
    SetOption {
        /// The option's name, its words joined by single spaces.
        name: String,
        /// The value, if one was given.
        value: Option<String>,
    },
    /// `ucinewgame`.
    UciNewGame,
    /// `position startpos|fen FEN [moves M1 M2 …]`.
    Position {
        /// The start position.
        start: Start,
        /// The moves played from it, as written.
        moves: Vec<String>,
    },
    /// `go …`.
    Go(Go),
    /// `stop`.
    Stop,
    /// `calcbell X Y`: the Bell values of two squares, as written.
    CalcBell(String, String),
    /// `quit`.
    Quit,
    /// A known command that cannot be honoured: why, for the front end.
    Invalid(String),
}

/// Where a `position` starts.
#[derive(Clone, Debug, PartialEq)]
pub enum Start {
    /// `startpos`: the standard start.
    StartPos,
    /// `fen …`: the FEN's fields joined by single spaces.
    Fen(String),
}

/// Every keyword a `go` command knows (ends a `searchmoves` list).
const GO_KEYWORDS: [&str; 12] = [
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "infinite",
    "searchmoves",
    "ponder",
    "mate",
];

/// A number of milliseconds; a negative one (some front ends send a clock that ran
/// over) reads as 0.
fn millis(t: &str) -> Option<u64> {
    t.parse::<u64>()
        .ok()
        .or_else(|| t.parse::<i64>().ok().map(|n| n.max(0) as u64))
}

impl Go {
    fn parse(tokens: &[&str]) -> Go {
        let mut go = Go::default();
        let mut i = 0;
        while i < tokens.len() {
            let key = tokens[i];
            let arg = tokens.get(i + 1).copied().unwrap_or("");
            // A keyword whose number is missing or unreadable is ignored (its next
            // token is read as a keyword again).
            let took = match key {
                "depth" => arg.parse().ok().map(|n| go.depth = Some(n)),
                "nodes" => arg.parse().ok().map(|n| go.nodes = Some(n)),
                "movetime" => millis(arg).map(|n| go.movetime = Some(n)),
                "wtime" => millis(arg).map(|n| go.wtime = Some(n)),
                "btime" => millis(arg).map(|n| go.btime = Some(n)),
                "winc" => millis(arg).map(|n| go.winc = Some(n)),
                "binc" => millis(arg).map(|n| go.binc = Some(n)),
                "movestogo" => arg.parse().ok().map(|n| go.movestogo = Some(n)),
                "infinite" => {
                    go.infinite = true;
                    None
                }
                "searchmoves" => {
                    let moves: Vec<String> = tokens[i + 1..]
                        .iter()
                        .take_while(|t| !GO_KEYWORDS.contains(t))
                        .map(|t| t.to_string())
                        .collect();
                    i += moves.len();
                    go.searchmoves.extend(moves);
                    None
                }
                _ => None,
            };
            i += if took.is_some() { 2 } else { 1 };
        }
        go
    }
}

impl fmt::Display for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "go")?;
        let numbers = [
            ("depth", self.depth.map(u64::from)),
            ("nodes", self.nodes),
            ("movetime", self.movetime),
            ("wtime", self.wtime),
            ("btime", self.btime),
            ("winc", self.winc),
            ("binc", self.binc),
            ("movestogo", self.movestogo.map(u64::from)),
        ];
        for (key, n) in numbers {
            if let Some(n) = n {
                write!(f, " {key} {n}")?;
            }
        }
        if self.infinite {
            write!(f, " infinite")?;
        }
        if !self.searchmoves.is_empty() {
            write!(f, " searchmoves {}", self.searchmoves.join(" "))?;
        }
        Ok(())
    }
}

impl Command {
    /// The command on `line`, if there is one (see the module's notes on tolerance).
    pub fn parse(line: &str) -> Option<Command> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let at = tokens.iter().position(|t| Command::is_keyword(t))?;
        let (word, rest) = (tokens[at], &tokens[at + 1..]);
        Some(match word {
            "uci" => Command::Uci,
            "isready" => Command::IsReady,
            "ucinewgame" => Command::UciNewGame,
            "stop" => Command::Stop,
            "quit" => Command::Quit,
            "debug" => match rest.first() {
                Some(&"on") => Command::Debug(true),
                Some(&"off") => Command::Debug(false),
                _ => return None,
            },
            "setoption" => Command::parse_setoption(rest),
            "position" => Command::parse_position(rest),
            "go" => Command::Go(Go::parse(rest)),
            "calcbell" => match rest {
                [x, y, ..] => Command::CalcBell(x.to_string(), y.to_string()),
                _ => Command::Invalid("calcbell needs two squares, e.g. calcbell b1 c3".into()),
            },
            _ => return None,
        })
    }

    fn is_keyword(t: &str) -> bool {
        [
            "uci",
            "debug",
            "isready",
            "setoption",
            "ucinewgame",
            "position",
            "go",
            "stop",
            "calcbell",
            "quit",
        ]
        .contains(&t)
    }

    fn parse_setoption(rest: &[&str]) -> Command {
        let Some(n) = rest.iter().position(|t| *t == "name") else {
            return Command::Invalid("setoption needs a name: setoption name X value Y".into());
        };
        let after = &rest[n + 1..];
        let v = after.iter().position(|t| *t == "value");
        let name = after[..v.unwrap_or(after.len())].join(" ");
        if name.is_empty() {
            return Command::Invalid("setoption needs a name: setoption name X value Y".into());
        }
        let value = v.map(|v| after[v + 1..].join(" "));
        Command::SetOption { name, value }
    }

    fn parse_position(rest: &[&str]) -> Command {
        let m = rest
            .iter()
            .position(|t| *t == "moves")
            .unwrap_or(rest.len());
        let moves = rest[(m + 1).min(rest.len())..]
            .iter()
            .map(|t| t.to_string())
            .collect();
        let head = &rest[..m];
        let start = if let Some(f) = head.iter().position(|t| *t == "fen") {
            let fen = head[f + 1..].join(" ");
            if fen.is_empty() {
                return Command::Invalid("position fen needs a FEN".into());
            }
            Start::Fen(fen)
        } else if head.contains(&"startpos") {
            Start::StartPos
        } else {
            return Command::Invalid(
                "position needs startpos or fen FEN, e.g. position startpos moves e2e4".into(),
            );
        };
        Command::Position { start, moves }
    }
}

impl fmt::Display for Command {
    /// The command as one line (an [`Command::Invalid`] prints its message as a comment
    /// the engine ignores).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Uci => write!(f, "uci"),
            Command::Debug(on) => write!(f, "debug {}", if *on { "on" } else { "off" }),
            Command::IsReady => write!(f, "isready"),
            Command::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value {
                    Some(v) => write!(f, " value {v}"),
                    None => Ok(()),
                }
            }
            Command::UciNewGame => write!(f, "ucinewgame"),
            Command::Position { start, moves } => {
                match start {
                    Start::StartPos => write!(f, "position startpos")?,
                    Start::Fen(fen) => write!(f, "position fen {fen}")?,
                }
                if !moves.is_empty() {
                    write!(f, " moves {}", moves.join(" "))?;
                }
                Ok(())
            }
            Command::Go(go) => write!(f, "{go}"),
            Command::Stop => write!(f, "stop"),
            Command::CalcBell(x, y) => write!(f, "calcbell {x} {y}"),
            Command::Quit => write!(f, "quit"),
            Command::Invalid(why) => write!(f, "# {why}"),
        }
    }
}

/// A score in an `info` line, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// `cp N`: centipawns.
    Cp(i64),
    /// `mate N`: a king captured with certainty in N moves (negative: the side to move
    /// loses its king).
    Mate(i64),
}

/// The fields of a search `info` line; absent ones are not printed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchInfo {
    /// Depth in plies.
    pub depth: Option<u32>,
    /// Which of the best lines this is, from 1 (`multipv N`, when several are asked for).
    pub multipv: Option<u32>,
    /// Score for the side to move.
    pub score: Option<Score>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Milliseconds searched.
    pub time: Option<u64>,
    /// The best line.
    pub pv: Vec<String>,
}

/// The type of an option in an `option` line.
#[derive(Clone, Debug, PartialEq)]
pub enum OptionKind {
    /// `type check default true|false`.
    Check(bool),
    /// `type spin default D min A max B`.
    Spin {
        /// Default.
        default: i64,
        /// Smallest.
        min: i64,
        /// Largest.
        max: i64,
    },
    /// `type combo default D var V1 var V2 …`.
    Combo {
        /// Default.
        default: String,
        /// The choices.
        vars: Vec<String>,
    },
}

/// An `option name … type …` line.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionSpec {
    /// The option's name.
    pub name: String,
    /// Its type and default.
    pub kind: OptionKind,
}

/// A line from the engine to the front end.
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    /// `id name …`.
    IdName(String),
    /// `id author …`.
    IdAuthor(String),
    /// `option name …`.
    Option(OptionSpec),
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `bestmove M`; `None` is the null move `0000` (no legal move).
    BestMove(Option<String>),
    /// `info depth … score … nodes … nps … time … pv …`.
    Info(SearchInfo),
    /// `info string …`: the rest of the line.
    InfoString(String),
}

/// The null move.
pub const NULL_MOVE: &str = "0000";

impl fmt::Display for Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Output::IdName(n) => write!(f, "id name {n}"),
            Output::IdAuthor(a) => write!(f, "id author {a}"),
            Output::Option(o) => {
                write!(f, "option name {} type ", o.name)?;
                match &o.kind {
                    OptionKind::Check(d) => write!(f, "check default {d}"),
                    OptionKind::Spin { default, min, max } => {
                        write!(f, "spin default {default} min {min} max {max}")
                    }
                    OptionKind::Combo { default, vars } => {
                        write!(f, "combo default {default}")?;
                        vars.iter().try_for_each(|v| write!(f, " var {v}"))
                    }
                }
            }
            Output::UciOk => write!(f, "uciok"),
            Output::ReadyOk => write!(f, "readyok"),
            Output::BestMove(m) => write!(f, "bestmove {}", m.as_deref().unwrap_or(NULL_MOVE)),
            Output::Info(i) => {
                write!(f, "info")?;
                if let Some(d) = i.depth {
                    write!(f, " depth {d}")?;
                }
                if let Some(n) = i.multipv {
                    write!(f, " multipv {n}")?;
                }
                match i.score {
                    Some(Score::Cp(n)) => write!(f, " score cp {n}")?,
                    Some(Score::Mate(n)) => write!(f, " score mate {n}")?,
                    None => {}
                }
                let numbers = [("nodes", i.nodes), ("nps", i.nps), ("time", i.time)];
                for (key, n) in numbers {
                    if let Some(n) = n {
                        write!(f, " {key} {n}")?;
                    }
                }
                if !i.pv.is_empty() {
                    write!(f, " pv {}", i.pv.join(" "))?;
                }
                Ok(())
            }
            Output::InfoString(s) => write!(f, "info string {s}"),
        }
    }
}

impl Output {
    /// The engine's line, if it is one of the lines above (a front end ignores others).
    pub fn parse(line: &str) -> Option<Output> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let rest_of = |n: usize| tokens.get(n..).map(|t| t.join(" ")).unwrap_or_default();
        match tokens.as_slice() {
            ["id", "name", ..] => Some(Output::IdName(rest_of(2))),
            ["id", "author", ..] => Some(Output::IdAuthor(rest_of(2))),
            ["uciok", ..] => Some(Output::UciOk),
            ["readyok", ..] => Some(Output::ReadyOk),
            ["bestmove", m, ..] => Some(Output::BestMove(
                (*m != NULL_MOVE && *m != "(none)").then(|| m.to_string()),
            )),
            ["info", "string", ..] => {
                // The text after `info string `, as it was (inner spaces kept).
                let at = line.find("string").map_or(line.len(), |i| i + 6);
                Some(Output::InfoString(line[at..].trim().to_string()))
            }
            ["info", rest @ ..] => Some(Output::Info(parse_info(rest))),
            ["option", rest @ ..] => parse_option(rest).map(Output::Option),
            _ => None,
        }
    }
}

fn parse_info(tokens: &[&str]) -> SearchInfo {
    let mut i = SearchInfo::default();
    let mut k = 0;
    while k < tokens.len() {
        let arg = tokens.get(k + 1).copied().unwrap_or("");
        let took = match tokens[k] {
            "depth" => arg.parse().ok().map(|n| i.depth = Some(n)).map(|_| 2),
            "multipv" => arg.parse().ok().map(|n| i.multipv = Some(n)).map(|_| 2),
            "nodes" => arg.parse().ok().map(|n| i.nodes = Some(n)).map(|_| 2),
            "nps" => arg.parse().ok().map(|n| i.nps = Some(n)).map(|_| 2),
            "time" => arg.parse().ok().map(|n| i.time = Some(n)).map(|_| 2),
            "score" => {
                let n = tokens.get(k + 2).and_then(|n| n.parse().ok());
                match (arg, n) {
                    ("cp", Some(n)) => Some(Score::Cp(n)),
                    ("mate", Some(n)) => Some(Score::Mate(n)),
                    _ => None,
                }
                .map(|s| i.score = Some(s))
                .map(|_| 3)
            }
            "pv" => {
                i.pv = tokens[k + 1..].iter().map(|t| t.to_string()).collect();
                Some(tokens.len())
            }
            _ => None,
        };
        k += took.unwrap_or(1);
    }
    i
}

fn parse_option(tokens: &[&str]) -> Option<OptionSpec> {
    let n = tokens.iter().position(|t| *t == "name")?;
    let t = tokens
        .iter()
        .position(|t| *t == "type")
        .filter(|&t| t > n)?;
    let name = tokens[n + 1..t].join(" ");
    let after = &tokens[t + 1..];
    // The fields after the type, each a keyword and its word (the last one counts;
    // every `var` adds a choice).
    let (mut default, mut min, mut max, mut vars) = (None, None, None, Vec::new());
    let mut i = 1;
    while i < after.len() {
        let word = after.get(i + 1).copied();
        match (after[i], word) {
            ("default", Some(w)) => default = Some(w),
            ("min", Some(w)) => min = Some(w),
            ("max", Some(w)) => max = Some(w),
            ("var", Some(w)) => vars.push(w.to_string()),
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    let kind = match *after.first()? {
        "check" => OptionKind::Check(default? == "true"),
        "spin" => OptionKind::Spin {
            default: default?.parse().ok()?,
            min: min?.parse().ok()?,
            max: max?.parse().ok()?,
        },
        "combo" => OptionKind::Combo {
            default: default?.to_string(),
            vars,
        },
        _ => return None,
    };
    Some(OptionSpec { name, kind })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Color;
    use crate::engine::budget::{limits, think_time, MIN_MS};
    use crate::engine::level;
    use std::time::Duration;

    fn cmd(line: &str) -> Command {
        Command::parse(line).unwrap_or_else(|| panic!("no command in {line:?}"))
    }

    #[test]
    fn simple_commands() {
        assert_eq!(cmd("uci"), Command::Uci);
        assert_eq!(cmd("isready"), Command::IsReady);
        assert_eq!(cmd("ucinewgame"), Command::UciNewGame);
        assert_eq!(cmd("stop"), Command::Stop);
        assert_eq!(cmd("quit"), Command::Quit);
        assert_eq!(cmd("debug on"), Command::Debug(true));
        assert_eq!(cmd("debug off"), Command::Debug(false));
        assert_eq!(Command::parse("debug"), None);
        assert_eq!(
            cmd("calcbell b1 c3"),
            Command::CalcBell("b1".into(), "c3".into())
        );
        assert!(matches!(cmd("calcbell b1"), Command::Invalid(_)));
    }

    #[test]
    fn unknown_words_and_blank_lines_are_skipped() {
        assert_eq!(Command::parse(""), None);
        assert_eq!(Command::parse("   \t "), None);
        assert_eq!(Command::parse("hello world"), None);
        assert_eq!(cmd("joho debug on"), Command::Debug(true));
        assert_eq!(cmd("  isready  extra "), Command::IsReady);
        assert_eq!(cmd("isready\r"), Command::IsReady);
    }

    #[test]
    fn setoption_names_and_values_keep_their_words() {
        assert_eq!(
            cmd("setoption name Level value 4"),
            Command::SetOption {
                name: "Level".into(),
                value: Some("4".into())
            }
        );
        assert_eq!(
            cmd("setoption   name  Clear  Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert!(matches!(cmd("setoption value 3"), Command::Invalid(_)));
        assert!(matches!(cmd("setoption name value 3"), Command::Invalid(_)));
    }

    #[test]
    fn positions() {
        assert_eq!(
            cmd("position startpos"),
            Command::Position {
                start: Start::StartPos,
                moves: vec![]
            }
        );
        assert_eq!(
            cmd("position startpos moves e2e4 b8^a6c6 e4e5.m1"),
            Command::Position {
                start: Start::StartPos,
                moves: vec!["e2e4".into(), "b8^a6c6".into(), "e4e5.m1".into()]
            }
        );
        assert_eq!(
            cmd("position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves e1e2"),
            Command::Position {
                start: Start::Fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1".into()),
                moves: vec!["e1e2".into()]
            }
        );
        assert!(matches!(cmd("position"), Command::Invalid(_)));
        assert!(matches!(cmd("position moves e2e4"), Command::Invalid(_)));
        assert!(matches!(
            cmd("position fen moves e2e4"),
            Command::Invalid(_)
        ));
    }

    #[test]
    fn go_reads_every_limit_and_skips_what_it_does_not_know() {
        let go = match cmd("go wtime 60000 btime -20 winc 1000 binc 1000 movestogo 20 depth 4 nodes 900 movetime 500 ponder foo infinite searchmoves e2e4 b1^a3c3 depth 5") {
            Command::Go(go) => go,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            go,
            Go {
                depth: Some(5),
                nodes: Some(900),
                movetime: Some(500),
                wtime: Some(60000),
                btime: Some(0),
                winc: Some(1000),
                binc: Some(1000),
                movestogo: Some(20),
                infinite: true,
                searchmoves: vec!["e2e4".into(), "b1^a3c3".into()],
            }
        );
        assert_eq!(
            cmd("go depth x infinite"),
            Command::Go(Go {
                infinite: true,
                ..Go::default()
            })
        );
        assert_eq!(cmd("go"), Command::Go(Go::default()));
    }

    #[test]
    fn commands_print_as_they_parse() {
        for line in [
            "uci",
            "debug on",
            "debug off",
            "isready",
            "setoption name forcemeasure value true",
            "setoption name Clear Hash",
            "ucinewgame",
            "position startpos",
            "position startpos moves e2e4 e7e5",
            "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves e1e2",
            "go",
            "go depth 3 nodes 100 movetime 5 wtime 1 btime 2 winc 3 binc 4 movestogo 5 infinite searchmoves e2e4 d2d4",
            "stop",
            "calcbell b1 c3",
            "quit",
        ] {
            assert_eq!(cmd(line).to_string(), line);
        }
    }

    #[test]
    fn outputs_print_and_parse_back() {
        let outputs = [
            Output::IdName("qchess 0.1.0".into()),
            Output::IdAuthor("the qchess authors".into()),
            Output::Option(OptionSpec {
                name: "forceturn".into(),
                kind: OptionKind::Check(false),
            }),
            Output::Option(OptionSpec {
                name: "Level".into(),
                kind: OptionKind::Spin {
                    default: 3,
                    min: 1,
                    max: 5,
                },
            }),
            Output::Option(OptionSpec {
                name: "Backend".into(),
                kind: OptionKind::Combo {
                    default: "sparse".into(),
                    vars: vec!["sparse".into(), "dense".into()],
                },
            }),
            Output::UciOk,
            Output::ReadyOk,
            Output::BestMove(Some("b1^a3c3".into())),
            Output::BestMove(None),
            Output::Info(SearchInfo {
                depth: Some(2),
                multipv: None,
                score: Some(Score::Cp(-35)),
                nodes: Some(1234),
                nps: Some(56000),
                time: Some(22),
                pv: vec!["e2e4".into(), "d7d5".into(), "e4xd5.m1".into()],
            }),
            Output::Info(SearchInfo {
                depth: Some(3),
                score: Some(Score::Mate(-2)),
                ..SearchInfo::default()
            }),
            Output::Info(SearchInfo {
                depth: Some(10),
                multipv: Some(3),
                score: Some(Score::Cp(12)),
                pv: vec!["g1f3".into()],
                ..SearchInfo::default()
            }),
            Output::InfoString("calcbell b1 c3 0 0.5".into()),
        ];
        for o in outputs {
            assert_eq!(Output::parse(&o.to_string()), Some(o.clone()), "{o}");
        }
        assert_eq!(
            Output::Info(SearchInfo {
                depth: Some(2),
                multipv: None,
                score: Some(Score::Cp(17)),
                nodes: Some(50),
                nps: Some(1000),
                time: Some(50),
                pv: vec!["e2e4".into()],
            })
            .to_string(),
            "info depth 2 score cp 17 nodes 50 nps 1000 time 50 pv e2e4"
        );
        assert_eq!(Output::BestMove(None).to_string(), "bestmove 0000");
        assert_eq!(
            Output::parse("bestmove (none)"),
            Some(Output::BestMove(None))
        );
        assert_eq!(Output::parse("copyprotection ok"), None);
    }

    // What the engine makes of a `go` line: its time on a clock and its limits.
    fn go(line: &str) -> Go {
        match cmd(line) {
            Command::Go(g) => g,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn clock_time_is_shared_over_the_moves_left() {
        let ms = |line: &str, side| think_time(&go(line), side).map(|d| d.as_millis() as u64);
        assert_eq!(ms("go movetime 700 wtime 1", Color::White), Some(700));
        assert_eq!(ms("go wtime 60000 btime 30000", Color::White), Some(2000));
        assert_eq!(ms("go wtime 60000 btime 30000", Color::Black), Some(1000));
        assert_eq!(
            ms("go wtime 60000 winc 1000 movestogo 10", Color::White),
            Some(6750)
        );
        // The last move before the control: the clock less the margin.
        assert_eq!(ms("go btime 1000 movestogo 1", Color::Black), Some(950));
        // An increment larger than the clock never overdraws it.
        assert_eq!(ms("go wtime 400 winc 5000", Color::White), Some(350));
        assert_eq!(ms("go wtime 0", Color::White), Some(MIN_MS));
        assert_eq!(ms("go btime 5000", Color::White), None);
        assert_eq!(ms("go depth 3", Color::White), None);
    }

    #[test]
    fn limits_follow_the_command_then_the_level() {
        let deepest = crate::engine::search::MAX_PLY as u32 / 2;
        let l = limits(&go("go"), Color::White, 2, 7);
        assert_eq!(l, level::limits(2, 7));
        let l = limits(&go("go depth 4"), Color::White, 2, 7);
        assert_eq!(
            (l.depth, l.nodes, l.work, l.movetime),
            (4, None, None, None)
        );
        let l = limits(&go("go nodes 500"), Color::White, 2, 7);
        assert_eq!(
            (l.depth, l.nodes, l.work, l.movetime),
            (deepest, Some(500), None, None)
        );
        let l = limits(&go("go depth 0"), Color::White, 2, 7);
        assert_eq!(l.depth, 1);
        let l = limits(&go("go infinite depth 3 movetime 10"), Color::White, 2, 7);
        assert_eq!(
            (l.depth, l.nodes, l.work, l.movetime),
            (deepest, None, None, None)
        );
        let l = limits(&go("go btime 3000"), Color::Black, 2, 7);
        assert_eq!(l.movetime, Some(Duration::from_millis(100)));
    }
}
