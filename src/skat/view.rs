//! What the Skat lab's four panes show, as plain data: table and hands, per-card
//! probabilities with the distributions, the tricks of one line of play, and the
//! circuit. A terminal front end draws these; [`SkatView::render_text`] prints them.

use super::analysis::{Analysis, CircuitStage};
use super::cards::Card;
use super::encode::EncodingKind;
use super::endgame::{Endgame, Side};
use super::quantum::Counting;
use super::solve::Solver;
use std::fmt::Write;

/// One seat at the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatView {
    /// Seat name.
    pub name: String,
    /// "declarer" or "defender".
    pub role: &'static str,
    /// Whether this is me.
    pub me: bool,
    /// Whether this seat leads the trick.
    pub leads: bool,
    /// The cards I can see there (my own hand).
    pub cards: Vec<Card>,
    /// Cards held there that I cannot see.
    pub hidden: usize,
}

/// The table pane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TablePane {
    /// The game, e.g. "spades".
    pub game: String,
    /// The seats in playing order.
    pub seats: Vec<SeatView>,
    /// The unknown cards.
    pub unknown: Vec<Card>,
    /// The constraints, as sentences.
    pub constraints: Vec<String>,
    /// Points taken so far, e.g. "defenders 48, declarer 42".
    pub points: String,
    /// The favourable outcome, e.g. "defenders reach 60".
    pub win: String,
}

/// One card I could lead.
#[derive(Clone, Debug, PartialEq)]
pub struct CardRow {
    /// The card.
    pub card: Card,
    /// Distributions won.
    pub wins: usize,
    /// All distributions.
    pub total: usize,
    /// Measured win probability.
    pub p_win: f64,
    /// My side's mean final points.
    pub mean_points: f64,
    /// Simulated quantum counting (estimate, bound, qubits, oracle calls), when run.
    pub quantum: Option<Counting>,
}

/// One distribution with the outcome of each lead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DistributionRow {
    /// The other seats' hands (name, cards).
    pub hands: Vec<(String, Vec<Card>)>,
    /// Per candidate card (hand order): my side's final points and whether it wins.
    pub results: Vec<(u32, bool)>,
}

/// The probabilities pane.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbabilityPane {
    /// One row per card in my hand.
    pub rows: Vec<CardRow>,
    /// The recommended card.
    pub recommendation: Card,
    /// Every distribution.
    pub distributions: Vec<DistributionRow>,
}

/// One trick in the tricks pane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrickRow {
    /// (seat name, card), the leader first.
    pub cards: Vec<(String, Card)>,
    /// Who took it.
    pub winner: String,
    /// Its card points.
    pub points: u32,
}

/// The tricks pane: one perfect line of play for one lead and one distribution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TricksPane {
    /// The card led.
    pub lead: Card,
    /// Index of the distribution shown.
    pub distribution: usize,
    /// The tricks.
    pub tricks: Vec<TrickRow>,
    /// My side's final points on this line.
    pub final_points: u32,
    /// Whether that is favourable.
    pub favourable: bool,
}

/// A solver for the endgame's game and sides, to play lines with [`TricksPane::new`]
/// (its table is kept between calls).
pub fn line_solver(eg: &Endgame) -> Solver {
    let defenders: Vec<bool> = (0..eg.seats.len()).map(|s| eg.is_defender(s)).collect();
    Solver::new(eg.game, &defenders)
}

impl TricksPane {
    /// The perfect line of play when I lead my `card`-th card (hand order) in
    /// distribution `distribution` (both taken modulo their counts).
    pub fn new(a: &Analysis, solver: &mut Solver, card: usize, distribution: usize) -> TricksPane {
        let eg = &a.endgame;
        let result = &a.cards[card % a.cards.len()];
        let d = distribution % a.deals.len().max(1);
        let line = solver.line_after_lead(&a.deals[d].hands(eg), eg.me, result.card);
        TricksPane {
            lead: result.card,
            distribution: d,
            tricks: line
                .iter()
                .map(|t| TrickRow {
                    cards: t
                        .cards
                        .iter()
                        .map(|&(s, c)| (eg.seats[s].clone(), c))
                        .collect(),
                    winner: eg.seats[t.winner].clone(),
                    points: t.points,
                })
                .collect(),
            final_points: eg.my_side_points(result.values[d]),
            favourable: result.favourable[d],
        }
    }
}

/// One register of the circuits' qubits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Register {
    /// First qubit.
    pub first: usize,
    /// Number of qubits.
    pub len: usize,
    /// What it holds.
    pub role: String,
}

/// The circuit pane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CircuitPane {
    /// The qubits, register by register.
    pub registers: Vec<Register>,
    /// Stage by stage.
    pub stages: Vec<CircuitStage>,
}

impl CircuitPane {
    /// The circuit of an analysis: the distribution register (`0..data_qubits`), the
    /// P_fav flag after it, then the counting qubits.
    pub fn new(a: &Analysis) -> CircuitPane {
        let data = a.data_qubits;
        let mut registers = vec![
            Register {
                first: 0,
                len: data,
                role: format!(
                    "distribution ({})",
                    if a.encoding == EncodingKind::Owners {
                        "owners"
                    } else {
                        "index"
                    }
                ),
            },
            Register {
                first: data,
                len: 1,
                role: "flag".into(),
            },
        ];
        let t = a
            .cards
            .first()
            .and_then(|c| c.quantum.as_ref())
            .map_or(0, |q| q.counting_qubits);
        if t > 0 {
            registers.push(Register {
                first: data + 1,
                len: t,
                role: "counting".into(),
            });
        }
        CircuitPane {
            registers,
            stages: a.circuit.clone(),
        }
    }

    /// All qubits.
    pub fn qubits(&self) -> usize {
        self.registers.iter().map(|r| r.len).sum()
    }
}

/// Everything the four panes show for one analysed endgame.
#[derive(Clone, Debug, PartialEq)]
pub struct SkatView {
    /// A title line.
    pub title: String,
    /// Table and hands.
    pub table: TablePane,
    /// Per-card probabilities and the distributions.
    pub probabilities: ProbabilityPane,
    /// The tricks of one line of play.
    pub tricks: TricksPane,
    /// The circuit.
    pub circuit: CircuitPane,
}

/// A register's qubits, e.g. "q7..q12" or "q6".
pub fn qubit_range(r: &Register) -> String {
    match r.len {
        0 => "none".to_string(),
        1 => format!("q{}", r.first),
        n => format!("q{}..q{}", r.first, r.first + n - 1),
    }
}

fn cards_text(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl SkatView {
    /// The panes for an analysis, with the tricks of the recommended lead in
    /// distribution `distribution` (taken modulo the number of distributions).
    pub fn new(a: &Analysis, distribution: usize) -> SkatView {
        let eg = &a.endgame;
        let name = |s: usize| eg.seats[s].clone();
        let role = |s: usize| {
            if eg.is_defender(s) {
                "defender"
            } else {
                "declarer"
            }
        };
        let seats = (0..eg.seats.len())
            .map(|s| SeatView {
                name: name(s),
                role: role(s),
                me: s == eg.me,
                leads: s == 0,
                cards: if s == eg.me {
                    eg.hand.clone()
                } else {
                    Vec::new()
                },
                hidden: if s == eg.me { 0 } else { eg.cards_each },
            })
            .collect();
        let constraints = eg
            .constraints
            .iter()
            .map(|c| {
                let amount = if c.min == c.max {
                    format!("exactly {}", c.min)
                } else {
                    format!("{} to {}", c.min, c.max)
                };
                format!(
                    "{} holds {amount} of {}",
                    name(c.player),
                    cards_text(&c.cards)
                )
            })
            .collect();
        let table = TablePane {
            game: eg.game.name().to_string(),
            seats,
            unknown: eg.unknown.clone(),
            constraints,
            points: format!(
                "defenders {}, declarer {} ({} still in play)",
                eg.points.defenders,
                eg.points.declarer,
                eg.points_in_play()
            ),
            win: match eg.win.side {
                Side::Defenders => format!("defenders reach {}", eg.win.at_least),
                Side::Declarer => format!("declarer reaches {}", eg.win.at_least),
            },
        };

        let total = a.deals.len();
        let rows = a
            .cards
            .iter()
            .map(|c| CardRow {
                card: c.card,
                wins: c.wins,
                total,
                p_win: c.p_win,
                mean_points: c.mean_points,
                quantum: c.quantum.clone(),
            })
            .collect();
        let distributions = a
            .deals
            .iter()
            .enumerate()
            .map(|(d, deal)| DistributionRow {
                hands: eg
                    .others()
                    .into_iter()
                    .map(|s| {
                        let cards = eg
                            .unknown
                            .iter()
                            .zip(&deal.owners)
                            .filter(|(_, &o)| o == s)
                            .map(|(&c, _)| c)
                            .collect();
                        (name(s), cards)
                    })
                    .collect(),
                results: a
                    .cards
                    .iter()
                    .map(|c| (eg.my_side_points(c.values[d]), c.favourable[d]))
                    .collect(),
            })
            .collect();
        let best = a.recommended();
        let probabilities = ProbabilityPane {
            rows,
            recommendation: best.card,
            distributions,
        };

        let mut solver = line_solver(eg);
        let tricks = TricksPane::new(a, &mut solver, a.recommendation, distribution);

        SkatView {
            title: format!(
                "Skat lab · {} game · {} distributions · {} backend",
                eg.game.name(),
                total,
                a.backend
            ),
            table,
            probabilities,
            tricks,
            circuit: CircuitPane::new(a),
        }
    }

    /// The four panes as plain text, one after the other.
    pub fn render_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{}\n", self.title);
        let t = &self.table;
        let _ = writeln!(
            s,
            "[table and hands]  {} game; favourable: {}",
            t.game, t.win
        );
        for seat in &t.seats {
            let hand = if seat.cards.is_empty() {
                format!("{} hidden card(s)", seat.hidden)
            } else {
                cards_text(&seat.cards)
            };
            let _ = writeln!(
                s,
                "  {:<4} {:<8}{}{}  {hand}",
                seat.name,
                seat.role,
                if seat.me { " (me)" } else { "" },
                if seat.leads { " leads" } else { "" },
            );
        }
        let _ = writeln!(s, "  unknown: {}", cards_text(&t.unknown));
        for c in &t.constraints {
            let _ = writeln!(s, "  known: {c}");
        }
        let _ = writeln!(s, "  points: {}\n", t.points);

        let p = &self.probabilities;
        let _ = writeln!(s, "[probabilities]  recommendation: {}", p.recommendation);
        for r in &p.rows {
            let q = match &r.quantum {
                Some(q) => format!("  quantum {:.2} ± {:.2}", q.estimate, q.error_bound),
                None => String::new(),
            };
            let _ = writeln!(
                s,
                "  {:<4} {:>3}/{:<3} p = {:.4}  mean {:.1}{q}",
                r.card.to_string(),
                r.wins,
                r.total,
                r.p_win,
                r.mean_points
            );
        }
        let heads: Vec<String> = p.rows.iter().map(|r| r.card.to_string()).collect();
        let _ = writeln!(
            s,
            "  distributions (my side's points per lead: {}):",
            heads.join(" ")
        );
        for (i, d) in p.distributions.iter().enumerate() {
            let hands: Vec<String> = d
                .hands
                .iter()
                .map(|(n, c)| format!("{n}: {}", cards_text(c)))
                .collect();
            let res: Vec<String> = d
                .results
                .iter()
                .map(|(pts, w)| format!("{pts}{}", if *w { '+' } else { '-' }))
                .collect();
            let _ = writeln!(
                s,
                "  {:>3}. {:<40} {}",
                i + 1,
                hands.join(" | "),
                res.join(" ")
            );
        }

        let tr = &self.tricks;
        let _ = writeln!(
            s,
            "\n[tricks]  lead {} in distribution {}: my side ends with {}",
            tr.lead,
            tr.distribution + 1,
            tr.final_points
        );
        for (i, t) in tr.tricks.iter().enumerate() {
            let cards: Vec<String> = t.cards.iter().map(|(n, c)| format!("{n} {c}")).collect();
            let _ = writeln!(
                s,
                "  {}. {:<28} -> {} takes {}",
                i + 1,
                cards.join(", "),
                t.winner,
                t.points
            );
        }
        let _ = writeln!(s, "\n[circuit]");
        let regs: Vec<String> = self
            .circuit
            .registers
            .iter()
            .map(|r| format!("{} {}", qubit_range(r), r.role))
            .collect();
        let _ = writeln!(
            s,
            "  qubits  {}: {}",
            self.circuit.qubits(),
            regs.join(", ")
        );
        for c in &self.circuit.stages {
            let _ = writeln!(s, "  {:<7} {}", c.stage, c.detail);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skat::analysis::{analyze, AnalyzeOptions};
    use crate::skat::endgame::preset;

    fn nine_card() -> Analysis {
        let eg = Endgame::from_toml(preset("nine-card").expect("preset")).expect("valid");
        analyze(&eg, &AnalyzeOptions::default()).expect("analysis")
    }

    #[test]
    fn registers_match_the_circuit_that_ran() {
        let a = nine_card();
        let c = CircuitPane::new(&a);
        let ranges: Vec<String> = c.registers.iter().map(qubit_range).collect();
        assert_eq!(ranges, ["q0..q5", "q6", "q7..q12"]);
        assert_eq!(c.qubits(), 13);
        let detail = |name: &str| {
            c.stages
                .iter()
                .find(|s| s.stage == name)
                .map(|s| s.detail.clone())
                .unwrap_or_default()
        };
        assert!(detail("P_fav").contains("flag q6 "), "{}", detail("P_fav"));
        assert!(detail("QFT†").contains("q7..q12"), "{}", detail("QFT†"));
    }

    #[test]
    fn every_line_ends_with_the_tabulated_points() {
        let a = nine_card();
        let view = SkatView::new(&a, 0);
        let mut solver = line_solver(&a.endgame);
        let already = a.endgame.points.defenders;
        for card in 0..a.cards.len() {
            for (d, row) in view.probabilities.distributions.iter().enumerate() {
                let t = TricksPane::new(&a, &mut solver, card, d);
                assert_eq!(t.lead, a.cards[card].card);
                assert_eq!(t.tricks[0].cards[0], ("D".to_string(), t.lead));
                assert_eq!((t.final_points, t.favourable), row.results[card]);
                // D defends: the defenders' tricks add up to the final points.
                let won: u32 = t
                    .tricks
                    .iter()
                    .filter(|tr| tr.winner != "S")
                    .map(|tr| tr.points)
                    .sum();
                assert_eq!(already + won, t.final_points, "card {card} dist {d}");
            }
        }
        assert_eq!(view.tricks.lead, a.recommended().card);
    }
}
