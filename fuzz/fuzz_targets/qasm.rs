//! OpenQASM 3 programs for the project's reader, and small ones run on the simulator.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qchess::quantum::BackendKind;

/// Programs on more qubits are only read (the dense state doubles per qubit).
const MAX_RUN_QUBITS: usize = 12;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(program) = qchess::qasm::parse(text) else {
        return;
    };
    if program.qubits <= MAX_RUN_QUBITS && program.body.len() <= 256 {
        let _ = qchess::qasm::simulate(&program, BackendKind::Sparse, &[], 0);
    }
});
