//! `qchess review FILE`: judges a saved game's positions (what an earlier review of the
//! file judged is not redone), saves the review into the file, and prints the verdict:
//! each player's summary and the marked moves, or everything as JSON.

use crate::chess::Color;
use crate::cli::{level_flag, Done, Failure, Outcome};
use crate::game::Playable;
use crate::record::{self, SavedGame};
use crate::review::verdict::{moves_of, verdicts, Summary, Verdict};
use crate::review::{expected, review, Judge, Review};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Options of `qchess review`.
#[derive(Args, Debug, Clone)]
pub struct ReviewArgs {
    /// The saved game (qchess's TOML, or a PGN file).
    file: PathBuf,
    /// Which game of a file of several (PGN), from 1.
    #[arg(long, value_name = "N", value_parser = crate::cli::parse_game_number)]
    game: Option<usize>,
    /// Strength of the engine's look at each position: 1 (fast) to 5 (default 3).
    #[arg(long, value_parser = level_flag(), conflicts_with = "movetime")]
    level: Option<u8>,
    /// Search each position this many milliseconds instead of to a level's depth.
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Positions judged at once (default: one per core).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Print the review as one JSON object.
    #[arg(long)]
    json: bool,
    /// Judge every position again, even those an earlier review of the file judged.
    #[arg(long)]
    again: bool,
    /// Do not write the review into the file.
    #[arg(long)]
    no_save: bool,
}

/// Runs `qchess review`. Ctrl-C stops the judging; what is judged is kept (saved, and
/// printed), and the next review goes on from there.
pub fn run(args: ReviewArgs) -> Outcome {
    let path = &args.file;
    let mut saved = record::load_game(path, args.game).map_err(Failure::new)?;
    let game = saved.replay(path, None, None).map_err(Failure::new)?;
    let judge = match (args.level, args.movetime) {
        (_, Some(0)) => return Err(Failure::new("--movetime must be at least 1 ms")),
        (_, Some(ms)) => Judge::Time(Duration::from_millis(ms)),
        (Some(l), None) => Judge::Level(l),
        (None, None) => Judge::default(),
    };
    let threads = args.threads.unwrap_or_else(crate::review::default_threads);
    if threads == 0 {
        return Err(Failure::new("--threads must be at least 1"));
    }
    let earlier = saved.review.clone().filter(|_| !args.again);
    let stop = Arc::new(AtomicBool::new(false));
    let interrupt =
        signal_hook::flag::register(signal_hook::consts::SIGINT, Arc::clone(&stop)).ok();
    let bar = ProgressBar::hidden();
    let started = Instant::now();
    let result = review(
        game.as_ref(),
        judge,
        threads,
        earlier,
        &stop,
        &mut |done, total, _| {
            if total == 0 {
                return;
            }
            if bar.is_hidden() {
                bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                bar.set_length(total as u64);
                if let Ok(style) = ProgressStyle::with_template(
                "{bar:30} {pos}/{len} positions  {elapsed} (eta {eta})  Ctrl-C stops, keeping them",
            ) {
                bar.set_style(style);
            }
            }
            bar.set_position(done as u64);
        },
    );
    bar.finish_and_clear();
    if let Some(id) = interrupt {
        signal_hook::low_level::unregister(id);
    }
    let review = result.map_err(|e| Failure::new(format!("{}: {e}", path.display())))?;
    let took = started.elapsed();
    let plies = game.ply();
    if !review.complete(plies) {
        crate::cli::warn(format!(
            "stopped: {} of {} positions judged; `qchess review {}` judges the rest",
            review.positions.len(),
            plies + 1,
            path.display()
        ));
    }
    // A PGN file may hold other games and other programs' words: the review is not
    // written into it (it has no place for the judged positions).
    let pgn = crate::record::pgn::file::is_pgn(path);
    if pgn && !args.no_save {
        crate::cli::warn(format!(
            "{}: a review is kept in qchess's own files only; not saved into a PGN file",
            path.display()
        ));
    }
    if !args.no_save && !pgn && saved.review.as_ref() != Some(&review) {
        saved.review = Some(review.clone());
        record::save(path, &saved).map_err(Failure::new)?;
    }
    Ok(Done::Print(if args.json {
        format!("{}\n", to_json(&saved, game.as_ref(), &review))
    } else {
        to_text(path, &saved, game.as_ref(), &review, took)
    }))
}

/// The review for scripts: who judged, White's expected result at the start, each
/// ply's verdict, each player's summary.
pub fn to_json(saved: &SavedGame, game: &dyn Playable, review: &Review) -> serde_json::Value {
    let v = verdicts(review, &moves_of(game));
    json!({
        "by": review.by,
        "plies": saved.moves.len(),
        "complete": review.complete(saved.moves.len()),
        "start": review.at(0).map(|j| j.expected),
        "moves": v.iter().flatten().map(Verdict::to_json).collect::<Vec<_>>(),
        "white": Summary::of(&v, Color::White).to_json(),
        "black": Summary::of(&v, Color::Black).to_json(),
    })
}

/// The review for a reader: who judged, each player's summary, the marked moves.
fn to_text(
    path: &Path,
    saved: &SavedGame,
    game: &dyn Playable,
    review: &Review,
    took: Duration,
) -> String {
    let v = verdicts(review, &moves_of(game));
    let mut out = format!(
        "{}: {} v {}, {} plies, reviewed by {} ({:.1} s)\n",
        path.display(),
        saved.players.white,
        saved.players.black,
        saved.moves.len(),
        review.by,
        took.as_secs_f64(),
    );
    if let Some(start) = review.at(0) {
        out += &format!(
            "White's expected result: {} at the start",
            expected::words(start.expected)
        );
        if let Some(end) = review.at(saved.moves.len()) {
            out += &format!(", {} at the end", expected::words(end.expected));
        }
        out += "\n";
    }
    for (side, name) in [
        (Color::White, &saved.players.white),
        (Color::Black, &saved.players.black),
    ] {
        out += &format!(
            "{} ({name}): {}\n",
            side.name(),
            Summary::of(&v, side).words()
        );
    }
    out += &format!(
        "luck counts a measurement whose drawn outcome moved the expected result by {:.2} or more\n",
        crate::review::verdict::LUCK
    );
    let marked: Vec<&Verdict> = v.iter().flatten().filter(|v| v.said()).collect();
    if marked.is_empty() {
        out += "no marked moves\n";
    }
    for m in marked {
        let line = if m.mark.is_some() && m.best_line.len() > 1 {
            format!(" ({})", m.best_line.join(" "))
        } else {
            String::new()
        };
        out += &format!(
            "ply {} ({}) {}{}: {}{line}; white {} after\n",
            m.ply,
            m.mover.name(),
            m.mv,
            m.mark.map_or("", |k| k.symbol()),
            m.words(),
            expected::words(m.expected),
        );
    }
    out
}
