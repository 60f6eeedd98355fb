//! The card distributions consistent with what I know: every way to give the unknown
//! cards to the other players, `cards_each` apiece, that satisfies the constraints.

use super::endgame::{Endgame, EndgameError};

/// Most distributions an analysis enumerates (each is solved once per candidate card).
pub const MAX_DISTRIBUTIONS: usize = 200_000;

/// One distribution: the seat holding each unknown card, in the order of
/// [`Endgame::unknown`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Deal {
    /// Seat index per unknown card.
    pub owners: Vec<usize>,
}

impl Deal {
    /// Every seat's hand as a bit mask over card indices (bit `Card::index()`).
    pub fn hands(&self, eg: &Endgame) -> Vec<u32> {
        let mut hands = vec![0u32; eg.seats.len()];
        for c in &eg.hand {
            hands[eg.me] |= 1 << c.index();
        }
        for (c, &s) in eg.unknown.iter().zip(&self.owners) {
            hands[s] |= 1 << c.index();
        }
        hands
    }
}

struct Enumerator<'a> {
    eg: &'a Endgame,
    others: Vec<usize>,
    /// For each constraint, the unknown-card positions it lists.
    members: Vec<Vec<bool>>,
    owners: Vec<usize>,
    load: Vec<usize>,
    held: Vec<usize>,
    out: Vec<Deal>,
}

impl Enumerator<'_> {
    /// Whether the constraints can still hold with cards `next..` unassigned.
    fn feasible(&self, next: usize) -> bool {
        self.eg.constraints.iter().enumerate().all(|(k, c)| {
            let left = self.members[k][next..].iter().filter(|&&m| m).count();
            self.held[k] <= c.max && self.held[k] + left >= c.min
        })
    }

    fn run(&mut self, i: usize) -> Result<(), EndgameError> {
        if !self.feasible(i) {
            return Ok(());
        }
        if i == self.eg.unknown.len() {
            if self.out.len() == MAX_DISTRIBUTIONS {
                return Err(EndgameError::TooLarge(format!(
                    "more than {MAX_DISTRIBUTIONS} possible distributions; add constraints or fewer cards"
                )));
            }
            self.out.push(Deal {
                owners: self.owners.clone(),
            });
            return Ok(());
        }
        for oi in 0..self.others.len() {
            let s = self.others[oi];
            if self.load[s] == self.eg.cards_each {
                continue;
            }
            self.load[s] += 1;
            self.owners.push(s);
            for (k, c) in self.eg.constraints.iter().enumerate() {
                if c.player == s && self.members[k][i] {
                    self.held[k] += 1;
                }
            }
            let r = self.run(i + 1);
            for (k, c) in self.eg.constraints.iter().enumerate() {
                if c.player == s && self.members[k][i] {
                    self.held[k] -= 1;
                }
            }
            self.owners.pop();
            self.load[s] -= 1;
            r?;
        }
        Ok(())
    }
}

/// Every distribution consistent with the endgame, in a fixed order (the first unknown
/// card varies slowest; seats in seat order). Errors when there is none or too many.
pub fn enumerate(eg: &Endgame) -> Result<Vec<Deal>, EndgameError> {
    let members = eg
        .constraints
        .iter()
        .map(|c| eg.unknown.iter().map(|u| c.cards.contains(u)).collect())
        .collect();
    let mut en = Enumerator {
        eg,
        others: eg.others(),
        members,
        owners: Vec::with_capacity(eg.unknown.len()),
        load: vec![0; eg.seats.len()],
        held: vec![0; eg.constraints.len()],
        out: Vec::new(),
    };
    en.run(0)?;
    if en.out.is_empty() {
        return Err(EndgameError::NoDistribution);
    }
    Ok(en.out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skat::endgame::preset;

    #[test]
    fn nine_card_has_twelve() {
        let eg = Endgame::from_toml(preset("nine-card").unwrap()).unwrap();
        let deals = enumerate(&eg).unwrap();
        assert_eq!(deals.len(), 12);
        for d in &deals {
            let hands = d.hands(&eg);
            assert!(hands.iter().all(|h| h.count_ones() == 3));
        }
    }
}
