//! `qchess club`: the operators' look at the club's database (members and ratings, the
//! archive, a player's games as PGN) and its online backup, while the server runs or
//! not.

use crate::cli::{Done, Failure, Outcome};
use crate::club::{
    default_db, ArchivedGame, Ban, Category, CategoryRating, ClubError, ClubStore, Database,
    GameQuery, Member, Rating,
};
use crate::record::iso_date;
use crate::server::lobby::ask::when;
use clap::{Args, Subcommand};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use unicode_width::UnicodeWidthStr;

mod tournament;

/// Options of `qchess club`.
#[derive(Args, Debug, Clone)]
pub struct ClubArgs {
    /// The club's database: a PostgreSQL URL (postgres://USER:PASSWORD@HOST:PORT/DATABASE)
    /// or an SQLite file (default: server/club.sqlite in the data directory, where
    /// qchess serve keeps it).
    #[arg(long, value_name = "URL|FILE", global = true, visible_alias = "db", value_parser = Database::parse)]
    database: Option<Database>,
    /// Print JSON for scripts instead of text.
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    command: ClubCommand,
}

/// What `qchess club` does.
#[derive(Subcommand, Debug, Clone)]
pub enum ClubCommand {
    /// List the players with their rating in each category they played (`?` while
    /// provisional).
    Players,
    /// List the archived games, most recent first.
    Games {
        /// Only this player's games.
        #[arg(long, value_name = "NAME")]
        player: Option<String>,
        /// At most this many games.
        #[arg(long, value_name = "N", default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..))]
        limit: u32,
    },
    /// Write a player's games as Quantum PGN, most recent first (with --json, each
    /// game's summary and PGN).
    Export {
        /// The player.
        #[arg(long, value_name = "NAME")]
        player: String,
        /// Write to this file instead of standard output (a file that is not PGN only
        /// with --force).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Replace FILE even when it is not a PGN file.
        #[arg(long)]
        force: bool,
    },
    /// Bar a key from signing in (its sessions open now go on until they end).
    Ban {
        /// The key: its fingerprint (SHA256:…) or its OpenSSH public key text.
        key: String,
        /// Why, kept with the ban.
        #[arg(long, value_name = "TEXT", default_value = "banned by the operator")]
        reason: String,
    },
    /// Lift a key's ban.
    Unban {
        /// The key: its fingerprint (SHA256:…) or its OpenSSH public key text.
        key: String,
    },
    /// List the banned keys, most recent first.
    Bans,
    /// Copy the whole club to FILE, a new SQLite database: a consistent copy (SQLite's
    /// online backup, or one PostgreSQL transaction), taken while the servers go on.
    Backup {
        /// The copy (must not exist yet).
        file: PathBuf,
    },
    /// Make, list, show or call off the club's tournaments (arena and Swiss), which
    /// the server runs.
    Tournament {
        #[command(subcommand)]
        command: tournament::TournamentCommand,
    },
    /// Move a whole club (members, keys, bans, ratings, archive, tournaments) from one database to
    /// another, which must hold no club yet, in one transaction on the target: from an
    /// SQLite file to PostgreSQL, or back. Stop the servers that use either first.
    Migrate {
        /// The club to move: an SQLite file or a PostgreSQL URL.
        #[arg(long, value_name = "URL|FILE", value_parser = Database::parse)]
        from: Database,
        /// Where to: a PostgreSQL URL (its database must exist) or a new SQLite file.
        #[arg(long, value_name = "URL|FILE", value_parser = Database::parse)]
        to: Database,
    },
}

/// Runs `qchess club`.
pub fn run(args: ClubArgs) -> Outcome {
    if let ClubCommand::Migrate { from, to } = &args.command {
        return migrate(from, to, args.json);
    }
    let db = match args.database {
        Some(db) => db,
        None => Database::Sqlite(default_db(
            &crate::config::data_dir().map_err(Failure::new)?,
        )),
    };
    let mut store = db.open_existing().map_err(Failure::new)?.into_store();
    let store = &mut *store;
    match args.command {
        ClubCommand::Migrate { .. } => unreachable!("answered above"),
        ClubCommand::Players => players(store, args.json),
        ClubCommand::Games { player, limit } => {
            let member = player.map(|p| named(store, &p)).transpose()?;
            let games = store
                .games(GameQuery {
                    member: member.map(|m| m.id),
                    limit: limit as usize,
                })
                .map_err(Failure::new)?;
            Ok(Done::Print(if args.json {
                lines(games.iter().map(game_json).collect())
            } else if games.is_empty() {
                "no games\n".into()
            } else {
                games.iter().map(|g| game_line(g) + "\n").collect()
            }))
        }
        ClubCommand::Export { player, out, force } => {
            export(store, &player, out.as_deref(), force, args.json)
        }
        ClubCommand::Backup { file } => backup(store, &db, &file, args.json),
        ClubCommand::Tournament { command } => tournament::run(store, command, args.json),
        ClubCommand::Ban { key, reason } => ban(store, &key, &reason, args.json),
        ClubCommand::Unban { key } => {
            let print = key_print(&key)?;
            if !store.unban(&print).map_err(Failure::new)? {
                return Err(Failure::new(format!("{print} is not banned")));
            }
            Ok(Done::Print(if args.json {
                lines(json!({ "unbanned": print }))
            } else {
                format!("{print} may sign in again\n")
            }))
        }
        ClubCommand::Bans => {
            let bans = store.bans().map_err(Failure::new)?;
            Ok(Done::Print(if args.json {
                lines(Value::Array(bans.iter().map(ban_json).collect()))
            } else if bans.is_empty() {
                "no bans\n".into()
            } else {
                bans.iter()
                    .map(|b| format!("{}  since {}  {}\n", b.fingerprint, when(b.since), b.reason))
                    .collect()
            }))
        }
    }
}

/// A key named on the command line as its fingerprint: `SHA256:` and 43 characters of
/// base64 as given, or an OpenSSH public key's text, whose fingerprint it is.
fn key_print(key: &str) -> Result<String, Failure> {
    let key = key.trim();
    if let Some(hash) = key.strip_prefix("SHA256:") {
        let base64 = |c: char| c.is_ascii_alphanumeric() || c == '+' || c == '/';
        if hash.len() == 43 && hash.chars().all(base64) {
            return Ok(key.to_string());
        }
        return Err(Failure::new(format!(
            "{key} is not a key's fingerprint: SHA256: and 43 characters, as ssh-keygen -lf KEY.pub prints it"
        )));
    }
    crate::server::lobby::account::parse_key(key)
        .map(|k| crate::server::keys::fingerprint(&k))
        .map_err(|e| Failure::new(format!("{e}; or give its fingerprint (SHA256:…)")))
}

/// `qchess club ban`.
fn ban(store: &mut dyn ClubStore, key: &str, reason: &str, json: bool) -> Outcome {
    let print = key_print(key)?;
    let since = i64::try_from(crate::record::now_secs()).unwrap_or(i64::MAX);
    let ban = Ban {
        fingerprint: print.clone(),
        reason: reason.to_string(),
        since,
    };
    store.ban(&ban).map_err(Failure::new)?;
    let owner = store.key_owner(&print).map_err(Failure::new)?;
    Ok(Done::Print(if json {
        let mut v = ban_json(&ban);
        v["member"] = json!(owner.map(|m| m.name));
        lines(v)
    } else {
        let whose = owner.map_or(String::new(), |m| format!(" ({}'s key)", m.name));
        format!("{print}{whose} may not sign in: {reason}\n")
    }))
}

/// A ban as JSON.
fn ban_json(b: &Ban) -> Value {
    json!({
        "fingerprint": b.fingerprint,
        "reason": b.reason,
        "since": iso_date(b.since.max(0) as u64),
    })
}

/// The member named `name`, or the error that says there is none.
fn named(store: &dyn ClubStore, name: &str) -> Result<Member, Failure> {
    store
        .member(name)
        .map_err(Failure::new)?
        .ok_or_else(|| Failure::new(ClubError::UnknownMember(name.to_string())))
}

/// Pretty JSON and a line end.
fn lines(value: Value) -> String {
    format!("{value:#}\n")
}

/// `qchess club players`.
fn players(store: &dyn ClubStore, json: bool) -> Outcome {
    let roster = store.roster().map_err(Failure::new)?;
    if json {
        let all = roster
            .iter()
            .map(|(m, ratings)| {
                let by_category: serde_json::Map<String, Value> = ratings
                    .iter()
                    .map(|r| (r.category.to_string(), rating_json(r)))
                    .collect();
                json!({
                    "name": m.name,
                    "created": iso_date(m.created.max(0) as u64),
                    "ratings": by_category,
                })
            })
            .collect();
        return Ok(Done::Print(lines(Value::Array(all))));
    }
    if roster.is_empty() {
        return Ok(Done::Print("no players\n".into()));
    }
    let width = named_width(roster.iter().map(|(m, _)| m.name.as_str()), 4);
    let mut out = pad("name", width);
    for c in Category::ALL {
        let _ = write!(out, "  {:>11}", c.name());
    }
    out.push_str("  since\n");
    for (m, ratings) in &roster {
        out.push_str(&pad(&m.name, width));
        for c in Category::ALL {
            let shown = ratings
                .iter()
                .find(|r| r.category == c)
                .map_or("-".to_string(), |r| format!("{} ({})", r.rating, r.games));
            let _ = write!(out, "  {shown:>11}");
        }
        let _ = writeln!(out, "  {}", &iso_date(m.created.max(0) as u64)[..10]);
    }
    Ok(Done::Print(out))
}

/// The terminal columns of the widest of `names`, and at least `least`.
fn named_width<'a>(names: impl Iterator<Item = &'a str>, least: usize) -> usize {
    names.map(UnicodeWidthStr::width).fold(least, usize::max)
}

/// `text` padded with spaces to `width` terminal columns.
fn pad(text: &str, width: usize) -> String {
    format!("{text}{}", " ".repeat(width.saturating_sub(text.width())))
}

/// A rating in a category as JSON.
fn rating_json(r: &CategoryRating) -> Value {
    json!({
        "rating": r.rating.rating,
        "deviation": r.rating.deviation,
        "volatility": r.rating.volatility,
        "provisional": r.rating.provisional(),
        "shown": r.rating.to_string(),
        "games": r.games,
        "last_played": iso_date(r.last_played.max(0) as u64),
    })
}

/// The result as PGN writes it.
fn score(g: &ArchivedGame) -> &'static str {
    crate::record::pgn::GameResult::of(g.result).token()
}

/// One line of `qchess club games`.
fn game_line(g: &ArchivedGame) -> String {
    let mut line = format!(
        "#{}  {}  {} - {}  {}",
        g.id.0,
        when(g.ended),
        g.white.name,
        g.black.name,
        score(g)
    );
    match g.control {
        Some(c) => {
            let _ = write!(line, "  {c} {}", Category::of(c));
        }
        None => line.push_str("  no clock"),
    }
    line.push_str(if g.rated { " rated" } else { " casual" });
    if let Some(reason) = &g.reason {
        let _ = write!(line, "  {reason}");
    }
    if let Some([w, b]) = g.changes() {
        let _ = write!(line, "  {w}, {b}");
    }
    line
}

/// A rating before and after as JSON.
fn change_json(before: Rating, after: Rating) -> Value {
    json!({
        "before": before.rating,
        "after": after.rating,
        "deviation_after": after.deviation,
        "shown": format!("{before} -> {after}"),
    })
}

/// One game of the archive as JSON.
fn game_json(g: &ArchivedGame) -> Value {
    json!({
        "id": g.id.0,
        "white": g.white.name,
        "black": g.black.name,
        "white_member": g.white.member.is_some(),
        "black_member": g.black.member.is_some(),
        "rated": g.rated,
        "time_control": g.control.map(|c| c.to_string()),
        "category": g.control.map(|c| Category::of(c).to_string()),
        "result": score(g),
        "reason": g.reason,
        "started": iso_date(g.started.max(0) as u64),
        "ended": iso_date(g.ended.max(0) as u64),
        "ratings": g.ratings.map(|r| json!({
            "white": change_json(r.white.0, r.white.1),
            "black": change_json(r.black.0, r.black.1),
        })),
    })
}

/// `qchess club export`.
fn export(
    store: &dyn ClubStore,
    player: &str,
    out: Option<&Path>,
    force: bool,
    json: bool,
) -> Outcome {
    let member = named(store, player)?;
    let games = crate::club::export::member_games(store, member.id).map_err(Failure::new)?;
    let n = games.len();
    let text = if json {
        lines(Value::Array(
            games
                .iter()
                .map(|(g, pgn)| {
                    let mut v = game_json(g);
                    v["pgn"] = Value::String(crate::record::pgn::write(pgn));
                    v
                })
                .collect(),
        ))
    } else {
        let pgns: Vec<_> = games.into_iter().map(|(_, pgn)| pgn).collect();
        crate::record::pgn::write_all(&pgns)
    };
    let Some(out) = out else {
        return Ok(Done::Print(text));
    };
    if !force {
        let why = if json {
            out.exists().then(|| "it exists".to_string())
        } else {
            crate::record::pgn::file::not_pgn(out).map(|why| format!("it is not a PGN file: {why}"))
        };
        if let Some(why) = why {
            return Err(Failure::new(format!(
                "{}: {why}; not overwriting it (--force replaces it)",
                out.display()
            )));
        }
    }
    crate::files::replace_atomic(out, &text)
        .map_err(|e| Failure::with_code(1, format!("cannot write {}: {e}", out.display())))?;
    Ok(Done::Print(format!(
        "{n} games of {} written to {}\n",
        member.name,
        out.display()
    )))
}

/// `qchess club backup`.
fn backup(store: &dyn ClubStore, db: &Database, file: &Path, json: bool) -> Outcome {
    if file.exists() {
        return Err(Failure::new(format!(
            "{} exists: a backup goes to a new file",
            file.display()
        )));
    }
    store.backup(file).map_err(|e| Failure::with_code(1, e))?;
    let bytes = std::fs::metadata(file).map_or(0, |m| m.len());
    Ok(Done::Print(if json {
        lines(json!({ "backup": file.display().to_string(), "bytes": bytes }))
    } else {
        format!("{db} copied to {} ({bytes} bytes)\n", file.display())
    }))
}

/// `qchess club migrate`.
fn migrate(from: &Database, to: &Database, json: bool) -> Outcome {
    if from == to {
        return Err(Failure::new(format!(
            "{from} is both --from and --to: a club moves to another database"
        )));
    }
    let moved = crate::club::copy::migrate(from, to).map_err(|e| Failure::with_code(1, e))?;
    let [members, keys, ratings, games, bans] =
        ["members", "keys", "ratings", "games", "bans"].map(|t| moved.rows(t));
    Ok(Done::Print(if json {
        lines(json!({
            "from": from.to_string(),
            "to": to.to_string(),
            "members": members,
            "keys": keys,
            "ratings": ratings,
            "games": games,
            "bans": bans,
        }))
    } else {
        format!(
            "moved {members} members, {keys} keys, {ratings} ratings, {games} games and {bans} bans from {from} to {to}\n"
        )
    }))
}
