//! Whether a bench binary runs as a benchmark or as a check.

/// True under `cargo bench`; false when `cargo test` runs each benchmark once (where the
/// benches use small sizes, a test build being many times slower).
pub fn full_run() -> bool {
    std::env::args().any(|a| a == "--bench")
}
