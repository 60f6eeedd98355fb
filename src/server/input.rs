//! The bytes a client's terminal sends, turned into the events the game reads: keys
//! (escape sequences included), SGR mouse reports and bracketed pastes. The sequences
//! themselves are parsed by `terminput` (crossterm's parser); this module feeds it one
//! byte at a time, keeps pastes whole but bounded, and throws away whatever does not
//! parse, so that no input can grow memory or stop the session.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

/// The longest escape sequence kept while waiting for its end; anything longer is
/// garbage and is dropped.
const MAX_SEQUENCE: usize = 64;

/// The most bytes of one paste handed to the game (a move or a file name needs far
/// fewer); the rest of the paste is read and dropped.
pub const MAX_PASTE: usize = 4096;

/// A paste that has not ended after this many bytes is ended here, so that a client
/// that starts a paste and never finishes it gets its keys back.
const PASTE_GIVE_UP: usize = 64 * 1024;

const PASTE_START: &[u8] = b"\x1b[200~";
const PASTE_END: &[u8] = b"\x1b[201~";

/// A paste being read: what is kept of it, how much came, and its last bytes (where
/// the end marker shows up).
#[derive(Debug, Default)]
struct Paste {
    kept: Vec<u8>,
    seen: usize,
    tail: Vec<u8>,
}

/// Turns a client's input bytes into terminal events; the state between two packets
/// is an unfinished escape sequence or paste.
#[derive(Debug, Default)]
pub struct Parser {
    pending: Vec<u8>,
    paste: Option<Paste>,
}

impl Parser {
    /// A parser with nothing pending.
    pub fn new() -> Parser {
        Parser::default()
    }

    /// Drops whatever is pending (after input was thrown away, the next byte starts
    /// afresh).
    pub fn reset(&mut self) {
        self.pending.clear();
        self.paste = None;
    }

    /// Parses one packet of input into `out`. An escape byte alone at the end of the
    /// packet is the Esc key, as terminals send it.
    pub fn feed(&mut self, bytes: &[u8], out: &mut Vec<Event>) {
        for (i, &b) in bytes.iter().enumerate() {
            if self.paste.is_some() {
                self.paste_byte(b, out);
                continue;
            }
            self.pending.push(b);
            if self.pending == PASTE_START {
                self.pending.clear();
                self.paste = Some(Paste::default());
                continue;
            }
            // An escape with more bytes behind it starts a sequence.
            if self.pending == b"\x1b" && i + 1 < bytes.len() {
                continue;
            }
            match terminput::Event::parse_from(&self.pending) {
                Ok(Some(ev)) => {
                    out.extend(convert(ev));
                    self.pending.clear();
                }
                Ok(None) if self.pending.len() <= MAX_SEQUENCE => {}
                Ok(None) | Err(_) => self.pending.clear(),
            }
        }
        if self.pending == b"\x1b" {
            self.pending.clear();
            out.push(Event::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)));
        }
    }

    /// One byte of a paste; the paste ends at its end marker (or when it gave up).
    fn paste_byte(&mut self, b: u8, out: &mut Vec<Event>) {
        let Some(p) = &mut self.paste else {
            return;
        };
        p.seen += 1;
        if p.kept.len() < MAX_PASTE + PASTE_END.len() {
            p.kept.push(b);
        }
        p.tail.push(b);
        if p.tail.len() > PASTE_END.len() {
            p.tail.remove(0);
        }
        let ended = p.tail == PASTE_END;
        if !ended && p.seen < PASTE_GIVE_UP {
            return;
        }
        let mut kept = std::mem::take(&mut p.kept);
        // Everything was kept, the end marker too: take it off. (When bytes were
        // dropped, the marker came after the part kept.)
        if ended && p.seen == kept.len() {
            kept.truncate(kept.len() - PASTE_END.len());
        }
        kept.truncate(MAX_PASTE);
        self.paste = None;
        let text = String::from_utf8_lossy(&kept);
        // Control characters (newlines, escapes) have no place in a typed line.
        let text: String = text.chars().filter(|c| !c.is_control()).collect();
        out.push(Event::Paste(text));
    }
}

/// The crossterm event for a parsed one; events crossterm has no word for are dropped.
fn convert(ev: terminput::Event) -> Option<Event> {
    terminput_crossterm::to_crossterm(ev).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::{KeyEventKind, MouseButton, MouseEventKind};

    fn parse(chunks: &[&[u8]]) -> Vec<Event> {
        let mut p = Parser::new();
        let mut out = Vec::new();
        for c in chunks {
            p.feed(c, &mut out);
        }
        out
    }

    fn key(code: KeyCode) -> Event {
        Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    #[test]
    fn keys_and_escape_sequences() {
        let evs = parse(&[b"e2\r", b"\x1b[A", b"\x1bOB", b"\x7f", b"\t"]);
        assert_eq!(
            evs,
            vec![
                key(KeyCode::Char('e')),
                key(KeyCode::Char('2')),
                key(KeyCode::Enter),
                key(KeyCode::Up),
                key(KeyCode::Down),
                key(KeyCode::Backspace),
                key(KeyCode::Tab),
            ]
        );
        let Event::Key(k) = &evs[0] else {
            panic!("{evs:?}");
        };
        assert_eq!(k.kind, KeyEventKind::Press);
        // Ctrl-C, and a multi-byte character split across packets.
        let evs = parse(&[b"\x03", &"é".as_bytes()[..1], &"é".as_bytes()[1..]]);
        assert_eq!(
            evs,
            vec![
                Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)),
                key(KeyCode::Char('é')),
            ]
        );
    }

    #[test]
    fn escape_alone_is_the_esc_key_and_a_split_sequence_waits() {
        assert_eq!(parse(&[b"\x1b"]), vec![key(KeyCode::Esc)]);
        assert_eq!(
            parse(&[b"\x1b", b"x"]),
            vec![key(KeyCode::Esc), key(KeyCode::Char('x'))]
        );
        // A sequence cut after its introducer goes on in the next packet.
        assert_eq!(parse(&[b"\x1b[", b"D"]), vec![key(KeyCode::Left)]);
    }

    #[test]
    fn sgr_mouse_reports() {
        let evs = parse(&[b"\x1b[<0;10;5M", b"\x1b[<0;10;5m", b"\x1b[<65;3;4M"]);
        let kinds: Vec<_> = evs
            .iter()
            .map(|e| match e {
                Event::Mouse(m) => (m.kind, m.column, m.row),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            kinds,
            vec![
                (MouseEventKind::Down(MouseButton::Left), 9, 4),
                (MouseEventKind::Up(MouseButton::Left), 9, 4),
                (MouseEventKind::ScrollDown, 2, 3),
            ]
        );
    }

    #[test]
    fn pastes_are_whole_bounded_and_clean() {
        assert_eq!(
            parse(&[b"\x1b[200~e2", b"e4\r\n\x1b[201~q"]),
            vec![Event::Paste("e2e4".into()), key(KeyCode::Char('q'))]
        );
        let big = format!("\x1b[200~{}\x1b[201~", "x".repeat(10_000));
        let evs = parse(&[big.as_bytes(), b"q"]);
        assert_eq!(evs.len(), 2, "{:?}", evs.get(1));
        assert_eq!(evs[0], Event::Paste("x".repeat(MAX_PASTE)));
        assert_eq!(evs[1], key(KeyCode::Char('q')));
        // A paste that never ends gives the keys back in the end.
        let endless = [PASTE_START, &vec![b'y'; PASTE_GIVE_UP]].concat();
        let evs = parse(&[&endless, b"q"]);
        assert_eq!(evs.last(), Some(&key(KeyCode::Char('q'))));
    }

    #[test]
    fn garbage_never_sticks() {
        // Broken sequences, invalid UTF-8, an endless CSI: dropped, and the keys after
        // them still arrive.
        let mut junk: Vec<u8> = b"\x1b[999999999999999999;;;;;~\xff\xfe\x1b[<;;M\x1bO".to_vec();
        junk.extend(std::iter::repeat_n(b'1', 10_000));
        let mut p = Parser::new();
        let mut out = Vec::new();
        p.feed(&junk, &mut out);
        p.feed(b"\x1b[", &mut out);
        p.feed(&[b'9'; 200], &mut out);
        assert!(p.pending.len() <= MAX_SEQUENCE);
        out.clear();
        p.feed(b"\x03", &mut out);
        p.feed(b"q", &mut out);
        assert_eq!(out.last(), Some(&key(KeyCode::Char('q'))), "{out:?}");
        // Every byte value, in every position, never panics.
        let all: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
        for start in 0..64 {
            let mut p = Parser::new();
            p.feed(&all[start..], &mut Vec::new());
        }
    }
}
