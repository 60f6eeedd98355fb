//! What the computer's searches are for, and what the player is told of them: the
//! score, the hint, the words when the player would move on the computer's turn.

use crate::chess::{notation, Color};
use crate::engine::Choice;
use crate::review::expected;

/// What a player trying to move on the computer's turn is told.
pub fn wait_words(side: Color) -> String {
    format!(
        "{} is the computer's: wait for its move (Esc makes it move now, u takes back)",
        side.name()
    )
}

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThinkingFor {
    /// The computer's own move.
    Move,
    /// A hint for the player to move.
    Hint,
}

/// The engine's last score: centipawns for `side`, the side to move at `ply`.
#[derive(Clone, Debug, PartialEq)]
pub struct Score {
    /// Centipawns for `side`.
    pub centipawns: f64,
    /// The side it is for (the side that was to move).
    pub side: Color,
    /// The depth of the search.
    pub depth: u32,
    /// From a hint, else from the computer's own search.
    pub purpose: ThinkingFor,
    /// White's expected result of the line found, its measurement weighed as results
    /// (the search's answer); `None` while it runs.
    pub weighed: Option<f64>,
}

impl Score {
    /// White's expected result: the answer's weighed one, else the score's.
    pub fn white(&self) -> f64 {
        self.weighed
            .unwrap_or_else(|| expected::from_side(self.centipawns, self.side))
    }
}

/// The score as the probabilities pane shows it, always from White's side: who stands
/// better, White's expected result ([`Score::white`]: as a review values a line) and
/// the centipawns: "about even (0.53 for white, +35 cp; black's search, depth 2)".
pub fn score_words(s: &Score) -> String {
    let from = match s.purpose {
        ThinkingFor::Hint => "hint".to_string(),
        ThinkingFor::Move => format!("{}'s search", s.side.name()),
    };
    let white = s.white();
    format!(
        "{} ({} for white, {:+} cp; {from}, depth {})",
        expected::verdict(white),
        expected::words(white),
        white_cp(s).round() as i64,
        s.depth
    )
}

/// The score's centipawns from White's side.
pub(super) fn white_cp(s: &Score) -> f64 {
    match s.side {
        Color::White => s.centipawns,
        Color::Black => -s.centipawns,
    }
}

/// The hint on the message line: "hint for black: e7e5 (about even, depth 3, expecting
/// g1f3); Esc hides it" (who stands better after it, the answer the search expects; the
/// numbers are in the probabilities pane), first what a quantum move or one that may not
/// happen does ("a3c3^b5 (merge: the knight on a3 and c3 comes together on b5; …)"), or
/// for a move of the opening book "hint for black: e7e5 (a main line of the opening);
/// Esc hides it".
pub(super) fn hint_words(
    side: Color,
    choice: &Choice,
    score: Option<&Score>,
    about: Option<String>,
) -> String {
    let mv = &choice.mv;
    if choice.from_book {
        return format!(
            "hint for {}: {mv} (a main line of the opening); Esc hides it",
            side.name()
        );
    }
    let mut words: Vec<String> = about.into_iter().collect();
    if let Some(s) = score.filter(|s| s.purpose == ThinkingFor::Hint) {
        let white = s.white();
        let answer = choice.info.as_ref().and_then(|i| expected_answer(&i.pv));
        let answer = answer
            .map(|a| format!(", expecting {a}"))
            .unwrap_or_default();
        words.push(format!(
            "{}, depth {}{answer}",
            expected::verdict(white),
            s.depth
        ));
    }
    let words = if words.is_empty() {
        String::new()
    } else {
        format!(" ({})", words.join("; "))
    };
    format!("hint for {}: {mv}{words}; Esc hides it", side.name())
}

/// The answer a search's line expects to its first move (the line's second move,
/// without an outcome); none when the first move asks a question (the line then
/// answers one of its outcomes) or the line stops there.
pub(super) fn expected_answer(pv: &[String]) -> Option<String> {
    let first = notation::parse(pv.first()?).ok()?;
    if first.outcome.is_some() {
        return None;
    }
    notation::without_outcome(pv.get(1)?)
}
