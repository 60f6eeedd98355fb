//! OpenQASM 3 export: the gate definitions against the simulator's gates, random games
//! exported, read back and run on both backends, and the `if` structure of measured moves.

use qchess::chess::{random::random_move, Game, GameOptions, Square, Status};
use qchess::qasm::{self, gates::DEFINITIONS, Program, QasmError, Stmt};
use qchess::quantum::{
    new_backend, Backend, BackendKind, BackendOptions, Bits, Complex64, Control, Gate, Op,
    SimulatorSettings,
};
use qchess::seeded::SeededRng;

const KINDS: [BackendKind; 2] = [BackendKind::Sparse, BackendKind::Dense];

fn opts(backend: BackendKind, seed: u64) -> GameOptions {
    GameOptions {
        simulator: SimulatorSettings::on(backend),
        seed,
        ..GameOptions::default()
    }
}

/// Applies a read program's gates (no measurements) to a backend.
fn apply_all(b: &mut dyn Backend, body: &[Stmt]) {
    for s in body {
        match s {
            Stmt::Gate {
                gate,
                targets,
                controls,
            } => b.apply(*gate, targets, controls).unwrap(),
            other => panic!("unexpected {other:?}"),
        }
    }
}

fn read(text: &str) -> Program {
    qasm::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// A program of the definitions and one line on `qubit[3] q`.
fn one_line(line: &str) -> Program {
    read(&format!(
        "OPENQASM 3.0;\ninclude \"stdgates.inc\";\n{DEFINITIONS}qubit[3] q;\n{line}\n"
    ))
}

const DEFINED: [(&str, Gate); 4] = [
    ("iswap", Gate::ISwap),
    ("iswapdg", Gate::ISwapInv),
    ("sqiswap", Gate::SqrtISwap),
    ("sqiswapdg", Gate::SqrtISwapInv),
];

#[test]
fn defined_gates_have_the_simulator_matrices() {
    let zero = Complex64::new(0.0, 0.0);
    let one = Complex64::new(1.0, 0.0);
    for (name, gate) in DEFINED {
        let p = one_line(&format!("{name} q[0], q[1];"));
        // The 4x4 matrix of the decomposition, column by column (basis |q0 q1>).
        let m = gate.matrix();
        for input in 0..4usize {
            let (a, b) = (input >> 1 & 1 == 1, input & 1 == 1);
            let mut be = new_backend(
                BackendKind::Sparse,
                Bits::ZERO.with(0, a).with(1, b),
                BackendOptions::default(),
            );
            apply_all(be.as_mut(), &p.body);
            let mut col = [zero; 4];
            for (bits, amp) in be.branches() {
                col[(bits.get(0) as usize) << 1 | bits.get(1) as usize] += amp;
            }
            // Identity on |00> and |11>; the gate's 2x2 on |01> (side 0), |10> (side 1).
            let mut want = [zero; 4];
            match input {
                0 | 3 => want[input] = one,
                _ => {
                    let side = (input == 2) as usize;
                    want[1] = m[0][side];
                    want[2] = m[1][side];
                }
            }
            for k in 0..4 {
                assert!(
                    (col[k] - want[k]).norm() < 1e-12,
                    "{name}: column {input:02b}, row {k:02b}: {} != {}",
                    col[k],
                    want[k]
                );
            }
        }
    }
}

/// A state over qubits 0..3 with generic amplitudes everywhere.
fn scrambled(kind: BackendKind) -> Box<dyn Backend> {
    let mut s = new_backend(kind, Bits::from_qubits([1]), BackendOptions::default());
    for q in 0..3u16 {
        s.apply(Gate::Ry(0.4 + 0.9 * q as f64), &[q], &[]).unwrap();
        s.apply(Gate::Phase(0.3 + 1.3 * q as f64), &[q], &[])
            .unwrap();
    }
    s.apply(Gate::SqrtISwap, &[0, 2], &[]).unwrap();
    s
}

#[test]
fn controlled_definitions_keep_their_phase() {
    // ctrl @ g expands to every gate of g's body under the control: right only if the
    // body is exact, global phase included.
    for kind in KINDS {
        for (name, gate) in DEFINED {
            for (modifier, value) in [("ctrl", true), ("negctrl", false)] {
                let p = one_line(&format!("{modifier} @ {name} q[2], q[0], q[1];"));
                let mut got = scrambled(kind);
                apply_all(got.as_mut(), &p.body);
                let mut want = scrambled(kind);
                want.apply(gate, &[0, 1], &[Control::Bit(2, value)])
                    .unwrap();
                let (g, w) = (got.branches(), want.branches());
                assert_eq!(g.len(), w.len(), "{modifier} @ {name}");
                for ((bg, ag), (bw, aw)) in g.iter().zip(&w) {
                    assert_eq!(bg, bw, "{modifier} @ {name}");
                    assert!((ag - aw).norm() < 1e-12, "{modifier} @ {name}: {ag} {aw}");
                }
            }
        }
    }
}

/// Plays up to `plies` random moves that measure nothing (a move that would measure is
/// tried on a copy and skipped).
fn measurement_free_game(kind: BackendKind, seed: u64, plies: usize) -> Game {
    let mut game = Game::standard(opts(kind, seed));
    let mut rng = SeededRng::new(seed);
    let mut misses = 0;
    while game.ply() < plies && misses < 50 && game.status() == Status::Ongoing {
        let Some(m) = random_move(&game, &mut rng) else {
            break;
        };
        let mut next = game.clone();
        let measured = match next.play(&m.to_string()) {
            Ok(p) => p.ops.iter().any(|o| matches!(o, Op::Measure { .. })),
            Err(_) => true,
        };
        if measured {
            misses += 1;
        } else {
            game = next;
        }
    }
    game
}

/// The qubits the export names as flags (`// flag q[N] ...`).
fn flag_qubits(text: &str) -> Vec<usize> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("// flag q["))
        .filter_map(|l| l.split(']').next()?.parse().ok())
        .collect()
}

fn assert_probabilities(game: &Game, probs: &[f64], what: &str) {
    let want = game.simulator().backend().probabilities(64);
    for s in Square::all() {
        let (g, w) = (probs[s.index()], want[s.index()]);
        assert!((g - w).abs() < 1e-9, "{what}: {s}: {g} != {w}");
    }
}

#[test]
fn random_games_round_trip_on_both_backends() {
    let (mut controlled, mut flags, mut ancillas) = (0, 0, 0);
    // Random games, and one with an ancilla (en passant with the knight split nearby).
    let mut games = Vec::new();
    for kind in KINDS {
        for seed in 0..6u64 {
            let game = measurement_free_game(kind, seed, 40);
            assert!(game.ply() >= 10, "seed {seed}: only {} plies", game.ply());
            games.push((seed, game));
        }
        let mut game = Game::standard(opts(kind, 0));
        for m in ["e2e4", "g8^f6h6", "e4e5", "d7d5", "e5d6"] {
            game.play(m).unwrap();
        }
        games.push((99, game));
    }
    for (seed, game) in games {
        let out = qasm::program(&game);
        assert!(out.recorded.is_empty(), "seed {seed}: no measurement");
        let p = read(&out.text);
        assert_eq!(p.qubits, out.qubits);
        for run_kind in KINDS {
            let sim = qasm::simulate(&p, run_kind, &[], 0).unwrap();
            assert_probabilities(&game, &sim.probabilities, &format!("seed {seed}"));
            // Every OR flag was uncomputed back to 0.
            for f in flag_qubits(&out.text) {
                assert!(sim.probabilities[f] < 1e-12, "seed {seed}: flag q[{f}]");
            }
        }
        controlled += out.text.matches("negctrl").count();
        flags += out.text.matches("(the path is blocked)").count();
        ancillas += out.text.matches("a new ancilla").count();
    }
    // The games exercised path conditions, OR flags and ancillas.
    assert!(
        controlled > 0 && flags > 0 && ancillas > 0,
        "{controlled} {flags} {ancillas}"
    );
}

const CAPTURE_FEN: &str = "k6r/8/8/8/8/8/8/BN2K3 w - - 0 1";

fn free_game(kind: BackendKind, moves: &str) -> Game {
    let opts = GameOptions {
        free_turns: true,
        ..opts(kind, 0)
    };
    let mut g = Game::from_fen(CAPTURE_FEN, opts).unwrap();
    for m in moves.split_whitespace() {
        g.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    g
}

#[test]
fn measured_moves_put_their_gates_inside_if() {
    // A split knight on a3/c3, then the bishop captures h8 through c3: a measurement of
    // "bishop on a1 and the path clear", computed into a flag.
    for kind in KINDS {
        let stopped = free_game(kind, "b1^a3c3 a8b8 a1xh8.m0");
        let went_on = free_game(kind, "b1^a3c3 a8b8 a1xh8.m1");
        for (game, outcome) in [(&stopped, false), (&went_on, true)] {
            let out = qasm::program(game);
            assert_eq!(out.recorded, vec![outcome]);
            let p = read(&out.text);
            // Structure: the flag is computed, measured into b[0], uncomputed; then one
            // if on b[0] holding the capture's two iSWAPs (6 + 6 primitive gates).
            let k = p
                .body
                .iter()
                .position(|s| matches!(s, Stmt::Measure { .. }))
                .unwrap();
            let Stmt::Measure { qubit, bit: 0 } = p.body[k] else {
                panic!("{:?}", p.body[k]);
            };
            assert!(qubit >= 64, "measured into a flag");
            let Stmt::If {
                bit: 0,
                value: true,
                body,
            } = &p.body[k + 2]
            else {
                panic!("{:?}", &p.body[k + 1..]);
            };
            assert_eq!(body.len(), 12);
            let touched: Vec<u16> = body
                .iter()
                .flat_map(|s| match s {
                    Stmt::Gate { targets, .. } => targets.clone(),
                    _ => vec![],
                })
                .collect();
            let h8 = Square::parse("h8").unwrap().0 as u16;
            assert!(touched.contains(&0) && touched.contains(&h8));
            assert_eq!(p.body.len(), k + 3, "the if is the last statement");
            // Forced to the recorded outcome, the program ends where the game did; the
            // stopped game's program, forced to the other outcome, ends where the game
            // that went on did (its if body was derived, not recorded).
            for run_kind in KINDS {
                let sim = qasm::simulate(&p, run_kind, &out.recorded, 0).unwrap();
                assert_probabilities(game, &sim.probabilities, "recorded");
                assert_eq!(sim.bits, out.recorded);
                let other = qasm::simulate(&p, run_kind, &[!outcome], 0).unwrap();
                let twin = if outcome { &stopped } else { &went_on };
                assert_probabilities(twin, &other.probabilities, "other outcome");
            }
        }
    }
}

#[test]
fn one_square_measurements_read_the_square() {
    // An excluded move measures one square directly and conditions on its value.
    for (moves, holds) in [("b1^a3c3 a1c3.m1", false), ("b1^a3c3 a1c3.m0", false)] {
        let game = free_game(BackendKind::Sparse, moves);
        let out = qasm::program(&game);
        let p = read(&out.text);
        let c3 = Square::parse("c3").unwrap().0 as u16;
        assert!(p
            .body
            .iter()
            .any(|s| matches!(s, Stmt::Measure { qubit, bit: 0 } if *qubit == c3)));
        assert!(p
            .body
            .iter()
            .any(|s| matches!(s, Stmt::If { bit: 0, value, .. } if *value == holds)));
        let sim = qasm::simulate(&p, BackendKind::Sparse, &out.recorded, 0).unwrap();
        assert_probabilities(&game, &sim.probabilities, moves);
    }
}

#[test]
fn a_game_ended_by_repetition_measures_the_board() {
    // The split knight stays in superposition; the third repetition measures the board.
    let moves = "b1^a3c3 g8f6 g1f3 f6g8 f3g1 g8f6 g1f3 f6g8 f3g1";
    for kind in KINDS {
        let mut game = Game::standard(opts(kind, 1));
        for m in moves.split_whitespace() {
            game.play(m).unwrap();
        }
        assert_eq!(game.status(), Status::Draw);
        let out = qasm::program(&game);
        // a3 is measured (c3 is then certain): one bit, the program's last statement.
        assert_eq!(out.recorded.len(), 1);
        let p = read(&out.text);
        let a3 = Square::parse("a3").unwrap().0 as u16;
        assert_eq!(p.body.last(), Some(&Stmt::Measure { qubit: a3, bit: 0 }));
        for run_kind in KINDS {
            let sim = qasm::simulate(&p, run_kind, &out.recorded, 0).unwrap();
            assert_probabilities(&game, &sim.probabilities, "board measured");
        }
    }
}

#[test]
fn reader_errors_name_the_line() {
    let cases = [
        ("qubit[2] q;\nfoo q[0];", 2, "unknown gate"),
        ("qubit[2] q;\nx q[2];", 2, "past the end"),
        ("qubit[2] q;\n\ncx q[0], q[0];", 3, "twice"),
        ("qubit[1] q;\nrx q[0];", 2, "angle"),
        ("include \"other.inc\";", 1, "stdgates.inc"),
        (
            "qubit[1] q;\nbit[1] b;\nif (b[0] == 2) { x q[0]; }",
            3,
            "compared",
        ),
        ("qubit[1] q;\nx q[0]", 2, "expected ';'"),
        // Found by the fuzzer: register sizes that overflowed the count.
        ("bit[65666666666666666666] q;", 1, "too large"),
        ("qubit[1048576] q;\nqubit[1] r;", 2, "too large"),
    ];
    for (text, line, words) in cases {
        match qasm::parse(text) {
            Err(QasmError::Syntax { line: l, message }) => {
                assert_eq!(l, line, "{text}: {message}");
                assert!(message.contains(words), "{text}: {message}");
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    let big = qasm::parse("qubit[300] q;").unwrap();
    assert_eq!(
        qasm::simulate(&big, BackendKind::Sparse, &[], 0),
        Err(QasmError::TooManyQubits(300))
    );
}

#[test]
fn angles_are_read_as_expressions() {
    let p = read("qubit[1] q;\nrz(-pi/4) q[0];\nrx(2*(pi - 1.5e0)/3) q[0];\np(0.25) q[0];");
    let gates: Vec<Gate> = p
        .body
        .iter()
        .map(|s| match s {
            Stmt::Gate { gate, .. } => *gate,
            other => panic!("{other:?}"),
        })
        .collect();
    let pi = std::f64::consts::PI;
    assert_eq!(
        gates,
        vec![
            Gate::Rz(-pi / 4.0),
            Gate::Rx(2.0 * (pi - 1.5) / 3.0),
            Gate::Phase(0.25)
        ]
    );
}

/// The modifiers in front of the gate of one line: (`ctrl`?, count) per modifier.
fn modifiers(line: &str) -> Vec<(bool, usize)> {
    let mut out = Vec::new();
    let mut rest = line.trim_start();
    loop {
        let (word, after) = if let Some(a) = rest.strip_prefix("negctrl") {
            (false, a)
        } else if let Some(a) = rest.strip_prefix("ctrl") {
            (true, a)
        } else {
            return out;
        };
        let (n, after) = match after.strip_prefix('(') {
            Some(a) => {
                let (num, a) = a.split_once(')').expect("closed count");
                (num.parse().expect("a count"), a)
            }
            None => (1, after),
        };
        out.push((word, n));
        rest = after
            .trim_start()
            .strip_prefix('@')
            .expect("@")
            .trim_start();
    }
}

#[test]
fn a_queen_split_slide_has_no_stacked_modifiers() {
    // The knight's split puts a piece in superposition on d2, on the queen's path to d5;
    // the queen's split to d5 and h5 then depends on the path: several controls.
    for kind in KINDS {
        let mut g = Game::from_fen(
            "4k3/8/8/8/8/8/2P1P3/1N1QK3 w - - 0 1",
            GameOptions {
                free_turns: true,
                ..opts(kind, 0)
            },
        )
        .unwrap();
        for m in ["b1^d2a3", "c2c3", "d1^d5a4"] {
            g.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        let out = qasm::program(&g);
        let mut most = 0;
        for line in out.text.lines() {
            let mods = modifiers(line);
            let ctrl = mods.iter().filter(|m| m.0).count();
            let neg = mods.iter().filter(|m| !m.0).count();
            assert!(ctrl <= 1 && neg <= 1, "stacked modifiers: {line}");
            most = most.max(mods.iter().map(|m| m.1).sum::<usize>());
        }
        assert!(
            most >= 2,
            "the slide is controlled by several squares:\n{}",
            out.text
        );
        let p = read(&out.text);
        let sim = qasm::simulate(&p, kind, &[], 0).unwrap();
        assert_probabilities(&g, &sim.probabilities, "queen split-slide");
    }
}

#[test]
fn counted_modifiers_read_as_single_ones() {
    let prog = |line: &str| read(&format!("qubit[5] q;\n{line}\n"));
    let a = prog("ctrl(2) @ negctrl(2) @ x q[0], q[1], q[2], q[3], q[4];");
    let b = prog("ctrl @ ctrl @ negctrl @ negctrl @ x q[0], q[1], q[2], q[3], q[4];");
    assert_eq!(a, b);
    match &a.body[..] {
        [Stmt::Gate { controls, .. }] => assert_eq!(
            controls,
            &vec![
                Control::Bit(0, true),
                Control::Bit(1, true),
                Control::Bit(2, false),
                Control::Bit(3, false)
            ]
        ),
        other => panic!("{other:?}"),
    }
    for bad in [
        "ctrl(0) @ x q[0], q[1];",
        "ctrl(9999999999) @ x q[0], q[1];",
        "ctrl(3) @ x q[0], q[1];",
        "negctrl(2 @ x q[0], q[1], q[2];",
    ] {
        assert!(
            qasm::parse(&format!("qubit[5] q;\n{bad}\n")).is_err(),
            "{bad}"
        );
    }
}
