//! What the Skat lab's four panes show, as plain data: table and hands, per-card
//! probabilities with the distributions, the tricks of one line of play, and the
//! circuit. A terminal front end draws these; [`SkatView::render_text`] prints them.

use super::analysis::{Analysis, CircuitStage};
use super::cards::Card;
use super::endgame::Side;
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
    /// Quantum counting estimate and error bound, when run.
    pub estimate: Option<(f64, f64)>,
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
}

/// The circuit pane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CircuitPane {
    /// Stage by stage.
    pub stages: Vec<CircuitStage>,
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
                estimate: c.quantum.as_ref().map(|q| (q.estimate, q.error_bound)),
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

        let d = distribution % total.max(1);
        let defenders: Vec<bool> = (0..eg.seats.len()).map(|s| eg.is_defender(s)).collect();
        let mut solver = Solver::new(eg.game, &defenders);
        let line = solver.line_after_lead(&a.deals[d].hands(eg), eg.me, best.card);
        let tricks = TricksPane {
            lead: best.card,
            distribution: d,
            tricks: line
                .iter()
                .map(|t| TrickRow {
                    cards: t.cards.iter().map(|&(s, c)| (name(s), c)).collect(),
                    winner: name(t.winner),
                    points: t.points,
                })
                .collect(),
            final_points: eg.my_side_points(best.values[d]),
        };

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
            circuit: CircuitPane {
                stages: a.circuit.clone(),
            },
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
            let q = match r.estimate {
                Some((e, b)) => format!("  quantum {e:.2} ± {b:.2}"),
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
        for c in &self.circuit.stages {
            let _ = writeln!(s, "  {:<7} {}", c.stage, c.detail);
        }
        s
    }
}
