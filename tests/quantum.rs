//! The simulator, one test binary: both backends, factored states, random circuits, the
//! split storms and the OpenQASM export.

mod support;

#[path = "quantum/backends.rs"]
mod backends;
#[path = "quantum/factored.rs"]
mod factored;
#[path = "quantum/props.rs"]
mod props;
#[path = "quantum/qasm.rs"]
mod qasm;
#[path = "quantum/storms.rs"]
mod storms;
