//! An arena's pairing: a player who finishes a game is paired again at once with the free
//! player closest in score, not the opponent of their last game while anyone else
//! waits; colours alternate. Wins score two points, draws one, losses none.

use super::colours::{allocate, Colours};
use super::{Board, Entrant, Pairing};
use crate::chess::Color;
use crate::club::MemberId;
use std::collections::HashMap;

/// A waiting player as the pairing sees them.
struct Free {
    member: MemberId,
    units: u32,
    rating: f64,
    colours: Colours,
    last: Option<MemberId>,
}

/// Pairs the `waiting` players (free, present entrants) two by two, best-placed first;
/// with an odd number, the one left waits on. `pairings` are the arena's games so far in
/// the order they were made.
pub fn pair_waiting(
    entrants: &[Entrant],
    pairings: &[Pairing],
    waiting: &[MemberId],
) -> Vec<Board> {
    let mut free: HashMap<MemberId, Free> = waiting
        .iter()
        .filter_map(|&m| {
            let e = entrants.iter().find(|e| e.member == m && e.present)?;
            Some((
                m,
                Free {
                    member: m,
                    units: 0,
                    rating: e.rating,
                    colours: Colours::default(),
                    last: None,
                },
            ))
        })
        .collect();
    for p in pairings {
        let Some(black) = p.black else { continue };
        for (m, colour, other) in [
            (p.white, Color::White, black),
            (black, Color::Black, p.white),
        ] {
            if let Some(f) = free.get_mut(&m) {
                f.units += p.units(m);
                f.colours.played(colour);
                f.last = Some(other);
            }
        }
    }
    let mut ranked: Vec<Free> = free.into_values().collect();
    ranked.sort_by(|a, b| {
        b.units
            .cmp(&a.units)
            .then(b.rating.total_cmp(&a.rating))
            .then(a.member.cmp(&b.member))
    });
    let mut boards = Vec::with_capacity(ranked.len() / 2);
    let mut left: std::collections::VecDeque<Free> = ranked.into();
    while let Some(a) = left.pop_front() {
        let Some(at) = left
            .iter()
            .enumerate()
            .min_by_key(|(i, b)| {
                let again = a.last == Some(b.member) || b.last == Some(a.member);
                (again, a.units.abs_diff(b.units), *i)
            })
            .map(|(i, _)| i)
        else {
            break;
        };
        let Some(b) = left.remove(at) else { break };
        // Colours alternate; past the usual limits, white to the one with fewer whites.
        let colour = allocate(&a.colours, &b.colours, false).unwrap_or(
            if a.colours.difference() <= b.colours.difference() {
                Color::White
            } else {
                Color::Black
            },
        );
        boards.push(match colour {
            Color::White => Board {
                white: a.member,
                black: b.member,
            },
            Color::Black => Board {
                white: b.member,
                black: a.member,
            },
        });
    }
    boards
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Status;

    fn entrants(n: i64) -> Vec<Entrant> {
        (1..=n)
            .map(|i| Entrant {
                member: MemberId(i),
                rating: 1500.0,
                present: true,
            })
            .collect()
    }

    fn game(white: i64, black: i64, result: Status) -> Pairing {
        Pairing {
            round: 1,
            white: MemberId(white),
            black: Some(MemberId(black)),
            result: Some(result),
        }
    }

    fn ids(boards: &[Board]) -> Vec<(i64, i64)> {
        boards.iter().map(|b| (b.white.0, b.black.0)).collect()
    }

    #[test]
    fn the_free_are_paired_closest_in_score_colours_alternating() {
        let all = entrants(4);
        // 1 beat 2 with white, 3 beat 4 with white: 1 and 3 have 2 points each.
        let history = [game(1, 2, Status::WhiteWins), game(3, 4, Status::WhiteWins)];
        let ms: Vec<MemberId> = (1..=4).map(MemberId).collect();
        let boards = pair_waiting(&all, &history, &ms);
        // 1 meets 3 (both 2 points), 2 meets 4. Both of each pair had the same colour
        // last: the higher ranked gets the colour they want.
        assert_eq!(ids(&boards), [(3, 1), (2, 4)]);
    }

    #[test]
    fn the_last_opponent_is_met_again_only_when_nobody_else_waits() {
        let all = entrants(3);
        let history = [game(1, 2, Status::Draw)];
        let boards = pair_waiting(&all, &history, &[MemberId(1), MemberId(2), MemberId(3)]);
        // 1 and 2 are level, but just met: 1 meets 3 (nobody's last opponent); 2 waits.
        assert_eq!(boards.len(), 1);
        assert!(!boards[0].has(MemberId(2)));
        let boards = pair_waiting(&all, &history, &[MemberId(1), MemberId(2)]);
        assert_eq!(ids(&boards), [(2, 1)]);
    }

    #[test]
    fn the_absent_and_those_not_entered_are_not_paired() {
        let mut all = entrants(3);
        all[2].present = false;
        let boards = pair_waiting(&all, &[], &[MemberId(1), MemberId(3), MemberId(9)]);
        assert!(boards.is_empty());
    }
}
