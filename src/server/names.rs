//! Player and room names as the server takes them from SSH: sanitised, short, and
//! never able to draw on a terminal (no control characters, no escape sequences).

/// The longest player name kept.
pub const MAX_NAME: usize = 24;

/// The longest room name.
pub const MAX_ROOM: usize = 24;

/// The name a player logs in with (`ssh NAME@host`), made safe to show: letters,
/// digits and `- _ . @ +` only, at most [`MAX_NAME`] characters; `guest` when nothing
/// is left.
pub fn player(login: &str) -> String {
    let name: String = login
        .chars()
        .filter(|c| c.is_alphanumeric() || "-_.@+".contains(*c))
        .take(MAX_NAME)
        .collect();
    if name.is_empty() {
        "guest".into()
    } else {
        name
    }
}

/// Why a text is not a room name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a room name is 1 to {MAX_ROOM} letters, digits, - or _, starting with a letter or digit")]
pub struct BadRoomName;

/// A room name as typed in the lobby or given as the command of `ssh -t host ROOM`:
/// ASCII letters, digits, `-` and `_`, starting with a letter or a digit, at most
/// [`MAX_ROOM`] characters: it is also the name of the room's files on the server, so
/// it can hold no path and no dot. Surrounding blanks are ignored.
pub fn room(text: &str) -> Result<String, BadRoomName> {
    let name = text.trim();
    let ok_char = |c: char| c.is_ascii_alphanumeric() || "-_".contains(c);
    let starts_well = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric());
    if starts_well && name.len() <= MAX_ROOM && name.chars().all(ok_char) {
        Ok(name.to_string())
    } else {
        Err(BadRoomName)
    }
}

/// A terminal type from a pty request, kept only as far as it is a plain word (it only
/// picks the colour tier).
pub fn term(text: &str) -> String {
    text.chars()
        .take_while(|c| c.is_ascii_graphic())
        .take(64)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_names_are_printable_and_short() {
        assert_eq!(player("ann"), "ann");
        assert_eq!(player("\x1b[31mbo\x07"), "31mbo");
        assert_eq!(player("a b\nc"), "abc");
        assert_eq!(player(""), "guest");
        assert_eq!(player("\u{202e}\u{0}"), "guest");
        assert_eq!(player(&"x".repeat(100)).chars().count(), MAX_NAME);
        assert_eq!(player("Zoë"), "Zoë");
    }

    #[test]
    fn room_names() {
        assert_eq!(room(" room1 ").as_deref(), Ok("room1"));
        assert_eq!(room("Ab-c_d9").as_deref(), Ok("Ab-c_d9"));
        for bad in [
            "",
            "ls /",
            "../etc",
            "a.b",
            "-x",
            "a;b",
            "é",
            &"r".repeat(25),
        ] {
            assert_eq!(room(bad), Err(BadRoomName), "{bad:?}");
        }
    }

    #[test]
    fn terminal_types() {
        assert_eq!(term("xterm-256color"), "xterm-256color");
        assert_eq!(term("xterm\x1b]0;x\x07"), "xterm");
        assert_eq!(term(&"v".repeat(1000)).len(), 64);
    }
}
