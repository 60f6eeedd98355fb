//! Where the puzzles come from: engine self-play games, scanned position by position
//! for decisive lines that the prover can prove.
//!
//! Every position of every game is a candidate for the tasks it could hold: "capture
//! the king in 1" when the side to move has a capture on a square of the other king,
//! "win the queen in 1" when it has one on a square of the other queen, "survive 1"
//! when its own king could be captured next move, and the two-move king and queen
//! tasks when the position has few legal moves. A candidate is proved (within a budget
//! of positions) and kept when
//!
//! * its value is at least `min_value`,
//! * one answer reaches the optimum (a split or merge in either order is one answer),
//!   and it beats every other first move by at least `min_margin`,
//! * the two-move task is worth more than the one-move task from the same position
//!   (else it is the one-move puzzle again),
//! * it has a quantum twist (unless `classical`): a piece in superposition, or a best
//!   move that splits or merges,
//! * it is new: no puzzle of the pack and no earlier find has the same state and task,
//!   nor the same FEN, task, answer and value (the same puzzle a move or two later).
//!
//! A position is stored as the last classical position of its game (a FEN) and the
//! moves played since, up to `max_setup` of them, and proved as set up from them (so
//! that the game's earlier positions, which repetition counts, play no part).

use super::goal::{queens, Goal, Task};
use super::pack::{position, Puzzle};
use super::prove::{answer_key, prove_within, Proof, ProveError, TIE};
use super::rating::rating;
use crate::chess::classify::Variant;
use crate::chess::movegen::legal_moves;
use crate::chess::notation::parse;
use crate::chess::threat::king_threat;
use crate::chess::{Game, GameOptions, Kind, Shape, Square, Status};
use crate::game::RuleSet;
use crate::quantum::{BackendKind, CERTAIN_EPS};
use crate::seats::matches::{run_match, GameRecord, MatchError, MatchOptions};
use crate::seats::spec::PlayerSpec;
use std::collections::HashSet;

/// What to play and what to keep.
#[derive(Clone, Debug)]
pub struct Options {
    /// White in the even games.
    pub white: PlayerSpec,
    /// Black in the even games.
    pub black: PlayerSpec,
    /// Games to play.
    pub games: u32,
    /// Seed of the games (game i uses seed + i).
    pub seed: u64,
    /// Games stop after this many plies.
    pub max_plies: u32,
    /// Threads playing games and proving.
    pub jobs: u32,
    /// The least value kept.
    pub min_value: f64,
    /// The least margin of the best answer over every other first move.
    pub min_margin: f64,
    /// Positions one proof may play.
    pub max_nodes: u64,
    /// The longest setup (moves since the last classical position).
    pub max_setup: usize,
    /// The most legal moves of a position tried for two-move tasks.
    pub two_move_width: usize,
    /// Keep puzzles without a quantum twist.
    pub classical: bool,
}

/// What a run found.
#[derive(Debug, Default)]
pub struct Found {
    /// The new puzzles, ids not yet given.
    pub puzzles: Vec<Puzzle>,
    /// Positions scanned.
    pub positions: u64,
    /// Proofs made.
    pub proofs: u64,
    /// Proofs given up for their size.
    pub too_large: u64,
}

/// Why a run failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GenerateError {
    /// The games could not be played.
    #[error("{0}")]
    Match(#[from] MatchError),
    /// A game's moves did not replay.
    #[error("game {game}: move {ply} does not replay: {why}")]
    Replay {
        /// The game's index.
        game: u32,
        /// The ply.
        ply: usize,
        /// Why.
        why: String,
    },
    /// A puzzle of the pack does not set up.
    #[error("{0}")]
    Pack(#[from] super::pack::PackError),
}

/// Plays the games and scans them; `existing` puzzles are not found again. `progress`
/// hears of each game scanned.
pub fn generate(
    opts: &Options,
    existing: &[Puzzle],
    progress: &(dyn Fn(u32) + Sync),
) -> Result<Found, GenerateError> {
    let mut seen = HashSet::new();
    let mut answered = HashSet::new();
    for p in existing {
        seen.insert((p.game()?.state_hash(), p.task()));
        answered.insert(same_answer(p));
    }
    let report = run_match(
        &MatchOptions {
            first: opts.white.clone(),
            second: opts.black.clone(),
            games: opts.games,
            seed: opts.seed,
            max_plies: opts.max_plies,
            adjudicate_below: 0.01,
            variant: RuleSet::Quantum,
            backend: BackendKind::Sparse,
            jobs: opts.jobs,
            clock: None,
            book_vary: 0,
        },
        &mut |_| {},
    )?;
    let names = format!("{} vs {}", opts.white, opts.black);
    // Each worker scans the next game; the finds are put back in game order.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut scanned: Vec<(u32, Result<Scan, GenerateError>)> = Vec::new();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..opts.jobs.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(record) = report.games.get(i) else {
                            return out;
                        };
                        let source = format!("{names}, seed {}, game {}", opts.seed, i);
                        out.push((record.index, scan(opts, record, &source)));
                        progress(record.index);
                    }
                })
            })
            .collect();
        for w in workers {
            scanned.extend(w.join().expect("a scanning thread does not panic"));
        }
    });
    scanned.sort_by_key(|(i, _)| *i);
    let mut found = Found::default();
    for (_, scan) in scanned {
        let scan = scan?;
        found.positions += scan.positions;
        found.proofs += scan.proofs;
        found.too_large += scan.too_large;
        for (hash, puzzle) in scan.puzzles {
            if seen.insert((hash, puzzle.task())) && answered.insert(same_answer(&puzzle)) {
                found.puzzles.push(puzzle);
            }
        }
    }
    Ok(found)
}

/// What makes two puzzles the same puzzle a move apart: the same FEN, task, answer and
/// value (the game went on a move or two, and the answer did not change).
fn same_answer(p: &Puzzle) -> (String, Task, String, u64) {
    let answer = parse(&p.best[0]).map_or(p.best[0].clone(), |t| answer_key(&t).to_string());
    let value = (p.value / TIE).round() as u64;
    (p.fen.clone(), p.task(), answer, value)
}

/// One game's finds, each with its state's hash.
#[derive(Default)]
struct Scan {
    puzzles: Vec<(u64, Puzzle)>,
    positions: u64,
    proofs: u64,
    too_large: u64,
}

/// True when no square is in superposition.
fn classical(g: &Game) -> bool {
    Square::all().all(|s| !(CERTAIN_EPS..=1.0 - CERTAIN_EPS).contains(&g.probability(s)))
}

/// Replays a game and scans every position.
fn scan(opts: &Options, record: &GameRecord, source: &str) -> Result<Scan, GenerateError> {
    let mut out = Scan::default();
    let mut g = Game::standard(GameOptions::default());
    let mut fen = g.fen();
    let mut setup: Vec<String> = Vec::new();
    for (i, m) in record.moves.iter().enumerate() {
        g.play(m).map_err(|e| GenerateError::Replay {
            game: record.index,
            ply: i + 1,
            why: e.to_string(),
        })?;
        if g.status() != Status::Ongoing {
            break;
        }
        if classical(&g) {
            fen = g.fen();
            setup.clear();
        } else {
            setup.push(m.clone());
        }
        if setup.len() > opts.max_setup || g.fifty_counter() > 90 {
            continue;
        }
        out.positions += 1;
        // Proved as the pack sets it up: from the FEN, without the game's earlier
        // positions (which repetition would count).
        let position = position(&fen, &setup).map_err(|why| GenerateError::Replay {
            game: record.index,
            ply: i + 1,
            why,
        })?;
        let at = format!("{source}, ply {}", i + 1);
        for task in candidates(opts, &position) {
            out.proofs += 1;
            let proof = match prove_within(&position, task, Some(opts.max_nodes)) {
                Ok(p) => p,
                Err(ProveError::TooLarge(_)) => {
                    out.too_large += 1;
                    continue;
                }
                Err(_) => continue,
            };
            if task.moves == 2 {
                // Worth a second move only if it beats the one-move task.
                let one = Task { moves: 1, ..task };
                let shorter = prove_within(&position, one, Some(opts.max_nodes));
                if shorter.is_ok_and(|s| s.value >= proof.value - TIE) {
                    continue;
                }
            }
            if keep(opts, &position, &proof) {
                let puzzle = Puzzle {
                    id: String::new(),
                    fen: fen.clone(),
                    setup: setup.clone(),
                    goal: task.goal,
                    moves: task.moves,
                    value: proof.value,
                    best: proof.best.clone(),
                    second: proof.second().unwrap_or(0.0),
                    rating: rating(
                        task.plies(),
                        proof.first_moves.len(),
                        proof.value - proof.second().unwrap_or(0.0),
                    ),
                    line: proof.line.clone(),
                    source: at.clone(),
                };
                out.puzzles.push((position.state_hash(), puzzle));
            }
        }
    }
    Ok(out)
}

/// The tasks worth proving in `g`.
fn candidates(opts: &Options, g: &Game) -> Vec<Task> {
    let moves = legal_moves(g.state(), false);
    let st = g.state();
    let captures_a = |kind: Kind| {
        moves.iter().any(|m| {
            let Shape::Standard { to, .. } = m.text.shape else {
                return false;
            };
            m.variant == Variant::Capture && st.piece(to).is_some_and(|p| p.kind == kind)
        })
    };
    let has_queen = queens(g, g.to_move().opposite()) > 0.0;
    let mut tasks = Vec::new();
    if captures_a(Kind::King) {
        tasks.push(Task {
            goal: Goal::King,
            moves: 1,
        });
    }
    if has_queen && captures_a(Kind::Queen) {
        tasks.push(Task {
            goal: Goal::Queen,
            moves: 1,
        });
    }
    if king_threat(g, g.to_move()).is_some() {
        tasks.push(Task {
            goal: Goal::Survive,
            moves: 1,
        });
    }
    if moves.len() <= opts.two_move_width {
        tasks.push(Task {
            goal: Goal::King,
            moves: 2,
        });
        if has_queen {
            tasks.push(Task {
                goal: Goal::Queen,
                moves: 2,
            });
        }
    }
    tasks
}

/// True when a proof makes a puzzle (see the module's list).
fn keep(opts: &Options, g: &Game, proof: &Proof) -> bool {
    if proof.value < opts.min_value || proof.answers() != 1 {
        return false;
    }
    let Some(second) = proof.second() else {
        return false;
    };
    if proof.value - second < opts.min_margin {
        return false;
    }
    opts.classical || !classical(g) || splits_or_merges(&proof.best[0])
}

/// True for a split or a merge.
fn splits_or_merges(mv: &str) -> bool {
    parse(mv).is_ok_and(|t| !matches!(answer_key(&t).shape, Shape::Standard { .. }))
}
