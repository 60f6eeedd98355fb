//! Random circuits for the property tests: gates, controls and steps over a pool of
//! qubits.

use proptest::prelude::*;
use qchess::quantum::{Bits, Control, Gate, Qubit};

/// One step of a random circuit.
#[derive(Clone, Debug)]
pub enum Step {
    /// A gate with its targets and controls (the controls never read the targets).
    Gate(Gate, Vec<Qubit>, Vec<Control>),
    /// A measurement, forced or drawn.
    Measure(Vec<Control>, Option<bool>),
    /// Compaction.
    Compact,
    /// Release of the constant ancillas.
    Release,
}

/// A qubit of `pool`.
pub fn qubit(pool: &'static [Qubit]) -> impl Strategy<Value = Qubit> {
    prop::sample::select(pool)
}

/// Any gate of the simulator, rotations at random angles.
pub fn any_gate() -> impl Strategy<Value = Gate> {
    prop_oneof![
        Just(Gate::ISwap),
        Just(Gate::ISwapInv),
        Just(Gate::SqrtISwap),
        Just(Gate::SqrtISwapInv),
        Just(Gate::Swap),
        Just(Gate::X),
        Just(Gate::H),
        Just(Gate::Z),
        (-4.0f64..4.0).prop_map(Gate::Phase),
        (-4.0f64..4.0).prop_map(Gate::Ry),
        (-4.0f64..4.0).prop_map(Gate::Rx),
    ]
}

/// A control on qubits of `pool`.
pub fn control(pool: &'static [Qubit]) -> impl Strategy<Value = Control> {
    prop_oneof![
        (qubit(pool), any::<bool>()).prop_map(|(q, v)| Control::Bit(q, v)),
        prop::collection::vec(qubit(pool), 1..3).prop_map(Control::Clear),
        prop::collection::vec(qubit(pool), 1..3).prop_map(Control::Blocked),
    ]
}

/// A gate from `gate` on qubits of `pool`, with up to two controls that do not read its
/// targets.
pub fn gate_step(
    gate: impl Strategy<Value = Gate>,
    pool: &'static [Qubit],
) -> impl Strategy<Value = Step> {
    (
        gate,
        qubit(pool),
        qubit(pool),
        prop::collection::vec(control(pool), 0..3),
    )
        .prop_map(|(g, a, b, controls)| {
            let targets = if g.arity() == 2 { vec![a, b] } else { vec![a] };
            let controls = controls
                .into_iter()
                .filter(|c| c.qubits().iter().all(|q| !targets.contains(q)))
                .collect();
            Step::Gate(g, targets, controls)
        })
}

/// A measurement of up to two conditions on qubits of `pool`.
pub fn measure_step(pool: &'static [Qubit]) -> impl Strategy<Value = Step> {
    (
        prop::collection::vec(control(pool), 1..3),
        prop::option::of(any::<bool>()),
    )
        .prop_map(|(p, f)| Step::Measure(p, f))
}

/// A basis state with any of the qubits of `pool` set.
pub fn initial(pool: &'static [Qubit]) -> impl Strategy<Value = Bits> {
    prop::collection::vec(any::<bool>(), pool.len()).prop_map(move |v| {
        Bits::from_qubits(
            pool.iter()
                .zip(v)
                .filter(|(_, on)| *on)
                .map(|(&q, _)| q as usize),
        )
    })
}
