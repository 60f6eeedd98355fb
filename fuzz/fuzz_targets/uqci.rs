//! UQCI lines, as a front end or an engine sends them: every command and engine line
//! that parses prints back as the same thing, and the engine survives any command
//! (searches excepted: they run on threads, and are covered by the tests; positions of
//! up to 8 plies, so a game of splits does not grow past the fuzzer's time limit).
#![no_main]

use libfuzzer_sys::fuzz_target;
use qchess::uqci::engine::{Engine, Flow};
use qchess::uqci::protocol::{Command, Output};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut engine = Engine::new(std::io::sink());
    for line in text.split(['\n', '\r']) {
        if let Some(o) = Output::parse(line) {
            assert_eq!(Output::parse(&o.to_string()), Some(o));
        }
        match Command::parse(line) {
            Some(Command::Go(_) | Command::Quit) | None => {}
            Some(Command::Position { moves, .. }) if moves.len() > 8 => {}
            Some(Command::Invalid(_)) => assert_eq!(engine.line(line), Flow::Continue),
            Some(cmd) => {
                assert_eq!(Command::parse(&cmd.to_string()).as_ref(), Some(&cmd));
                assert_eq!(engine.command(cmd), Flow::Continue);
            }
        }
    }
});
