//! Matches between two players: games from the standard start with alternating
//! colours, and the statistics that measure strength (score, Elo difference with a 95%
//! interval, time per move).
//!
//! Decisions: game `i` (from 0) is played with the first player (`--white`) as White
//! when `i` is even; its measurements are drawn from `seed + i`, and each player's
//! choices from a seed mixed from the match seed, `i` and its slot, so a match is
//! reproducible and its games differ. A game still going after `max_plies` plies is
//! stopped ("unfinished") and adjudicated by the kings' presence: a side whose king is
//! present with probability under `adjudicate_below` (1% by default) loses it when the
//! other side's king is present at least that much; otherwise it is a draw (0 turns
//! adjudication off: every unfinished game is a draw). A side with no legal move draws.
//! A player whose move the game refuses loses that game, and so does an external engine
//! that crashes, hangs or answers nonsense during a game (as in engine tournaments). An
//! external engine that cannot be started is not a game: before any game has ended it
//! stops the match with its error (a wrong command fails at once, not a hundred times);
//! after that the game is left out of the score and listed as not played, so that one
//! slow start in a long match does not throw the match away or count as a win.

use super::PlayerSpec;
use crate::chess::board::{Kind, Piece};
use crate::chess::{Color, Status};
use crate::engine::choice::PlayerError;
use crate::engine::luck;
use crate::engine::tally::Tally;
use crate::game::clock::{Clock, TimeControl};
use crate::game::{PlayError, Playable, RuleSet, Setup};
use crate::quantum::BackendKind;
use crate::variants::new_game;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What a match plays.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchOptions {
    /// The first player (White in the even games).
    pub first: PlayerSpec,
    /// The second player.
    pub second: PlayerSpec,
    /// Number of games.
    pub games: u32,
    /// Seed of the measurements and the players' choices.
    pub seed: u64,
    /// A game is stopped after this many plies (then adjudicated).
    pub max_plies: u32,
    /// An unfinished game is lost by a side whose king is present with probability
    /// under this, when the other king is present at least this much (0: never).
    pub adjudicate_below: f64,
    /// Rule system.
    pub variant: RuleSet,
    /// Simulator backend (Quantum Chess).
    pub backend: BackendKind,
    /// Games played at once, each on its own thread (1: one after the other). The games
    /// and results do not depend on it; the times per move do (the games share the
    /// machine).
    pub jobs: u32,
    /// A time control both players play under (none: each player's own limits). A
    /// player whose clock runs out before it answers loses on time; the time the
    /// simulator takes to play a move is on nobody's clock.
    pub clock: Option<TimeControl>,
    /// Engine players with an opening book choose each of their first this many moves
    /// at random among the sound moves the book knows (0: the book's own line), so that
    /// games between engines do not repeat one another.
    pub book_vary: u32,
    /// The position every game starts from (FEN; `None`: the rule system's own start).
    pub start: Option<String>,
}

/// How one game ended, for the first player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result1 {
    /// The first player won.
    Win,
    /// A draw (finished or unfinished).
    Draw,
    /// The first player lost.
    Loss,
}

impl Result1 {
    /// The first player's points: 1, a half or 0.
    pub fn points(self) -> f64 {
        match self {
            Result1::Win => 1.0,
            Result1::Draw => 0.5,
            Result1::Loss => 0.0,
        }
    }
}

/// One game of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Index from 0.
    pub index: u32,
    /// Whether the first player had White.
    pub first_is_white: bool,
    /// The result for the first player.
    pub result: Result1,
    /// Plies played.
    pub plies: u32,
    /// Why it ended, in words.
    pub end: String,
    /// Stopped at the ply limit (then adjudicated).
    pub unfinished: bool,
    /// Unfinished and won or lost by the kings' presence.
    pub adjudicated: bool,
    /// How present each king was at the end: the first player's, then the second's
    /// (Quantum Chess; 1 in the variants).
    pub kings: [f64; 2],
    /// The kinds of moves the first and the second player made.
    pub tallies: [Tally; 2],
    /// The first player's measurement luck ([`luck`]): how much the outcomes drawn
    /// moved its expected result (Quantum Chess; `None` in the variants).
    pub luck: Option<f64>,
    /// The moves as played (canonical, with outcomes).
    pub moves: Vec<String>,
}

/// Median and maximum of one player's time per move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveTimes {
    /// Median.
    pub median: Duration,
    /// Maximum.
    pub max: Duration,
    /// Where the slowest move was: the game's index (from 0) and the plies played
    /// before it (`qchess analyze --moves` with that many of the game's moves, then
    /// `--best`, searches it again).
    pub slowest: Option<(u32, usize)>,
    /// Number of moves timed.
    pub moves: usize,
}

/// The time one move took: how long, in which game (index from 0), after how many
/// plies.
type Timed = (Duration, u32, usize);

/// The result of a match, for the first player.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchReport {
    /// The first player's name.
    pub first: String,
    /// The second player's name.
    pub second: String,
    /// Games won by the first player.
    pub wins: u32,
    /// Games drawn (unfinished ones included).
    pub draws: u32,
    /// Games lost by the first player.
    pub losses: u32,
    /// Games that reached the ply limit.
    pub unfinished: u32,
    /// Unfinished games won or lost by the kings' presence.
    pub adjudicated: u32,
    /// The kinds of moves the first and the second player made, over all games.
    pub tallies: [Tally; 2],
    /// Time per move of the first and of the second player.
    pub times: [MoveTimes; 2],
    /// Every game.
    pub games: Vec<GameRecord>,
    /// Games not played because a player could not be started: their index (from 0)
    /// and why.
    pub not_played: Vec<(u32, String)>,
}

/// A match's luck-adjusted score for the first player ([`MatchReport::adjusted`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Adjusted {
    /// The mean of the games' results less their luck.
    pub score: f64,
    /// The low end of its 95% interval.
    pub low: f64,
    /// The high end.
    pub high: f64,
    /// The first player's mean luck per game.
    pub luck: f64,
    /// How much of a game's result follows its luck, fitted over the match.
    pub beta: f64,
}

/// Why a match could not be played.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MatchError {
    /// The variant could not start.
    #[error("{0}")]
    Variant(#[from] PlayError),
    /// Zero games asked for.
    #[error("a match needs at least one game")]
    NoGames,
    /// A player could not be started for game `game` (from 0).
    #[error("{why}")]
    NotStarted {
        /// The game's index.
        game: u32,
        /// What happened, naming the player.
        why: String,
    },
}

/// The fewest games a luck-adjusted score is given for.
pub const ADJUSTED_GAMES: usize = 10;

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_964;

/// The Elo difference that a score (0..1) corresponds to; infinite at 0 and 1.
pub fn elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// A 95% interval for the expected score after `n` games scoring `score`: the Wilson
/// score interval (each game counted as one trial; draws as half a win, which makes the
/// interval slightly wider than it need be, never narrower). Finite at 0 and 1.
pub fn score_interval(score: f64, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let z2 = Z95 * Z95;
    let centre = (score + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (score * (1.0 - score) / n + z2 / (4.0 * n * n)).sqrt();
    // At a score of 0 or 1 one end is exactly 0 or 1; rounding would make it a huge
    // finite Elo.
    let snap = |x: f64| {
        if x < 1e-12 {
            0.0
        } else if x > 1.0 - 1e-12 {
            1.0
        } else {
            x
        }
    };
    (snap(centre - half), snap(centre + half))
}

impl MatchReport {
    /// Games played.
    pub fn played(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first player's score, 0..1 (a draw is half a point).
    pub fn score(&self) -> f64 {
        let n = self.played();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// The Elo difference (first minus second) and its 95% interval.
    pub fn elo(&self) -> (f64, f64, f64) {
        let (lo, hi) = score_interval(self.score(), self.played());
        (elo(self.score()), elo(lo), elo(hi))
    }

    /// The first player's luck-adjusted score ([`luck`]): the mean result less `beta`
    /// times the mean luck, `beta` fitted over the games (how much of a game's result
    /// follows its luck: the judge reads the outcomes' positions on its own scale),
    /// with a 95% interval (normal, from what the luck leaves of the results' spread,
    /// within 0..1).
    /// Luck has expectation 0, so this estimates the score with less noise. `None` in
    /// the variants, with fewer than [`ADJUSTED_GAMES`] games (too few to fit `beta`
    /// and read a spread), and when every game had the same result (nothing to take
    /// luck out of: the plain score's interval says more).
    pub fn adjusted(&self) -> Option<Adjusted> {
        let pairs: Vec<(f64, f64)> = self
            .games
            .iter()
            .map(|g| g.luck.map(|l| (g.result.points(), l)))
            .collect::<Option<_>>()?;
        let n = pairs.len() as f64;
        if n < ADJUSTED_GAMES as f64 || pairs.iter().all(|p| p.0 == pairs[0].0) {
            return None;
        }
        let mean = |f: &dyn Fn(&(f64, f64)) -> f64| pairs.iter().map(f).sum::<f64>() / n;
        let (result, luck) = (mean(&|p| p.0), mean(&|p| p.1));
        let spread = mean(&|p| (p.1 - luck).powi(2));
        let beta = match spread > 0.0 {
            true => mean(&|p| (p.0 - result) * (p.1 - luck)) / spread,
            false => 0.0,
        };
        let score = result - beta * luck;
        // What is left of each result once its luck's part is taken out.
        let left = mean(&|p| (p.0 - result - beta * (p.1 - luck)).powi(2)) * n / (n - 2.0);
        let half = Z95 * (left / n).sqrt();
        // A score lies in 0..1, so its interval does too.
        Some(Adjusted {
            score,
            low: (score - half).max(0.0),
            high: (score + half).min(1.0),
            luck,
            beta,
        })
    }

    /// The report as one JSON object (an infinite Elo is `null`).
    pub fn to_json(&self) -> Value {
        let finite = |x: f64| {
            if x.is_finite() {
                json!(x.round())
            } else {
                Value::Null
            }
        };
        let (e, lo, hi) = self.elo();
        let times = |t: &MoveTimes| {
            json!({
                "median_ms": t.median.as_secs_f64() * 1e3,
                "max_ms": t.max.as_secs_f64() * 1e3,
                "slowest_game": t.slowest.map(|(g, _)| g + 1),
                "slowest_ply": t.slowest.map(|(_, p)| p),
                "moves": t.moves,
            })
        };
        json!({
            "first": self.first,
            "second": self.second,
            "games": self.played(),
            "not_played": self.not_played.iter().map(|(i, why)| json!({"game": i + 1, "why": why})).collect::<Vec<_>>(),
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "unfinished": self.unfinished,
            "adjudicated": self.adjudicated,
            "score": self.score(),
            "luck_adjusted": self.adjusted().map(|a| json!({
                "score": a.score,
                "low": a.low,
                "high": a.high,
                "mean_luck": a.luck,
                "beta": a.beta,
            })),
            "moves": {"first": tally_json(&self.tallies[0]), "second": tally_json(&self.tallies[1])},
            "elo": finite(e),
            "elo_low": finite(lo),
            "elo_high": finite(hi),
            "time_per_move": {"first": times(&self.times[0]), "second": times(&self.times[1])},
            "results": self.games.iter().map(|g| json!({
                "game": g.index + 1,
                "first_is_white": g.first_is_white,
                "result": match g.result { Result1::Win => "win", Result1::Draw => "draw", Result1::Loss => "loss" },
                "plies": g.plies,
                "end": g.end,
                "unfinished": g.unfinished,
                "adjudicated": g.adjudicated,
                "kings": {"first": g.kings[0], "second": g.kings[1]},
                "tallies": {"first": tally_json(&g.tallies[0]), "second": tally_json(&g.tallies[1])},
                "luck": g.luck,
                "moves": g.moves,
            })).collect::<Vec<_>>(),
        })
    }

    /// The report for people.
    /// Why the games ended, each reason once with its count, the commonest first:
    /// "a king was captured with certainty (17), unfinished after 300 plies (3)".
    fn ends(&self) -> Option<String> {
        let mut counts: Vec<(&str, usize)> = Vec::new();
        for g in &self.games {
            match counts.iter_mut().find(|(end, _)| *end == g.end) {
                Some((_, n)) => *n += 1,
                None => counts.push((&g.end, 1)),
            }
        }
        // Stable: equal counts keep the order of their first game.
        counts.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
        (!counts.is_empty()).then(|| {
            counts
                .iter()
                .map(|(end, n)| format!("{end} ({n})"))
                .collect::<Vec<_>>()
                .join(", ")
        })
    }

    pub fn to_text(&self) -> String {
        let signed = |x: f64| {
            if x.is_finite() {
                // Rounded first, so that -0.3 reads +0, not -0.
                format!("{:+}", x.round() as i64)
            } else if x > 0.0 {
                "+inf".into()
            } else {
                "-inf".into()
            }
        };
        let ms = |d: Duration| format!("{:.1} ms", d.as_secs_f64() * 1e3);
        let (e, lo, hi) = self.elo();
        let games = match self.played() {
            1 => "1 game".to_string(),
            n => format!("{n} games"),
        };
        let mut s = format!(
            "{} vs {}: {games}, +{} ={} -{} ({} unfinished, {} of them adjudicated by the kings' presence)\n",
            self.first,
            self.second,
            self.wins,
            self.draws,
            self.losses,
            self.unfinished,
            self.adjudicated
        );
        s.push_str(&format!(
            "score {:.1}%, Elo difference {} (95% interval {} .. {})\n",
            self.score() * 100.0,
            signed(e),
            signed(lo),
            signed(hi)
        ));
        if let Some(a) = self.adjusted() {
            s.push_str(&format!(
                "luck-adjusted score {:.1}% (95% interval {:.1}% .. {:.1}%): the score with the measurements' luck taken out (luck {:+.3} points a game, weighed {:.2})\n",
                a.score * 100.0,
                a.low * 100.0,
                a.high * 100.0,
                a.luck,
                a.beta
            ));
        }
        if let Some(ends) = self.ends() {
            s.push_str(&format!("how the games ended: {ends}\n"));
        }
        for (i, why) in &self.not_played {
            s.push_str(&format!(
                "game {} not played, left out of the score: {why}\n",
                i + 1
            ));
        }
        let pct = |p: f64| format!("{:.3}%", p * 100.0);
        let kings: Vec<String> = self
            .games
            .iter()
            .filter(|g| g.unfinished)
            .map(|g| {
                format!(
                    "game {} {}/{}",
                    g.index + 1,
                    pct(g.kings[0]),
                    pct(g.kings[1])
                )
            })
            .collect();
        if !kings.is_empty() {
            s.push_str(&format!(
                "kings' presence in the unfinished games ({}/{}): {}\n",
                self.first,
                self.second,
                kings.join(", ")
            ));
        }
        for (name, t) in [
            (&self.first, &self.tallies[0]),
            (&self.second, &self.tallies[1]),
        ] {
            s.push_str(&format!("moves, {name}: {}\n", tally_text(t)));
        }
        for (name, t) in [
            (&self.first, &self.times[0]),
            (&self.second, &self.times[1]),
        ] {
            let at = t
                .slowest
                .map(|(g, p)| format!(" in game {} after ply {p}", g + 1))
                .unwrap_or_default();
            s.push_str(&format!(
                "time per move, {name}: median {}, max {}{at} ({} moves)\n",
                ms(t.median),
                ms(t.max),
                t.moves
            ));
        }
        s
    }
}

/// A tally as a JSON object.
fn tally_json(t: &Tally) -> Value {
    json!({
        "moves": t.moves,
        "splits": t.splits,
        "king_splits": t.king_splits,
        "king_splits_attacked": t.king_splits_attacked,
        "measuring": t.measuring,
        "failed": t.failed,
        "gambles": t.gambles,
    })
}

/// A tally in words.
fn tally_text(t: &Tally) -> String {
    format!(
        "{} played, {} splits ({} of the king, {} of them while it was attacked), {} measuring ({} failed, {} under an even chance)",
        t.moves, t.splits, t.king_splits, t.king_splits_attacked, t.measuring, t.failed, t.gambles
    )
}

/// How present the king of `color` is (1 in the variants).
fn king_presence(board: &dyn Playable, color: Color) -> f64 {
    let Some(g) = board.quantum() else {
        return 1.0;
    };
    g.state()
        .register
        .pieces()
        .filter(|(_, p)| *p == Piece::new(color, Kind::King))
        .map(|(s, _)| g.probability(s))
        .sum()
}

/// The result of an unfinished game for the first player, from the kings' presence
/// (the first player's, the second's); whether it was adjudicated.
pub fn adjudicate(kings: [f64; 2], below: f64) -> (Result1, bool) {
    match (kings[0] < below, kings[1] < below) {
        (true, false) => (Result1::Loss, true),
        (false, true) => (Result1::Win, true),
        _ => (Result1::Draw, false),
    }
}

fn mix(seed: u64, game: u32, slot: u64) -> u64 {
    let mut x = seed ^ (game as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ slot << 61;
    // splitmix64's finaliser
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

fn median_max(mut v: Vec<Timed>) -> MoveTimes {
    v.sort();
    let slowest = v.last().copied();
    MoveTimes {
        median: v.get(v.len() / 2).map(|t| t.0).unwrap_or_default(),
        max: slowest.map(|t| t.0).unwrap_or_default(),
        slowest: slowest.map(|(_, game, ply)| (game, ply)),
        moves: v.len(),
    }
}

/// Plays a move, counted in `tally`; the canonical text played and White's luck in it
/// ([`luck::of_move`], 0 in the variants), or why it was refused.
fn play_counted(
    game: &mut dyn Playable,
    mv: &str,
    tally: &mut Tally,
) -> Result<(String, f64), String> {
    let before = game.quantum().map(|g| g.detached());
    let played = game.play(mv).map_err(|e| e.to_string())?;
    let mut white_luck = 0.0;
    if let (Some(before), Some(after)) = (before, game.quantum()) {
        if let Some(last) = after.history().last() {
            tally.add(before.state(), last);
            white_luck = luck::of_move(&before, last, after);
        }
    }
    Ok((played.text, white_luck))
}

/// What a game has played so far: its moves, each player's tally, White's luck
/// (Quantum Chess only).
struct SoFar {
    moves: Vec<String>,
    tallies: [Tally; 2],
    white_luck: Option<f64>,
}

/// Plays game `index` of a match; the move times of each player go to `times`.
fn play_game(
    opts: &MatchOptions,
    index: u32,
    times: &mut [Vec<Timed>; 2],
) -> Result<GameRecord, MatchError> {
    let first_is_white = index.is_multiple_of(2);
    let game_seed = opts.seed.wrapping_add(index as u64);
    let mut setup = Setup::with_start(opts.variant, opts.start.as_deref(), game_seed);
    setup.options.simulator.backend = opts.backend;
    let mut board = new_game(&setup)?;
    let mut players = [
        opts.first
            .build_varied(mix(opts.seed, index, 1), opts.book_vary),
        opts.second
            .build_varied(mix(opts.seed, index, 2), opts.book_vary),
    ];
    let mut so_far = SoFar {
        moves: Vec::new(),
        tallies: [Tally::default(); 2],
        white_luck: board.quantum().map(|_| 0.0),
    };
    let mut clock = opts.clock.map(Clock::new);
    let first_color = if first_is_white {
        Color::White
    } else {
        Color::Black
    };
    // `end: None` = stopped at the ply limit.
    let record = |result, end: Option<String>, so_far: SoFar, board: &dyn Playable| {
        let kings = [first_color, first_color.opposite()].map(|c| king_presence(board, c));
        let (result, adjudicated) = match end {
            Some(_) => (result, false),
            None => adjudicate(kings, opts.adjudicate_below),
        };
        let unfinished = match adjudicated {
            true => format!(
                "unfinished after {} plies, adjudicated (a king under {}% present)",
                opts.max_plies,
                opts.adjudicate_below * 100.0
            ),
            false => format!("unfinished after {} plies", opts.max_plies),
        };
        GameRecord {
            index,
            first_is_white,
            result,
            plies: so_far.moves.len() as u32,
            unfinished: end.is_none(),
            adjudicated,
            kings,
            tallies: so_far.tallies,
            luck: so_far
                .white_luck
                .map(|l| if first_is_white { l } else { -l }),
            end: end.unwrap_or(unfinished),
            moves: so_far.moves,
        }
    };
    loop {
        let first_to_move = (board.to_move() == Color::White) == first_is_white;
        let slot = if first_to_move { 0 } else { 1 };
        match board.status() {
            Status::Ongoing => {}
            Status::Draw => {
                return Ok(record(
                    Result1::Draw,
                    Some(board.end_reason().unwrap_or_default()),
                    so_far,
                    board.as_ref(),
                ))
            }
            won => {
                let first_won = (won == Status::WhiteWins) == first_is_white;
                let r = if first_won {
                    Result1::Win
                } else {
                    Result1::Loss
                };
                return Ok(record(
                    r,
                    Some(board.end_reason().unwrap_or_default()),
                    so_far,
                    board.as_ref(),
                ));
            }
        }
        if so_far.moves.len() as u32 >= opts.max_plies {
            return Ok(record(Result1::Draw, None, so_far, board.as_ref()));
        }
        let t = Instant::now();
        let side = board.to_move();
        let answer = match &mut clock {
            Some(c) => {
                c.start(side, t);
                players[slot]
                    .think_on_clock(board.as_ref(), &c.times(t))
                    .wait()
            }
            None => players[slot].think(board.as_ref()).wait(),
        };
        let answered = Instant::now();
        times[slot].push((answered - t, index, so_far.moves.len()));
        let loses = if first_to_move {
            Result1::Loss
        } else {
            Result1::Win
        };
        if let Some(c) = &mut clock {
            if c.flag(answered) == Some(side) {
                let end = format!("{} lost on time", players[slot].name());
                return Ok(record(loses, Some(end), so_far, board.as_ref()));
            }
            c.moved(side, answered);
        }
        match answer {
            Ok(choice) => match play_counted(board.as_mut(), &choice.mv, &mut so_far.tallies[slot])
            {
                Ok((played, luck)) => {
                    so_far.moves.push(played);
                    if let Some(total) = &mut so_far.white_luck {
                        *total += luck;
                    }
                }
                Err(why) => {
                    let name = players[slot].name();
                    let end = format!("{name} played \"{}\", which was refused: {why}", choice.mv);
                    return Ok(record(loses, Some(end), so_far, board.as_ref()));
                }
            },
            Err(PlayerError::NoMove) => {
                let end = Some("no legal move".into());
                return Ok(record(Result1::Draw, end, so_far, board.as_ref()));
            }
            Err(PlayerError::NotStarted(why)) => {
                return Err(MatchError::NotStarted { game: index, why });
            }
            Err(e) => {
                let end = format!("{}: {e}", players[slot].name());
                return Ok(record(loses, Some(end), so_far, board.as_ref()));
            }
        }
    }
}

/// Plays a match; `on_game` hears of every finished game, in the order they end (the
/// report lists them in the order of their index).
pub fn run_match(
    opts: &MatchOptions,
    on_game: &mut dyn FnMut(&GameRecord),
) -> Result<MatchReport, MatchError> {
    if opts.games == 0 {
        return Err(MatchError::NoGames);
    }
    let mut times = [Vec::new(), Vec::new()];
    let mut report = MatchReport {
        first: opts.first.build(0).name(),
        second: opts.second.build(0).name(),
        wins: 0,
        draws: 0,
        losses: 0,
        unfinished: 0,
        adjudicated: 0,
        tallies: [Tally::default(); 2],
        times: [MoveTimes::default(); 2],
        games: Vec::new(),
        not_played: Vec::new(),
    };
    // Workers take the next game's index until none is left; this thread hears of
    // each game as it ends, in the order they end.
    let next = AtomicU32::new(0);
    let mut failure = None;
    std::thread::scope(|scope| {
        let (tx, finished) = mpsc::channel();
        for _ in 0..opts.jobs.clamp(1, opts.games) {
            let (tx, next) = (tx.clone(), &next);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= opts.games {
                    break;
                }
                let mut t = [Vec::new(), Vec::new()];
                let game = play_game(opts, i, &mut t);
                // A player that could not be started may start for the next game;
                // this thread decides whether the match goes on.
                let failed =
                    matches!(game, Err(ref e) if !matches!(e, MatchError::NotStarted { .. }));
                if tx.send((game, t)).is_err() || failed {
                    break;
                }
            });
        }
        drop(tx);
        for (game, [a, b]) in finished {
            let g = match game {
                Ok(g) => g,
                Err(MatchError::NotStarted { game, why }) if !report.games.is_empty() => {
                    report.not_played.push((game, why));
                    continue;
                }
                Err(e) => {
                    // No new games; those under way end and are dropped.
                    next.store(opts.games, Ordering::Relaxed);
                    failure.get_or_insert(e);
                    continue;
                }
            };
            match g.result {
                Result1::Win => report.wins += 1,
                Result1::Draw => report.draws += 1,
                Result1::Loss => report.losses += 1,
            }
            if g.unfinished {
                report.unfinished += 1;
            }
            if g.adjudicated {
                report.adjudicated += 1;
            }
            for (sum, t) in report.tallies.iter_mut().zip(g.tallies) {
                *sum = sum.plus(t);
            }
            times[0].extend(a);
            times[1].extend(b);
            on_game(&g);
            report.games.push(g);
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    report.games.sort_by_key(|g| g.index);
    report.not_played.sort_by_key(|&(i, _)| i);
    let [a, b] = times;
    report.times = [median_max(a), median_max(b)];
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A match of the greedy player against the random one: `games` games from `seed`
    /// on, each cut at `max_plies`, one at a time, on the sparse backend.
    fn greedy_against_random(games: u32, seed: u64, max_plies: u32) -> MatchOptions {
        MatchOptions {
            first: PlayerSpec::Greedy,
            second: PlayerSpec::Random,
            games,
            seed,
            max_plies,
            adjudicate_below: 0.01,
            variant: RuleSet::Quantum,
            backend: BackendKind::Sparse,
            jobs: 1,
            clock: None,
            book_vary: 0,
            start: None,
        }
    }

    #[test]
    fn elo_of_scores() {
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.75) - 190.848).abs() < 1e-3);
        assert!((elo(0.25) + 190.848).abs() < 1e-3);
        assert_eq!(elo(1.0), f64::INFINITY);
        let (lo, hi) = score_interval(0.5, 100);
        assert!(
            (lo - 0.404).abs() < 1e-3 && (hi - 0.596).abs() < 1e-3,
            "{lo} {hi}"
        );
        let (lo, hi) = score_interval(1.0, 100);
        assert!(lo > 0.96 && lo < 0.97 && hi == 1.0, "{lo}");
    }

    #[test]
    fn an_even_score_reads_plus_zero() {
        let r = MatchReport {
            first: "a".into(),
            second: "b".into(),
            wins: 1,
            draws: 0,
            losses: 1,
            unfinished: 0,
            adjudicated: 0,
            tallies: [Tally::default(); 2],
            times: [MoveTimes::default(); 2],
            games: Vec::new(),
            not_played: Vec::new(),
        };
        let text = r.to_text();
        assert!(text.contains("Elo difference +0 (95% interval -"), "{text}");
        assert!(!text.contains("how the games ended"), "no games: {text}");
    }

    #[test]
    fn the_report_says_how_the_games_ended() {
        let game = |end: &str| GameRecord {
            index: 0,
            first_is_white: true,
            result: Result1::Draw,
            plies: 0,
            end: end.into(),
            unfinished: false,
            adjudicated: false,
            kings: [1.0, 1.0],
            tallies: [Tally::default(); 2],
            luck: None,
            moves: Vec::new(),
        };
        let r = MatchReport {
            first: "a".into(),
            second: "b".into(),
            wins: 0,
            draws: 4,
            losses: 0,
            unfinished: 0,
            adjudicated: 0,
            tallies: [Tally::default(); 2],
            times: [MoveTimes::default(); 2],
            games: [
                "fifty moves",
                "unfinished after 9 plies",
                "unfinished after 9 plies",
                "x",
            ]
            .map(game)
            .to_vec(),
            not_played: vec![(4, "the engine \"sf\" could not be started".into())],
        };
        assert!(
            r.to_text().contains(
                "how the games ended: unfinished after 9 plies (2), fifty moves (1), x (1)\n"
            ),
            "{}",
            r.to_text()
        );
        assert!(r.to_text().starts_with("a vs b: 4 games, +0 =4 -0"));
        assert!(
            r.to_text().contains(
                "game 5 not played, left out of the score: the engine \"sf\" could not be started\n"
            ),
            "{}",
            r.to_text()
        );
        assert_eq!(r.to_json()["not_played"][0]["game"], 5);
    }

    #[test]
    fn an_unfinished_game_goes_to_the_side_with_a_king() {
        assert_eq!(adjudicate([0.5, 0.009], 0.01), (Result1::Win, true));
        assert_eq!(adjudicate([1e-12, 1.0], 0.01), (Result1::Loss, true));
        assert_eq!(adjudicate([0.02, 0.5], 0.01), (Result1::Draw, false));
        assert_eq!(adjudicate([0.001, 0.001], 0.01), (Result1::Draw, false));
        assert_eq!(adjudicate([0.0, 1.0], 0.0), (Result1::Draw, false), "off");
    }

    #[test]
    fn a_short_match_alternates_colours() {
        let opts = greedy_against_random(2, 9, 12);
        let mut seen = 0;
        let r = run_match(&opts, &mut |_| seen += 1).unwrap();
        assert_eq!(seen, 2);
        assert_eq!(r.played(), 2);
        assert!(r.games[0].first_is_white && !r.games[1].first_is_white);
        assert!(r.games.iter().all(|g| g.plies <= 12));
        assert_eq!(
            r.times[0].moves + r.times[1].moves,
            r.games.iter().map(|g| g.plies as usize).sum::<usize>()
        );
        // Each side's slowest move is one of its own moves, in a game that had it.
        for (first, t) in [(true, r.times[0]), (false, r.times[1])] {
            let (game, ply) = t.slowest.expect("a slowest move");
            let g = &r.games[game as usize];
            assert!(ply < g.plies as usize, "{ply} of {}", g.plies);
            let white_moved = ply.is_multiple_of(2);
            assert_eq!(
                white_moved == g.first_is_white,
                first,
                "game {game} ply {ply}"
            );
        }
        let text = r.to_text();
        assert!(text.contains(" after ply "), "{text}");
        assert_eq!(
            run_match(&opts, &mut |_| {}).unwrap().games,
            r.games,
            "reproducible"
        );
    }

    #[test]
    fn engines_varying_the_book_play_different_openings() {
        let openings = |book_vary| {
            let opts = MatchOptions {
                first: PlayerSpec::Engine(2),
                second: PlayerSpec::Engine(2),
                games: 8,
                seed: 11,
                max_plies: 6,
                adjudicate_below: 0.01,
                variant: RuleSet::Quantum,
                backend: BackendKind::Sparse,
                jobs: 2,
                clock: None,
                book_vary,
                start: None,
            };
            let r = run_match(&opts, &mut |_| {}).unwrap();
            let lines: std::collections::HashSet<Vec<String>> =
                r.games.into_iter().map(|g| g.moves).collect();
            lines.len()
        };
        // The book's own line differs by White's first move only (four of them).
        assert!(openings(0) <= 4, "{}", openings(0));
        assert!(openings(3) >= 6, "{}", openings(3));
    }

    #[test]
    fn games_played_at_once_are_the_games_played_in_turn() {
        let opts = greedy_against_random(5, 3, 16);
        let one = run_match(&opts, &mut |_| {}).unwrap();
        let mut heard = Vec::new();
        let three = run_match(&MatchOptions { jobs: 3, ..opts }, &mut |g| {
            heard.push(g.index)
        })
        .unwrap();
        assert_eq!(three.games, one.games);
        assert_eq!(
            (three.wins, three.draws, three.losses),
            (one.wins, one.draws, one.losses)
        );
        assert_eq!(three.times[0].moves, one.times[0].moves);
        heard.sort();
        assert_eq!(heard, [0, 1, 2, 3, 4], "each game heard of once");
    }

    #[test]
    fn a_match_takes_the_measurements_luck_out_of_its_score() {
        use crate::chess::{Game, GameOptions};
        let opts = MatchOptions {
            first: PlayerSpec::Random,
            second: PlayerSpec::Random,
            games: 10,
            seed: 21,
            max_plies: 60,
            adjudicate_below: 0.01,
            variant: RuleSet::Quantum,
            backend: BackendKind::Sparse,
            jobs: 2,
            clock: None,
            book_vary: 0,
            start: None,
        };
        let r = run_match(&opts, &mut |_| {}).unwrap();
        // Each game's luck is its moves' luck, replayed, from the first player's side.
        let mut measured = 0;
        for g in &r.games {
            let mut game = Game::standard(GameOptions::default());
            let mut white = 0.0;
            for mv in &g.moves {
                let before = game.detached();
                let played = game.play(mv).expect("the game replays").clone();
                if played.p1.is_some_and(|p| p > 0.0 && p < 1.0) {
                    measured += 1;
                }
                white += luck::of_move(&before, &played, &game);
            }
            let first = if g.first_is_white { white } else { -white };
            let luck = g.luck.expect("Quantum Chess has luck");
            assert!(
                (luck - first).abs() < 1e-9,
                "game {}: {luck} {first}",
                g.index
            );
        }
        assert!(
            measured > 0,
            "no measurement of chance either way: nothing tested"
        );
        assert!(r.games.iter().any(|g| g.luck != Some(0.0)));
        let a = r.adjusted().expect("ten games, not all alike");
        // The score less beta times the mean luck; beta the slope of result on luck.
        let points: Vec<(f64, f64)> = r
            .games
            .iter()
            .map(|g| (g.result.points(), g.luck.unwrap_or(0.0)))
            .collect();
        let luck = points.iter().map(|p| p.1).sum::<f64>() / 10.0;
        assert!((a.luck - luck).abs() < 1e-12);
        assert!((a.score - (r.score() - a.beta * luck)).abs() < 1e-12);
        // No other beta leaves less of the results' spread.
        let left = |b: f64| {
            let e: Vec<f64> = points.iter().map(|p| p.0 - b * p.1).collect();
            let m = e.iter().sum::<f64>() / 10.0;
            e.iter().map(|x| (x - m).powi(2)).sum::<f64>()
        };
        assert!(left(a.beta) <= left(a.beta + 0.1) && left(a.beta) <= left(a.beta - 0.1));
        assert!(a.low <= a.score && a.score <= a.high);
        let text = r.to_text();
        assert!(text.contains("luck-adjusted score"), "{text}");
        let v = r.to_json();
        assert_eq!(v["luck_adjusted"]["score"].as_f64(), Some(a.score));
        assert_eq!(v["results"][0]["luck"].as_f64(), r.games[0].luck);
    }

    #[test]
    fn the_games_start_from_the_start_position_given() {
        use crate::chess::{Game, GameOptions};
        let start = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
        let opts = MatchOptions {
            start: Some(start.into()),
            ..greedy_against_random(2, 8, 12)
        };
        let r = run_match(&opts, &mut |_| {}).unwrap();
        for g in &r.games {
            let mut game = Game::from_fen(start, GameOptions::default()).unwrap();
            assert!(!g.moves.is_empty());
            for m in &g.moves {
                game.play(m)
                    .unwrap_or_else(|e| panic!("{m}: {e} in {:?}", g.moves));
            }
        }
        let bad = MatchOptions {
            start: Some("4k3/8 w".into()),
            ..opts
        };
        assert!(run_match(&bad, &mut |_| {}).is_err());
    }

    #[test]
    fn the_variants_have_no_luck_adjusted_score() {
        let opts = MatchOptions {
            variant: RuleSet::Harmonics,
            ..greedy_against_random(2, 4, 10)
        };
        let r = run_match(&opts, &mut |_| {}).unwrap();
        assert!(r.games.iter().all(|g| g.luck.is_none()));
        assert_eq!(r.adjusted(), None);
        assert!(!r.to_text().contains("luck-adjusted"));
        assert!(r.to_json()["luck_adjusted"].is_null());
    }

    #[test]
    fn the_luck_adjusted_score_fits_the_results_to_their_luck() {
        let game = |result, luck| GameRecord {
            index: 0,
            first_is_white: true,
            result,
            plies: 10,
            end: String::new(),
            unfinished: false,
            adjudicated: false,
            kings: [1.0, 1.0],
            tallies: [Tally::default(); 2],
            luck: Some(luck),
            moves: Vec::new(),
        };
        let report = |games: Vec<GameRecord>| MatchReport {
            first: "a".into(),
            second: "b".into(),
            wins: games.iter().filter(|g| g.result == Result1::Win).count() as u32,
            draws: games.iter().filter(|g| g.result == Result1::Draw).count() as u32,
            losses: games.iter().filter(|g| g.result == Result1::Loss).count() as u32,
            unfinished: 0,
            adjudicated: 0,
            tallies: [Tally::default(); 2],
            times: [MoveTimes::default(); 2],
            games,
            not_played: Vec::new(),
        };
        // A lucky win, an unlucky loss and two draws: the slope of result on luck is
        // 1.5, the luck averages 0, so the score stays 0.5 with a narrower interval.
        let thrice =
            |four: [GameRecord; 4]| four.iter().cycle().take(12).cloned().collect::<Vec<_>>();
        let r = report(thrice([
            game(Result1::Win, 0.3),
            game(Result1::Loss, -0.3),
            game(Result1::Draw, 0.1),
            game(Result1::Draw, -0.1),
        ]));
        let a = r.adjusted().expect("twelve games");
        assert!((a.beta - 1.5).abs() < 1e-12, "{a:?}");
        assert!(
            (a.score - 0.5).abs() < 1e-12 && a.luck.abs() < 1e-12,
            "{a:?}"
        );
        // Residuals 0.05, -0.05, -0.15, 0.15 three times: 0.15 over 12 - 2 games.
        let half = Z95 * (0.015f64 / 12.0).sqrt();
        assert!((a.high - 0.5 - half).abs() < 1e-12 && (0.5 - a.low - half).abs() < 1e-12);
        let (lo, hi) = score_interval(r.score(), 12);
        assert!(a.high - a.low < hi - lo, "narrower than the plain score's");
        // Luck that went one way is taken out: two lucky wins and two draws.
        let r = report(thrice([
            game(Result1::Win, 0.4),
            game(Result1::Win, 0.4),
            game(Result1::Draw, 0.0),
            game(Result1::Draw, 0.0),
        ]));
        let a = r.adjusted().expect("twelve games");
        assert!(
            (a.beta - 1.25).abs() < 1e-12 && (a.score - 0.5).abs() < 1e-12,
            "{a:?}"
        );
        // Eleven wins and a draw, the luck telling nothing: the interval ends at 100%.
        let lucks = [
            0.0, 0.1, -0.1, 0.2, -0.2, 0.0, 0.1, -0.1, 0.3, -0.3, 0.0, 0.0,
        ];
        let mut games: Vec<GameRecord> = lucks.iter().map(|&l| game(Result1::Win, l)).collect();
        games[11].result = Result1::Draw;
        let a = report(games).adjusted().expect("twelve games");
        assert!((a.score - 23.0 / 24.0).abs() < 1e-12, "{a:?}");
        assert_eq!(a.high, 1.0, "{a:?}");
        assert!(a.low > 0.8 && a.low < a.score, "{a:?}");
        // Too few games, or no spread of results to explain.
        assert_eq!(
            report(thrice([0.1, 0.2, 0.3, 0.1].map(|l| game(Result1::Win, l)))).adjusted(),
            None
        );
        assert_eq!(report(r.games[..9].to_vec()).adjusted(), None);
    }
}
