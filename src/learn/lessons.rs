//! The lessons, in the order a chess player needs them: how a game is won, the king
//! without check, split, the numbers, merge, moving through a maybe-occupied square,
//! captures, taking a piece that is only partly there, excluded moves, a split onto the
//! piece's own half, a merge that comes back partly, en passant, promotion, castling,
//! what happened, how moves are written, the inspector, the computer.

use super::checks::{
    capture_asks, capture_half, castle, en_passant, excluded, king_safe, merge_home, merge_partly,
    notation, promote, slide_through, split_half, split_knight, split_onto_itself, take_king,
    Checked,
};
use crate::chess::{Game, PlayedMove};

/// What a lesson asks the player to do.
#[derive(Clone, Copy, Debug)]
pub enum Goal {
    /// A move, judged by this check from the game after it and the move.
    Move(fn(&Game, &PlayedMove) -> Checked),
    /// Open the explanation of the last move (`e`).
    Explain,
    /// Open the inspector on this square (`i`).
    Inspect(&'static str),
    /// Ask the computer for a hint (`H`).
    Hint,
}

/// One lesson.
#[derive(Clone, Copy, Debug)]
pub struct Lesson {
    /// Its name in a player's saved progress: kept whatever the lessons' order.
    pub id: &'static str,
    /// Its title.
    pub title: &'static str,
    /// The position it starts from.
    pub fen: &'static str,
    /// Moves played from there before the player takes over (outcomes forced).
    pub setup: &'static [&'static str],
    /// What it teaches: at most six lines at 80 columns.
    pub text: &'static str,
    /// The task, in one line.
    pub task: &'static str,
    /// How the task is checked.
    pub goal: Goal,
}

impl Lesson {
    /// The lesson's position, ready for the player (`seed` draws the outcomes of the
    /// player's measurements).
    pub fn game(&self, seed: u64) -> Game {
        let opts = crate::chess::GameOptions {
            seed,
            ..Default::default()
        };
        let mut g = Game::from_fen(self.fen, opts).expect("every lesson's FEN is valid");
        for m in self.setup {
            g.play(m).expect("every lesson's setup moves are legal");
        }
        g
    }
}

/// Every lesson, in order.
pub const LESSONS: &[Lesson] = &[
    Lesson {
        id: "win",
        title: "Win by taking the king",
        fen: "4k3/8/8/8/8/8/8/4RK2 w - - 0 1",
        setup: &[],
        text: "Quantum Chess is chess with two more moves and one rule less: there is no check \
               and no mate. You win by capturing the king. A game is also over after 50 moves \
               without a capture, or when a position comes back a third time: then every square \
               is looked at, and the result follows from the board that is found.",
        task: "Capture the black king with your rook (pick the rook, then e8).",
        goal: Goal::Move(take_king),
    },
    Lesson {
        id: "no-check",
        title: "No check: mind your king",
        fen: "4r2k/8/8/8/8/8/8/4K3 w - - 0 1",
        setup: &[],
        text: "Nothing stops a king from standing where it can be taken, and nothing forces \
               you to save it. The status line warns you instead: \"king attacked: 100% by \
               e8xe1\", and the king's square is marked. In a game, a move that would leave \
               your safe king open is asked about first (y plays it anyway).",
        task: "Move your king to a square the rook cannot reach.",
        goal: Goal::Move(king_safe),
    },
    Lesson {
        id: "split",
        title: "Split",
        fen: "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
        setup: &[],
        text: "A knight, bishop, rook, queen or king may move to two squares at once. It stays \
               one piece: it stands on each square with a chance, 50% and 50% from a square \
               where it was certain. Found on one square, it is not on the other. Pawns never \
               split, and a split never captures.",
        task: "Split the knight on b1 to a3 and c3: press s on it, then a3 and c3.",
        goal: Goal::Move(split_knight),
    },
    Lesson {
        id: "numbers",
        title: "What the numbers mean",
        fen: "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
        setup: &["b1^a3c3", "e8e7"],
        text: "The number on a square is the chance that the piece is found there if you look; \
               one piece's chances add up to 100%. Beside the board, \"correlated with a3 \
               -1.00\": found on c3, the knight is not on a3 (+1.00: both or neither); \
               \"branches 2  occupancies 2\": the game follows two boards at once, which differ \
               in where pieces stand.",
        task: "Split the half on c3 again, to two empty squares (s on c3).",
        goal: Goal::Move(split_half),
    },
    Lesson {
        id: "merge",
        title: "Merge",
        fen: "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
        setup: &["b1^a3c3", "e8e7"],
        text: "A merge plays a split backwards: the two halves of a piece move to one square. \
               Halves fresh from one split come back whole, wherever they meet (a later lesson \
               shows when they do not). A merge never captures.",
        task: "Bring the halves together on b1: m on a3, then c3, then b1.",
        goal: Goal::Move(merge_home),
    },
    Lesson {
        id: "slide-through",
        title: "Through a square that may be occupied",
        fen: "4k3/8/8/8/8/8/8/RN2K3 w - - 0 1",
        setup: &["b1^a3c3", "e8e7"],
        text: "A bishop, rook or queen whose path crosses a square that holds a piece with some \
               chance goes only in the cases where that square is empty. Nothing is asked yet: \
               the slider is partly moved and partly home, and its fate is tied to the other \
               piece's. Pieces tied like this are entangled.",
        task: "Move the rook from a1 to a5, past a3 where the knight may stand.",
        goal: Goal::Move(slide_through),
    },
    Lesson {
        id: "capture-asks",
        title: "A capture asks first",
        fen: "4k3/8/8/3p4/8/8/8/1N2K3 w - - 0 1",
        setup: &["b1^a3c3", "e8e7"],
        text: "A capture first asks whether it can happen: is your piece on its square, and \
               is a slider's path clear? The answer is drawn with its chance, and every piece \
               tied to it changes at once. A \"no\" spends your turn. Either answer is fine \
               here: see what each does.",
        task: "Capture the pawn on d5 with the knight from c3.",
        goal: Goal::Move(capture_asks),
    },
    Lesson {
        id: "capture-partly",
        title: "Taking a piece that is only partly there",
        fen: "4k1n1/8/8/4P3/8/8/8/4K3 b - - 0 1",
        setup: &["g8^f6h6"],
        text: "A capture takes a piece only in the cases where it stands on the target square. \
               A pawn that captures moves only in those cases and stays home in the others. \
               This capture asks nothing, because your pawn is surely on e5.",
        task: "Capture the knight on f6 with the pawn on e5.",
        goal: Goal::Move(capture_half),
    },
    Lesson {
        id: "excluded",
        title: "Excluded moves",
        fen: "4k3/8/8/8/8/8/2P5/1N2K3 w - - 0 1",
        setup: &["b1^a3c3", "e8e7"],
        text: "A piece cannot move onto a square held by a piece it cannot take: your own \
               piece, or anything in front of a pawn. When that square is only maybe occupied, \
               the move asks first whether it is empty, and goes on only if it is.",
        task: "Step the pawn from c2 to c3, where half of your knight stands.",
        goal: Goal::Move(excluded),
    },
    Lesson {
        id: "split-onto-itself",
        title: "A split onto the piece's own half",
        fen: "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        setup: &["a1^a4a6", "e8e7"],
        text: "A move swaps what stands on two squares, usually a piece and an empty square. \
               When the target holds part of the same piece, that part is swapped back to the \
               square the move left. A split is a half swap with the first square you pick, \
               then a whole swap with the second: a split onto the piece's own half moves \
               that half too.",
        task: "Split the half on a4 to b4 and a6: s on a4, then b4, then a6.",
        goal: Goal::Move(split_onto_itself),
    },
    Lesson {
        id: "merge-partly",
        title: "A merge that comes back partly",
        fen: "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        setup: &["a1^a4d1", "e8e7", "d1d4", "e7e8"],
        text: "Each half of a piece has a hidden hand, its phase: a split sets both alike, and \
               every move one half makes alone turns its hand a quarter. Hands alike, a \
               merge is whole; a quarter apart, half comes back and half stays on the second \
               square you picked; half a turn apart, none comes back. Here the half on d4 has \
               moved once since the split, the half on a4 not.",
        task: "Merge the rook's halves on b4: m on a4, then d4, then b4.",
        goal: Goal::Move(merge_partly),
    },
    Lesson {
        id: "en-passant",
        title: "Pawns: en passant",
        fen: "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1",
        setup: &["d7d5"],
        text: "Pawns step, push two from home, capture and take en passant as in chess. A \
               pawn's step onto a maybe-occupied square asks whether it is empty; a pawn's \
               capture moves the pawn only where it took something. Black just pushed its \
               pawn past yours.",
        task: "Take it en passant: your pawn from e5 to d6.",
        goal: Goal::Move(en_passant),
    },
    Lesson {
        id: "promotion",
        title: "Pawns: promotion",
        fen: "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
        setup: &[],
        text: "A pawn that reaches the last rank becomes the piece you name, in every case \
               where it arrived. Type it with the move (b7b8q), or pick the square and answer \
               q, r, b or n.",
        task: "Promote the pawn on b7 to a queen.",
        goal: Goal::Move(promote),
    },
    Lesson {
        id: "castling",
        title: "Castling",
        fen: "4kr2/8/8/8/8/8/8/4K2R w K - 0 1",
        setup: &[],
        text: "Castling is the king's move two squares towards a rook that never moved, the \
               rook jumping over. There is no check, so the king may castle out of, through or \
               into attack: here the rook on f8 attacks f1, and castling is allowed. When a \
               square between may be occupied, castling asks first whether it is empty.",
        task: "Castle on the king's side: the king from e1 to g1.",
        goal: Goal::Move(castle),
    },
    Lesson {
        id: "reading",
        title: "Reading what happened",
        fen: "4k3/8/8/3p4/8/8/8/1N2K3 w - - 0 1",
        setup: &["b1^a3c3", "e8e7", "c3xd5.m1"],
        text: "The message line says what the last move did. History lists every move; under \
               one that asked, its answer and what vanished. Circuit draws the gates of the \
               shown move (c: drawing or list). Probabilities shows the square under the \
               cursor and the pieces tied to it. e tells the shown move in full.",
        task: "Press e to read the whole story of the last move.",
        goal: Goal::Explain,
    },
    Lesson {
        id: "notation",
        title: "How moves are written",
        fen: "4k3/8/8/3p4/8/8/2P5/1N2K3 w - - 0 1",
        setup: &["b1^a3c3", "e8e7"],
        text: "In a move, x marks a capture (c3xd5), w a move onto a square that may hold a \
               piece it cannot take (c2wc3); .m1 or .m0 is the answer of a move that asked: \
               yes, it went on, or no. En passant is the pawn's move (e5d6), a promotion \
               names the piece (b7b8q). History writes plain moves as in chess (Ke7).",
        task: "Type the pawn's step c2 to c3 with the letter that marks its kind.",
        goal: Goal::Move(notation),
    },
    Lesson {
        id: "inspector",
        title: "The inspector",
        fen: "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
        setup: &["b1^a3c3", "e8e7"],
        text: "The inspector shows how one square is tied to the others: a heat map of how \
               much each square is entangled with it, pair by pair. Press Enter on a second \
               square for their Bell values, the way physicists measure such ties. Here the \
               knight's two halves are tied: found on a3 it is not on c3, so c3 is warm.",
        task: "Put the cursor on a3 and press i.",
        goal: Goal::Inspect("a3"),
    },
    Lesson {
        id: "computer",
        title: "Playing the computer",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        setup: &[],
        text: "qchess play --engine black --level 3 gives you the computer as Black, from level \
               1 (quick) to 5 (strong). It thinks over the exact chances of every position. \
               H asks it for your best move at any time: the hint shows on the message line and \
               as * * on the board.",
        task: "Press H for a hint.",
        goal: Goal::Hint,
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::threat::king_threat;
    use crate::chess::{Color, Status};
    use crate::format::wrap;
    use crate::learn::checks::sq;

    /// The lesson named `id`.
    fn by_id(id: &str) -> Option<&'static Lesson> {
        LESSONS.iter().find(|l| l.id == id)
    }

    /// Lesson `id`'s position after `moves` (outcomes forced where written).
    fn after(id: &str, moves: &[&str]) -> Game {
        let mut g = by_id(id).expect("a lesson").game(1);
        for m in moves {
            g.play(m).unwrap_or_else(|e| panic!("{id}: {m}: {e}"));
        }
        g
    }

    /// The chances of `squares` in `g`, each to 1e-9 of the one given.
    fn chances(g: &Game, squares: &[(&str, f64)]) {
        for (s, p) in squares {
            let at = g.probability(sq(s));
            assert!((at - p).abs() < 1e-9, "{s}: {at}, not {p}");
        }
    }

    /// The last move's check in lesson `id`.
    fn judged(id: &str, moves: &[&str]) -> Checked {
        let Goal::Move(check) = by_id(id).expect("a lesson").goal else {
            panic!("{id} is a move lesson");
        };
        let g = after(id, moves);
        check(&g, g.history().last().expect("a move"))
    }

    fn done(v: Checked, says: &str) {
        match v {
            Checked::Done(w) => assert!(w.contains(says), "{w}"),
            v => panic!("{v:?}"),
        }
    }

    fn retry(v: Checked, says: &str) {
        match v {
            Checked::Retry(w) => assert!(w.contains(says), "{w}"),
            v => panic!("{v:?}"),
        }
    }

    #[test]
    fn the_inspector_lesson_shows_what_its_text_says() {
        let l = by_id("inspector").expect("the inspector's lesson");
        assert!(matches!(l.goal, Goal::Inspect("a3")));
        let g = l.game(1);
        let b = g.simulator().backend();
        let with =
            |o: &str| crate::quantum::bell::log_negativity(b, sq("a3").0 as u16, sq(o).0 as u16);
        assert!(
            (with("c3") - 1.0).abs() < 1e-9,
            "c3 is warm: {}",
            with("c3")
        );
        assert!(l.text.contains("c3 is warm"));
    }

    #[test]
    fn a_merge_elsewhere_is_told_as_it_is() {
        retry(
            judged("merge", &["a3c3^b5"]),
            "a whole knight again, but on b5",
        );
        chances(&after("merge", &["a3c3^b5"]), &[("b5", 1.0)]);
        done(judged("merge", &["a3c3^b1"]), "certainly on b1");
    }

    #[test]
    fn every_lessons_claims_hold_in_its_position() {
        // A lesson added without its claims checked here fails this test.
        for l in LESSONS {
            let claimed = [
                "win",
                "no-check",
                "split",
                "numbers",
                "merge",
                "slide-through",
                "capture-asks",
                "capture-partly",
                "excluded",
                "split-onto-itself",
                "merge-partly",
                "en-passant",
                "promotion",
                "castling",
                "reading",
                "notation",
                "inspector",
                "computer",
            ];
            assert!(
                claimed.contains(&l.id),
                "{}: its claims are not checked",
                l.id
            );
        }
        // No check: the rook on e8 takes the king for sure.
        let t = king_threat(&after("no-check", &[]), Color::White).expect("attacked");
        assert_eq!((t.p, t.by.as_str()), (1.0, "e8xe1"));
        assert_eq!(after("win", &["e1e8"]).status(), Status::WhiteWins);
        chances(&after("split", &["b1^a3c3"]), &[("a3", 0.5), ("c3", 0.5)]);
        // The numbers: the pane's words the text quotes (the screen's test reads them
        // drawn), and a half split again.
        let g = after("numbers", &[]);
        assert_eq!((g.branch_count(), g.distribution(8).sets), (2, 2));
        chances(
            &after("numbers", &["c3^b5e4"]),
            &[("a3", 0.5), ("b5", 0.25), ("e4", 0.25)],
        );
        // The rook went only where a3 was empty: never both on a5 and a3.
        let g = after("slide-through", &["a1a5"]);
        let asked = |g: &Game| g.history().last().and_then(|m| m.explained.asked.clone());
        assert!(asked(&g).is_none(), "nothing is asked yet");
        chances(&g, &[("a5", 0.5), ("a1", 0.5)]);
        let (a3, a5) = (1u64 << sq("a3").0, 1u64 << sq("a5").0);
        assert!(g
            .distribution(8)
            .entries
            .iter()
            .all(|(set, _)| (set & a3 == 0) != (set & a5 == 0)));
        chances(
            &after("capture-asks", &["c3xd5.m1"]),
            &[("a3", 0.0), ("c3", 0.0), ("d5", 1.0)],
        );
        chances(
            &after("capture-asks", &["c3xd5.m0"]),
            &[("a3", 1.0), ("d5", 1.0)],
        );
        // The pawn is surely on e5: its capture asks nothing in doubt.
        let g = after("capture-partly", &["e5f6"]);
        assert!(g
            .history()
            .last()
            .is_some_and(|m| m.p1.is_none_or(|p| p == 1.0)));
        done(
            judged("capture-partly", &["e5f6"]),
            "taken only where it stood on f6: 50%. The pawn is on f6 50% and still on e5 50%",
        );
        chances(
            &after("excluded", &["c2c3.m1"]),
            &[("c3", 1.0), ("a3", 1.0)],
        );
        chances(
            &after("excluded", &["c2c3.m0"]),
            &[("c2", 1.0), ("c3", 1.0)],
        );
        chances(&after("en-passant", &["e5d6"]), &[("d5", 0.0), ("d6", 1.0)]);
        chances(&after("promotion", &["b7b8q"]), &[("b8", 1.0)]);
        // "reading": the move to read asked its question.
        let g = after("reading", &[]);
        assert!(g.history().last().and_then(|m| m.outcome).is_some());
    }

    #[test]
    fn a_split_onto_its_own_half_moves_that_half() {
        // A plain move onto the piece's own part swaps the two parts, it does not pile
        // them up: b4's quarter goes to a4, a4's half comes to b4.
        chances(
            &after("split-onto-itself", &["a4^b4a6", "e7e8", "b4a4"]),
            &[("a4", 0.25), ("b4", 0.5), ("a6", 0.25)],
        );
        done(
            judged("split-onto-itself", &["a4^b4a6"]),
            "a4 50%, b4 25%, a6 25%: half of a4 went to b4, then a4 and a6 swapped",
        );
        done(
            judged("split-onto-itself", &["a4^a6b4"]),
            "a6 50%, b4 50%: the half swap with a6",
        );
        chances(&after("split-onto-itself", &["a4^a6b4"]), &[("a4", 0.0)]);
        retry(
            judged("split-onto-itself", &["a4^b4c4"]),
            "a4^b4c4 is not a split onto a6",
        );
        retry(
            judged("split-onto-itself", &["a6a8"]),
            "is not a split of the half on a4",
        );
    }

    #[test]
    fn a_merge_comes_back_as_far_as_its_halves_hands_agree() {
        let l = by_id("merge-partly").expect("the lesson");
        chances(&l.game(1), &[("a4", 0.5), ("d4", 0.5)]);
        // A quarter apart: half comes back, half stays on the second square picked.
        done(
            judged("merge-partly", &["a4d4^b4"]),
            "b4 50%, d4 50%: the half on d4 moved once after the split",
        );
        chances(
            &after("merge-partly", &["d4a4^b4"]),
            &[("b4", 0.5), ("a4", 0.5)],
        );
        // The a4 half moved once too: hands alike, the merge is whole.
        chances(
            &after("merge-partly", &["a4b4", "e8e7", "b4d4^c4"]),
            &[("c4", 1.0), ("b4", 0.0), ("d4", 0.0)],
        );
        // Half a turn apart (one half moved twice): none comes back.
        chances(
            &after("merge", &["c3e4", "e7e8", "e4d2", "e8e7", "a3d2^b1"]),
            &[("b1", 0.0), ("d2", 1.0), ("a3", 0.0)],
        );
        retry(
            judged("merge-partly", &["d4b4"]),
            "is not a merge of the rook's halves",
        );
    }

    #[test]
    fn castling_passes_the_attacked_square() {
        let l = by_id("castling").expect("the lesson");
        // The rook on f8 attacks f1: with Black to move it takes on f1.
        let black = l.fen.replace(" w ", " b ");
        let mut g = Game::from_fen(&black, Default::default()).expect("a position");
        g.play("f8f1").expect("the rook on f8 reaches f1");
        done(judged("castling", &["e1g1"]), "the rook on f8 attacks f1");
        // Out of attack and into it, too.
        for fen in [
            "4r2k/8/8/8/8/8/8/4K2R w K - 0 1",
            "6rk/8/8/8/8/8/8/4K2R w K - 0 1",
        ] {
            let mut g = Game::from_fen(fen, Default::default()).expect("a position");
            g.play("e1g1").expect("castling under attack");
            chances(&g, &[("g1", 1.0), ("f1", 1.0)]);
        }
        chances(&after("castling", &["e1g1"]), &[("g1", 1.0), ("f1", 1.0)]);
        retry(judged("castling", &["e1f1"]), "is not castling");
    }

    #[test]
    fn the_notation_lesson_writes_what_the_game_writes() {
        done(
            judged("notation", &["c2wc3.m0"]),
            "c2wc3.m0: w, a step onto a square your knight may hold; .m0, its answer no: your knight was on c3 and the pawn stayed.",
        );
        chances(
            &after("notation", &["c2wc3.m0"]),
            &[("c2", 1.0), ("c3", 1.0)],
        );
        done(
            judged("notation", &["c2wc3.m1"]),
            "c2wc3.m1: w, a step onto a square your knight may hold; .m1, its answer yes: c3 was empty and the pawn went on.",
        );
        chances(
            &after("notation", &["c2wc3.m1"]),
            &[("c2", 0.0), ("c3", 1.0), ("a3", 1.0)],
        );
        retry(
            judged("notation", &["c2c3"]),
            "c2c3 is the step as squares only",
        );
        retry(
            judged("notation", &["c3xd5"]),
            "is not the pawn's step c2wc3",
        );
        // Every form the text shows is the one the game writes.
        let text = by_id("notation").expect("the lesson").text;
        for (id, mv, shown) in [
            ("notation", "c3d5", "c3xd5"),
            ("notation", "c2c3", "c2wc3"),
            ("en-passant", "e5d6", "e5d6"),
            ("promotion", "b7b8q", "b7b8q"),
        ] {
            let g = after(id, &[mv]);
            let played = &g.history().last().expect("a move").played;
            assert!(played.starts_with(shown), "{mv}: {played}");
            assert!(text.contains(shown), "{shown}");
        }
        let g = after("notation", &[]);
        let san = g.history().last().and_then(|m| m.san.as_deref());
        assert_eq!(san, Some("Ke7"));
        assert!(text.contains("(Ke7)"));
    }

    #[test]
    fn ids_are_unique() {
        for (i, l) in LESSONS.iter().enumerate() {
            assert_eq!(
                LESSONS.iter().position(|o| o.id == l.id),
                Some(i),
                "{} twice",
                l.id
            );
        }
    }

    #[test]
    fn every_lesson_starts_and_fits_six_lines_at_80_columns() {
        assert!(LESSONS.len() >= 12);
        for (i, l) in LESSONS.iter().enumerate() {
            let g = l.game(1);
            assert_eq!(g.status(), Status::Ongoing, "lesson {}", i + 1);
            let lines = wrap(l.text, 78);
            assert!(lines.len() <= 6, "lesson {}: {} lines", i + 1, lines.len());
            assert!(l.task.len() <= 78, "lesson {}: task too long", i + 1);
        }
    }
}
