//! The computer at the screen: its thinking line, hints, names and failures.

use super::*;
use crate::record::Players;
use crate::seats::strength::Strength;
use crate::seats::Occupants;
use crate::uqci::client::UqciPlayer;

#[test]
fn the_thinking_line_follows_the_search_and_the_answer_keeps_its_score() {
    use std::sync::atomic::Ordering;
    let mut c = Computer::new(Sides::default(), 0);
    let info = Info {
        depth: 2,
        score: -35.4,
        nodes: 1234,
        time: Duration::from_millis(5),
        pv: vec!["e7e5".into(), "g1f3".into()],
    };
    let sent = info.clone();
    // A search that reports one iteration, then waits to be stopped.
    let thinking = Thinking::spawn(move |stop, progress| {
        progress(&sent);
        while !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
        Ok(Choice {
            mv: "e7e5".into(),
            info: Some(sent),
            from_book: false,
            expected: None,
        })
    });
    c.start(ThinkingFor::Move, Color::Black, 1, thinking);
    let line = c.thinking_line(true).unwrap();
    assert!(
        line.contains("black thinks") && line.ends_with("searching"),
        "{line}"
    );
    let start = Instant::now();
    let mut changed = false;
    while !c.thinking_line(true).unwrap().contains("depth") {
        assert!(c.poll(&mut changed).is_none(), "no answer before the stop");
        assert!(start.elapsed() < Duration::from_secs(30));
        std::thread::sleep(Duration::from_millis(1));
    }
    let line = c.thinking_line(true).unwrap();
    assert!(
        line.ends_with("depth 2, 1234 nodes, best e7e5 g1f3"),
        "{line}"
    );
    // The score shows while it searches, from the last info.
    let s = c.score().expect("a score from the info");
    assert_eq!(
        score_words(s),
        "about even (0.53 for white, +35 cp; black's search, depth 2)"
    );
    c.hurry();
    let a = c.wait().expect("an answer");
    assert_eq!(
        (a.purpose, a.side, a.ply),
        (ThinkingFor::Move, Color::Black, 1)
    );
    assert_eq!(a.choice.unwrap().mv, "e7e5");
    assert_eq!(c.thinking_line(true), None);
    let s = c.score().expect("its score");
    assert_eq!(
        score_words(s),
        "about even (0.53 for white, +35 cp; black's search, depth 2)"
    );
    c.forget();
    assert!(c.score().is_none());
}

#[test]
fn a_hint_says_what_a_quantum_move_does_first() {
    let score = Score {
        centipawns: 10.0,
        side: Color::White,
        depth: 2,
        purpose: ThinkingFor::Hint,
        weighed: None,
    };
    let merge = "merge: the knight on a3 and c3 comes together on b5";
    let chose = |line: &[&str]| Choice {
        // The move itself without the outcome its line assumes.
        mv: line[0].split('.').next().unwrap_or_default().to_string(),
        info: Some(Info {
            depth: 2,
            score: 10.0,
            nodes: 100,
            time: Duration::ZERO,
            pv: line.iter().map(|m| m.to_string()).collect(),
        }),
        from_book: false,
        expected: None,
    };
    assert_eq!(
        hint_words(
            Color::White,
            &chose(&["a3c3^b5"]),
            Some(&score),
            Some(merge.into())
        ),
        format!("hint for white: a3c3^b5 ({merge}; about even, depth 2); Esc hides it")
    );
    assert_eq!(
        hint_words(
            Color::White,
            &chose(&["e2e4", "d7xd5.m1", "d1d4"]),
            Some(&score),
            None
        ),
        "hint for white: e2e4 (about even, depth 2, expecting d7xd5); Esc hides it"
    );
    // A capture's line answers one of its outcomes: no answer is named.
    assert_eq!(
        hint_words(
            Color::White,
            &chose(&["e4xd5.m1", "d8xd5"]),
            Some(&score),
            None
        ),
        "hint for white: e4xd5 (about even, depth 2); Esc hides it"
    );
    assert_eq!(
        hint_words(Color::Black, &chose(&["a3c3^b5"]), None, Some(merge.into())),
        format!("hint for black: a3c3^b5 ({merge}); Esc hides it")
    );
    let book = Choice {
        from_book: true,
        ..chose(&["e7e5", "g1f3"])
    };
    assert_eq!(
        hint_words(Color::Black, &book, Some(&score), None),
        "hint for black: e7e5 (a main line of the opening); Esc hides it"
    );
}

#[test]
fn sides_and_take_backs() {
    let (w, b) = (Color::White, Color::Black);
    let one = Sides {
        black: Some(Strength::Level(1)),
        ..Sides::default()
    };
    // The player (white) moved last: their move and nothing else; the computer
    // replied: both.
    assert_eq!(one.take_back(&[w, b, w]), Ok(1));
    assert_eq!(one.take_back(&[w, b, w, b]), Ok(2));
    assert!(one.take_back(&[]).is_err());
    let computer_white = Sides {
        white: Some(Strength::Level(1)),
        ..Sides::default()
    };
    assert!(computer_white.take_back(&[w]).is_err());
    assert_eq!(computer_white.take_back(&[w, b, w]), Ok(2));
    assert_eq!(Sides::default().take_back(&[w, b]), Ok(1));
    let p = Players {
        white: "Ann".into(),
        black: "qchess level 2".into(),
    };
    let s = Sides::of_occupants(&Occupants::of_players(&p), None);
    assert_eq!(s.of(Color::Black), Some(&Strength::Level(2)));
    assert!(s.any() && !s.both());
}

#[test]
fn an_external_engines_side_is_its_own_only_when_named_again() {
    let engine = UqciPlayer::new("my-engine --uqci", Duration::from_millis(100));
    let players = Players {
        white: "Ann".into(),
        black: Strength::External(engine.clone()).name(),
    };
    assert_eq!(players.black, "uqci: my-engine --uqci");
    let seats = Occupants::of_players(&players);
    let named = Sides::of_occupants(&seats, Some(&engine));
    assert_eq!(named.black, Some(Strength::External(engine.clone())));
    assert_eq!(named.white, None);
    assert_eq!(Sides::unclaimed(&seats, Some(&engine)), None);
    let other = UqciPlayer::new("other-engine", Duration::from_millis(100));
    for given in [None, Some(&other)] {
        assert!(!Sides::of_occupants(&seats, given).any());
        let why = Sides::unclaimed(&seats, given).expect("said");
        assert!(
            why.starts_with("black is played by hand: the engine \"my-engine --uqci\""),
            "{why}"
        );
    }
    let both = Players {
        white: players.black.clone(),
        black: players.black.clone(),
    };
    let why = Sides::unclaimed(&Occupants::of_players(&both), None).unwrap();
    assert!(
        why.starts_with("white and black are played by hand"),
        "{why}"
    );
}

#[test]
fn a_failed_external_engine_hands_its_sides_over() {
    let engine = UqciPlayer::new("my-engine", Duration::from_millis(100));
    let sides = Sides {
        white: Some(Strength::Level(1)),
        black: Some(Strength::External(engine)),
    };
    let mut c = Computer::new(sides, 0);
    let said = c.failed(
        Color::Black,
        &PlayerError::Engine("the engine ended".into()),
    );
    assert_eq!(
        said,
        "black is played by hand from here (hot-seat, every move kept): the engine ended"
    );
    assert_eq!(c.sides().black, None);
    assert_eq!(
        c.sides().white,
        Some(Strength::Level(1)),
        "the built-in stays"
    );
    // Any other failure leaves the sides as they are.
    assert_eq!(
        c.failed(Color::White, &PlayerError::NoMove),
        "white: there is no legal move to play"
    );
    assert!(c.plays(Color::White));
}
