//! A classical chess engine (any UCI engine, e.g. Stockfish) as a Quantum Chess player,
//! the benchmark opponent of `qchess match`'s `uci:CMD`: it plays the most likely
//! classical board ([`classical::most_likely`]) as if it were the whole game.
//!
//! Each move: when that board lets the side to move capture the other king (a
//! position no classical engine accepts), the capture is played; otherwise the engine
//! gets `position fen …` and `go depth D` with `MultiPV` lines. Its best line is played,
//! or, for its first [`UciSettings::vary_moves`] moves, a line chosen by the seed among
//! those within [`UciSettings::margin_cp`] of the best. A line the quantum game refuses
//! (rare: the board is one of many) gives way to the next. When the engine has no move
//! there (mated or stalemated on that board) a seeded choice among the board's
//! standard moves that the game accepts is played; when no board has both kings (one
//! of them is spread so thin that every board with it is under 1e-12), the likeliest
//! capture of the other king, else a standard move. The engine's process is shared with
//! UQCI's front end ([`Connection`]): started on the first move, killed with the player.

use crate::chess::Game;
use crate::engine::choice::{Choice, PlayerError};
use crate::engine::classical;
use crate::engine::player::{Player, Thinking};
use crate::game::Playable;
use crate::seeded::SeededRng;
use crate::uqci::client::{check, info, Connection};
use crate::uqci::protocol::{Command, Go, Score, SearchInfo, Start};
use std::time::{Duration, Instant};

/// How a UCI player searches and varies its first moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciSettings {
    /// `go depth` of each move.
    pub depth: u32,
    /// Lines asked for (`MultiPV`).
    pub multipv: u32,
    /// The player's own first moves chosen among near-best lines (0: always the best).
    pub vary_moves: u32,
    /// How far below the best line a varied move's line may score, in centipawns.
    pub margin_cp: i64,
}

impl Default for UciSettings {
    /// Depth 10, 5 lines, no variation, 50 cp.
    fn default() -> Self {
        UciSettings {
            depth: 10,
            multipv: 5,
            vary_moves: 0,
            margin_cp: 50,
        }
    }
}

/// How long a `go depth` may take before the engine counts as hung.
const DEPTH_TIMEOUT: Duration = Duration::from_secs(60);

/// How long a UCI engine may take to answer `uci` and `isready`: nobody waits for this
/// benchmark opponent, and Stockfish loading its network on a busy machine can take
/// longer than the front end's 5 s, which would lose the game.
const UCI_HANDSHAKE: Duration = Duration::from_secs(60);

/// How a UCI engine's name starts ("uci: CMD" in reports).
pub const NAME_PREFIX: &str = "uci: ";

/// A UCI engine playing the most likely classical board.
pub struct UciPlayer {
    connection: Connection,
    settings: UciSettings,
    rng: SeededRng,
}

impl UciPlayer {
    /// The engine run by `command` (split as a POSIX shell would), choosing among
    /// near-best lines by `seed`.
    pub fn new(command: &str, settings: UciSettings, seed: u64) -> UciPlayer {
        UciPlayer {
            connection: Connection::new(command).with_handshake(UCI_HANDSHAKE),
            settings,
            rng: SeededRng::new(seed),
        }
    }
}

/// A score comparable across lines: a mate in N as nearly ±100000.
fn centipawns(s: Option<Score>) -> i64 {
    match s {
        Some(Score::Cp(n)) => n,
        Some(Score::Mate(n)) => n.signum() * (100_000 - n.abs()),
        None => 0,
    }
}

/// The last line the engine gave under each `multipv` number (1 when it gives none).
fn record_line(lines: &mut Vec<SearchInfo>, i: &SearchInfo) {
    if i.pv.is_empty() {
        return;
    }
    let n = i.multipv.unwrap_or(1);
    match lines.iter_mut().find(|l| l.multipv.unwrap_or(1) == n) {
        Some(l) => *l = i.clone(),
        None => lines.push(i.clone()),
    }
}

/// The lines' first moves in the order to try them: the one drawn by `pick` (an index
/// into those within `margin` of the best, when `vary`), then the rest best first,
/// then `best` (the engine's `bestmove`).
fn candidates(
    mut lines: Vec<SearchInfo>,
    best: &str,
    vary: bool,
    margin: i64,
    pick: u64,
) -> Vec<(String, Option<SearchInfo>)> {
    lines.sort_by_key(|l| std::cmp::Reverse(centipawns(l.score)));
    let top = lines.first().map_or(0, |l| centipawns(l.score));
    let near = lines
        .iter()
        .take_while(|l| centipawns(l.score) >= top - margin)
        .count();
    if vary && near > 1 {
        let first = lines.remove((pick % near as u64) as usize);
        lines.insert(0, first);
    }
    let mut out: Vec<(String, Option<SearchInfo>)> = lines
        .into_iter()
        .map(|l| (l.pv[0].clone(), Some(l)))
        .collect();
    out.push((best.to_string(), None));
    out
}

impl Player for UciPlayer {
    /// "uci: CMD".
    fn name(&self) -> String {
        format!("{NAME_PREFIX}{}", self.connection.command())
    }

    fn think(&mut self, game: &dyn Playable) -> Thinking {
        let Some(game) = game.quantum() else {
            return Thinking::done(Err(PlayerError::Engine(
                "a UCI chess engine plays Quantum Chess only, not the variants".into(),
            )));
        };
        let pick = self.rng.next_u64();
        let board = match classical::most_likely(game) {
            Ok(b) => b,
            Err(_) => return Thinking::done(without_board(game)),
        };
        let root = game.detached();
        if let Some(mv) = board
            .king_captures()
            .into_iter()
            .find(|mv| check(&root, mv).is_ok())
        {
            return Thinking::done(Ok(Choice {
                mv,
                info: None,
                from_book: false,
                expected: None,
            }));
        }
        let settings = self.settings.clone();
        // Its own moves so far: one every two plies.
        let vary = (game.ply() / 2) < settings.vary_moves as usize;
        let session = self.connection.session();
        Thinking::spawn(move |stop, progress| {
            session.run(|p| {
                p.send(&Command::SetOption {
                    name: "MultiPV".into(),
                    value: Some(settings.multipv.to_string()),
                })?;
                p.send(&Command::Position {
                    start: Start::Fen(board.fen()),
                    moves: Vec::new(),
                })?;
                let go = Go {
                    depth: Some(settings.depth),
                    ..Go::default()
                };
                let started = Instant::now();
                let mut lines = Vec::new();
                let best = p.go(go, DEPTH_TIMEOUT, stop, &mut |i| {
                    progress(&info(i, started.elapsed()));
                    record_line(&mut lines, i);
                })?;
                let Some(best) = best else {
                    return fallback(&board, &root, pick);
                };
                let tried = candidates(lines, &best, vary, settings.margin_cp, pick);
                tried
                    .iter()
                    .find(|(mv, _)| check(&root, mv).is_ok())
                    .map(|(mv, line)| Choice {
                        mv: mv.clone(),
                        info: line.as_ref().map(|l| info(l, started.elapsed())),
                        from_book: false,
                        expected: None,
                    })
                    .ok_or_else(|| {
                        let all: Vec<&str> = tried.iter().map(|(m, _)| m.as_str()).collect();
                        format!(
                            "answered only moves the quantum game refuses ({}) on {}",
                            all.join(", "),
                            board.fen()
                        )
                    })
            })
        })
    }
}

/// A move when no board has both kings: the likeliest capture of the other king, else
/// the first standard move ([`classical::moves_without_board`]).
fn without_board(game: &Game) -> Result<Choice, PlayerError> {
    classical::moves_without_board(game)
        .into_iter()
        .next()
        .map(|mv| Choice {
            mv,
            info: None,
            from_book: false,
            expected: None,
        })
        .ok_or(PlayerError::NoMove)
}

/// A move when the engine has none on its board: one of the board's standard moves the
/// game accepts, drawn by `pick`.
fn fallback(board: &classical::ClassicalBoard, root: &Game, pick: u64) -> Result<Choice, String> {
    let moves: Vec<String> = board
        .standard_moves()
        .into_iter()
        .map(|(mv, _)| mv)
        .filter(|mv| check(root, mv).is_ok())
        .collect();
    if moves.is_empty() {
        return Err(format!(
            "has no move on {} that the game accepts",
            board.fen()
        ));
    }
    let mv = moves[(pick % moves.len() as u64) as usize].clone();
    Ok(Choice {
        mv,
        info: None,
        from_book: false,
        expected: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(n: u32, cp: i64, mv: &str) -> SearchInfo {
        SearchInfo {
            multipv: Some(n),
            score: Some(Score::Cp(cp)),
            pv: vec![mv.into()],
            ..SearchInfo::default()
        }
    }

    #[test]
    fn later_lines_replace_earlier_ones() {
        let mut lines = Vec::new();
        for l in [line(1, 10, "a"), line(2, 5, "b"), line(1, 30, "c")] {
            record_line(&mut lines, &l);
        }
        assert_eq!(lines, [line(1, 30, "c"), line(2, 5, "b")]);
    }

    #[test]
    fn variation_picks_among_near_best_lines_only() {
        let lines = vec![
            line(1, 40, "a"),
            line(2, 0, "b"),
            line(3, -20, "c"),
            line(4, 10, "d"),
        ];
        let first = |vary, pick| candidates(lines.clone(), "a", vary, 50, pick)[0].0.clone();
        assert_eq!(first(false, 1), "a");
        let picked: std::collections::BTreeSet<String> = (0..20).map(|k| first(true, k)).collect();
        assert_eq!(
            picked.into_iter().collect::<Vec<_>>(),
            ["a", "b", "d"],
            "c is 60 cp below the best"
        );
        let all = candidates(lines, "a", true, 50, 1);
        assert_eq!(all.len(), 5, "every line, then the engine's best move");
    }

    #[test]
    fn a_mate_outranks_any_centipawns() {
        assert!(centipawns(Some(Score::Mate(3))) > centipawns(Some(Score::Cp(5000))));
        assert!(centipawns(Some(Score::Mate(1))) > centipawns(Some(Score::Mate(3))));
        assert!(centipawns(Some(Score::Mate(-1))) < centipawns(Some(Score::Mate(-3))));
    }
}
