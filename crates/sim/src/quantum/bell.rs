//! Looking inside a state: the two-qubit reduced density matrix, Bell-projector
//! expectation values and log negativity (docs/rules/quantum-chess.md, "Looking inside").

// Small fixed-size matrix arithmetic reads best with explicit indices.
#![allow(clippy::needless_range_loop)]

use super::{Backend, Bits, Complex64, Qubit};
use std::collections::HashMap;
use std::f64::consts::FRAC_1_SQRT_2;

/// A 4x4 density matrix over |x y> in the order 00, 01, 10, 11 (x is the high bit).
pub type Rho = [[Complex64; 4]; 4];

/// The reduced density matrix of qubits `x` and `y`: from the one part of the state
/// that holds both, or as the product of the two one-qubit states where independent
/// parts hold them (then nothing larger than those parts is looked at).
pub fn reduced(backend: &dyn Backend, x: Qubit, y: Qubit) -> Rho {
    let parts = backend.parts_holding(&[x, y]);
    let holding = |q: Qubit| {
        parts
            .iter()
            .find(|(qs, _)| qs.get(q as usize))
            .unwrap_or(&parts[0])
    };
    let (px, py) = (holding(x), holding(y));
    if std::ptr::eq(px, py) {
        return pair(&px.1, x, y);
    }
    let (rx, ry) = (single(&px.1, x), single(&py.1, y));
    let mut rho = [[Complex64::new(0.0, 0.0); 4]; 4];
    for i in 0..4 {
        for j in 0..4 {
            rho[i][j] = rx[i >> 1][j >> 1] * ry[i & 1][j & 1];
        }
    }
    rho
}

/// The reduced density matrix of `x` and `y` from branches that hold both.
fn pair(branches: &[(Bits, Complex64)], x: Qubit, y: Qubit) -> Rho {
    reduced_of(branches, &[x, y])
}

/// The one-qubit reduced density matrix of `x` from branches that hold it.
fn single(branches: &[(Bits, Complex64)], x: Qubit) -> [[Complex64; 2]; 2] {
    reduced_of(branches, &[x])
}

/// The reduced density matrix of the `qs` (the first the highest bit of the index; `N`
/// is 2^`qs.len()`): the branches grouped by their other bits, each group's amplitudes
/// summed as an outer product.
fn reduced_of<const N: usize>(branches: &[(Bits, Complex64)], qs: &[Qubit]) -> [[Complex64; N]; N] {
    // A fixed hasher: the groups are summed in the same order in every run.
    let mut groups: HashMap<Bits, [Complex64; N], foldhash::fast::FixedState> = HashMap::default();
    for (b, a) in branches {
        let idx = qs
            .iter()
            .fold(0usize, |i, &q| i << 1 | b.get(q as usize) as usize);
        let rest = qs.iter().fold(*b, |r, &q| r.with(q as usize, false));
        groups.entry(rest).or_insert([Complex64::new(0.0, 0.0); N])[idx] += a;
    }
    let mut rho = [[Complex64::new(0.0, 0.0); N]; N];
    for v in groups.values() {
        for i in 0..N {
            for j in 0..N {
                rho[i][j] += v[i] * v[j].conj();
            }
        }
    }
    rho
}

/// The eight Bell states in the spec's order: Psi+, Psi-, Psi+i, Psi-i, Phi+, Phi-,
/// Phi+i, Phi-i, as amplitudes over 00, 01, 10, 11.
pub fn bell_states() -> [[Complex64; 4]; 8] {
    let h = FRAC_1_SQRT_2;
    let z = Complex64::new(0.0, 0.0);
    let r = Complex64::new(h, 0.0);
    let i = Complex64::new(0.0, h);
    [
        [z, r, r, z],
        [z, r, -r, z],
        [z, r, i, z],
        [z, r, -i, z],
        [r, z, z, r],
        [r, z, z, -r],
        [r, z, z, i],
        [r, z, z, -i],
    ]
}

/// Bell correlations of two squares.
#[derive(Clone, Debug, PartialEq)]
pub struct Bell {
    /// <O_1> .. <O_8> in the spec's order.
    pub o: [f64; 8],
    /// |(O1, O2, O3, O4)|: how strongly the two are "opposite".
    pub opposite: f64,
    /// |(O5, O6, O7, O8)|: how strongly the two are "the same".
    pub same: f64,
}

impl Bell {
    /// opposite / (opposite + same), or 0 when both are 0.
    pub fn opposite_ratio(&self) -> f64 {
        let t = self.opposite + self.same;
        if t == 0.0 {
            0.0
        } else {
            self.opposite / t
        }
    }

    /// The chance that merging the two squares (`x y ^ t`) brings the piece onto the
    /// target, where the two squares hold it either-or: the Psi+ share of the opposite
    /// part (a fresh split is pure Psi+; under Psi- the merge sends it to y instead).
    /// None when the squares are never either-or.
    pub fn merge_chance(&self) -> Option<f64> {
        let w = self.o[0] + self.o[1];
        (w > 1e-9).then(|| (self.o[0] / w).clamp(0.0, 1.0))
    }

    /// A plain-words reading of the opposite values.
    pub fn merge_reading(&self) -> String {
        match self.merge_chance() {
            None => "the two squares never hold a piece either-or: a merge has nothing to join".into(),
            Some(c) if c > 1.0 - 1e-9 => {
                "in phase like a fresh split (Psi+): a merge brings the piece together".into()
            }
            Some(c) if c < 1e-9 => {
                "opposite phase (Psi-): a merge would send the piece to the second source, not the target".into()
            }
            Some(c) => format!(
                "the relative phase is twisted: a merge brings the piece together with probability {:.0}%",
                c * 100.0
            ),
        }
    }
}

/// Expectation values of the eight Bell projectors for qubits `x`, `y`.
pub fn bell(backend: &dyn Backend, x: Qubit, y: Qubit) -> Bell {
    let rho = reduced(backend, x, y);
    let mut o = [0.0; 8];
    for (k, b) in bell_states().iter().enumerate() {
        let mut e = Complex64::new(0.0, 0.0);
        for i in 0..4 {
            for j in 0..4 {
                e += b[i].conj() * rho[i][j] * b[j];
            }
        }
        o[k] = e.re;
    }
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    Bell {
        opposite: norm(&o[..4]),
        same: norm(&o[4..]),
        o,
    }
}

/// Log negativity (base 2) of the two-qubit reduced state of `x` and `y`: 0 for a
/// product (or separable) state, 1 for a maximally entangled pair.
pub fn log_negativity(backend: &dyn Backend, x: Qubit, y: Qubit) -> f64 {
    let rho = reduced(backend, x, y);
    // Partial transpose over y: swap the y indices of row and column.
    let mut pt = [[Complex64::new(0.0, 0.0); 4]; 4];
    for i in 0..4 {
        for j in 0..4 {
            let (ix, iy, jx, jy) = (i >> 1, i & 1, j >> 1, j & 1);
            pt[(ix << 1) | jy][(jx << 1) | iy] = rho[i][j];
        }
    }
    let trace_norm: f64 = hermitian_eigenvalues(&pt).iter().map(|l| l.abs()).sum();
    trace_norm.max(1.0).log2().max(0.0)
}

/// Eigenvalues of a 4x4 Hermitian matrix, through the 8x8 real symmetric matrix
/// [[A, -B], [B, A]] (each eigenvalue appears twice there) and Jacobi rotations.
fn hermitian_eigenvalues(h: &[[Complex64; 4]; 4]) -> [f64; 4] {
    let mut m = [[0.0f64; 8]; 8];
    for i in 0..4 {
        for j in 0..4 {
            m[i][j] = h[i][j].re;
            m[i + 4][j + 4] = h[i][j].re;
            m[i][j + 4] = -h[i][j].im;
            m[i + 4][j] = h[i][j].im;
        }
    }
    for _sweep in 0..100 {
        let off: f64 = (0..8)
            .flat_map(|i| (0..8).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| m[i][j] * m[i][j])
            .sum();
        if off < 1e-30 {
            break;
        }
        for p in 0..8 {
            for q in (p + 1)..8 {
                if m[p][q].abs() < 1e-300 {
                    continue;
                }
                let theta = (m[q][q] - m[p][p]) / (2.0 * m[p][q]);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..8 {
                    let (mkp, mkq) = (m[k][p], m[k][q]);
                    m[k][p] = c * mkp - s * mkq;
                    m[k][q] = s * mkp + c * mkq;
                }
                for k in 0..8 {
                    let (mpk, mqk) = (m[p][k], m[q][k]);
                    m[p][k] = c * mpk - s * mqk;
                    m[q][k] = s * mpk + c * mqk;
                }
            }
        }
    }
    let mut d: Vec<f64> = (0..8).map(|i| m[i][i]).collect();
    d.sort_by(f64::total_cmp);
    [d[0], d[2], d[4], d[6]]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantum::{BackendKind, BackendOptions, Gate};

    /// Both backends, as single registers and factored.
    fn both(initial: &[usize], gates: &[(Gate, [Qubit; 2])]) -> Vec<Box<dyn Backend>> {
        [BackendKind::Sparse, BackendKind::Dense]
            .iter()
            .flat_map(|&k| [(k, false), (k, true)])
            .map(|(k, factored)| {
                let mut b = crate::quantum::new_state(
                    k,
                    Bits::from_qubits(initial.iter().copied()),
                    BackendOptions {
                        factored,
                        ..BackendOptions::default()
                    },
                );
                for (g, t) in gates {
                    b.apply(*g, t, &[]).unwrap();
                }
                b
            })
            .collect()
    }

    #[test]
    fn a_split_is_psi_plus() {
        // The split jump 0 -> (1, 2): i/sqrt2 (|1> + |2>).
        for b in both(&[0], &[(Gate::SqrtISwap, [0, 1]), (Gate::ISwap, [0, 2])]) {
            let r = bell(b.as_ref(), 1, 2);
            assert!((r.o[0] - 1.0).abs() < 1e-12, "{:?}", r.o);
            assert!(r.o[1].abs() < 1e-12);
            assert!((r.o[2] - 0.5).abs() < 1e-12 && (r.o[3] - 0.5).abs() < 1e-12);
            assert!(r.o[4..].iter().all(|v| v.abs() < 1e-12));
            assert!(r.same.abs() < 1e-12);
            assert_eq!(r.merge_chance(), Some(1.0));
            assert!(r.merge_reading().contains("brings the piece together"));
            assert!((log_negativity(b.as_ref(), 1, 2) - 1.0).abs() < 1e-9);
        }
    }

    #[test]
    fn half_split_is_psi_plus_i() {
        // SQRT_ISWAP alone: i/sqrt2 |q1> + 1/sqrt2 |q0>; over |x y> = |q1 q0>:
        // (|01> + i|10>)/sqrt2 = Psi+i, so a merge lands half the time.
        for b in both(&[0], &[(Gate::SqrtISwap, [0, 1])]) {
            let r = bell(b.as_ref(), 1, 0);
            assert!((r.o[2] - 1.0).abs() < 1e-12, "{:?}", r.o);
            assert!((r.merge_chance().unwrap() - 0.5).abs() < 1e-12);
            assert!(r.merge_reading().contains("50%"));
        }
    }

    #[test]
    fn classical_pairs_are_pure_same_or_opposite() {
        for b in both(&[0, 1], &[]) {
            let r = bell(b.as_ref(), 0, 1);
            assert!(r.opposite.abs() < 1e-12 && r.same > 0.5);
            assert!((r.o[4] - 0.5).abs() < 1e-12 && (r.o[5] - 0.5).abs() < 1e-12);
            assert!(log_negativity(b.as_ref(), 0, 1).abs() < 1e-9);
        }
        for b in both(&[0], &[]) {
            let r = bell(b.as_ref(), 0, 1);
            assert!(r.same.abs() < 1e-12 && r.opposite > 0.5);
            assert!((r.opposite_ratio() - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn product_states_have_no_negativity() {
        // Two independent splits: qubits 0/1 and 2/3 are each entangled inside, not across.
        for b in both(
            &[0, 2],
            &[(Gate::SqrtISwap, [0, 1]), (Gate::SqrtISwap, [2, 3])],
        ) {
            assert!(log_negativity(b.as_ref(), 0, 2).abs() < 1e-9);
            assert!(log_negativity(b.as_ref(), 1, 3).abs() < 1e-9);
            assert!((log_negativity(b.as_ref(), 2, 3) - 1.0).abs() < 1e-9);
        }
    }
}
