//! Cards of the 32-card Skat deck: suits, ranks, card points and the trick-taking order
//! of each game type.

use std::fmt;
use std::str::FromStr;

/// A suit, in Skat's ranking order clubs > spades > hearts > diamonds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    /// Clubs (C).
    Clubs,
    /// Spades (S).
    Spades,
    /// Hearts (H).
    Hearts,
    /// Diamonds (D).
    Diamonds,
}

impl Suit {
    /// All four suits, highest first.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Spades, Suit::Hearts, Suit::Diamonds];

    /// The one-letter name (C, S, H, D).
    pub fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Spades => 'S',
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
        }
    }

    /// The lower-case English name.
    pub fn name(self) -> &'static str {
        match self {
            Suit::Clubs => "clubs",
            Suit::Spades => "spades",
            Suit::Hearts => "hearts",
            Suit::Diamonds => "diamonds",
        }
    }
}

/// A rank, from seven to ace (the order of the card index, not of trick-taking).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rank {
    /// 7 (0 points).
    Seven,
    /// 8 (0 points).
    Eight,
    /// 9 (0 points).
    Nine,
    /// 10 (10 points).
    Ten,
    /// Jack (2 points; always a trump in suit games and grand).
    Jack,
    /// Queen (3 points).
    Queen,
    /// King (4 points).
    King,
    /// Ace (11 points).
    Ace,
}

impl Rank {
    /// All eight ranks, from seven to ace.
    pub const ALL: [Rank; 8] = [
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// Card points of this rank: A 11, 10 10, K 4, Q 3, J 2, others 0.
    pub fn points(self) -> u32 {
        match self {
            Rank::Ace => 11,
            Rank::Ten => 10,
            Rank::King => 4,
            Rank::Queen => 3,
            Rank::Jack => 2,
            _ => 0,
        }
    }

    /// The rank as written in a card name (7 8 9 10 J Q K A).
    pub fn label(self) -> &'static str {
        match self {
            Rank::Seven => "7",
            Rank::Eight => "8",
            Rank::Nine => "9",
            Rank::Ten => "10",
            Rank::Jack => "J",
            Rank::Queen => "Q",
            Rank::King => "K",
            Rank::Ace => "A",
        }
    }

    /// Rank within a plain suit (and among non-jack trumps): A > 10 > K > Q > 9 > 8 > 7;
    /// 1 for the seven up to 7 for the ace.
    fn suit_strength(self) -> u8 {
        match self {
            Rank::Seven => 1,
            Rank::Eight => 2,
            Rank::Nine => 3,
            Rank::Queen => 4,
            Rank::King => 5,
            Rank::Ten => 6,
            Rank::Ace => 7,
            // Jacks are trumps and never ranked inside a suit.
            Rank::Jack => 0,
        }
    }
}

/// One of the 32 cards. Its index (0..32) is `suit * 8 + rank`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card {
    /// The suit.
    pub suit: Suit,
    /// The rank.
    pub rank: Rank,
}

impl Card {
    /// A card from suit and rank.
    pub fn new(suit: Suit, rank: Rank) -> Card {
        Card { suit, rank }
    }

    /// The card's index in 0..32.
    pub fn index(self) -> u8 {
        self.suit as u8 * 8 + self.rank as u8
    }

    /// The card with index `i` (0..32).
    pub fn from_index(i: u8) -> Card {
        Card {
            suit: Suit::ALL[(i / 8) as usize % 4],
            rank: Rank::ALL[(i % 8) as usize],
        }
    }

    /// The card's point value.
    pub fn points(self) -> u32 {
        self.rank.points()
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.suit.letter(), self.rank.label())
    }
}

/// Why a card name could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown card \"{0}\" (write suit C S H D, then rank 7 8 9 10 J Q K A, e.g. H10 or SJ)")]
pub struct BadCard(pub String);

impl FromStr for Card {
    type Err = BadCard;

    /// Reads "H10", "HT", "sj", "CA", ... (case-insensitive; `T` stands for 10).
    fn from_str(s: &str) -> Result<Card, BadCard> {
        let bad = || BadCard(s.to_string());
        let up = s.trim().to_ascii_uppercase();
        let mut chars = up.chars();
        let suit = match chars.next() {
            Some('C') => Suit::Clubs,
            Some('S') => Suit::Spades,
            Some('H') => Suit::Hearts,
            Some('D') => Suit::Diamonds,
            _ => return Err(bad()),
        };
        let rank = match chars.as_str() {
            "7" => Rank::Seven,
            "8" => Rank::Eight,
            "9" => Rank::Nine,
            "10" | "T" => Rank::Ten,
            "J" => Rank::Jack,
            "Q" => Rank::Queen,
            "K" => Rank::King,
            "A" => Rank::Ace,
            _ => return Err(bad()),
        };
        Ok(Card { suit, rank })
    }
}

/// The game being played: a suit game (that suit and the four jacks are trumps) or a
/// grand (only the jacks are trumps). Null games are not modelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Game {
    /// A suit game with this trump suit.
    Suit(Suit),
    /// Grand: jacks only.
    Grand,
}

/// Which cards must follow which: trumps form their own class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// A trump (any jack, or a card of the trump suit).
    Trump,
    /// A card of this plain suit.
    Plain(Suit),
}

impl Game {
    /// The lower-case name used in endgame files.
    pub fn name(self) -> &'static str {
        match self {
            Game::Suit(s) => s.name(),
            Game::Grand => "grand",
        }
    }

    /// The class a card belongs to for following suit.
    pub fn class(self, c: Card) -> Class {
        if c.rank == Rank::Jack {
            return Class::Trump;
        }
        match self {
            Game::Suit(t) if c.suit == t => Class::Trump,
            _ => Class::Plain(c.suit),
        }
    }

    /// True for a trump card.
    pub fn is_trump(self, c: Card) -> bool {
        self.class(c) == Class::Trump
    }

    /// A number that orders cards of the same class by trick-taking power (higher wins):
    /// jacks 21..=24 (CJ highest), trump-suit cards 11..=17, plain cards 1..=7.
    pub fn strength(self, c: Card) -> u8 {
        if c.rank == Rank::Jack {
            return 24 - c.suit as u8;
        }
        let base = if self.is_trump(c) { 10 } else { 0 };
        base + c.rank.suit_strength()
    }

    /// Index in `trick` (cards in playing order, the first one led) of the card that
    /// takes the trick: the highest trump, or else the highest card of the led suit.
    pub fn trick_winner(self, trick: &[Card]) -> usize {
        let led = self.class(trick[0]);
        let mut best = 0;
        for (i, &c) in trick.iter().enumerate().skip(1) {
            if self.beats(c, trick[best], led) {
                best = i;
            }
        }
        best
    }

    /// True when `a`, played after `b`, takes the trick from it (led class `led`).
    pub fn beats(self, a: Card, b: Card, led: Class) -> bool {
        let (ca, cb) = (self.class(a), self.class(b));
        if ca == cb {
            return self.strength(a) > self.strength(b);
        }
        ca == Class::Trump || (ca == led && cb != Class::Trump)
    }
}

impl FromStr for Game {
    type Err = String;

    /// Reads clubs | spades | hearts | diamonds | grand (case-insensitive).
    fn from_str(s: &str) -> Result<Game, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "clubs" => Ok(Game::Suit(Suit::Clubs)),
            "spades" => Ok(Game::Suit(Suit::Spades)),
            "hearts" => Ok(Game::Suit(Suit::Hearts)),
            "diamonds" => Ok(Game::Suit(Suit::Diamonds)),
            "grand" => Ok(Game::Grand),
            _ => Err(format!(
                "unknown game \"{s}\" (choose clubs, spades, hearts, diamonds or grand)"
            )),
        }
    }
}

/// Total card points of the deck.
pub const TOTAL_POINTS: u32 = 120;

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn parse_and_print() {
        assert_eq!(c("H10"), c("HT"));
        assert_eq!(c("ht").to_string(), "H10");
        assert_eq!(c("SJ").to_string(), "SJ");
        assert!("X7".parse::<Card>().is_err());
        assert!("H11".parse::<Card>().is_err());
        assert!("H".parse::<Card>().is_err());
        for i in 0..32 {
            assert_eq!(Card::from_index(i).index(), i);
        }
        let total: u32 = (0..32).map(|i| Card::from_index(i).points()).sum();
        assert_eq!(total, TOTAL_POINTS);
    }

    #[test]
    fn spades_trump_order() {
        let g = Game::Suit(Suit::Spades);
        let order = [
            "CJ", "SJ", "HJ", "DJ", "SA", "S10", "SK", "SQ", "S9", "S8", "S7",
        ];
        for w in order.windows(2) {
            assert!(g.strength(c(w[0])) > g.strength(c(w[1])), "{w:?}");
            assert!(g.is_trump(c(w[0])) && g.is_trump(c(w[1])));
        }
        assert!(!g.is_trump(c("HA")));
        // A seven of trumps beats the ace of the led plain suit.
        assert_eq!(g.trick_winner(&[c("HA"), c("S7")]), 1);
        // A card of another plain suit never wins.
        assert_eq!(g.trick_winner(&[c("H7"), c("CA"), c("H8")]), 2);
        assert_eq!(g.trick_winner(&[c("H10"), c("HA"), c("HJ")]), 2);
    }

    #[test]
    fn grand_and_plain_order() {
        let g = Game::Grand;
        assert!(g.is_trump(c("DJ")) && !g.is_trump(c("CA")));
        assert_eq!(g.trick_winner(&[c("CA"), c("DJ"), c("C10")]), 1);
        assert_eq!(g.trick_winner(&[c("C10"), c("CK"), c("CA")]), 2);
        assert_eq!(g.trick_winner(&[c("CQ"), c("CK")]), 1);
        assert!("null".parse::<Game>().is_err());
    }
}
