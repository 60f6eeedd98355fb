//! A Swiss round's pairing: a documented simplification of the FIDE Dutch system.
//!
//! The present players are ranked by points, then rating, then member number. With an
//! odd number, the lowest-ranked player who has not had a bye gets it (the next one up
//! when the others could not then be paired). The rest are paired from the top down:
//! the highest-ranked unpaired player meets, within their score group, the player half
//! the group below them (the top half against the bottom half), then the others of the
//! group, then players of lower groups (they float down). No pair meets twice and no
//! colour difference goes past two; a third colour in a row is avoided when any pairing
//! allows it. When a choice leaves the players below without a pairing, the search goes
//! back and takes the next one.

use super::colours::{allocate, Colours};
use super::{Board, Entrant, Pairing, WIN};
use crate::chess::Color;
use crate::club::MemberId;
use std::collections::{HashMap, HashSet};

/// Until how many rounds have been paired a player may still join (with no points).
pub const LATE_JOIN_ROUNDS: u32 = 2;

/// How many steps one search may take before it gives up.
const SEARCH_STEPS: u32 = 200_000;

/// Whether a player may join a Swiss of which `paired` rounds have been paired.
pub fn may_join(paired: u32) -> bool {
    paired < LATE_JOIN_ROUNDS
}

/// A round's games, best-placed first, and the player given the bye.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    /// The games.
    pub boards: Vec<Board>,
    /// The player who sits out with a bye (a point), when the number is odd.
    pub bye: Option<MemberId>,
}

/// Why a round cannot be paired.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SwissError {
    /// Fewer than two players are present.
    #[error("fewer than two players are present: there is nobody to pair")]
    TooFew,
    /// Every way to pair them has a pair meet again or a colour difference of three.
    #[error("the players left have all met or cannot take the colours they need: no more rounds can be paired")]
    NoPairing,
}

/// A present player as the pairing sees them.
struct Player {
    member: MemberId,
    units: u32,
    rating: f64,
    colours: Colours,
    byes: u32,
}

/// The players of one round, ranked, and who has met whom.
struct Field {
    players: Vec<Player>,
    met: HashSet<(MemberId, MemberId)>,
}

/// Pairs the next round of a Swiss among the present `entrants`, given every pairing so
/// far (byes included), in the order they were made.
pub fn pair_round(entrants: &[Entrant], pairings: &[Pairing]) -> Result<Round, SwissError> {
    let field = Field::new(entrants, pairings);
    let n = field.players.len();
    if n < 2 {
        return Err(SwissError::TooFew);
    }
    // The bye's candidates: the lowest-ranked first, those without one before the others.
    let byes: Vec<Option<usize>> = if n.is_multiple_of(2) {
        vec![None]
    } else {
        let mut order: Vec<usize> = (0..n).rev().collect();
        order.sort_by_key(|&i| field.players[i].byes > 0);
        order.into_iter().map(Some).collect()
    };
    for &bye in &byes {
        for strict in [true, false] {
            if let Some(boards) = field.pair(bye, strict) {
                return Ok(Round {
                    boards,
                    bye: bye.map(|i| field.players[i].member),
                });
            }
        }
    }
    Err(SwissError::NoPairing)
}

impl Field {
    fn new(entrants: &[Entrant], pairings: &[Pairing]) -> Field {
        let mut units: HashMap<MemberId, u32> = HashMap::new();
        let mut byes: HashMap<MemberId, u32> = HashMap::new();
        let mut met = HashSet::new();
        for p in pairings {
            match p.black {
                None => *byes.entry(p.white).or_default() += 1,
                Some(black) => {
                    met.insert((p.white, black));
                    met.insert((black, p.white));
                }
            }
            for m in [Some(p.white), p.black].into_iter().flatten() {
                *units.entry(m).or_default() += p.units(m);
            }
        }
        let mut players: Vec<Player> = entrants
            .iter()
            .filter(|e| e.present)
            .map(|e| Player {
                member: e.member,
                units: units.get(&e.member).copied().unwrap_or(0),
                rating: e.rating,
                colours: Colours::of(e.member, pairings),
                byes: byes.get(&e.member).copied().unwrap_or(0),
            })
            .collect();
        players.sort_by(|a, b| {
            b.units
                .cmp(&a.units)
                .then(b.rating.total_cmp(&a.rating))
                .then(a.member.cmp(&b.member))
        });
        Field { players, met }
    }

    /// The boards of a pairing of everyone but `bye`, or `None` when the search found
    /// none (within its steps).
    fn pair(&self, bye: Option<usize>, strict: bool) -> Option<Vec<Board>> {
        let n = self.players.len();
        // Who may meet whom, and with which colour for the higher ranked.
        let mut colour = vec![vec![None; n]; n];
        for (i, a) in self.players.iter().enumerate() {
            for (j, b) in self.players.iter().enumerate().skip(i + 1) {
                if !self.met.contains(&(a.member, b.member)) {
                    colour[i][j] = allocate(&a.colours, &b.colours, strict);
                    colour[j][i] = colour[i][j].map(Color::opposite);
                }
            }
        }
        let mut search = Search {
            field: self,
            colour,
            used: vec![false; n],
            boards: Vec::with_capacity(n / 2),
            steps: SEARCH_STEPS,
        };
        if let Some(b) = bye {
            search.used[b] = true;
        }
        search.run().then_some(search.boards)
    }
}

/// One search for a pairing: the players taken so far and the boards made.
struct Search<'a> {
    field: &'a Field,
    colour: Vec<Vec<Option<Color>>>,
    used: Vec<bool>,
    boards: Vec<Board>,
    steps: u32,
}

impl Search<'_> {
    /// Pairs the highest-ranked free player and then the rest; whether it got through.
    fn run(&mut self) -> bool {
        let Some(top) = self.used.iter().position(|u| !u) else {
            return true;
        };
        if self.steps == 0 || !self.everyone_has_someone() {
            return false;
        }
        self.steps -= 1;
        self.used[top] = true;
        for other in self.candidates(top) {
            let Some(colour) = self.colour[top][other] else {
                continue;
            };
            let (a, b) = (
                self.field.players[top].member,
                self.field.players[other].member,
            );
            let (white, black) = match colour {
                Color::White => (a, b),
                Color::Black => (b, a),
            };
            self.used[other] = true;
            self.boards.push(Board { white, black });
            if self.run() {
                return true;
            }
            self.boards.pop();
            self.used[other] = false;
        }
        self.used[top] = false;
        false
    }

    /// Whether every free player still has a free player they may meet.
    fn everyone_has_someone(&self) -> bool {
        let free: Vec<usize> = (0..self.used.len()).filter(|&i| !self.used[i]).collect();
        free.iter()
            .all(|&i| free.iter().any(|&j| self.colour[i][j].is_some()))
    }

    /// The free players `top` is offered, best first: their score group from half the
    /// group down, then the group's upper half from the bottom up, then the lower groups
    /// in rank order.
    fn candidates(&self, top: usize) -> Vec<usize> {
        let players = &self.field.players;
        let free: Vec<usize> = (0..players.len()).filter(|&i| !self.used[i]).collect();
        let units = players[top].units;
        let (group, lower): (Vec<usize>, Vec<usize>) =
            free.into_iter().partition(|&i| players[i].units == units);
        // The group counted with `top`: its bottom half starts at half its size.
        let half = group.len().div_ceil(2);
        let start = half.saturating_sub(1).min(group.len());
        let mut order: Vec<usize> = group[start..].to_vec();
        order.extend(group[..start].iter().rev());
        order.extend(lower);
        order
    }
}

/// A Swiss's points as a person reads them: `3`, `2½`.
pub fn shown_points(units: u32) -> String {
    let whole = units / WIN;
    match (units % WIN, whole) {
        (0, w) => w.to_string(),
        (_, 0) => "½".to_string(),
        (_, w) => format!("{w}½"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Status;
    use proptest::prelude::*;

    fn entrants(n: i64) -> Vec<Entrant> {
        (1..=n)
            .map(|i| Entrant {
                member: MemberId(i),
                rating: 2000.0 - i as f64 * 10.0,
                present: true,
            })
            .collect()
    }

    /// The round's pairings with results: each board's result picked by `pick`.
    fn played(round: u32, r: &Round, mut pick: impl FnMut(usize) -> Status) -> Vec<Pairing> {
        let mut out: Vec<Pairing> = r
            .boards
            .iter()
            .enumerate()
            .map(|(i, b)| Pairing {
                round,
                white: b.white,
                black: Some(b.black),
                result: Some(pick(i)),
            })
            .collect();
        out.extend(r.bye.map(|m| Pairing {
            round,
            white: m,
            black: None,
            result: None,
        }));
        out
    }

    fn pair_of(b: &Board) -> (i64, i64) {
        (b.white.0.min(b.black.0), b.white.0.max(b.black.0))
    }

    #[test]
    fn the_first_round_pairs_the_top_half_with_the_bottom_half() {
        let r = pair_round(&entrants(6), &[]).unwrap();
        let pairs: Vec<_> = r.boards.iter().map(pair_of).collect();
        assert_eq!(pairs, [(1, 4), (2, 5), (3, 6)]);
        assert_eq!(r.bye, None);
        // The higher ranked has white when nobody has a colour yet.
        assert!(r.boards.iter().all(|b| b.white.0 < b.black.0));
    }

    #[test]
    fn winners_meet_winners_and_the_bye_goes_to_the_lowest_without_one() {
        let all = entrants(5);
        let one = pair_round(&all, &[]).unwrap();
        assert_eq!(one.bye, Some(MemberId(5)));
        // White wins everywhere: 1 and 2 won, 5 had the bye.
        let mut history = played(1, &one, |_| Status::WhiteWins);
        let two = pair_round(&all, &history).unwrap();
        let pairs: Vec<_> = two.boards.iter().map(pair_of).collect();
        // The group of a point (1, 2, 5): 1 meets 2 (half the group down), 5 floats
        // down to 3; the bye goes to 4, the lowest without one.
        assert_eq!(pairs, [(1, 2), (3, 5)]);
        assert_eq!(two.bye, Some(MemberId(4)));
        // Both had white: the higher ranked gets the black they both want.
        assert_eq!(two.boards[0].black, MemberId(1));
        history.extend(played(2, &two, |_| Status::Draw));
        let three = pair_round(&all, &history).unwrap();
        let had: Vec<_> = history
            .iter()
            .filter(|p| p.black.is_none())
            .map(|p| p.white)
            .collect();
        assert!(!had.contains(&three.bye.unwrap()));
    }

    #[test]
    fn a_withdrawn_player_is_not_paired_until_they_come_back() {
        let mut all = entrants(4);
        all[1].present = false;
        let r = pair_round(&all, &[]).unwrap();
        assert!(r.boards.iter().all(|b| b.white.0 != 2 && b.black.0 != 2));
        assert!(r.bye.is_some());
        all[1].present = true;
        let r = pair_round(&all, &played(1, &r, |_| Status::Draw)).unwrap();
        assert!(r.boards.iter().any(|b| b.white.0 == 2 || b.black.0 == 2));
    }

    #[test]
    fn when_everyone_has_met_no_round_is_paired() {
        let all = entrants(2);
        let one = pair_round(&all, &[]).unwrap();
        let history = played(1, &one, |_| Status::Draw);
        assert_eq!(pair_round(&all, &history), Err(SwissError::NoPairing));
        assert_eq!(pair_round(&all[..1], &[]), Err(SwissError::TooFew));
    }

    #[test]
    fn late_join_ends_with_the_second_round() {
        assert!(may_join(0) && may_join(1));
        assert!(!may_join(2));
    }

    #[test]
    fn points_read_in_halves() {
        assert_eq!(shown_points(0), "0");
        assert_eq!(shown_points(1), "½");
        assert_eq!(shown_points(7), "3½");
        assert_eq!(shown_points(8), "4");
    }

    /// The rank the pairing gives, computed again here from the history.
    fn ranked(all: &[Entrant], history: &[Pairing]) -> Vec<MemberId> {
        let units = |m: MemberId| history.iter().map(|p| p.units(m)).sum::<u32>();
        let mut present: Vec<&Entrant> = all.iter().filter(|e| e.present).collect();
        present.sort_by(|a, b| {
            units(b.member)
                .cmp(&units(a.member))
                .then(b.rating.total_cmp(&a.rating))
                .then(a.member.cmp(&b.member))
        });
        present.into_iter().map(|e| e.member).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Random results (and players stepping out and back) for 8 to 64 players: no pair
        /// meets twice, no colour difference passes two, the bye goes to the lowest-ranked
        /// player without one for whom the others can be paired, and every present player
        /// is paired or has the bye, until a round can no longer be paired.
        #[test]
        fn random_swiss_tournaments_keep_the_rules(
            n in 8i64..=64,
            rounds in 3u32..=7,
            results in prop::collection::vec(0u8..3, 7 * 32),
            away in prop::collection::vec(0usize..64, 7),
        ) {
            let mut all = entrants(n);
            let mut history: Vec<Pairing> = Vec::new();
            for round in 1..=rounds {
                // One player steps out, and the one who was out comes back.
                for e in &mut all {
                    e.present = true;
                }
                let out = away[round as usize - 1] % n as usize;
                all[out].present = false;
                let order = ranked(&all, &history);
                // A field that can no longer be paired ends the tournament, as the rules
                // say; the rounds before are checked all the same.
                let Ok(r) = pair_round(&all, &history) else {
                    break;
                };
                let mut seen: Vec<MemberId> = r.boards.iter().flat_map(|b| [b.white, b.black]).collect();
                seen.extend(r.bye);
                seen.sort();
                let mut expected = order.clone();
                expected.sort();
                prop_assert_eq!(seen, expected, "everyone present once");
                for b in &r.boards {
                    prop_assert!(
                        !history.iter().any(|p| p.has(b.white) && p.opponent(b.white) == Some(b.black)),
                        "{:?} met again in round {}", b, round
                    );
                }
                let had = |m: MemberId| history.iter().any(|p| p.black.is_none() && p.white == m);
                if let Some(bye) = r.bye {
                    // Those who may have it: the players without a bye, everyone once all
                    // have had one. Given to any of them ranked below the bye (to all of
                    // them when the bye went to someone else), the module's search finds
                    // no pairing of the others.
                    let mut eligible: Vec<MemberId> =
                        order.iter().copied().filter(|&m| !had(m)).collect();
                    if eligible.is_empty() {
                        eligible.clone_from(&order);
                    }
                    let field = Field::new(&all, &history);
                    for &m in eligible.iter().rev().take_while(|&&m| m != bye) {
                        let i = field.players.iter().position(|p| p.member == m).unwrap();
                        prop_assert!(
                            [true, false]
                                .into_iter()
                                .all(|strict| field.pair(Some(i), strict).is_none()),
                            "the bye in round {} went to {:?} though {:?} could have had it",
                            round, bye, m
                        );
                    }
                }
                let base = (round as usize - 1) * 32;
                history.extend(played(round, &r, |i| {
                    [Status::WhiteWins, Status::Draw, Status::BlackWins][results[base + i] as usize]
                }));
                for e in &all {
                    let d = Colours::of(e.member, &history).difference();
                    prop_assert!(d.abs() <= 2, "{:?}: colour difference {}", e.member, d);
                }
            }
        }
    }
}
