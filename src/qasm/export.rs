//! A game's circuit as an OpenQASM 3 program: one qubit per square (1 = occupied),
//! ancillas after them, the classical start as `x` gates, every move's gates with its
//! path conditions as `ctrl @`/`negctrl @`, and every measurement as `measure` into a
//! bit with the gates that depend on it inside `if`.

use super::gates::{call, DEFINITIONS};
use crate::chess::game::SQUARES;
use crate::chess::{circuits, fen, Game, PlayedMove, Square};
use crate::quantum::{BackendKind, BackendOptions, Bits, Control, Gate, Op, Qubit, Simulator};
use std::collections::HashMap;

/// An exported program with what a checker needs besides the text.
#[derive(Clone, Debug, PartialEq)]
pub struct Exported {
    /// The OpenQASM 3 text.
    pub text: String,
    /// Number of qubits declared (64 squares, then ancillas and flags).
    pub qubits: usize,
    /// The value each bit `b[k]` had in the game (its recorded outcome).
    pub recorded: Vec<bool>,
}

/// The game's circuit as OpenQASM 3 text (see [`program`]).
pub fn export(game: &Game) -> String {
    program(game).text
}

/// The game's circuit as an OpenQASM 3 program. Every ancilla a move allocates gets a
/// qubit of its own (none is reused), so the program needs no `reset`. A measured move
/// measures into a fresh bit and puts the gates of "the move went on" inside
/// `if (b[k] == true)` (or `false`); where the game recorded the other outcome those gates are derived
/// from the move again, so the program is faithful for either outcome.
pub fn program(game: &Game) -> Exported {
    let mut w = Writer {
        body: String::new(),
        depth: 0,
        next: SQUARES,
        free_flags: Vec::new(),
        ancillas: HashMap::new(),
        recorded: Vec::new(),
    };
    w.line("// The start position.");
    for (s, p) in game.start().register.pieces() {
        w.line(&format!("x q[{}]; // {s} {}", s.index(), p.fen_char()));
    }
    for (i, m) in game.history().iter().enumerate() {
        w.played(i + 1, m);
    }
    let moves: Vec<&str> = game.history().iter().map(|m| m.played.as_str()).collect();
    let mut text = String::from("OPENQASM 3.0;\ninclude \"stdgates.inc\";\n\n");
    text.push_str(super::file::SIGNATURE);
    text.push('\n');
    text.push_str(&format!("// Start: {}\n", fen::format(game.start())));
    text.push_str(&format!("// Moves: {}\n", moves.join(" ")));
    text.push_str("// One qubit per square, 1 = occupied:\n");
    for rank in 0..8u8 {
        let names: Vec<String> = (0..8u8)
            .map(|file| {
                let s = Square(rank * 8 + file);
                format!("q[{}] = {s}", s.index())
            })
            .collect();
        text.push_str(&format!("//   {}\n", names.join(", ")));
    }
    if w.next > SQUARES {
        text.push_str(&format!(
            "// q[{SQUARES}]..q[{}]: ancillas of captures and flags of path conditions, from |0>.\n",
            w.next - 1
        ));
    }
    if !w.recorded.is_empty() {
        let rec: Vec<String> = w
            .recorded
            .iter()
            .enumerate()
            .map(|(k, &v)| format!("b[{k}] = {}", v as u8))
            .collect();
        text.push_str(&format!(
            "// Outcomes the game recorded: {}\n",
            rec.join(", ")
        ));
    }
    text.push('\n');
    text.push_str(DEFINITIONS);
    text.push_str(&format!("\nqubit[{}] q;\n", w.next));
    if !w.recorded.is_empty() {
        text.push_str(&format!("bit[{}] b;\n", w.recorded.len()));
    }
    text.push('\n');
    text.push_str(&w.body);
    Exported {
        text,
        qubits: w.next,
        recorded: w.recorded,
    }
}

/// Trace ancillas to program qubits; squares map to themselves.
type Ancillas = HashMap<Qubit, usize>;

struct Writer {
    body: String,
    depth: usize,
    /// The next unused program qubit.
    next: usize,
    /// Flag qubits back at |0>, free for the next path condition.
    free_flags: Vec<usize>,
    ancillas: Ancillas,
    recorded: Vec<bool>,
}

fn label(q: usize) -> String {
    if q < SQUARES {
        Square(q as u8).to_string()
    } else {
        "anc".into()
    }
}

impl Writer {
    fn line(&mut self, s: &str) {
        self.body.push_str(&"  ".repeat(self.depth));
        self.body.push_str(s);
        self.body.push('\n');
    }

    fn qubit(map: &Ancillas, q: Qubit) -> usize {
        if (q as usize) < SQUARES {
            q as usize
        } else {
            *map.get(&q)
                .expect("a move's trace allocates an ancilla before using it")
        }
    }

    fn fresh(&mut self) -> usize {
        self.next += 1;
        self.next - 1
    }

    /// One gate call: `mods name operands; // squares`. `mods[i]` says whether control
    /// `qubits[i]` must be 1 (`ctrl`) or 0 (`negctrl`); the targets follow the controls.
    /// The controls are written as at most two modifiers, the 1-controls first:
    /// `ctrl(3) @ negctrl(2) @ iswap ...` (controls commute, so the order is free; one
    /// modifier per control would make qiskit's importer slow down about eightfold per
    /// modifier).
    fn call(&mut self, mods: &[bool], name: &str, qubits: &[usize]) {
        let (controls, targets) = qubits.split_at(mods.len());
        let ones: Vec<usize> = (0..mods.len()).filter(|&i| mods[i]).collect();
        let zeros: Vec<usize> = (0..mods.len()).filter(|&i| !mods[i]).collect();
        let modifier = |word: &str, n: usize| match n {
            0 => String::new(),
            1 => format!("{word} @ "),
            n => format!("{word}({n}) @ "),
        };
        let m = modifier("ctrl", ones.len()) + &modifier("negctrl", zeros.len());
        let qubits: Vec<usize> = ones
            .iter()
            .chain(&zeros)
            .map(|&i| controls[i])
            .chain(targets.iter().copied())
            .collect();
        let ops: Vec<String> = qubits.iter().map(|q| format!("q[{q}]")).collect();
        let names: Vec<String> = qubits.iter().map(|&q| label(q)).collect();
        self.line(&format!(
            "{m}{name} {}; // {}",
            ops.join(", "),
            names.join(" ")
        ));
    }

    /// A played move: a comment, then its operations.
    fn played(&mut self, ply: usize, m: &PlayedMove) {
        self.line("");
        self.line(&format!("// Ply {ply}, {}: {}", m.color.name(), m.played));
        if let Some(a) = &m.explained.asked {
            let answer = if a.answer { "yes" } else { "no" };
            self.line(&format!("// it asked: {} {answer}", a.question));
        }
        let mut map = std::mem::take(&mut self.ancillas);
        let mut ops = m.ops.as_slice();
        let first_measure = ops.iter().position(|o| matches!(o, Op::Measure { .. }));
        if let (Some(_), Some(k)) = (m.outcome, first_measure) {
            let Op::Measure {
                predicate, outcome, ..
            } = &ops[k]
            else {
                unreachable!("position found a measurement");
            };
            self.ops(&ops[..k], &mut map);
            let (bit, holds) = self.measure(predicate, *outcome, &map);
            let rest = &ops[k + 1..];
            let end = rest
                .iter()
                .position(|o| matches!(o, Op::Measure { .. }))
                .unwrap_or(rest.len());
            self.line(&format!("if (b[{bit}] == {holds}) {{ // the move goes on"));
            self.depth += 1;
            if *outcome {
                self.ops(&rest[..end], &mut map);
            } else {
                // The game stopped here; these gates never ran there, so their
                // ancillas get qubits that nothing later refers to.
                let mut scratch = map.clone();
                self.ops(&went_on(m, predicate), &mut scratch);
            }
            self.depth -= 1;
            self.line("}");
            ops = &rest[end..];
        }
        self.ops(ops, &mut map);
        self.ancillas = map;
    }

    /// Operations with no measurement among them that other gates depend on.
    fn ops(&mut self, ops: &[Op], map: &mut Ancillas) {
        for op in ops {
            match op {
                Op::Gate {
                    gate,
                    targets,
                    controls,
                } => self.gate(*gate, targets, controls, map),
                Op::Measure {
                    predicate, outcome, ..
                } => {
                    self.measure(predicate, *outcome, map);
                }
                Op::Alloc { qubit } => {
                    let e = self.fresh();
                    map.insert(*qubit, e);
                    self.line(&format!("// q[{e}]: a new ancilla, |0>"));
                }
                Op::Release { qubit, value } => {
                    let e = Self::qubit(map, *qubit);
                    self.line(&format!(
                        "// q[{e}] is constant {} from here on and not used again",
                        *value as u8
                    ));
                }
                Op::Oracle { label } => {
                    unreachable!("chess circuits use no phase oracle ({label})")
                }
            }
        }
    }

    fn gate(&mut self, gate: Gate, targets: &[Qubit], controls: &[Control], map: &Ancillas) {
        let name = call(gate);
        let targets: Vec<usize> = targets.iter().map(|&t| Self::qubit(map, t)).collect();
        self.controlled(controls, map, |w, mods, ctl| {
            let mut qs = ctl.to_vec();
            qs.extend(&targets);
            w.call(mods, &name, &qs);
        });
    }

    /// Writes `body` under the conditions `controls` (modifiers and control qubits). A
    /// `Blocked` path becomes a flag qubit holding the OR of the path, computed before
    /// and uncomputed after.
    fn controlled(
        &mut self,
        controls: &[Control],
        map: &Ancillas,
        body: impl FnOnce(&mut Self, &[bool], &[usize]),
    ) {
        let mut mods = Vec::new();
        let mut qubits = Vec::new();
        let mut flags = Vec::new();
        for c in controls {
            match c {
                Control::Bit(q, v) => {
                    mods.push(*v);
                    qubits.push(Self::qubit(map, *q));
                }
                Control::Clear(path) => {
                    for &q in path {
                        mods.push(false);
                        qubits.push(Self::qubit(map, q));
                    }
                }
                Control::Blocked(path) => {
                    let f = self.free_flags.pop().unwrap_or_else(|| self.fresh());
                    let path: Vec<usize> = path.iter().map(|&q| Self::qubit(map, q)).collect();
                    self.or_flag(f, &path);
                    mods.push(true);
                    qubits.push(f);
                    flags.push((f, path));
                }
            }
        }
        match distinct(&mods, &qubits) {
            Some((mods, qubits)) => body(self, &mods, &qubits),
            None => self.line("// (skipped: its conditions contradict each other)"),
        }
        for (f, path) in flags.into_iter().rev() {
            self.or_flag(f, &path);
            self.free_flags.push(f);
        }
    }

    /// Flips flag `f` by the OR of `path` (f = 1 when a path square is occupied): X
    /// where the path is clear, then X. The same lines undo it.
    fn or_flag(&mut self, f: usize, path: &[usize]) {
        let names: Vec<String> = path.iter().map(|&q| label(q)).collect();
        self.line(&format!(
            "// flag q[{f}] ^= OR of {} (the path is blocked)",
            names.join(" ")
        ));
        let mut qs = path.to_vec();
        qs.push(f);
        self.call(&vec![false; path.len()], "x", &qs);
        self.call(&[], "x", &[f]);
    }

    /// Measures a predicate into a new bit; returns the bit and the value that means the
    /// predicate holds. One square's bit is measured directly; a conjunction is computed
    /// into a flag (AND), measured, and uncomputed (after the measurement the flag equals
    /// the predicate in every branch, so the same gate clears it).
    fn measure(&mut self, predicate: &[Control], outcome: bool, map: &Ancillas) -> (usize, bool) {
        let bit = self.recorded.len();
        if let [Control::Bit(q, v)] = predicate {
            let e = Self::qubit(map, *q);
            let got = outcome == *v;
            self.line(&format!(
                "b[{bit}] = measure q[{e}]; // {}, recorded {}",
                label(e),
                got as u8
            ));
            self.recorded.push(got);
            return (bit, *v);
        }
        let f = self.free_flags.pop().unwrap_or_else(|| self.fresh());
        self.line(&format!("// flag q[{f}] = the measured condition"));
        let and = |w: &mut Self, mods: &[bool], ctl: &[usize]| {
            let mut qs = ctl.to_vec();
            qs.push(f);
            w.call(mods, "x", &qs);
        };
        self.controlled(predicate, map, and);
        self.line(&format!(
            "b[{bit}] = measure q[{f}]; // recorded {}",
            outcome as u8
        ));
        self.controlled(predicate, map, and);
        self.free_flags.push(f);
        self.recorded.push(outcome);
        (bit, true)
    }
}

/// Control modifiers with each qubit once (two paths may share a square); None when a
/// qubit is asked to be both 1 and 0, so the gate never acts.
fn distinct(mods: &[bool], qubits: &[usize]) -> Option<(Vec<bool>, Vec<usize>)> {
    let (mut m, mut q): (Vec<bool>, Vec<usize>) = (Vec::new(), Vec::new());
    for (&v, &x) in mods.iter().zip(qubits) {
        match q.iter().position(|&y| y == x) {
            Some(i) if m[i] != v => return None,
            Some(_) => {}
            None => {
                m.push(v);
                q.push(x);
            }
        }
    }
    Some((m, q))
}

/// The operations of a measured move after its measurement, had it gone on: its circuit
/// run again, outcome forced to 1, on a basis state where the measured condition holds
/// (a move's gates do not depend on the state).
fn went_on(m: &PlayedMove, predicate: &[Control]) -> Vec<Op> {
    let mut initial = Bits::ZERO;
    for c in predicate {
        match c {
            Control::Bit(q, true) => initial.set(*q as usize, true),
            Control::Blocked(path) => {
                if let Some(&q) = path.first() {
                    initial.set(q as usize, true);
                }
            }
            Control::Bit(_, false) | Control::Clear(_) => {}
        }
    }
    let mut sim = Simulator::new(
        BackendKind::Sparse,
        initial,
        SQUARES,
        0,
        BackendOptions::default(),
    );
    circuits::apply(&mut sim, &m.class, Some(true))
        .expect("outcome 1 is certain where the measured condition holds");
    sim.take_trace()
        .into_iter()
        .skip_while(|o| !matches!(o, Op::Measure { .. }))
        .skip(1)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_path_squares_become_one_control() {
        assert_eq!(
            distinct(&[false, false, true, false], &[28, 46, 64, 28]),
            Some((vec![false, false, true], vec![28, 46, 64]))
        );
        assert_eq!(distinct(&[true, false], &[3, 3]), None);
    }
}
