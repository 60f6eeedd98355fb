//! `qchess learn`: every lesson's task tried wrong and then right through key events,
//! the list of lessons, the progress kept on disk, and the lesson screen's snapshots.

use crate::support::driver::{goto, keys, press, screen, typed};
use crossterm::event::KeyCode;
use qchess::learn::{Progress, LESSONS};
use qchess::style::color::{Paint, Tier};
use qchess::style::theme::Theme;
use qchess::ui::App;

/// The number (from 1) of the lesson named `id`.
fn number(id: &str) -> usize {
    LESSONS
        .iter()
        .position(|l| l.id == id)
        .unwrap_or_else(|| panic!("no lesson {id}"))
        + 1
}

/// Lesson `id` on a screen, its outcomes drawn from `seed`.
fn open(id: &str, seed: u64) -> App {
    lesson(number(id), seed)
}

fn lesson(n: usize, seed: u64) -> App {
    App::learning(
        Some(n),
        Progress::default(),
        None,
        seed,
        (Paint::new(Theme::default(), Tier::None), false),
    )
}

fn done(a: &App) -> bool {
    a.lesson_run().expect("a lesson").done()
}

fn said(a: &App) -> String {
    a.message().text.clone()
}

/// A wrong try: refused with a reason and taken back.
fn refused(a: &mut App, mv: &str, why: &str) {
    let ply = a.game().ply();
    typed(a, mv);
    assert!(!done(a), "{mv}: {}", said(a));
    assert!(said(a).starts_with("not yet: "), "{mv}: {}", said(a));
    assert!(said(a).contains(why), "{mv}: {}", said(a));
    assert_eq!(a.game().ply(), ply, "{mv} was taken back");
}

/// The task met: "Done: ..." with `what`, and the lesson's words and what the move did
/// fit 80x24 without scrolling.
fn met(a: &mut App, what: &str) {
    assert!(done(a), "{}", said(a));
    assert!(said(a).starts_with("Done: "), "{}", said(a));
    assert!(said(a).contains(what), "{}", said(a));
    fits(a);
}

/// The lesson's pane shows all it holds at 80x24.
fn fits(a: &mut App) {
    let shown = screen(a, 80, 24);
    assert!(!shown.contains("PgUp PgDn more"), "{shown}");
}

#[test]
fn every_lesson_is_done_by_its_task_and_refuses_a_wrong_try() {
    assert_eq!(LESSONS.len(), 18);
    for n in 1..=LESSONS.len() {
        fits(&mut lesson(n, 1));
    }

    let mut a = open("win", 1);
    refused(&mut a, "e1e2", "does not take the king");
    goto(&mut a, "e1");
    press(&mut a, KeyCode::Enter);
    goto(&mut a, "e8");
    press(&mut a, KeyCode::Enter);
    met(&mut a, "the king is gone");

    let mut a = open("no-check", 1);
    assert!(screen(&mut a, 80, 24).contains("king attacked: 100% by e8xe1"));
    refused(&mut a, "e1e2", "still be captured: 100% by e8xe2");
    typed(&mut a, "e1d1");
    met(&mut a, "no black move can capture your king");

    let mut a = open("split", 1);
    refused(&mut a, "b1c3", "is not a split of the knight");
    goto(&mut a, "b1");
    keys(&mut a, "s");
    goto(&mut a, "a3");
    press(&mut a, KeyCode::Enter);
    goto(&mut a, "c3");
    press(&mut a, KeyCode::Enter);
    met(&mut a, "50% each");

    let mut a = open("numbers", 1);
    // The pane's words the text explains are the ones drawn beside it.
    let shown = screen(&mut a, 80, 24);
    for words in ["correlated with a3 -1.00", "branches 2  occupancies 2"] {
        assert!(shown.contains(words), "{words}: {shown}");
        assert!(
            a.lesson_run().unwrap().lesson().text.contains(words),
            "{words}"
        );
    }
    refused(&mut a, "c3b5", "is not a split of the half on c3");
    goto(&mut a, "c3");
    keys(&mut a, "s");
    goto(&mut a, "b5");
    press(&mut a, KeyCode::Enter);
    goto(&mut a, "e4");
    press(&mut a, KeyCode::Enter);
    met(&mut a, "b5 25%, e4 25%");

    let mut a = open("merge", 1);
    refused(
        &mut a,
        "a3c3^b5",
        "merged on b5: a whole knight again, but on b5",
    );
    goto(&mut a, "a3");
    keys(&mut a, "m");
    goto(&mut a, "c3");
    press(&mut a, KeyCode::Enter);
    goto(&mut a, "b1");
    press(&mut a, KeyCode::Enter);
    met(&mut a, "certainly on b1");

    let mut a = open("slide-through", 1);
    refused(&mut a, "a1a2", "is not the rook's move from a1 to a5");
    typed(&mut a, "a1a5");
    met(&mut a, "a5 50%, a1 50%");

    // Either answer of the capture's question is right; both are seen over two seeds.
    let mut answers = Vec::new();
    for seed in [1, 2, 3, 4] {
        let mut a = open("capture-asks", seed);
        refused(&mut a, "a3b5", "is not the knight's capture from c3 on d5");
        typed(&mut a, "c3d5");
        met(&mut a, "(50%)");
        answers.push(said(&a).contains("yes (50%)"));
    }
    assert!(
        answers.contains(&true) && answers.contains(&false),
        "{answers:?}"
    );

    let mut a = open("capture-partly", 1);
    refused(&mut a, "e5e6", "is not the pawn's capture from e5 on f6");
    typed(&mut a, "e5f6");
    met(&mut a, "only where it stood on f6: 50%");

    let mut a = open("excluded", 1);
    refused(&mut a, "c2c4", "is not the pawn's step from c2 to c3");
    typed(&mut a, "c2c3");
    met(&mut a, "(50%)");

    let mut a = open("split-onto-itself", 1);
    refused(&mut a, "a4^b4c4", "is not a split onto a6");
    goto(&mut a, "a4");
    keys(&mut a, "s");
    goto(&mut a, "b4");
    press(&mut a, KeyCode::Enter);
    goto(&mut a, "a6");
    press(&mut a, KeyCode::Enter);
    met(&mut a, "a4 50%, b4 25%, a6 25%");

    let mut a = open("merge-partly", 1);
    refused(&mut a, "d4b4", "is not a merge of the rook's halves");
    goto(&mut a, "a4");
    keys(&mut a, "m");
    goto(&mut a, "d4");
    press(&mut a, KeyCode::Enter);
    goto(&mut a, "b4");
    press(&mut a, KeyCode::Enter);
    met(&mut a, "b4 50%, d4 50%: the half on d4 moved once");

    let mut a = open("en-passant", 1);
    refused(&mut a, "e5e6", "is not the en passant capture");
    typed(&mut a, "e5d6");
    met(&mut a, "taken as if it had stepped to d6");

    let mut a = open("promotion", 1);
    refused(&mut a, "b7b8r", "that made a rook");
    goto(&mut a, "b7");
    press(&mut a, KeyCode::Enter);
    goto(&mut a, "b8");
    press(&mut a, KeyCode::Enter);
    keys(&mut a, "q");
    met(&mut a, "a queen now");

    let mut a = open("castling", 1);
    refused(&mut a, "e1f1", "is not castling");
    typed(&mut a, "e1g1");
    met(&mut a, "though the rook on f8 attacks f1");

    let mut a = open("reading", 1);
    keys(&mut a, "f");
    assert!(!done(&a));
    keys(&mut a, "e");
    met(&mut a, "the whole story of a move");
    assert!(a.explanation().is_some());

    // Both answers fit, and each is read out.
    let mut answers = Vec::new();
    for seed in [1, 2, 3, 4] {
        let mut a = open("notation", seed);
        refused(&mut a, "c2c3", "c2c3 is the step as squares only");
        typed(&mut a, "c2wc3");
        met(&mut a, "w, a step onto a square your knight may hold; .m");
        answers.push(said(&a).contains(".m1, its answer yes"));
    }
    assert!(
        answers.contains(&true) && answers.contains(&false),
        "{answers:?}"
    );

    let mut a = open("inspector", 1);
    goto(&mut a, "b1");
    keys(&mut a, "i");
    assert!(!done(&a), "the inspector on b1 is not the task");
    press(&mut a, KeyCode::Esc);
    goto(&mut a, "a3");
    keys(&mut a, "i");
    met(&mut a, "the warm squares are tied to a3: c3.");

    let mut a = open("computer", 1);
    keys(&mut a, "H");
    a.finish_work();
    a.tick();
    met(&mut a, "it is marked * * on the board");
    assert!(
        said(&a).contains("hint for white: "),
        "the hint stays: {}",
        said(&a)
    );
}

#[test]
fn the_list_opens_a_lesson_and_progress_is_kept() {
    let dir = std::env::temp_dir().join(format!("qchess-lessons-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let paint = || (Paint::new(Theme::default(), Tier::None), false);
    let mut a = App::learning(None, Progress::load(&dir), Some(dir.clone()), 1, paint());
    assert_eq!(
        a.lesson_run().unwrap().number(),
        1,
        "a new player starts at lesson 1"
    );
    typed(&mut a, "e1e8");
    assert!(done(&a));
    keys(&mut a, "n");
    assert_eq!(a.lesson_run().unwrap().number(), 2);
    // The list: the first lesson ticked; Down twice and Enter opens lesson 4.
    keys(&mut a, "L");
    let s = screen(&mut a, 80, 24);
    assert!(s.contains(" 1. done  Win by taking the king"), "{s}");
    assert!(s.contains(" 2.       No check"), "{s}");
    press(&mut a, KeyCode::Down);
    press(&mut a, KeyCode::Down);
    press(&mut a, KeyCode::Enter);
    assert_eq!(a.lesson_run().unwrap().number(), 4);
    // Esc closes the list without opening another.
    keys(&mut a, "L");
    press(&mut a, KeyCode::Esc);
    assert_eq!(a.lesson_run().unwrap().number(), 4);
    assert!(!screen(&mut a, 80, 24).contains("Lessons: "));
    // r starts the lesson again; the progress on disk: 1 done, 4 last opened.
    typed(&mut a, "c3b5^e4");
    keys(&mut a, "r");
    assert_eq!(a.game().ply(), 2, "the lesson's own two setup moves");
    let p = Progress::load(&dir);
    assert!(p.is_done(1) && !p.is_done(4));
    assert_eq!(p.last(), Some(4));
    // Opened again without a number, the lessons resume at lesson 4.
    let b = App::learning(None, p, Some(dir.clone()), 1, paint());
    assert_eq!(b.lesson_run().unwrap().number(), 4);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lesson_screens() {
    let mut a = open("capture-asks", 1);
    insta::assert_snapshot!("lesson_80x24", screen(&mut a, 80, 24));
    insta::assert_snapshot!("lesson_120x40", screen(&mut a, 120, 40));
    insta::assert_snapshot!("lesson_60x20", screen(&mut a, 60, 20));
    // At 60x20 the text does not fit: the task shows first and PgDn reads on.
    let top = screen(&mut a, 60, 20);
    assert!(top.contains("PgUp PgDn more"), "{top}");
    assert!(!top.contains("does."), "{top}");
    press(&mut a, KeyCode::PageDown);
    press(&mut a, KeyCode::PageDown);
    let more = screen(&mut a, 60, 20);
    assert!(more.contains("does."), "{more}");
    press(&mut a, KeyCode::PageUp);
    press(&mut a, KeyCode::PageUp);
    assert_eq!(screen(&mut a, 60, 20), top);
    typed(&mut a, "c3d5");
    insta::assert_snapshot!("lesson_done_80x24", screen(&mut a, 80, 24));
    keys(&mut a, "L");
    insta::assert_snapshot!("lesson_list_80x24", screen(&mut a, 80, 24));
    keys(&mut a, "?");
    press(&mut a, KeyCode::Esc);
    keys(&mut a, "?");
    let help = screen(&mut a, 120, 40);
    assert!(help.contains("the next lesson or puzzle"), "{help}");
    assert!(!help.contains("new game (when the game is over)"), "{help}");
}
