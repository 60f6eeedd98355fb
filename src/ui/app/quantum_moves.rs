//! How the game screen picks a Quantum Chess move on the board (a piece and its target,
//! splits with `s`, merges with `m`, promotions) and reads a typed one, plus the
//! inspector and the circuit's scrolling: the parts of the screen that exist for
//! Quantum Chess only. Each reaches the game through [`crate::game::Playable::quantum`].

use super::listed_moves::refused_outcome;
use super::{App, Mode};
use crate::chess::notation::MoveText;
use crate::chess::{Game, Kind, MoveError, Shape, Square};
use crate::game::Move;
use crate::learn::Met;
use crate::ui::layers::inspector::Inspector;
use crate::ui::message::Tone;
use crate::ui::view::{self, Pick};
use crate::ui::work::MoveBy;

impl App {
    /// The Quantum Chess game; these pieces are used only when there is one.
    fn chess(&self) -> Option<&Game> {
        self.game.quantum()
    }

    /// Opens the inspector on the cursor square (dropping any move selection).
    pub(super) fn open_inspector(&mut self) {
        let Some(game) = self.chess() else {
            return;
        };
        let inspector = Inspector::open(game, self.cursor);
        self.mode = Mode::Idle;
        self.inspector = Some(inspector);
        self.say(
            Tone::Plain,
            format!(
                "inspecting {}: Enter on a second square shows their Bell values; Esc leaves",
                self.cursor
            ),
        );
        let warm = self
            .inspector
            .as_ref()
            .map(Inspector::warm)
            .unwrap_or_default();
        self.lesson_key_goal(Met::Inspected {
            at: self.cursor,
            warm,
        });
    }

    /// Why `sq` can't be the source of a move, in the rules' words.
    pub(super) fn source_error(&self, sq: Square) -> Option<String> {
        self.seat_error().or_else(|| {
            self.chess()
                .and_then(|g| g.check_source(sq).err().map(|e| e.to_string()))
        })
    }

    fn piece_name(&self, sq: Square) -> String {
        self.chess()
            .and_then(|g| g.state().piece(sq))
            .map_or_else(|| "piece".into(), |p| p.kind.name().to_string())
    }

    /// The squares `pick` may be, as the rules allow.
    fn legal(&self, pick: Pick) -> Vec<Square> {
        self.chess()
            .map(|g| view::legal_squares(g, pick))
            .unwrap_or_default()
    }

    fn pick_source(&mut self, sq: Square) {
        if let Some(e) = self.source_error(sq) {
            return self.say(Tone::Error, e);
        }
        let targets = self.legal(Pick::Target(sq));
        let name = self.piece_name(sq);
        if targets.is_empty() {
            self.say(
                Tone::Plain,
                format!(
                    "the {name} on {sq} has no standard move here; s splits, m merges, Esc cancels"
                ),
            );
        } else {
            self.say(
                Tone::Plain,
                format!("{name} on {sq}: pick its target (s split, m merge, Esc cancel)"),
            );
        }
        self.mode = Mode::Source { from: sq, targets };
    }

    /// Enter on the cursor square: picks a piece, a target, or the next square of a
    /// split or merge.
    pub(super) fn select(&mut self) {
        let Some(game) = self.chess() else {
            return;
        };
        let sq = self.cursor;
        let color = |s| game.state().piece(s).map(|p| p.color);
        match self.mode.clone() {
            Mode::Idle | Mode::Promotion { .. } => self.pick_source(sq),
            Mode::Arm { merge: false } => self.start_split(),
            Mode::Arm { merge: true } => self.start_merge(),
            Mode::Source { from, targets } => {
                let own = color(sq) == color(from);
                let promotes = targets.contains(&sq) && view::promotes(game, from, sq);
                if sq == from {
                    self.mode = Mode::Idle;
                    self.say(Tone::Plain, "selection cleared");
                } else if promotes {
                    self.mode = Mode::Promotion { from, to: sq };
                    self.say(
                        Tone::Plain,
                        "promote to: q queen, r rook, b bishop, n knight (Esc cancels)",
                    );
                } else if !targets.contains(&sq) && own {
                    self.pick_source(sq);
                } else {
                    self.play_text(MoveText::standard(from, sq));
                }
            }
            Mode::SplitFirst { from, targets } => {
                if targets.contains(&sq) {
                    let targets = self.legal(Pick::SplitSecond(from, sq));
                    self.mode = Mode::SplitSecond {
                        from,
                        to1: sq,
                        targets,
                    };
                    self.say(
                        Tone::Plain,
                        format!("split {from} to {sq} and ...: pick the second target"),
                    );
                } else {
                    let why = self.why_not_split_target(from, sq);
                    self.say(Tone::Error, why);
                }
            }
            Mode::SplitSecond { from, to1, .. } => self.play_text(MoveText {
                shape: Shape::Split { from, to1, to2: sq },
                ..MoveText::standard(from, to1)
            }),
            Mode::MergeSecond { from1, targets } => {
                if targets.contains(&sq) {
                    let targets = self.legal(Pick::MergeTarget(from1, sq));
                    self.mode = Mode::MergeTarget {
                        from1,
                        from2: sq,
                        targets,
                    };
                    self.say(
                        Tone::Plain,
                        format!("merge {from1} and {sq}: pick the target"),
                    );
                } else {
                    let why = self.why_not_merge_source(from1, sq);
                    self.say(Tone::Error, why);
                }
            }
            Mode::MergeTarget { from1, from2, .. } => self.play_text(MoveText {
                shape: Shape::Merge {
                    from1,
                    from2,
                    to: sq,
                },
                ..MoveText::standard(from1, sq)
            }),
            // The modes of the rule systems that list their moves do not arise here.
            Mode::Moves { .. } | Mode::Choice { .. } => self.pick_source(sq),
        }
    }

    /// Why `sq` can't be a split target of the piece on `from`.
    fn why_not_split_target(&self, from: Square, sq: Square) -> String {
        if sq == from {
            return MoveError::RepeatedSquares.to_string();
        }
        let Some(game) = self.chess() else {
            return String::new();
        };
        // A split target must first be reachable as a standard move would be.
        let text = MoveText::standard(from, sq);
        match crate::chess::classify::classify(game.state(), &text, game.options().free_turns) {
            Err(e) => e.to_string(),
            Ok(_) => match game.state().piece(sq) {
                Some(p) => MoveError::SplitTarget {
                    square: sq,
                    what: format!("a {}", p.describe()),
                }
                .to_string(),
                None => format!("{sq} cannot be a target of this split"),
            },
        }
    }

    /// Why `sq` can't be the second source of a merge with `from1`.
    fn why_not_merge_source(&self, from1: Square, sq: Square) -> String {
        let Some(game) = self.chess() else {
            return String::new();
        };
        let st = game.state();
        match (st.piece(from1), st.piece(sq)) {
            (_, None) => MoveError::NoPiece(sq).to_string(),
            (Some(p1), Some(p2)) if p1 != p2 => MoveError::MergeSources {
                from1,
                p1: p1.describe(),
                from2: sq,
                p2: p2.describe(),
            }
            .to_string(),
            _ if sq == from1 => MoveError::RepeatedSquares.to_string(),
            _ => format!("the pieces on {from1} and {sq} have no empty square both can reach"),
        }
    }

    /// The source a split or merge starts from: the selected piece, else the cursor.
    fn first_source(&self) -> Square {
        match self.mode {
            Mode::Source { from, .. } => from,
            _ => self.cursor,
        }
    }

    /// `s`: splits the selected piece (or the one under the cursor); when that piece
    /// cannot split, says why and waits for the piece to split to be picked.
    pub(super) fn start_split(&mut self) {
        let from = self.first_source();
        match self.sources_of(from, Pick::SplitFirst(from)) {
            Ok(targets) => {
                let name = self.piece_name(from);
                self.mode = Mode::SplitFirst { from, targets };
                self.say(
                    Tone::Plain,
                    format!("split the {name} on {from}: pick the first target"),
                );
            }
            Err(why) => self.arm(false, why),
        }
    }

    /// `m`: merges from the selected piece (or the one under the cursor); when that
    /// piece cannot merge, says why and waits for the first source to be picked.
    pub(super) fn start_merge(&mut self) {
        let from1 = self.first_source();
        match self.sources_of(from1, Pick::MergeSecond(from1)) {
            Ok(targets) => {
                let name = self.piece_name(from1);
                self.mode = Mode::MergeSecond { from1, targets };
                self.say(
                    Tone::Plain,
                    format!("merge the {name} on {from1} with ...: pick the second source"),
                );
            }
            Err(why) => self.arm(true, why),
        }
    }

    /// The squares the next pick of a split (or merge) from `from` may be, or why it
    /// cannot start there.
    fn sources_of(&self, from: Square, pick: Pick) -> Result<Vec<Square>, String> {
        if let Some(e) = self.source_error(from) {
            return Err(e);
        }
        let kind = self
            .chess()
            .and_then(|g| g.state().piece(from))
            .map(|p| p.kind);
        if kind == Some(Kind::Pawn) {
            return Err(MoveError::PawnSplit.to_string());
        }
        let targets = self.legal(pick);
        let name = self.piece_name(from);
        match (targets.is_empty(), pick) {
            (false, _) => Ok(targets),
            (true, Pick::MergeSecond(_)) => Err(format!("the {name} on {from} has nothing to merge with: it needs another {name} of its side that can reach a common empty square")),
            (true, _) => Err(format!("the {name} on {from} cannot split: it needs two reachable squares that are empty or hold a {name} of its side in superposition")),
        }
    }

    /// Waits for the piece a split (or merge) starts from. When the last square held no
    /// piece of the side to move, that is just a hint; when its piece could not split
    /// (or merge), the reason is told.
    fn arm(&mut self, merge: bool, why: String) {
        let none_there = self.source_error(self.first_source()).is_some();
        self.mode = Mode::Arm { merge };
        let (what, then) = if merge {
            ("merge", "a second source and the target")
        } else {
            ("split", "two targets")
        };
        if none_there {
            self.say(
                Tone::Plain,
                format!("{what}: pick the piece, then {then} (Esc cancels)"),
            );
        } else {
            self.say(Tone::Error, format!("{why}; pick another piece to {what}"));
        }
    }

    /// The promotion piece `k` for the pawn move waiting for it.
    pub(super) fn promote(&mut self, k: Kind) {
        if let Mode::Promotion { from, to } = self.mode {
            self.play_text(MoveText {
                promotion: Some(k),
                ..MoveText::standard(from, to)
            });
        }
    }

    /// Plays a move picked on the board. A refused move keeps the selection (a refused
    /// promotion goes back to no selection).
    fn play_text(&mut self, text: MoveText) {
        let given = text.to_string();
        self.play(Move::Quantum { given, text }, MoveBy::Picked);
    }

    /// Plays a move typed on the `:` line: Quantum Chess notation, or standard algebraic
    /// notation for an ordinary move; a typed outcome is refused (outcomes are drawn).
    /// The text is read here, once: the move read is what is checked and played.
    pub(super) fn submit_quantum(&mut self, input: &str) {
        let Some(game) = self.chess() else {
            return;
        };
        let read = game.read_as(input);
        let free = game.options().free_turns;
        match read {
            Ok((given, text)) => match text.outcome {
                Some(o) if !free => self.say(
                    Tone::Error,
                    refused_outcome(input, &format!(".m{}", u8::from(o))),
                ),
                // A move typed in SAN goes on as the canonical move it names.
                _ => self.play(Move::Quantum { given, text }, MoveBy::Typed),
            },
            Err(e) => self.say(Tone::Error, e.to_string()),
        }
    }

    /// Scrolls the circuit of the shown move, within its extent.
    pub(super) fn scroll_circuit(&mut self, dx: i32, dy: i32) {
        let (w, h) = match (self.shown_move(), self.chess()) {
            (Some(i), Some(g)) => crate::ui::panes::circuit::extent(&g.history()[i].ops),
            _ => (0, 0),
        };
        let most = |v: usize| v.min(u16::MAX as usize) as u16;
        self.focus.scroll_by(dx, dy, (most(w), most(h)));
    }
}
