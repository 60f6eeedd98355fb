//! The gates of the simulator and their 2x2 action.

use num_complex::Complex64;
use serde::{Deserialize, Serialize};
use std::f64::consts::FRAC_1_SQRT_2;

/// A gate. Two-qubit gates act on the {|01>, |10>} pair of their targets (a, b) and leave
/// |00> and |11> alone; one-qubit gates act on {|0>, |1>}.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Gate {
    /// |01> -> i|10>, |10> -> i|01>.
    ISwap,
    /// |01> -> -i|10>, |10> -> -i|01>.
    ISwapInv,
    /// |01> -> (|01> + i|10>)/sqrt2, |10> -> (i|01> + |10>)/sqrt2.
    SqrtISwap,
    /// |01> -> (|01> - i|10>)/sqrt2, |10> -> (-i|01> + |10>)/sqrt2.
    SqrtISwapInv,
    /// Plain swap of two qubits.
    Swap,
    /// Bit flip (with controls: CNOT, Toffoli, ...).
    X,
    /// Hadamard.
    H,
    /// Phase flip of |1>.
    Z,
    /// diag(1, e^{i phi}).
    Phase(f64),
    /// Rotation about Y by theta: [[cos t/2, -sin t/2], [sin t/2, cos t/2]].
    Ry(f64),
    /// Rotation about X by theta: [[cos t/2, -i sin t/2], [-i sin t/2, cos t/2]].
    Rx(f64),
    /// Rotation about Z by theta: diag(e^{-i t/2}, e^{i t/2}).
    Rz(f64),
}

impl Gate {
    /// Number of target qubits (1 or 2).
    pub fn arity(&self) -> usize {
        match self {
            Gate::ISwap | Gate::ISwapInv | Gate::SqrtISwap | Gate::SqrtISwapInv | Gate::Swap => 2,
            _ => 1,
        }
    }

    /// The 2x2 matrix `m[row][col]` on the gate's pair of basis states. Side 0 is the
    /// state whose first target is 0 (|01> or |0>), side 1 the one whose first target is 1.
    pub fn matrix(&self) -> [[Complex64; 2]; 2] {
        let z = Complex64::new(0.0, 0.0);
        let one = Complex64::new(1.0, 0.0);
        let i = Complex64::new(0.0, 1.0);
        let h = FRAC_1_SQRT_2;
        match *self {
            Gate::ISwap => [[z, i], [i, z]],
            Gate::ISwapInv => [[z, -i], [-i, z]],
            Gate::SqrtISwap => [[one * h, i * h], [i * h, one * h]],
            Gate::SqrtISwapInv => [[one * h, -i * h], [-i * h, one * h]],
            Gate::Swap | Gate::X => [[z, one], [one, z]],
            Gate::H => [[one * h, one * h], [one * h, -one * h]],
            Gate::Z => [[one, z], [z, -one]],
            Gate::Phase(phi) => [[one, z], [z, Complex64::from_polar(1.0, phi)]],
            Gate::Ry(t) => {
                let (s, c) = (t / 2.0).sin_cos();
                [[one * c, -one * s], [one * s, one * c]]
            }
            Gate::Rx(t) => {
                let (s, c) = (t / 2.0).sin_cos();
                [[one * c, -i * s], [-i * s, one * c]]
            }
            Gate::Rz(t) => [
                [Complex64::from_polar(1.0, -t / 2.0), z],
                [z, Complex64::from_polar(1.0, t / 2.0)],
            ],
        }
    }

    /// The inverse gate.
    pub fn inverse(&self) -> Gate {
        match *self {
            Gate::ISwap => Gate::ISwapInv,
            Gate::ISwapInv => Gate::ISwap,
            Gate::SqrtISwap => Gate::SqrtISwapInv,
            Gate::SqrtISwapInv => Gate::SqrtISwap,
            Gate::Phase(p) => Gate::Phase(-p),
            Gate::Ry(t) => Gate::Ry(-t),
            Gate::Rx(t) => Gate::Rx(-t),
            Gate::Rz(t) => Gate::Rz(-t),
            g => g,
        }
    }

    /// Short name as drawn in a circuit.
    pub fn name(&self) -> String {
        match self {
            Gate::ISwap => "ISWAP".into(),
            Gate::ISwapInv => "ISWAP†".into(),
            Gate::SqrtISwap => "√ISWAP".into(),
            Gate::SqrtISwapInv => "√ISWAP†".into(),
            Gate::Swap => "SWAP".into(),
            Gate::X => "X".into(),
            Gate::H => "H".into(),
            Gate::Z => "Z".into(),
            Gate::Phase(p) => format!("P({p:.3})"),
            Gate::Ry(t) => format!("Ry({t:.3})"),
            Gate::Rx(t) => format!("Rx({t:.3})"),
            Gate::Rz(t) => format!("Rz({t:.3})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn product(a: [[Complex64; 2]; 2], b: [[Complex64; 2]; 2]) -> [[Complex64; 2]; 2] {
        let mut m = [[Complex64::new(0.0, 0.0); 2]; 2];
        for r in 0..2 {
            for c in 0..2 {
                m[r][c] = a[r][0] * b[0][c] + a[r][1] * b[1][c];
            }
        }
        m
    }

    fn close(a: [[Complex64; 2]; 2], b: [[Complex64; 2]; 2]) -> bool {
        (0..4).all(|k| (a[k / 2][k % 2] - b[k / 2][k % 2]).norm() < 1e-12)
    }

    #[test]
    fn rotations_about_x_and_z() {
        let i = Complex64::new(0.0, 1.0);
        let z = Complex64::new(0.0, 0.0);
        // Rx(pi) = -iX, Rz(pi) = diag(-i, i): exact, with their global phase.
        assert!(close(
            Gate::Rx(std::f64::consts::PI).matrix(),
            [[z, -i], [-i, z]]
        ));
        assert!(close(
            Gate::Rz(std::f64::consts::PI).matrix(),
            [[-i, z], [z, i]]
        ));
        for g in [Gate::Rx(0.7), Gate::Rz(-1.9)] {
            let id = product(g.matrix(), g.inverse().matrix());
            let one = Complex64::new(1.0, 0.0);
            assert!(close(id, [[one, z], [z, one]]), "{g:?}");
        }
        // Rz(t) = e^{-it/2} Phase(t).
        let t = 0.37;
        let p = Gate::Phase(t)
            .matrix()
            .map(|r| r.map(|v| v * Complex64::from_polar(1.0, -t / 2.0)));
        assert!(close(Gate::Rz(t).matrix(), p));
    }
}
