//! How the game screen picks a move in a rule system that lists its legal moves in
//! notation (harmonics, haft): a piece, then one of its targets (`t` for harmonics'
//! quantum moves), a letter where several moves share a target (promotions); and how it
//! reads a typed one.

use super::{App, Mode};
use crate::chess::Square;
use crate::game::Move;
use crate::ui::message::Tone;
use crate::ui::work::MoveBy;

/// The squares a move in long algebraic notation (`e2e4`, `b1~d5`, `e7e8q`) names, and
/// whether it is a quantum move.
pub fn move_squares(text: &str) -> Option<(Square, Square, bool)> {
    let quantum = text.contains('~');
    let plain: String = text.chars().filter(|c| *c != '~').collect();
    let from = Square::parse(plain.get(0..2)?)?;
    let to = Square::parse(plain.get(2..4)?)?;
    Some((from, to, quantum))
}

/// The targets of moves in notation.
fn targets_of(moves: &[String]) -> Vec<Square> {
    moves
        .iter()
        .filter_map(|m| move_squares(m).map(|(_, t, _)| t))
        .collect()
}

impl App {
    /// The squares of a listed move `mv` (for the hint on the board).
    pub(super) fn listed_move_squares(&self, mv: &str) -> Vec<Square> {
        move_squares(mv)
            .map(|(a, b, _)| vec![a, b])
            .unwrap_or_default()
    }

    /// The move keys the first message names besides Enter.
    pub(super) fn listed_move_keys(&self) -> &'static str {
        if self.game.has_quantum_moves() {
            ", t quantum move"
        } else {
            ""
        }
    }

    /// Why a click on `sq` with nothing selected starts no move.
    pub(super) fn listed_source_error(&self, sq: Square) -> Option<String> {
        self.seat_error().or_else(|| {
            (!self.piece_of_mover(sq)).then(|| {
                format!(
                    "{sq} holds no piece of the side to move ({})",
                    self.game.to_move().name()
                )
            })
        })
    }

    /// A letter while several moves share the picked target: plays the one it names.
    /// True when the key was taken.
    pub(super) fn choose_listed(&mut self, c: char) -> bool {
        let Mode::Choice { moves, .. } = &self.mode else {
            return false;
        };
        let pick = moves
            .iter()
            .find(|m| m.ends_with(c.to_ascii_lowercase()))
            .or_else(|| moves.iter().find(|m| c == 'm' && m.len() == 4))
            .cloned();
        match pick {
            Some(m) => {
                self.play(Move::Text(m), MoveBy::Picked);
                true
            }
            None => false,
        }
    }

    /// The legal moves of the piece on `from`, ordinary or quantum.
    fn moves_of(&self, from: Square, quantum: bool) -> Vec<String> {
        self.game
            .legal_moves()
            .into_iter()
            .filter(|m| move_squares(m).is_some_and(|(f, _, q)| f == from && q == quantum))
            .collect()
    }

    /// Enter (or `t` for a quantum move) on the cursor square: picks a piece or one of
    /// its targets.
    pub(super) fn select_listed(&mut self, quantum: bool) {
        if let Some(why) = self.seat_error() {
            return self.say(Tone::Error, why);
        }
        if quantum && !self.game.has_quantum_moves() {
            return self.say(
                Tone::Error,
                format!(
                    "{} has no quantum moves: Enter picks a piece, then its target",
                    self.game.rules()
                ),
            );
        }
        let sq = self.cursor;
        if let Mode::Moves {
            from,
            quantum: q,
            moves,
            ..
        } = self.mode.clone()
        {
            if quantum && !q {
                return self.pick_listed(from, true);
            }
            if sq == from && !quantum {
                self.mode = Mode::Idle;
                return self.say(Tone::Plain, "selection cleared");
            }
            let to_here: Vec<String> = moves
                .into_iter()
                .filter(|m| move_squares(m).is_some_and(|(_, t, _)| t == sq))
                .collect();
            return match to_here.len() {
                0 if self.piece_of_mover(sq) => self.pick_listed(sq, false),
                0 => {
                    let kind = if q { "quantum move" } else { "move" };
                    self.say(
                        Tone::Error,
                        format!("the piece on {from} has no legal {kind} to {sq}"),
                    )
                }
                1 => self.play(Move::Text(to_here[0].clone()), MoveBy::Picked),
                _ => {
                    let letters: Vec<String> = to_here
                        .iter()
                        .map(|m| {
                            m.get(4..)
                                .filter(|s| !s.is_empty())
                                .unwrap_or("m")
                                .to_string()
                        })
                        .collect();
                    self.say(
                        Tone::Plain,
                        format!("promote to: {} (Esc cancels)", letters.join(" ")),
                    );
                    let targets = targets_of(&to_here);
                    self.mode = Mode::Choice {
                        moves: to_here,
                        targets,
                    };
                }
            };
        }
        self.pick_listed(sq, quantum);
    }

    /// Whether a piece of the side to move may stand on `sq`.
    fn piece_of_mover(&self, sq: Square) -> bool {
        let mover = self.game.to_move();
        self.game
            .cells()
            .iter()
            .any(|(s, c)| *s == sq && c.color == mover)
    }

    fn pick_listed(&mut self, from: Square, quantum: bool) {
        let moves = self.moves_of(from, quantum);
        if moves.is_empty() {
            let what = if quantum {
                "quantum move"
            } else {
                "legal move"
            };
            let why = if self.piece_of_mover(from) {
                format!("the piece on {from} has no {what} now")
            } else {
                format!(
                    "{from} holds no piece of the side to move ({})",
                    self.game.to_move().name()
                )
            };
            self.mode = Mode::Idle;
            return self.say(Tone::Error, why);
        }
        let kind = if quantum { "quantum move" } else { "move" };
        self.say(
            Tone::Plain,
            format!("{from}: pick the target of its {kind} (Esc cancels)"),
        );
        let targets = targets_of(&moves);
        self.mode = Mode::Moves {
            from,
            quantum,
            moves,
            targets,
        };
    }

    /// Plays a move typed on the `:` line; a typed outcome is refused (outcomes are
    /// drawn).
    pub(super) fn submit_listed(&mut self, input: &str) {
        match (self.game.forced_outcome(input), self.game.read_san(input)) {
            (Some(suffix), _) => self.say(Tone::Error, refused_outcome(input, &suffix)),
            (None, Some(Ok(mv))) => self.play(Move::Text(mv), MoveBy::Typed),
            (None, Some(Err(e))) => self.say(Tone::Error, e),
            (None, None) => self.play(Move::Text(input.to_string()), MoveBy::Typed),
        }
    }
}

/// Why a typed outcome is refused in a game: outcomes are drawn, not picked.
pub(in crate::ui) fn refused_outcome(input: &str, suffix: &str) -> String {
    format!("{input}: outcomes are drawn at random; type it without {suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{RuleSet, Setup};
    use crate::record::{Players, SavedGame};
    use crate::style::color::{Paint, Tier};
    use crate::style::theme::Theme;
    use crate::variants::new_game;
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;

    fn press(app: &mut App, code: KeyCode) {
        app.handle_key(KeyEvent::new(code, KeyModifiers::NONE));
    }

    /// A rule system the screen has never heard of (the test-only toy, registered in
    /// `game::rules` under `cfg(test)`) is played, drawn, taken back and recorded
    /// through the one game screen.
    #[test]
    fn a_new_rule_system_plays_through_the_screen() {
        let game = new_game(&Setup::new(RuleSet::Toy, 3)).unwrap();
        let mut app = App::new(game, Paint::new(Theme::default(), Tier::None), false);
        assert_eq!(
            app.message().text,
            "white to move: pick a piece with Enter, : type a move, ? help"
        );
        // The cursor starts on e2: down to the king on e1, pick it, up, play.
        press(&mut app, KeyCode::Char('j'));
        press(&mut app, KeyCode::Enter);
        assert_eq!(app.mode().targets().len(), 5);
        press(&mut app, KeyCode::Char('k'));
        press(&mut app, KeyCode::Enter);
        assert_eq!(app.message().text, "white played e1e2");
        // A typed move, and one the toy refuses with its own words.
        press(&mut app, KeyCode::Char(':'));
        for c in "e8e6".chars() {
            press(&mut app, KeyCode::Char(c));
        }
        press(&mut app, KeyCode::Enter);
        assert_eq!(app.message().text, "e8e6: e8e6 is not a king's step here");
        press(&mut app, KeyCode::Char(':'));
        for c in "e8e7".chars() {
            press(&mut app, KeyCode::Char(c));
        }
        press(&mut app, KeyCode::Enter);
        assert_eq!(app.game().ply(), 2);
        let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
        t.draw(|f| {
            crate::ui::draw(f, &app);
        })
        .unwrap();
        let shown = t.backend().to_string();
        assert!(shown.contains("Board: toy"), "{shown}");
        assert!(shown.contains("the king steps to e7"), "{shown}");
        let saved = SavedGame::of(app.game(), &Players::default(), "d");
        assert_eq!((saved.variant.as_str(), saved.moves.len()), ("toy", 2));
        press(&mut app, KeyCode::Char('u'));
        assert_eq!(app.game().ply(), 1);
        assert_eq!(app.message().text, "took back e8e7; black to move");
    }

    #[test]
    fn squares_of_moves() {
        let sq = |s| Square::parse(s).unwrap();
        assert_eq!(move_squares("e2e4"), Some((sq("e2"), sq("e4"), false)));
        assert_eq!(move_squares("b1~d4"), Some((sq("b1"), sq("d4"), true)));
        assert_eq!(move_squares("e7e8q"), Some((sq("e7"), sq("e8"), false)));
        assert_eq!(move_squares("e7"), None);
    }
}
