//! Terminal UI timings: one full frame at 120x40, and a move played by key press at
//! 2^12 branches followed by the frame that shows it.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use qchess::chess::{Game, GameOptions, Square};
use qchess::ui::color::{Paint, Tier};
use qchess::ui::theme::Theme;
use qchess::ui::{draw, App};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

/// Twelve splits of different pieces on a board without pawns: 2^12 branches.
const SPLITS: &[&str] = &[
    "b1^a3c3", "g1^f3h3", "b8^a6c6", "g8^f6h6", "c1^d2e3", "f1^e2d3", "c8^d7e6", "f8^e7d6",
    "a1^b1c1", "h1^g1f1", "a8^b8c8", "h8^g8f8",
];

fn big_game() -> Game {
    let opts = GameOptions {
        free_turns: true,
        seed: 1,
        ..GameOptions::default()
    };
    let mut g = Game::from_fen("rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w - - 0 1", opts)
        .expect("the bench FEN is valid");
    for m in SPLITS {
        g.play(m).expect("the bench splits are legal");
    }
    assert_eq!(g.branch_count(), 4096);
    g
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn bench(c: &mut Criterion) {
    let paint = Paint::new(Theme::default(), Tier::TrueColor);
    let mut term = Terminal::new(TestBackend::new(120, 40)).expect("test terminal");

    let start = App::new(Game::standard(GameOptions::default()), paint.clone(), false);
    c.bench_function("frame 120x40, start position", |b| {
        b.iter(|| {
            term.draw(|f| {
                draw(f, &start);
            })
            .expect("draw");
        })
    });

    let game = big_game();
    let big = App::new(game.clone(), paint.clone(), false);
    c.bench_function("frame 120x40, 2^12 branches", |b| {
        b.iter(|| {
            term.draw(|f| {
                draw(f, &big);
            })
            .expect("draw");
        })
    });

    c.bench_function("key to frame: Ke1f2 at 2^12 branches", |b| {
        b.iter_batched(
            || king_picked(App::new(game.clone(), paint.clone(), false)),
            |mut app| {
                app.handle_key(key(KeyCode::Enter));
                assert_eq!(app.game().ply(), SPLITS.len() + 1);
                term.draw(|f| {
                    draw(f, &app);
                })
                .expect("draw");
                app
            },
            BatchSize::LargeInput,
        )
    });
}

/// Walks the cursor to e1, selects the king, moves the cursor to f2: the bench presses
/// Enter there.
fn king_picked(mut app: App) -> App {
    while app.cursor() != Square(4) {
        let code = if app.cursor().rank() > 0 {
            KeyCode::Char('j')
        } else {
            KeyCode::Char('h')
        };
        app.handle_key(key(code));
    }
    app.handle_key(key(KeyCode::Enter));
    app.handle_key(key(KeyCode::Char('k')));
    app.handle_key(key(KeyCode::Char('l')));
    assert_eq!(app.cursor(), Square(13));
    app
}

criterion_group!(benches, bench);
criterion_main!(benches);
