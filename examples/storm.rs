//! Plays one of the split storms and prints its time per ply, size and
//! factors; run it under `/usr/bin/time -v` for the peak memory.
//!
//! `cargo run --release --example storm -- split|knight sparse|dense [--single]`
//! (`--single`: one register for the whole state, as before factoring; the default size
//! limits stop it where it would outgrow them).

#[path = "../tests/support/storms.rs"]
mod storms;

use qchess::chess::GameOptions;
use qchess::quantum::{BackendKind, SimulatorSettings};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let storm = match args.first().map(String::as_str) {
        Some("knight") => storms::KNIGHTS,
        _ => storms::SPLIT,
    };
    let backend = match args.get(1).map(String::as_str) {
        Some("dense") => BackendKind::Dense,
        _ => BackendKind::Sparse,
    };
    let single = args.iter().any(|a| a == "--single");
    let opts = GameOptions {
        simulator: SimulatorSettings::on(backend),
        factored: !single,
        ..GameOptions::default()
    };
    let mut g = storm.start(opts);
    let mut times = Vec::new();
    let start = Instant::now();
    for m in storm.moves() {
        let t = Instant::now();
        if let Err(e) = g.play(m) {
            println!("{m}: {e}");
            break;
        }
        times.push(t.elapsed());
    }
    let total = start.elapsed();
    times.sort();
    let median = times
        .get(times.len() / 2)
        .copied()
        .unwrap_or(Duration::ZERO);
    println!(
        "{} on {backend}{}: {} plies in {total:?}, median {median:?}/ply, max {:?}/ply; {} branches in {} factors",
        storm.name,
        if single { " (single register)" } else { "" },
        times.len(),
        times.last().copied().unwrap_or(Duration::ZERO),
        g.branch_count(),
        g.simulator().backend().factor_sizes().len(),
    );
}
