//! `qchess puzzles`: the pack as a list or JSON (filtered by theme, rating and length),
//! its themes, `prove` to re-prove it, `generate` to find more puzzles in engine games
//! or PGN files.

use crate::cli::play::PuzzleFilterArgs;
use crate::cli::{Done, Failure, Outcome};
use crate::puzzles::generate::{generate, Options};
use crate::puzzles::pack::{self, Puzzle};
use crate::puzzles::prove::prove;
use crate::puzzles::theme::Theme;
use crate::seats::spec::PlayerSpec;
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `qchess puzzles`.
#[derive(Args, Debug, Clone)]
pub struct PuzzlesArgs {
    #[command(subcommand)]
    command: Option<PuzzlesCommand>,
    /// Print the pack as JSON (id, fen, setup, goal, moves, theme, value, best, second,
    /// rating, line, source).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    filter: PuzzleFilterArgs,
}

/// The subcommands of `qchess puzzles`.
#[derive(Subcommand, Debug, Clone)]
enum PuzzlesCommand {
    /// List the pack, as `qchess puzzles` alone does.
    List(ListArgs),
    /// The themes, each with how many puzzles of the pack have it.
    Themes,
    /// Play the puzzles in the terminal: your moves are judged exactly against the best,
    /// the other side defends as the proof does.
    Play(crate::cli::play::PuzzlePlayArgs),
    /// Prove the pack's puzzles again (or the one named) and compare with the stored
    /// values.
    Prove(ProveArgs),
    /// Play engine games, find positions with a decisive line, prove them and add the
    /// new puzzles to a pack file.
    Generate(GenerateArgs),
}

/// Arguments of `qchess puzzles list`.
#[derive(Args, Debug, Clone)]
struct ListArgs {
    /// Print the pack as JSON, as `qchess puzzles --json` does.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    filter: PuzzleFilterArgs,
}

/// Arguments of `qchess puzzles prove`.
#[derive(Args, Debug, Clone)]
struct ProveArgs {
    /// The puzzle's id (default: every puzzle).
    id: Option<String>,
}

/// Arguments of `qchess puzzles generate`.
#[derive(Args, Debug, Clone)]
struct GenerateArgs {
    /// Games to play.
    #[arg(long, default_value_t = 10)]
    games: u32,
    /// Seed of the games (game i uses seed + i): another seed, other games.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// White in the even games: engine:LEVEL, random or greedy.
    #[arg(long, value_name = "SPEC", default_value = "engine:1")]
    white: PlayerSpec,
    /// Black in the even games.
    #[arg(long, value_name = "SPEC", default_value = "engine:2")]
    black: PlayerSpec,
    /// Games stop after this many plies.
    #[arg(long, value_name = "P", default_value_t = 200)]
    max_plies: u32,
    /// Scan the games of this PGN file instead of playing engine games (classical
    /// games: use --twists to turn them quantum).
    #[arg(long, value_name = "FILE")]
    from_pgn: Option<PathBuf>,
    /// Play the engine games from the positions of this file, a FEN a line (--games
    /// from each; # starts a comment line), e.g. few-piece endings for deeper puzzles.
    #[arg(long, value_name = "FILE", conflicts_with = "from_pgn")]
    from_fen: Option<PathBuf>,
    /// From each position without superposition, also scan the positions after this
    /// many splits of the side to move.
    #[arg(long, value_name = "N", default_value_t = 0)]
    twists: usize,
    /// The twists split the king of the side to move only (a king in two halves for
    /// the other side to hunt).
    #[arg(long)]
    king_twists: bool,
    /// The longest task tried, in moves.
    #[arg(long, value_name = "N", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..=3))]
    moves: u32,
    /// The shortest task kept, in moves (at most --moves): 2 keeps only the deeper
    /// puzzles.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=3))]
    min_moves: u32,
    /// Threads playing and scanning games.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: u32,
    /// The least proved value kept (0 to 1).
    #[arg(long, value_name = "P", default_value_t = 0.25, value_parser = probability)]
    min_value: f64,
    /// The least margin of the best answer over every other first move (0 to 1).
    #[arg(long, value_name = "P", default_value_t = 0.1, value_parser = probability)]
    min_margin: f64,
    /// Positions one proof may play before the candidate is dropped.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    max_nodes: u64,
    /// The most moves from the last classical position to the puzzle's.
    #[arg(long, value_name = "N", default_value_t = 40)]
    max_setup: usize,
    /// Two-move tasks are tried in positions with at most this many legal moves.
    #[arg(long, value_name = "N", default_value_t = 60)]
    width: usize,
    /// Three-move tasks and survive 2 are tried in positions with at most this many
    /// legal moves.
    #[arg(long, value_name = "N", default_value_t = 24)]
    deep_width: usize,
    /// Keep puzzles without a quantum twist (no superposition, best move no split or
    /// merge).
    #[arg(long)]
    classical: bool,
    /// The pack file to extend (made when missing).
    #[arg(long, value_name = "FILE", default_value = "puzzles/pack.toml")]
    pack: PathBuf,
    /// Print what would be added instead of writing the pack.
    #[arg(long)]
    dry_run: bool,
}

/// A probability from 0 to 1.
fn probability(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!("\"{s}\" is not a probability from 0 to 1")),
    }
}

/// Runs `qchess puzzles`.
pub fn run(args: PuzzlesArgs) -> Outcome {
    match args.command {
        Some(PuzzlesCommand::Prove(a)) => prove_pack(a.id.as_deref()),
        Some(PuzzlesCommand::Generate(a)) => run_generate(&a),
        Some(PuzzlesCommand::Play(a)) => crate::cli::play::play_puzzles(a),
        Some(PuzzlesCommand::List(a)) => list(a.json || args.json, &a.filter),
        Some(PuzzlesCommand::Themes) => Ok(Done::Print(themes(pack::pack()))),
        None => list(args.json, &args.filter),
    }
}

/// The pack (those puzzles that pass the filter), as text or as JSON.
fn list(json: bool, filter: &PuzzleFilterArgs) -> Outcome {
    let chosen = filter.chosen()?;
    Ok(Done::Print(if json {
        format!("{}\n", to_json(&chosen))
    } else {
        to_text(&chosen)
    }))
}

/// Every theme with its count in `puzzles`, one a line.
fn themes(puzzles: &[Puzzle]) -> String {
    let mut out = String::new();
    for t in Theme::ALL {
        let n = puzzles.iter().filter(|p| p.theme == t).count();
        out.push_str(&format!("{:<20} {n:>4}\n", t.name()));
    }
    out.push_str(&format!(
        "{} puzzles; play a theme: qchess puzzles play --puzzle-theme THEME\n",
        puzzles.len()
    ));
    out
}

/// The pack as a JSON array.
pub fn to_json(puzzles: &[Puzzle]) -> serde_json::Value {
    puzzles
        .iter()
        .map(|p| {
            json!({
                "id": p.id,
                "fen": p.fen,
                "setup": p.setup,
                "goal": p.goal.name(),
                "moves": p.moves,
                "theme": p.theme.name(),
                "value": p.value,
                "best": p.best,
                "second": p.second,
                "rating": p.rating,
                "line": p.line,
                "source": p.source,
            })
        })
        .collect()
}

/// The pack as a short list.
fn to_text(puzzles: &[Puzzle]) -> String {
    let mut out = format!("{} puzzles, every value proved:\n", puzzles.len());
    out.push_str(&format!(
        "{:>4}  {:<6} {:>5}  {:<19} {}\n",
        "id", "rating", "best", "theme", "task"
    ));
    for p in puzzles {
        out.push_str(&format!(
            "{:>4}  {:<6} {:>4}%  {:<19} {}\n",
            p.id,
            p.rating,
            crate::format::percent(p.value),
            p.theme.name(),
            p.task().describe()
        ));
    }
    out.push_str("Play them: qchess puzzles play [ID]; for scripts: qchess puzzles --json.\n");
    out
}

/// `qchess puzzles prove`: re-proves one puzzle or all; fails when a value or best move
/// differs from the pack's.
fn prove_pack(id: Option<&str>) -> Outcome {
    let chosen: Vec<&Puzzle> = match id {
        Some(id) => vec![pack::find(id)
            .ok_or_else(|| Failure::new(format!("there is no puzzle \"{id}\" in the pack")))?],
        None => pack::pack().iter().collect(),
    };
    let count = chosen.len();
    let all = Instant::now();
    let mut wrong = 0;
    let mut out = String::new();
    for p in chosen {
        let t = Instant::now();
        let game = p.game().map_err(Failure::new)?;
        let proof = prove(&game, p.task()).map_err(|e| Failure::new(format!("{}: {e}", p.id)))?;
        let differences = p.differences(&game, &proof);
        if !differences.is_empty() {
            wrong += 1;
        }
        out.push_str(&format!(
            "{:>4}  {:<8} {}  value {:.6} (pack {:.6})  best {}  {} positions  {:.3} s{}\n",
            p.id,
            p.goal.name(),
            p.moves,
            proof.value,
            p.value,
            proof.best.join(" "),
            proof.nodes,
            t.elapsed().as_secs_f64(),
            if differences.is_empty() {
                String::new()
            } else {
                format!("  DIFFERS: {}", differences.join(", "))
            }
        ));
    }
    out.push_str(&format!(
        "{count} proved in {:.2} s; {wrong} differ from the pack\n",
        all.elapsed().as_secs_f64()
    ));
    crate::cli::write_stdout(&out)?;
    Ok(Done::Exit(if wrong == 0 { 0 } else { 1 }))
}

/// `qchess puzzles generate`: plays, proves and extends the pack file.
fn run_generate(a: &GenerateArgs) -> Outcome {
    if a.min_moves > a.moves {
        return Err(Failure::new(format!(
            "--min-moves {} is longer than --moves {}: no task would be kept",
            a.min_moves, a.moves
        )));
    }
    let text = match std::fs::read_to_string(&a.pack) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(Failure::with_code(1, format!("{}: {e}", a.pack.display()))),
    };
    let mut puzzles =
        pack::read(&text).map_err(|e| Failure::new(format!("{}: {e}", a.pack.display())))?;
    let opts = Options {
        white: a.white.clone(),
        black: a.black.clone(),
        games: a.games,
        seed: a.seed,
        max_plies: a.max_plies,
        from_pgn: a.from_pgn.clone(),
        from_fen: a.from_fen.clone(),
        twists: a.twists,
        king_twists: a.king_twists,
        moves: a.moves,
        min_moves: a.min_moves,
        jobs: a.jobs,
        min_value: a.min_value,
        min_margin: a.min_margin,
        max_nodes: a.max_nodes,
        max_setup: a.max_setup,
        two_move_width: a.width,
        deep_width: a.deep_width,
        classical: a.classical,
    };
    let bar = ProgressBar::new(if a.from_pgn.is_some() || a.from_fen.is_some() {
        0
    } else {
        a.games as u64
    });
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos} games scanned  {elapsed}")
            .expect("the template is valid"),
    );
    let t = Instant::now();
    let found = generate(&opts, &puzzles, &|_| bar.inc(1)).map_err(Failure::new);
    bar.finish_and_clear();
    let found = found?;
    let mut next = puzzles
        .iter()
        .filter_map(|p| p.id.parse::<u32>().ok())
        .max()
        .unwrap_or(0);
    let added = found.puzzles.len();
    for mut p in found.puzzles {
        next += 1;
        p.id = format!("{next:03}");
        puzzles.push(p);
    }
    let summary = format!(
        "{} games, {} positions, {} proofs ({} too large), {added} new puzzles in {:.1} s",
        found.games,
        found.positions,
        found.proofs,
        found.too_large,
        t.elapsed().as_secs_f64()
    );
    // A game that does not read or replay is reported, not a reason to lose the run's
    // other finds.
    let left_out: String = found
        .skipped
        .iter()
        .map(|why| format!("\nleft out: {why}"))
        .collect();
    let new = &puzzles[puzzles.len() - added..];
    if a.dry_run {
        return Ok(Done::Print(format!(
            "{}{summary}{left_out}\n",
            pack::write(new)
        )));
    }
    std::fs::write(&a.pack, pack::write(&puzzles))
        .map_err(|e| Failure::with_code(1, format!("{}: {e}", a.pack.display())))?;
    Ok(Done::Print(format!(
        "{summary}; {} now holds {}{left_out}\n",
        a.pack.display(),
        puzzles.len()
    )))
}
