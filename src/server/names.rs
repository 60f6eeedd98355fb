//! Player and room names as the server takes them from SSH: sanitised, short, and
//! never able to draw on a terminal (no control characters, no escape sequences).

use unicode_normalization::UnicodeNormalization;
use unicode_security::{GeneralSecurityProfile, RestrictionLevel, RestrictionLevelDetection};

/// The longest player name kept.
pub const MAX_NAME: usize = 24;

/// The longest room name.
pub const MAX_ROOM: usize = 24;

/// The name a player logs in with (`ssh NAME@host`), made safe to show and hard to
/// pass off as another's: in Unicode's composed form (NFC), keeping only letters and
/// digits that Unicode allows in identifiers (no invisible fillers, no stray combining
/// marks) and `- _ . @ +`, at most [`MAX_NAME`] characters; `None` when nothing is
/// left, when it is `guest` (guests get a name of their own, [`guest`]), or when it
/// mixes scripts the way look-alike names do (a Cyrillic `а` among Latin letters).
pub fn player(login: &str) -> Option<String> {
    let punctuation = |c: char| "-_.@+".contains(c);
    let name: String = login
        .nfc()
        .filter(|&c| punctuation(c) || (c.is_alphanumeric() && c.identifier_allowed()))
        .take(MAX_NAME)
        .collect();
    let letters: String = name.chars().filter(|&c| !punctuation(c)).collect();
    let one_script = letters.check_restriction_level(RestrictionLevel::HighlyRestrictive);
    let reserved = name.eq_ignore_ascii_case("guest") || name.to_lowercase().starts_with("guest-");
    (!name.is_empty() && one_script && !reserved).then_some(name)
}

/// Two keys under which names that look alike are equal (UTS #39's skeleton, where
/// letters of other scripts that look like Latin ones map to them, and case): one
/// with the case folded before the skeleton (`Ice` is `ice`: the skeleton of a capital
/// I is an l), one after it (Greek `ΑΒΕ` is `ABE`: its capitals have Latin
/// prototypes, its small letters do not all). Two names look alike when either key is
/// equal.
pub fn look_alike_keys(name: &str) -> [String; 2] {
    let folded_first: String = unicode_security::skeleton(&name.to_lowercase()).collect();
    let skeleton: String = unicode_security::skeleton(name).collect();
    [folded_first, skeleton.to_lowercase()]
}

/// A name of its own for a guest (whose login name could not be used): `guest-` and
/// six random hex digits.
pub fn guest() -> String {
    let mut bytes = [0u8; 3];
    rand::Rng::fill_bytes(
        &mut rand::rand_core::UnwrapErr(rand::rngs::SysRng),
        &mut bytes,
    );
    format!("guest-{:02x}{:02x}{:02x}", bytes[0], bytes[1], bytes[2])
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

/// The key a room is known by: its name without case (`Aa` and `aA` are one room).
pub fn room_key(name: &str) -> String {
    name.to_ascii_lowercase()
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
        let name = |s: &str| player(s).unwrap_or_else(|| "-none-".into());
        assert_eq!(name("ann"), "ann");
        assert_eq!(name("\x1b[31mbo\x07"), "31mbo");
        assert_eq!(name("a b\nc"), "abc");
        assert_eq!(name("ann@example.org"), "ann@example.org");
        assert_eq!(name(""), "-none-");
        assert_eq!(name("\u{202e}\u{0}"), "-none-");
        assert_eq!(name(&"x".repeat(100)).chars().count(), MAX_NAME);
        assert_eq!(name("Zoë"), "Zoë");
        // One name however its accents are typed.
        assert_eq!(name("Zoe\u{308}"), "Zoë");
        assert_eq!(name("Дмитрий"), "Дмитрий");
        assert_eq!(name("山田たろう"), "山田たろう");
    }

    #[test]
    fn look_alike_names_and_guests_get_no_name_of_their_own() {
        // A Cyrillic a among Latin letters: it would pass for "ann".
        assert_eq!(player("\u{430}nn"), None);
        // Invisible fillers and stray combining marks are dropped.
        assert_eq!(player("ann\u{3164}").as_deref(), Some("ann"));
        assert_eq!(player("\u{3164}").as_deref(), None);
        assert_eq!(player("ann\u{345}").as_deref(), Some("ann"));
        assert_eq!(player("\u{1F600}\u{1F601}"), None, "emoji only");
        for reserved in ["guest", "Guest", "guest-12ab34"] {
            assert_eq!(player(reserved), None, "{reserved}");
        }
        let (a, b) = (guest(), guest());
        assert!(a.starts_with("guest-") && a.len() == 12, "{a}");
        assert_ne!(a, b);
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
