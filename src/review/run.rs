//! Judging a game's positions: the engine searches the position before every ply (and
//! the last one), on several threads, each position on its own; the move played is
//! searched alone at the same depth when it is not the engine's best, so that its loss
//! compares two values of the same search. Where the line of either holds a move that
//! measures with a chance either way, the first such move's outcomes are searched each
//! and weighed by their chances as results: a chance of the king's capture counts as
//! that chance of a lost game, not as the engine's centipawns.
//!
//! Quantum Chess is judged by the engine's search at a level (deterministic: the same
//! game gives the same review on any machine; two plies of captures after the horizon
//! at every level) or for a time per position. The other rule systems (harmonics,
//! haft) have no search: every legal move is played on a copy and valued by their
//! greedy evaluation (king presence and expected material) after the other side's
//! greedy reply, two plies deep, the mean over [`VARIANT_TRIALS`] draws where a move
//! draws a random outcome.
//!
//! A stop (Esc, Ctrl-C) ends the work at once; the positions judged so far are kept,
//! and the next review of the game judges only the rest.

use super::expected::{from_side, of_status, rounded};
use super::{Judged, Review};
use crate::chess::{notation, Color, Game};
use crate::engine::eval::KING;
use crate::engine::level;
use crate::engine::search::{search, search_among, Limits, Report};
use crate::engine::variant::move_values_after_reply;
use crate::engine::weighed::{self, LineValue};
use crate::game::Playable;
use crate::variants::new_game;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Duration;

/// The seed of the review's searches (equal moves are chosen among by it).
const SEED: u64 = 0;

/// Draws a variant move's value is the mean over.
pub const VARIANT_TRIALS: u64 = 8;

/// How hard the engine looks at each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judge {
    /// The search of a level (1..5).
    Level(u8),
    /// A search of this long per position.
    Time(Duration),
}

impl Default for Judge {
    fn default() -> Self {
        Judge::Level(level::DEFAULT_LEVEL)
    }
}

impl Judge {
    /// Who judged, as a review records it: "qchess level 3", "qchess 500 ms per
    /// position", or "greedy" for the rule systems without a search.
    pub fn name(&self, game: &dyn Playable) -> String {
        if game.quantum().is_none() {
            return "greedy".into();
        }
        match self {
            Judge::Level(l) => level::name(*l),
            Judge::Time(t) => format!("qchess {} ms per position", t.as_millis()),
        }
    }

    /// The judge's search: a level judging ([`level::judging`]: its depth and budget of
    /// work, two plies of captures after the horizon, as hints search), or a time
    /// judge's (which has level 5's two plies): a capture at the horizon is judged with
    /// its recapture. With one ply, as levels 1 to 4 play, a defended piece taken on the
    /// last ply counted as won, and moves were marked off that. With two plies the
    /// judge marks fewer sound moves and agrees better with itself (the graph's change
    /// at a move plus its loss stays nearer 0), in about the same time
    /// (docs/measurements.md).
    pub fn limits(&self) -> Limits {
        match self {
            Judge::Level(l) => level::judging(*l, SEED),
            Judge::Time(t) => level::timed(*t, SEED),
        }
    }
}

/// Why a game could not be reviewed.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// The game's start or one of its moves does not replay.
    #[error("ply {ply} does not replay: {reason}")]
    Replay {
        /// The ply (0: the start).
        ply: usize,
        /// Why.
        reason: String,
    },
}

/// Reviews `game` (played to its end or not): judges every position `earlier` lacks
/// (all of them when `earlier` was judged by another judge or is `None`) on `threads`
/// threads; `progress` hears `(judged, to judge, the review so far)` after each
/// position. Once `stop` is set the work ends and the review holds what was judged.
pub fn review(
    game: &dyn Playable,
    judge: Judge,
    threads: usize,
    earlier: Option<Review>,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize, &Review),
) -> Result<Review, ReviewError> {
    let by = judge.name(game);
    let moves: Vec<String> = game.history().iter().map(|r| r.text.clone()).collect();
    let mut out = earlier
        .filter(|r| r.by == by && r.version == super::VERSION)
        .unwrap_or_else(|| Review::new(by, game.rules().review_marks()));
    let missing = out.missing(&moves);
    let jobs = positions(game, &moves, &missing, stop)?;
    let total = jobs.len();
    // Positions that no longer fit the moves go first.
    out.merge(&moves, Vec::new());
    progress(0, total, &out);
    let queue = Mutex::new(jobs);
    let limits = judge.limits();
    let (tx, rx) = mpsc::channel();
    let mut judged = 0;
    std::thread::scope(|s| {
        for _ in 0..threads.clamp(1, total.max(1)) {
            let tx = tx.clone();
            let queue = &queue;
            let limits = &limits;
            s.spawn(move || loop {
                let job = queue.lock().ok().and_then(|mut q| q.pop_front());
                let Some(job) = job else { break };
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                if let Some(j) = judge_one(job, limits, stop) {
                    if tx.send(j).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for j in rx {
            judged += 1;
            out.merge(&moves, vec![j]);
            progress(judged, total, &out);
        }
    });
    Ok(out)
}

/// A position to judge: its ply, the position, the move played from it.
struct Job {
    ply: usize,
    position: Box<dyn Playable>,
    played: Option<String>,
}

/// The positions at the plies `wanted`, replayed from the game's start.
fn positions(
    game: &dyn Playable,
    moves: &[String],
    wanted: &[usize],
    stop: &AtomicBool,
) -> Result<VecDeque<Job>, ReviewError> {
    let mut jobs = VecDeque::with_capacity(wanted.len());
    if wanted.is_empty() {
        return Ok(jobs);
    }
    let mut g = new_game(&game.setup()).map_err(|e| ReviewError::Replay {
        ply: 0,
        reason: e.to_string(),
    })?;
    let last = wanted.iter().copied().max().unwrap_or(0);
    for ply in 0..=last {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        if wanted.contains(&ply) {
            jobs.push_back(Job {
                ply,
                position: g.clone_box(),
                played: moves.get(ply).cloned(),
            });
        }
        if let Some(mv) = moves.get(ply).filter(|_| ply < last) {
            g.play(mv).map_err(|e| ReviewError::Replay {
                ply: ply + 1,
                reason: e.to_string(),
            })?;
        }
    }
    Ok(jobs)
}

/// The verdict on one position; `None` when the search was stopped before it ended.
fn judge_one(job: Job, limits: &Limits, stop: &AtomicBool) -> Option<Judged> {
    let p = job.position.as_ref();
    let mut judged = Judged {
        ply: job.ply,
        expected: 0.5,
        best: None,
        line: Vec::new(),
        played: job.played.clone(),
        played_expected: None,
        drawn_chance: None,
        other_expected: None,
        played_line: Vec::new(),
        best_cp: None,
        played_cp: None,
    };
    if let Some(result) = of_status(p.status()) {
        judged.expected = result;
        return Some(judged);
    }
    match p.quantum() {
        Some(g) => {
            judge_quantum(g, job.played.as_deref(), limits, stop, &mut judged)?;
            if let Some(played) = job.played.as_deref() {
                judge_other_outcome(g, played, limits, stop, &mut judged)?;
            }
        }
        None => judge_variant(p, job.played.as_deref(), &mut judged),
    }
    judged.expected = rounded(judged.expected);
    judged.played_expected = judged.played_expected.map(rounded);
    judged.other_expected = judged.other_expected.map(rounded);
    Some(judged)
}

fn judge_quantum(
    g: &Game,
    played: Option<&str>,
    limits: &Limits,
    stop: &AtomicBool,
    judged: &mut Judged,
) -> Option<()> {
    let (value, report) = best_value(g, limits, stop)?;
    judged.expected = value.expected;
    judged.best_cp = certain_cp(g, &value, &report);
    judged.best = report.best.clone();
    judged.line = report.info.pv.clone();
    let Some(played) = played.and_then(|t| notation::parse(t).ok()) else {
        return Some(());
    };
    let same = |t: &notation::MoveText| t.same_move(&played);
    let best_is_played = report
        .best
        .as_deref()
        .and_then(|b| notation::parse(b).ok())
        .is_some_and(|b| same(&b));
    if best_is_played {
        judged.played_expected = Some(judged.expected);
        judged.played_cp = judged.best_cp;
        return Some(());
    }
    let alone = search_among(g, limits, stop, &mut |_| {}, &same);
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if alone.best.is_some() {
        let value = weighed::line_value(g, &alone, limits, stop)?;
        judged.played_expected = Some(value.expected);
        judged.played_cp = certain_cp(g, &value, &alone);
        judged.played_line = alone.info.pv;
    }
    Some(())
}

/// The judge's view of `g` (a game going on): the value of its search's line with the
/// best move ([`weighed::line_value`]), and the search. `None` when stopped.
fn best_value(g: &Game, limits: &Limits, stop: &AtomicBool) -> Option<(LineValue, Report)> {
    let report = search(g, limits, stop, &mut |_| {});
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    Some((weighed::line_value(g, &report, limits, stop)?, report))
}

/// The search's score in whole centipawns for White, when its line is certain and no
/// king is at stake in it (under half the king's presence, [`KING`]: a line's captures
/// after the horizon may still take a split king by chance): what the review counts
/// material by (see [`crate::review::verdict`]).
fn certain_cp(g: &Game, value: &LineValue, report: &Report) -> Option<f64> {
    let cp = match g.to_move() {
        Color::White => report.info.score,
        Color::Black => -report.info.score,
    };
    (value.certain && cp.abs() < KING / 2.0).then_some(cp.round())
}

/// For a move played with a measurement: the chance of the outcome drawn, and the
/// position had the other been drawn, judged as a position of the game is. `None` when
/// stopped.
fn judge_other_outcome(
    g: &Game,
    played: &str,
    limits: &Limits,
    stop: &AtomicBool,
    judged: &mut Judged,
) -> Option<()> {
    let measured = notation::parse(played).is_ok_and(|t| t.outcome.is_some());
    let Some(outcomes) = measured.then(|| weighed::outcomes(g, played)).flatten() else {
        return Some(());
    };
    judged.drawn_chance = Some(rounded(outcomes[0].1));
    let Some((other, _)) = outcomes.get(1) else {
        return Some(());
    };
    judged.other_expected = Some(match of_status(other.status()) {
        Some(result) => result,
        None => best_value(other, limits, stop)?.0.expected,
    });
    Some(())
}

/// The greedy verdict on a variant position. A recorded move is the listed move with
/// the outcomes it drew written after it (`b1~d4.d4=n`).
fn judge_variant(p: &dyn Playable, played: Option<&str>, judged: &mut Judged) {
    let side = p.to_move();
    let seeds: Vec<u64> = (0..VARIANT_TRIALS).collect();
    let values = move_values_after_reply(p, &seeds);
    let best = values.iter().max_by(|a, b| a.1.total_cmp(&b.1));
    if let Some((mv, v)) = best {
        judged.expected = from_side(*v, side);
        judged.best = Some(mv.clone());
        judged.line = vec![mv.clone()];
    }
    judged.played_expected = played.and_then(|t| {
        let listed = t.split('.').next().unwrap_or(t);
        values
            .iter()
            .find(|(mv, _)| mv == t || mv == listed)
            .map(|(_, v)| from_side(*v, side))
    });
}
