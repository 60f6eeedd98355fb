//! Expectimax search over the exact state.
//!
//! * **Decision nodes**: the side to move picks the move of highest value (negamax: a
//!   value is always for the side to move), alpha-beta pruned.
//! * **Chance nodes**: a move that measures (a capture or an excluded move) has two
//!   children, its outcomes 1 and 0 (`.m1`, `.m0`), played on copies of the game with the
//!   outcome forced; the move's value is `p1 * v1 + p0 * v0`, with `p1` the probability
//!   the game reports for outcome 1. An outcome of probability 0 or 1 leaves one child.
//! * **Star1 pruning** at chance nodes: every value lies in `[L, U] = [-WIN, WIN]` (see
//!   `eval.rs`). After outcome 1 is searched, the move's value lies in
//!   `[p1 v1 + p0 L, p1 v1 + p0 U]`; if that interval is outside the window the second
//!   outcome is not searched. Each outcome is searched with the window that makes this
//!   test exact: outcome 1 within `[(alpha - p0 U) / p1, (beta - p0 L) / p1]`, outcome 0
//!   within `[(alpha - p1 v1) / p0, (beta - p1 v1) / p0]`, clamped to `[L, U]`. This is
//!   sound for any evaluation that respects the bounds; it cuts little when the bounds
//!   are wide, and most moves do not measure, so most pruning is plain alpha-beta.
//!   (Star2's probing is not done: a chance node here has only two children.)
//! * **Principal variation search**: a node's first move gets the full window, the others
//!   a null window first, and the full one again only when they beat alpha. Late quiet
//!   moves at 3 or more plies before the horizon are searched a ply shallower first
//!   (late-move reduction).
//! * **Late-move pruning** ([`Limits::late_moves`]): 1, 2 and 3 plies before the
//!   horizon only the first few quiet moves (in move order) are tried; three times as
//!   many when the side's own king is in danger, and every king move. This and the
//!   reductions are the only unsound pruning (they may miss a quiet move's value); with
//!   `late_moves: 0`, no quiescence and no check extension the search returns the plain
//!   expectimax value (a test checks it).
//! * **Check extension** ([`Limits::extend_checks`], the levels): a move that leaves the other side's king attacked as a whole
//!   ([`king_threat`] 1: a king on one square attacked by a certain piece along a clear
//!   path, or every half of a split king attacked) is searched one ply deeper, within
//!   the first `2 * depth` plies of the line: a mating net of checks (each check, its
//!   answer, and the capture that ends it) is seen at the depths of the levels.
//! * **Quiescence**: below the horizon the side to move may stop (the static value) or
//!   try captures, for a few plies ([`Limits::quiescence`]): the four largest expected
//!   gains among captures taking at least half a pawn or any part of a king, and none
//!   that cannot lift the value to alpha (delta pruning).
//! * **Iterative deepening** to [`Limits::depth`], within a node or work budget and an
//!   optional time budget, with a stop flag checked at every node. Work counts a node by
//!   the size of the state it reaches (1, plus 1 per [`WORK_BRANCHES`] branches summed
//!   over the state's factors): a node of a late endgame whose pieces are split over
//!   many squares costs the simulator a hundred times what a middlegame node does, and a
//!   level's budget of work keeps it to seconds there, where a budget of nodes took
//!   minutes (in states under [`WORK_BRANCHES`] branches the two are the same). Listing
//!   a node's moves costs too, 1 unit per move per [`LISTING_BRANCHES`] branches. The
//!   previous iteration's best move is searched first; when the budget runs out in the
//!   middle of an iteration, a move that already beat it at the new depth is taken, else
//!   the previous iteration's. A search stopped before its first iteration ends returns the first
//!   move in the static order, so there is always a legal move to play.
//! * **Move order**: the transposition table's move, captures by expected value taken,
//!   promotions, king threats, escapes of pieces that stand to be lost and threats to
//!   pieces worth more than the mover (tactical, so never pruned late: level 3 once
//!   walked into pawn forks and left attacked knights, never having tried the quiet
//!   move that mattered), two killer moves per ply, the history of cut-offs, then splits
//!   and merges.
//! * **Transposition table** keyed by [`Game::state_hash`] (the classical part and the
//!   quantum state's signature, which the simulator caches per factor and repetition
//!   computes anyway; a rare miss between two equal states only costs a search).
//! * **Determinism**: the root moves are shuffled with the seed before the (stable) sort
//!   by order key, so equal moves are chosen among by the seed; nothing else is random,
//!   and a search limited by depth or nodes gives the same move, score and node count
//!   every time, in every run: the simulator sums probabilities in a fixed order (its
//!   hash maps have a fixed seed), so even their last bits repeat, and a near-tie is
//!   decided the same way in every run. A time budget or the stop flag make it depend
//!   on the clock.
//!
//! Decisions where the rules give no answer to a search:
//! * A game ended by the 50-move rule or by repetition measures the board at random:
//!   a side wins when its king stays and the other's goes, else it is a draw. The search
//!   scores it by the kings' presence just before: `WIN * (p_own - p_other)`, the
//!   expected result (`P(own stays, other goes) - P(other stays, own goes)`, which is
//!   `p_own - p_other` however the two kings are entangled). Its moves are played with
//!   [`Game::look_ahead`], which leaves such a board unmeasured: measuring every square
//!   of a large state cost more than the rest of the search.
//! * A side with no legal move scores 0 (the rules have no stalemate; `match` counts
//!   such a game as a draw).
//! * Wins are scored `WIN - ply` so a quicker win is preferred; the table stores values
//!   as they are (an error of a few plies against a `WIN` of 30,000).

use super::eval::{evaluate, in_check, king_threat, Style, WIN};
use super::moves::{candidates, capture_gain, captures, order_key, Context, KING_DANGER, TACTICAL};
use super::tt::{Bound, Entry, Table};
use crate::chess::{Classified, Color, EndReason, Game, Kind, MoveError, MoveText, Shape, Status};
use crate::quantum::QuantumError;
use crate::seeded::SeededRng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Deepest ply a search goes (quiescence included).
pub const MAX_PLY: usize = 64;

/// Branches (summed over the factors) that cost one unit of work more per node.
pub const WORK_BRANCHES: usize = 256;

/// Branches (summed over the factors) that cost one unit of work more per move listed
/// at a node: listing and ordering a node's moves asks the state about each of them,
/// which in a late endgame of thousands of branches costs more than playing them, and a
/// budget that did not count it let level 5 think for minutes on one move.
/// Eight times [`WORK_BRANCHES`], so states under 2,048 branches search as before.
pub const LISTING_BRANCHES: usize = 8 * WORK_BRANCHES;

/// What a search may spend, and how it evaluates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Deepest iteration (plies before quiescence).
    pub depth: u32,
    /// Node budget (moves played on copies of the game), if any.
    pub nodes: Option<u64>,
    /// Work budget, if any: each node costs 1 plus 1 per [`WORK_BRANCHES`] branches of
    /// the state it reaches (what the levels use).
    pub work: Option<u64>,
    /// Time budget, if any (makes the result depend on the clock).
    pub movetime: Option<Duration>,
    /// Plies of captures searched after the horizon.
    pub quiescence: u32,
    /// Late-move pruning: at 1, 2 and 3 plies before the horizon, only this many, 1.5
    /// times and twice this many quiet moves are tried (0: all).
    pub late_moves: u32,
    /// Which evaluation terms.
    pub style: Style,
    /// Search a move that checks one ply deeper (the check extension; off: plain
    /// expectimax to the depth).
    pub extend_checks: bool,
    /// Seed for choosing among equal moves.
    pub seed: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: 3,
            nodes: None,
            work: None,
            movetime: None,
            quiescence: 2,
            late_moves: 0,
            style: Style::Full,
            extend_checks: false,
            seed: 0,
        }
    }
}

/// Progress of a search, reported after every finished iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    /// Depth of the iteration.
    pub depth: u32,
    /// Value for the side to move, in centipawns.
    pub score: f64,
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub time: Duration,
    /// The best line: moves in canonical notation, a measured move with the outcome
    /// the line assumes (the more likely one).
    pub pv: Vec<String>,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The move to play, canonical, without an outcome; `None` when there is no legal
    /// move (or the game is over).
    pub best: Option<String>,
    /// The last finished iteration (depth 0 and the static value when none finished).
    pub info: Info,
}

const INF: f64 = f64::INFINITY;

/// Captures tried at a quiescence node (the largest expected gains).
const QUIESCENCE_CAPTURES: usize = 4;

/// Moves of a node searched at full depth before late-move reductions start.
const FULL_DEPTH_MOVES: usize = 3;

/// Width of a null window (centipawns).
const NULL_WINDOW: f64 = 0.01;

/// Delta pruning's margin: what a capture may gain beyond the material it takes.
const DELTA_MARGIN: f64 = 200.0;

struct Searcher<'a> {
    limits: &'a Limits,
    stop: &'a AtomicBool,
    start: Instant,
    nodes: u64,
    work: u64,
    aborted: bool,
    tt: Table,
    killers: [[Option<MoveText>; 2]; MAX_PLY],
    history: Vec<f64>,
}

/// Searches `game` for the side to move. `on_info` hears of every finished iteration;
/// setting `stop` ends the search at once with the best move so far.
pub fn search(
    game: &Game,
    limits: &Limits,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&Info),
) -> Report {
    search_among(game, limits, stop, on_info, &|_| true)
}

/// [`search`] over the root moves `keep` accepts only (UQCI's `go searchmoves`); no
/// move is found when it accepts none.
pub fn search_among(
    game: &Game,
    limits: &Limits,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&Info),
    keep: &dyn Fn(&MoveText) -> bool,
) -> Report {
    let start = Instant::now();
    let root = game.detached();
    // About two slots per node the search may visit (at 100,000 nodes a second when
    // timed), 2^12..2^20 slots.
    let budget = match (limits.nodes.or(limits.work), limits.movetime) {
        (Some(n), _) => n,
        (None, Some(t)) => t.as_millis() as u64 * 100,
        (None, None) => 1 << 15,
    };
    let log2 = (64 - (2 * budget).leading_zeros()).clamp(12, 20);
    let mut s = Searcher {
        limits,
        stop,
        start,
        nodes: 0,
        work: 0,
        aborted: false,
        tt: Table::new(log2),
        killers: [[None; 2]; MAX_PLY],
        history: vec![0.0; 64 * 64],
    };
    let mut info = Info {
        depth: 0,
        score: evaluate(&root, limits.style),
        nodes: 0,
        time: Duration::ZERO,
        pv: Vec::new(),
    };
    if root.status() != Status::Ongoing {
        return Report { best: None, info };
    }
    let mut moves = candidates(&root);
    // A position with one move needs no deeper look to choose it; one move kept by
    // `keep` (a review valuing the move played, `go searchmoves`) is searched to the
    // full depth like any other.
    let forced = moves.len() == 1;
    moves.retain(|m| keep(&m.text));
    s.charge_listing(&root, moves.len());
    SeededRng::new(limits.seed).shuffle(&mut moves);
    let cx = Context::of(&root);
    let keys: Vec<f64> = moves.iter().map(|m| order_key(&root, m, &cx)).collect();
    let mut order: Vec<usize> = (0..moves.len()).collect();
    order.sort_by(|&a, &b| keys[b].total_cmp(&keys[a]));
    let mut moves: Vec<Classified> = order.into_iter().map(|i| moves[i]).collect();
    let Some(first) = moves.first() else {
        return Report { best: None, info };
    };
    let mut best = first.text;
    for depth in 1..=limits.depth.max(1) {
        let mut alpha = -INF;
        let mut found: Option<(usize, f64, Vec<MoveText>)> = None;
        let mut scores = vec![-INF; moves.len()];
        for (i, m) in moves.iter().enumerate() {
            let mut pv = Vec::new();
            let late = i >= FULL_DEPTH_MOVES && !m.measures() && m.text.promotion.is_none();
            let Some(v) = s.search_move(&root, m, depth as i32, 0, (alpha, INF), late, &mut pv)
            else {
                continue;
            };
            if s.aborted {
                break;
            }
            scores[i] = v;
            if v > alpha {
                alpha = v;
                found = Some((i, v, pv));
            }
        }
        let Some((i, v, pv)) = found else {
            break;
        };
        best = moves[i].text;
        if s.aborted {
            if i != 0 {
                // Beat the previous best at the new depth: better than what we had.
                info.score = v;
                info.pv = pv.iter().map(|m| m.to_string()).collect();
            }
            break;
        }
        info = Info {
            depth,
            score: v,
            nodes: s.nodes,
            time: start.elapsed(),
            pv: pv.iter().map(|m| m.to_string()).collect(),
        };
        on_info(&info);
        // Next iteration: the best first, then by this iteration's values.
        let mut order: Vec<usize> = (0..moves.len()).collect();
        order.sort_by(|&a, &b| {
            (b == i)
                .cmp(&(a == i))
                .then(scores[b].total_cmp(&scores[a]))
        });
        moves = order.into_iter().map(|k| moves[k]).collect();
        let decided = v.abs() >= WIN - MAX_PLY as f64;
        let half_time = limits.movetime.is_some_and(|t| start.elapsed() * 2 > t);
        if decided || forced || half_time {
            break;
        }
    }
    info.nodes = s.nodes;
    info.time = start.elapsed();
    let mut text = best;
    text.outcome = None;
    Report {
        best: Some(text.to_string()),
        info,
    }
}

/// The value of a finished game for its side to move.
fn terminal(g: &Game, ply: usize) -> f64 {
    let win = WIN - ply as f64;
    match (g.status(), g.end_reason(), g.to_move()) {
        (_, Some(EndReason::FiftyMoves | EndReason::Repetition), side) => {
            // Scored before the board's random measurement: the expected result.
            let for_white = win * g.expected_measured_result().unwrap_or(0.0);
            if side == Color::White {
                for_white
            } else {
                -for_white
            }
        }
        (Status::WhiteWins, _, Color::White) | (Status::BlackWins, _, Color::Black) => win,
        (Status::WhiteWins | Status::BlackWins, _, _) => -win,
        _ => 0.0,
    }
}

fn is_quiet(m: &Classified) -> bool {
    !m.measures() && m.text.promotion.is_none()
}

fn history_index(m: &MoveText) -> usize {
    let (from, to) = match m.shape {
        Shape::Standard { from, to } => (from, to),
        Shape::Split { from, to1, .. } => (from, to1),
        Shape::Merge { from1, to, .. } => (from1, to),
    };
    from.index() * 64 + to.index()
}

impl Searcher<'_> {
    /// True when the budget is spent or the search was stopped.
    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        let nodes = self.limits.nodes.is_some_and(|n| self.nodes >= n)
            || self.limits.work.is_some_and(|w| self.work >= w);
        let time = self.nodes.is_multiple_of(64)
            && self
                .limits
                .movetime
                .is_some_and(|t| self.start.elapsed() >= t);
        if nodes || time || self.stop.load(Ordering::Relaxed) {
            self.aborted = true;
        }
        self.aborted
    }

    /// Charges the work of listing and ordering `moves` moves of `g` (see
    /// [`LISTING_BRANCHES`]).
    fn charge_listing(&mut self, g: &Game, moves: usize) {
        if self.limits.work.is_some() {
            let branches = g.simulator().backend().branch_total();
            self.work += (moves * (branches / LISTING_BRANCHES)) as u64;
        }
    }

    /// Plays `m` (with `outcome` forced) on a copy of `g`: the child and the probability
    /// of outcome 1 before the measurement (if the move measured).
    fn play(
        &mut self,
        g: &Game,
        m: &Classified,
        outcome: Option<bool>,
    ) -> Result<(Game, Option<f64>), MoveError> {
        self.nodes += 1;
        let mut text = m.text;
        text.outcome = outcome;
        let child = g.look_ahead(&text);
        // Counted only for a budget of work: the dense backend counts its branches by
        // reading every amplitude.
        if self.limits.work.is_some() {
            let branches = child
                .as_ref()
                .map_or(0, |(c, _)| c.simulator().backend().branch_total());
            self.work += 1 + (branches / WORK_BRANCHES) as u64;
        }
        child
    }

    /// The value of move `m` from `g` for the side to move: one child, or both outcomes
    /// of its measurement weighted by their probabilities. `None` when the move can't
    /// be played (a simulator limit).
    #[allow(clippy::too_many_arguments)]
    fn chance(
        &mut self,
        g: &Game,
        m: &Classified,
        depth: i32,
        ply: usize,
        alpha: f64,
        beta: f64,
        pv: &mut Vec<MoveText>,
    ) -> Option<f64> {
        let mut line = Vec::new();
        let with = |outcome: Option<bool>, line: Vec<MoveText>| {
            let mut t = m.text;
            t.outcome = outcome;
            std::iter::once(t).chain(line).collect::<Vec<_>>()
        };
        if !m.measures() {
            let (child, _) = self.play(g, m, None).ok()?;
            let d = self.child_depth(&child, depth, ply);
            let v = -self.negamax(&child, d, ply + 1, -beta, -alpha, &mut line);
            *pv = with(None, line);
            return Some(v);
        }
        let (c1, p1) = match self.play(g, m, Some(true)) {
            Ok((c, p)) => (Some(c), p.unwrap_or(1.0)),
            Err(MoveError::Quantum(QuantumError::ImpossibleOutcome { .. })) => (None, 0.0),
            Err(_) => return None,
        };
        // A certain measurement's outcome is not written in the line, as the notation
        // writes none after it.
        let c1 = match c1 {
            Some(c) if p1 >= 1.0 => {
                let d = self.child_depth(&c, depth, ply);
                let v = -self.negamax(&c, d, ply + 1, -beta, -alpha, &mut line);
                *pv = with(None, line);
                return Some(v);
            }
            Some(c) => c,
            None => {
                let (c0, _) = self.play(g, m, Some(false)).ok()?;
                let d = self.child_depth(&c0, depth, ply);
                let v = -self.negamax(&c0, d, ply + 1, -beta, -alpha, &mut line);
                *pv = with(None, line);
                return Some(v);
            }
        };
        let p0 = 1.0 - p1;
        let a1 = ((alpha - p0 * WIN) / p1).max(-WIN);
        let b1 = ((beta + p0 * WIN) / p1).min(WIN);
        let d1 = self.child_depth(&c1, depth, ply);
        let v1 = -self.negamax(&c1, d1, ply + 1, -b1, -a1, &mut line);
        if self.aborted {
            return Some(0.0);
        }
        if v1 <= a1 && a1 > -WIN {
            return Some(p1 * v1 + p0 * WIN);
        }
        if v1 >= b1 && b1 < WIN {
            return Some(p1 * v1 - p0 * WIN);
        }
        let (c0, _) = self.play(g, m, Some(false)).ok()?;
        let a0 = ((alpha - p1 * v1) / p0).max(-WIN);
        let b0 = ((beta - p1 * v1) / p0).min(WIN);
        let mut line0 = Vec::new();
        let d0 = self.child_depth(&c0, depth, ply);
        let v0 = -self.negamax(&c0, d0, ply + 1, -b0, -a0, &mut line0);
        *pv = if p1 >= p0 {
            with(Some(true), line)
        } else {
            with(Some(false), line0)
        };
        Some(p1 * v1 + p0 * v0)
    }

    /// The depth a child of a node `depth` plies before the horizon is searched to: one
    /// ply less, or as deep when the move checks (see the check extension above).
    fn child_depth(&self, child: &Game, depth: i32, ply: usize) -> i32 {
        let extend = self.limits.extend_checks
            && depth >= 1
            && ply < self.limits.depth as usize
            && child.status() == Status::Ongoing
            && in_check(child);
        if extend {
            depth
        } else {
            depth - 1
        }
    }

    /// The value of `g` for its side to move, searched `depth` plies (then quiescence).
    fn negamax(
        &mut self,
        g: &Game,
        depth: i32,
        ply: usize,
        mut alpha: f64,
        beta: f64,
        pv: &mut Vec<MoveText>,
    ) -> f64 {
        pv.clear();
        if g.status() != Status::Ongoing {
            return terminal(g, ply);
        }
        if self.out_of_budget() {
            return 0.0;
        }
        let quiescence = depth <= 0;
        let mut best = -INF;
        let mut tt_move = None;
        let key = if quiescence { 0 } else { g.state_hash() };
        let moves = if quiescence {
            let stand = evaluate(g, self.limits.style);
            if depth <= -(self.limits.quiescence as i32) || stand >= beta || ply >= MAX_PLY - 1 {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
            captures(g)
        } else {
            if let Some(e) = self.tt.get(key) {
                tt_move = e.best;
                if e.depth as i32 >= depth {
                    let usable = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => e.value >= beta,
                        Bound::Upper => e.value <= alpha,
                    };
                    if usable {
                        return e.value;
                    }
                }
            }
            if ply >= MAX_PLY - 1 {
                return evaluate(g, self.limits.style);
            }
            candidates(g)
        };
        self.charge_listing(g, moves.len());
        let moves = self.ordered(g, moves, tt_move, ply, quiescence);
        let alpha0 = alpha;
        let mut best_move = None;
        // Late-move pruning: a few quiet moves near the horizon, three times as many when
        // the side to move's king is in danger, and every move of the king.
        let danger = !quiescence && king_threat(g, g.to_move()) >= KING_DANGER;
        let quiet_limit = match (self.limits.late_moves as usize, depth) {
            (0, _) | (_, 4..) => usize::MAX,
            _ if quiescence => usize::MAX,
            (n, d) => n * (d as usize + 1) / 2 * if danger { 3 } else { 1 },
        };
        let mut quiet = 0;
        let mut tried = 0;
        for (i, (key, m)) in moves.iter().enumerate() {
            if *key < TACTICAL && m.piece.kind != Kind::King {
                quiet += 1;
                if quiet > quiet_limit {
                    // Skipped, not the end of the list: a king move may come later.
                    continue;
                }
            }
            // Quiescence tries a few tactical captures only, and not one that can't
            // lift the value to alpha (delta pruning).
            if quiescence {
                if *key < TACTICAL || best + capture_gain(g, m) + DELTA_MARGIN <= alpha {
                    continue;
                }
                tried += 1;
                if tried > QUIESCENCE_CAPTURES {
                    break;
                }
            }
            let mut line = Vec::new();
            let late = !quiescence && !danger && i >= FULL_DEPTH_MOVES && *key < TACTICAL;
            let Some(v) = self.search_move(g, m, depth, ply, (alpha, beta), late, &mut line) else {
                continue;
            };
            if self.aborted {
                return 0.0;
            }
            if v > best {
                best = v;
                best_move = Some(m.text);
                if v > alpha {
                    alpha = v;
                    *pv = line;
                }
                if v >= beta {
                    if is_quiet(m) && !quiescence {
                        self.cut_off(m, depth, ply);
                    }
                    break;
                }
            }
        }
        if quiescence {
            return best;
        }
        if best == -INF {
            // No legal move (or none the simulator could play).
            best = 0.0;
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt.put(Entry {
            key,
            depth: depth.clamp(0, u8::MAX as i32) as u8,
            bound,
            value: best,
            best: best_move,
        });
        best
    }

    /// Searches one move of a node. Unless it is the node's first (alpha still open),
    /// with a null window first (principal variation search), and one ply shallower when
    /// it is `late` at 3 or more plies before the horizon (late-move reduction); again
    /// with the full window and depth when that says it beats alpha.
    #[allow(clippy::too_many_arguments)]
    fn search_move(
        &mut self,
        g: &Game,
        m: &Classified,
        depth: i32,
        ply: usize,
        (alpha, beta): (f64, f64),
        late: bool,
        pv: &mut Vec<MoveText>,
    ) -> Option<f64> {
        if !alpha.is_finite() || depth <= 0 || beta - alpha <= NULL_WINDOW {
            return self.chance(g, m, depth, ply, alpha, beta, pv);
        }
        let reduced = late && depth >= 3;
        let d = if reduced { depth - 1 } else { depth };
        let v = self.chance(g, m, d, ply, alpha, alpha + NULL_WINDOW, pv)?;
        if self.aborted || v <= alpha || (!reduced && v >= beta) {
            return Some(v);
        }
        self.chance(g, m, depth, ply, alpha, beta, pv)
    }

    /// Remembers a quiet move that caused a cut-off (killer and history).
    fn cut_off(&mut self, m: &Classified, depth: i32, ply: usize) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m.text) {
            k[1] = k[0];
            k[0] = Some(m.text);
        }
        self.history[history_index(&m.text)] += (depth * depth) as f64;
    }

    /// `moves` with their keys, best first: the table's move, then by order key, killers
    /// and history.
    fn ordered(
        &self,
        g: &Game,
        moves: Vec<Classified>,
        tt_move: Option<MoveText>,
        ply: usize,
        quiescence: bool,
    ) -> Vec<(f64, Classified)> {
        let cx = if quiescence {
            Context::for_captures(g)
        } else {
            Context::of(g)
        };
        let killers = self.killers[ply.min(MAX_PLY - 1)];
        let mut keyed: Vec<(f64, Classified)> = moves
            .into_iter()
            .map(|m| {
                let mut k = order_key(g, &m, &cx);
                if Some(m.text) == tt_move {
                    k += 1.0e9;
                } else if k < TACTICAL {
                    // Killers, then history, among the quiet moves (staying quiet).
                    if killers.contains(&Some(m.text)) {
                        k += TACTICAL / 2.0;
                    }
                    k += self.history[history_index(&m.text)].min(TACTICAL / 4.0);
                }
                (k, m)
            })
            .collect();
        keyed.sort_by(|a, b| b.0.total_cmp(&a.0));
        keyed
    }
}
