//! A fingerprint of a quantum state that is the same however the state is split into
//! factors, and blind to a global phase: the state's multilinear polynomial evaluated at
//! fixed points.
//!
//! For a state `sum_b a_b |b>`, point `k` gives `F_k = sum_b a_b prod_{q in b} r_kq` with
//! fixed unit complex numbers `r_kq`. Because the factors of a product state have disjoint
//! qubits, `F_k` of the product is the product of the factors' `F_k`: each factor's value
//! is computed once (and cached), and a state split differently gives the same value. Two
//! states are compared up to a global phase, with a tolerance scaled by each value's
//! condition number, so that the comparison means "amplitudes equal to about 1e-9".

use super::{Bits, Complex64, MAX_QUBITS};
use std::f64::consts::TAU;
use std::sync::OnceLock;

/// Number of evaluation points.
const POINTS: usize = 4;

/// Relative tolerance of a comparison, per unit of condition number.
const TOLERANCE: f64 = 1e-9;

/// The fingerprint of a state (or of one factor of it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Signature {
    /// ln |F_k|.
    log_abs: [f64; POINTS],
    /// arg F_k, in [0, 2 pi).
    arg: [f64; POINTS],
    /// Condition number of F_k: sum |a_b| / |F_k| (infinite where F_k is 0).
    cond: [f64; POINTS],
}

/// The evaluation points: `r[k][q]` on the unit circle, at angles from a fixed hash.
fn points() -> &'static [[Complex64; MAX_QUBITS]; POINTS] {
    static POINTS_TABLE: OnceLock<Box<[[Complex64; MAX_QUBITS]; POINTS]>> = OnceLock::new();
    POINTS_TABLE.get_or_init(|| {
        let mut t = Box::new([[Complex64::new(1.0, 0.0); MAX_QUBITS]; POINTS]);
        for (k, row) in t.iter_mut().enumerate() {
            for (q, r) in row.iter_mut().enumerate() {
                // splitmix64 of (k, q): well-spread angles, none a simple fraction of pi.
                let mut z = (k as u64 * MAX_QUBITS as u64 + q as u64 + 1)
                    .wrapping_mul(0x9E37_79B9_7F4A_7C15);
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^= z >> 31;
                let angle = (z >> 11) as f64 / (1u64 << 53) as f64 * TAU;
                *r = Complex64::from_polar(1.0, angle);
            }
        }
        t
    })
}

impl Signature {
    /// The signature of the state with amplitude 1 on the all-zero basis state.
    pub const ONE: Signature = Signature {
        log_abs: [0.0; POINTS],
        arg: [0.0; POINTS],
        cond: [0.0; POINTS],
    };

    /// The signature of a state given by its branches (any order).
    pub fn of_branches<'a, I>(branches: I) -> Signature
    where
        I: IntoIterator<Item = (&'a Bits, &'a Complex64)>,
    {
        let mut acc = Accumulator::default();
        for (b, a) in branches {
            acc.add(b, *a);
        }
        acc.finish()
    }

    /// The signature of one basis state with amplitude `a`.
    pub fn of_basis(b: &Bits, a: Complex64) -> Signature {
        Signature::of_branches([(b, &a)])
    }

    /// The signature of the product of two states on disjoint qubits.
    pub fn times(&self, o: &Signature) -> Signature {
        let mut s = *self;
        for k in 0..POINTS {
            s.log_abs[k] += o.log_abs[k];
            s.arg[k] = (s.arg[k] + o.arg[k]).rem_euclid(TAU);
            s.cond[k] += o.cond[k];
        }
        s
    }

    /// True when the two states are equal up to a global phase (to the tolerance). Points
    /// where either value is 0 carry no information; with fewer than two informative
    /// points the states are taken as different.
    pub fn matches(&self, o: &Signature) -> bool {
        let usable: Vec<usize> = (0..POINTS)
            .filter(|&k| self.cond[k].is_finite() && o.cond[k].is_finite())
            .collect();
        let Some(&first) = usable.first() else {
            return false;
        };
        if usable.len() < 2 {
            return false;
        }
        let wrap = |x: f64| {
            let x = x.rem_euclid(TAU);
            x.min(TAU - x)
        };
        let shift = self.arg[first] - o.arg[first];
        usable.iter().all(|&k| {
            let tol = TOLERANCE * (1.0 + self.cond[k] + o.cond[k]);
            let phase_tol = tol + TOLERANCE * (self.cond[first] + o.cond[first]);
            (self.log_abs[k] - o.log_abs[k]).abs() <= tol
                && wrap(self.arg[k] - o.arg[k] - shift) <= phase_tol
        })
    }
}

impl std::hash::Hash for Signature {
    /// Hashes the values rounded to about 1e-6, relative to the first point's phase, so
    /// that states that [`Signature::matches`] almost always hash alike (two within the
    /// tolerance can still fall on either side of a rounding step). For hash tables that
    /// tolerate a rare miss (the engine's transposition table), not for deciding equality.
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        let first = (0..POINTS).find(|&k| self.cond[k].is_finite());
        for k in 0..POINTS {
            let Some(f) = first.filter(|_| self.cond[k].is_finite()) else {
                u64::MAX.hash(h);
                continue;
            };
            let turn = (self.arg[k] - self.arg[f]).rem_euclid(TAU) / TAU;
            ((self.log_abs[k] * 1e6).round() as i64).hash(h);
            (((turn * 1e6).round() as i64) % 1_000_000).hash(h);
        }
    }
}

/// Sums a state's branches into its signature, one branch at a time.
#[derive(Clone, Debug)]
pub struct Accumulator {
    f: [Complex64; POINTS],
    abs_sum: f64,
    r: &'static [[Complex64; MAX_QUBITS]; POINTS],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            f: [Complex64::new(0.0, 0.0); POINTS],
            abs_sum: 0.0,
            r: points(),
        }
    }
}

impl Accumulator {
    /// Adds the branch `b` with amplitude `a`.
    #[inline]
    pub fn add(&mut self, b: &Bits, a: Complex64) {
        // |a| without hypot's care for overflow: amplitudes are at most 1.
        self.abs_sum += a.norm_sqr().sqrt();
        let mut z = [a; POINTS];
        for q in b.ones() {
            for (zk, rk) in z.iter_mut().zip(self.r.iter()) {
                *zk *= rk[q];
            }
        }
        for (fk, zk) in self.f.iter_mut().zip(z) {
            *fk += zk;
        }
    }

    /// The signature of the branches added.
    pub fn finish(&self) -> Signature {
        let mut s = Signature::ONE;
        for k in 0..POINTS {
            let m = self.f[k].norm();
            s.log_abs[k] = m.ln();
            s.arg[k] = self.f[k].arg().rem_euclid(TAU);
            s.cond[k] = if m > 0.0 {
                self.abs_sum / m
            } else {
                f64::INFINITY
            };
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(re: f64, im: f64) -> Complex64 {
        Complex64::new(re, im)
    }

    fn sig(branches: &[(Bits, Complex64)]) -> Signature {
        Signature::of_branches(branches.iter().map(|(b, a)| (b, a)))
    }

    #[test]
    fn product_of_factors_equals_the_whole() {
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let a = [
            (Bits::from_qubits([1]), c(h, 0.0)),
            (Bits::from_qubits([2]), c(0.0, h)),
        ];
        let b = [
            (Bits::from_qubits([70]), c(0.6, 0.0)),
            (Bits::from_qubits([71, 200]), c(0.0, -0.8)),
        ];
        let mut whole = Vec::new();
        for (x, ax) in &a {
            for (y, ay) in &b {
                whole.push((x.or(y), ax * ay));
            }
        }
        assert!(sig(&a).times(&sig(&b)).matches(&sig(&whole)));
        // A global phase does not matter.
        let turned: Vec<_> = whole
            .iter()
            .map(|(k, v)| (*k, v * Complex64::from_polar(1.0, 2.1)))
            .collect();
        assert!(sig(&turned).matches(&sig(&whole)));
        // A relative phase, another amplitude or another basis state does.
        let mut other = whole.clone();
        other[0].1 = -other[0].1;
        assert!(!sig(&other).matches(&sig(&whole)));
        let mut moved = whole.clone();
        moved[1].0 = moved[1].0.with(5, true);
        assert!(!sig(&moved).matches(&sig(&whole)));
        let mut small = whole.clone();
        small[2].1 *= 1.0 + 1e-6;
        assert!(!sig(&small).matches(&sig(&whole)));
        let mut tiny = whole.clone();
        tiny[2].1 *= 1.0 + 1e-14;
        assert!(sig(&tiny).matches(&sig(&whole)));
        assert!(Signature::ONE.matches(&Signature::of_basis(&Bits::ZERO, c(0.0, 1.0))));
    }

    fn key(s: &Signature) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        s.hash(&mut h);
        h.finish()
    }

    #[test]
    fn hash_ignores_factoring_and_global_phase_but_not_a_relative_phase() {
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let a = [
            (Bits::from_qubits([3]), c(h, 0.0)),
            (Bits::from_qubits([9]), c(0.0, h)),
        ];
        let b = [(Bits::from_qubits([40]), c(0.0, 1.0))];
        let whole: Vec<_> = a
            .iter()
            .map(|(x, ax)| (x.or(&b[0].0), ax * b[0].1))
            .collect();
        let turned: Vec<_> = whole
            .iter()
            .map(|(k, v)| (*k, v * Complex64::from_polar(1.0, -0.7)))
            .collect();
        assert_eq!(key(&sig(&a).times(&sig(&b))), key(&sig(&whole)));
        assert_eq!(key(&sig(&turned)), key(&sig(&whole)));
        let mut other = whole.clone();
        other[1].1 = -other[1].1;
        assert_ne!(key(&sig(&other)), key(&sig(&whole)));
    }
}
