//! The gate vocabulary of the export: the simulator's gates by their OpenQASM names, the
//! definitions of the iSWAP family, and the standard gates the reader knows.

use crate::quantum::Gate;
use std::f64::consts::FRAC_PI_2;

/// Definitions, on top of `stdgates.inc`, of the two-qubit gates the chess circuits use.
/// Each is exact, global phase included, so `ctrl @` of it is the controlled gate.
pub const DEFINITIONS: &str = "\
// iSWAP, as in qiskit: |01> -> i|10>, |10> -> i|01>; |00> and |11> unchanged.
gate iswap a, b { s a; s b; h a; cx a, b; cx b, a; h b; }
// The inverse of iSWAP: |01> -> -i|10>, |10> -> -i|01>.
gate iswapdg a, b { h b; cx b, a; cx a, b; h a; sdg b; sdg a; }
// The square root of iSWAP, exp(i pi/8 (XX + YY)): |01> -> (|01> + i|10>)/sqrt2.
gate sqiswap a, b {
  h a; h b; cx a, b; rz(-pi/4) b; cx a, b; h a; h b;
  rx(-pi/2) a; rx(-pi/2) b; cx a, b; rz(-pi/4) b; cx a, b; rx(pi/2) a; rx(pi/2) b;
}
// Its inverse, exp(-i pi/8 (XX + YY)): |01> -> (|01> - i|10>)/sqrt2.
gate sqiswapdg a, b {
  rx(-pi/2) a; rx(-pi/2) b; cx a, b; rz(pi/4) b; cx a, b; rx(pi/2) a; rx(pi/2) b;
  h a; h b; cx a, b; rz(pi/4) b; cx a, b; h a; h b;
}
";

/// How a simulator gate is called in the export (name and any angle).
pub fn call(g: Gate) -> String {
    match g {
        Gate::ISwap => "iswap".into(),
        Gate::ISwapInv => "iswapdg".into(),
        Gate::SqrtISwap => "sqiswap".into(),
        Gate::SqrtISwapInv => "sqiswapdg".into(),
        Gate::Swap => "swap".into(),
        Gate::X => "x".into(),
        Gate::H => "h".into(),
        Gate::Z => "z".into(),
        Gate::Phase(p) => format!("p({p:?})"),
        Gate::Ry(t) => format!("ry({t:?})"),
        Gate::Rx(t) => format!("rx({t:?})"),
        Gate::Rz(t) => format!("rz({t:?})"),
    }
}

/// A standard gate the reader runs directly: the simulator gate, its number of angle
/// parameters, and whether its first operand is a control (`cx`).
pub struct Builtin {
    /// The simulator gate, from the angles.
    pub gate: fn(&[f64]) -> Gate,
    /// Number of angles.
    pub params: usize,
    /// `cx`: the first operand controls the gate on the second.
    pub controlled: bool,
}

/// The standard gate of this name, if the reader knows it.
pub fn builtin(name: &str) -> Option<Builtin> {
    let plain = |gate: fn(&[f64]) -> Gate| Builtin {
        gate,
        params: 0,
        controlled: false,
    };
    let angle = |gate: fn(&[f64]) -> Gate| Builtin {
        gate,
        params: 1,
        controlled: false,
    };
    Some(match name {
        "x" => plain(|_| Gate::X),
        "h" => plain(|_| Gate::H),
        "z" => plain(|_| Gate::Z),
        "s" => plain(|_| Gate::Phase(FRAC_PI_2)),
        "sdg" => plain(|_| Gate::Phase(-FRAC_PI_2)),
        "swap" => plain(|_| Gate::Swap),
        "p" => angle(|a| Gate::Phase(a[0])),
        "rx" => angle(|a| Gate::Rx(a[0])),
        "ry" => angle(|a| Gate::Ry(a[0])),
        "rz" => angle(|a| Gate::Rz(a[0])),
        "cx" => Builtin {
            gate: |_| Gate::X,
            params: 0,
            controlled: true,
        },
        _ => return None,
    })
}
