//! The flow around a game: quitting with a question, the resume offer at the start,
//! the game-over popup in the players' names, and the save line (offered path, `~`,
//! missing folders, long paths). Snapshots at 80x24 and 120x40.
//!
//! Every test here sets `HOME` to one folder of this test process, so that paths are
//! shown from `~` and the snapshots do not depend on where the tests run.

use crate::support::driver::{keys, press, screen, typed};
use crossterm::event::KeyCode;
use qchess::chess::{Game, GameOptions, Status};
use qchess::game::{Playable, RuleSet, Setup};
use qchess::record::{self, Players, Recorder, SavedGame};
use qchess::style::color::{Paint, Tier};
use qchess::style::theme::Theme;
use qchess::ui::layers::question::Question;
use qchess::ui::layers::typed_line::Purpose;
use qchess::ui::message::Tone;
use qchess::ui::open::{open, PlayOptions};
use qchess::ui::start::{resumable, Session};
use qchess::ui::{App, Screen};
use qchess::variants::new_game;
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

fn both(name: &str, app: &mut App) {
    insta::assert_snapshot!(format!("{name}_80x24"), masked(screen(app, 80, 24)));
    insta::assert_snapshot!(format!("{name}_120x40"), masked(screen(app, 120, 40)));
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
    both("quit_confirm", &mut app);
    let shown = screen(&mut app, 80, 24);
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
    let shown = screen(&mut app, 80, 24);
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
    both("game_over_winner", &mut app);
    // Over: q leaves without asking.
    keys(&mut app, "q");
    assert!(app.should_quit());
}

/// An autosave of an unfinished game (two moves) in `data`.
fn unfinished_autosave(data: &std::path::Path) -> PathBuf {
    let mut g: Box<dyn Playable> = standard().into();
    g.play("b1^a3c3").expect("legal");
    g.play("e7e5").expect("legal");
    let saved = SavedGame::of(g.as_ref(), &ann_and_bo(), "2026-11-23T16:40:00Z");
    let path = record::autosave_path(data, "20261123-164000", "a1b2c3");
    qchess::files::write_atomic(&path, &saved.to_toml()).expect("write");
    path
}

fn session_opts(data: PathBuf) -> PlayOptions {
    PlayOptions {
        data_dir: Some(data),
        autosave: true,
        seed: Some(5),
        color: qchess::style::color::ColorChoice::Fixed(Tier::None),
        ..PlayOptions::default()
    }
}

fn moves_on_screen(s: &mut Session) -> usize {
    s.game().game().ply()
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
    insta::assert_snapshot!("resume_offer_80x24", screen(&mut s, 80, 24));
    insta::assert_snapshot!("resume_offer_120x40", screen(&mut s, 120, 40));
    // Keys go to the offer, not the game.
    press(&mut s, KeyCode::Char('j'));
    assert!(s.offer().is_some());
    press(&mut s, KeyCode::Char('r'));
    assert!(s.offer().is_none());
    assert_eq!(
        moves_on_screen(&mut s),
        2,
        "the autosaved game is on screen"
    );

    let mut s = Session::new(
        open(&opts).expect("opens"),
        Some(offer.clone()),
        opts.clone(),
    );
    press(&mut s, KeyCode::Esc);
    assert!(s.offer().is_none());
    assert_eq!(moves_on_screen(&mut s), 0, "the new game is on screen");
    assert!(!s.should_quit());

    let mut s = Session::new(open(&opts).expect("opens"), Some(offer), opts);
    press(&mut s, KeyCode::Char('q'));
    assert!(s.should_quit());

    // A finished newest autosave is not offered.
    let mut g: Box<dyn Playable> =
        Game::from_fen("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", GameOptions::default())
            .expect("FEN")
            .into();
    g.play("e7e8").expect("legal");
    let done = SavedGame::of(g.as_ref(), &ann_and_bo(), "2026-11-23T17:00:00Z");
    let later = record::autosave_path(&data, "20261123-170000", "d4e5f6");
    std::thread::sleep(std::time::Duration::from_millis(20));
    qchess::files::write_atomic(&later, &done.to_toml()).expect("write");
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
        open: qchess::ui::open::Open::Resume,
        ..session_opts(data)
    };
    let mut app = open(&opts).expect("resumes");
    assert!(app.quantum().is_some(), "a quantum game");
    assert_eq!(
        app.message().text,
        "resumed game-20261123-164000-a1b2c3.toml at ply 2: white to move; passed over newer \
         game-20261126-000000-dddddd.toml (unreadable) and 2 more"
    );
    let s = screen(&mut *app, 80, 24);
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
    let Some(t) = app.typed_line() else {
        panic!("the save line is open");
    };
    let line = t.line();
    assert_eq!(t.purpose(), Purpose::SavePath);
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
    both("save_create_folder", &mut app);
    assert!(!home.join("games").exists());
    // No: back to the line, with the text, to fix it.
    keys(&mut app, "n");
    assert!(app
        .typed_line()
        .is_some_and(|t| t.line().text() == "~/games/mine.toml"));
    assert_eq!(app.message().tone, Tone::Error);
    press(&mut app, KeyCode::Enter);
    keys(&mut app, "y");
    assert_eq!(app.message().tone, Tone::Info, "{}", app.message().text);
    assert!(app.typed_line().is_none());
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
    both("save_long_path", &mut app);
    // The typed line is the message area's first row (the hint flows on below it).
    let typed = |s: String| {
        s.lines()
            .find(|l| l.contains("save to: "))
            .unwrap_or_default()
            .to_string()
    };
    let end = typed(screen(&mut app, 80, 24));
    assert!(end.contains("ann-vs-bo-final.toml"), "{end}");
    assert!(!end.contains("/srv/games"), "the start scrolled out: {end}");
    press(&mut app, KeyCode::Home);
    let start = typed(screen(&mut app, 80, 24));
    assert!(start.contains("save to: /srv/games"), "{start}");
}

/// The words of `text` that `reads` takes for a move: the example moves it shows.
fn example_words(text: &str, reads: &dyn Fn(&str) -> bool) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || ",;()`|\"".contains(c))
        .map(|w| w.trim_start_matches(':').trim_end_matches([':', '.']))
        .filter(|w| w.chars().any(|c| c.is_ascii_digit()) && reads(w))
        .map(str::to_string)
        .collect()
}

/// The docs' paragraph (or list item) that starts with a line holding `marker` (the
/// README and the pages in docs/).
fn readme_paragraph(marker: &str) -> String {
    readme_lines(marker, None)
}

/// The README and every page in docs/, one after the other.
fn docs_text() -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    for dir in [root.join("docs"), root.join("docs/rules")] {
        let mut found: Vec<_> = std::fs::read_dir(&dir)
            .expect("docs/")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        found.sort();
        pages.extend(found);
    }
    pages
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("a docs page") + "\n")
        .collect()
}

/// The docs' lines from the one holding `marker` to the end of its paragraph (or list
/// item), or to the first line holding `last`.
fn readme_lines(marker: &str, last: Option<&str>) -> String {
    let readme = docs_text();
    let lines: Vec<&str> = readme.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains(marker))
        .unwrap_or_else(|| panic!("no docs page has a line with {marker:?}"));
    let mut out = vec![lines[at]];
    for l in &lines[at + 1..] {
        if l.trim().is_empty() || l.starts_with("* ") || l.starts_with('|') {
            break;
        }
        out.push(l);
        if last.is_some_and(|last| l.contains(last)) {
            break;
        }
    }
    out.join("\n")
}

/// Plays every example move of each `(where, text)` from the position it is shown for:
/// `setups[0]` (the start) after the examples before it in the same text, or any of
/// `setups` (a pawn about to promote, castling, en passant).
fn examples_play<G: Clone>(
    texts: &[(&str, String)],
    reads: &dyn Fn(&str) -> bool,
    setups: &[G],
    play: &dyn Fn(&mut G, &str) -> bool,
) {
    for (place, text) in texts {
        let words = example_words(text, reads);
        assert!(!words.is_empty(), "{place}: no example move in {text:?}");
        let mut shown = setups[0].clone();
        for w in &words {
            let mut after = shown.clone();
            if play(&mut after, w) {
                shown = after;
                continue;
            }
            let anywhere = setups.iter().any(|s| play(&mut s.clone(), w));
            assert!(
                anywhere,
                "{place}: the example {w} is not a legal move ({text:?})"
            );
        }
    }
}

/// The `:` key's help in a key map.
fn colon_help(map: &[qchess::ui::input::Binding]) -> String {
    let b = map.iter().find(|b| b.label == ":").expect("a : key");
    b.help.to_string()
}

#[test]
fn every_example_move_shown_is_legal_where_it_is_shown() {
    use qchess::chess::{notation, san};
    let free = GameOptions {
        free_turns: true,
        ..GameOptions::default()
    };
    let mut a = App::new(standard(), Paint::new(Theme::default(), Tier::None), false);
    keys(&mut a, ":");
    let refused = Game::standard(free).read("zz").unwrap_err().to_string();
    let texts = [
        ("help", colon_help(qchess::ui::input::KEYMAP)),
        ("the move line", a.message().text.clone()),
        ("a refusal", refused),
        ("docs, keys", readme_paragraph("type a move in notation")),
        ("README, keys", readme_paragraph("type a move (`e2e4`")),
        ("the rules page", RuleSet::Quantum.short_rules().join(" ")),
        (
            "README, SAN",
            // The forms, not the refusals the paragraph goes on with.
            readme_lines("**Standard algebraic notation.**", Some("`O-O-O`")),
        ),
    ];
    let setups = [
        Game::standard(free),
        Game::from_fen("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", free).unwrap(),
        Game::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", free).unwrap(),
        // Captures and names of sources: exd5, Nbd2, R1a3.
        Game::from_fen("4k3/8/8/R2p4/4P3/5N2/8/RN2K3 w - - 0 1", free).unwrap(),
    ];
    examples_play(
        &texts,
        &|w| notation::parse(w).is_ok() || san::parse(w).is_some(),
        &setups,
        &|g, w| g.read(w).is_ok_and(|t| g.play_text(w, &t).is_ok()),
    );
}

/// A variant game that can be copied.
struct Copied(Box<dyn qchess::game::Playable>);

impl Clone for Copied {
    fn clone(&self) -> Self {
        Copied(self.0.clone_box())
    }
}

fn variant_setup(rules: RuleSet, fen: Option<&str>, moves: &[&str]) -> Copied {
    let mut g = new_game(&Setup::with_start(rules, fen, 1)).expect("starts");
    for m in moves {
        g.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    Copied(g)
}

/// The `:` line's words and a refusal's, in a variant game.
fn variant_texts(rules: RuleSet, readme: &[&str]) -> Vec<(&'static str, String)> {
    let mut a = App::new(
        new_game(&Setup::with_start(rules, None, 1)).expect("starts"),
        Paint::new(Theme::default(), Tier::None),
        false,
    );
    press(&mut a, KeyCode::Char(':'));
    let refused = new_game(&Setup::with_start(rules, None, 1))
        .unwrap()
        .play("zz")
        .unwrap_err();
    let mut texts = vec![
        ("help", colon_help(qchess::ui::input::VARIANT_KEYMAP)),
        ("the move line", a.message().text.clone()),
        ("a refusal", refused.to_string()),
        ("the rules page", rules.short_rules().join(" ")),
    ];
    texts.extend(readme.iter().map(|m| ("README", readme_paragraph(m))));
    texts
}

#[test]
fn every_harmonics_example_move_is_legal_where_it_is_shown() {
    let h = RuleSet::Harmonics;
    let texts = variant_texts(
        h,
        &["quantum moves b1~", "**Ordinary move**", "**Quantum move**"],
    );
    let setups = [
        variant_setup(h, None, &[]),
        variant_setup(h, Some("k7/4P3/8/8/8/8/8/4K3 w - - 0 1"), &[]),
        variant_setup(h, Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1"), &[]),
        variant_setup(h, Some("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"), &[]),
    ];
    let notation = |w: &str| qchess::variants::harmonics::notation::parse(w).is_ok();
    examples_play(
        &texts,
        &|w| notation(w) || qchess::chess::san::parse(w).is_some(),
        &setups,
        &|g, w| {
            let mv = match qchess::variants::harmonics::san::read(g.0.as_ref(), w) {
                Some(Ok(mv)) if !notation(w) => mv,
                _ => w.to_string(),
            };
            g.0.play(&mv).is_ok()
        },
    );
}

/// A haft game where white's pawn stands on e7 with e8 empty, white to move.
const HAFT_PROMOTION: &[&str] = &[
    "d2d4", "e7e5", "d4e5", "e8e7", "e5e6", "e7d6", "e6e7", "d6d5",
];

#[test]
fn every_haft_example_move_is_legal_where_it_is_shown() {
    let texts = variant_texts(RuleSet::Haft, &["Moves are long algebraic"]);
    let setups = [
        variant_setup(RuleSet::Haft, None, &[]),
        variant_setup(RuleSet::Haft, None, &["e2e4", "a7a6", "e4e5", "d7d5"]),
        variant_setup(RuleSet::Haft, None, HAFT_PROMOTION),
    ];
    examples_play(
        &texts,
        &|w| w.parse::<qchess::variants::haft::HaftMove>().is_ok(),
        &setups,
        &|g, w| g.0.play(w).is_ok(),
    );
}
