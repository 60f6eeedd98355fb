//! Between a PGN game and a saved game. Export ([`to_pgn`]) writes the seven-tag
//! roster, `Variant`, `SetUp`/`FEN` for another start, `Termination`, qchess's own facts
//! in tags other readers skip, the moves (ordinary ones in SAN, the others in Quantum
//! Chess notation) and `{blocked}` after each move whose measurement stopped it. Import
//! ([`from_pgn`]) replays the moves (SAN is resolved against the position, `ep` marks
//! are checked), so that the saved game holds the canonical moves with every outcome,
//! and refuses a file whose recorded outcomes, `{blocked}` comments or result do not
//! fit the replay.

use super::{dialect, GameResult, Move, PgnGame, Pos};
use crate::chess::fen::START_FEN;
use crate::chess::notation::{self, MoveText};
use crate::chess::Color;
use crate::chess::{GameOptions, MoveType, Status};
use crate::game::clock::{Ending, TimeControl, LEFT, ON_TIME};
use crate::game::Players;
use crate::game::{Playable, RuleSet, Setup};
use crate::quantum::BackendKind;
use crate::record::saved::{SavedClock, SavedGame, CLOCK_VERSION};
use crate::record::verdict::{verdicts, Mark};
use crate::variants::new_game;
use std::collections::BTreeMap;
use std::fmt;

/// Tag of the seed of the random outcomes (qchess's own).
pub const SEED_TAG: &str = "QchessSeed";
/// Tag of the simulator backend the game was played on (qchess's own).
pub const BACKEND_TAG: &str = "QchessBackend";
/// Tag of an analysis game in which any side may move, `"1"` (qchess's own).
pub const FREE_TURNS_TAG: &str = "QchessFreeTurns";
/// Tag of why a game ended outside its rules, "white resigned" (qchess's own).
pub const REASON_TAG: &str = "QchessReason";
/// PGN's tag of the time control, seconds and increment: `300+3`.
pub const TIME_CONTROL_TAG: &str = "TimeControl";
/// PGN's tag of how a game ended; qchess writes `time forfeit` for a fallen flag.
pub const TERMINATION_TAG: &str = "Termination";
/// The `Termination` of a game lost on time.
const TIME_FORFEIT: &str = "time forfeit";

/// PGN's `Termination` of a saved game: `unterminated` while it goes on, `time forfeit`
/// for a fallen flag, `abandoned` for a game won from a player who left, `normal` for
/// every other ending (by the rules, a resignation or an agreement, as lichess writes
/// them).
fn termination(saved: &SavedGame) -> &'static str {
    let reason = saved.reason.as_deref().unwrap_or_default();
    if saved.result == Status::Ongoing {
        "unterminated"
    } else if reason.ends_with(ON_TIME) {
        TIME_FORFEIT
    } else if reason.ends_with(LEFT) {
        "abandoned"
    } else {
        "normal"
    }
}

/// The moves as PGN writes them, each with whether its measurement stopped it: in a
/// Quantum Chess game, replayed, an ordinary move in SAN (`O-O`, `exd5`) and the others
/// in Quantum Chess notation with `.m0`/`.m1` only after a measurement that could have
/// gone either way (so that a file written when every capture carried `.m1` is
/// exported as today's); the saved texts in another rule system, or when the game does
/// not replay within the default size limits.
fn written_moves(saved: &SavedGame, rules: RuleSet) -> Vec<(String, bool)> {
    let as_saved = || {
        saved
            .moves
            .iter()
            .map(|m| (m.clone(), rules.simulated() && m.ends_with(".m0")))
            .collect()
    };
    if !rules.simulated() {
        return as_saved();
    }
    let replayed = saved.replay(std::path::Path::new(""), None, None);
    match replayed.as_ref().ok().and_then(|g| g.quantum()) {
        Some(q) => q
            .history()
            .iter()
            .map(|m| {
                let text = m.san.clone().unwrap_or_else(|| m.played.clone());
                (text, m.outcome == Some(false))
            })
            .collect(),
        None => as_saved(),
    }
}

/// The rule system a `Variant` tag names: none, `Quantum`, or a classical game's
/// (`Standard`, `From Position`) is Quantum Chess; qchess's own exports name theirs.
fn rules_of(variant: Option<&str>) -> Result<RuleSet, String> {
    let Some(v) = variant else {
        return Ok(RuleSet::Quantum);
    };
    match v.trim().to_ascii_lowercase().as_str() {
        "" | "quantum" | "quantum chess" | "standard" | "chess" | "from position" => {
            Ok(RuleSet::Quantum)
        }
        "qchess harmonics" | "harmonics" => Ok(RuleSet::Harmonics),
        "qchess haft" | "haft" => Ok(RuleSet::Haft),
        _ => Err(format!(
            "variant \"{v}\" cannot be played here: qchess opens Quantum Chess games \
             (Variant \"Quantum\"), classical games (no Variant, or \"Standard\") as the \
             start of one, and its own harmonics and haft exports"
        )),
    }
}

/// Whether `name` is one qchess gives its computer players ("qchess level 3",
/// "qchess greedy", "uqci: CMD"): such a side gets `WhiteType`/`BlackType "program"`.
fn computer_name(name: &str) -> bool {
    name.starts_with("qchess ") || name.starts_with("uqci: ")
}

/// A saved game's date (`YYYY-MM-DDTHH:MM:SSZ`) as PGN's `YYYY.MM.DD` and `HH:MM:SS`.
fn pgn_date(date: &str) -> Option<(String, String)> {
    let b = date.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|s| s.iter().all(u8::is_ascii_digit));
    let shape = b.len() == 20
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && b[10] == b'T'
        && digits(11..13)
        && b[13] == b':'
        && digits(14..16)
        && b[16] == b':'
        && digits(17..19)
        && b[19] == b'Z';
    shape.then(|| (date[..10].replace('-', "."), date[11..19].to_string()))
}

/// PGN's `UTCDate` and `UTCTime` as a saved game's date, when both are whole.
fn iso_date(day: &str, time: &str) -> Option<String> {
    let iso = format!("{}T{time}Z", day.replace('.', "-"));
    pgn_date(&iso).map(|_| iso)
}

/// PGN's date when nothing of it is known.
const UNKNOWN_DATE: &str = "????.??.??";

/// The tags `to_pgn` writes from a saved game's own fields; a kept tag of one of these
/// names is not written again.
const OWN: [&str; 14] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "Variant",
    "SetUp",
    "FEN",
    SEED_TAG,
    BACKEND_TAG,
    FREE_TURNS_TAG,
    REASON_TAG,
];

/// A saved game as a PGN game, ready for [`super::write`].
pub fn to_pgn(saved: &SavedGame) -> PgnGame {
    let rules = saved.variant.parse::<RuleSet>().unwrap_or_default();
    let kept = |name: &str| saved.tags.get(name).cloned();
    let date = pgn_date(&saved.date);
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut put = |name: &str, value: String| tags.push((name.to_string(), value));
    // A roster tag left out is written as unknown (`?`, `????.??.??`).
    for name in ["Event", "Site", "Round"] {
        if let Some(v) = kept(name) {
            put(name, v);
        }
    }
    if let Some(day) = date
        .as_ref()
        .map(|(d, _)| d.clone())
        .or_else(|| kept("Date"))
    {
        put("Date", day);
    }
    put("White", saved.players.white.clone());
    put("Black", saved.players.black.clone());
    put("Variant", rules.pgn_variant().into());
    if let Some(fen) = saved.start.as_deref().filter(|f| f.trim() != START_FEN) {
        put("SetUp", "1".into());
        put("FEN", fen.trim().into());
    }
    put(SEED_TAG, saved.seed.to_string());
    if let Some(b) = &saved.backend {
        put(BACKEND_TAG, b.clone());
    }
    if saved.free_turns {
        put(FREE_TURNS_TAG, "1".into());
    }
    let mut written: Vec<&str> = OWN.to_vec();
    if let Some(reason) = &saved.reason {
        put(REASON_TAG, reason.clone());
    }
    // A kept `Termination` (one qchess does not write, such as `abandoned`) is written
    // with the other tags.
    if !saved.tags.contains_key(TERMINATION_TAG) {
        put(TERMINATION_TAG, termination(saved).into());
    }
    // The clock's times are written with its control; a kept `TimeControl` qchess does
    // not play is written with the other tags.
    let mut clock = None;
    if let Some((c, tc)) = saved
        .clock
        .as_ref()
        .and_then(|c| Some((c, c.control.parse::<TimeControl>().ok()?)))
    {
        put(TIME_CONTROL_TAG, tc.pgn());
        written.push(TIME_CONTROL_TAG);
        clock = Some(c);
    }
    if let Some((day, time)) = &date {
        put("UTCDate", day.clone());
        put("UTCTime", time.clone());
        written.extend(["UTCDate", "UTCTime"]);
    }
    for (tag, name) in [
        ("WhiteType", &saved.players.white),
        ("BlackType", &saved.players.black),
    ] {
        if computer_name(name) && !saved.tags.contains_key(tag) {
            put(tag, "program".into());
        }
    }
    for (name, value) in &saved.tags {
        if !written.contains(&name.as_str()) {
            put(name, value.clone());
        }
    }
    let verdicts = saved
        .review
        .as_ref()
        .filter(|_| !saved.free_turns)
        .map(|r| verdicts(r, &movers(saved)))
        .unwrap_or_default();
    let moves = written_moves(saved, rules)
        .into_iter()
        .enumerate()
        .map(|(i, (text, blocked))| {
            let mut m = Move::new(text);
            if blocked {
                m.comments.push(super::BLOCKED.into());
            }
            if let Some(ms) = clock.and_then(|c| c.left.get(i)) {
                m.comments.push(clk_comment(*ms));
            }
            if let Some(v) = verdicts.get(i).and_then(Option::as_ref) {
                m.nags.extend(v.mark.map(Mark::nag));
                if v.marked() {
                    m.comments.push(v.words());
                }
            }
            m
        })
        .collect();
    let mut game = super::write::game(tags, moves, GameResult::of(saved.result));
    if let Some(r) = &saved.review {
        game.comments.push(format!("review by {}", r.by));
    }
    game
}

/// Who played each of a saved game's moves: the start's side to move, then in turn.
fn movers(saved: &SavedGame) -> Vec<(String, Color)> {
    let black_first = saved
        .start
        .as_deref()
        .and_then(|f| f.split_whitespace().nth(1))
        == Some("b");
    let mut side = if black_first {
        Color::Black
    } else {
        Color::White
    };
    saved
        .moves
        .iter()
        .map(|m| {
            let mover = side;
            side = side.opposite();
            (m.clone(), mover)
        })
        .collect()
}

/// `[%clk 0:04:59.873]`: the mover's time left after a move, as PGN readers (lichess,
/// chess.com) read it, the fraction of a second written when there is one.
fn clk_comment(ms: u64) -> String {
    let secs = ms / 1000;
    let mut out = format!(
        "[%clk {}:{:02}:{:02}",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    );
    if !ms.is_multiple_of(1000) {
        let fraction = format!("{:03}", ms % 1000);
        out += ".";
        out += fraction.trim_end_matches('0');
    }
    out.push(']');
    out
}

/// The time in a comment's `[%clk H:MM:SS]` (seconds may have a fraction), in
/// milliseconds.
fn clk_of(comment: &str) -> Option<u64> {
    let rest = &comment[comment.find("[%clk")? + "[%clk".len()..];
    let value = rest[..rest.find(']')?].trim();
    let mut parts = value.rsplitn(3, ':');
    let secs: f64 = parts.next()?.parse().ok()?;
    let mins: u64 = parts.next()?.parse().ok()?;
    let hours: u64 = parts.next().map_or(Some(0), |h| h.parse().ok())?;
    if !(0.0..60.0).contains(&secs) || mins >= 60 {
        return None;
    }
    let whole = hours.checked_mul(3600)?.checked_add(mins * 60)?;
    whole
        .checked_mul(1000)?
        .checked_add((secs * 1000.0).round() as u64)
}

/// Why a PGN game could not be imported: where, the ply when a move is at fault, and
/// why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    /// Where in the file.
    pub pos: Pos,
    /// The ply (from 1) and the move as written, when a move is at fault.
    pub ply: Option<(usize, String)>,
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: ", self.pos.line, self.pos.column)?;
        if let Some((ply, text)) = &self.ply {
            write!(f, "ply {ply} ({text}): ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for ImportError {}

fn at(pos: Pos, message: impl Into<String>) -> ImportError {
    ImportError {
        pos,
        ply: None,
        message: message.into(),
    }
}

/// A PGN game as a saved game: its moves replayed (on the sparse backend, with the
/// default size limits) into canonical notation with every outcome, its tags turned
/// into the saved game's fields, the tags qchess has no field for kept.
pub fn from_pgn(game: &PgnGame) -> Result<SavedGame, ImportError> {
    let tag_at = |name: &str| game.tag(name).map_or(game.start, |t| t.pos);
    let rules = rules_of(game.value("Variant")).map_err(|e| at(tag_at("Variant"), e))?;
    let start = game.value("FEN").map(|f| f.trim().to_string());
    if start.is_none() && game.value("SetUp") == Some("1") {
        return Err(at(
            tag_at("SetUp"),
            "SetUp \"1\" asks for a start position, and there is no FEN tag",
        ));
    }
    let seed = match game.value(SEED_TAG) {
        None => 0,
        Some(s) => s.trim().parse::<u64>().map_err(|_| {
            at(
                tag_at(SEED_TAG),
                format!("{SEED_TAG} \"{s}\" is not a whole number from 0"),
            )
        })?,
    };
    let backend = match game.value(BACKEND_TAG) {
        None => BackendKind::Sparse,
        Some(b) => b
            .parse::<BackendKind>()
            .map_err(|e| at(tag_at(BACKEND_TAG), format!("{BACKEND_TAG}: {e}")))?,
    };
    let free_turns = match game.value(FREE_TURNS_TAG).map(str::trim) {
        None | Some("0") => false,
        Some("1") => true,
        Some(v) => {
            return Err(at(
                tag_at(FREE_TURNS_TAG),
                format!("{FREE_TURNS_TAG} \"{v}\" is neither \"1\" nor \"0\""),
            ))
        }
    };
    let setup = Setup {
        rules,
        start: start.clone(),
        options: GameOptions {
            seed,
            free_turns,
            ..GameOptions::default()
        },
    };
    let mut played = new_game(&setup).map_err(|e| at(tag_at("FEN"), e.to_string()))?;
    for (i, m) in game.moves.iter().enumerate() {
        play(played.as_mut(), m).map_err(|message| ImportError {
            pos: m.pos,
            ply: Some((i + 1, m.text.clone())),
            message,
        })?;
    }
    let result = result(game, played.as_ref())?;
    let players = Players {
        white: game.value("White").unwrap_or("White").to_string(),
        black: game.value("Black").unwrap_or("Black").to_string(),
    };
    let date = match (game.value("UTCDate"), game.value("UTCTime")) {
        (Some(d), Some(t)) => iso_date(d, t),
        _ => None,
    };
    let mut saved = SavedGame::of(played.as_ref(), &players, date.as_deref().unwrap_or(""));
    saved.result = result;
    if rules.simulated() {
        saved.backend = Some(backend.name().into());
    }
    saved.reason = reason(game, result, played.as_ref());
    saved.clock = clock(game);
    saved.tags = kept_tags(game, &players, date.is_some());
    // A `Termination` the export writes again from the game is not kept.
    if saved
        .tags
        .get(TERMINATION_TAG)
        .is_some_and(|t| t.trim().eq_ignore_ascii_case(termination(&saved)))
    {
        saved.tags.remove(TERMINATION_TAG);
    }
    Ok(saved)
}

/// Why a game its moves did not end was decided: the `QchessReason` tag, else a
/// `Termination` of `time forfeit` (the loser named by the result).
fn reason(game: &PgnGame, result: Status, played: &dyn Playable) -> Option<String> {
    if result == Status::Ongoing || played.status() != Status::Ongoing {
        return None;
    }
    if let Some(r) = game.value(REASON_TAG) {
        return Some(r.trim().to_string()).filter(|r| !r.is_empty());
    }
    let loser = match result {
        Status::WhiteWins => Color::Black,
        Status::BlackWins => Color::White,
        _ => return None,
    };
    forfeit(game).then(|| Ending::on_time(loser).reason)
}

/// Whether the `Termination` tag says the game was lost on time.
fn forfeit(game: &PgnGame) -> bool {
    game.value(TERMINATION_TAG)
        .is_some_and(|t| t.trim().eq_ignore_ascii_case(TIME_FORFEIT))
}

/// The clocks of a game with a `TimeControl` qchess plays: the control, and the
/// mover's time left after each move from the `[%clk]` comments (up to the first
/// move without one).
fn clock(game: &PgnGame) -> Option<SavedClock> {
    let control = TimeControl::from_pgn(game.value(TIME_CONTROL_TAG)?)?;
    let left = game
        .moves
        .iter()
        .map_while(|m| m.comments.iter().find_map(|c| clk_of(c)))
        .collect();
    Some(SavedClock {
        version: CLOCK_VERSION,
        control: control.to_string(),
        left,
    })
}

/// The tags qchess has no field for, first of each name: those [`to_pgn`] writes again
/// from the saved game's fields, and roster tags that say "unknown", are left out.
fn kept_tags(game: &PgnGame, players: &Players, dated: bool) -> BTreeMap<String, String> {
    let mut kept = BTreeMap::new();
    for t in &game.tags {
        let derived = match t.name.as_str() {
            "White" | "Black" | "Result" | "Variant" | "SetUp" | "FEN" => true,
            SEED_TAG | BACKEND_TAG | FREE_TURNS_TAG => true,
            "UTCDate" | "UTCTime" => dated,
            REASON_TAG => true,
            // The first one is read (a later one of the name is dropped as for any tag).
            TIME_CONTROL_TAG => game
                .value(TIME_CONTROL_TAG)
                .and_then(TimeControl::from_pgn)
                .is_some(),
            // With a date from UTCDate and UTCTime, `Date` is written from it.
            "Date" => dated || t.value == UNKNOWN_DATE,
            // Unknown, as PGN writes it: written again so when there is nothing else.
            "Event" | "Site" | "Round" => t.value == "?",
            "WhiteType" => computer_name(&players.white) && t.value == "program",
            "BlackType" => computer_name(&players.black) && t.value == "program",
            _ => false,
        };
        if !derived {
            kept.entry(t.name.clone())
                .or_insert_with(|| t.value.clone());
        }
    }
    kept
}

/// Plays the move `m` as written, or why it cannot be played as written.
fn play(game: &mut dyn Playable, m: &Move) -> Result<(), String> {
    let blocked = m.blocked();
    let Some(q) = game.quantum() else {
        if blocked {
            return Err(format!(
                "{{blocked}} follows Quantum Chess moves, and this is a {} game",
                game.rules()
            ));
        }
        let text = match game.read_san(&m.text) {
            Some(read) => read?,
            None => m.text.clone(),
        };
        return game.play(&text).map(drop).map_err(|e| e.to_string());
    };
    let (written, ep) = dialect::strip_en_passant(&m.text);
    // The outcome apart, so that SAN (`exd5.m1`) reads as well as squares.
    let (body, outcome) = notation::split_outcome(&written);
    let body = &*dialect::long_algebraic(body);
    // Squares are played as written (a piece letter is checked), but for an en passant
    // capture, whose `x` the official app and long algebraic write and the rules infer;
    // SAN as the move it names in this position.
    let (mut input, text) = match notation::parse(body) {
        Ok(t) if ep || dialect::en_passant_with_x(q, &t) => {
            let t = MoveText { marker: None, ..t };
            (t.to_string(), t)
        }
        Ok(t) => (body.to_string(), t),
        Err(_) => {
            let t = q.read(body).map_err(|e| e.to_string())?;
            (t.to_string(), t)
        }
    };
    // `{blocked}` is outcome 0, written or not; on a move that measures nothing here
    // it is refused as such (an outcome the rules refuse themselves, with why).
    let forced = match (outcome, blocked) {
        (Some(true), true) => {
            return Err("marked {blocked}, but .m1 says the move went on".into());
        }
        (None, true) => {
            if let Ok((_, None)) = q.after(&text) {
                return Err("marked {blocked}, but the move measures nothing here".into());
            }
            Some(false)
        }
        (o, _) => o,
    };
    if let Some(o) = forced {
        input.push_str(if o { ".m1" } else { ".m0" });
    }
    game.play(&input).map_err(|e| e.to_string())?;
    let kind = game
        .quantum()
        .and_then(|q| q.history().last())
        .map(|p| p.class.kind);
    if ep && kind != Some(MoveType::EnPassant) {
        return Err("written as en passant (ep), but it is not an en passant capture here".into());
    }
    Ok(())
}

/// The saved game's result: the replay's when it ended the game, else the file's. The
/// `Result` tag and the termination marker must agree, and a finished replay must agree
/// with a result that is not `*`.
fn result(game: &PgnGame, played: &dyn Playable) -> Result<Status, ImportError> {
    if let Some(t) = game.tag("Result") {
        if let Some(r) = GameResult::parse(t.value.trim()).filter(|r| *r != game.result) {
            return Err(at(
                t.pos,
                format!(
                    "the Result tag says {}, and the moves end with {}",
                    r.token(),
                    game.result.token()
                ),
            ));
        }
    }
    let status = played.status();
    if status == Status::Ongoing {
        return Ok(game.result.status());
    }
    if game.result != GameResult::Unknown && game.result.status() != status {
        let why = played
            .end_reason()
            .map_or(String::new(), |r| format!(": {r}"));
        return Err(at(
            game.result_pos,
            format!(
                "the game ends with {}, but after its last move {}{why}",
                game.result.token(),
                status.describe()
            ),
        ));
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_both_ways() {
        assert_eq!(
            pgn_date("2026-11-21T06:49:09Z"),
            Some(("2026.11.21".into(), "06:49:09".into()))
        );
        for bad in [
            "",
            "d",
            "2026-11-21",
            "2026-11-21T06:49:09",
            "2026-1x-21T06:49:09Z",
            "2026-11-21T06:49:09Zé",
        ] {
            assert_eq!(pgn_date(bad), None, "{bad}");
        }
        assert_eq!(
            iso_date("2026.11.21", "06:49:09").as_deref(),
            Some("2026-11-21T06:49:09Z")
        );
        assert_eq!(iso_date("2026.??.??", "06:49:09"), None);
    }

    #[test]
    fn variant_names() {
        for r in RuleSet::ALL {
            assert_eq!(rules_of(Some(r.pgn_variant())), Ok(r));
        }
        assert_eq!(rules_of(None), Ok(RuleSet::Quantum));
        assert_eq!(rules_of(Some("Standard")), Ok(RuleSet::Quantum));
        let e = rules_of(Some("Crazyhouse")).unwrap_err();
        assert!(
            e.starts_with("variant \"Crazyhouse\" cannot be played here"),
            "{e}"
        );
    }

    #[test]
    fn clock_comments_both_ways() {
        for (ms, text) in [
            (299_800, "[%clk 0:04:59.8]"),
            (302_000, "[%clk 0:05:02]"),
            (3_723_045, "[%clk 1:02:03.045]"),
            (59, "[%clk 0:00:00.059]"),
        ] {
            assert_eq!(clk_comment(ms), text);
            assert_eq!(clk_of(text), Some(ms), "{text}");
        }
        assert_eq!(clk_of(" [%eval 0.3] [%clk 0:02:59.5] "), Some(179_500));
        assert_eq!(clk_of("[%clk 2:59]"), Some(179_000));
        for bad in [
            "no clock",
            "[%clk 0:00:60]",
            "[%clk 0:61:00]",
            "[%clk 0:-1:00]",
            "[%clk 0:01:0x]",
            "[%clk 0:00:01",
            "[%clk 99999999999999999:00:00]",
        ] {
            assert_eq!(clk_of(bad), None, "{bad}");
        }
    }
}
