//! Seeded random haft games checked against an independent brute force: concrete
//! Scramble Chess replayed from every starting pair that could still be consistent. Once
//! few enough pairs remain, every ply compares the world count, each piece's type
//! shares and (with few worlds) the legal moves with the engine.

use qchess::chess::{Kind, Square, Status};
use qchess::game::Playable;
use qchess::seeded::SeededRng;
use qchess::variants::haft::HaftGame;
use std::collections::BTreeSet;

/// Most starting pairs the brute force replays from the start.
const PAIR_LIMIT: usize = 40_000;
/// Most worlds for which the brute force lists legal moves.
const MOVE_LIMIT: usize = 200;

/// Concrete Scramble Chess: every piece has a type.
mod scramble {
    use qchess::chess::Kind;

    /// A piece: side, type, and which piece it is (file of origin, 8.. once promoted,
    /// none for a pawn).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Piece {
        pub white: bool,
        pub kind: Kind,
        pub id: Option<u8>,
    }

    /// A position of concrete Scramble Chess.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Pos {
        pub board: [Option<Piece>; 64],
        pub white_to_move: bool,
        pub ep: Option<usize>,
        promoted: [u8; 2],
    }

    /// How much of the rules to apply to a move.
    #[derive(Clone, Copy, PartialEq, Eq)]
    pub enum Rules {
        /// Everything, king safety included.
        Full,
        /// Only whether the piece can move that way.
        Shape,
        /// Nothing: just move.
        Blind,
    }

    /// Every order of K Q R R B B N N.
    pub fn arrangements() -> Vec<[Kind; 8]> {
        fn go(left: &mut Vec<Kind>, cur: &mut Vec<Kind>, out: &mut Vec<[Kind; 8]>) {
            if left.is_empty() {
                out.push(cur.clone().try_into().unwrap());
                return;
            }
            let mut tried = Vec::new();
            for i in 0..left.len() {
                if tried.contains(&left[i]) {
                    continue;
                }
                tried.push(left[i]);
                let k = left.remove(i);
                cur.push(k);
                go(left, cur, out);
                cur.pop();
                left.insert(i, k);
            }
        }
        use Kind::*;
        let mut out = Vec::new();
        let mut left = vec![King, Queen, Rook, Rook, Bishop, Bishop, Knight, Knight];
        go(&mut left, &mut Vec::new(), &mut out);
        out
    }

    pub fn start(white: &[Kind; 8], black: &[Kind; 8]) -> Pos {
        let mut board = [None; 64];
        for f in 0..8 {
            let major = |white, kind| {
                Some(Piece {
                    white,
                    kind,
                    id: Some(f as u8),
                })
            };
            let pawn = |white| {
                Some(Piece {
                    white,
                    kind: Kind::Pawn,
                    id: None,
                })
            };
            board[f] = major(true, white[f]);
            board[8 + f] = pawn(true);
            board[48 + f] = pawn(false);
            board[56 + f] = major(false, black[f]);
        }
        Pos {
            board,
            white_to_move: true,
            ep: None,
            promoted: [0; 2],
        }
    }

    fn xy(s: usize) -> (i32, i32) {
        ((s % 8) as i32, (s / 8) as i32)
    }

    fn clear_between(pos: &Pos, from: usize, to: usize) -> bool {
        let ((fx, fy), (tx, ty)) = (xy(from), xy(to));
        let (sx, sy) = ((tx - fx).signum(), (ty - fy).signum());
        let (mut x, mut y) = (fx + sx, fy + sy);
        while (x, y) != (tx, ty) {
            if pos.board[(y * 8 + x) as usize].is_some() {
                return false;
            }
            x += sx;
            y += sy;
        }
        true
    }

    /// Whether the piece on `from` attacks `to` (for all but pawns, also: can move there).
    pub fn attacks(pos: &Pos, from: usize, to: usize) -> bool {
        let Some(p) = pos.board[from] else {
            return false;
        };
        let ((fx, fy), (tx, ty)) = (xy(from), xy(to));
        let (dx, dy) = (tx - fx, ty - fy);
        let rook = (dx == 0) != (dy == 0) && clear_between(pos, from, to);
        let bishop = dx != 0 && dx.abs() == dy.abs() && clear_between(pos, from, to);
        match p.kind {
            Kind::Pawn => dy == if p.white { 1 } else { -1 } && dx.abs() == 1,
            Kind::Knight => dx.abs() * dy.abs() == 2,
            Kind::King => from != to && dx.abs() <= 1 && dy.abs() <= 1,
            Kind::Rook => rook,
            Kind::Bishop => bishop,
            Kind::Queen => rook || bishop,
        }
    }

    pub fn in_check(pos: &Pos, white: bool) -> bool {
        let king = (0..64)
            .find(|&s| pos.board[s].is_some_and(|p| p.white == white && p.kind == Kind::King));
        let Some(king) = king else {
            return true;
        };
        (0..64).any(|s| pos.board[s].is_some_and(|p| p.white != white) && attacks(pos, s, king))
    }

    /// The position after a move, if `rules` allow it. A promoting pawn needs `promo`.
    pub fn play(
        pos: &Pos,
        from: usize,
        to: usize,
        promo: Option<Kind>,
        rules: Rules,
    ) -> Option<Pos> {
        let p = pos.board[from]?;
        if p.white != pos.white_to_move {
            return None;
        }
        let target = pos.board[to];
        if target.is_some_and(|t| t.white == p.white) {
            return None;
        }
        let mut captured = target.map(|_| to);
        let ((fx, fy), (tx, ty)) = (xy(from), xy(to));
        let dir = if p.white { 1 } else { -1 };
        let last = if p.white { 7 } else { 0 };
        let mut ep = None;
        let check = rules != Rules::Blind;
        if p.kind == Kind::Pawn {
            let step = tx == fx && ty == fy + dir && target.is_none();
            let mid = ((fy + dir) * 8 + fx) as usize;
            let double = tx == fx
                && ty == fy + 2 * dir
                && fy == if p.white { 1 } else { 6 }
                && pos.board[mid].is_none()
                && target.is_none();
            let diagonal = (tx - fx).abs() == 1 && ty == fy + dir;
            let take = diagonal && target.is_some();
            let en_passant = diagonal && target.is_none() && pos.ep == Some(to);
            if check && !(step || double || take || en_passant) {
                return None;
            }
            if en_passant {
                captured = Some((fy * 8 + tx) as usize);
            }
            if double {
                ep = Some(mid);
            }
            let promotes = ty == last;
            if promotes != promo.is_some() {
                return None;
            }
        } else if promo.is_some() || (check && !attacks(pos, from, to)) {
            return None;
        }
        let mut next = pos.clone();
        if let Some(c) = captured {
            next.board[c] = None;
        }
        next.board[from] = None;
        let side = usize::from(!p.white);
        next.board[to] = Some(match promo {
            Some(kind) => {
                next.promoted[side] += 1;
                Piece {
                    white: p.white,
                    kind,
                    id: Some(7 + next.promoted[side]),
                }
            }
            None => p,
        });
        next.ep = ep;
        next.white_to_move = !pos.white_to_move;
        if rules == Rules::Full && in_check(&next, p.white) {
            return None;
        }
        Some(next)
    }
}

use scramble::{Pos, Rules};

/// A move from the engine's history: squares and the promotion letter, if any.
fn parse(text: &str) -> (usize, usize, Option<Kind>) {
    let sq = |s: &str| Square::parse(s).unwrap().index();
    let promo = text[4..].chars().next().and_then(Kind::from_letter);
    (sq(&text[..2]), sq(&text[2..4]), promo)
}

/// The positions after `text` from each of `states` under `rules`; a promotion with its
/// type open branches into the four types.
fn advance(states: &[Pos], text: &str, rules: Rules) -> Vec<Pos> {
    let (from, to, promo) = parse(text);
    let mut out = Vec::new();
    for pos in states {
        let promotes =
            pos.board[from].is_some_and(|p| p.kind == Kind::Pawn) && (to / 8 == 0 || to / 8 == 7);
        let choices = match (promotes, promo) {
            (true, None) if rules == Rules::Blind => vec![Some(Kind::Queen)],
            (true, None) => [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight]
                .map(Some)
                .to_vec(),
            _ => vec![promo],
        };
        out.extend(
            choices
                .into_iter()
                .filter_map(|c| scramble::play(pos, from, to, c, rules)),
        );
    }
    out
}

/// One side's arrangements that its own moves allow (geometry only), each with its
/// positions (one per open promotion choice).
struct SideFilter {
    white: bool,
    alive: Vec<(usize, Vec<Pos>)>,
}

impl SideFilter {
    fn new(white: bool, all: &[[Kind; 8]]) -> SideFilter {
        let alive = (0..all.len())
            .map(|i| {
                let pos = if white {
                    scramble::start(&all[i], &all[0])
                } else {
                    scramble::start(&all[0], &all[i])
                };
                (i, vec![pos])
            })
            .collect();
        SideFilter { white, alive }
    }

    fn advance(&mut self, text: &str, mover_white: bool) {
        let rules = if mover_white == self.white {
            Rules::Shape
        } else {
            Rules::Blind
        };
        for (_, states) in &mut self.alive {
            *states = advance(states, text, rules);
        }
        self.alive.retain(|(_, s)| !s.is_empty());
    }
}

/// The brute force: per-side filters, then every consistent pair with its positions.
struct Brute {
    all: Vec<[Kind; 8]>,
    moves: Vec<String>,
    sides: [SideFilter; 2],
    pairs: Option<Vec<Vec<Pos>>>,
}

impl Brute {
    fn new() -> Brute {
        let all = scramble::arrangements();
        assert_eq!(all.len(), 5040);
        let sides = [SideFilter::new(true, &all), SideFilter::new(false, &all)];
        Brute {
            all,
            moves: Vec::new(),
            sides,
            pairs: None,
        }
    }

    fn play(&mut self, text: &str) {
        let mover_white = self.moves.len().is_multiple_of(2);
        self.moves.push(text.to_string());
        for s in &mut self.sides {
            s.advance(text, mover_white);
        }
        if let Some(pairs) = &mut self.pairs {
            for states in pairs.iter_mut() {
                *states = advance(states, text, Rules::Full);
            }
            pairs.retain(|s| !s.is_empty());
            return;
        }
        let (w, b) = (&self.sides[0].alive, &self.sides[1].alive);
        if w.len() * b.len() > PAIR_LIMIT {
            return;
        }
        let mut pairs = Vec::new();
        for (wi, _) in w {
            for (bi, _) in b {
                let mut states = vec![scramble::start(&self.all[*wi], &self.all[*bi])];
                for m in &self.moves {
                    states = advance(&states, m, Rules::Full);
                }
                if !states.is_empty() {
                    pairs.push(states);
                }
            }
        }
        self.pairs = Some(pairs);
    }

    /// The types of the piece on `s` across the consistent worlds, with shares (each
    /// world's open promotion choices weigh equally within it).
    fn fractions(&self, pairs: &[Vec<Pos>], s: Square) -> Vec<(Kind, f64)> {
        let mut weights: Vec<(Kind, f64)> = Vec::new();
        for states in pairs {
            for pos in states {
                let kind = pos.board[s.index()].map(|p| p.kind).unwrap();
                let w = 1.0 / states.len() as f64 / pairs.len() as f64;
                match weights.iter_mut().find(|(k, _)| *k == kind) {
                    Some(e) => e.1 += w,
                    None => weights.push((kind, w)),
                }
            }
        }
        weights
    }

    /// The moves legal in at least one consistent world, in the engine's notation.
    fn legal_moves(pairs: &[Vec<Pos>]) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let name = |s: usize| Square(s as u8).to_string();
        for pos in pairs.iter().flatten() {
            for from in 0..64 {
                for to in 0..64 {
                    for promo in [
                        None,
                        Some(Kind::Queen),
                        Some(Kind::Rook),
                        Some(Kind::Bishop),
                        Some(Kind::Knight),
                    ] {
                        if scramble::play(pos, from, to, promo, Rules::Full).is_some() {
                            let plain = format!("{}{}", name(from), name(to));
                            if let Some(k) = promo {
                                out.insert(format!("{plain}{}", k.letter().to_ascii_lowercase()));
                            }
                            out.insert(plain);
                        }
                    }
                }
            }
        }
        out
    }
}

/// Checks what the engine says about the current position against itself and, when it
/// can, against the brute force. Returns whether the brute force compared.
fn check(g: &HaftGame, brute: &Brute, label: &str) -> bool {
    let j = g.to_json();
    assert_eq!(j["worlds"], serde_json::Value::from(g.worlds()), "{label}");
    assert!(g.worlds() > 0, "{label}");
    let legal = g.legal_moves();
    assert_eq!(g.status() == Status::Ongoing, !legal.is_empty(), "{label}");
    for (s, cell) in g.cells() {
        let f = g.type_fractions(s);
        let sum: f64 = f.iter().map(|x| x.1).sum();
        assert!((sum - 1.0).abs() < 1e-9, "{label} {s}: {f:?}");
        assert_eq!(cell.kind, (f.len() == 1).then(|| f[0].0), "{label} {s}");
    }
    let Some(pairs) = &brute.pairs else {
        return false;
    };
    assert_eq!(g.worlds(), pairs.len() as u64, "{label}: world count");
    for (s, _) in g.cells() {
        let mut mine = g.type_fractions(s);
        let mut theirs = brute.fractions(pairs, s);
        mine.sort_by_key(|x| x.0 as u8);
        theirs.sort_by_key(|x| x.0 as u8);
        assert_eq!(
            mine.len(),
            theirs.len(),
            "{label} {s}: {mine:?} vs {theirs:?}"
        );
        for (a, b) in mine.iter().zip(&theirs) {
            assert!(
                a.0 == b.0 && (a.1 - b.1).abs() < 1e-9,
                "{label} {s}: {mine:?} vs {theirs:?}"
            );
        }
    }
    let worlds: usize = pairs.iter().map(Vec::len).sum();
    if worlds <= MOVE_LIMIT {
        let engine: BTreeSet<String> = legal.into_iter().collect();
        assert_eq!(engine, Brute::legal_moves(pairs), "{label}: legal moves");
    }
    true
}

/// Plays `plies` random legal moves (captures preferred with probability `greed`) and
/// checks every ply; returns how many plies the brute force compared.
fn random_game(seed: u64, plies: usize, greed: f64) -> usize {
    let mut g = HaftGame::new();
    let mut brute = Brute::new();
    let mut rng = SeededRng::new(seed);
    let mut compared = 0;
    for ply in 0..plies {
        let label = format!("seed {seed} ply {ply}");
        compared += usize::from(check(&g, &brute, &label));
        let legal = g.legal_moves();
        if legal.is_empty() {
            break;
        }
        let captures: Vec<&String> = legal
            .iter()
            .filter(|m| {
                !g.type_fractions(Square::parse(&m[2..4]).unwrap())
                    .is_empty()
            })
            .collect();
        let text = if !captures.is_empty() && rng.unit() < greed {
            captures[rng.index(captures.len())].clone()
        } else {
            legal[rng.index(legal.len())].clone()
        };
        let before = g.worlds();
        let record = g
            .play(&text)
            .unwrap_or_else(|e| panic!("{label} {text}: {e}"))
            .clone();
        assert_eq!(record.text, text, "{label}");
        assert!(g.worlds() <= before, "{label} {text}: the world count grew");
        if ply.is_multiple_of(25) {
            let mut again = g.clone();
            again.undo().unwrap();
            again.play(&text).unwrap();
            assert_eq!(again.to_json(), g.to_json(), "{label}: undo and replay");
        }
        brute.play(&text);
    }
    compared += usize::from(check(&g, &brute, &format!("seed {seed} end")));
    compared
}

#[test]
fn a_random_game_of_150_plies() {
    let compared = random_game(7, 150, 0.0);
    assert!(compared > 0, "the brute force compared no ply");
}

#[test]
fn capture_heavy_random_games() {
    for seed in [1, 2] {
        let compared = random_game(seed, 150, 0.7);
        assert!(compared > 0, "seed {seed}: the brute force compared no ply");
    }
}

#[test]
fn an_open_promotion_against_the_brute_force() {
    // Four knight moves leave 180 x 180 pairs; then a pawn promotes on a8 without a
    // letter, and the new piece's type stays open within each world.
    let moves = "b1c3 b8c6 g1f3 g8f6 b2b4 a7a5 b4a5 b7b6 a5b6 h7h6 b6b7 h6h5 b7a8 h8h6 \
                 a8b8 e7e6 b8a8 f8c5";
    let mut g = HaftGame::new();
    let mut brute = Brute::new();
    for (ply, text) in moves.split_whitespace().enumerate() {
        g.play(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        brute.play(text);
        let compared = check(&g, &brute, &format!("ply {ply} {text}"));
        assert_eq!(
            compared,
            ply >= 3,
            "ply {ply}: compared once both knights moved"
        );
    }
    let pairs = brute.pairs.as_ref().unwrap();
    let completions: usize = pairs.iter().map(Vec::len).sum();
    assert!(completions > pairs.len(), "some worlds leave the type open");
    assert_eq!(g.type_fractions(Square::parse("a8").unwrap()).len(), 2);
}
