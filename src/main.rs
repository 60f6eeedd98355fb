//! The `qchess` command line.
fn main() {
    println!("qchess {}", env!("CARGO_PKG_VERSION"));
}
