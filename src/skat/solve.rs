//! Double-dummy solving: the value of an endgame with every hand visible, the declarer
//! minimising and the defenders maximising the points the defenders take.
//!
//! Alpha-beta search over single card plays, with a transposition table of value bounds
//! at the start of each trick (the position there is fully described by the hands and
//! the leader, so one table serves every distribution of an analysis).

use super::cards::{Card, Class, Game};
use std::collections::HashMap;

/// Most seats a solver handles.
pub const MAX_SEATS: usize = 4;

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

type Table = HashMap<(u128, u8), (i32, i32), foldhash::fast::RandomState>;

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
}

fn class_id(c: Class) -> u8 {
    match c {
        Class::Trump => 0,
        Class::Plain(s) => 1 + s as u8,
    }
}

impl Solver {
    /// A solver for `game`; `defender[s]` tells whether seat `s` defends. Seats play in
    /// index order, wrapping around.
    pub fn new(game: Game, defender: &[bool]) -> Solver {
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
            table: Table::default(),
            nodes: 0,
        }
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
        let key = if p.len == 0 {
            if p.hands[..self.n].iter().all(|&h| h == 0) {
                return 0;
            }
            let packed = p
                .hands
                .iter()
                .enumerate()
                .fold(0u128, |k, (i, &h)| k | (h as u128) << (32 * i));
            let key = (packed, p.leader as u8);
            if let Some(&(lo, hi)) = self.table.get(&key) {
                if lo == hi || lo >= beta {
                    return lo;
                }
                if hi <= alpha {
                    return hi;
                }
                alpha = alpha.max(lo);
                beta = beta.min(hi);
            }
            Some(key)
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
        if let Some(key) = key {
            let e = self.table.entry(key).or_insert((i32::MIN, i32::MAX));
            if best <= a0 {
                e.1 = e.1.min(best);
            } else if best >= b0 {
                e.0 = e.0.max(best);
            } else {
                *e = (best, best);
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skat::cards::Suit;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;

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
    fn matches_brute_force_on_random_deals() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
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
            deck.shuffle(&mut rng);
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
