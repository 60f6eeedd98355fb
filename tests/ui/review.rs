//! The replay's review: `R` reviews with a gauge, the graph and the history's marks,
//! `[` `]` and a click on the graph go to the plies, Esc stops a review and keeps what
//! was judged, and the review goes into the game's file.

use crate::support::driver::{press, right_column, screen};
use crate::support::review_game::{review_game, review_game_played};
use crossterm::event::{Event, KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use qchess::game::{Playable, RuleSet, Setup};
use qchess::record::{self, Players, SavedGame};
use qchess::review::VERSION;
use qchess::style::color::{Paint, Tier};
use qchess::style::theme::Theme;
use qchess::ui::opponent::Computer;
use qchess::ui::App;
use qchess::variants::replay;

fn paint() -> Paint {
    Paint::new(Theme::default(), Tier::None)
}

/// White's king walks onto the rook's rank and is taken: a blunder at ply 1.
fn blunder_game() -> Box<dyn Playable> {
    let setup = Setup::with_start(RuleSet::Quantum, Some("4k3/8/8/8/8/8/7r/R3K3 w - - 0 1"), 0);
    replay(&setup, &["e1e2".into(), "h2xe2".into()], None).unwrap()
}

/// A replay whose hints are level 1: its review is judged at level 3, `qchess
/// review`'s default, the least a review is judged at.
fn replaying(game: Box<dyn Playable>) -> App {
    App::new(game, paint(), false)
        .with_computer(Computer::default().with_hint_level(1))
        .into_replay()
}

#[test]
fn r_reviews_the_replay_and_the_marks_take_you_there() {
    let mut app = replaying(blunder_game());
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("R: review the game. The engine"), "{s}");
    assert!(s.contains("(level 3) judges every move"), "{s}");
    press(&mut app, KeyCode::Char('R'));
    app.finish_review();
    assert_eq!(
        app.message().text,
        "reviewed: 1 marked move, ] goes to it; w saves the game with it"
    );
    press(&mut app, KeyCode::Char(']'));
    app.finish_work();
    assert_eq!(app.replay().map(|r| r.ply), Some(1));
    let said = &app.message().text;
    assert!(
        said.starts_with(
            "blunder: allowed the king to be captured (gave away 0.70 of a point), met by h2xe2"
        ),
        "{said}"
    );
    assert!(said.contains("(the best reply); best a1^a7a8"), "{said}");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("1. Ke2??"), "{s}");
    assert!(s.contains("e1e2?? allows Kx best a1^a7a8"), "{s}");
    // The graph's scale and legend, and the mark over the blunder's bar.
    assert!(s.contains(" 1 White wins ½ even 0 Black wins "), "{s}");
    assert!(
        s.contains("│ 1") && s.contains("│ ½") && s.contains("│ 0"),
        "{s}"
    );
    insta::assert_snapshot!("review_80x24", s);
    insta::assert_snapshot!("review_60x20", screen(&mut app, 60, 20));
    insta::assert_snapshot!("review_120x40", screen(&mut app, 120, 40));
    press(&mut app, KeyCode::Char(']'));
    assert_eq!(app.message().text, "no marked move after this one");
    // A click on the graph's first column shows the start.
    let graph = app.hits().graph.expect("the graph is drawn");
    assert_eq!(graph.points, 3);
    app.handle_event(Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: graph.area.x,
        row: graph.area.y,
        modifiers: KeyModifiers::NONE,
    }));
    app.finish_work();
    assert_eq!(app.replay().map(|r| r.ply), Some(0));
    // An unmarked ply's line says who stands better, then White's expected result, whole
    // in the 80-column pane.
    let s = screen(&mut app, 80, 24);
    let verdicts = ["about even (", "better (", "winning (", "by force ("];
    let line = s
        .lines()
        .find(|l| !l.contains("engine:") && verdicts.iter().any(|w| l.contains(w)))
        .unwrap_or_else(|| panic!("no verdict in\n{s}"));
    let pane = line.rsplit_once("││").map_or(line, |(_, r)| r);
    let open = pane.find(" (").expect("the expected result");
    assert!(pane[open..].contains(')'), "cut off: {line}");
    // Reviewed already: R says so.
    press(&mut app, KeyCode::Char('R'));
    assert!(app.message().text.starts_with("the game is reviewed"));
}

#[test]
fn the_engine_line_follows_the_shown_ply() {
    let mut app = replaying(blunder_game());
    // Not reviewed: no verdict of any position.
    assert!(!right_column(&screen(&mut app, 80, 24)).contains("engine:"));
    press(&mut app, KeyCode::Char('R'));
    app.finish_review();
    let start = app
        .reviewing()
        .review()
        .and_then(|r| r.at(0))
        .map(|j| j.expected);
    let start = format!("({:.2} for white; review, ply 0)", start.expect("judged"));
    let s = right_column(&screen(&mut app, 80, 24));
    assert!(s.contains(&start), "{s}");
    press(&mut app, KeyCode::Right);
    app.finish_work();
    let s = right_column(&screen(&mut app, 80, 24));
    assert!(
        s.contains("engine: black wins by force (0.00 for white; review, ply 1)"),
        "{s}"
    );
    assert!(!s.contains(&start), "{s}");
}

#[test]
fn a_ply_shows_the_same_however_it_was_reached() {
    let game = blunder_game();
    let mut app = replaying(game);
    press(&mut app, KeyCode::Char('R'));
    app.finish_review();
    // The panes (all but the message line) at ply 1: stepped to from the start, from the
    // end, jumped to with `]`, and gone to with `g 1`.
    let panes = |app: &mut App| {
        let t = crate::support::driver::terminal(app, 80, 24);
        let mut b = t.backend().buffer().clone();
        b.resize(ratatui::layout::Rect::new(0, 0, 80, 22));
        b
    };
    press(&mut app, KeyCode::Home);
    press(&mut app, KeyCode::Right);
    app.finish_work();
    let stepped = panes(&mut app);
    press(&mut app, KeyCode::End);
    press(&mut app, KeyCode::Left);
    app.finish_work();
    assert_eq!(panes(&mut app), stepped, "stepped back");
    press(&mut app, KeyCode::Home);
    press(&mut app, KeyCode::Char(']'));
    app.finish_work();
    assert_eq!(panes(&mut app), stepped, "jumped to the mark");
    press(&mut app, KeyCode::End);
    crate::support::driver::keys(&mut app, "g1");
    press(&mut app, KeyCode::Enter);
    app.finish_work();
    assert_eq!(app.replay().map(|r| r.ply), Some(1));
    assert_eq!(panes(&mut app), stepped, "g 1");
}

#[test]
fn esc_stops_a_review_and_r_goes_on_from_there() {
    let moves = review_game();
    let game = review_game_played();
    let mut app = App::new(game, paint(), false)
        .with_computer(Computer::default().with_hint_level(3))
        .into_replay();
    press(&mut app, KeyCode::Char('R'));
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("Esc stops"), "{s}");
    // The graph fills in while the review runs.
    let started = std::time::Instant::now();
    while app
        .reviewing()
        .review()
        .is_none_or(|r| r.positions.is_empty())
    {
        assert!(app.reviewing().running(), "the review ended unseen");
        assert!(started.elapsed().as_secs() < 120, "no position judged");
        app.tick();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(app.reviewing().running());
    screen(&mut app, 80, 24);
    assert!(app.hits().graph.is_some(), "a graph while it runs");
    press(&mut app, KeyCode::Esc);
    app.finish_review();
    assert!(
        app.message().text.starts_with("review stopped: R goes on"),
        "{}",
        app.message().text
    );
    let judged = app.reviewing().review().map_or(0, |r| r.positions.len());
    assert!(judged < moves.len() + 1, "{judged}");
}

#[test]
fn the_review_goes_into_the_file_the_replay_came_from() {
    let dir = std::env::temp_dir().join(format!("qchess-ui-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("blunder.toml");
    let game = blunder_game();
    record::save(
        &path,
        &SavedGame::of(game.as_ref(), &Players::default(), ""),
    )
    .unwrap();
    let mut app = replaying(game).with_review(path.clone(), None);
    press(&mut app, KeyCode::Char('R'));
    app.finish_review();
    assert!(app
        .message()
        .text
        .ends_with(&format!("kept in {}", path.display())));
    let kept = record::load(&path)
        .unwrap()
        .review
        .expect("saved into the file");
    assert!(kept.complete(2));
    // Opened again with it, the graph is there at once.
    let mut again = replaying(blunder_game()).with_review(path.clone(), Some(kept));
    assert_eq!(
        again.message().text,
        "replay with its review: ] goes to the marked move; ← → step, ? help"
    );
    let s = screen(&mut again, 80, 24);
    assert!(s.contains("Review · qchess level 3"), "{s}");
    assert!(s.contains("Ke2??"), "{s}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn r_judges_again_a_review_of_an_older_version() {
    let game = blunder_game();
    let mut app = replaying(game.clone_box());
    press(&mut app, KeyCode::Char('R'));
    app.finish_review();
    let mut old = app.reviewing().review().cloned().expect("reviewed");
    assert_eq!(old.version, VERSION);
    // The same review as an earlier qchess kept it: shown as it was, and R judges the
    // game again, where a complete review of this version is left alone.
    old.version = VERSION - 1;
    let dir = std::env::temp_dir().join(format!("qchess-ui-old-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("old.toml");
    let mut saved = SavedGame::of(game.as_ref(), &Players::default(), "");
    saved.review = Some(old.clone());
    record::save(&path, &saved).unwrap();
    let mut again = replaying(game).with_review(path.clone(), Some(old));
    assert!(screen(&mut again, 80, 24).contains("Ke2??"));
    press(&mut again, KeyCode::Char('R'));
    assert!(
        again.message().text.starts_with("reviewing"),
        "{}",
        again.message().text
    );
    again.finish_review();
    let judged = again.reviewing().review().expect("judged again");
    assert_eq!(judged.version, VERSION);
    assert!(judged.complete(2));
    let kept = record::load(&path)
        .unwrap()
        .review
        .expect("kept in the file");
    assert_eq!(kept.version, VERSION);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn r_at_the_end_of_a_game_reviews_it_and_keeps_the_review_in_its_autosave() {
    let data = std::env::temp_dir().join(format!("qchess-ui-review-end-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let mut app = a_game_kept_in(RuleSet::Quantum, &data);
    // During the game R only says when it works.
    press(&mut app, KeyCode::Char('R'));
    assert!(app.replay().is_none());
    assert!(
        app.message()
            .text
            .starts_with("R reviews the game once it is over"),
        "{}",
        app.message().text
    );
    play_typed(&mut app, &["e1e2", "h2xe2"]);
    assert!(app.game_over_shown());
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("R review the game"), "{s}");
    let (said, file) = review_at_the_end(&mut app);
    assert!(
        said.starts_with("reviewed: 1 marked move, ] goes to it; kept in "),
        "{said}"
    );
    let s = screen(&mut app, 80, 24);
    assert!(
        s.contains("Review · qchess level 3") && s.contains("Ke2??"),
        "{s}"
    );
    press(&mut app, KeyCode::Char(']'));
    assert_eq!(
        app.replay().map(|r| r.ply),
        Some(2),
        "no marked move after the last"
    );
    press(&mut app, KeyCode::Char('['));
    assert_eq!(app.replay().map(|r| r.ply), Some(1));
    // Leaving still says where the game is.
    let bye = app.farewell().unwrap_or_default();
    assert!(bye.contains(&file), "{bye}");
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn r_at_the_end_of_a_harmonics_game_reviews_it_too() {
    let data = std::env::temp_dir().join(format!("qchess-ui-review-harm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let mut app = a_game_kept_in(RuleSet::Harmonics, &data);
    play_typed(&mut app, &["e1e2", "h2e2"]);
    assert!(app.game_over_shown(), "{}", app.message().text);
    let (said, _) = review_at_the_end(&mut app);
    assert!(said.starts_with("reviewed: "), "{said}");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("Review · greedy"), "{s}");
    let _ = std::fs::remove_dir_all(&data);
}

/// A game of `rules` from a king and rook against a king and rook, autosaved in `data`,
/// hints at level 1.
fn a_game_kept_in(rules: RuleSet, data: &std::path::Path) -> App {
    let setup = Setup::with_start(rules, Some("4k3/8/8/8/8/8/7r/R3K3 w - - 0 1"), 0);
    App::new(replay(&setup, &[], None).unwrap(), paint(), false)
        .with_computer(Computer::default().with_hint_level(1))
        .with_recorder(qchess::record::Recorder::new(
            Some(data.to_path_buf()),
            true,
            Players::default(),
            0,
        ))
}

/// `R` once the 2-ply game is over: the replay at its end, the review finished and kept
/// whole in the file the message names. The message and that file.
fn review_at_the_end(app: &mut App) -> (String, String) {
    press(app, KeyCode::Char('R'));
    assert!(!app.game_over_shown());
    assert_eq!(
        app.replay().map(|r| r.ply),
        Some(2),
        "the replay at the end"
    );
    app.finish_review();
    let said = app.message().text.clone();
    // The review is in the autosave, which `qchess replay` opens with it.
    let file = said
        .rsplit("kept in ")
        .next()
        .unwrap_or_default()
        .to_string();
    let kept = record::load(std::path::Path::new(&file)).unwrap();
    assert!(kept.review.is_some_and(|r| r.complete(2)), "{said}");
    (said, file)
}

/// Plays `moves` as typed on the move line.
fn play_typed(app: &mut App, moves: &[&str]) {
    for mv in moves {
        press(app, KeyCode::Char(':'));
        for c in mv.chars() {
            press(app, KeyCode::Char(c));
        }
        press(app, KeyCode::Enter);
        app.finish_work();
    }
}

/// A server's screen reviews on one of the server's searches: none free, it says so
/// and starts nothing; one free, the review runs and is not offered for saving.
#[test]
fn a_served_replay_reviews_on_a_shared_search_or_says_they_are_busy() {
    use qchess::engine::player::SearchSlots;
    use qchess::ui::opponent::HintRules;
    use std::sync::Arc;
    let slots = Arc::new(SearchSlots::new(1));
    let mut app = replaying(blunder_game()).served();
    app.set_hint_rules(HintRules {
        shared: Some(Arc::clone(&slots)),
        watchers: false,
    });
    let taken = slots.claim().expect("a free slot");
    press(&mut app, KeyCode::Char('R'));
    assert_eq!(
        app.message().text,
        "the server's engines are all busy now: R again in a moment"
    );
    drop(taken);
    press(&mut app, KeyCode::Char('R'));
    assert_eq!(slots.running(), 1, "the review holds the slot");
    app.finish_review();
    assert_eq!(app.message().text, "reviewed: 1 marked move, ] goes to it");
}
