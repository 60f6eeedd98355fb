//! A finished game never changes: after its end, no key, typed move or clock tick
//! changes its result, its reason, its moves or its clocks (a take-back, where the
//! rules allow one, is the one exception, and is left out here).

use crate::support::driver::{press, typed};
use crossterm::event::KeyCode;
use proptest::prelude::*;
use qchess::chess::{Game, GameOptions, Status};
use qchess::seats::strength::Strength;
use qchess::style::color::{Paint, Tier};
use qchess::style::theme::Theme;
use qchess::ui::layers::prompts::Asking;
use qchess::ui::opponent::{Computer, Sides};
use qchess::ui::App;
use std::time::Duration;

/// The time control of the clocked games: 0.6 s each, so that a clock started again
/// after the end would flag within the test.
const CLOCK: &str = "0.01+0";

fn paint() -> Paint {
    Paint::new(Theme::default(), Tier::None)
}

/// White to move, its king on e1 beside black's rook on d2.
fn position() -> Game {
    Game::from_fen("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", GameOptions::default()).unwrap()
}

/// A game that black's computer won by capturing white's king, on a clock or not.
fn lost_to_the_computer(clock: bool) -> App {
    let sides = Sides {
        black: Some(Strength::Level(1)),
        ..Sides::default()
    };
    let mut app = App::new(position(), paint(), false).with_computer(Computer::new(sides, 1));
    if clock {
        app = app.with_clock(CLOCK.parse().unwrap(), None);
    }
    typed(&mut app, "e1e2");
    app.finish_work();
    assert_eq!(app.status(), Status::BlackWins, "{}", app.message().text);
    app
}

/// What a player might do after the end: type a move (one that could be played, one
/// that could not), pick pieces, split, merge, offer a draw or resign and answer,
/// ask for a hint, move the cursor. Left out: `n` (a new game is another game), `w`
/// (it writes files), `R` (a review adds the engine's verdicts, not a result), and
/// `u` (the last one) where take-backs are allowed.
const INPUTS: [Input; 22] = [
    Input::Typed("c4"),
    Input::Typed("e1d1"),
    Input::Typed("e2e3"),
    Input::Typed("d2d1"),
    Input::Key(KeyCode::Char(':')),
    Input::Key(KeyCode::Char('e')),
    Input::Key(KeyCode::Char('2')),
    Input::Key(KeyCode::Enter),
    Input::Key(KeyCode::Esc),
    Input::Key(KeyCode::Char('s')),
    Input::Key(KeyCode::Char('m')),
    Input::Key(KeyCode::Char('X')),
    Input::Key(KeyCode::Char('D')),
    Input::Key(KeyCode::Char('y')),
    Input::Key(KeyCode::Char('H')),
    Input::Key(KeyCode::Char('p')),
    Input::Key(KeyCode::Char('h')),
    Input::Key(KeyCode::Char('k')),
    Input::Key(KeyCode::Char('q')),
    Input::Key(KeyCode::Char('i')),
    Input::Key(KeyCode::Char('?')),
    Input::Key(KeyCode::Char('u')),
];

/// A key pressed, or a move typed on the command line.
#[derive(Clone, Copy, Debug)]
enum Input {
    Key(KeyCode),
    Typed(&'static str),
}

/// Does `seq` after the end, waits past the clock's time, looks at the clocks, and
/// says whether the saved game is still as it was, byte for byte.
fn inputs_change_nothing(app: &mut App, seq: &[usize]) -> Result<(), TestCaseError> {
    let before = app.record().to_toml();
    for &i in seq {
        match INPUTS[i] {
            Input::Key(k) => press(app, k),
            Input::Typed(line) => typed(app, line),
        }
        app.finish_work();
        app.tick();
    }
    std::thread::sleep(Duration::from_millis(700));
    app.tick();
    prop_assert_eq!(app.status(), Status::BlackWins);
    prop_assert_eq!(app.ending(), None);
    prop_assert_eq!(app.record().to_toml(), before);
    Ok(())
}

#[test]
fn a_move_typed_after_the_end_restarts_no_clock() {
    // The game of the report: the computer captured the king, then `:c4`.
    let mut app = lost_to_the_computer(true);
    let before = app.record().to_toml();
    typed(&mut app, "c4");
    assert_eq!(app.message().text, "the game is over: Black wins");
    assert!(!app.clocks().running());
    std::thread::sleep(Duration::from_millis(700));
    app.tick();
    assert_eq!(app.ending(), None, "no flag after the end");
    assert_eq!(app.record().to_toml(), before);
    // The popup and the message line offer no take-back on a clock.
    press(&mut app, KeyCode::Esc);
    assert_eq!(
        app.message().text,
        "the game is over: R review it, n new game, q quit"
    );
}

#[test]
fn off_the_clock_a_game_lost_by_its_moves_may_be_taken_back() {
    let mut app = lost_to_the_computer(false);
    press(&mut app, KeyCode::Esc);
    assert_eq!(
        app.message().text,
        "the game is over: R review it, n new game, u take back, q quit"
    );
    press(&mut app, KeyCode::Char('u'));
    app.finish_work();
    assert_eq!(app.status(), Status::Ongoing, "{}", app.message().text);
    assert_eq!(app.game().ply(), 0);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    /// On a clock every key is pressed, `u` too (no take-backs on a clock).
    #[test]
    fn nothing_changes_a_finished_clocked_game(seq in proptest::collection::vec(0..INPUTS.len(), 1..30)) {
        let mut app = lost_to_the_computer(true);
        inputs_change_nothing(&mut app, &seq)?;
    }

    /// Off the clock, every key but `u` (the take-back the rules allow there).
    #[test]
    fn nothing_changes_a_finished_game(seq in proptest::collection::vec(0..INPUTS.len() - 1, 1..30)) {
        let mut app = lost_to_the_computer(false);
        inputs_change_nothing(&mut app, &seq)?;
    }
}
