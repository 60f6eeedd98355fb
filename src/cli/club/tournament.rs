//! `qchess club tournament`: the operator makes, lists, shows and cancels the club's
//! tournaments (docs/club.md, "Tournaments"); the server runs them.

use super::{lines, named_width, pad};
use crate::cli::{Done, Failure, Outcome};
use crate::club::tournament::record::{Length, NewTournament, State, Tournament};
use crate::club::tournament::standings::{standings, Standing};
use crate::club::tournament::{Kind, Pairing, WIN};
use crate::club::{ClubStore, MemberId};
use crate::game::clock::TimeControl;
use crate::server::lobby::ask::when;
use clap::Subcommand;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::Duration;

/// The longest tournament name, in characters.
const NAME_LIMIT: usize = 40;

/// What `qchess club tournament` does.
#[derive(Subcommand, Debug, Clone)]
pub enum TournamentCommand {
    /// Make a tournament, scheduled: players join it before it starts (and, in an
    /// arena, while it runs; in a Swiss, until round 2).
    Create {
        /// Its name, unique in the club whatever the case (quote it when it has spaces).
        name: String,
        /// arena: paired again at once after each game for a fixed time; swiss: a
        /// fixed number of rounds.
        #[arg(long, value_name = "arena|swiss", value_parser = kind_flag())]
        kind: Kind,
        /// Its games' clock, MIN+INC (minutes, and seconds added per move).
        #[arg(long, value_name = "MIN+INC", value_parser = parse_control)]
        clock: TimeControl,
        /// A Swiss's rounds.
        #[arg(long, value_name = "N", conflicts_with = "minutes",
              value_parser = clap::value_parser!(u32).range(1..=30))]
        rounds: Option<u32>,
        /// An arena's length in minutes.
        #[arg(long, value_name = "MINUTES", conflicts_with = "rounds",
              value_parser = clap::value_parser!(u32).range(5..=1440))]
        minutes: Option<u32>,
        /// When it starts: now, +DURATION (such as +30m or +1h30m), or a UTC time
        /// YYYY-MM-DD HH:MM.
        #[arg(long, value_name = "TIME", default_value = "+1h")]
        starts: String,
    },
    /// List the tournaments, soonest start first.
    List,
    /// A tournament's players and standings, and its pairings round by round.
    Show {
        /// The tournament's name, whatever the case.
        name: String,
    },
    /// Call a tournament off (its games played stay in the archive).
    Cancel {
        /// The tournament's name, whatever the case.
        name: String,
    },
}

/// Runs `qchess club tournament`.
pub fn run(store: &mut dyn ClubStore, command: TournamentCommand, json: bool) -> Outcome {
    match command {
        TournamentCommand::Create {
            name,
            kind,
            clock,
            rounds,
            minutes,
            starts,
        } => {
            let now = crate::record::now_secs() as i64;
            let new = NewTournament {
                name: checked_name(&name)?,
                kind,
                control: clock,
                length: length(kind, rounds, minutes)?,
                starts: start_time(&starts, now).map_err(Failure::new)?,
                creator: None,
            };
            let made = store.create_tournament(&new).map_err(Failure::new)?;
            Ok(Done::Print(if json {
                lines(tournament_json(&made, 0))
            } else {
                format!(
                    "{} made: {}; players join with ssh -t HOST tournament \"{}\"\n",
                    made.made.name,
                    summary(&made),
                    made.made.name
                )
            }))
        }
        TournamentCommand::List => {
            let all = store.tournaments().map_err(Failure::new)?;
            let counts = all
                .iter()
                .map(|t| Ok(store.entries(t.id)?.len()))
                .collect::<Result<Vec<usize>, crate::club::ClubError>>()
                .map_err(Failure::new)?;
            Ok(Done::Print(if json {
                lines(Value::Array(
                    all.iter()
                        .zip(&counts)
                        .map(|(t, n)| tournament_json(t, *n))
                        .collect(),
                ))
            } else if all.is_empty() {
                "no tournaments (qchess club tournament create makes one)\n".into()
            } else {
                let width = named_width(all.iter().map(|t| t.made.name.as_str()), 4);
                all.iter()
                    .zip(&counts)
                    .map(|(t, n)| {
                        format!(
                            "{}  {}; {n} players\n",
                            pad(&t.made.name, width),
                            summary(t)
                        )
                    })
                    .collect()
            }))
        }
        TournamentCommand::Show { name } => show(store, &name, json),
        TournamentCommand::Cancel { name } => {
            let t = found(store, &name)?;
            if !t.state.open() {
                return Err(Failure::new(format!(
                    "{} is {} already: only a scheduled or running tournament is called off",
                    t.made.name, t.state
                )));
            }
            store
                .set_tournament_state(t.id, State::Cancelled)
                .map_err(Failure::new)?;
            Ok(Done::Print(if json {
                lines(json!({ "cancelled": t.made.name }))
            } else {
                format!("{} is called off\n", t.made.name)
            }))
        }
    }
}

/// `--kind`, offering arena and swiss.
fn kind_flag() -> crate::cli::Offered<Kind> {
    crate::cli::Offered::new(parse_kind, &[Kind::Arena.name(), Kind::Swiss.name()])
}

/// `--kind`: arena or swiss.
fn parse_kind(s: &str) -> Result<Kind, String> {
    s.parse()
        .map_err(|e: crate::club::tournament::BadKind| e.to_string())
}

/// `--clock`: a tournament's games always have a clock.
fn parse_control(s: &str) -> Result<TimeControl, String> {
    s.parse()
        .map_err(|e: crate::game::clock::BadTimeControl| e.to_string())
}

/// A tournament's name as given, trimmed, when it is one.
fn checked_name(name: &str) -> Result<String, Failure> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > NAME_LIMIT || name.chars().any(char::is_control) {
        return Err(Failure::new(format!(
            "\"{name}\" is not a tournament name: 1 to {NAME_LIMIT} characters, no control characters"
        )));
    }
    Ok(name.to_string())
}

/// The length asked for: rounds for a Swiss, minutes for an arena.
fn length(kind: Kind, rounds: Option<u32>, minutes: Option<u32>) -> Result<Length, Failure> {
    match (kind, rounds, minutes) {
        (Kind::Swiss, Some(r), None) => Ok(Length::Rounds(r)),
        (Kind::Arena, None, Some(m)) => Ok(Length::Minutes(m)),
        (Kind::Swiss, ..) => Err(Failure::new(
            "a Swiss is played in rounds: give --rounds N (not --minutes)",
        )),
        (Kind::Arena, ..) => Err(Failure::new(
            "an arena is played for a time: give --minutes M (not --rounds)",
        )),
    }
}

/// A start time that does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{0}\" is not a start time: write now, +DURATION (such as +30m or +1h30m) or a UTC time YYYY-MM-DD HH:MM")]
pub struct BadStart(String);

/// `--starts` as seconds since the Unix epoch, `now` being the time now.
fn start_time(text: &str, now: i64) -> Result<i64, BadStart> {
    let bad = || BadStart(text.to_string());
    let t = text.trim();
    if t.eq_ignore_ascii_case("now") {
        return Ok(now);
    }
    if let Some(after) = t.strip_prefix('+') {
        let wait: Duration = humantime::parse_duration(after.trim()).map_err(|_| bad())?;
        return i64::try_from(wait.as_secs())
            .ok()
            .and_then(|s| now.checked_add(s))
            .ok_or_else(bad);
    }
    // YYYY-MM-DD HH:MM, with or without seconds, a `T` or a `Z`.
    let t = t.trim_end_matches(['Z', 'z']).replacen('T', " ", 1);
    let t = if t.len() == 16 { format!("{t}:00") } else { t };
    let at = humantime::parse_rfc3339_weak(&t).map_err(|_| bad())?;
    at.duration_since(std::time::UNIX_EPOCH)
        .ok()
        .and_then(|d| i64::try_from(d.as_secs()).ok())
        .ok_or_else(bad)
}

/// The tournament named `name`, or an error saying there is none.
fn found(store: &dyn ClubStore, name: &str) -> Result<Tournament, Failure> {
    store
        .tournament(name)
        .map_err(Failure::new)?
        .ok_or_else(|| {
            Failure::new(format!(
                "no tournament named \"{name}\" (qchess club tournament list lists them)"
            ))
        })
}

/// The length as words.
fn length_words(length: Length) -> String {
    match length {
        Length::Rounds(n) => format!("{n} rounds"),
        Length::Minutes(m) => format!("{m} minutes"),
    }
}

/// Kind, clock, length, state and start on one line.
fn summary(t: &Tournament) -> String {
    format!(
        "{} {}, {}, {}, starts {} UTC",
        t.made.control,
        t.made.kind,
        length_words(t.made.length),
        t.state,
        when(t.made.starts)
    )
}

/// A tournament as JSON, with its number of players.
fn tournament_json(t: &Tournament, players: usize) -> Value {
    let (rounds, minutes) = t.made.length.columns();
    json!({
        "name": t.made.name,
        "kind": t.made.kind.name(),
        "clock": t.made.control.to_string(),
        "rounds": rounds,
        "minutes": minutes,
        "starts": crate::record::iso_date(t.made.starts.max(0) as u64),
        "state": t.state.name(),
        "round": t.round,
        "players": players,
    })
}

/// Points as a player reads them: 3½, ½.
fn points(units: u32) -> String {
    match (units / WIN, units % WIN) {
        (whole, 0) => whole.to_string(),
        (0, _) => "½".into(),
        (whole, _) => format!("{whole}½"),
    }
}

/// `qchess club tournament show NAME`.
fn show(store: &dyn ClubStore, name: &str, json: bool) -> Outcome {
    let t = found(store, name)?;
    let entries = store.entries(t.id).map_err(Failure::new)?;
    let kept = store.pairings(t.id).map_err(Failure::new)?;
    let names: HashMap<MemberId, &str> = entries
        .iter()
        .map(|e| (e.member, e.name.as_str()))
        .collect();
    let who = |m: MemberId| names.get(&m).copied().unwrap_or("(gone)");
    let entrants: Vec<_> = entries.iter().map(|e| e.entrant()).collect();
    let pairings: Vec<Pairing> = kept.iter().map(|k| k.pairing).collect();
    let table = standings(t.made.kind, &entrants, &pairings);
    if json {
        let mut out = tournament_json(&t, entries.len());
        out["standings"] = table
            .iter()
            .map(|s| standing_json(s, who(s.member)))
            .collect();
        out["pairings"] = kept
            .iter()
            .map(|k| {
                json!({
                    "round": k.pairing.round,
                    "white": who(k.pairing.white),
                    "black": k.pairing.black.map(who),
                    "result": k.pairing.result.map(|r| crate::record::pgn::GameResult::of(r).token()),
                    "game": k.game.map(|g| g.0),
                })
            })
            .collect();
        return Ok(Done::Print(lines(out)));
    }
    let mut out = format!("{}: {}\n", t.made.name, summary(&t));
    if table.is_empty() {
        out.push_str("no players yet\n");
        return Ok(Done::Print(out));
    }
    let width = named_width(table.iter().map(|s| who(s.member)), 6);
    let tie_breaks = match t.made.kind {
        Kind::Swiss => "buchholz  s-b",
        Kind::Arena => "performance",
    };
    let _ = writeln!(
        out,
        "\n   # {}  points  games  {tie_breaks}",
        pad("player", width)
    );
    for (i, s) in table.iter().enumerate() {
        let breaks = match t.made.kind {
            Kind::Swiss => format!("{:>8.1}  {:>3.1}", s.buchholz, s.sonneborn_berger),
            Kind::Arena => s.performance.map_or("-".into(), |p| format!("{:>11.0}", p)),
        };
        let away = if s.present { "" } else { "  (withdrawn)" };
        let _ = writeln!(
            out,
            "{:>4} {}  {}  {:>5}  {breaks}{away}",
            i + 1,
            pad(who(s.member), width),
            pad_left(&points(s.units), 6),
            s.games()
        );
    }
    let mut round = 0;
    for k in &kept {
        if k.pairing.round != round {
            round = k.pairing.round;
            let _ = writeln!(
                out,
                "\n{} {round}",
                match t.made.kind {
                    Kind::Swiss => "round",
                    Kind::Arena => "game",
                }
            );
        }
        let _ = match k.pairing.black {
            None => writeln!(out, "  {} has a bye", who(k.pairing.white)),
            Some(black) => writeln!(
                out,
                "  {} - {}  {}",
                who(k.pairing.white),
                who(black),
                k.pairing
                    .result
                    .map_or("playing", |r| crate::record::pgn::GameResult::of(r).token())
            ),
        };
    }
    Ok(Done::Print(out))
}

/// `text` right-aligned in `width` terminal columns.
fn pad_left(text: &str, width: usize) -> String {
    use unicode_width::UnicodeWidthStr;
    format!("{}{text}", " ".repeat(width.saturating_sub(text.width())))
}

/// One line of the standings as JSON.
fn standing_json(s: &Standing, name: &str) -> Value {
    json!({
        "name": name,
        "points": f64::from(s.units) / f64::from(WIN),
        "games": s.games(),
        "won": s.won,
        "drawn": s.drawn,
        "lost": s.lost,
        "byes": s.byes,
        "buchholz": s.buchholz,
        "sonneborn_berger": s.sonneborn_berger,
        "performance": s.performance,
        "withdrawn": !s.present,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_times_read_as_now_a_wait_or_a_utc_time() {
        let now = 1_800_000_000;
        assert_eq!(start_time("now", now), Ok(now));
        assert_eq!(start_time("+30m", now), Ok(now + 1800));
        assert_eq!(start_time("+1h30m", now), Ok(now + 5400));
        assert_eq!(start_time("2026-12-03 18:00", now), Ok(1_796_320_800));
        assert_eq!(start_time("2026-12-03T18:00:00Z", now), Ok(1_796_320_800));
        for bad in ["soon", "+", "+ten", "2026-13-03 18:00", "18:00", ""] {
            assert!(start_time(bad, now).is_err(), "{bad}");
        }
    }

    #[test]
    fn points_show_halves() {
        assert_eq!(
            [0, 1, 2, 7].map(points),
            ["0", "½", "1", "3½"].map(String::from)
        );
    }

    #[test]
    fn a_name_is_one_to_forty_characters_without_controls() {
        assert_eq!(checked_name("  Friday Swiss ").unwrap(), "Friday Swiss");
        for bad in ["", "   ", "a\tb", &"x".repeat(41)] {
            assert!(checked_name(bad).is_err(), "{bad:?}");
        }
    }
}
