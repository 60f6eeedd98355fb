//! What a ply did, told to a player: the line the message bar shows, the full text of
//! the explanation popup, and the marks of the history pane. Quantum Chess builds it from
//! its exact state ([`crate::chess::explain`]); the rule systems that list their moves
//! build it from their remarks and the board before and after ([`Explanation::listed`]).

use super::cell::Cell;
use crate::chess::explain::{Explained, LISTED_CHANGE};
use crate::chess::Square;
use crate::format::percent;
use crate::quantum::CERTAIN_EPS;

/// What one ply did, in words. Quantum Chess keeps the facts and words them when asked
/// (a history of hundreds of plies is copied for every frame).
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation(Told);

/// How an explanation is kept.
#[derive(Clone, Debug, PartialEq)]
enum Told {
    /// A Quantum Chess move's facts.
    Quantum(Explained),
    /// A listed rule system's words.
    Listed {
        headline: String,
        lines: Vec<String>,
        measured: bool,
        vanished: Vec<String>,
    },
}

impl Default for Explanation {
    fn default() -> Self {
        Explanation(Told::Listed {
            headline: String::new(),
            lines: Vec::new(),
            measured: false,
            vanished: Vec::new(),
        })
    }
}

impl Explanation {
    /// The explanation of a Quantum Chess move.
    pub fn quantum(e: &Explained) -> Explanation {
        Explanation(Told::Quantum(e.clone()))
    }

    /// One short line, the most important fact first (without the move itself); empty
    /// for a plain move that needs no words.
    pub fn headline(&self) -> String {
        match &self.0 {
            Told::Quantum(e) => e.headline(),
            Told::Listed { headline, .. } => headline.clone(),
        }
    }

    /// The full explanation, line by line.
    pub fn lines(&self) -> Vec<String> {
        match &self.0 {
            Told::Quantum(e) => e.lines(),
            Told::Listed { lines, .. } => lines.clone(),
        }
    }

    /// Whether the ply drew a random outcome or asked the state a question.
    pub fn measured(&self) -> bool {
        match &self.0 {
            Told::Quantum(e) => e.asked.is_some(),
            Told::Listed { measured, .. } => *measured,
        }
    }

    /// The chance the drawn outcome had, when the ply measured and the chance is known
    /// (Quantum Chess); `None` otherwise.
    pub fn drawn_chance(&self) -> Option<f64> {
        match &self.0 {
            Told::Quantum(e) => e.asked.as_ref().map(|a| a.p_answer()),
            Told::Listed { .. } => None,
        }
    }

    /// The pieces that vanished in this ply other than by moving away ("Nh3").
    pub fn vanished(&self) -> Vec<String> {
        match &self.0 {
            Told::Quantum(e) => e.vanished(),
            Told::Listed { vanished, .. } => vanished.clone(),
        }
    }

    /// The explanation of a ply of a rule system that lists its moves: its remark (`note`)
    /// and rule trace, and every square whose piece or chance changed between `before`
    /// and `after`. A piece lost on a square the move does not name counts as vanished.
    pub fn listed(
        text: &str,
        note: &str,
        trace: &[String],
        measured: bool,
        before: &[(Square, Cell)],
        after: &[(Square, Cell)],
    ) -> Explanation {
        let named = squares_named(text);
        let at = |cells: &[(Square, Cell)], s: Square| {
            cells.iter().find(|(c, _)| *c == s).map(|(_, cell)| *cell)
        };
        let mut changed = Vec::new();
        let mut gone = Vec::new();
        for s in Square::all() {
            let (b, a) = (at(before, s), at(after, s));
            let p = |c: Option<Cell>| c.map_or(0.0, |c| c.probability);
            let same_piece =
                matches!((b, a), (Some(x), Some(y)) if x.color == y.color && x.kind == y.kind);
            if same_piece && (p(b) - p(a)).abs() < LISTED_CHANGE {
                continue;
            }
            if b.is_none() && a.is_none() {
                continue;
            }
            if let (Some(x), Some(y)) = (b, a) {
                if x.color == y.color && x.kind.is_none() && y.kind.is_some() {
                    changed.push(format!(
                        "    {s}: the {} piece is now known: {}",
                        x.color.name(),
                        name(y)
                    ));
                    continue;
                }
            }
            if let Some(x) = b {
                if p(a) < p(b) - CERTAIN_EPS || !same_piece {
                    let now = if same_piece { p(a) } else { 0.0 };
                    changed.push(format!(
                        "    {} {s} {}% -> {}%",
                        name(x),
                        percent(x.probability),
                        percent(now)
                    ));
                    if now <= CERTAIN_EPS && !named.contains(&s) {
                        gone.push(short(x, s));
                    }
                    if same_piece {
                        continue;
                    }
                }
            }
            if let Some(y) = a {
                let then = if same_piece { p(b) } else { 0.0 };
                changed.push(format!(
                    "    {} {s} {}% -> {}%",
                    name(y),
                    percent(then),
                    percent(y.probability)
                ));
            }
        }
        let mut headline = note.to_string();
        if !gone.is_empty() {
            if !headline.is_empty() {
                headline.push_str("; ");
            }
            headline.push_str(&format!("vanished: {}", gone.join(" ")));
        }
        let mut lines: Vec<String> = trace.to_vec();
        if changed.is_empty() {
            lines.push("No chance on the board changed by 0.5% or more.".into());
        } else {
            lines.push("What changed (chance before -> after):".into());
            lines.extend(changed);
        }
        Explanation(Told::Listed {
            headline,
            lines,
            measured,
            vanished: gone,
        })
    }
}

/// "Nh3", or "?h3" while the piece's type is open.
fn short(c: Cell, s: Square) -> String {
    format!("{}{s}", c.kind.map_or('?', |k| k.letter()))
}

/// "knight", or "piece" while its type is open.
fn name(c: Cell) -> &'static str {
    c.kind.map_or("piece", |k| k.name())
}

/// The squares a move's text names ("e2e4" names e2 and e4).
fn squares_named(text: &str) -> Vec<Square> {
    let b = text.as_bytes();
    (0..b.len().saturating_sub(1))
        .filter_map(|i| {
            std::str::from_utf8(&b[i..i + 2])
                .ok()
                .and_then(Square::parse)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Color, Kind};

    fn cell(kind: Option<Kind>, p: f64) -> Cell {
        Cell {
            color: Color::White,
            kind,
            probability: p,
        }
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).expect("a square")
    }

    #[test]
    fn a_listed_ply_tells_moves_vanished_pieces_and_known_types() {
        let before = vec![
            (sq("g1"), cell(Some(Kind::Knight), 1.0)),
            (sq("c3"), cell(None, 1.0)),
            (sq("h5"), cell(Some(Kind::Queen), 0.5)),
        ];
        let after = vec![
            (sq("f3"), cell(Some(Kind::Knight), 1.0)),
            (sq("c3"), cell(Some(Kind::Bishop), 1.0)),
        ];
        let e = Explanation::listed("g1f3", "locks B on c3", &[], false, &before, &after);
        assert_eq!(e.headline(), "locks B on c3; vanished: Qh5");
        assert_eq!(e.vanished(), ["Qh5"]);
        let lines = e.lines();
        assert!(lines.contains(&"    knight g1 100% -> 0%".to_string()));
        assert!(lines.contains(&"    knight f3 0% -> 100%".to_string()));
        assert!(lines.contains(&"    queen h5 50% -> 0%".to_string()));
        assert!(lines.contains(&"    c3: the white piece is now known: bishop".to_string()));
    }

    #[test]
    fn a_plain_listed_move_vanishes_nothing() {
        let before = vec![(sq("e2"), cell(Some(Kind::Pawn), 1.0))];
        let after = vec![(sq("e4"), cell(Some(Kind::Pawn), 1.0))];
        let e = Explanation::listed("e2e4", "", &[], false, &before, &after);
        assert_eq!(e.headline(), "");
        assert!(e.vanished().is_empty());
    }
}
