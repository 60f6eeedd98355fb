//! Seeded random games under the harmonics rules: every ply keeps the weights summing to
//! 1 and every probability in (0, 1]; replaying the recorded texts gives the same game.

use qchess::chess::Status;
use qchess::game::Playable;
use qchess::seeded::SeededRng;
use qchess::variants::harmonics::HarmonicsGame;

#[test]
fn random_game_of_200_plies_stays_consistent_and_replays() {
    let mut g = HarmonicsGame::new(2024);
    let mut rng = SeededRng::new(77);
    let mut most = 0;
    for ply in 0..200 {
        if g.status() != Status::Ongoing {
            break;
        }
        let moves = g.legal_moves();
        assert!(!moves.is_empty(), "ply {ply}: an ongoing game has a move");
        let m = &moves[rng.index(moves.len())];
        g.play(m).unwrap_or_else(|e| panic!("ply {ply} {m}: {e}"));
        let sp = g.superposition();
        let total: f64 = sp.iter().map(|(_, w)| w).sum();
        assert!(
            (total - 1.0).abs() < 1e-12,
            "ply {ply}: weights sum to {total}"
        );
        assert!(sp.iter().all(|(_, w)| w > 0.0));
        assert!(sp.len() <= g.limit());
        most = most.max(sp.len());
        for (s, cell) in g.cells() {
            let p = cell.probability;
            assert!(p > 0.0 && p <= 1.0, "ply {ply}: {s} has p = {p}");
        }
    }
    let plies = g.history().len();
    eprintln!(
        "{plies} plies, at most {most} harmonics, status {:?}",
        g.status()
    );
    assert!(plies >= 20, "the game lasted {plies} plies");
    let mut r = HarmonicsGame::new(1);
    for rec in g.history() {
        r.play(&rec.text)
            .unwrap_or_else(|e| panic!("replay {}: {e}", rec.text));
    }
    assert_eq!(r.cells(), g.cells());
    assert_eq!(r.status(), g.status());
    assert_eq!(r.superposition(), g.superposition());
}
