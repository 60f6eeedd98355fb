//! The flow around a game: quitting with a question, the resume offer at the start,
//! the game-over popup in the players' names, and the save line (offered path, `~`,
//! missing folders, long paths). Snapshots at 80x24 and 120x40.
//!
//! Every test here sets `HOME` to one folder of this test process, so that paths are
//! shown from `~` and the snapshots do not depend on where the tests run.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use qchess::chess::{Game, GameOptions, Status};
use qchess::record::{self, Players, Recorder, SavedGame};
use qchess::ui::app::{Mode, Purpose, Tone};
use qchess::ui::color::{Paint, Tier};
use qchess::ui::prompts::Question;
use qchess::ui::start::{resumable, Session};
use qchess::ui::terminal::{open, Opened, PlayOptions};
use qchess::ui::theme::Theme;
use qchess::ui::{draw, App, Screen};
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use std::path::PathBuf;

/// The home folder of this test process (set as `HOME`), with a fresh sub-folder `name`.
fn home(name: &str) -> (PathBuf, PathBuf) {
    let home = std::env::temp_dir().join(format!("qchess-flow-{}", std::process::id()));
    std::fs::create_dir_all(&home).expect("home");
    std::env::set_var("HOME", &home);
    let sub = home.join(name);
    let _ = std::fs::remove_dir_all(&sub);
    std::fs::create_dir_all(&sub).expect("sub-folder");
    (home, sub)
}

fn ann_and_bo() -> Players {
    Players {
        white: "Ann".into(),
        black: "Bo".into(),
    }
}

fn app_with(game: Game, rec: Recorder) -> App {
    App::new(game, Paint::new(Theme::default(), Tier::None), false).with_recorder(rec)
}

fn standard() -> Game {
    Game::standard(GameOptions {
        seed: 3,
        ..GameOptions::default()
    })
}

fn press(app: &mut App, code: KeyCode) {
    app.handle_key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn keys(app: &mut App, s: &str) {
    for c in s.chars() {
        press(app, KeyCode::Char(c));
    }
}

fn typed(app: &mut App, line: &str) {
    keys(app, ":");
    keys(app, line);
    press(app, KeyCode::Enter);
}

fn screen_of(draw_it: impl Fn(&mut ratatui::Frame), w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("test terminal");
    t.draw(|f| draw_it(f)).expect("draw");
    t.backend().to_string()
}

/// The screen with each autosave name's random suffix (`game-STAMP-3f9a0c`) as `XXXXXX`,
/// so that snapshots do not change from run to run.
fn masked(screen: String) -> String {
    let mut out = screen;
    let mut from = 0;
    while let Some(i) = out[from..].find("game-").map(|i| i + from) {
        let suffix = i + "game-YYYYMMDD-HHMMSS-".len();
        if let Some(tail) = out.get(suffix..suffix + 6) {
            if tail.chars().all(|c| c.is_ascii_hexdigit()) {
                out.replace_range(suffix..suffix + 6, "XXXXXX");
            }
        }
        from = i + 1;
    }
    out
}

fn both(name: &str, app: &App) {
    insta::assert_snapshot!(
        format!("{name}_80x24"),
        masked(screen_of(|f| draw(f, app), 80, 24))
    );
    insta::assert_snapshot!(
        format!("{name}_120x40"),
        masked(screen_of(|f| draw(f, app), 120, 40))
    );
}

#[test]
fn quit_asks_and_names_the_autosave() {
    let (_, dir) = home("quit");
    let data = dir.join("data");
    let rec = Recorder::new(Some(data.clone()), true, ann_and_bo(), 0);
    let mut app = app_with(standard(), rec);
    typed(&mut app, "e2e4");
    keys(&mut app, "q");
    assert_eq!(app.question(), Some(&Question::Quit));
    both("quit_confirm", &app);
    let shown = screen_of(|f| draw(f, &app), 80, 24);
    assert!(
        shown.contains("autosave/game-19700101-000000-"),
        "the autosave is named:\n{shown}"
    );
    keys(&mut app, "y");
    assert!(app.should_quit());
    let bye = app.farewell().expect("a farewell");
    assert!(
        bye.contains(
            &data
                .join("autosave/game-19700101-000000-")
                .display()
                .to_string()
        ),
        "{bye}"
    );
    assert!(bye.contains("qchess resume"), "{bye}");
}

#[test]
fn quit_without_autosave_says_the_game_is_not_saved() {
    let (_, dir) = home("quit-off");
    let rec = Recorder::new(Some(dir), false, ann_and_bo(), 0);
    let mut app = app_with(standard(), rec);
    typed(&mut app, "e2e4");
    keys(&mut app, "q");
    let shown = screen_of(|f| draw(f, &app), 80, 24);
    assert!(shown.contains("not saved: autosave is off"), "{shown}");
    keys(&mut app, "q");
    assert!(app.should_quit());
    assert_eq!(
        app.farewell().as_deref(),
        Some("qchess: the game was not saved (autosave is off)")
    );
}

#[test]
fn game_over_names_the_winner() {
    let (_, dir) = home("over");
    let game = Game::from_fen(
        "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
        GameOptions {
            seed: 3,
            ..GameOptions::default()
        },
    )
    .expect("FEN");
    let mut app = app_with(game, Recorder::new(Some(dir), false, ann_and_bo(), 0));
    typed(&mut app, "e7e8");
    assert_eq!(app.game().status(), Status::WhiteWins);
    assert_eq!(app.result_words(), "Ann wins");
    both("game_over_winner", &app);
    // Over: q leaves without asking.
    keys(&mut app, "q");
    assert!(app.should_quit());
}

/// An autosave of an unfinished game (two moves) in `data`.
fn unfinished_autosave(data: &std::path::Path) -> PathBuf {
    let mut g = standard();
    g.play("b1^a3c3").expect("legal");
    g.play("e7e5").expect("legal");
    let saved = SavedGame::of_game(&g, &ann_and_bo(), "2026-11-23T16:40:00Z");
    let path = record::autosave_path(data, "20261123-164000", "a1b2c3");
    record::write_atomic(&path, &saved.to_toml()).expect("write");
    path
}

fn session_opts(data: PathBuf) -> PlayOptions {
    PlayOptions {
        data_dir: Some(data),
        autosave: true,
        seed: Some(5),
        color: qchess::ui::color::ColorChoice::Fixed(Tier::None),
        ..PlayOptions::default()
    }
}

fn session_key(s: &mut Session, code: KeyCode) {
    s.handle_event(Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn moves_on_screen(s: &Session) -> usize {
    match s.game() {
        Opened::Quantum(app) => app.game().history().len(),
        Opened::Variant(app) => app.game().history().len(),
    }
}

#[test]
fn the_start_offers_an_unfinished_autosave() {
    let (_, dir) = home("offer");
    let data = dir.join("data");
    // Nothing saved: no offer.
    assert_eq!(resumable(&data), None);
    let path = unfinished_autosave(&data);
    let offer = resumable(&data).expect("an offer");
    assert_eq!(offer.path, path);
    assert_eq!(
        offer.summary,
        "Ann vs Bo, quantum, move 2, white to move (started 2026-11-23 16:40 UTC)"
    );

    let opts = session_opts(data.clone());
    let mut s = Session::new(
        open(&opts).expect("opens"),
        Some(offer.clone()),
        opts.clone(),
    );
    insta::assert_snapshot!("resume_offer_80x24", screen_of(|f| s.draw(f), 80, 24));
    insta::assert_snapshot!("resume_offer_120x40", screen_of(|f| s.draw(f), 120, 40));
    // Keys go to the offer, not the game.
    session_key(&mut s, KeyCode::Char('j'));
    assert!(s.offer().is_some());
    session_key(&mut s, KeyCode::Char('r'));
    assert!(s.offer().is_none());
    assert_eq!(moves_on_screen(&s), 2, "the autosaved game is on screen");

    let mut s = Session::new(
        open(&opts).expect("opens"),
        Some(offer.clone()),
        opts.clone(),
    );
    session_key(&mut s, KeyCode::Esc);
    assert!(s.offer().is_none());
    assert_eq!(moves_on_screen(&s), 0, "the new game is on screen");
    assert!(!s.should_quit());

    let mut s = Session::new(open(&opts).expect("opens"), Some(offer), opts);
    session_key(&mut s, KeyCode::Char('q'));
    assert!(s.should_quit());

    // A finished newest autosave is not offered.
    let mut g =
        Game::from_fen("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", GameOptions::default()).expect("FEN");
    g.play("e7e8").expect("legal");
    let done = SavedGame::of_game(&g, &ann_and_bo(), "2026-11-23T17:00:00Z");
    let later = record::autosave_path(&data, "20261123-170000", "d4e5f6");
    std::thread::sleep(std::time::Duration::from_millis(20));
    record::write_atomic(&later, &done.to_toml()).expect("write");
    assert_eq!(resumable(&data), None);
}

#[test]
fn resuming_past_broken_autosaves_says_so_in_two_lines_at_80_columns() {
    let (_, dir) = home("passed-over");
    let data = dir.join("data");
    unfinished_autosave(&data);
    let folder = record::autosave_dir(&data);
    // Newer ones: unreadable, a newer format, finished.
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(
        folder.join("game-20261124-000000-bbbbbb.toml"),
        "format = 2\nmoves = []\n",
    )
    .unwrap();
    std::fs::write(
        folder.join("game-20261125-000000-cccccc.toml"),
        "format = 1\nresult = \"draw\"\nmoves = [\"e2e4\"]\n",
    )
    .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(
        folder.join("game-20261126-000000-dddddd.toml"),
        "not toml [",
    )
    .unwrap();
    let opts = PlayOptions {
        open: qchess::ui::terminal::Open::Resume,
        ..session_opts(data)
    };
    let Opened::Quantum(app) = open(&opts).expect("resumes") else {
        panic!("a quantum game");
    };
    assert_eq!(
        app.message().text,
        "resumed game-20261123-164000-a1b2c3.toml at ply 2: white to move; passed over newer \
         game-20261126-000000-dddddd.toml (unreadable) and 2 more"
    );
    let s = screen_of(|f| draw(f, &app), 80, 24);
    let message: Vec<&str> = s.lines().skip(22).collect();
    assert!(!s.contains('…'), "{s}");
    assert!(
        message[0].contains("resumed game-20261123-164000-a1b2c3.toml at ply 2"),
        "{s}"
    );
    assert!(message[1].contains("(unreadable) and 2 more"), "{s}");
}

#[test]
fn the_save_line_offers_a_path_that_typing_replaces() {
    let (home, dir) = home("save");
    let data = dir.join("data");
    let rec = Recorder::new(Some(data.clone()), false, ann_and_bo(), 0);
    let mut app = app_with(standard(), rec);
    typed(&mut app, "e2e4");
    keys(&mut app, "w");
    let Mode::Prompt { line, purpose } = app.mode() else {
        panic!("the save line is open");
    };
    assert_eq!(*purpose, Purpose::SavePath);
    assert!(line.selected());
    assert_eq!(
        line.text(),
        "~/save/data/saves/qchess-19700101-000000.toml",
        "shown from ~"
    );
    // Typing replaces the offer; ~ is the home folder; a missing folder is asked about.
    keys(&mut app, "~/games/mine.toml");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.question(), Some(Question::CreateDir { .. })));
    assert_eq!(app.message().text, "create ~/games? y/n");
    both("save_create_folder", &app);
    assert!(!home.join("games").exists());
    // No: back to the line, with the text, to fix it.
    keys(&mut app, "n");
    assert!(matches!(app.mode(), Mode::Prompt { line, .. } if line.text() == "~/games/mine.toml"));
    assert_eq!(app.message().tone, Tone::Error);
    press(&mut app, KeyCode::Enter);
    keys(&mut app, "y");
    assert_eq!(app.message().tone, Tone::Info, "{}", app.message().text);
    assert!(matches!(app.mode(), Mode::Idle));
    let saved = record::load(&home.join("games/mine.toml")).expect("saved");
    assert_eq!(saved.moves, vec!["e2e4"]);
    let _ = std::fs::remove_dir_all(home.join("games"));
}

#[test]
fn a_long_path_scrolls_with_the_cursor() {
    let (_, dir) = home("long");
    let rec = Recorder::new(Some(dir.join("data")), false, ann_and_bo(), 0);
    let mut app = app_with(standard(), rec);
    keys(&mut app, "w");
    let long =
        "/srv/games/quantum-chess/tournaments/2026/november/round-3/board-12/ann-vs-bo-final.toml";
    keys(&mut app, long);
    both("save_long_path", &app);
    // The typed line is the message area's first row (the hint flows on below it).
    let typed = |s: String| {
        s.lines()
            .find(|l| l.contains("save to: "))
            .unwrap_or_default()
            .to_string()
    };
    let end = typed(screen_of(|f| draw(f, &app), 80, 24));
    assert!(end.contains("ann-vs-bo-final.toml"), "{end}");
    assert!(!end.contains("/srv/games"), "the start scrolled out: {end}");
    press(&mut app, KeyCode::Home);
    let start = typed(screen_of(|f| draw(f, &app), 80, 24));
    assert!(start.contains("save to: /srv/games"), "{start}");
}
