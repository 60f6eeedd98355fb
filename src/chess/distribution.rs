//! The most likely sets of occupied squares, from a state held as independent factors:
//! the distribution of the whole board is the product of the factors' distributions,
//! which can have far more entries than anyone could list, so only the first `limit`
//! in the spec's order (probability descending, to 1e-12, then the set, see
//! [`set_order`]) are computed.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Orders two square sets by their squares listed a1..h8, lexicographically, without
/// allocating (it sorts distributions of many thousands of sets).
pub fn set_order(a: u64, b: u64) -> std::cmp::Ordering {
    let d = a ^ b;
    if d == 0 {
        return std::cmp::Ordering::Equal;
    }
    // Below the lowest differing square both lists agree. The set holding that square
    // lists it next; the other lists a higher square next, or has ended.
    let low = d & d.wrapping_neg();
    let above = !(low | (low - 1));
    // The set holding `low` comes first, unless the other has nothing above it (then the
    // other is a prefix of it).
    let (first, other) = if a & low != 0 {
        (std::cmp::Ordering::Less, b)
    } else {
        (std::cmp::Ordering::Greater, a)
    };
    if other & above != 0 {
        first
    } else {
        first.reverse()
    }
}

/// Most distribution entries printed (`qchess analyze`, the harmonics report).
pub const MAX_DISTRIBUTION: usize = 4096;

/// Entries under this probability are left out.
const SMALLEST: f64 = 1e-12;

/// Up to this many combinations, every one is listed and sorted.
const ENUMERATE_ALL: usize = 1 << 15;

/// Past this many entries tied with the last one listed, the tied entries are walked
/// in set order instead of collected.
const TIE_CAP: usize = 1 << 15;

/// The first entries of a distribution of occupied-square sets.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Distribution {
    /// Sets (a1 = bit 0) with their probability, in the spec's order; at most the limit
    /// asked for.
    pub entries: Vec<(u64, f64)>,
    /// How many sets the distribution has: the product over factors of their sets of
    /// probability at least 1e-12 (saturating).
    pub sets: usize,
}

/// The probability rounded to the 1e-12 grid the order compares on.
fn key(p: f64) -> f64 {
    (p * 1e12).round()
}

/// The spec's order of two entries.
pub fn entry_order(x: &(u64, f64), y: &(u64, f64)) -> Ordering {
    key(y.1)
        .total_cmp(&key(x.1))
        .then_with(|| set_order(x.0, y.0))
}

/// The first `limit` entries of the product of `parts` (each a distribution over
/// disjoint squares; the product or-s the sets and multiplies the probabilities).
pub fn top(parts: &[Vec<(u64, f64)>], limit: usize) -> Distribution {
    let mut parts: Vec<Vec<(u64, f64)>> = parts
        .iter()
        .map(|p| {
            let mut v: Vec<(u64, f64)> = p
                .iter()
                .map(|&(s, q)| (s, q.min(1.0)))
                .filter(|&(_, q)| q >= SMALLEST)
                .collect();
            v.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            v
        })
        .collect();
    // Parts with one certain set only add their squares.
    let mut fixed = 0u64;
    let mut scale = 1.0;
    parts.retain(|p| {
        if p.len() == 1 {
            fixed |= p[0].0;
            scale *= p[0].1;
            false
        } else {
            true
        }
    });
    if parts.iter().any(|p| p.is_empty()) {
        return Distribution::default();
    }
    let sets = parts.iter().fold(1usize, |n, p| n.saturating_mul(p.len()));
    let mut entries = if sets <= ENUMERATE_ALL {
        all(&parts, fixed, scale)
    } else {
        best_first(&parts, fixed, scale, limit)
    };
    entries.retain(|e| e.1 >= SMALLEST);
    entries.sort_by(entry_order);
    entries.truncate(limit);
    Distribution { entries, sets }
}

/// Every combination.
fn all(parts: &[Vec<(u64, f64)>], fixed: u64, scale: f64) -> Vec<(u64, f64)> {
    let mut out = vec![(fixed, scale)];
    for p in parts {
        out = out
            .iter()
            .flat_map(|&(s, q)| p.iter().map(move |&(t, r)| (s | t, q * r)))
            .collect();
    }
    out
}

/// A combination of one option per part, by index, in the heap.
#[derive(PartialEq)]
struct Candidate {
    p: f64,
    idx: Vec<u32>,
    /// The last part whose index was raised to reach it: successors raise this one or
    /// a later one, so each combination is reached once.
    last: usize,
}

impl Eq for Candidate {}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> Ordering {
        self.p.total_cmp(&other.p)
    }
}

/// The combinations in descending probability until `limit` are out and every entry
/// tied with the last of them (to the 1e-12 grid) is too; a tie larger than [`TIE_CAP`]
/// is walked in set order by [`tied`].
fn best_first(parts: &[Vec<(u64, f64)>], fixed: u64, scale: f64, limit: usize) -> Vec<(u64, f64)> {
    let set_of = |idx: &[u32]| {
        idx.iter()
            .zip(parts)
            .fold(fixed, |s, (&i, p)| s | p[i as usize].0)
    };
    let first = parts.iter().fold(scale, |q, p| q * p[0].1);
    let mut heap = BinaryHeap::from([Candidate {
        p: first,
        idx: vec![0; parts.len()],
        last: 0,
    }]);
    let mut out: Vec<(u64, f64)> = Vec::new();
    let mut threshold = None;
    let mut tied = 0usize;
    while let Some(c) = heap.pop() {
        if c.p < SMALLEST {
            break;
        }
        if let Some(t) = threshold {
            if key(c.p) < t {
                break;
            }
            tied += 1;
            if tied > TIE_CAP {
                // Keep the entries above the tie, then walk the tie in set order.
                out.retain(|e| key(e.1) > t);
                let want = limit.saturating_sub(out.len());
                out.extend(walk_tie(parts, fixed, scale, t, want));
                return out;
            }
        }
        out.push((set_of(&c.idx), c.p));
        if threshold.is_none() && out.len() >= limit {
            threshold = Some(key(c.p));
        }
        for i in c.last..parts.len() {
            let j = c.idx[i] as usize + 1;
            if j < parts[i].len() {
                let mut idx = c.idx.clone();
                idx[i] = j as u32;
                let p = idx
                    .iter()
                    .zip(parts)
                    .fold(scale, |q, (&k, part)| q * part[k as usize].1);
                heap.push(Candidate { p, idx, last: i });
            }
        }
    }
    out
}

/// The first `want` combinations whose probability rounds to `t` on the 1e-12 grid, in
/// set order: a walk of the sets' ascending square lists (the order's trie), choosing
/// the next square of the set at each step, pruned where no completion can reach `t`.
fn walk_tie(
    parts: &[Vec<(u64, f64)>],
    fixed: u64,
    scale: f64,
    t: f64,
    want: usize,
) -> Vec<(u64, f64)> {
    // The fixed squares and the scale act as one more part with one option.
    let mut all_parts = parts.to_vec();
    all_parts.push(vec![(fixed, scale)]);
    let owner: Vec<Option<usize>> = (0..64)
        .map(|s| {
            all_parts
                .iter()
                .position(|p| p.iter().any(|&(set, _)| set >> s & 1 == 1))
        })
        .collect();
    let lo = (t - 0.5) / 1e12 * (1.0 - 1e-9);
    let hi = (t + 0.5) / 1e12 * (1.0 + 1e-9);
    let live: Vec<Vec<usize>> = all_parts.iter().map(|p| (0..p.len()).collect()).collect();
    let mut walk = Walk {
        parts: &all_parts,
        owner,
        t,
        lo,
        hi,
        want,
        out: Vec::new(),
    };
    walk.visit(0, None, &live);
    walk.out
}

/// The state of [`walk_tie`].
struct Walk<'a> {
    parts: &'a [Vec<(u64, f64)>],
    owner: Vec<Option<usize>>,
    t: f64,
    lo: f64,
    hi: f64,
    want: usize,
    out: Vec<(u64, f64)>,
}

impl Walk<'_> {
    /// Visits the node whose set so far is `prefix`, its largest square `last`, with the
    /// options of each part that agree with it on squares up to `last`.
    fn visit(&mut self, prefix: u64, last: Option<usize>, live: &[Vec<usize>]) {
        if self.out.len() >= self.want {
            return;
        }
        let (mut max, mut min) = (1.0f64, 1.0f64);
        for (p, opts) in self.parts.iter().zip(live) {
            let ps = opts.iter().map(|&i| p[i].1);
            max *= ps.clone().fold(0.0, f64::max);
            min *= ps.fold(f64::INFINITY, f64::min);
        }
        if max < self.lo || min > self.hi {
            return;
        }
        let above = match last {
            Some(s) if s >= 63 => 0,
            Some(s) => !0u64 << (s + 1),
            None => !0u64,
        };
        // The set ending here: each part's option with no square above `last`.
        let mut p_end = 1.0;
        let mut complete = true;
        for (p, opts) in self.parts.iter().zip(live) {
            match opts.iter().find(|&&i| p[i].0 & above == 0) {
                Some(&i) => p_end *= p[i].1,
                None => {
                    complete = false;
                    break;
                }
            }
        }
        if complete && key(p_end) == self.t {
            self.out.push((prefix, p_end));
        }
        let start = last.map_or(0, |s| s + 1);
        for e in start..64 {
            let Some(owner) = self.owner[e] else {
                continue;
            };
            // Squares after `last` and before `e` are empty, `e` is occupied.
            let gap = above & ((1u64 << e) - 1);
            let mut next = Vec::with_capacity(live.len());
            let mut possible = true;
            for (k, (p, opts)) in self.parts.iter().zip(live).enumerate() {
                let kept: Vec<usize> = opts
                    .iter()
                    .copied()
                    .filter(|&i| p[i].0 & gap == 0 && (k != owner || p[i].0 >> e & 1 == 1))
                    .collect();
                if kept.is_empty() {
                    possible = false;
                    break;
                }
                next.push(kept);
            }
            if possible {
                self.visit(prefix | 1 << e, Some(e), &next);
                if self.out.len() >= self.want {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition: compare the ascending lists of squares.
    fn by_lists(a: u64, b: u64) -> std::cmp::Ordering {
        let list = |x: u64| (0..64).filter(|i| x >> i & 1 == 1).collect::<Vec<u32>>();
        list(a).cmp(&list(b))
    }

    #[test]
    fn set_order_is_the_order_of_square_lists() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x & (x >> 3) & (x >> 5)
        };
        for _ in 0..5000 {
            let (a, b) = (next(), next());
            for (a, b) in [(a, b), (a, a), (a & !(1 << 63), a), (0, b), (b, 0)] {
                assert_eq!(set_order(a, b), by_lists(a, b), "{a:x} {b:x}");
            }
        }
    }

    /// Every combination, sorted: the definition.
    fn reference(parts: &[Vec<(u64, f64)>], limit: usize) -> Vec<(u64, f64)> {
        let mut v = all(parts, 0, 1.0);
        v.retain(|e| e.1 >= SMALLEST);
        v.sort_by(entry_order);
        v.truncate(limit);
        v
    }

    fn close(a: &[(u64, f64)], b: &[(u64, f64)]) {
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(b) {
            assert_eq!(x.0, y.0, "{a:?} vs {b:?}");
            assert!((x.1 - y.1).abs() < 1e-15);
        }
    }

    /// `n` parts, each a piece on one of two squares of its own (2n, 2n+1), with
    /// probabilities `p` and 1 - p.
    fn pieces(ps: &[f64]) -> Vec<Vec<(u64, f64)>> {
        ps.iter()
            .enumerate()
            .map(|(i, &p)| vec![(1u64 << (2 * i), p), (1u64 << (2 * i + 1), 1.0 - p)])
            .collect()
    }

    #[test]
    fn the_first_entries_match_the_full_sort() {
        // Distinct probabilities, ties, and the giant tie of equal splits; with the
        // thresholds lowered so that every path runs on small cases.
        let cases = [
            pieces(&[0.5; 12]),
            pieces(&[0.3, 0.5, 0.25, 0.5, 0.9, 0.5, 0.75, 0.5, 0.5, 0.6]),
            pieces(&[0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.9, 0.55, 0.45, 0.35]),
        ];
        for parts in &cases {
            // Each part most likely option first, as `top` sorts them.
            let mut sorted = parts.clone();
            for p in &mut sorted {
                p.sort_by(|a, b| b.1.total_cmp(&a.1));
            }
            for limit in [1, 7, 100, 5000] {
                let want = reference(parts, limit);
                let mut got = best_first(&sorted, 0, 1.0, limit);
                got.sort_by(entry_order);
                got.truncate(limit);
                close(&got, &want);
                let walked = walk_tie(parts, 0, 1.0, key(want[0].1), limit);
                let tie: Vec<(u64, f64)> = reference(parts, usize::MAX)
                    .into_iter()
                    .filter(|e| key(e.1) == key(want[0].1))
                    .take(limit)
                    .collect();
                close(&walked, &tie);
            }
        }
    }

    #[test]
    fn a_product_of_many_splits_lists_only_what_is_asked() {
        // 27 independent 50/50 splits: 2^27 sets of equal probability.
        let parts = pieces(&[0.5; 27]);
        let d = top(&parts, 4097);
        assert_eq!(d.sets, 1 << 27);
        assert_eq!(d.entries.len(), 4097);
        // Equal probabilities: the first sets in set order take every piece's lower
        // square first, so the first set is the 27 even squares.
        let evens = (0..27).fold(0u64, |s, i| s | 1 << (2 * i));
        assert_eq!(d.entries[0].0, evens);
        for w in d.entries.windows(2) {
            assert_eq!(entry_order(&w[0], &w[1]), Ordering::Less);
        }
        // A smaller product checked against the full sort.
        let parts = pieces(&[0.5; 16]);
        close(&top(&parts, 300).entries, &reference(&parts, 300));
    }
}
