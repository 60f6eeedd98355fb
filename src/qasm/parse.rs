//! A reader for the subset of OpenQASM 3 the exporter writes: `qubit`/`bit` registers,
//! gate definitions without parameters, calls with `ctrl @`/`negctrl @` (also with a
//! count, `ctrl(3) @`), `measure` and
//! `if (bit == true|false) { ... }`. Defined gates are expanded down to simulator gates.

use super::gates::builtin;
use crate::quantum::{Control, Gate, QuantumError, Qubit};
use std::collections::HashMap;

/// Why a program could not be read or run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum QasmError {
    /// The text is not in the subset the reader knows.
    #[error("line {line}: {message}")]
    Syntax {
        /// 1-based line of the problem.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// More qubits than the simulator holds.
    #[error("the program declares {0} qubits; the simulator holds at most {max}", max = crate::quantum::MAX_QUBITS)]
    TooManyQubits(usize),
    /// The simulator refused an operation.
    #[error("the simulator refused the program: {0}")]
    Simulation(#[from] QuantumError),
}

/// One statement of a read program, with every gate expanded to a simulator gate.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// A simulator gate on its targets, acting where every control holds.
    Gate {
        /// The gate.
        gate: Gate,
        /// Its targets (global qubit indices).
        targets: Vec<Qubit>,
        /// `ctrl`/`negctrl` conditions, as `Control::Bit`.
        controls: Vec<Control>,
    },
    /// `bit = measure qubit`.
    Measure {
        /// The qubit measured.
        qubit: Qubit,
        /// The bit written.
        bit: usize,
    },
    /// `if (bit == value) { body }`.
    If {
        /// The bit read.
        bit: usize,
        /// The value it is compared with.
        value: bool,
        /// What runs when it matches.
        body: Vec<Stmt>,
    },
}

/// A read program: register sizes (all qubit registers laid end to end, likewise bits)
/// and its statements.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Program {
    /// Number of qubits.
    pub qubits: usize,
    /// Number of classical bits.
    pub bits: usize,
    /// The statements, in order.
    pub body: Vec<Stmt>,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Num(f64),
    Str(String),
    Sym(&'static str),
}

const SYMBOLS: [&str; 15] = [
    "==", ";", ",", "[", "]", "(", ")", "{", "}", "@", "=", "+", "-", "*", "/",
];

/// Most qubits (and, apart, most bits) a program may declare. Far more than the
/// simulator runs ([`crate::quantum::MAX_QUBITS`], checked when it runs), but a bound,
/// so that sizes never overflow.
const MAX_DECLARED: usize = 1 << 20;

fn syntax(line: usize, message: impl Into<String>) -> QasmError {
    QasmError::Syntax {
        line,
        message: message.into(),
    }
}

fn tokenize(src: &str) -> Result<Vec<(Tok, usize)>, QasmError> {
    let chars: Vec<char> = src.chars().collect();
    let (mut i, mut line) = (0, 1);
    let mut out = Vec::new();
    while i < chars.len() {
        let c = chars[i];
        let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if rest == "//" {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if rest == "/*" {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                line += (chars[i] == '\n') as usize;
                i += 1;
            }
            i += 2;
        } else if c.is_ascii_alphabetic() || c == '_' || c == 'π' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            i = i.max(start + 1);
            out.push((Tok::Ident(chars[start..i].iter().collect()), line));
        } else if c.is_ascii_digit() || c == '.' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_ascii_digit()
                    || chars[i] == '.'
                    || matches!(chars[i], 'e' | 'E')
                    || (matches!(chars[i], '+' | '-') && matches!(chars[i - 1], 'e' | 'E')))
            {
                i += 1;
            }
            let text: String = chars[start..i].iter().collect();
            let v = text
                .parse()
                .map_err(|_| syntax(line, format!("\"{text}\" is not a number")))?;
            out.push((Tok::Num(v), line));
        } else if c == '"' {
            let start = i + 1;
            i = start;
            while i < chars.len() && chars[i] != '"' && chars[i] != '\n' {
                i += 1;
            }
            if chars.get(i) != Some(&'"') {
                return Err(syntax(line, "unterminated string"));
            }
            out.push((Tok::Str(chars[start..i].iter().collect()), line));
            i += 1;
        } else if let Some(s) = SYMBOLS.iter().find(|s| rest.starts_with(**s)) {
            out.push((Tok::Sym(s), line));
            i += s.len();
        } else {
            return Err(syntax(line, format!("unexpected character '{c}'")));
        }
    }
    Ok(out)
}

/// A gate call before its operands are resolved: modifiers (true = `ctrl`), name,
/// angles and operand names.
#[derive(Clone, Debug)]
struct Call {
    mods: Vec<bool>,
    name: String,
    params: Vec<f64>,
    args: Vec<(String, Option<usize>)>,
    line: usize,
}

#[derive(Clone, Debug)]
struct GateDef {
    qubits: Vec<String>,
    body: Vec<Call>,
}

struct Parser {
    toks: Vec<(Tok, usize)>,
    pos: usize,
    gates: HashMap<String, GateDef>,
    qregs: HashMap<String, (usize, usize)>,
    cregs: HashMap<String, (usize, usize)>,
    program: Program,
}

/// Reads a program in the exporter's subset of OpenQASM 3.
pub fn parse(src: &str) -> Result<Program, QasmError> {
    let mut p = Parser {
        toks: tokenize(src)?,
        pos: 0,
        gates: HashMap::new(),
        qregs: HashMap::new(),
        cregs: HashMap::new(),
        program: Program::default(),
    };
    p.header()?;
    let body = p.block(false)?;
    p.program.body = body;
    Ok(p.program)
}

impl Parser {
    fn line(&self) -> usize {
        self.toks
            .get(self.pos)
            .or(self.toks.last())
            .map_or(1, |t| t.1)
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }

    fn next(&mut self) -> Result<Tok, QasmError> {
        let t = self
            .toks
            .get(self.pos)
            .map(|t| t.0.clone())
            .ok_or_else(|| syntax(self.line(), "unexpected end of the program"))?;
        self.pos += 1;
        Ok(t)
    }

    fn eat(&mut self, sym: &str) -> bool {
        if self.peek() == Some(&Tok::Sym(symbol(sym))) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, sym: &str) -> Result<(), QasmError> {
        if self.eat(sym) {
            Ok(())
        } else {
            Err(syntax(self.line(), format!("expected '{sym}'")))
        }
    }

    fn ident(&mut self) -> Result<String, QasmError> {
        let line = self.line();
        match self.next()? {
            Tok::Ident(s) => Ok(s),
            t => Err(syntax(line, format!("expected a name, found {t:?}"))),
        }
    }

    fn index(&mut self) -> Result<usize, QasmError> {
        let line = self.line();
        match self.next()? {
            Tok::Num(v) if v >= 0.0 && v.fract() == 0.0 => Ok(v as usize),
            t => Err(syntax(
                line,
                format!("expected a whole number, found {t:?}"),
            )),
        }
    }

    /// `OPENQASM 3[.0];` and `include "stdgates.inc";`.
    fn header(&mut self) -> Result<(), QasmError> {
        if self.peek() == Some(&Tok::Ident("OPENQASM".into())) {
            self.pos += 1;
            let line = self.line();
            match self.next()? {
                Tok::Num(v) if (3.0..4.0).contains(&v) => {}
                _ => return Err(syntax(line, "only OPENQASM 3 is read")),
            }
            self.expect(";")?;
        }
        Ok(())
    }

    /// Statements up to the end (or up to `}` inside an `if`).
    fn block(&mut self, nested: bool) -> Result<Vec<Stmt>, QasmError> {
        let mut out = Vec::new();
        loop {
            match self.peek() {
                None if nested => return Err(syntax(self.line(), "missing '}'")),
                None => return Ok(out),
                Some(Tok::Sym("}")) if nested => {
                    self.pos += 1;
                    return Ok(out);
                }
                _ => self.statement(nested, &mut out)?,
            }
        }
    }

    fn statement(&mut self, nested: bool, out: &mut Vec<Stmt>) -> Result<(), QasmError> {
        let line = self.line();
        let word = match self.peek() {
            Some(Tok::Ident(w)) => w.clone(),
            t => return Err(syntax(line, format!("unexpected {t:?}"))),
        };
        let top_only = matches!(word.as_str(), "include" | "gate" | "qubit" | "bit");
        if top_only && nested {
            return Err(syntax(
                line,
                format!("\"{word}\" is not allowed inside an if"),
            ));
        }
        match word.as_str() {
            "include" => {
                self.pos += 1;
                match self.next()? {
                    Tok::Str(s) if s == "stdgates.inc" => {}
                    _ => return Err(syntax(line, "only \"stdgates.inc\" can be included")),
                }
                self.expect(";")
            }
            "gate" => {
                self.pos += 1;
                self.gate_def()
            }
            "qubit" | "bit" => {
                self.pos += 1;
                self.register(word == "qubit")
            }
            "if" => {
                self.pos += 1;
                self.expect("(")?;
                let bit = self.operand(false)?;
                self.expect("==")?;
                let value = match self.next()? {
                    Tok::Ident(w) if w == "true" => true,
                    Tok::Ident(w) if w == "false" => false,
                    Tok::Num(v) if v == 0.0 || v == 1.0 => v == 1.0,
                    _ => return Err(syntax(line, "a bit is compared with true, false, 0 or 1")),
                };
                self.expect(")")?;
                self.expect("{")?;
                let body = self.block(true)?;
                if self.peek() == Some(&Tok::Ident("else".into())) {
                    return Err(syntax(self.line(), "else blocks are not read"));
                }
                out.push(Stmt::If { bit, value, body });
                Ok(())
            }
            _ if self.toks.get(self.pos + 1).map(|t| &t.0) == Some(&Tok::Sym("["))
                && self.cregs.contains_key(&word) =>
            {
                let bit = self.operand(false)?;
                self.expect("=")?;
                if self.ident()? != "measure" {
                    return Err(syntax(line, "expected measure"));
                }
                let qubit = self.operand(true)? as Qubit;
                self.expect(";")?;
                out.push(Stmt::Measure { qubit, bit });
                Ok(())
            }
            _ => {
                let call = self.call()?;
                let qubits = call
                    .args
                    .iter()
                    .map(|(name, idx)| self.resolve(name, *idx, call.line))
                    .collect::<Result<Vec<_>, _>>()?;
                self.expand(&call, &qubits, &[], out)
            }
        }
    }

    /// `qubit[N] name;` or `bit[N] name;`.
    fn register(&mut self, quantum: bool) -> Result<(), QasmError> {
        let size = if self.eat("[") {
            let n = self.index()?;
            self.expect("]")?;
            n
        } else {
            1
        };
        let line = self.line();
        let name = self.ident()?;
        self.expect(";")?;
        let (regs, count) = if quantum {
            (&mut self.qregs, &mut self.program.qubits)
        } else {
            (&mut self.cregs, &mut self.program.bits)
        };
        let total = count
            .checked_add(size)
            .filter(|&t| t <= MAX_DECLARED)
            .ok_or_else(|| {
                syntax(
                    line,
                    format!("register \"{name}\" is too large: at most {MAX_DECLARED} qubits or bits in all"),
                )
            })?;
        if regs.insert(name.clone(), (*count, size)).is_some() {
            return Err(syntax(
                line,
                format!("register \"{name}\" is declared twice"),
            ));
        }
        *count = total;
        Ok(())
    }

    /// `name[i]` of a qubit (or bit) register, as a global index.
    fn operand(&mut self, quantum: bool) -> Result<usize, QasmError> {
        let line = self.line();
        let name = self.ident()?;
        let idx = if self.eat("[") {
            let i = self.index()?;
            self.expect("]")?;
            Some(i)
        } else {
            None
        };
        if quantum {
            self.resolve(&name, idx, line)
        } else {
            lookup(&self.cregs, &name, idx, line, "bit")
        }
    }

    fn resolve(&self, name: &str, idx: Option<usize>, line: usize) -> Result<usize, QasmError> {
        lookup(&self.qregs, name, idx, line, "qubit")
    }

    /// `gate name a, b { calls }`.
    fn gate_def(&mut self) -> Result<(), QasmError> {
        let line = self.line();
        let name = self.ident()?;
        if self.peek() == Some(&Tok::Sym("(")) {
            return Err(syntax(
                line,
                "gate definitions with parameters are not read",
            ));
        }
        let mut qubits = vec![self.ident()?];
        while self.eat(",") {
            qubits.push(self.ident()?);
        }
        self.expect("{")?;
        let mut body = Vec::new();
        while !self.eat("}") {
            let call = self.call()?;
            for (arg, idx) in &call.args {
                if idx.is_some() || !qubits.contains(arg) {
                    return Err(syntax(
                        call.line,
                        format!("\"{arg}\" is not a qubit of gate {name}"),
                    ));
                }
            }
            body.push(call);
        }
        if builtin(&name).is_some() || self.gates.contains_key(&name) {
            return Err(syntax(line, format!("gate \"{name}\" is already defined")));
        }
        self.gates.insert(name, GateDef { qubits, body });
        Ok(())
    }

    /// `[ctrl[(n)] @ | negctrl[(n)] @]* name[(angles)] operands;`.
    fn call(&mut self) -> Result<Call, QasmError> {
        let line = self.line();
        let mut mods = Vec::new();
        let mut name = self.ident()?;
        while name == "ctrl" || name == "negctrl" {
            let n = if self.eat("(") {
                let n = self.index()?;
                self.expect(")")?;
                n
            } else {
                1
            };
            // No gate has more operands than the simulator has qubits.
            if n == 0 || mods.len() + n > crate::quantum::MAX_QUBITS {
                return Err(syntax(
                    line,
                    format!(
                        "{name}({n}): a gate has 1 to {} controls",
                        crate::quantum::MAX_QUBITS
                    ),
                ));
            }
            self.expect("@")?;
            mods.extend(std::iter::repeat_n(name == "ctrl", n));
            name = self.ident()?;
        }
        let mut params = Vec::new();
        if self.eat("(") {
            params.push(self.expr()?);
            while self.eat(",") {
                params.push(self.expr()?);
            }
            self.expect(")")?;
        }
        let mut args = Vec::new();
        loop {
            let arg = self.ident()?;
            let idx = if self.eat("[") {
                let i = self.index()?;
                self.expect("]")?;
                Some(i)
            } else {
                None
            };
            args.push((arg, idx));
            if !self.eat(",") {
                break;
            }
        }
        self.expect(";")?;
        Ok(Call {
            mods,
            name,
            params,
            args,
            line,
        })
    }

    /// Expands a call on resolved qubits, under the outer controls, into simulator gates.
    fn expand(
        &self,
        call: &Call,
        qubits: &[usize],
        outer: &[Control],
        out: &mut Vec<Stmt>,
    ) -> Result<(), QasmError> {
        let line = call.line;
        let mut sorted = qubits.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != qubits.len() {
            return Err(syntax(
                line,
                format!("gate {} uses a qubit twice", call.name),
            ));
        }
        let n = call.mods.len();
        if qubits.len() < n {
            return Err(syntax(line, "fewer operands than control modifiers"));
        }
        let mut controls = outer.to_vec();
        controls.extend(
            call.mods
                .iter()
                .zip(qubits)
                .map(|(&v, &q)| Control::Bit(q as Qubit, v)),
        );
        let rest = &qubits[n..];
        if let Some(b) = builtin(&call.name) {
            if call.params.len() != b.params {
                return Err(syntax(
                    line,
                    format!("gate {} takes {} angle(s)", call.name, b.params),
                ));
            }
            let gate = (b.gate)(&call.params);
            let (ctl, targets) = rest.split_at(b.controlled as usize);
            if targets.len() != gate.arity() {
                return Err(syntax(
                    line,
                    format!(
                        "gate {} takes {} qubit(s)",
                        call.name,
                        gate.arity() + ctl.len()
                    ),
                ));
            }
            controls.extend(ctl.iter().map(|&q| Control::Bit(q as Qubit, true)));
            out.push(Stmt::Gate {
                gate,
                targets: targets.iter().map(|&q| q as Qubit).collect(),
                controls,
            });
            return Ok(());
        }
        let def = self
            .gates
            .get(&call.name)
            .ok_or_else(|| syntax(line, format!("unknown gate \"{}\"", call.name)))?;
        if !call.params.is_empty() || rest.len() != def.qubits.len() {
            return Err(syntax(
                line,
                format!(
                    "gate {} takes {} qubit(s) and no angle",
                    call.name,
                    def.qubits.len()
                ),
            ));
        }
        for inner in &def.body {
            let local: Vec<usize> = inner
                .args
                .iter()
                .map(|(a, _)| {
                    let k = def.qubits.iter().position(|d| d == a);
                    rest[k.expect("operands were checked when the gate was defined")]
                })
                .collect();
            self.expand(inner, &local, &controls, out)?;
        }
        Ok(())
    }

    /// An angle: numbers and `pi` with + - * / and parentheses.
    fn expr(&mut self) -> Result<f64, QasmError> {
        let mut v = self.term()?;
        loop {
            if self.eat("+") {
                v += self.term()?;
            } else if self.eat("-") {
                v -= self.term()?;
            } else {
                return Ok(v);
            }
        }
    }

    fn term(&mut self) -> Result<f64, QasmError> {
        let mut v = self.unary()?;
        loop {
            if self.eat("*") {
                v *= self.unary()?;
            } else if self.eat("/") {
                v /= self.unary()?;
            } else {
                return Ok(v);
            }
        }
    }

    fn unary(&mut self) -> Result<f64, QasmError> {
        if self.eat("-") {
            return Ok(-self.unary()?);
        }
        let line = self.line();
        match self.next()? {
            Tok::Num(v) => Ok(v),
            Tok::Ident(s) if s == "pi" || s == "π" => Ok(std::f64::consts::PI),
            Tok::Sym("(") => {
                let v = self.expr()?;
                self.expect(")")?;
                Ok(v)
            }
            t => Err(syntax(line, format!("expected an angle, found {t:?}"))),
        }
    }
}

/// The `&'static str` of a symbol (so tokens compare by value).
fn symbol(s: &str) -> &'static str {
    SYMBOLS.iter().find(|x| **x == s).copied().unwrap_or("")
}

fn lookup(
    regs: &HashMap<String, (usize, usize)>,
    name: &str,
    idx: Option<usize>,
    line: usize,
    what: &str,
) -> Result<usize, QasmError> {
    let &(offset, size) = regs
        .get(name)
        .ok_or_else(|| syntax(line, format!("no {what} register \"{name}\"")))?;
    match idx {
        Some(i) if i < size => Ok(offset + i),
        None if size == 1 => Ok(offset),
        Some(i) => Err(syntax(
            line,
            format!("{name}[{i}] is past the end ({size})"),
        )),
        None => Err(syntax(line, format!("{name} needs an index"))),
    }
}
