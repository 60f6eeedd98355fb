//! The distributions as a quantum state, and the gates that prepare the equal
//! superposition of the consistent distributions from |0...0>.
//!
//! Two encodings: one owner register per unknown card (the paper's player qubits; the
//! default), or an index register numbering the distributions (fewer qubits and far
//! fewer preparation gates, for larger endgames).
//!
//! The owner register of unknown card `k` is qubits `k*b .. k*b+b`, holding the index
//! of its owner among the other players (b = 1 for three seats: 0 = the first other
//! player in seat order, 1 = the second). The location and ancilla qubits of the
//! paper's card register are not needed here: before the lead every unknown card is in
//! a hand (location 00); play is evaluated by the oracle (see `analysis`).

use super::deal::Deal;
use super::endgame::{Endgame, EndgameError};
use crate::quantum::{Control, Gate, QuantumError, Qubit, Simulator};
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

/// How the distributions are written into qubits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EncodingKind {
    /// One owner register per unknown card (the paper's encoding).
    #[default]
    Owners,
    /// One register holding the number of the distribution.
    Index,
}

impl EncodingKind {
    /// "owners" or "index".
    pub fn name(self) -> &'static str {
        match self {
            EncodingKind::Owners => "owners",
            EncodingKind::Index => "index",
        }
    }
}

impl fmt::Display for EncodingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EncodingKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "owners" => Ok(EncodingKind::Owners),
            "index" => Ok(EncodingKind::Index),
            _ => Err(format!("unknown encoding \"{s}\" (choose owners or index)")),
        }
    }
}

/// The register for a list of distributions: its width in qubits and the basis
/// string of each distribution (bit i on qubit i).
///
/// With [`EncodingKind::Index`], distribution i is written with the most significant
/// bit of i on qubit 0, so the preparation tree splits on the top bit first, where all
/// but one branch of each level is an even split.
pub fn register(
    kind: EncodingKind,
    eg: &Endgame,
    deals: &[Deal],
) -> Result<(usize, Vec<u64>), EndgameError> {
    match kind {
        EncodingKind::Owners => {
            let enc = OwnerEncoding::new(eg)?;
            Ok((
                enc.data_qubits(),
                deals.iter().map(|d| enc.key(d)).collect(),
            ))
        }
        EncodingKind::Index => {
            let n = deals.len() as u64;
            let m = (u64::BITS - n.saturating_sub(1).leading_zeros()).max(1) as usize;
            let keys = (0..n)
                .map(|i| (0..m).fold(0, |k, b| k | ((i >> b) & 1) << (m - 1 - b)))
                .collect();
            Ok((m, keys))
        }
    }
}

/// Most data qubits (owner qubits of all unknown cards) an encoding may use.
pub const MAX_DATA_QUBITS: usize = 40;

/// How a distribution maps to basis bits of the owner registers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnerEncoding {
    /// Qubits per owner register.
    pub bits_per_card: usize,
    /// Number of unknown cards.
    pub cards: usize,
    /// The other seats; a register holding `i` means `others[i]` has the card.
    pub others: Vec<usize>,
}

impl OwnerEncoding {
    /// The encoding for an endgame.
    pub fn new(eg: &Endgame) -> Result<OwnerEncoding, EndgameError> {
        let others = eg.others();
        let bits = (usize::BITS - (others.len() - 1).leading_zeros()).max(1) as usize;
        let enc = OwnerEncoding {
            bits_per_card: bits,
            cards: eg.unknown.len(),
            others,
        };
        if enc.data_qubits() > MAX_DATA_QUBITS {
            return Err(EndgameError::TooLarge(format!(
                "{} owner qubits needed, at most {MAX_DATA_QUBITS}",
                enc.data_qubits()
            )));
        }
        Ok(enc)
    }

    /// Number of owner qubits (qubits `0..data_qubits()`).
    pub fn data_qubits(&self) -> usize {
        self.bits_per_card * self.cards
    }

    /// The basis bits (qubit i = bit i) of a distribution.
    pub fn key(&self, deal: &Deal) -> u64 {
        deal.owners.iter().enumerate().fold(0u64, |k, (i, s)| {
            let v = self.others.iter().position(|o| o == s).unwrap_or(0) as u64;
            k | v << (i * self.bits_per_card)
        })
    }

    /// The seat holding unknown card `card` in the basis state `key`.
    pub fn owner(&self, key: u64, card: usize) -> Option<usize> {
        let b = self.bits_per_card;
        let v = (key >> (card * b)) & ((1 << b) - 1);
        self.others.get(v as usize).copied()
    }
}

/// One gate of a state preparation: `gate` on `target` where all `controls` hold.
#[derive(Clone, Debug, PartialEq)]
pub struct PrepGate {
    /// The gate (Ry or X).
    pub gate: Gate,
    /// Its target.
    pub target: Qubit,
    /// Its controls.
    pub controls: Vec<Control>,
}

/// A circuit taking |0...0> to the equal superposition of a set of basis strings.
#[derive(Clone, Debug, PartialEq)]
pub struct Preparation {
    /// The qubits it prepares, bit i of a string on `qubits[i]`.
    pub qubits: Vec<Qubit>,
    /// The gates, in order.
    pub gates: Vec<PrepGate>,
}

/// Angles closer than this are the same rotation.
const ANGLE_EPS: f64 = 1e-12;

/// Groups `(prefix, angle)` entries (the reachable prefixes of one level) into
/// controlled rotations: the controls on bits of `low` the angles do not depend on are
/// dropped greedily, and entries that then coincide share one gate. Returns
/// (control values, control mask, angle) per group with a non-zero angle.
fn cover(entries: &[(u64, f64)], low: u64) -> Vec<(u64, u64, f64)> {
    let mut keep = low;
    for j in 0..u64::BITS - low.leading_zeros() {
        let trial = keep & !(1 << j);
        let mut seen: HashMap<u64, f64> = HashMap::new();
        let consistent = entries.iter().all(|&(p, a)| match seen.get(&(p & trial)) {
            Some(&o) => (o - a).abs() < ANGLE_EPS,
            None => {
                seen.insert(p & trial, a);
                true
            }
        });
        if consistent {
            keep = trial;
        }
    }
    let mut groups: Vec<(u64, u64, f64)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for &(p, a) in entries {
        if seen.insert(p & keep) {
            groups.push((p & keep, keep, a));
        }
    }
    groups.retain(|g| g.2.abs() >= ANGLE_EPS);
    groups.sort_by_key(|g| g.0);
    groups
}

/// The angle that occurs most often (angles closer than [`ANGLE_EPS`] count as one);
/// of equally common ones, the one met first in `angles`. O(m log m).
fn most_common(angles: &[f64]) -> f64 {
    let mut order: Vec<usize> = (0..angles.len()).collect();
    order.sort_by(|&a, &b| angles[a].total_cmp(&angles[b]).then(a.cmp(&b)));
    // (count, first position) of the best run so far.
    let mut best: Option<(usize, usize)> = None;
    let mut i = 0;
    while i < order.len() {
        let mut j = i + 1;
        while j < order.len() && angles[order[j]] - angles[order[i]] < ANGLE_EPS {
            j += 1;
        }
        let first = order[i..j].iter().copied().min().unwrap_or(order[i]);
        let better = match best {
            None => true,
            Some((count, at)) => j - i > count || (j - i == count && first < at),
        };
        if better {
            best = Some((j - i, first));
        }
        i = j;
    }
    best.map_or(0.0, |(_, at)| angles[at])
}

impl Preparation {
    /// The preparation of the equal superposition of `strings` (distinct; bit i of a
    /// string is qubit `qubits[i]`).
    ///
    /// It builds the binary tree of the strings qubit by qubit, as in the paper's
    /// iterative construction: at level i, each prefix of the first i bits that occurs
    /// needs its qubit i rotated from |0> by Ry(2 asin sqrt(ones/all)), where `all`
    /// strings start with the prefix and `ones` of them have a 1 at bit i (an X when
    /// all do). Rotations of one qubit from |0> add up, which allows two forms per
    /// level, the one with fewer gates is taken:
    /// * one rotation per group of prefixes, controlled on the prefix bits; controls
    ///   the angles do not depend on (among the prefixes that occur) are dropped;
    /// * the most common angle, uncontrolled, plus corrections (grouped the same way)
    ///   for the prefixes whose angle differs.
    ///
    /// Prefixes that do not occur carry no amplitude, so neither form changes the
    /// result.
    pub fn uniform(qubits: &[Qubit], strings: &[u64]) -> Preparation {
        let mut gates = Vec::new();
        for level in 0..qubits.len() {
            let low = (1u64 << level) - 1;
            let mut splits: HashMap<u64, (u64, u64)> = HashMap::new();
            for &s in strings {
                let e = splits.entry(s & low).or_insert((0, 0));
                e.0 += s >> level & 1;
                e.1 += 1;
            }
            let mut angles: Vec<(u64, f64)> = splits
                .iter()
                .map(|(&p, &(ones, all))| (p, 2.0 * (ones as f64 / all as f64).sqrt().asin()))
                .collect();
            angles.sort_by_key(|e| e.0);
            let direct = cover(&angles, low);
            let base = most_common(&angles.iter().map(|e| e.1).collect::<Vec<_>>());
            let deltas: Vec<(u64, f64)> = angles.iter().map(|&(p, a)| (p, a - base)).collect();
            let corrections = cover(&deltas, low);
            let chosen = if corrections.len() + 1 < direct.len() {
                let mut v = vec![(0, 0, base)];
                v.extend(corrections);
                v
            } else {
                direct
            };
            for (values, mask, angle) in chosen {
                let gate = if (angle - std::f64::consts::PI).abs() < ANGLE_EPS {
                    Gate::X
                } else {
                    Gate::Ry(angle)
                };
                let controls = (0..level)
                    .filter(|j| mask >> j & 1 == 1)
                    .map(|j| Control::Bit(qubits[j], values >> j & 1 == 1))
                    .collect();
                gates.push(PrepGate {
                    gate,
                    target: qubits[level],
                    controls,
                });
            }
        }
        Preparation {
            qubits: qubits.to_vec(),
            gates,
        }
    }

    /// Applies the preparation, with `extra` controls added to every gate.
    pub fn apply(&self, sim: &mut Simulator, extra: &[Control]) -> Result<(), QuantumError> {
        for g in &self.gates {
            let mut controls = g.controls.clone();
            controls.extend_from_slice(extra);
            sim.apply(g.gate, &[g.target], &controls)?;
        }
        Ok(())
    }

    /// Applies the inverse circuit (the gates reversed and inverted).
    pub fn apply_inverse(&self, sim: &mut Simulator) -> Result<(), QuantumError> {
        for g in self.gates.iter().rev() {
            sim.apply(g.gate.inverse(), &[g.target], &g.controls)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantum::{BackendKind, BackendOptions, Bits};

    #[test]
    fn uniform_over_given_strings() {
        let strings = [0b0011u64, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100, 0b1111];
        let qubits = [0, 1, 2, 3];
        let prep = Preparation::uniform(&qubits, &strings);
        for kind in [BackendKind::Sparse, BackendKind::Dense] {
            let mut sim = Simulator::new(kind, Bits::ZERO, 4, 1, BackendOptions::default());
            prep.apply(&mut sim, &[]).unwrap();
            let br = sim.backend().branches();
            assert_eq!(br.len(), strings.len());
            for (b, a) in br {
                let s = b.low_word();
                assert!(strings.contains(&s), "{s:b}");
                assert!((a.norm_sqr() - 1.0 / 7.0).abs() < 1e-12);
            }
            prep.apply_inverse(&mut sim).unwrap();
            let br = sim.backend().branches();
            assert_eq!(br.len(), 1);
            assert!(br[0].0.is_zero());
        }
    }

    #[test]
    fn independent_bits_need_no_controls() {
        // All 2^3 strings: three uncontrolled rotations.
        let prep = Preparation::uniform(&[0, 1, 2], &(0..8).collect::<Vec<_>>());
        assert_eq!(prep.gates.len(), 3);
        assert!(prep.gates.iter().all(|g| g.controls.is_empty()));
    }
}
