//! What a puzzle asks: its goal, its length in the solver's or the attacker's moves, and
//! the value of a position for the solver (the number the proof maximises).
//!
//! The solver is always the side to move at the start. Values are probabilities, in
//! [0, 1]:
//!
//! * [`Goal::King`], N moves: the solver's N moves with the defender's N - 1 replies in
//!   between (2N - 1 plies). At the horizon the value is `1 - presence of the
//!   defender's king`: the chance that it would be found gone if the board were looked
//!   at, so a king captured only in part counts with the part captured.
//! * [`Goal::Queen`], N moves: the same plies; at the horizon `1 - min(1, expected
//!   number of the defender's queens)`, the chance that its queen is gone (the pack's
//!   positions have one queen of the defender; a second one from a promotion counts
//!   against the solver).
//! * [`Goal::Survive`], N moves of the attacker: the solver moves, the attacker replies,
//!   N times (2N plies). At the horizon the value is the presence of the solver's king.
//!
//! A game that ends on the way counts 1 when the solver won it (a captured king also
//! wins the queen and saves one's own) and 0 otherwise (lost, both kings gone, or an
//! ending by the 50-move rule or repetition, which the solver did not reach by play). A
//! side with no legal move ends the line where it stands: the position is valued as at
//! the horizon.

use crate::chess::{Color, EndReason, Game, Kind, Status};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// What the solver must achieve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Goal {
    /// Capture the defender's king.
    King,
    /// Keep the solver's own king.
    Survive,
    /// Capture the defender's queen.
    Queen,
}

impl Goal {
    /// "king", "survive" or "queen", as in the pack and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Goal::King => "king",
            Goal::Survive => "survive",
            Goal::Queen => "queen",
        }
    }

    /// The value, for `solver`, of a game at the horizon or ended.
    pub fn value(self, game: &Game, solver: Color) -> f64 {
        match (game.status(), game.end_reason()) {
            // The board was measured (and its outcome drawn): not reached by play.
            (_, Some(EndReason::FiftyMoves | EndReason::Repetition)) => 0.0,
            (Status::Ongoing, _) => self.horizon(game, solver),
            (Status::WhiteWins, _) if solver == Color::White => 1.0,
            (Status::BlackWins, _) if solver == Color::Black => 1.0,
            _ => 0.0,
        }
    }

    /// The value of a game still going at the horizon.
    fn horizon(self, game: &Game, solver: Color) -> f64 {
        let defender = solver.opposite();
        let v = match self {
            Goal::King => 1.0 - game.king_presence(defender),
            Goal::Survive => game.king_presence(solver),
            Goal::Queen => 1.0 - queens(game, defender).min(1.0),
        };
        v.clamp(0.0, 1.0)
    }
}

/// The expected number of `color`'s queens on the board.
pub fn queens(game: &Game, color: Color) -> f64 {
    game.register()
        .pieces()
        .filter(|(_, p)| p.color == color && p.kind == Kind::Queen)
        .map(|(s, _)| game.probability(s))
        .sum()
}

impl fmt::Display for Goal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A goal that is not one of the three.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{0}\" is not a goal: king, survive or queen")]
pub struct UnknownGoal(pub String);

impl FromStr for Goal {
    type Err = UnknownGoal;

    fn from_str(s: &str) -> Result<Goal, UnknownGoal> {
        match s.trim() {
            "king" => Ok(Goal::King),
            "survive" => Ok(Goal::Survive),
            "queen" => Ok(Goal::Queen),
            other => Err(UnknownGoal(other.to_string())),
        }
    }
}

/// A goal and how many moves it is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Task {
    /// The goal.
    pub goal: Goal,
    /// N: the solver's moves (king, queen) or the attacker's (survive).
    pub moves: u32,
}

impl Task {
    /// The plies from the start to the horizon: 2N - 1 for king and queen, 2N for
    /// survive.
    pub fn plies(self) -> u32 {
        match self.goal {
            Goal::King | Goal::Queen => 2 * self.moves - 1,
            Goal::Survive => 2 * self.moves,
        }
    }

    /// The task in short: "king in 2", "queen in 1", "survive 2".
    pub fn short(self) -> String {
        match self.goal {
            Goal::Survive => format!("survive {}", self.moves),
            goal => format!("{goal} in {}", self.moves),
        }
    }

    /// The task in words: "capture the king within 2 moves".
    pub fn describe(self) -> String {
        let n = self.moves;
        let s = if n == 1 { "" } else { "s" };
        match self.goal {
            Goal::King => format!("capture the king within {n} move{s}"),
            Goal::Queen => format!("win the queen within {n} move{s}"),
            Goal::Survive => format!("keep your king through {n} move{s} of the attacker"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::GameOptions;

    /// Half the black king taken, then the knights dance until the position repeats.
    fn repeated(seed: u64) -> Game {
        let opts = GameOptions {
            seed,
            ..GameOptions::default()
        };
        let mut g = Game::from_fen("1n2k3/8/2N5/8/8/8/8/4K1N1 b - - 0 1", opts).unwrap();
        for m in "e8^d8f8 c6xd8 b8a6 g1f3 a6b8 f3g1 b8a6 g1f3 a6b8 f3g1".split(' ') {
            g.play(m).unwrap();
        }
        g
    }

    #[test]
    fn a_measured_ending_by_repetition_counts_nothing() {
        let won = (0..32)
            .map(repeated)
            .find(|g| g.status() == Status::WhiteWins)
            .expect("the board's measurement removes the half king in some seed");
        assert_eq!(won.end_reason(), Some(EndReason::Repetition));
        for goal in [Goal::King, Goal::Queen, Goal::Survive] {
            assert_eq!(goal.value(&won, Color::White), 0.0, "{goal}");
        }
    }

    #[test]
    fn values_at_the_horizon() {
        let mut g =
            Game::from_fen("3qk3/8/2N5/8/8/8/8/4K3 b - - 0 1", GameOptions::default()).unwrap();
        g.play("e8^e7f8").unwrap();
        // A split king is all there.
        assert_eq!(Goal::King.value(&g, Color::White), 0.0);
        assert!((Goal::Survive.value(&g, Color::Black) - 1.0).abs() < 1e-12);
        // Half of it taken: the chance it would be found gone.
        g.play("c6xe7").unwrap();
        assert!((Goal::King.value(&g, Color::White) - 0.5).abs() < 1e-12);
        assert!((Goal::Survive.value(&g, Color::Black) - 0.5).abs() < 1e-12);
        assert_eq!(Goal::Queen.value(&g, Color::White), 0.0);
        assert_eq!("survive".parse::<Goal>(), Ok(Goal::Survive));
        assert!("mate".parse::<Goal>().is_err());
        let t = Task {
            goal: Goal::King,
            moves: 2,
        };
        assert_eq!(
            (t.plies(), t.describe().as_str(), t.short().as_str()),
            (3, "capture the king within 2 moves", "king in 2")
        );
    }
}
