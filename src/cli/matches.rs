//! `qchess match`: two players, a number of games, the result and what it says about
//! their strength. A progress bar goes to stderr (when it is a terminal).

use crate::cli::{parse_clock_flag, ClockFlag, Done, Failure, Outcome};
use crate::game::RuleSet;
use crate::quantum::BackendKind;
use crate::seats::matches::{run_match, MatchError, MatchOptions, Result1};
use crate::seats::spec::PlayerSpec;
use crate::uqci::uci::UciSettings;
use indicatif::{ProgressBar, ProgressStyle};

/// Arguments of `qchess match`.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    /// The first player, White in games 1, 3, 5...: engine:LEVEL (1..5), random, greedy,
    /// uqci:"CMD" (an external UQCI engine, 1000 ms a move) or uci:"CMD" (a classical UCI
    /// chess engine such as Stockfish, playing the most likely classical board and taking
    /// a king capture when that board has one).
    #[arg(long, value_name = "SPEC")]
    pub white: PlayerSpec,
    /// The second player, White in games 2, 4, 6...
    #[arg(long, value_name = "SPEC")]
    pub black: PlayerSpec,
    /// Number of games (colours alternate).
    #[arg(long, default_value_t = 10)]
    pub games: u32,
    /// Seed of the measurements and of the players' choices (game i uses seed + i).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// A game still going after this many plies is stopped and adjudicated.
    #[arg(long, value_name = "P", default_value_t = 300)]
    pub max_plies: u32,
    /// A stopped game is lost by a side whose king is present with probability under
    /// this, when the other king is present at least this much; otherwise drawn (0:
    /// every stopped game is a draw).
    #[arg(long, value_name = "P", default_value_t = 0.01,
          value_parser = probability)]
    pub adjudicate_below: f64,
    /// uci: players search to this depth (`go depth`).
    #[arg(long, value_name = "D", default_value_t = UciSettings::default().depth,
          value_parser = clap::value_parser!(u32).range(1..=60))]
    pub uci_depth: u32,
    /// uci: players ask for this many lines (`MultiPV`).
    #[arg(long, value_name = "N", default_value_t = UciSettings::default().multipv,
          value_parser = clap::value_parser!(u32).range(1..=50))]
    pub uci_multipv: u32,
    /// uci: players choose each of their first N moves among the lines within
    /// --uci-vary-cp of the best, by the seed (0: always the best line).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub uci_vary: u32,
    /// How far below the best line (centipawns) a varied move's line may score.
    #[arg(long, value_name = "CP", default_value_t = UciSettings::default().margin_cp,
          value_parser = clap::value_parser!(i64).range(0..=10_000))]
    pub uci_vary_cp: i64,
    /// engine: players (levels 2 to 5, which open from the book) choose each of their
    /// first N moves at random among the sound moves the opening book knows for the
    /// position, by the seed (0: the book's own line), so that games between engines
    /// differ.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub book_vary: u32,
    /// Print one JSON object (with every game's moves) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Rule system: quantum (Quantum Chess), harmonics or haft. The engine plays the
    /// variants greedily.
    #[arg(long, default_value = "quantum", value_parser = crate::cli::variant_flag())]
    pub variant: RuleSet,
    /// Simulator backend (Quantum Chess).
    #[arg(long, default_value = "sparse", value_parser = crate::cli::backend_flag())]
    pub backend: BackendKind,
    /// Games played at once, each on its own thread (e.g. one per core). The games and
    /// the score are the same whatever the number; the times per move are not.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: u32,
    /// Both players on a clock: MIN+INC (minutes each, seconds added per move), e.g.
    /// 1+0; a player whose time runs out loses on time (listed with how the games
    /// ended). Default: none, each player thinks by its own limits.
    #[arg(long, value_name = "MIN+INC", value_parser = parse_clock_flag)]
    pub clock: Option<ClockFlag>,
}

/// A probability from 0 to 1.
fn probability(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!("\"{s}\" is not a probability from 0 to 1")),
    }
}

/// Runs `qchess match`: the report as text or JSON.
pub fn run(args: MatchArgs) -> Outcome {
    // Without it an external engine would outlive a Ctrl-C (default handling still
    // ends qchess if it cannot be set up).
    #[cfg(unix)]
    let _ = crate::uqci::client::end_all_on_signal();
    let played = play_match(&args);
    if let Some(status) = crate::uqci::client::exit_status_of_signal() {
        // Interrupted: the engines were ended, so the match's report is not the match.
        return Ok(Done::Exit(status));
    }
    played.map(Done::Print).map_err(Failure::new)
}

/// Plays the match; the report as text or JSON.
fn play_match(args: &MatchArgs) -> Result<String, MatchError> {
    let uci = UciSettings {
        depth: args.uci_depth,
        multipv: args.uci_multipv,
        vary_moves: args.uci_vary,
        margin_cp: args.uci_vary_cp,
    };
    let opts = MatchOptions {
        first: args.white.clone().with_uci(&uci),
        second: args.black.clone().with_uci(&uci),
        games: args.games,
        seed: args.seed,
        max_plies: args.max_plies,
        adjudicate_below: args.adjudicate_below,
        variant: args.variant,
        backend: args.backend,
        jobs: args.jobs,
        clock: args.clock.and_then(|c| c.0),
        book_vary: args.book_vary,
        start: None,
    };
    let bar = ProgressBar::new(args.games as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  {elapsed} (eta {eta})")
            .expect("the template is valid"),
    );
    bar.set_message(format!("{} vs {}", args.white, args.black));
    let (mut w, mut d, mut l) = (0, 0, 0);
    let report = run_match(&opts, &mut |g| {
        match g.result {
            Result1::Win => w += 1,
            Result1::Draw => d += 1,
            Result1::Loss => l += 1,
        }
        bar.set_message(format!("{} vs {}: +{w} ={d} -{l}", args.white, args.black));
        bar.inc(1);
    });
    bar.finish_and_clear();
    let report = report?;
    Ok(if args.json {
        format!("{}\n", report.to_json())
    } else {
        report.to_text()
    })
}
