//! The Skat lab screen: snapshots (text only) of the nine-card preset and the toy at
//! 80x24 and 120x40, and what the keys do to the selection, the focus, the shown
//! endgame and quitting.

use crate::support::driver::{keys, press, screen, terminal};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use qchess::quantum::BackendKind;
use qchess::skat::analysis::AnalyzeOptions;
use qchess::skat::cards::Card;
use qchess::skat::encode::EncodingKind;
use qchess::skat::screen::lab::Shown;
use qchess::skat::screen::{builtin_entries, Pane, SkatLab};
use qchess::style::color::{Paint, Tier};
use qchess::style::theme::Theme;
use qchess::ui::Screen;

fn lab_with(start: usize, tier: Tier, options: AnalyzeOptions) -> SkatLab {
    SkatLab::new(
        builtin_entries(),
        start,
        options,
        Paint::new(Theme::default(), tier),
        false,
    )
    .expect("the built-in entries analyse")
}

/// The lab on entry `start` (0 nine-card, 1 five-each, 2 toy), without colour.
fn lab(start: usize) -> SkatLab {
    lab_with(start, Tier::None, AnalyzeOptions::default())
}

fn both(name: &str, lab: &mut SkatLab) {
    insta::assert_snapshot!(format!("{name}_80x24"), screen(lab, 80, 24));
    insta::assert_snapshot!(format!("{name}_120x40"), screen(lab, 120, 40));
}

/// (card, distribution) selected in the shown endgame.
fn selection(lab: &mut SkatLab) -> (Card, usize) {
    match lab.shown() {
        Some(Shown::Endgame(s)) => {
            // The tricks pane always plays the selected card in the selected deal.
            assert_eq!(s.view.tricks.lead, s.analysis.cards[s.card].card);
            assert_eq!(s.view.tricks.distribution, s.distribution);
            (s.analysis.cards[s.card].card, s.distribution)
        }
        other => panic!("an endgame should be shown, not {other:?}"),
    }
}

fn card(name: &str) -> Card {
    name.parse().expect("a card")
}

#[test]
fn nine_card_opens_on_the_recommendation() {
    both("skat_nine_card", &mut lab(0));
}

#[test]
fn nine_card_with_a_selection() {
    let mut l = lab(0);
    // H7 led in distribution 9: a line the defenders lose.
    keys(&mut l, "ljjjjjjjj");
    assert_eq!(selection(&mut l), (card("H7"), 8));
    both("skat_nine_card_h7_d9", &mut l);
}

#[test]
fn toy_shows_each_phase() {
    let mut l = lab(2);
    both("skat_toy", &mut l);
    keys(&mut l, "ll");
    both("skat_toy_phase3", &mut l);
    let Some(Shown::Toy(t)) = l.shown() else {
        panic!("the toy should be shown");
    };
    let branches: Vec<usize> = t.report.phases.iter().map(|p| p.branches).collect();
    assert_eq!(branches, [6, 12, 24, 24, 24, 24, 24, 8]);
    assert_eq!(t.phase, 2);
}

#[test]
fn help_lists_the_keys() {
    let mut l = lab(0);
    keys(&mut l, "?");
    assert!(l.help_shown());
    both("skat_help", &mut l);
    press(&mut l, KeyCode::Esc);
    assert!(!l.help_shown());
}

#[test]
fn arrows_and_vim_keys_move_the_selection() {
    let mut l = lab(0);
    assert_eq!(selection(&mut l), (card("HQ"), 0));
    press(&mut l, KeyCode::Down);
    keys(&mut l, "j");
    assert_eq!(selection(&mut l), (card("HQ"), 2));
    keys(&mut l, "k");
    assert_eq!(selection(&mut l), (card("HQ"), 1));
    press(&mut l, KeyCode::Left);
    assert_eq!(selection(&mut l), (card("H10"), 1));
    keys(&mut l, "h");
    assert_eq!(
        selection(&mut l),
        (card("H10"), 1),
        "stops at the first card"
    );
    keys(&mut l, "lll");
    assert_eq!(selection(&mut l), (card("H7"), 1), "stops at the last card");
    press(&mut l, KeyCode::End);
    assert_eq!(selection(&mut l), (card("H7"), 11));
    press(&mut l, KeyCode::PageDown);
    assert_eq!(
        selection(&mut l),
        (card("H7"), 11),
        "stops at the last distribution"
    );
    press(&mut l, KeyCode::PageUp);
    assert_eq!(selection(&mut l), (card("H7"), 1));
    press(&mut l, KeyCode::Home);
    assert_eq!(selection(&mut l), (card("H7"), 0));
    // The selected distribution's line is drawn, and the pane follows the selection.
    press(&mut l, KeyCode::End);
    let s = screen(&mut l, 80, 24);
    assert!(s.contains("distribution 12 of 12"), "{s}");
    assert!(s.contains("▶ 12   48 lost"), "{s}");
}

#[test]
fn tab_moves_the_focus_and_arrows_then_scroll() {
    let mut l = lab(0);
    assert_eq!(l.focus(), Pane::Probabilities);
    for want in [Pane::Table, Pane::Tricks, Pane::Circuit] {
        press(&mut l, KeyCode::Tab);
        assert_eq!(l.focus(), want);
    }
    press(&mut l, KeyCode::Tab);
    assert_eq!(l.focus(), Pane::Probabilities);
    press(&mut l, KeyCode::BackTab);
    assert_eq!(l.focus(), Pane::Circuit);

    // At 80x24 the circuit is longer than its pane: j scrolls it, the selection stays.
    let before = screen(&mut l, 80, 24);
    keys(&mut l, "jj");
    assert_eq!(l.scroll(Pane::Circuit), 2);
    assert_eq!(selection(&mut l), (card("HQ"), 0));
    let after = screen(&mut l, 80, 24);
    assert_ne!(before, after);
    // Scrolling stops at the end of the text.
    keys(&mut l, &"j".repeat(60));
    screen(&mut l, 80, 24);
    let end = l.scroll(Pane::Circuit);
    assert!(end > 2 && end < 40, "{end}");
    keys(&mut l, "j");
    assert_eq!(l.scroll(Pane::Circuit), end);
    keys(&mut l, "g");
    assert_eq!(l.scroll(Pane::Circuit), 0);
}

/// The index encoding on the dense backend: analyses five-each quickly.
fn fast() -> AnalyzeOptions {
    AnalyzeOptions {
        backend: BackendKind::Dense,
        encoding: EncodingKind::Index,
        ..AnalyzeOptions::default()
    }
}

#[test]
fn presets_switch_by_number_and_by_p() {
    let mut l = lab_with(0, Tier::None, fast());
    assert_eq!(l.entries().len(), 3);
    keys(&mut l, "3");
    assert_eq!(l.current(), 2);
    assert!(matches!(l.shown(), Some(Shown::Toy(_))));
    keys(&mut l, "p");
    assert_eq!(l.current(), 0, "p wraps around");
    assert_eq!(selection(&mut l), (card("HQ"), 0));
    keys(&mut l, "p");
    assert_eq!(l.current(), 1);
    match l.shown() {
        Some(Shown::Endgame(s)) => {
            assert_eq!(s.analysis.deals.len(), 126);
            assert_eq!(s.analysis.recommended().card, card("HA"));
        }
        other => panic!("five-each should be shown, not {other:?}"),
    }
    assert!(screen(&mut l, 120, 40).contains("126 distributions"));
    keys(&mut l, "P");
    assert_eq!(l.current(), 0);
    // The selection in an endgame is kept when coming back to it.
    keys(&mut l, "jl2P");
    assert_eq!(l.current(), 0);
    assert_eq!(selection(&mut l), (card("H7"), 1));
    keys(&mut l, "9");
    assert_eq!(l.current(), 0);
    assert!(
        l.message().text.contains("no endgame 9"),
        "{:?}",
        l.message()
    );
}

#[test]
fn q_and_ctrl_c_quit() {
    let mut l = lab(0);
    assert!(!l.should_quit());
    keys(&mut l, "x");
    assert!(!l.should_quit());
    assert!(l.message().text.contains("'x' does nothing"));
    keys(&mut l, "q");
    assert!(l.should_quit());

    let mut l = lab(2);
    Screen::handle_event(
        &mut l,
        Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)),
    );
    assert!(l.should_quit());

    // With the help open, q closes it and quits.
    let mut l = lab(0);
    keys(&mut l, "?q");
    assert!(l.should_quit() && !l.help_shown());
}

#[test]
fn focused_pane_border_is_lit() {
    use ratatui::style::Color;
    let mut l = lab_with(0, Tier::TrueColor, AnalyzeOptions::default());
    let t = Theme::default();
    let border = |l: &mut SkatLab| {
        // Top left corner of the probabilities pane and of the table pane (80x24).
        let term = terminal(l, 80, 24);
        let b = term.backend().buffer();
        (b[(0, 0)].fg, b[(44, 0)].fg)
    };
    let lit = Color::Rgb(t.title.0, t.title.1, t.title.2);
    let plain = Color::Rgb(t.border.0, t.border.1, t.border.2);
    assert_eq!(border(&mut l), (lit, plain));
    press(&mut l, KeyCode::Tab);
    assert_eq!(border(&mut l), (plain, lit));
}

#[test]
fn ascii_cards_and_a_too_small_terminal() {
    let mut l = SkatLab::new(
        builtin_entries(),
        0,
        AnalyzeOptions::default(),
        Paint::new(Theme::default(), Tier::None),
        true,
    )
    .expect("analyses");
    let s = screen(&mut l, 120, 40);
    assert!(s.contains("HQ") && !s.contains('♥'), "{s}");
    let s = screen(&mut l, 79, 24);
    assert!(s.contains("terminal too small"), "{s}");
}

fn qchess(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_qchess"))
        .args(args)
        .output()
        .expect("qchess runs")
}

#[test]
fn command_line_without_a_terminal() {
    // The lab asked for by name needs a terminal: one line on stderr, exit code 2.
    let out = qchess(&["skat", "tui", "--preset", "toy"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("needs a terminal"), "{err}");
    // A bad preset is reported before that, naming the choices.
    let out = qchess(&["skat", "tui", "--preset", "no-such"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("nine-card, five-each, toy"), "{err}");
    // A bare `qchess skat` into a pipe prints the panes (the toy's report for the toy).
    let out = qchess(&["skat", "--preset", "toy"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("<S_A> = 14.0000"));
    // Subcommands still win over the lab's FILE argument.
    let out = qchess(&["skat", "presets"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("nine-card"));
}

#[test]
fn the_lab_at_80x23_and_too_small_below() {
    let mut l = lab(0);
    insta::assert_snapshot!("skat_nine_card_80x23", screen(&mut l, 80, 23));
    let s = screen(&mut l, 79, 23);
    assert!(s.contains("too small: need 80x23"), "{s}");
    insta::assert_snapshot!("skat_too_small_60x20", screen(&mut l, 60, 20));
    let mut help = lab(0);
    keys(&mut help, "?");
    insta::assert_snapshot!("skat_help_80x23", screen(&mut help, 80, 23));
    let s = screen(&mut l, 80, 22);
    assert!(s.contains("too small: need 80x23"), "{s}");
}

/// Every card named in the screen's text is whole: a suit symbol followed by a rank.
fn cards_are_whole(screen: &str) -> Result<(), String> {
    for line in screen.lines() {
        let chars: Vec<char> = line.chars().collect();
        for (i, c) in chars.iter().enumerate() {
            if !"♣♠♥♦".contains(*c) {
                continue;
            }
            let rank: String = chars[i + 1..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            if !["7", "8", "9", "10", "J", "Q", "K", "A"].contains(&rank.as_str()) {
                return Err(format!("cut card {c}{rank} in {line}"));
            }
        }
    }
    Ok(())
}

#[test]
fn five_each_rows_at_80_columns_never_cut_a_card() {
    let mut l = lab_with(1, Tier::None, fast());
    for (w, h) in [(80, 24), (80, 23), (120, 40)] {
        let s = screen(&mut l, w, h);
        cards_are_whole(&s).unwrap_or_else(|e| panic!("{w}x{h}: {e}\n{s}"));
    }
    insta::assert_snapshot!("skat_five_each_80x24", screen(&mut l, 80, 24));
    // Another distribution selected, further down the list.
    keys(&mut l, "jjjj");
    let s = screen(&mut l, 80, 24);
    cards_are_whole(&s).unwrap_or_else(|e| panic!("{e}\n{s}"));
    assert!(s.contains("▶   5"), "{s}");
    assert!(cards_are_whole("P ♣J ♠1").is_err());
}
