//! A tournament's standings. A Swiss ranks by points, then Buchholz (the sum of the
//! opponents' points), then Sonneborn-Berger (the points of the opponents beaten, and
//! half those of the opponents drawn); an arena by points, then performance (the
//! opponents' average rating, plus 400 times wins minus losses over games). A bye counts
//! as a win; it adds nothing to the tie-breaks.

use super::{Entrant, Kind, Pairing, WIN};
use crate::club::MemberId;
use std::cmp::Ordering;
use std::collections::HashMap;

/// One player's line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// The player.
    pub member: MemberId,
    /// Whether they take part now.
    pub present: bool,
    /// Their rating when they joined.
    pub rating: f64,
    /// Points in units of two a win (see [`super::WIN`]); a Swiss shows them halved.
    pub units: u32,
    /// Games won (byes not counted).
    pub won: u32,
    /// Games drawn.
    pub drawn: u32,
    /// Games lost.
    pub lost: u32,
    /// Byes.
    pub byes: u32,
    /// Buchholz, in points.
    pub buchholz: f64,
    /// Sonneborn-Berger, in points.
    pub sonneborn_berger: f64,
    /// Performance rating, once a game is over.
    pub performance: Option<f64>,
}

impl Standing {
    /// Games over (byes not counted).
    pub fn games(&self) -> u32 {
        self.won + self.drawn + self.lost
    }
}

/// The standings of a tournament of `kind`, first place first.
pub fn standings(kind: Kind, entrants: &[Entrant], pairings: &[Pairing]) -> Vec<Standing> {
    let index: HashMap<MemberId, usize> = entrants
        .iter()
        .enumerate()
        .map(|(i, e)| (e.member, i))
        .collect();
    let mut table: Vec<Standing> = entrants
        .iter()
        .map(|e| Standing {
            member: e.member,
            present: e.present,
            rating: e.rating,
            units: 0,
            won: 0,
            drawn: 0,
            lost: 0,
            byes: 0,
            buchholz: 0.0,
            sonneborn_berger: 0.0,
            performance: None,
        })
        .collect();
    // The games over, as (player, opponent, units the player scored).
    let mut games: Vec<(usize, usize, u32)> = Vec::new();
    let mut opponents_rating = vec![0.0; table.len()];
    for p in pairings.iter().filter(|p| p.over()) {
        let Some(&w) = index.get(&p.white) else {
            continue;
        };
        let Some(black) = p.black else {
            table[w].units += WIN;
            table[w].byes += 1;
            continue;
        };
        let Some(&b) = index.get(&black) else {
            continue;
        };
        for (me, them, member) in [(w, b, p.white), (b, w, black)] {
            let units = p.units(member);
            let s = &mut table[me];
            s.units += units;
            match units {
                WIN => s.won += 1,
                0 => s.lost += 1,
                _ => s.drawn += 1,
            }
            opponents_rating[me] += entrants[them].rating;
            games.push((me, them, units));
        }
    }
    let points: Vec<f64> = table.iter().map(|s| f64::from(s.units) / 2.0).collect();
    for &(me, them, units) in &games {
        table[me].buchholz += points[them];
        table[me].sonneborn_berger += points[them] * f64::from(units) / f64::from(WIN);
    }
    for (s, sum) in table.iter_mut().zip(opponents_rating) {
        let n = s.games();
        if n > 0 {
            let margin = f64::from(s.won) - f64::from(s.lost);
            s.performance = Some((sum + 400.0 * margin) / f64::from(n));
        }
    }
    table.sort_by(|a, b| order(kind, a, b));
    table
}

/// Which of two lines comes first.
fn order(kind: Kind, a: &Standing, b: &Standing) -> Ordering {
    let tie_breaks = match kind {
        Kind::Swiss => b
            .buchholz
            .total_cmp(&a.buchholz)
            .then(b.sonneborn_berger.total_cmp(&a.sonneborn_berger)),
        Kind::Arena => {
            let perf = |s: &Standing| s.performance.unwrap_or(f64::NEG_INFINITY);
            perf(b).total_cmp(&perf(a))
        }
    };
    b.units
        .cmp(&a.units)
        .then(tie_breaks)
        .then(b.rating.total_cmp(&a.rating))
        .then(a.member.cmp(&b.member))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Status;

    fn entrant(i: i64, rating: f64) -> Entrant {
        Entrant {
            member: MemberId(i),
            rating,
            present: true,
        }
    }

    fn game(white: i64, black: i64, result: Option<Status>) -> Pairing {
        Pairing {
            round: 1,
            white: MemberId(white),
            black: Some(MemberId(black)),
            result,
        }
    }

    fn order(table: &[Standing]) -> Vec<i64> {
        table.iter().map(|s| s.member.0).collect()
    }

    #[test]
    fn a_swiss_breaks_ties_by_buchholz_then_sonneborn_berger() {
        let all: Vec<Entrant> = (1..=5).map(|i| entrant(i, 1500.0)).collect();
        let bye = |m: i64| Pairing {
            round: 2,
            white: MemberId(m),
            black: None,
            result: None,
        };
        let pairings = [
            game(1, 2, Some(Status::WhiteWins)),
            game(3, 4, Some(Status::Draw)),
            bye(5),
            game(2, 3, Some(Status::WhiteWins)),
            game(4, 5, Some(Status::BlackWins)),
            bye(1),
            game(1, 3, None),
        ];
        let table = standings(Kind::Swiss, &all, &pairings);
        // Points: 1: 2 (a win, a bye), 5: 2 (a bye, a win), 2: 1, 3: ½, 4: ½.
        let one = table.iter().find(|s| s.member.0 == 1).unwrap();
        assert_eq!((one.units, one.won, one.byes, one.games()), (4, 1, 1, 1));
        // Buchholz: 1 met 2 (1 point); 5 met 4 (½): 1 first.
        assert_eq!(one.buchholz, 1.0);
        assert_eq!(order(&table)[..2], [1, 5]);
        // 3 and 4 have ½ each; Buchholz: 3 met 4 and 2 (1½), 4 met 3 and 5 (2½).
        let three = table.iter().find(|s| s.member.0 == 3).unwrap();
        let four = table.iter().find(|s| s.member.0 == 4).unwrap();
        assert_eq!((three.buchholz, four.buchholz), (1.5, 2.5));
        assert_eq!(order(&table)[2..], [2, 4, 3]);
        // Sonneborn-Berger: 2 beat 3 (½ point): ½; 3 drew 4 (½): ¼.
        let two = table.iter().find(|s| s.member.0 == 2).unwrap();
        assert_eq!((two.sonneborn_berger, three.sonneborn_berger), (0.5, 0.25));
    }

    #[test]
    fn an_arena_breaks_ties_by_performance() {
        let all = [
            entrant(1, 1500.0),
            entrant(2, 1500.0),
            entrant(3, 1900.0),
            entrant(4, 1200.0),
        ];
        let pairings = [
            game(1, 3, Some(Status::WhiteWins)),
            game(2, 4, Some(Status::WhiteWins)),
        ];
        let table = standings(Kind::Arena, &all, &pairings);
        // Both won: 1 beat a 1900, 2 a 1200.
        assert_eq!(order(&table), [1, 2, 3, 4]);
        assert_eq!(table[0].performance, Some(2300.0));
        assert_eq!(table[1].performance, Some(1600.0));
        assert_eq!((table[0].units, table[2].units), (2, 0));
    }
}
