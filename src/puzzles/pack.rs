//! The puzzle pack: `puzzles/pack.toml`, shipped inside the binary, and reading or
//! writing a pack file.
//!
//! A puzzle's position is a FEN and the moves played from it (`setup`, with their
//! measurement outcomes forced): a position with pieces in superposition has no FEN of
//! its own, so the FEN is the last classical position of the game it came from.

use super::goal::{Goal, Task};
use super::prove::{Proof, TIE};
use super::theme::{theme, Theme};
use crate::chess::{Game, GameOptions};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// The shipped pack's text.
const PACK: &str = include_str!("../../puzzles/pack.toml");

/// One puzzle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Puzzle {
    /// Its name in the pack ("017").
    pub id: String,
    /// The last classical position before the puzzle's.
    pub fen: String,
    /// The moves from `fen` to the puzzle's position, with their outcomes.
    #[serde(default)]
    pub setup: Vec<String>,
    /// What the side to move must achieve.
    pub goal: Goal,
    /// N: the solver's moves (king, queen) or the attacker's (survive).
    pub moves: u32,
    /// The proved optimum.
    pub value: f64,
    /// The first moves that reach it (a split or merge in both orders).
    pub best: Vec<String>,
    /// The best value of any other first move.
    pub second: f64,
    /// How hard it is (see [`super::rating`]).
    pub rating: u32,
    /// The idea its best line turns on (see [`super::theme`]).
    pub theme: Theme,
    /// The principal line: best play, each measurement's likelier outcome.
    pub line: Vec<String>,
    /// Where it was found.
    pub source: String,
}

impl Puzzle {
    /// Its goal and length.
    pub fn task(&self) -> Task {
        Task {
            goal: self.goal,
            moves: self.moves,
        }
    }

    /// What differs between the stored proof and `proof` (a new proof of it from
    /// `game`, its position): the value (beyond [`TIE`]), the best moves, the second
    /// value, the line or the theme its line gives; empty when they agree.
    pub fn differences(&self, game: &Game, proof: &Proof) -> Vec<String> {
        let mut out = Vec::new();
        if (proof.value - self.value).abs() > TIE {
            out.push(format!("value {} (stored {})", proof.value, self.value));
        }
        if proof.best != self.best {
            out.push(format!(
                "best {} (stored {})",
                proof.best.join(" "),
                self.best.join(" ")
            ));
        }
        let second = proof.second().unwrap_or(0.0);
        if (second - self.second).abs() > TIE {
            out.push(format!("second {second} (stored {})", self.second));
        }
        if proof.line != self.line {
            out.push(format!(
                "line {} (stored {})",
                proof.line.join(" "),
                self.line.join(" ")
            ));
        }
        let theme = theme(game, self.goal, &proof.line);
        if theme != self.theme {
            out.push(format!("theme {theme} (stored {})", self.theme));
        }
        out
    }

    /// The puzzle's position: `fen` with the setup played, as a
    /// [`Game::detached`] copy (no history).
    pub fn game(&self) -> Result<Game, PackError> {
        position(&self.fen, &self.setup).map_err(|why| PackError::Position {
            id: self.id.clone(),
            why,
        })
    }
}

/// The position after `setup` from `fen` (outcomes forced), as a [`Game::detached`]
/// copy; or why it cannot be set up.
pub fn position(fen: &str, setup: &[String]) -> Result<Game, String> {
    let start = crate::chess::fen::parse(fen).map_err(|e| e.to_string())?;
    let g = Game::replay(start, GameOptions::default(), setup)
        .map_err(|(i, e)| format!("setup move {} ({}): {e}", i + 1, setup[i]))?;
    Ok(g.detached())
}

/// A pack file as written.
#[derive(Debug, Default, Serialize, Deserialize)]
struct PackFile {
    #[serde(default)]
    puzzle: Vec<Puzzle>,
}

/// Why a pack or one of its puzzles cannot be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PackError {
    /// The file is not a pack.
    #[error("the pack is not readable: {0}")]
    Syntax(String),
    /// A puzzle's position cannot be set up.
    #[error("puzzle {id}: {why}")]
    Position {
        /// The puzzle.
        id: String,
        /// Why.
        why: String,
    },
    /// Two puzzles with one id.
    #[error("puzzle {0} is in the pack twice")]
    Duplicate(String),
}

/// Reads a pack file's text.
pub fn read(text: &str) -> Result<Vec<Puzzle>, PackError> {
    let file: PackFile = toml::from_str(text).map_err(|e| PackError::Syntax(e.to_string()))?;
    let mut ids: Vec<&str> = file.puzzle.iter().map(|p| p.id.as_str()).collect();
    ids.sort_unstable();
    if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
        return Err(PackError::Duplicate(w[0].to_string()));
    }
    Ok(file.puzzle)
}

/// A pack's text: a comment line, then the puzzles.
pub fn write(puzzles: &[Puzzle]) -> String {
    let file = PackFile {
        puzzle: puzzles.to_vec(),
    };
    let body = toml::to_string(&file).expect("a pack is plain data");
    format!(
        "# The qchess puzzle pack: written by `qchess puzzles generate`, every value \
         proved (docs/puzzles.md).\n\n{body}"
    )
}

/// The shipped pack, read once.
pub fn pack() -> &'static [Puzzle] {
    static READ: OnceLock<Vec<Puzzle>> = OnceLock::new();
    READ.get_or_init(|| read(PACK).expect("the shipped pack is readable (a test reads it)"))
}

/// The shipped puzzle `id`.
pub fn find(id: &str) -> Option<&'static Puzzle> {
    pack().iter().find(|p| p.id == id.trim())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::prove::{answer_key, prove};

    /// Re-proves `p`: the value to 1e-9, the same best moves, second value and line.
    fn proves_again(p: &Puzzle) {
        let game = p.game().unwrap();
        let proof = prove(&game, p.task()).unwrap();
        assert_eq!(
            p.differences(&game, &proof),
            Vec::<String>::new(),
            "{}",
            p.id
        );
    }

    #[test]
    fn a_changed_proof_is_told_apart() {
        let p = &pack()[0];
        let game = p.game().unwrap();
        let proof = prove(&game, p.task()).unwrap();
        assert!(p.differences(&game, &proof).is_empty());
        let mut other = proof.clone();
        other.value += 1e-6;
        other.best = vec!["a1a2".into()];
        other.line.push("h1h2".into());
        // The second value is the best of the first moves no longer in `best`.
        assert_eq!(
            p.differences(&game, &other).len(),
            4,
            "{:?}",
            p.differences(&game, &other)
        );
        let mut rethemed = p.clone();
        rethemed.theme = Theme::QuietMove;
        assert_ne!(p.theme, Theme::QuietMove);
        assert_eq!(rethemed.differences(&game, &proof).len(), 1);
    }

    #[test]
    fn the_pack_holds_400_different_puzzles_with_one_clear_answer() {
        let all = pack();
        assert!(all.len() >= 400, "{} puzzles", all.len());
        let mut seen = std::collections::HashSet::new();
        let mut answered = std::collections::HashSet::new();
        for p in all {
            let g = p.game().unwrap();
            assert!(seen.insert((g.state_hash(), p.task())), "{} twice", p.id);
            let key = (&p.fen, p.task(), &p.best[0], (p.value * 1e9).round() as u64);
            assert!(
                answered.insert(key),
                "{}: a move after another puzzle",
                p.id
            );
            assert!((0.0..=1.0).contains(&p.value), "{}", p.id);
            assert!(p.value - p.second >= 0.1 - TIE, "{}: margin", p.id);
            let answers: std::collections::HashSet<_> = p
                .best
                .iter()
                .map(|b| answer_key(&crate::chess::notation::parse(b).unwrap()))
                .collect();
            assert_eq!(answers.len(), 1, "{}: {:?}", p.id, p.best);
            assert_eq!(p.line[0].split('.').next(), Some(p.best[0].as_str()));
            assert!((400..=2800).contains(&p.rating), "{}", p.id);
        }
        assert_eq!(find(&all[0].id), Some(&all[0]));
        assert_eq!(find("no such puzzle"), None);
    }

    /// The fast sample `cargo test` proves: every fourth one-ply puzzle (20 or more).
    #[test]
    fn a_sample_of_the_pack_proves_again() {
        let sample: Vec<&Puzzle> = pack()
            .iter()
            .filter(|p| p.task().plies() == 1)
            .step_by(4)
            .collect();
        assert!(sample.len() >= 20, "{} one-ply puzzles", sample.len());
        for p in sample {
            proves_again(p);
        }
    }

    /// Every puzzle of the pack (`cargo test --release -- --ignored every_pack_puzzle`).
    #[test]
    #[ignore = "the whole pack: run with -- --ignored every_pack_puzzle_proves_again"]
    fn every_pack_puzzle_proves_again() {
        for p in pack() {
            proves_again(p);
        }
    }

    #[test]
    fn a_pack_reads_back_what_was_written() {
        let p = pack()[0].clone();
        let text = write(std::slice::from_ref(&p));
        assert_eq!(read(&text).unwrap(), vec![p.clone()]);
        let twice = write(&[p.clone(), p]);
        assert!(matches!(read(&twice), Err(PackError::Duplicate(_))));
        assert!(matches!(
            read("[[puzzle]]\nid = 3"),
            Err(PackError::Syntax(_))
        ));
        let mut broken = pack()[0].clone();
        broken.setup = vec!["a1a1".into()];
        assert!(matches!(broken.game(), Err(PackError::Position { .. })));
    }
}
