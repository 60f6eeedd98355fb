//! PGN between qchess and other chess programs: a classical game as qchess writes it,
//! read by pgn-extract and python-chess, and what they write of it read back by
//! qchess. Each program is run when it is installed; when it is not, its part is
//! skipped and the test says so on standard error.

use qchess::record::pgn;
use qchess::record::{self, SavedGame};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A classical game with both castlings, an en passant capture, a promotion by capture
/// and a move only a second letter tells apart (`Qaxd1`), as a chess site writes it.
const GAME: &str = "1. e4 d5 2. e5 f5 3. exf6 Nxf6 4. Nf3 Bg4 5. Be2 Nc6 6. O-O Qd6 \
                    7. d4 O-O-O 8. c4 dxc4 9. d5 c3 10. dxc6 cxb2 11. cxb7+ Kb8 12. Nc3 \
                    bxa1=Q 13. Bf4 Qaxd1 14. Rxd1 Qxf4 15. Rxd8+ Kxb7 *";

/// Its moves from square to square, as UCI writes them.
const UCI: &str = "e2e4 d7d5 e4e5 f7f5 e5f6 g8f6 g1f3 c8g4 f1e2 b8c6 e1g1 d8d6 d2d4 e8c8 \
                   c2c4 d5c4 d4d5 c4c3 d5c6 c3b2 c6b7 c8b8 b1c3 b2a1q c1f4 a1d1 f1d1 d6f4 \
                   d1d8 b8b7";

/// The position after it.
const FEN: &str = "3R1b1r/pkp1p1pp/5n2/8/5qb1/2N2N2/P3BPPP/6K1 w - - 0 16";

/// A fresh, empty folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("qchess-interop-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).expect("temp dir");
    d
}

/// The game imported by qchess and written as qchess exports it, in `dir`.
fn exported(dir: &Path) -> (SavedGame, PathBuf) {
    let saved = pgn::from_pgn(&pgn::read(GAME).unwrap()[0]).unwrap_or_else(|e| panic!("{e}"));
    let path = dir.join("classical.pgn");
    fs::write(&path, pgn::file::text(&saved)).unwrap();
    (saved, path)
}

/// `program` on the search path, or where Debian puts games (`/usr/games`).
fn installed(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/games")])
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// Runs `program` with `args`: its standard output and standard error.
fn run(program: &Path, args: &[&str]) -> (String, String) {
    let out = Command::new(program).args(args).output().unwrap();
    assert!(out.status.success(), "{}: {:?}", program.display(), out);
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The moves of a game qchess reads from `text`, as UCI writes them.
fn uci_of(text: &str) -> String {
    let games = pgn::read(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let saved = pgn::from_pgn(&games[0]).unwrap_or_else(|e| panic!("{e}\n{text}"));
    saved.moves.join(" ").replace('x', "")
}

#[test]
fn qchess_writes_what_chess_programs_read() {
    let dir = temp_dir("write");
    let (saved, path) = exported(&dir);
    assert_eq!(saved.moves.join(" ").replace('x', ""), UCI);
    let text = fs::read_to_string(&path).unwrap();
    // The tag says which game it is, and stays: other programs are told, not fooled.
    assert!(text.contains("[Variant \"Quantum\"]"), "{text}");
    assert!(!text.contains(".m"), "{text}");
    let Some(program) = installed("pgn-extract") else {
        eprintln!("skipped: pgn-extract is not installed");
        return;
    };
    // pgn-extract replays every move (an illegal one is reported on standard error and
    // its game left out), here writing them as UCI.
    let (out, err) = run(&program, &["-s", "-Wuci", path.to_str().unwrap()]);
    assert_eq!(err, "", "{text}");
    let moves = out.lines().find(|l| l.starts_with("e2e4")).unwrap_or("");
    assert_eq!(moves.to_lowercase(), format!("{UCI} *"), "{out}");
    // What it writes in hyphenated long algebraic and with `ep` marks, qchess reads
    // back to the same moves.
    for form in ["-Wxlalg", "-Welalg"] {
        let (out, err) = run(&program, &["-s", form, path.to_str().unwrap()]);
        assert_eq!(err, "");
        assert_eq!(uci_of(&out), UCI, "{form}\n{out}");
    }
}

#[test]
fn python_chess_reads_what_qchess_writes() {
    let dir = temp_dir("python");
    let (_, path) = exported(&dir);
    let Some(python) = installed("python3") else {
        eprintln!("skipped: python3 is not installed");
        return;
    };
    if !Command::new(&python)
        .args(["-c", "import chess.pgn"])
        .output()
        .is_ok_and(|o| o.status.success())
    {
        eprintln!("skipped: python-chess is not installed (pip install chess)");
        return;
    }
    // python-chess refuses a variant it does not play: the script takes the Variant
    // tag off, reads the game, and writes its errors, its moves, the position after it
    // and the game as python-chess exports it.
    let script = "import io, sys, chess.pgn\n\
        text = open(sys.argv[1], encoding='utf-8').read()\n\
        text = '\\n'.join(l for l in text.splitlines() if not l.startswith('[Variant '))\n\
        game = chess.pgn.read_game(io.StringIO(text))\n\
        print(game.errors)\n\
        print(' '.join(m.uci() for m in game.mainline_moves()))\n\
        print(game.end().board().fen())\n\
        print(game)\n";
    let (out, err) = run(&python, &["-c", script, path.to_str().unwrap()]);
    assert_eq!(err, "");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[..3], ["[]", UCI, FEN], "{out}");
    // python-chess's own export reads back in qchess as the same game.
    assert_eq!(uci_of(&lines[3..].join("\n")), UCI, "{out}");
    let back = dir.join("back.pgn");
    fs::write(&back, lines[3..].join("\n")).unwrap();
    assert_eq!(record::list_games(&back).unwrap()[0].plies, 30);
}
