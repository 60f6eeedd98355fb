//! Standard algebraic notation for the harmonics variant's ordinary moves (`Nf3`,
//! `exd5`, `O-O`), read as Quantum Chess reads it ([`crate::chess::san`]): against the
//! ordinary moves at least one harmonic allows, each with the piece on its source.
//! Every harmonic agrees on which piece a square may hold, so a piece letter picks its
//! squares as on an ordinary board; a piece that may stand on two squares (after a
//! quantum move) is matched on both, and a SAN that fits both is refused with the two
//! moves listed. Quantum moves (`b1~d5`) have no SAN.

use super::notation::{self, Move};
use crate::chess::notation::SanError;
use crate::chess::san::{self, Candidate, Castle};
use crate::chess::{Kind, Square};
use crate::game::Playable;

/// The ordinary move `text` names in SAN, in the variant's notation (`g1f3`); `None`
/// when `text` is not SAN.
pub fn read(game: &dyn Playable, text: &str) -> Option<Result<String, SanError>> {
    let typed = san::parse(text)?;
    let cells = game.cells();
    let kind_at = |sq: Square| {
        cells
            .iter()
            .find(|(s, _)| *s == sq)
            .and_then(|(_, c)| c.kind)
    };
    let candidates = game.legal_moves().into_iter().filter_map(|m| {
        let Move::Ordinary {
            from,
            to,
            promotion,
        } = notation::parse(&m).ok()?.mv
        else {
            return None;
        };
        let kind = kind_at(from)?;
        let castle = match to.file() - from.file() {
            2 if kind == Kind::King => Some(Castle::KingSide),
            -2 if kind == Kind::King => Some(Castle::QueenSide),
            _ => None,
        };
        Some(Candidate {
            from,
            to,
            kind,
            promotion,
            castle,
            mv: m,
        })
    });
    let why = || {
        format!(
            "no harmonic lets a {} of {} make it",
            typed.kind().name(),
            game.to_move().name()
        )
    };
    Some(san::choose(&typed, text, candidates, why))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{RuleSet, Setup};
    use crate::variants::new_game;

    fn harmonics(fen: Option<&str>) -> Box<dyn Playable> {
        new_game(&Setup::with_start(RuleSet::Harmonics, fen, 1)).unwrap()
    }

    #[test]
    fn ordinary_moves_in_san() {
        let mut g = harmonics(None);
        assert_eq!(read(g.as_ref(), "Nf3"), Some(Ok("g1f3".into())));
        assert_eq!(read(g.as_ref(), "e4"), Some(Ok("e2e4".into())));
        assert_eq!(read(g.as_ref(), "b1~d5"), None, "not SAN");
        let castles = harmonics(Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
        assert_eq!(read(castles.as_ref(), "O-O-O"), Some(Ok("e1c1".into())));
        // A knight on two squares (a quantum move): a SAN that fits both is refused.
        g.play("b1~d5").unwrap();
        g.play("e7e6").unwrap();
        let e = read(g.as_ref(), "Nc3").unwrap().unwrap_err();
        assert_eq!(
            e.to_string(),
            "Nc3 (read as a knight move to c3) fits 2 moves: b1c3, d5c3; name the source \
             square or type the move in squares"
        );
        assert_eq!(read(g.as_ref(), "Ndc3"), Some(Ok("d5c3".into())));
        assert_eq!(
            read(g.as_ref(), "Qh5").unwrap().unwrap_err().to_string(),
            "Qh5 (read as a queen move to h5): no harmonic lets a queen of white make it"
        );
    }
}
