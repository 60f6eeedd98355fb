//! Endgame files: the TOML description of a Skat endgame as one player sees it, read
//! and checked into an [`Endgame`].
//!
//! Decisions about the format (all checked here, each with its own message):
//! * `me` must be the first seat: the analysis is of the card I lead now.
//! * 2 to 4 seats; every seat holds `cards_each` cards (1 to 10).
//! * `points` may give either side or both. A side left out gets the rest of the
//!   deck's 120 points (the cards taken and the skat are all accounted for in a Skat
//!   endgame); given points that exceed the deck are an error.
//! * A constraint names a player other than me and some of the unknown cards, with
//!   `exactly`, or `at_least` and/or `at_most`.

use super::cards::{BadCard, Card, Game, TOTAL_POINTS};
use serde::Deserialize;

/// What is wrong with an endgame file. Every message is one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EndgameError {
    /// The file is not valid TOML or not in the expected shape.
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the TOML reader said.
        message: String,
    },
    /// A card name that is not a card.
    #[error("{field}: {source}")]
    UnknownCard {
        /// Where it was written.
        field: String,
        /// The reader's complaint.
        source: BadCard,
    },
    /// A card listed twice (in the hand, the unknown cards or one constraint).
    #[error("card {card} appears twice ({first} and {second})")]
    DuplicateCard {
        /// The card.
        card: Card,
        /// Where it appeared first.
        first: String,
        /// Where it appeared again.
        second: String,
    },
    /// The `game` is not one of the supported games.
    #[error("game: {0}")]
    UnknownGame(String),
    /// A bad list of seats.
    #[error("seats: {0}")]
    Seats(String),
    /// A name that is not one of the seats.
    #[error("{field}: \"{name}\" is not one of the seats {seats}")]
    UnknownSeat {
        /// Where it was written.
        field: String,
        /// The name.
        name: String,
        /// The seats, listed.
        seats: String,
    },
    /// `me` is not the seat that leads.
    #[error("me: \"{me}\" must be the first seat (the analysis is of the card I lead), but the first seat is \"{leader}\"")]
    MeNotLeading {
        /// My seat.
        me: String,
        /// The first seat.
        leader: String,
    },
    /// Card counts that do not add up.
    #[error("counts don't add up: {0}")]
    Counts(String),
    /// Bad `points`.
    #[error("points: {0}")]
    Points(String),
    /// Bad `win`.
    #[error("win: {0}")]
    Win(String),
    /// A constraint that is malformed or can never hold.
    #[error("constraint {index}: {message}")]
    Constraint {
        /// 1-based position in the file.
        index: usize,
        /// What is wrong.
        message: String,
    },
    /// The constraints together leave no possible distribution.
    #[error("impossible constraints: no distribution of the unknown cards satisfies them all")]
    NoDistribution,
    /// The endgame is beyond what this analysis handles.
    #[error("too large: {0}")]
    TooLarge(String),
}

/// Which side a win condition is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The declarer's opponents.
    Defenders,
    /// The declarer.
    Declarer,
}

impl Side {
    /// "defenders" or "declarer".
    pub fn name(self) -> &'static str {
        match self {
            Side::Defenders => "defenders",
            Side::Declarer => "declarer",
        }
    }
}

/// What counts as a favourable outcome: `side` ends with at least `at_least` points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Win {
    /// The side.
    pub side: Side,
    /// The points it needs.
    pub at_least: u32,
}

/// Card points already taken by each side before the endgame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Points {
    /// Taken by the defenders.
    pub defenders: u32,
    /// Taken by the declarer (with the skat).
    pub declarer: u32,
}

/// A seat holds between `min` and `max` of `cards` (all of them unknown cards).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    /// Seat index of the player.
    pub player: usize,
    /// The cards.
    pub cards: Vec<Card>,
    /// Least number held.
    pub min: usize,
    /// Most held.
    pub max: usize,
}

/// A checked endgame, as the player `me` knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endgame {
    /// The game type (trumps).
    pub game: Game,
    /// Seat names in playing order; seat 0 leads (and is `me`).
    pub seats: Vec<String>,
    /// Seat index of the declarer.
    pub declarer: usize,
    /// Seat index of the player the analysis is for (always 0).
    pub me: usize,
    /// My cards: the candidates to lead.
    pub hand: Vec<Card>,
    /// Cards held by the other players, in file order.
    pub unknown: Vec<Card>,
    /// Cards each seat holds.
    pub cards_each: usize,
    /// Points already taken.
    pub points: Points,
    /// The favourable outcome.
    pub win: Win,
    /// What is known about who holds which unknown cards.
    pub constraints: Vec<Constraint>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEndgame {
    game: String,
    seats: Vec<String>,
    declarer: String,
    me: String,
    hand: Vec<String>,
    unknown: Vec<String>,
    cards_each: usize,
    points: RawPoints,
    win: RawWin,
    #[serde(default)]
    constraint: Vec<RawConstraint>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPoints {
    defenders: Option<u32>,
    declarer: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWin {
    side: String,
    at_least: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConstraint {
    player: String,
    cards: Vec<String>,
    exactly: Option<usize>,
    at_least: Option<usize>,
    at_most: Option<usize>,
}

/// Most cards a seat may hold.
pub const MAX_CARDS_EACH: usize = 10;

/// The endgame presets built into the program: (name, what it is, TOML text).
pub const PRESETS: [(&str, &str, &str); 2] = [
    (
        "nine-card",
        "the paper's nine-card endgame (spades game, three tricks left)",
        include_str!("../../examples/skat/nine-card.toml"),
    ),
    (
        "five-each",
        "a larger endgame: five cards each, 15 cards in play",
        include_str!("../../examples/skat/five-each.toml"),
    ),
];

/// The TOML text of a built-in preset.
pub fn preset(name: &str) -> Option<&'static str> {
    PRESETS.iter().find(|p| p.0 == name).map(|p| p.2)
}

fn syntax_error(text: &str, e: &toml::de::Error) -> EndgameError {
    let mut start = e.span().map_or(0, |s| s.start).min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let before = &text[..start];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    let message = e.message().split_whitespace().collect::<Vec<_>>().join(" ");
    EndgameError::Syntax {
        line,
        column,
        message,
    }
}

fn parse_cards(field: &str, names: &[String]) -> Result<Vec<Card>, EndgameError> {
    names
        .iter()
        .map(|n| {
            n.parse::<Card>()
                .map_err(|source| EndgameError::UnknownCard {
                    field: field.to_string(),
                    source,
                })
        })
        .collect()
}

impl Endgame {
    /// Reads and checks an endgame from TOML text.
    pub fn from_toml(text: &str) -> Result<Endgame, EndgameError> {
        let raw: RawEndgame = toml::from_str(text).map_err(|e| syntax_error(text, &e))?;
        Endgame::from_raw(raw)
    }

    fn from_raw(raw: RawEndgame) -> Result<Endgame, EndgameError> {
        let game: Game = raw.game.parse().map_err(EndgameError::UnknownGame)?;

        // Seats.
        if !(2..=4).contains(&raw.seats.len()) {
            return Err(EndgameError::Seats(format!(
                "{} seats given; 2 to 4 are supported",
                raw.seats.len()
            )));
        }
        for (i, s) in raw.seats.iter().enumerate() {
            if s.trim().is_empty() {
                return Err(EndgameError::Seats("a seat name is empty".into()));
            }
            if raw.seats[..i].contains(s) {
                return Err(EndgameError::Seats(format!("\"{s}\" is listed twice")));
            }
        }
        let seat_list = format!("[{}]", raw.seats.join(", "));
        let seat = |field: &str, name: &str| {
            raw.seats
                .iter()
                .position(|s| s == name)
                .ok_or_else(|| EndgameError::UnknownSeat {
                    field: field.to_string(),
                    name: name.to_string(),
                    seats: seat_list.clone(),
                })
        };
        let declarer = seat("declarer", &raw.declarer)?;
        let me = seat("me", &raw.me)?;
        if me != 0 {
            return Err(EndgameError::MeNotLeading {
                me: raw.me.clone(),
                leader: raw.seats[0].clone(),
            });
        }

        // Cards.
        let hand = parse_cards("hand", &raw.hand)?;
        let unknown = parse_cards("unknown", &raw.unknown)?;
        let mut seen: Vec<(Card, &str)> = Vec::new();
        for (c, field) in hand
            .iter()
            .map(|&c| (c, "hand"))
            .chain(unknown.iter().map(|&c| (c, "unknown")))
        {
            if let Some(&(_, first)) = seen.iter().find(|(s, _)| *s == c) {
                return Err(EndgameError::DuplicateCard {
                    card: c,
                    first: first.to_string(),
                    second: field.to_string(),
                });
            }
            seen.push((c, field));
        }
        let each = raw.cards_each;
        if !(1..=MAX_CARDS_EACH).contains(&each) {
            return Err(EndgameError::Counts(format!(
                "cards_each is {each}; it must be 1 to {MAX_CARDS_EACH}"
            )));
        }
        if hand.len() != each {
            return Err(EndgameError::Counts(format!(
                "my hand has {} card(s) but cards_each is {each}",
                hand.len()
            )));
        }
        let others = raw.seats.len() - 1;
        if unknown.len() != others * each {
            return Err(EndgameError::Counts(format!(
                "{} unknown card(s), but {others} other player(s) with {each} card(s) each hold {}",
                unknown.len(),
                others * each
            )));
        }

        // Points.
        let in_play: u32 = hand.iter().chain(&unknown).map(|c| c.points()).sum();
        let rest = TOTAL_POINTS - in_play;
        let points = match (raw.points.defenders, raw.points.declarer) {
            (None, None) => {
                return Err(EndgameError::Points(
                    "give the points already taken by the defenders or the declarer".into(),
                ))
            }
            (Some(d), Some(s)) if d + s > rest => {
                return Err(EndgameError::Points(format!(
                    "defenders {d} + declarer {s} + {in_play} still in play is more than {TOTAL_POINTS}"
                )))
            }
            (Some(d), Some(s)) => Points {
                defenders: d,
                declarer: s,
            },
            (Some(d), None) | (None, Some(d)) if d > rest => {
                return Err(EndgameError::Points(format!(
                    "{d} taken + {in_play} still in play is more than {TOTAL_POINTS}"
                )))
            }
            (Some(d), None) => Points {
                defenders: d,
                declarer: rest - d,
            },
            (None, Some(s)) => Points {
                defenders: rest - s,
                declarer: s,
            },
        };

        // Win condition.
        let side = match raw.win.side.as_str() {
            "defenders" => Side::Defenders,
            "declarer" => Side::Declarer,
            s => {
                return Err(EndgameError::Win(format!(
                    "side \"{s}\" is neither \"defenders\" nor \"declarer\""
                )))
            }
        };
        if raw.win.at_least > TOTAL_POINTS {
            return Err(EndgameError::Win(format!(
                "at_least = {} is more than the {TOTAL_POINTS} points of the deck",
                raw.win.at_least
            )));
        }
        let win = Win {
            side,
            at_least: raw.win.at_least,
        };

        // Constraints.
        let mut constraints = Vec::new();
        for (i, rc) in raw.constraint.iter().enumerate() {
            let index = i + 1;
            let err = |message: String| EndgameError::Constraint { index, message };
            let player = seat(&format!("constraint {index}: player"), &rc.player)?;
            if player == me {
                return Err(err(format!(
                    "player \"{}\" is me; constraints are about the other players",
                    rc.player
                )));
            }
            let cards = parse_cards(&format!("constraint {index}: cards"), &rc.cards)?;
            if cards.is_empty() {
                return Err(err("cards is empty".into()));
            }
            for (j, c) in cards.iter().enumerate() {
                if cards[..j].contains(c) {
                    return Err(EndgameError::DuplicateCard {
                        card: *c,
                        first: format!("constraint {index}"),
                        second: format!("constraint {index}"),
                    });
                }
                if !unknown.contains(c) {
                    return Err(err(format!("{c} is not one of the unknown cards")));
                }
            }
            let n = cards.len();
            let (min, max) = match (rc.exactly, rc.at_least, rc.at_most) {
                (Some(e), None, None) => (e, e),
                (Some(_), _, _) => {
                    return Err(err(
                        "exactly cannot be combined with at_least or at_most".into()
                    ))
                }
                (None, None, None) => {
                    return Err(err("give exactly, at_least or at_most".into()));
                }
                (None, lo, hi) => (lo.unwrap_or(0), hi.unwrap_or(n)),
            };
            let most = n.min(each);
            if min > max {
                return Err(err(format!(
                    "at_least {min} is more than at_most {max}; no distribution can satisfy it"
                )));
            }
            if min > most {
                return Err(err(format!(
                    "{} must hold at least {min} of {n} card(s) but can hold at most {most}",
                    rc.player
                )));
            }
            constraints.push(Constraint {
                player,
                cards,
                min,
                max: max.min(most),
            });
        }

        Ok(Endgame {
            game,
            seats: raw.seats,
            declarer,
            me,
            hand,
            unknown,
            cards_each: each,
            points,
            win,
            constraints,
        })
    }

    /// Seat indices of the players other than me, in seat order.
    pub fn others(&self) -> Vec<usize> {
        (0..self.seats.len()).filter(|&s| s != self.me).collect()
    }

    /// True when seat `s` is a defender.
    pub fn is_defender(&self, s: usize) -> bool {
        s != self.declarer
    }

    /// Card points still in the hands.
    pub fn points_in_play(&self) -> u32 {
        self.hand
            .iter()
            .chain(&self.unknown)
            .map(|c| c.points())
            .sum()
    }

    /// True when the defenders, taking `won` more points in the remaining tricks, make
    /// the outcome favourable.
    pub fn favourable(&self, won: u32) -> bool {
        let total = match self.win.side {
            Side::Defenders => self.points.defenders + won,
            Side::Declarer => self.points.declarer + (self.points_in_play() - won),
        };
        total >= self.win.at_least
    }

    /// My side's final points when the defenders take `won` more points.
    pub fn my_side_points(&self, won: u32) -> u32 {
        if self.is_defender(self.me) {
            self.points.defenders + won
        } else {
            self.points.declarer + (self.points_in_play() - won)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_parse() {
        for (name, _, text) in PRESETS {
            let e = Endgame::from_toml(text);
            assert!(e.is_ok(), "{name}: {e:?}");
        }
        let e = Endgame::from_toml(preset("nine-card").unwrap()).unwrap();
        assert_eq!(e.points.defenders, 48);
        assert_eq!(e.points.declarer, 120 - 48 - 30);
        assert!(e.favourable(12) && !e.favourable(11));
    }

    #[test]
    fn syntax_error_has_position() {
        let e = Endgame::from_toml("game = \"spades\"\nseats = [\n").unwrap_err();
        match e {
            EndgameError::Syntax { line, .. } => assert!(line >= 2),
            other => panic!("{other:?}"),
        }
        assert!(!e.to_string().contains('\n'));
    }
}
