//! Quantum Chess as a [`Playable`] game: the simulator-backed [`Game`] of `chess`.

use crate::chess::{fen, report, Color, Game, MoveError, PlayedMove, Square, Status};
use crate::game::{
    CancelFlag, Cell, Explanation, Move, PlayError, Playable, PlyRecord, RuleSet, Setup,
};
use crate::quantum::QuantumError;

/// The history entry of a played move: its canonical text, a few words on what it did
/// and its explanation.
fn record(m: &PlayedMove) -> PlyRecord {
    PlyRecord {
        text: m.played.clone(),
        color: m.color,
        note: m.explained.note(),
        trace: Vec::new(),
        explanation: Explanation::quantum(&m.explained),
    }
}

impl From<MoveError> for PlayError {
    fn from(e: MoveError) -> Self {
        let words = e.to_string();
        match e {
            MoveError::Notation(_) | MoveError::San(_) => PlayError::Notation(words),
            MoveError::GameOver(_) => PlayError::GameOver(words),
            MoveError::NoMeasurement(_)
            | MoveError::Quantum(QuantumError::ImpossibleOutcome { .. }) => {
                PlayError::Outcome(words)
            }
            MoveError::Quantum(QuantumError::Cancelled) => PlayError::Cancelled,
            MoveError::Quantum(_) => PlayError::Simulator(words),
            _ => PlayError::Illegal(words),
        }
    }
}

/// Quantum Chess as a [`Playable`]: the game and the records of its plies, kept as they
/// are played.
#[derive(Clone, Debug)]
struct QuantumGame {
    game: Game,
    plies: Vec<PlyRecord>,
}

impl From<Game> for Box<dyn Playable> {
    fn from(game: Game) -> Self {
        let plies = game.history().iter().map(record).collect();
        Box::new(QuantumGame { game, plies })
    }
}

impl Playable for QuantumGame {
    fn rules(&self) -> RuleSet {
        RuleSet::Quantum
    }

    fn setup(&self) -> Setup {
        Setup {
            rules: RuleSet::Quantum,
            start: Some(fen::format(self.game.start())),
            options: self.game.options(),
        }
    }

    fn cells(&self) -> Vec<(Square, Cell)> {
        let game = &self.game;
        Square::all()
            .filter_map(|s| {
                let p = game.state().piece(s)?;
                Some((
                    s,
                    Cell {
                        color: p.color,
                        kind: Some(p.kind),
                        probability: game.probability(s),
                    },
                ))
            })
            .collect()
    }

    fn to_move(&self) -> Color {
        self.game.to_move()
    }

    fn status(&self) -> Status {
        self.game.status()
    }

    fn end_reason(&self) -> Option<String> {
        self.game.end_reason().map(|r| r.describe().to_string())
    }

    fn legal_moves(&self) -> Vec<String> {
        report::legal_moves(&self.game)
    }

    fn play(&mut self, text: &str) -> Result<PlyRecord, PlayError> {
        self.play_move(&Move::Text(text.to_string()))
    }

    /// A move read on the screen is played as read: its text is kept, not read again.
    fn play_move(&mut self, mv: &Move) -> Result<PlyRecord, PlayError> {
        let played = match mv {
            Move::Text(text) => self.game.play(text),
            Move::Quantum { given, text } => self.game.play_text(given, text),
        };
        let rec = record(played?);
        self.plies.push(rec.clone());
        Ok(rec)
    }

    fn undo(&mut self) -> Result<(), PlayError> {
        if self.plies.is_empty() {
            return Err(PlayError::NothingToUndo);
        }
        // With moves to take back, only the cancel flag stops the replay.
        self.game.undo().ok_or(PlayError::Cancelled)?;
        self.plies.pop();
        Ok(())
    }

    fn ply(&self) -> usize {
        self.game.ply()
    }

    fn history(&self) -> &[PlyRecord] {
        &self.plies
    }

    fn typing_hint(&self) -> &'static str {
        "type a move: e2e4 or Nf3, b1^a3c3 (split), a3c3^b5 (merge), e7e8q; Enter plays, Esc cancels"
    }

    fn forced_outcome(&self, typed: &str) -> Option<String> {
        let text = crate::chess::notation::parse(typed).ok()?;
        text.outcome.map(|o| format!(".m{}", o as u8))
    }

    fn details(&self, cursor: Square) -> Vec<String> {
        let game = &self.game;
        let mut lines = vec![format!(
            "{} branches; {} to move",
            game.branch_count(),
            game.to_move().name()
        )];
        if let Some(p) = game.state().piece(cursor) {
            lines.push(format!(
                "{cursor}: {} {}, {:.0}%",
                p.color.name(),
                p.kind.name(),
                game.probability(cursor) * 100.0
            ));
        }
        lines
    }

    fn to_json(&self) -> serde_json::Value {
        report::to_json(&self.game)
    }

    fn clone_box(&self) -> Box<dyn Playable> {
        Box::new(self.clone())
    }

    fn set_cancel(&mut self, flag: Option<CancelFlag>) {
        self.game.set_cancel(flag)
    }

    fn quantum(&self) -> Option<&Game> {
        Some(&self.game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::new_game;

    #[test]
    fn a_quantum_game_through_the_trait() {
        let mut game = new_game(&Setup::new(RuleSet::Quantum, 7)).unwrap();
        assert_eq!(game.cells().len(), 32);
        assert!(game.legal_moves().iter().any(|m| m == "g1^f3h3"));
        let rec = game.play("g1^f3h3").unwrap();
        assert_eq!((rec.text.as_str(), rec.color), ("g1^f3h3", Color::White));
        let f3 = game
            .cells()
            .into_iter()
            .find(|(s, _)| s.to_string() == "f3");
        assert!((f3.unwrap().1.probability - 0.5).abs() < 1e-9);
        assert_eq!(game.forced_outcome("e2xe4.m1").as_deref(), Some(".m1"));
        assert_eq!(game.forced_outcome("e2e4"), None);
        game.undo().unwrap();
        assert_eq!(game.ply(), 0);
        assert_eq!(game.undo(), Err(PlayError::NothingToUndo));
        assert!(game.quantum().is_some());
        assert_eq!(game.setup().start.as_deref(), Some(fen::START_FEN));
    }

    #[test]
    fn refusals_say_their_kind() {
        let mut game = new_game(&Setup::new(RuleSet::Quantum, 7)).unwrap();
        assert!(matches!(game.play("e2"), Err(PlayError::Notation(_))));
        assert!(matches!(game.play("e2e5"), Err(PlayError::Illegal(_))));
        assert!(matches!(game.play("e2e4.m1"), Err(PlayError::Outcome(_))));
        let start = Some("4k3/8/8/8/8/8/8/4RK2 w - - 0 1");
        let mut won = new_game(&Setup::with_start(RuleSet::Quantum, start, 7)).unwrap();
        won.play("e1xe8").unwrap();
        assert_eq!(
            won.play("f1f2"),
            Err(PlayError::GameOver("the game is over (white wins)".into()))
        );
        let over = Setup::with_start(RuleSet::Quantum, Some("8/8/8/8/8/8/8/8 w - - 0 1"), 7);
        assert!(matches!(new_game(&over), Err(PlayError::Start(_))));
    }

    #[test]
    fn a_read_move_is_played_as_read_not_read_again() {
        let mut game = new_game(&Setup::new(RuleSet::Quantum, 7)).unwrap();
        let (given, text) = game.quantum().unwrap().read_as("Nf3").unwrap();
        assert_eq!(given, "g1f3");
        // The text given is only kept: "Nf3" is no move in Quantum Chess notation, which
        // is all `play` reads, so the ply below is the move read.
        let mv = Move::Quantum {
            given: "Nf3".into(),
            text,
        };
        assert!(matches!(game.play("Nf3"), Err(PlayError::Notation(_))));
        assert_eq!(game.play_move(&mv).unwrap().text, "g1f3");
        assert_eq!(game.quantum().unwrap().history()[0].input, "Nf3");
    }

    #[test]
    fn kept_records_are_those_of_the_moves_played_and_replayed() {
        let setup = Setup::new(RuleSet::Quantum, 7);
        let mut game = new_game(&setup).unwrap();
        let rebuilt = |g: &dyn Playable| -> Vec<PlyRecord> {
            g.quantum().unwrap().history().iter().map(record).collect()
        };
        for m in ["g1^f3h3", "e7e5", "f3xe5", "d7d6"] {
            let rec = game.play(m).unwrap();
            assert_eq!(game.history().last(), Some(&rec));
        }
        assert_eq!(game.history(), rebuilt(game.as_ref()));
        game.undo().unwrap();
        assert_eq!(game.history().len(), 3);
        assert_eq!(game.history(), rebuilt(game.as_ref()));
        let texts: Vec<String> = game.history().iter().map(|r| r.text.clone()).collect();
        let again = crate::variants::replay(&setup, &texts, None).unwrap();
        assert_eq!(again.history(), game.history());
    }
}
