//! The computer in the terminal game: it replies off the screen's thread with the
//! thinking line drawn meanwhile, `u` takes back a full move, `p` pauses a watched game,
//! `H` shows and marks a hint, the players entry of a saved game names it and a resumed
//! game hands it its side again. Low levels keep the searches short. An external UQCI
//! engine (`qchess uqci` itself, and scripted fakes that fail) plays a side too, and
//! its failure hands the side to the player.

use crate::support::driver::{press, right_column, screen, typed};
use crossterm::event::KeyCode;
use qchess::chess::{Color, Game, GameOptions};
use qchess::game::{RuleSet, Setup};
use qchess::record::{self, Players};
use qchess::seats::strength::Strength;
use qchess::seats::{Occupant, Occupants};
use qchess::style::color::{Paint, Tier};
use qchess::style::theme::Theme;
use qchess::ui::open::{open, Open, PlayOptions};
use qchess::ui::opponent::{Computer, Sides, ThinkingFor};
use qchess::ui::App;
use qchess::uqci::client::UqciPlayer;
use qchess::variants::new_game;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::support::fake_engine::{fake, fake_answering, HANDSHAKE_OK};

const BIN: &str = env!("CARGO_BIN_EXE_qchess");

fn paint() -> Paint {
    Paint::new(Theme::default(), Tier::None)
}

fn game() -> Game {
    Game::standard(GameOptions {
        seed: 3,
        ..GameOptions::default()
    })
}

/// A game against the computer playing black at level 1.
fn against_black() -> App {
    black_played_by(Strength::Level(1))
}

/// A game against the computer playing black as `strength`.
fn black_played_by(strength: Strength) -> App {
    let sides = Sides {
        black: Some(strength),
        ..Sides::default()
    };
    App::new(game(), paint(), false).with_computer(Computer::new(sides, 1))
}

/// The moves played so far, as written.
fn played(app: &mut App) -> Vec<String> {
    app.game()
        .history()
        .iter()
        .map(|m| m.text.clone())
        .collect()
}

/// The screen with what depends on the clock (the spinner, the seconds) masked.
fn steady(screen: &str) -> String {
    let mut out = String::new();
    for line in screen.lines() {
        let Some(at) = line.find(" thinks ") else {
            out.push_str(line);
            out.push('\n');
            continue;
        };
        // `"⠋ black thinks 0.0 s (` -> `"* black thinks #.# s (`.
        let head: String = line[..at]
            .chars()
            .map(|c| {
                if "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏|/-\\".contains(c) {
                    '*'
                } else {
                    c
                }
            })
            .collect();
        let rest = &line[at + " thinks ".len()..];
        let secs_end = rest.find(" s (").expect("seconds on the thinking line");
        out.push_str(&format!("{head} thinks #.#{}\n", &rest[secs_end..]));
    }
    out
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("qchess-engine-ui-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

#[test]
fn the_computer_replies_and_its_move_is_news() {
    let mut a = against_black();
    assert_eq!(
        a.computer().thinking(),
        None,
        "white (the player) moves first"
    );
    typed(&mut a, "e2e4");
    assert_eq!(a.computer().thinking(), Some(ThinkingFor::Move));
    a.finish_work();
    let h = a.game().history();
    assert_eq!(h.len(), 2);
    assert_eq!(h[1].color, Color::Black);
    // The player's move stays in view, the reply after it.
    assert!(
        a.message()
            .text
            .starts_with("white played e2e4. Reply: black played"),
        "{}",
        a.message().text
    );
    assert_eq!(
        a.computer().thinking(),
        None,
        "white to move: nothing to think"
    );
    // Its score shows in the probabilities pane, from White's side, said to come from
    // its search.
    let s = screen(&mut a, 120, 40);
    // Who stands better first, in words, then White's expected result.
    let pane = right_column(&s);
    assert!(
        [
            "engine: about even (0.",
            " is slightly better (0.",
            " is better (0."
        ]
        .iter()
        .any(|w| pane.contains(w)),
        "{pane}"
    );
    assert!(pane.contains("engine: "), "{pane}");
    assert!(
        pane.contains(" for white, +") || pane.contains(" for white, -"),
        "{pane}"
    );
    assert!(pane.contains(" cp; black's search, depth"), "{pane}");
    // Who plays whom: the computer by its level, on the top border.
    assert!(s.contains(" White v qchess level 1 "), "{s}");
}

#[test]
fn the_thinking_line_is_drawn_while_it_searches() {
    let mut a = against_black();
    typed(&mut a, "e2e4");
    // Nothing takes the answer in before a tick: the search is still on screen.
    let s = screen(&mut a, 80, 24);
    assert!(s.contains("black thinks"), "{s}");
    assert!(s.contains("(Esc moves now)"), "{s}");
    a.finish_work();
    let s = screen(&mut a, 80, 24);
    assert!(!s.contains("thinks"), "{s}");
}

#[test]
fn the_player_cannot_move_for_the_computer_and_a_typed_line_survives_its_move() {
    // A search with all the time in the world: it is still running at every key (the
    // keys take in a finished search first), until Esc makes it move.
    let mut a = black_played_by(Strength::Movetime(600_000));
    // A split: out of the opening book, so the computer searches.
    typed(&mut a, "b1^a3c3");
    // A move typed on the computer's turn is refused, and nothing is played.
    typed(&mut a, "e7e5");
    assert!(
        a.message().text.contains("black is the computer's"),
        "{}",
        a.message().text
    );
    press(&mut a, KeyCode::Enter);
    assert!(
        a.message().text.contains("computer's"),
        "{}",
        a.message().text
    );
    // A line opened while it thinks stays open when its move comes.
    press(&mut a, KeyCode::Char(':'));
    press(&mut a, KeyCode::Char('d'));
    assert_eq!(a.game().history().len(), 1);
    a.hurry();
    a.finish_work();
    assert_eq!(
        a.game().history().len(),
        2,
        "the computer's move was played"
    );
    assert!(
        a.typed_line().is_some_and(|t| t.line().text() == "d"),
        "{:?}",
        a.typed_line()
    );
    for c in "2d4".chars() {
        press(&mut a, KeyCode::Char(c));
    }
    press(&mut a, KeyCode::Enter);
    assert_eq!(a.quantum().unwrap().history()[2].played, "d2d4");
}

#[test]
fn u_takes_back_a_full_move_against_the_computer() {
    let mut a = against_black();
    typed(&mut a, "e2e4");
    a.finish_work();
    typed(&mut a, "d2d4");
    a.finish_work();
    assert_eq!(a.game().history().len(), 4);
    press(&mut a, KeyCode::Char('u'));
    a.finish_work();
    let played = played(&mut a);
    assert_eq!(played.len(), 2, "{played:?}");
    assert_eq!(a.game().to_move(), Color::White);
    assert!(
        a.message().text.starts_with("took back d2d4 "),
        "{}",
        a.message().text
    );
    // While it thinks, u takes back the player's move and the search is dropped.
    typed(&mut a, "g1f3");
    assert_eq!(a.computer().thinking(), Some(ThinkingFor::Move));
    press(&mut a, KeyCode::Char('u'));
    a.finish_work();
    assert_eq!(a.game().history().len(), 2);
    assert_eq!(a.computer().thinking(), None);
    assert_eq!(a.game().to_move(), Color::White);
}

#[test]
fn esc_makes_a_long_search_move_now() {
    let mut a = black_played_by(Strength::Movetime(600_000));
    // A split: out of the opening book, so the computer searches.
    typed(&mut a, "b1^a3c3");
    press(&mut a, KeyCode::Esc);
    assert!(
        a.message().text.contains("moving now"),
        "{}",
        a.message().text
    );
    let start = Instant::now();
    a.finish_work();
    assert!(start.elapsed() < Duration::from_secs(60));
    assert_eq!(a.game().history().len(), 2);
}

#[test]
fn both_sides_play_with_a_pause_key() {
    let sides = Sides {
        white: Some(Strength::Level(1)),
        black: Some(Strength::Level(1)),
    };
    let mut a = App::new(game(), paint(), false).with_computer(Computer::new(sides, 1));
    assert_eq!(
        a.computer().thinking(),
        Some(ThinkingFor::Move),
        "white starts"
    );
    a.finish_work();
    assert_eq!(a.game().history().len(), 1);
    // The next move waits a moment (so a person can follow); p pauses meanwhile.
    press(&mut a, KeyCode::Char('p'));
    assert!(a.computer().paused());
    assert!(screen(&mut a, 80, 24).contains("paused: p goes on"));
    std::thread::sleep(Duration::from_millis(1000));
    a.tick();
    a.finish_work();
    assert_eq!(a.game().history().len(), 1, "nothing moves while paused");
    assert!(!a.working());
    press(&mut a, KeyCode::Char('p'));
    assert!(!a.computer().paused());
    a.finish_work();
    assert_eq!(
        a.game().history().len(),
        2,
        "black's move came after the pause"
    );
    // u takes back one move and pauses.
    let deadline = Instant::now() + Duration::from_secs(5);
    while a.computer().thinking().is_none() && Instant::now() < deadline {
        a.tick();
        std::thread::sleep(Duration::from_millis(10));
    }
    press(&mut a, KeyCode::Char('u'));
    a.finish_work();
    assert!(a.computer().paused());
    let n = a.game().history().len();
    assert!(n == 1 || n == 2, "one move taken back from 2 or 3: {n}");
}

#[test]
fn a_hint_that_may_not_happen_says_what_it_does_and_its_chance() {
    // The rook is on d8 or d2: taking the boxed-in king on h8 happens only if it is on d8.
    let mut g =
        Game::from_fen("7k/p5pp/8/8/8/8/8/3RK3 w - - 0 1", GameOptions::default()).expect("FEN");
    for m in ["d1^d8d2", "a7a6"] {
        g.play(m).expect("legal");
    }
    let mut a = App::new(g, paint(), false).with_computer(Computer::default().with_hint_level(1));
    press(&mut a, KeyCode::Char('H'));
    a.finish_work();
    let (mv, _) = a.computer().hint().cloned().expect("a hint");
    assert_eq!(mv, "d8xh8", "{}", a.message().text);
    let said = &a.message().text;
    assert!(
        said.starts_with(
            "hint for white: d8xh8 (capture: the rook on d8 takes on h8; happens with a 50% chance; "
        ),
        "{said}"
    );
    // Half a won game and half a rook against three pawns: winning, not 0.99 (the
    // engine's 15,000 cp for the coin toss read on the curve alone).
    let score = a.computer().score().expect("the hint's score");
    let white = score.white();
    assert!((0.6..0.9).contains(&white), "{white}");
    assert!(score.centipawns > 10_000.0, "{}", score.centipawns);
}

#[test]
fn a_hint_weighs_a_capture_at_its_horizon_with_the_recapture() {
    // Out of the opening book, level 3 as it plays ends every quiet line on Black's
    // unanswered c5xf2 and gives up its bishop on f7 for a pawn; a hint searches as the
    // review judges a position, with the recapture.
    let mut g = game();
    for m in [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "d2d3", "g8f6",
    ] {
        g.play(m).expect("legal");
    }
    let mut a = App::new(g, paint(), false).with_computer(Computer::default().with_hint_level(3));
    press(&mut a, KeyCode::Char('H'));
    a.finish_work();
    let (mv, _) = a.computer().hint().cloned().expect("a hint");
    assert_ne!(mv, "c4xf7", "{}", a.message().text);
    assert!(
        !a.message().text.contains("opening"),
        "{}",
        a.message().text
    );
}

#[test]
fn a_hint_is_shown_marked_and_scored() {
    let mut a =
        App::new(game(), paint(), false).with_computer(Computer::default().with_hint_level(1));
    press(&mut a, KeyCode::Char('H'));
    assert_eq!(a.computer().thinking(), Some(ThinkingFor::Hint));
    a.finish_work();
    let (mv, squares) = a.computer().hint().cloned().expect("a hint");
    assert_eq!(squares.len(), 2, "{mv}");
    let said = &a.message().text;
    assert!(
        said.starts_with(&format!("hint for white: {mv} ("))
            && [
                "about even, depth 1)",
                "slightly better, depth 1)",
                "better, depth 1)",
            ]
            .iter()
            .any(|w| said.contains(w)),
        "{said}"
    );
    assert_eq!(a.game().history().len(), 0, "a hint plays nothing");
    let s = screen(&mut a, 80, 24);
    // Both squares are marked (`*x*`), the one under the cursor as the cursor.
    let marks = s.matches('*').count();
    assert!(
        marks == 4 || (marks == 2 && squares.contains(&a.cursor())),
        "{s}"
    );
    let wide = screen(&mut a, 120, 40);
    assert!(right_column(&wide).contains("; hint, depth 1)"), "{wide}");
    press(&mut a, KeyCode::Esc);
    assert!(a.computer().hint().is_none());
    assert_eq!(screen(&mut a, 80, 24).matches('*').count(), 0);
    // Playing the hinted move clears the mark too.
    press(&mut a, KeyCode::Char('H'));
    a.finish_work();
    let (mv, _) = a.computer().hint().cloned().expect("a hint");
    typed(&mut a, &mv);
    assert!(a.computer().hint().is_none());
    assert_eq!(a.quantum().unwrap().history()[0].played, mv);
}

#[test]
fn a_screen_runs_one_hint_search_at_a_time() {
    let computer = Computer::default().with_hint_level(5);
    let mut a = App::new(game(), paint(), false).with_computer(computer);
    // Out of the opening book (whose hints come at once): a split.
    typed(&mut a, "b1^a3c3");
    press(&mut a, KeyCode::Char('H'));
    assert_eq!(a.computer().thinking(), Some(ThinkingFor::Hint));
    for _ in 0..50 {
        press(&mut a, KeyCode::Char('H'));
    }
    assert_eq!(
        a.message().text,
        "already looking for a hint: wait for it, or Esc stops it"
    );
    // Stopped, its thread may still wind down: a new H starts nothing until it has.
    press(&mut a, KeyCode::Esc);
    assert_eq!(a.computer().thinking(), None);
    press(&mut a, KeyCode::Char('H'));
    let text = a.message().text.clone();
    assert!(
        text == "the last hint search is still stopping: ask again in a moment"
            || text == "looking for a move for black...",
        "{text}"
    );
}

#[test]
fn the_players_entry_names_the_computer_and_resume_hands_it_back() {
    let dir = temp_dir("resume");
    let opts = PlayOptions {
        seed: Some(3),
        data_dir: Some(dir.clone()),
        autosave: true,
        occupants: Occupants {
            white: Occupant::Person("Ann".into()),
            black: Occupant::Computer(Strength::Level(1)),
        },
        ..PlayOptions::default()
    };
    let Ok(mut a) = open(&opts) else {
        panic!("a quantum game opens")
    };
    assert_eq!(a.computer().sides().black, Some(Strength::Level(1)));
    typed(&mut *a, "e2e4");
    a.finish_work();
    typed(&mut *a, "d2d4");
    // Quit while it thinks: the autosave holds the last completed move.
    let file = a.recorder().autosave_to.clone().expect("autosave");
    drop(a);
    let saved = record::load(&file).expect("saved");
    assert_eq!(saved.moves.len(), 3);
    assert_eq!(saved.players.black, "qchess level 1");
    assert_eq!(saved.players.white, "Ann");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("black = \"qchess level 1\""), "{text}");
    // Resumed, black is the computer's again and it thinks at once.
    let resume = PlayOptions {
        open: Open::Resume,
        ..opts
    };
    let Ok(mut a) = open(&resume) else {
        panic!("the game resumes")
    };
    assert_eq!(a.computer().thinking(), Some(ThinkingFor::Move));
    a.finish_work();
    assert_eq!(a.game().history().len(), 4);
    assert_eq!(record::load(&file).unwrap().moves.len(), 4);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_variants_computer_plays_greedily() {
    let game = new_game(&Setup::with_start(RuleSet::Harmonics, None, 7)).expect("starts");
    let sides = Sides {
        black: Some(Strength::Greedy),
        ..Sides::default()
    };
    let mut a = App::new(game, paint(), false).with_computer(Computer::new(sides, 1));
    press(&mut a, KeyCode::Char(':'));
    for c in "e2e4".chars() {
        press(&mut a, KeyCode::Char(c));
    }
    press(&mut a, KeyCode::Enter);
    assert_eq!(a.computer().thinking(), Some(ThinkingFor::Move));
    a.finish_work();
    assert_eq!(a.game().history().len(), 2);
    assert_eq!(a.game().history()[1].color, Color::Black);
    // u takes back both moves; H hints a move for white.
    press(&mut a, KeyCode::Char('u'));
    a.finish_work();
    assert_eq!(a.game().history().len(), 0);
    press(&mut a, KeyCode::Char('H'));
    a.finish_work();
    assert!(a.computer().hint().is_some());
    assert!(
        a.message().text.starts_with("hint for white: "),
        "{}",
        a.message().text
    );
    // Its score in the probabilities pane, whole at 80x24 too (wrapped, not cut off by
    // the list of harmonics below it); the top border names the computer.
    let s = screen(&mut a, 120, 40);
    assert!(s.contains("engine: "), "{s}");
    assert!(right_column(&s).contains("hint, depth 1)"), "{s}");
    assert!(s.contains(" White v qchess greedy "), "{s}");
    insta::assert_snapshot!("variant_hint_120x40", s);
    let s = screen(&mut a, 80, 24);
    assert!(right_column(&s).contains("depth 1)"), "{s}");
    insta::assert_snapshot!("variant_hint_80x24", s);
}

#[test]
fn snapshots_thinking_and_hint() {
    let mut a = against_black();
    typed(&mut a, "e2e4");
    insta::assert_snapshot!("engine_thinking_80x24", steady(&screen(&mut a, 80, 24)));
    insta::assert_snapshot!("engine_thinking_120x40", steady(&screen(&mut a, 120, 40)));
    insta::assert_snapshot!("engine_thinking_60x20", steady(&screen(&mut a, 60, 20)));
    a.finish_work();
    press(&mut a, KeyCode::Char('H'));
    a.finish_work();
    insta::assert_snapshot!("engine_hint_80x24", screen(&mut a, 80, 24));
    insta::assert_snapshot!("engine_hint_120x40", screen(&mut a, 120, 40));
}

/// Runs `qchess play` with `args` (refused before any terminal is needed).
fn play_refused(args: &[&str]) -> (i32, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_qchess"))
        .arg("play")
        .args(args)
        .env("QCHESS_DATA_DIR", temp_dir("cli"))
        .env("QCHESS_CONFIG_DIR", temp_dir("cli-config"))
        .output()
        .expect("qchess runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn engine_flags_are_checked() {
    let (code, err) = play_refused(&["--engine", "sideways"]);
    assert_eq!(code, 2);
    assert!(err.contains("expected black, white or both"), "{err}");
    let (code, err) = play_refused(&["--movetime", "100"]);
    assert_eq!(code, 2);
    assert!(err.contains("--engine"), "{err}");
    // On a saved game --movetime is the time of an external engine, and needs one.
    let (code, err) = play_refused(&["--load", "x.toml", "--movetime", "100"]);
    assert_eq!(code, 2);
    assert!(err.contains("none is named (--engine-cmd"), "{err}");
    let (code, err) = play_refused(&["--engine", "black", "--level", "7"]);
    assert_eq!(code, 2);
    assert!(err.contains("level 7 does not exist"), "{err}");
    let (code, err) = play_refused(&["--engine", "black", "--load", "x.toml"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot be used with"), "{err}");
    // An engine command needs a side to play, and Quantum Chess.
    let (code, err) = play_refused(&["--engine-cmd", "myengine --uqci"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--engine-cmd names the engine for --engine SIDE"),
        "{err}"
    );
    let (code, err) = play_refused(&[
        "--variant",
        "harmonics",
        "--engine",
        "black",
        "--engine-cmd",
        "myengine",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("a UQCI engine plays Quantum Chess only"),
        "{err}"
    );
}

/// A game against the external engine run by `command` playing black, thinking
/// `movetime` a move, as `play --engine black --engine-cmd COMMAND` opens it.
fn against_external(command: &str, movetime: Duration) -> App {
    let engine = UqciPlayer::new(command, movetime);
    let players = Players {
        white: "Ann".into(),
        black: Strength::External(engine.clone()).name(),
    };
    let sides = Sides::of_occupants(&Occupants::of_players(&players), Some(&engine));
    assert_eq!(sides.black, Some(Strength::External(engine)));
    App::new(game(), paint(), false).with_computer(Computer::new(sides, 1))
}

#[test]
fn qchess_uqci_as_an_external_engine_replies_and_hints() {
    let mut a = against_external(&format!("{BIN} uqci"), Duration::from_millis(150));
    typed(&mut a, "e2e4");
    assert_eq!(a.computer().thinking(), Some(ThinkingFor::Move));
    a.finish_work();
    assert_eq!(a.game().history().len(), 2, "{}", a.message().text);
    assert!(
        a.message()
            .text
            .starts_with("white played e2e4. Reply: black "),
        "{}",
        a.message().text
    );
    // The hint for white comes from the same engine.
    press(&mut a, KeyCode::Char('H'));
    a.finish_work();
    let (mv, _) = a.computer().hint().cloned().expect("a hint");
    typed(&mut a, &mv);
    a.finish_work();
    assert_eq!(a.game().history().len(), 4, "{}", a.message().text);
}

/// Plays e2e4 against a failing engine: the one-line message, then the game goes on
/// hot-seat with black moved by hand.
fn failure_hands_black_over(command: &str, needle: &str) {
    let mut a = against_external(command, Duration::from_millis(150));
    typed(&mut a, "e2e4");
    a.finish_work();
    let said = a.message().text.clone();
    assert!(said.contains(needle), "{said}");
    assert!(
        said.starts_with("black is played by hand from here (hot-seat, every move kept): "),
        "{said}"
    );
    assert!(!said.contains('\n'), "one line: {said}");
    // At 80 columns the message wraps in full.
    let s = screen(&mut a, 80, 24);
    assert!(s.contains("(hot-seat, every move kept)"), "{s}");
    assert!(!a.computer().sides().any(), "nobody is the computer now");
    assert_eq!(a.game().history().len(), 1, "white's move is kept");
    // Black moves by hand, and so does white after it: no computer waits anywhere.
    typed(&mut a, "e7e5");
    assert_eq!(a.computer().thinking(), None);
    typed(&mut a, "g1f3");
    a.finish_work();
    let played = played(&mut a);
    assert_eq!(played, ["e2e4", "e7e5", "g1f3"]);
}

#[test]
fn a_failing_external_engine_hands_its_side_over() {
    // Each way an engine fails, and what the message line says of it.
    let cases = [
        (
            "/nonexistent/qchess-engine --uqci".to_string(),
            "could not be started",
        ),
        (
            fake("ui-crash", HANDSHAKE_OK, "exit 3"),
            "ended while thinking",
        ),
        (
            fake("ui-hang", HANDSHAKE_OK, "echo 'info depth 1 score cp 5'"),
            "did not answer go within 3150 ms",
        ),
        (
            fake("ui-illegal", HANDSHAKE_OK, "echo 'bestmove e7e4'"),
            "\"e7e4\", an illegal move",
        ),
        (
            fake("ui-null", HANDSHAKE_OK, "echo 'bestmove 0000'"),
            "answered no move",
        ),
    ];
    for (command, needle) in cases {
        failure_hands_black_over(&command, needle);
    }
}

#[test]
fn esc_makes_an_external_engine_move_now() {
    // An engine that thinks until it is told to stop, then answers.
    let command = fake_answering(
        "ui-stop",
        &[
            ("uci", HANDSHAKE_OK),
            ("go", "echo 'info depth 1 score cp 7 pv e7e5'"),
            ("stop", "echo 'bestmove e7e5'"),
        ],
    );
    let mut a = against_external(&command, Duration::from_secs(60));
    typed(&mut a, "e2e4");
    // Its info line shows on the thinking line before Esc.
    let start = Instant::now();
    while !screen(&mut a, 120, 40).contains("best e7e5") {
        a.tick();
        assert!(start.elapsed() < Duration::from_secs(20), "no info shown");
        std::thread::sleep(Duration::from_millis(5));
    }
    press(&mut a, KeyCode::Esc);
    a.finish_work();
    assert!(start.elapsed() < Duration::from_secs(20), "Esc stopped it");
    assert_eq!(a.game().history().len(), 2, "{}", a.message().text);
    assert_eq!(a.quantum().unwrap().history()[1].played, "e7e5");
}

#[test]
fn a_saved_games_external_engine_plays_again_only_when_named_again() {
    let dir = temp_dir("uqci-resume");
    let command = format!("{BIN} uqci");
    let file = dir.join("game.toml");
    let text = format!(
        "format = 1\nmoves = [\"e2e4\"]\n\n[players]\nwhite = \"Ann\"\nblack = \"uqci: {command}\"\n"
    );
    std::fs::write(&file, text).unwrap();
    let load = |engine_cmd: Option<&str>| {
        let opts = PlayOptions {
            open: Open::Load(file.clone()),
            seed: Some(3),
            engine_cmd: engine_cmd.map(str::to_string),
            engine_movetime: Duration::from_millis(150),
            ..PlayOptions::default()
        };
        match open(&opts) {
            Ok(a) if a.quantum().is_some() => a,
            _ => panic!("the saved game opens"),
        }
    };
    // Named again: black is the engine's, and it moves at once.
    let mut a = load(Some(&command));
    assert!(matches!(
        a.computer().sides().black,
        Some(Strength::External(_))
    ));
    assert_eq!(a.computer().thinking(), Some(ThinkingFor::Move));
    a.finish_work();
    assert_eq!(a.game().history().len(), 2, "{}", a.message().text);
    // Not named, or another command: the saved game starts no program; black is
    // played by hand and the message says how to hand it back.
    for given in [None, Some("some-other-engine")] {
        let a = load(given);
        assert!(!a.computer().sides().any(), "{given:?}");
        assert_eq!(a.computer().thinking(), None);
        let said = &a.message().text;
        assert!(
            said.contains(&format!(
                "black is played by hand: the engine \"{command}\" plays again only when named again (--engine-cmd)"
            )),
            "{said}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_hint_from_the_opening_book_comes_without_a_score() {
    let computer = Computer::default().with_hint_level(3);
    let mut a = App::new(game(), paint(), false).with_computer(computer);
    press(&mut a, KeyCode::Char('H'));
    a.finish_work();
    let (mv, _) = a.computer().hint().cloned().expect("a hint");
    assert!(
        ["e2e4", "d2d4", "c2c4", "g1f3"].contains(&mv.as_str()),
        "{mv}"
    );
    assert_eq!(
        a.message().text,
        format!("hint for white: {mv} (a main line of the opening); Esc hides it")
    );
}

#[test]
fn the_computers_move_from_its_opening_book_says_so() {
    let mut a = black_played_by(Strength::Level(2));
    typed(&mut a, "d2d4");
    a.finish_work();
    let said = a.message().text.clone();
    let reply = played(&mut a).pop().expect("black answered");
    assert_eq!(
        said,
        format!("white played d2d4. Reply: black played {reply} from its opening book")
    );
    // After a split the book has nothing to say: the computer searches, and the message
    // says only what its move did.
    typed(&mut a, "g1^f3h3");
    a.finish_work();
    let said = a.message().text.clone();
    assert!(said.contains(". Reply: black played "), "{said}");
    assert!(!said.contains("opening book"), "{said}");
}

#[test]
fn a_rooms_computer_move_from_the_book_is_told_so() {
    // As a screen of an SSH room takes in the move its computer made (App::sync): the
    // seat's name says who played.
    let screen_of = |black: Occupant| {
        let mut a = App::new(game(), paint(), false);
        a.set_players(Occupants {
            white: Occupant::Person("ann".into()),
            black,
        });
        a
    };
    let mut shared = game();
    shared.play("d2d4").unwrap();
    let reply = qchess::engine::book::choose(&shared, 1).expect("a book reply to 1.d4");
    shared.play(&reply).unwrap();
    let mut a = screen_of(Occupant::Computer(Strength::Level(2)));
    a.sync(shared.clone().into());
    assert_eq!(
        a.message().text,
        format!("black played {reply} from its opening book")
    );
    let mut a = screen_of(Occupant::Person("bo".into()));
    a.sync(shared.into());
    assert_eq!(a.message().text, format!("black played {reply}"));
}

#[test]
fn a_replay_tells_the_computers_book_moves_as_the_game_did() {
    let mut a = black_played_by(Strength::Level(2));
    // As `qchess play --engine black --level 2` seats the sides.
    a.set_players(Occupants {
        white: Occupant::Person("Ann".into()),
        black: Occupant::Computer(Strength::Level(2)),
    });
    typed(&mut a, "d2d4");
    a.finish_work();
    typed(&mut a, "g1^f3h3");
    a.finish_work();
    let moves = played(&mut a);
    assert_eq!(moves.len(), 4, "{moves:?}");
    let dir = std::env::temp_dir().join(format!("qchess-test-{}-book", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let said_at = |players: &Players, ply: usize| {
        let path = dir.join("book.toml");
        let saved = record::SavedGame::of(a.game(), players, "d");
        record::save(&path, &saved).unwrap();
        let mut replay = open(&PlayOptions {
            open: Open::Replay(path),
            ..PlayOptions::default()
        })
        .expect("the game replays");
        for _ in 0..ply {
            press(&mut *replay, KeyCode::Right);
        }
        replay.message().text.clone()
    };
    let computer = Players {
        white: "Ann".into(),
        black: "qchess level 2".into(),
    };
    assert_eq!(
        said_at(&computer, 2),
        format!(
            "ply 2 of 4: black played {} from its opening book",
            moves[1]
        )
    );
    // White's move is no book move of the computer's, nor black's searched reply.
    assert_eq!(said_at(&computer, 1), "ply 1 of 4: white played d2d4");
    assert!(!said_at(&computer, 4).contains("opening book"));
    // The same move by a person (or by level 1, which has no book) is told plainly.
    let person = Players {
        white: "Ann".into(),
        black: "Bob".into(),
    };
    assert_eq!(
        said_at(&person, 2),
        format!("ply 2 of 4: black played {}", moves[1])
    );
    let level_1 = Players {
        white: "Ann".into(),
        black: "qchess level 1".into(),
    };
    assert!(!said_at(&level_1, 2).contains("opening book"));
    let _ = std::fs::remove_dir_all(&dir);
}
