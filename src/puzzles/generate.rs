//! Where the puzzles come from: engine self-play games, or the games of a PGN file
//! (classical games turned quantum by a few splits), scanned position by position for
//! decisive lines that the prover can prove.
//!
//! Every position of every game is a candidate for the tasks it could hold: "capture
//! the king in 1" when the side to move has a capture on a square of the other king,
//! "win the queen in 1" when it has one on a square of the other queen, "survive 1"
//! when its own king could be captured next move, the two-move king and queen tasks
//! when the position has few legal moves, and, up to the longest task asked for, the
//! three-move king and queen tasks and "survive 2" when it has fewer still. With
//! `twists`, a position where no piece is in superposition is also turned quantum: each
//! of a few splits of the side to move (spread over the list of its splits, or of its
//! king's with `king_twists`) is played, and the position after it is scanned the same
//! way, the other side solving. A
//! candidate is proved (within a budget of positions) and kept when
//!
//! * its value is at least `min_value`,
//! * one answer reaches the optimum (a split or merge in either order is one answer),
//!   and it beats every other first move by at least `min_margin`,
//! * a task of N moves is deeper than the task of N - 1 from the same position: worth
//!   more for king and queen (else it is the shorter puzzle again), and for survive
//!   its answer is not one of the shorter task's best moves,
//! * it has a quantum twist (unless `classical`): a piece in superposition, or a best
//!   move that splits or merges,
//! * it is at least `min_moves` long,
//! * it is new: no puzzle of the pack and no earlier find has the same state and task,
//!   nor the same FEN, task, answer and value (the same puzzle a move or two later).
//!
//! A position is stored as the last classical position of its game (a FEN) and the
//! moves played since, up to `max_setup` of them, and proved as set up from them (so
//! that the game's earlier positions, which repetition counts, play no part).

use super::goal::{queens, Goal, Task};
use super::pack::{position, Puzzle};
use super::prove::{answer_key, optimum_within, prove_within, Proof, ProveError, TIE};
use super::rating::rating;
use super::theme::theme;
use crate::chess::classify::Variant;
use crate::chess::movegen::{legal_moves, legal_moves_one_split_order};
use crate::chess::notation::parse;
use crate::chess::threat::king_threat;
use crate::chess::{Game, GameOptions, Kind, Shape, Square, Status};
use crate::game::RuleSet;
use crate::quantum::{BackendKind, CERTAIN_EPS};
use crate::record::pgn::file as pgn_file;
use crate::record::saved::RecordError;
use crate::seats::matches::{run_match, MatchError, MatchOptions};
use crate::seats::spec::PlayerSpec;
use std::collections::HashSet;
use std::path::PathBuf;

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
    /// Read the games of this PGN file instead of playing engine games.
    pub from_pgn: Option<PathBuf>,
    /// Play the engine games from the positions of this file (a FEN a line; `games`
    /// from each) instead of the start position.
    pub from_fen: Option<PathBuf>,
    /// Splits tried from each position without superposition (0: none).
    pub twists: usize,
    /// The twists split the king only.
    pub king_twists: bool,
    /// The longest task tried, in moves (1 to 3).
    pub moves: u32,
    /// The shortest task kept, in moves (1 to `moves`): the shorter ones are still
    /// proved, to tell whether a longer one is deeper, but not kept.
    pub min_moves: u32,
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
    /// The most legal moves of a position tried for three-move tasks and survive 2.
    pub deep_width: usize,
    /// Keep puzzles without a quantum twist.
    pub classical: bool,
}

/// What a run found.
#[derive(Debug, Default)]
pub struct Found {
    /// The new puzzles, ids not yet given.
    pub puzzles: Vec<Puzzle>,
    /// Games scanned.
    pub games: u32,
    /// Positions scanned.
    pub positions: u64,
    /// Proofs made.
    pub proofs: u64,
    /// Proofs given up for their size.
    pub too_large: u64,
    /// The games left out because they did not read or a move did not replay, with why
    /// (the others' finds are kept).
    pub skipped: Vec<String>,
}

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// The games could not be played.
    #[error("{0}")]
    Match(#[from] MatchError),
    /// The PGN file could not be read.
    #[error("{0}")]
    Pgn(#[from] RecordError),
    /// A game's moves did not replay.
    #[error("{game}: move {ply} does not replay: {why}")]
    Replay {
        /// The game.
        game: String,
        /// The ply.
        ply: usize,
        /// Why.
        why: String,
    },
    /// A puzzle of the pack does not set up.
    #[error("{0}")]
    Pack(#[from] super::pack::PackError),
    /// The file of start positions could not be read.
    #[error("{path}: {why}")]
    Starts {
        /// The file.
        path: String,
        /// Why, with the line.
        why: String,
    },
}

/// One game to scan: where it starts, its moves and where it came from.
struct Played {
    start: Game,
    moves: Vec<String>,
    source: String,
}

/// The games to scan: the engine games played, or the PGN file's games; with why, the
/// PGN file's games that do not read.
fn games(opts: &Options) -> Result<(Vec<Played>, Vec<String>), GenerateError> {
    if let Some(path) = &opts.from_pgn {
        let name = path.file_name().map_or(path.display().to_string(), |n| {
            n.to_string_lossy().into_owned()
        });
        let mut out = Vec::new();
        let mut unread = Vec::new();
        for summary in pgn_file::list(path)? {
            let saved = match pgn_file::load(path, Some(summary.number)) {
                Ok(saved) => saved,
                Err(e) => {
                    unread.push(e.to_string());
                    continue;
                }
            };
            let source = format!(
                "{name}, game {} ({} - {})",
                summary.number, summary.white, summary.black
            );
            let start = match &saved.start {
                Some(fen) => Game::from_fen(fen, GameOptions::default()).map_err(|e| {
                    GenerateError::Replay {
                        game: source.clone(),
                        ply: 0,
                        why: e.to_string(),
                    }
                })?,
                None => Game::standard(GameOptions::default()),
            };
            out.push(Played {
                start,
                moves: saved.moves,
                source,
            });
        }
        return Ok((out, unread));
    }
    let Some(path) = &opts.from_fen else {
        return Ok((engine_games(opts, None, opts.seed, "")?, Vec::new()));
    };
    let mut played = Vec::new();
    for (k, (line, fen, start)) in starts(path)?.into_iter().enumerate() {
        let seed = opts.seed.wrapping_add(k as u64 * opts.games as u64);
        let name = path.file_name().map_or(path.display().to_string(), |n| {
            n.to_string_lossy().into_owned()
        });
        let from = format!("{name} line {line}: ");
        played.extend(engine_games(opts, Some((&fen, start)), seed, &from)?);
    }
    Ok((played, Vec::new()))
}

/// The start positions of a file: a FEN a line (blank lines and lines from `#` left
/// out), each with its line number and its game.
fn starts(path: &std::path::Path) -> Result<Vec<(usize, String, Game)>, GenerateError> {
    let failed = |why: String| GenerateError::Starts {
        path: path.display().to_string(),
        why,
    };
    let text = std::fs::read_to_string(path).map_err(|e| failed(e.to_string()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let fen = line.trim();
        if fen.is_empty() || fen.starts_with('#') {
            continue;
        }
        let game = Game::from_fen(fen, GameOptions::default())
            .map_err(|e| failed(format!("line {}: {e}", i + 1)))?;
        out.push((i + 1, fen.to_string(), game));
    }
    if out.is_empty() {
        return Err(failed("no position in it (a FEN a line)".into()));
    }
    Ok(out)
}

/// The engine games of `opts` from `start` (a FEN and its game; the standard start
/// when `None`) with `seed`, their sources beginning with `from`.
fn engine_games(
    opts: &Options,
    start: Option<(&str, Game)>,
    seed: u64,
    from: &str,
) -> Result<Vec<Played>, GenerateError> {
    let report = run_match(
        &MatchOptions {
            first: opts.white.clone(),
            second: opts.black.clone(),
            games: opts.games,
            seed,
            max_plies: opts.max_plies,
            adjudicate_below: 0.01,
            variant: RuleSet::Quantum,
            backend: BackendKind::Sparse,
            jobs: opts.jobs,
            clock: None,
            book_vary: 0,
            start: start.as_ref().map(|(fen, _)| fen.to_string()),
        },
        &mut |_| {},
    )?;
    let start = start.map_or_else(|| Game::standard(GameOptions::default()), |(_, g)| g);
    let names = format!("{} vs {}", opts.white, opts.black);
    Ok(report
        .games
        .into_iter()
        .map(|record| Played {
            start: start.detached(),
            moves: record.moves,
            source: format!("{from}{names}, seed {seed}, game {}", record.index),
        })
        .collect())
}

/// Plays or reads the games and scans them; `existing` puzzles are not found again.
/// `progress` hears of each game scanned.
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
    let (games, unread) = games(opts)?;
    // Each worker scans the next game; the finds are put back in game order.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut scanned: Vec<(usize, Result<Scan, GenerateError>)> = Vec::new();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..opts.jobs.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(game) = games.get(i) else {
                            return out;
                        };
                        out.push((i, scan(opts, game)));
                        progress(i as u32);
                    }
                })
            })
            .collect();
        for w in workers {
            scanned.extend(w.join().expect("a scanning thread does not panic"));
        }
    });
    scanned.sort_by_key(|(i, _)| *i);
    let mut found = Found {
        games: games.len() as u32,
        skipped: unread,
        ..Found::default()
    };
    for (_, scan) in scanned {
        let scan = match scan {
            Ok(scan) => scan,
            Err(e) => {
                found.skipped.push(e.to_string());
                continue;
            }
        };
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

impl Scan {
    /// A search's result, or `None` when it failed; one that grew too large is counted.
    fn searched<T>(&mut self, result: Result<T, ProveError>) -> Option<T> {
        if matches!(result, Err(ProveError::TooLarge(_))) {
            self.too_large += 1;
        }
        result.ok()
    }
}

/// True when no square is in superposition.
fn classical(g: &Game) -> bool {
    Square::all().all(|s| !(CERTAIN_EPS..=1.0 - CERTAIN_EPS).contains(&g.probability(s)))
}

/// Replays a game and scans every position, the start's too (and their twists).
fn scan(opts: &Options, played: &Played) -> Result<Scan, GenerateError> {
    let mut out = Scan::default();
    let mut g = played.start.detached();
    let mut fen = g.fen();
    let mut setup: Vec<String> = Vec::new();
    if g.status() == Status::Ongoing && classical(&g) {
        let at = format!("{}, ply 0", played.source);
        scan_position(opts, &fen, &setup, &g, &at, &mut out);
    }
    for (i, m) in played.moves.iter().enumerate() {
        let replay = |why: String| GenerateError::Replay {
            game: played.source.clone(),
            ply: i + 1,
            why,
        };
        g.play(m).map_err(|e| replay(e.to_string()))?;
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
        // Proved as the pack sets it up: from the FEN, without the game's earlier
        // positions (which repetition would count).
        let position = position(&fen, &setup).map_err(replay)?;
        let at = format!("{}, ply {}", played.source, i + 1);
        scan_position(opts, &fen, &setup, &position, &at, &mut out);
    }
    Ok(out)
}

/// Examines `position` (set up as `setup` from `fen`) and, when it is classical, the
/// positions after its twists.
fn scan_position(
    opts: &Options,
    fen: &str,
    setup: &[String],
    position: &Game,
    at: &str,
    out: &mut Scan,
) {
    examine(opts, fen, setup, position, at, out);
    if !setup.is_empty() {
        return;
    }
    for split in twists(position, opts.twists, opts.king_twists) {
        let Ok((twisted, _)) = position.after(&split.text) else {
            continue;
        };
        if twisted.status() != Status::Ongoing {
            continue;
        }
        let twist = [split.text.to_string()];
        let at = format!("{at}, turned quantum by {}", twist[0]);
        examine(opts, fen, &twist, &twisted.detached(), &at, out);
    }
}

/// Up to `n` splits of the side to move in `g` (of its king only with `king`), spread
/// evenly over its list of splits (each in one order).
fn twists(g: &Game, n: usize, king: bool) -> Vec<crate::chess::Classified> {
    let splits: Vec<_> = legal_moves_one_split_order(g.state())
        .into_iter()
        .filter(|m| matches!(m.text.shape, Shape::Split { .. }))
        .filter(|m| !king || m.piece.kind == Kind::King)
        .collect();
    if n == 0 || splits.is_empty() {
        return Vec::new();
    }
    let step = (splits.len() as f64 / n as f64).max(1.0);
    (0..n.min(splits.len()))
        .map(|k| splits[(k as f64 * step) as usize])
        .collect()
}

/// Proves the candidate tasks of `position` (set up as `setup` from `fen`) and keeps
/// the puzzles found, with `at` as their source.
fn examine(opts: &Options, fen: &str, setup: &[String], position: &Game, at: &str, out: &mut Scan) {
    out.positions += 1;
    // Each task's optimum (king and queen), and the full proofs (survive's answers).
    let mut values: Vec<(Task, f64)> = Vec::new();
    let mut proved: Vec<(Task, Proof)> = Vec::new();
    for task in candidates(opts, position) {
        out.proofs += 1;
        let by_value = task.goal != Goal::Survive;
        if by_value && (task.moves < opts.min_moves || task.moves > 1) {
            // The optimum alone first: it is all a task proved only to compare a longer
            // one with needs, and a longer task is proved move by move only when it
            // is worth more than the shorter one.
            let Some(value) = out.searched(optimum_within(position, task, Some(opts.max_nodes)))
            else {
                continue;
            };
            values.push((task, value));
            if task.moves < opts.min_moves || value < opts.min_value {
                continue;
            }
            if task.moves > 1 && !worth_more(opts, position, task, value, &values) {
                continue;
            }
        }
        let Some(proof) = out.searched(prove_within(position, task, Some(opts.max_nodes))) else {
            continue;
        };
        if !values.iter().any(|(t, _)| *t == task) {
            values.push((task, proof.value));
        }
        proved.push((task, proof.clone()));
        if task.moves < opts.min_moves {
            continue;
        }
        if !by_value && task.moves > 1 && !another_answer(opts, position, task, &proof, &proved) {
            continue;
        }
        if !keep(opts, position, &proof) {
            continue;
        }
        let second = proof.second().unwrap_or(0.0);
        let puzzle = Puzzle {
            id: String::new(),
            fen: fen.to_string(),
            setup: setup.to_vec(),
            goal: task.goal,
            moves: task.moves,
            value: proof.value,
            best: proof.best.clone(),
            second,
            rating: rating(task.plies(), proof.first_moves.len(), proof.value - second),
            theme: theme(position, task.goal, &proof.line),
            line: proof.line.clone(),
            source: at.to_string(),
        };
        out.puzzles.push((position.state_hash(), puzzle));
    }
}

/// The task one move shorter than `task`.
fn shorter(task: Task) -> Task {
    Task {
        moves: task.moves - 1,
        ..task
    }
}

/// True when `value`, the optimum of king or queen `task` (N > 1 moves), is more than
/// the optimum of the task of N - 1 moves from the same position (in `values` or
/// proved now): else the puzzle is the shorter one again.
fn worth_more(opts: &Options, g: &Game, task: Task, value: f64, values: &[(Task, f64)]) -> bool {
    let shorter = shorter(task);
    let short = match values.iter().find(|(t, _)| *t == shorter) {
        Some(&(_, v)) => v,
        None => match optimum_within(g, shorter, Some(opts.max_nodes)) {
            Ok(v) => v,
            Err(ProveError::TooLarge(_)) => return false,
            // The shorter task has no line (no queen, no move): the longer one is new.
            Err(_) => return true,
        },
    };
    value > short + TIE
}

/// True when the answer of survive `task` (N > 1 moves) is not one of the best moves
/// of survive N - 1 from the same position (in `proved` or proved now).
fn another_answer(
    opts: &Options,
    g: &Game,
    task: Task,
    proof: &Proof,
    proved: &[(Task, Proof)],
) -> bool {
    let shorter = shorter(task);
    let found = proved.iter().find(|(t, _)| *t == shorter).map(|(_, p)| p);
    let fresh;
    let short = match found {
        Some(p) => p,
        None => match prove_within(g, shorter, Some(opts.max_nodes)) {
            Ok(p) => {
                fresh = p;
                &fresh
            }
            Err(ProveError::TooLarge(_)) => return false,
            Err(_) => return true,
        },
    };
    let key = |m: &String| parse(m).ok().map(|t| answer_key(&t));
    let answer = key(&proof.best[0]);
    !short.best.iter().any(|b| key(b) == answer)
}

/// The tasks worth proving in `g`, shorter first.
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
    let threatened = king_threat(g, g.to_move()).is_some();
    // The longer king and queen tasks only where the piece is within reach: a
    // capture of it now, or after one more move of the solver's.
    let near = |kind: Kind| captures_a(kind) || within_a_move(g, kind);
    let task = |goal, moves| Task { goal, moves };
    let mut tasks = Vec::new();
    if captures_a(Kind::King) {
        tasks.push(task(Goal::King, 1));
    }
    if has_queen && captures_a(Kind::Queen) {
        tasks.push(task(Goal::Queen, 1));
    }
    if threatened {
        tasks.push(task(Goal::Survive, 1));
    }
    for n in 2..=opts.moves.min(super::prove::MAX_MOVES) {
        let width = if n == 2 {
            opts.two_move_width
        } else {
            opts.deep_width
        };
        if moves.len() > width {
            continue;
        }
        if near(Kind::King) {
            tasks.push(task(Goal::King, n));
        }
        if has_queen && near(Kind::Queen) {
            tasks.push(task(Goal::Queen, n));
        }
        if n == 2 && threatened && moves.len() <= opts.deep_width {
            tasks.push(task(Goal::Survive, 2));
        }
    }
    tasks
}

/// True when the side to move in `g` could capture a piece of `kind` of the other
/// side's after one more move of its own (the other side passing): a move that does
/// not measure, or a measuring move with either outcome.
fn within_a_move(g: &Game, kind: Kind) -> bool {
    legal_moves_one_split_order(g.state()).iter().any(|m| {
        let outcomes: &[Option<bool>] = if m.measures() {
            &[Some(true), Some(false)]
        } else {
            &[None]
        };
        outcomes.iter().any(|&outcome| {
            let mut text = m.text;
            text.outcome = outcome;
            g.after(&text).is_ok_and(|(after, _)| {
                after.status() == Status::Ongoing && {
                    let mine = after.passed();
                    let st = mine.state();
                    legal_moves(st, false).iter().any(|c| match c.text.shape {
                        Shape::Standard { to, .. } => {
                            c.variant == Variant::Capture
                                && st.piece(to).is_some_and(|p| p.kind == kind)
                        }
                        _ => false,
                    })
                }
            })
        })
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn king_twists_split_the_king_only_and_all_of_its_splits() {
        let g = Game::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", GameOptions::default()).unwrap();
        let all = twists(&g, 100, false);
        let kings = twists(&g, 100, true);
        assert!(all.iter().any(|m| m.piece.kind == Kind::Rook));
        assert!(!kings.is_empty());
        assert!(kings.iter().all(|m| m.piece.kind == Kind::King));
        let king_splits = all.iter().filter(|m| m.piece.kind == Kind::King).count();
        assert_eq!(kings.len(), king_splits);
        assert_eq!(twists(&g, 2, true).len(), 2);
    }
}
