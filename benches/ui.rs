//! Terminal UI timings: one full frame at 120x40 (at the start, at 2^12 branches, after
//! 200 plies), the attacked-king check, and a move played by key press at 2^12 branches
//! followed by the frame that shows it. And reopening a reviewed game: the file read,
//! the game replayed, the replay screen with its review graph drawn at 80x24.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use qchess::chess::random::seeded_game;
use qchess::chess::threat::king_threat;
use qchess::chess::{Color, Game, GameOptions, Square};
use qchess::style::color::{Paint, Tier};
use qchess::style::theme::Theme;
use qchess::ui::{draw, App};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

#[path = "../tests/support/review_game.rs"]
mod review_game;

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

    let mut long = Game::standard(GameOptions::default());
    for m in seeded_game(0, 200) {
        long.play(&m).expect("the seeded game's moves are legal");
    }
    let long = App::new(long, paint.clone(), false);
    c.bench_function("frame 120x40, after a 200-ply game", |b| {
        b.iter(|| {
            term.draw(|f| {
                draw(f, &long);
            })
            .expect("draw");
        })
    });

    // The attacked-king check the view makes after every move: every capture of a
    // square a king may stand on, played with both answers. Here the white king on f2 is
    // in reach of the black queen, which slid to h4 only where e7 and f6 were empty.
    let mut reach = game.clone();
    for m in ["d8h4", "e1f2"] {
        reach.play(m).expect("the bench moves are legal");
    }
    c.bench_function("king threats of both sides at 2^12 branches", |b| {
        b.iter(|| [Color::White, Color::Black].map(|side| king_threat(&reach, side).map(|t| t.p)))
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

/// A reviewed 80-ply game written to a file once; then reading it, replaying it into
/// the replay screen and drawing the first frame with the graph.
fn reopen(c: &mut Criterion) {
    use qchess::record::{self, Players, SavedGame};
    use qchess::review::{review, Judge};
    use std::sync::atomic::AtomicBool;
    let game = review_game::review_game_played();
    let stop = AtomicBool::new(false);
    let mut saved = SavedGame::of(game.as_ref(), &Players::default(), "");
    saved.review = Some(
        review(
            game.as_ref(),
            Judge::Level(1),
            2,
            None,
            &stop,
            &mut |_, _, _| {},
        )
        .expect("reviewed"),
    );
    let path =
        std::env::temp_dir().join(format!("qchess-bench-review-{}.toml", std::process::id()));
    record::save(&path, &saved).expect("the bench file is written");
    c.bench_function(
        "reopen a reviewed 80-ply game: load, replay, frame 80x24",
        |b| {
            b.iter(|| {
                let saved = record::load(&path).expect("loads");
                let full = saved.replay(&path, None, None).expect("replays");
                let mut app = App::new(full, Paint::new(Theme::default(), Tier::TrueColor), false)
                    .into_replay()
                    .with_review(path.clone(), saved.review);
                let mut t = Terminal::new(TestBackend::new(80, 24)).expect("terminal");
                t.draw(|f| {
                    let drawn = draw(f, &app);
                    assert!(drawn.hits.graph.is_some());
                })
                .expect("draws");
                app.finish_work();
            })
        },
    );
    let _ = std::fs::remove_file(&path);
}

criterion_group!(benches, bench, reopen);
criterion_main!(benches);
