//! What a played move did, built from the state before and after it: the kind of move
//! in words, the question its measurement asked and the answer drawn, and every square
//! whose chance changed, grouped by cause (docs/rules/explanations.md).

use super::board::{Piece, Register, Square};
use super::classify::{between, BoardState, Classified, MoveType, Variant};
use super::notation::Shape;
use super::outcome::EndReason;
use crate::format::percent;
use crate::quantum::{Control, CERTAIN_EPS};

/// The smallest change of a piece's chance on a square that an explanation lists
/// (0.5 percentage points).
pub const LISTED_CHANGE: f64 = 0.005;

/// What kind of move it was, in a chess player's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// One piece, one target, nothing uncertain on the way.
    Standard,
    /// One piece to two targets at once.
    Split,
    /// Two halves of a piece onto one target.
    Merge,
    /// A slide through a square that may be occupied: it happens only where the path is
    /// clear.
    Slide,
    /// A capture (the mover's presence, and a slider's path, are measured first).
    Capture,
    /// A move to a square that may hold a piece it cannot take: measured empty first.
    Excluded,
    /// A pawn capture en passant.
    EnPassant,
    /// Castling.
    Castling,
    /// A pawn promotion.
    Promotion,
}

impl MoveKind {
    /// The kind as `qchess analyze --json` names it.
    pub fn name(self) -> &'static str {
        match self {
            MoveKind::Standard => "standard",
            MoveKind::Split => "split",
            MoveKind::Merge => "merge",
            MoveKind::Slide => "slide",
            MoveKind::Capture => "capture",
            MoveKind::Excluded => "excluded",
            MoveKind::EnPassant => "en_passant",
            MoveKind::Castling => "castling",
            MoveKind::Promotion => "promotion",
        }
    }

    /// The kind of `class` played from `before`: castling, en passant and promotion
    /// first, then the variant (capture, excluded), then the shape.
    fn of(class: &Classified, before: &Snapshot) -> MoveKind {
        match class.kind {
            MoveType::CastleKingSide | MoveType::CastleQueenSide => return MoveKind::Castling,
            MoveType::EnPassant => return MoveKind::EnPassant,
            _ => {}
        }
        if class.text.promotion.is_some() {
            return MoveKind::Promotion;
        }
        match class.variant {
            Variant::Capture => return MoveKind::Capture,
            Variant::Excluded => return MoveKind::Excluded,
            Variant::Basic => {}
        }
        let superposed = |a: Square, b: Square| {
            between(a, b).into_iter().any(|s| {
                let p = before.probs[s.index()];
                p > CERTAIN_EPS && p < 1.0 - CERTAIN_EPS
            })
        };
        match class.text.shape {
            Shape::Split { .. } => MoveKind::Split,
            Shape::Merge { .. } => MoveKind::Merge,
            Shape::Standard { from, to } if superposed(from, to) => MoveKind::Slide,
            Shape::Standard { .. } => MoveKind::Standard,
        }
    }
}

/// The question a move's measurement asked, and the answer drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Asked {
    /// The question, as a player would ask it ("was the pawn on e5?").
    pub question: String,
    /// The answer "yes" as a fact ("the pawn was on e5").
    pub yes: String,
    /// The answer "no" as a fact ("the pawn was not on e5").
    pub no: String,
    /// The chance of "yes" before the measurement.
    pub p: f64,
    /// The answer drawn: yes = the move went on.
    pub answer: bool,
}

impl Asked {
    /// The chance the drawn answer had.
    pub fn p_answer(&self) -> f64 {
        if self.answer {
            self.p
        } else {
            1.0 - self.p
        }
    }

    /// The drawn answer as a fact.
    pub fn fact(&self) -> &str {
        if self.answer {
            &self.yes
        } else {
            &self.no
        }
    }
}

/// Why a piece's chance on a square changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cause {
    /// The move itself took the piece there or away.
    Moved,
    /// The move captured it, in some branches or in all.
    Captured,
    /// The measurement's answer ruled out every branch where it stood there.
    RuledOut,
    /// The measurement's answer left only branches where it stands there.
    Certain,
    /// The measurement changed its chance through entanglement, neither to 0 nor to 1.
    Entangled,
    /// The board was measured at the end of the game (50-move rule, repetition).
    BoardMeasured,
}

impl Cause {
    /// The cause as `qchess analyze --json` names it.
    pub fn name(self) -> &'static str {
        match self {
            Cause::Moved => "moved",
            Cause::Captured => "captured",
            Cause::RuledOut => "ruled_out",
            Cause::Certain => "became_certain",
            Cause::Entangled => "entangled",
            Cause::BoardMeasured => "board_measured",
        }
    }

    /// The heading of this cause's group in the full explanation.
    fn heading(self) -> &'static str {
        match self {
            Cause::Moved => "moved by the move",
            Cause::Captured => "captured",
            Cause::RuledOut => "vanished: the answer ruled out every branch where it stood",
            Cause::Certain => "now certain: the answer left only branches where it stands",
            Cause::Entangled => "changed through entanglement with the measured squares",
            Cause::BoardMeasured => "measured with the whole board at the end of the game",
        }
    }
}

/// One piece whose chance on one square changed by at least [`LISTED_CHANGE`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Change {
    /// The square.
    pub square: Square,
    /// The piece.
    pub piece: Piece,
    /// Its chance to stand there before the move.
    pub before: f64,
    /// Its chance to stand there after the move.
    pub after: f64,
    /// Why it changed.
    pub cause: Cause,
    /// For a capture: the chance that it was captured.
    pub captured: Option<f64>,
}

impl Change {
    /// "knight h3 50% -> 0%".
    fn words(&self) -> String {
        let mut s = format!(
            "{} {} {}% -> {}%",
            self.piece.kind.name(),
            self.square,
            percent(self.before),
            percent(self.after)
        );
        if let Some(c) = self.captured {
            s.push_str(&format!(" (captured with {}%)", percent(c)));
        }
        s
    }

    /// "Nh3".
    fn short(&self) -> String {
        format!("{}{}", self.piece.kind.letter(), self.square)
    }
}

/// What every square held at one moment of a move: the register and the chances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Snapshot {
    /// The piece each square may hold.
    pub register: Register,
    /// The chance that each square is occupied.
    pub probs: [f64; 64],
}

impl Snapshot {
    /// The rules' state as it is.
    pub fn of(st: &BoardState) -> Snapshot {
        Snapshot {
            register: st.register,
            probs: st.probs,
        }
    }

    /// The chance that `piece` stands on `s`.
    fn chance(&self, s: Square, piece: Piece) -> f64 {
        if self.register.get(s) == Some(piece) {
            self.probs[s.index()]
        } else {
            0.0
        }
    }
}

/// The state at each step of one move, as [`explain`] reads it.
#[derive(Clone, Copy, Debug)]
pub struct Stages<'a> {
    /// Before the move.
    pub before: &'a Snapshot,
    /// After its measurement (the chances; the register is still the one before).
    pub measured: &'a [f64; 64],
    /// After its circuit.
    pub moved: &'a Snapshot,
    /// After the rules' end-of-ply work (a measurement of the whole board at a 50-move
    /// or repetition ending).
    pub after: &'a Snapshot,
    /// Each square a piece was captured from, with the chance it was.
    pub captured: &'a [(Square, f64)],
}

/// What a played move did.
#[derive(Clone, Debug, PartialEq)]
pub struct Explained {
    /// The move as classified.
    pub class: Classified,
    /// What kind of move it was.
    pub kind: MoveKind,
    /// The question its measurement asked, if it measured.
    pub asked: Option<Asked>,
    /// Every listed change, grouped by cause, the largest first within a cause.
    pub changes: Vec<Change>,
    /// Why the whole board was measured after the move, if it was.
    pub ending: Option<EndReason>,
}

/// Explains a move from the state at each of its steps; `outcome` is its measurement's
/// (answer, chance of yes), if it measured; `ending` the reason the board was measured
/// after it, if it was.
pub fn explain(
    class: &Classified,
    outcome: Option<(bool, f64)>,
    stages: Stages,
    ending: Option<EndReason>,
) -> Explained {
    let asked = outcome.map(|(answer, p)| asked(class, stages.before, answer, p));
    let mut changes = Vec::new();
    for s in Square::all() {
        let was = stages.before.register.get(s);
        let is = stages.after.register.get(s).filter(|p| Some(*p) != was);
        for piece in [was, is].into_iter().flatten() {
            let before = stages.before.chance(s, piece);
            let after = stages.after.chance(s, piece);
            if (before - after).abs() < LISTED_CHANGE {
                continue;
            }
            let captured = stages
                .captured
                .iter()
                .find(|(c, p)| *c == s && *p > CERTAIN_EPS)
                .filter(|_| {
                    piece.color != class.piece.color && stages.before.register.get(s) == Some(piece)
                })
                .map(|(_, p)| *p);
            let measured = if stages.before.register.get(s) == Some(piece) {
                stages.measured[s.index()]
            } else {
                0.0
            };
            let moved = stages.moved.chance(s, piece);
            let cause = if captured.is_some() {
                Cause::Captured
            } else if (moved - measured).abs() > CERTAIN_EPS {
                Cause::Moved
            } else if (after - moved).abs() > CERTAIN_EPS {
                Cause::BoardMeasured
            } else if measured <= CERTAIN_EPS {
                Cause::RuledOut
            } else if measured >= 1.0 - CERTAIN_EPS {
                Cause::Certain
            } else {
                Cause::Entangled
            };
            changes.push(Change {
                square: s,
                piece,
                before,
                after,
                cause,
                captured,
            });
        }
    }
    changes.sort_by(|a, b| {
        a.cause
            .cmp(&b.cause)
            .then(
                (b.before - b.after)
                    .abs()
                    .total_cmp(&(a.before - a.after).abs()),
            )
            .then(a.square.cmp(&b.square))
    });
    Explained {
        class: *class,
        kind: MoveKind::of(class, stages.before),
        asked,
        changes,
        ending,
    }
}

/// The question of `class`'s measurement, read from the condition its circuit measures.
fn asked(class: &Classified, before: &Snapshot, answer: bool, p: f64) -> Asked {
    let mut on = Vec::new();
    let mut empty = Vec::new();
    let mut path = None;
    for c in super::circuits::condition(class) {
        match c {
            Control::Bit(q, true) => on.push(Square(q as u8)),
            Control::Bit(q, false) => empty.push(Square(q as u8)),
            Control::Clear(qs) => path = Some(qs.len()),
            Control::Blocked(_) => {}
        }
    }
    let path_words = path.map(|_| {
        let (from, to) = match class.text.shape {
            Shape::Standard { from, to } => (from, to),
            _ => unreachable!("only standard moves measure"),
        };
        format!("the path {from}-{to}")
    });
    if let Some(&s) = on.first() {
        let piece = before
            .register
            .get(s)
            .map_or("piece", |p| p.kind.name())
            .to_string();
        match path_words {
            Some(path) => Asked {
                question: format!("was the {piece} on {s} with {path} clear?"),
                yes: format!("the {piece} was on {s} and {path} was clear"),
                no: format!("the {piece} was not on {s}, or {path} was blocked"),
                p,
                answer,
            },
            None => Asked {
                question: format!("was the {piece} on {s}?"),
                yes: format!("the {piece} was on {s}"),
                no: format!("the {piece} was not on {s}"),
                p,
                answer,
            },
        }
    } else {
        let names = list(&empty.iter().map(Square::to_string).collect::<Vec<_>>());
        let (was, were) = if empty.len() == 1 {
            ("was", "was")
        } else {
            ("were", "one of them was")
        };
        Asked {
            question: format!("{was} {names} empty?"),
            yes: format!("{names} {was} empty"),
            no: if empty.len() == 1 {
                format!("{names} was occupied")
            } else {
                format!("{names}: {were} occupied")
            },
            p,
            answer,
        }
    }
}

/// "a", "a and b", "a, b and c".
fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// "50%", or "certain" for a chance of 1.
fn chance_words(p: f64) -> String {
    if p >= 1.0 - CERTAIN_EPS {
        "certain".into()
    } else {
        format!("a {}% chance", percent(p))
    }
}

impl Explained {
    /// Whether the move went on (it did not measure, or its answer was yes).
    pub fn went_on(&self) -> bool {
        self.asked.as_ref().is_none_or(|a| a.answer)
    }

    /// The changes with one cause.
    pub fn with_cause(&self, cause: Cause) -> impl Iterator<Item = &Change> {
        self.changes.iter().filter(move |c| c.cause == cause)
    }

    /// The pieces that vanished other than by moving ("Nh3"): ruled out by the answer,
    /// or measured away at the end.
    pub fn vanished(&self) -> Vec<String> {
        self.changes
            .iter()
            .filter(|c| {
                c.after <= CERTAIN_EPS && matches!(c.cause, Cause::RuledOut | Cause::BoardMeasured)
            })
            .map(Change::short)
            .collect()
    }

    /// The move in words: "capture: the queen on f3 takes on e4".
    pub fn what(&self) -> String {
        let c = &self.class;
        let piece = c.piece.kind.name();
        match (self.kind, c.text.shape) {
            (MoveKind::Castling, _) => match c.kind {
                MoveType::CastleKingSide => "castling on the king's side".into(),
                _ => "castling on the queen's side".into(),
            },
            (MoveKind::Split, Shape::Split { from, to1, to2 }) => {
                format!("split: the {piece} on {from} goes to {to1} and {to2} at once")
            }
            (MoveKind::Merge, Shape::Merge { from1, from2, to }) => {
                format!("merge: the {piece} on {from1} and {from2} comes together on {to}")
            }
            (_, Shape::Standard { from, to }) => match self.kind {
                MoveKind::EnPassant => {
                    let ep = Square::at(to.file(), from.rank())
                        .map_or(String::new(), |s| s.to_string());
                    format!("en passant: the pawn on {from} takes the pawn on {ep} by going to {to}")
                }
                MoveKind::Promotion => format!(
                    "promotion: the pawn on {from} becomes a {} on {to}",
                    c.text.promotion.map_or("piece", |k| k.name())
                ),
                MoveKind::Capture => format!("capture: the {piece} on {from} takes on {to}"),
                MoveKind::Excluded => format!(
                    "excluded move: {to} may hold a piece the {piece} cannot take, so it goes only if {to} is empty"
                ),
                MoveKind::Slide => format!(
                    "slide through a square that may be occupied: the {piece} on {from} reaches {to} only where the path is clear"
                ),
                _ => format!("the {piece} goes from {from} to {to}"),
            },
            (_, shape) => format!("the {piece} moves ({shape:?})"),
        }
    }

    /// A move not yet played in words, for a hint: what it does when that is not
    /// plain (a split, a merge, a slide, an excluded move) and, when its measurement may
    /// stop it, the chance that it happens. `None` for a move that needs no words.
    pub fn foresight(&self) -> Option<String> {
        let chance = self
            .asked
            .as_ref()
            .map(|a| a.p)
            .filter(|p| *p < 1.0 - CERTAIN_EPS);
        let quantum = matches!(
            self.kind,
            MoveKind::Split | MoveKind::Merge | MoveKind::Slide | MoveKind::Excluded
        );
        match chance {
            Some(p) => Some(format!(
                "{}; happens with a {}% chance",
                self.what(),
                percent(p)
            )),
            None if quantum => Some(self.what()),
            None => None,
        }
    }

    /// Where the mover's pieces stand now, when that is worth saying: "the pawn is now
    /// on f6 50%, e5 50%".
    fn whereabouts(&self) -> Vec<String> {
        let mover = self.class.piece.color;
        let quantum = matches!(
            self.kind,
            MoveKind::Split | MoveKind::Merge | MoveKind::Slide
        );
        let mut kinds: Vec<Piece> = Vec::new();
        for c in self.with_cause(Cause::Moved) {
            if c.piece.color == mover && !kinds.contains(&c.piece) {
                kinds.push(c.piece);
            }
        }
        let mut out = Vec::new();
        for piece in kinds {
            let mut at: Vec<&Change> = self
                .with_cause(Cause::Moved)
                .filter(|c| c.piece == piece && c.after > CERTAIN_EPS)
                .collect();
            let uncertain = at.iter().any(|c| c.after < 1.0 - CERTAIN_EPS);
            if at.is_empty() || !(uncertain || quantum) {
                continue;
            }
            at.sort_by(|a, b| b.after.total_cmp(&a.after));
            let places: Vec<String> = at
                .iter()
                .map(|c| format!("{} {}%", c.square, percent(c.after)))
                .collect();
            out.push(format!(
                "the {} is now on {}",
                piece.kind.name(),
                places.join(", ")
            ));
        }
        out
    }

    /// One short line, the most important fact first; empty for a plain move that
    /// needs no words.
    pub fn headline(&self) -> String {
        let mut facts = Vec::new();
        // A certain answer tells nothing new: it stays in the full text.
        if let Some(a) = self
            .asked
            .as_ref()
            .filter(|a| a.p_answer() < 1.0 - CERTAIN_EPS)
        {
            let mut s = format!("{} ({})", a.fact(), chance_words(a.p_answer()));
            if !a.answer {
                s.push_str(": the move did not happen");
            }
            facts.push(s);
        }
        for c in self.with_cause(Cause::Captured) {
            let p = c.captured.unwrap_or(0.0);
            facts.push(if p >= 1.0 - CERTAIN_EPS {
                format!("took the {} on {}", c.piece.kind.name(), c.square)
            } else {
                format!(
                    "took the {} on {} with {}%",
                    c.piece.kind.name(),
                    c.square,
                    percent(p)
                )
            });
        }
        facts.extend(self.whereabouts());
        let gone: Vec<String> = self
            .with_cause(Cause::RuledOut)
            .map(Change::short)
            .collect();
        if !gone.is_empty() {
            facts.push(format!("vanished: {}", gone.join(" ")));
        }
        let sure: Vec<String> = self.with_cause(Cause::Certain).map(Change::short).collect();
        if !sure.is_empty() {
            facts.push(format!("now certain: {}", sure.join(" ")));
        }
        let other = self.with_cause(Cause::Entangled).count();
        if other > 0 {
            let pieces = if other == 1 { "piece" } else { "pieces" };
            facts.push(format!("{other} other {pieces} changed"));
        }
        if let Some(r) = self.ending {
            facts.push(r.describe().to_string());
        }
        facts.join("; ")
    }

    /// A few words for the history pane: the answer and the captures (the pane adds
    /// the vanished pieces).
    pub fn note(&self) -> String {
        let mut parts = Vec::new();
        if let Some(a) = self
            .asked
            .as_ref()
            .filter(|a| a.p_answer() < 1.0 - CERTAIN_EPS)
        {
            parts.push(if a.answer {
                format!("yes ({}%)", percent(a.p_answer()))
            } else {
                format!("no ({}%): stopped", percent(a.p_answer()))
            });
        }
        parts.extend(self.with_cause(Cause::Captured).map(|c| {
            let p = c.captured.unwrap_or_default();
            if p >= 1.0 - CERTAIN_EPS {
                format!("took {}", c.short())
            } else {
                format!("took {} ({}%)", c.short(), percent(p))
            }
        }));
        parts.join("; ")
    }

    /// The full explanation, line by line: the move, the question and its answer, and
    /// every change grouped by cause.
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        let what = self.what();
        let mut first = what.chars();
        out.push(
            first
                .next()
                .map(|c| c.to_uppercase().chain(first).collect())
                .unwrap_or_default(),
        );
        if let Some(a) = &self.asked {
            out.push(format!(
                "It asked first: {} (yes: {}%)",
                a.question,
                percent(a.p)
            ));
            if a.answer {
                out.push(format!("Answer: yes, {}; the move went on.", a.yes));
            } else {
                out.push(format!(
                    "Answer: no, {}; the move did not happen, and the turn is used.",
                    a.no
                ));
            }
        }
        if self.changes.is_empty() {
            out.push("No chance on the board changed by 0.5% or more.".into());
            return out;
        }
        out.push("What changed (chance before -> after):".into());
        let mut last = None;
        for c in &self.changes {
            if last != Some(c.cause) {
                out.push(format!("  {}:", c.cause.heading()));
                last = Some(c.cause);
            }
            out.push(format!("    {}", c.words()));
        }
        if self.with_cause(Cause::Entangled).next().is_some() {
            out.push(
                "Pieces the move did not touch changed because they were entangled with what the question asked."
                    .into(),
            );
        }
        if let Some(r) = self.ending {
            out.push(format!(
                "The game ended ({}): every square was measured.",
                r.describe()
            ));
        }
        out
    }

    /// The `explain` object of `qchess analyze --json` (docs/rules/notation.md).
    pub fn to_json(&self, played: &str) -> serde_json::Value {
        let headline = self.headline();
        let text = if headline.is_empty() {
            played.to_string()
        } else {
            format!("{played}: {headline}")
        };
        serde_json::json!({
            "text": text,
            "kind": self.kind.name(),
            "measurement": self.asked.as_ref().map(|a| serde_json::json!({
                "question": a.question,
                "p": a.p,
                "answer": if a.answer { "yes" } else { "no" },
            })),
            "changes": self.changes.iter().map(|c| {
                let mut v = serde_json::json!({
                    "square": c.square.to_string(),
                    "piece": c.piece.fen_char().to_string(),
                    "before": c.before,
                    "after": c.after,
                    "cause": c.cause.name(),
                });
                if let Some(p) = c.captured {
                    v["captured"] = serde_json::json!(p);
                }
                v
            }).collect::<Vec<_>>(),
        })
    }
}
