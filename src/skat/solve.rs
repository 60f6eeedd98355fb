//! Double-dummy solving: the value of an endgame with every hand visible, the declarer
//! minimising and the defenders maximising the points the defenders take.
//!
//! Alpha-beta search over single card plays, with a transposition table of value bounds
//! at the start of each trick (the position there is fully described by the hands and
//! the leader, so one table serves every distribution of an analysis). The table has a
//! fixed size chosen when the solver is made ([`Solver::with_table_bits`]): two-entry
//! buckets that keep the position with more cards left, so memory stays bounded however
//! long the solver runs. A search can be stopped from outside (a node budget or a
//! cancel flag); it then returns no value and leaves the table as it was.

use super::cards::{Card, Class, Game};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Most seats a solver handles.
pub const MAX_SEATS: usize = 4;

/// Table size of [`Solver::new`]: 2^16 entries (1.5 MiB), plenty for one deal.
pub const DEFAULT_TABLE_BITS: u32 = 16;

/// Largest table: 2^24 entries (384 MiB).
pub const MAX_TABLE_BITS: u32 = 24;

/// How often (in searched positions) a running search looks at its budget and flag.
const CHECK_EVERY: u64 = 1 << 12;

/// One trick as played: who led, the cards in playing order, who took it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedTrick {
    /// The seats and their cards, the leader first.
    pub cards: Vec<(usize, Card)>,
    /// The seat that took the trick.
    pub winner: usize,
    /// Card points in the trick.
    pub points: u32,
}

#[derive(Clone, Copy)]
struct Pos {
    hands: [u32; MAX_SEATS],
    leader: usize,
    trick: [u8; MAX_SEATS],
    len: usize,
}

/// Bounds on the value of a position at the start of a trick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    hands: [u32; MAX_SEATS],
    /// The leader; [`EMPTY`] marks an unused slot.
    leader: u8,
    lo: i16,
    hi: i16,
}

const EMPTY: u8 = u8::MAX;
/// Below every value (no lower bound known).
const NO_LO: i16 = -1;
/// Above every value (no upper bound known).
const NO_HI: i16 = 121;

impl Entry {
    fn cards(&self) -> u32 {
        self.hands.iter().map(|h| h.count_ones()).sum()
    }
}

/// The bytes one table entry takes.
pub const TABLE_ENTRY_BYTES: u64 = std::mem::size_of::<Entry>() as u64;

/// A fixed-size table of two-entry buckets, indexed by a hash of the position.
#[derive(Clone, Debug)]
struct Table {
    slots: Vec<Entry>,
    mask: usize,
}

impl Table {
    fn new(bits: u32) -> Table {
        let bits = bits.clamp(1, MAX_TABLE_BITS);
        let empty = Entry {
            hands: [0; MAX_SEATS],
            leader: EMPTY,
            lo: NO_LO,
            hi: NO_HI,
        };
        Table {
            slots: vec![empty; 1 << bits],
            mask: (1 << bits) - 2,
        }
    }

    /// The first slot of the bucket of a position (a fixed hash, so runs repeat).
    fn bucket(&self, hands: &[u32; MAX_SEATS], leader: u8) -> usize {
        let a = hands[0] as u64 | (hands[1] as u64) << 32;
        let b = hands[2] as u64 | (hands[3] as u64) << 32;
        (mix(a ^ mix(b ^ leader as u64)) as usize) & self.mask
    }

    fn get(&self, hands: &[u32; MAX_SEATS], leader: u8) -> Option<(i32, i32)> {
        let i = self.bucket(hands, leader);
        self.slots[i..i + 2]
            .iter()
            .find(|e| e.leader == leader && e.hands == *hands)
            .map(|e| (e.lo as i32, e.hi as i32))
    }

    /// Narrows the bounds of a position: the known entry, else a new one in place of the
    /// bucket's entry with fewer cards left (cheaper to find again).
    fn narrow(&mut self, hands: &[u32; MAX_SEATS], leader: u8, lo: Option<i32>, hi: Option<i32>) {
        let i = self.bucket(hands, leader);
        let pair = &mut self.slots[i..i + 2];
        let k = match pair
            .iter()
            .position(|e| e.leader == leader && e.hands == *hands)
        {
            Some(k) => k,
            None => {
                let k = usize::from(pair[1].leader == EMPTY || pair[1].cards() < pair[0].cards());
                let k = if pair[0].leader == EMPTY { 0 } else { k };
                pair[k] = Entry {
                    hands: *hands,
                    leader,
                    lo: NO_LO,
                    hi: NO_HI,
                };
                k
            }
        };
        let e = &mut pair[k];
        if let Some(lo) = lo {
            e.lo = e.lo.max(lo as i16);
        }
        if let Some(hi) = hi {
            e.hi = e.hi.min(hi as i16);
        }
    }
}

/// A 64-bit finaliser (MurmurHash3's): every input bit moves every output bit.
fn mix(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ h >> 33
}

/// When a search gives up: after a number of searched positions, or when a flag is set.
#[derive(Clone, Debug, Default)]
pub struct Stop {
    /// Give up once [`Solver::nodes`] passes this.
    pub node_budget: Option<u64>,
    /// Give up when this is set (from any thread).
    pub cancel: Option<Arc<AtomicBool>>,
}

/// A double-dummy solver for one game type and one split into defenders and declarer.
#[derive(Clone, Debug)]
pub struct Solver {
    n: usize,
    defender: [bool; MAX_SEATS],
    class: [u8; 32],
    strength: [u8; 32],
    points: [u8; 32],
    class_mask: [u32; 5],
    /// Card indices, strongest first (trumps first): the move order.
    order: Vec<u8>,
    table: Table,
    nodes: u64,
    stop: Stop,
    stopped: bool,
}

fn class_id(c: Class) -> u8 {
    match c {
        Class::Trump => 0,
        Class::Plain(s) => 1 + s as u8,
    }
}

impl Solver {
    /// A solver for `game`; `defender[s]` tells whether seat `s` defends. Seats play in
    /// index order, wrapping around. Its table has 2^[`DEFAULT_TABLE_BITS`] entries.
    pub fn new(game: Game, defender: &[bool]) -> Solver {
        Solver::with_table_bits(game, defender, DEFAULT_TABLE_BITS)
    }

    /// A solver whose table has 2^`bits` entries ([`TABLE_ENTRY_BYTES`] each; `bits`
    /// is kept within 1 to [`MAX_TABLE_BITS`]).
    pub fn with_table_bits(game: Game, defender: &[bool], bits: u32) -> Solver {
        assert!((2..=MAX_SEATS).contains(&defender.len()));
        let mut d = [false; MAX_SEATS];
        d[..defender.len()].copy_from_slice(defender);
        let (mut class, mut strength, mut points) = ([0u8; 32], [0u8; 32], [0u8; 32]);
        let mut class_mask = [0u32; 5];
        for i in 0..32u8 {
            let c = Card::from_index(i);
            let k = class_id(game.class(c));
            class[i as usize] = k;
            strength[i as usize] = game.strength(c);
            points[i as usize] = c.points() as u8;
            class_mask[k as usize] |= 1 << i;
        }
        let mut order: Vec<u8> = (0..32).collect();
        order.sort_by_key(|&i| {
            (
                class[i as usize] != 0,
                std::cmp::Reverse(strength[i as usize]),
            )
        });
        Solver {
            n: defender.len(),
            defender: d,
            class,
            strength,
            points,
            class_mask,
            order,
            table: Table::new(bits),
            nodes: 0,
            stop: Stop::default(),
            stopped: false,
        }
    }

    /// Makes later searches give up as `stop` says (see [`Solver::try_value_after_lead`]).
    pub fn set_stop(&mut self, stop: Stop) {
        self.stop = stop;
    }

    /// Positions searched so far (for statistics).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Points the defenders take in the rest of the play when seat `leader` leads
    /// `card` from `hands` (bit masks over card indices) and everyone then plays
    /// perfectly. `card` must be in the leader's hand and all hands the same size.
    pub fn value_after_lead(&mut self, hands: &[u32], leader: usize, card: Card) -> u32 {
        let mut p = self.start(hands, leader);
        self.play(&mut p, card.index(), -1, 121) as u32
    }

    /// [`Solver::value_after_lead`] that gives up when the [`Stop`] set with
    /// [`Solver::set_stop`] says so: `None` then, and the table keeps only what was
    /// found before.
    pub fn try_value_after_lead(
        &mut self,
        hands: &[u32],
        leader: usize,
        card: Card,
    ) -> Option<u32> {
        self.stopped = false;
        let v = self.value_after_lead(hands, leader, card);
        (!self.stopped).then_some(v)
    }

    /// Whether the stop condition holds now.
    fn should_stop(&self) -> bool {
        self.stop.node_budget.is_some_and(|b| self.nodes > b)
            || self
                .stop
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// One perfect line of play after `leader` leads `card`: the tricks in order. At
    /// every turn the first card (strongest first) that keeps the optimal value is taken.
    pub fn line_after_lead(
        &mut self,
        hands: &[u32],
        leader: usize,
        card: Card,
    ) -> Vec<PlayedTrick> {
        let mut p = self.start(hands, leader);
        let mut tricks = Vec::new();
        let mut next = Some(card.index());
        loop {
            let seat = (p.leader + p.len) % self.n;
            let c = match next.take() {
                Some(c) => c,
                None => {
                    if p.hands[seat] == 0 {
                        break;
                    }
                    let legal = self.legal(&p, seat);
                    let maxing = self.defender[seat];
                    let mut best: Option<(i32, u8)> = None;
                    for &c in &self.order.clone() {
                        if legal >> c & 1 == 0 {
                            continue;
                        }
                        let v = self.play(&mut p, c, -1, 121);
                        let better = match best {
                            None => true,
                            Some((b, _)) => (maxing && v > b) || (!maxing && v < b),
                        };
                        if better {
                            best = Some((v, c));
                        }
                    }
                    match best {
                        Some((_, c)) => c,
                        None => break,
                    }
                }
            };
            p.hands[seat] &= !(1 << c);
            p.trick[p.len] = c;
            p.len += 1;
            if p.len == self.n {
                let w = (p.leader + self.winner_offset(&p)) % self.n;
                let cards = (0..self.n)
                    .map(|i| ((p.leader + i) % self.n, Card::from_index(p.trick[i])))
                    .collect();
                tricks.push(PlayedTrick {
                    cards,
                    winner: w,
                    points: self.trick_points(&p),
                });
                p.leader = w;
                p.len = 0;
            }
        }
        tricks
    }

    fn start(&self, hands: &[u32], leader: usize) -> Pos {
        let mut h = [0u32; MAX_SEATS];
        h[..hands.len()].copy_from_slice(hands);
        Pos {
            hands: h,
            leader,
            trick: [0; MAX_SEATS],
            len: 0,
        }
    }

    fn legal(&self, p: &Pos, seat: usize) -> u32 {
        let hand = p.hands[seat];
        if p.len == 0 {
            return hand;
        }
        let follow = hand & self.class_mask[self.class[p.trick[0] as usize] as usize];
        if follow != 0 {
            follow
        } else {
            hand
        }
    }

    /// Offset from the leader of the card that takes the (complete) trick.
    fn winner_offset(&self, p: &Pos) -> usize {
        let led = self.class[p.trick[0] as usize];
        let mut best = 0;
        for i in 1..self.n {
            let (c, b) = (p.trick[i] as usize, p.trick[best] as usize);
            let wins = if self.class[c] == self.class[b] {
                self.strength[c] > self.strength[b]
            } else {
                self.class[c] == 0 || (self.class[c] == led && self.class[b] != 0)
            };
            if wins {
                best = i;
            }
        }
        best
    }

    fn trick_points(&self, p: &Pos) -> u32 {
        p.trick[..self.n]
            .iter()
            .map(|&c| self.points[c as usize] as u32)
            .sum()
    }

    /// Plays card `c` for the seat to move and returns the value of the rest.
    fn play(&mut self, p: &mut Pos, c: u8, alpha: i32, beta: i32) -> i32 {
        let saved = *p;
        let seat = (p.leader + p.len) % self.n;
        p.hands[seat] &= !(1 << c);
        p.trick[p.len] = c;
        p.len += 1;
        let v = if p.len == self.n {
            let w = (p.leader + self.winner_offset(p)) % self.n;
            let gained = if self.defender[w] {
                self.trick_points(p) as i32
            } else {
                0
            };
            p.leader = w;
            p.len = 0;
            gained + self.search(p, alpha - gained, beta - gained)
        } else {
            self.search(p, alpha, beta)
        };
        *p = saved;
        v
    }

    fn search(&mut self, p: &mut Pos, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.stopped || (self.nodes.is_multiple_of(CHECK_EVERY) && self.should_stop()) {
            self.stopped = true;
            return 0;
        }
        let key = if p.len == 0 {
            if p.hands[..self.n].iter().all(|&h| h == 0) {
                return 0;
            }
            let leader = p.leader as u8;
            if let Some((lo, hi)) = self.table.get(&p.hands, leader) {
                if lo == hi || lo >= beta {
                    return lo;
                }
                if hi <= alpha {
                    return hi;
                }
                alpha = alpha.max(lo);
                beta = beta.min(hi);
            }
            Some(leader)
        } else {
            None
        };
        let (a0, b0) = (alpha, beta);
        let seat = (p.leader + p.len) % self.n;
        let legal = self.legal(p, seat);
        let maxing = self.defender[seat];
        let mut best = if maxing { i32::MIN } else { i32::MAX };
        for k in 0..self.order.len() {
            let c = self.order[k];
            if legal >> c & 1 == 0 {
                continue;
            }
            let v = self.play(p, c, alpha, beta);
            if maxing {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        // A stopped search's values are made up: keep them out of the table.
        if let (Some(leader), false) = (key, self.stopped) {
            let (lo, hi) = if best <= a0 {
                (None, Some(best))
            } else if best >= b0 {
                (Some(best), None)
            } else {
                (Some(best), Some(best))
            };
            self.table.narrow(&p.hands, leader, lo, hi);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seeded::SeededRng;
    use crate::skat::cards::Suit;

    /// Plain minimax over every legal play, for checking the solver.
    fn brute(
        game: Game,
        def: &[bool],
        hands: &mut Vec<Vec<Card>>,
        leader: usize,
        trick: &mut Vec<Card>,
    ) -> u32 {
        let n = hands.len();
        if trick.len() == n {
            let w = (leader + game.trick_winner(trick)) % n;
            let pts: u32 = trick.iter().map(|c| c.points()).sum();
            let mut rest = std::mem::take(trick);
            let v = if hands[0].is_empty() {
                0
            } else {
                brute(game, def, hands, w, &mut Vec::new())
            };
            std::mem::swap(trick, &mut rest);
            return v + if def[w] { pts } else { 0 };
        }
        let seat = (leader + trick.len()) % n;
        let hand = hands[seat].clone();
        let follow: Vec<Card> = match trick.first() {
            Some(&l) => hand
                .iter()
                .copied()
                .filter(|&c| game.class(c) == game.class(l))
                .collect(),
            None => Vec::new(),
        };
        let moves = if follow.is_empty() {
            hand.clone()
        } else {
            follow
        };
        let vals = moves.iter().map(|&c| {
            hands[seat].retain(|&h| h != c);
            trick.push(c);
            let v = brute(game, def, hands, leader, trick);
            trick.pop();
            hands[seat] = hand.clone();
            v
        });
        if def[seat] {
            vals.max().unwrap()
        } else {
            vals.min().unwrap()
        }
    }

    fn mask(cards: &[Card]) -> u32 {
        cards.iter().fold(0, |m, c| m | 1 << c.index())
    }

    #[test]
    fn a_tiny_table_gives_the_same_values() {
        // Sixteen entries for thousands of positions: constant replacement, same answers.
        let mut rng = SeededRng::new(11);
        for round in 0..20 {
            let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
            rng.shuffle(&mut deck);
            let hands: Vec<u32> = (0..3).map(|s| mask(&deck[s * 4..s * 4 + 4])).collect();
            let def = [true, true, false];
            let mut big = Solver::new(Game::Grand, &def);
            let mut tiny = Solver::with_table_bits(Game::Grand, &def, 4);
            for &lead in &deck[..4] {
                let v = big.value_after_lead(&hands, 0, lead);
                assert_eq!(tiny.value_after_lead(&hands, 0, lead), v, "round {round}");
            }
        }
        assert_eq!(Table::new(4).slots.len(), 16);
    }

    #[test]
    fn a_search_stops_at_its_budget_and_keeps_no_made_up_bounds() {
        let mut rng = SeededRng::new(5);
        let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
        rng.shuffle(&mut deck);
        let hands: Vec<u32> = (0..3).map(|s| mask(&deck[s * 7..s * 7 + 7])).collect();
        let def = [true, false, true];
        let mut s = Solver::new(Game::Grand, &def);
        s.set_stop(Stop {
            node_budget: Some(1000),
            cancel: None,
        });
        assert_eq!(s.try_value_after_lead(&hands, 0, deck[0]), None);
        s.set_stop(Stop::default());
        let after = s.try_value_after_lead(&hands, 0, deck[0]);
        let fresh = Solver::new(Game::Grand, &def).value_after_lead(&hands, 0, deck[0]);
        assert_eq!(after, Some(fresh));
        let flag = Arc::new(AtomicBool::new(true));
        s.set_stop(Stop {
            node_budget: None,
            cancel: Some(flag),
        });
        assert_eq!(s.try_value_after_lead(&hands, 0, deck[1]), None);
    }

    #[test]
    fn matches_brute_force_on_random_deals() {
        let mut rng = SeededRng::new(7);
        let games = [
            Game::Suit(Suit::Spades),
            Game::Grand,
            Game::Suit(Suit::Diamonds),
        ];
        for round in 0..60 {
            let game = games[round % 3];
            let n = 2 + round % 2;
            let each = 2 + round % 3;
            let mut deck: Vec<Card> = (0..32).map(Card::from_index).collect();
            rng.shuffle(&mut deck);
            let mut hands: Vec<Vec<Card>> = (0..n)
                .map(|s| deck[s * each..(s + 1) * each].to_vec())
                .collect();
            let def: Vec<bool> = (0..n).map(|s| s != round % n).collect();
            let masks: Vec<u32> = hands.iter().map(|h| mask(h)).collect();
            let mut solver = Solver::new(game, &def);
            for &lead in &hands[0].clone() {
                let v = solver.value_after_lead(&masks, 0, lead);
                let mut hs = hands.clone();
                hs[0].retain(|&c| c != lead);
                let b = brute(game, &def, &mut hs, 0, &mut vec![lead]);
                assert_eq!(v, b, "round {round}, lead {lead}");
                let line = solver.line_after_lead(&masks, 0, lead);
                assert_eq!(line.len(), each);
                let got: u32 = line
                    .iter()
                    .filter(|t| def[t.winner])
                    .map(|t| t.points)
                    .sum();
                assert_eq!(got, v, "line of round {round}");
            }
            hands.clear();
        }
    }
}
