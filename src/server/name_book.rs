//! Who may use which name on the server. A club member's name belongs to their keys:
//! another key or a client without one asking for it, or for a name that looks like it,
//! is refused and plays under a guest name. A keyless name that looks like one in use by
//! a session now (`асе` in Cyrillic beside Latin `ace`, `Ace` beside `ace`) is refused
//! the same way. Servers before the club kept the names claimed by keys in
//! `server/names.toml`; [`import_claims`] moves them into the club once.

use super::club::{Club, KeyText};
use super::names::look_alike_keys;
use crate::club::{ClubError, MemberId};
use serde::Deserialize;
use std::collections::HashMap;
use std::path::Path;

/// A name and the key it belonged to, as `names.toml` kept them.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
struct Claim {
    name: String,
    /// The key's SHA-256 fingerprint.
    key: String,
}

/// The file of claims servers before the club kept.
#[derive(Debug, Default, Deserialize)]
struct ClaimsFile {
    #[serde(default)]
    claim: Vec<Claim>,
}

/// A name in use by sessions now.
#[derive(Debug)]
struct Live {
    name: String,
    keys: [String; 2],
    sessions: usize,
}

/// Why a name may not be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameRefused {
    /// It is (or looks like) a club member's name, and the client is not them.
    #[error(
        "the name {asked} belongs to another player's key{}",
        like_words(asked, owner)
    )]
    Claimed {
        /// The name asked for.
        asked: String,
        /// The name it is taken as.
        owner: String,
    },
    /// It looks like a name in use now, spelled otherwise.
    #[error("the name {asked} looks like {like}, who is here now")]
    LooksLike {
        /// The name asked for.
        asked: String,
        /// The name in use.
        like: String,
    },
}

fn like_words(asked: &str, owner: &str) -> String {
    if asked == owner {
        String::new()
    } else {
        format!(" (it looks like {owner})")
    }
}

/// The club members' names and the names in use now.
#[derive(Debug, Default)]
pub struct NameBook {
    /// Members' names with their numbers.
    claims: Vec<(String, MemberId)>,
    /// Each look-alike key of a member's name, to its place in `claims`.
    by_key: HashMap<String, usize>,
    live: Vec<Live>,
}

fn alike(a: &[String; 2], b: &[String; 2]) -> bool {
    a[0] == b[0] || a[1] == b[1]
}

impl NameBook {
    /// The book of the members' `names`.
    pub fn new(names: Vec<(String, MemberId)>) -> NameBook {
        let mut book = NameBook::default();
        for (name, member) in names {
            book.claim(&name, member);
        }
        book
    }

    /// The name `asked` (already a valid player name) for a client who is `member`
    /// (none: not a member), or why not. A member's own name comes back as they
    /// spelled it when they joined.
    pub fn take(&self, asked: &str, member: Option<MemberId>) -> Result<String, NameRefused> {
        let keys = look_alike_keys(asked);
        let claimed = keys.iter().find_map(|k| self.by_key.get(k));
        if let Some((name, owner)) = claimed.map(|&i| &self.claims[i]) {
            return if member == Some(*owner) {
                Ok(name.clone())
            } else {
                Err(NameRefused::Claimed {
                    asked: asked.to_string(),
                    owner: name.clone(),
                })
            };
        }
        if let Some(l) = self.live.iter().find(|l| alike(&l.keys, &keys)) {
            if l.name != asked {
                return Err(NameRefused::LooksLike {
                    asked: asked.to_string(),
                    like: l.name.clone(),
                });
            }
        }
        Ok(asked.to_string())
    }

    /// `name` is `member`'s from now on.
    pub fn claim(&mut self, name: &str, member: MemberId) {
        let at = self.claims.len();
        self.claims.push((name.to_string(), member));
        for k in look_alike_keys(name) {
            self.by_key.entry(k).or_insert(at);
        }
    }

    /// `member`'s name is nobody's any more (their account is deleted).
    pub fn forget(&mut self, member: MemberId) {
        let kept: Vec<(String, MemberId)> = self
            .claims
            .drain(..)
            .filter(|(_, m)| *m != member)
            .collect();
        self.by_key.clear();
        for (name, m) in kept {
            self.claim(&name, m);
        }
    }

    /// A session of `name` started.
    pub fn enter(&mut self, name: &str) {
        match self.live.iter_mut().find(|l| l.name == name) {
            Some(l) => l.sessions += 1,
            None => self.live.push(Live {
                name: name.to_string(),
                keys: look_alike_keys(name),
                sessions: 1,
            }),
        }
    }

    /// The name in use now that is `name` with case ignored, as it is spelled.
    pub fn here(&self, name: &str) -> Option<&str> {
        let lower = name.to_lowercase();
        self.live
            .iter()
            .find(|l| l.name.to_lowercase() == lower)
            .map(|l| l.name.as_str())
    }

    /// The member whose name is `name` exactly.
    pub fn member_named(&self, name: &str) -> Option<MemberId> {
        self.claims.iter().find(|(n, _)| n == name).map(|(_, m)| *m)
    }

    /// A session of `name` ended.
    pub fn leave(&mut self, name: &str) {
        if let Some(i) = self.live.iter().position(|l| l.name == name) {
            self.live[i].sessions -= 1;
            if self.live[i].sessions == 0 {
                self.live.swap_remove(i);
            }
        }
    }
}

/// Moves the names claimed by keys in `file` (a `names.toml` of a server before the
/// club) into `club`, each name a member with its key, and renames the file
/// `names.toml.imported`. What the operator should hear about it, if anything. A name
/// whose key already has a member (one key held several names before the club) or that
/// is a member's already is left out, and said.
pub fn import_claims(file: &Path, club: &Club) -> Vec<String> {
    if !file.is_file() {
        return Vec::new();
    }
    let shown = file.display();
    let read = crate::files::read_text(file)
        .map_err(|e| e.to_string())
        .and_then(|t| toml::from_str::<ClaimsFile>(&t).map_err(|e| e.to_string()));
    let claims = match read {
        Ok(f) => f.claim,
        Err(e) => return vec![format!("{shown}: names claimed by keys not read ({e}); mend it and restart to move them into the club")],
    };
    let (mut moved, mut said) = (0, Vec::new());
    for c in claims {
        // The key's text is not in the old file: its fingerprint stands for it until
        // the member adds the key again.
        let key = KeyText {
            fingerprint: c.key.clone(),
            openssh: String::new(),
        };
        match club.join(&c.name, &key, Club::now()) {
            Ok(_) => moved += 1,
            Err(ClubError::NameTaken(_)) => {
                said.push(format!(
                    "{shown}: {} is a club member already; left as it is",
                    c.name
                ));
            }
            Err(ClubError::KeyTaken(_)) => said.push(format!(
                "{shown}: {} not kept: its key {} belongs to another name now",
                c.name, c.key
            )),
            Err(e) => {
                return vec![format!(
                    "{shown}: names claimed by keys not moved into the club: {e}"
                )]
            }
        }
    }
    let done = file.with_extension("toml.imported");
    if let Err(e) = std::fs::rename(file, &done) {
        said.push(format!("{shown}: cannot rename it {}: {e}", done.display()));
    }
    said.insert(
        0,
        format!(
            "{shown}: {moved} names claimed by keys moved into the club ({})",
            done.display()
        ),
    );
    said
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_members_name_is_theirs_whatever_the_spelling() {
        let book = NameBook::new(vec![("vic3".into(), MemberId(7))]);
        for (asked, member) in [("vic3", None), ("vic3", Some(MemberId(8))), ("VIC3", None)] {
            let e = book.take(asked, member).unwrap_err();
            assert!(matches!(e, NameRefused::Claimed { .. }), "{asked}: {e}");
        }
        assert_eq!(
            book.take("Vic3", None).unwrap_err().to_string(),
            "the name Vic3 belongs to another player's key (it looks like vic3)"
        );
        // The member gets their name back as first spelled.
        assert_eq!(book.take("Vic3", Some(MemberId(7))), Ok("vic3".into()));
        assert_eq!(book.take("vic4", None), Ok("vic4".into()));
    }

    #[test]
    fn a_deleted_members_name_is_free_and_the_others_stay() {
        let mut book = NameBook::new(vec![
            ("vic3".into(), MemberId(7)),
            ("ann".into(), MemberId(8)),
        ]);
        book.forget(MemberId(7));
        assert_eq!(book.take("VIC3", None), Ok("VIC3".into()));
        assert!(book.take("Ann", None).is_err());
        assert_eq!(book.take("ann", Some(MemberId(8))), Ok("ann".into()));
    }

    #[test]
    fn names_claimed_before_the_club_move_into_it_once() {
        let dir = std::env::temp_dir().join(format!("qchess-names-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("names.toml");
        std::fs::write(
            &file,
            "[[claim]]\nname = \"vic3\"\nkey = \"SHA256:v\"\n\
             [[claim]]\nname = \"vic4\"\nkey = \"SHA256:v\"\n\
             [[claim]]\nname = \"ann\"\nkey = \"SHA256:a\"\n",
        )
        .unwrap();
        let club = Club::open(&dir.join("club.sqlite")).unwrap();
        let said = import_claims(&file, &club);
        assert!(
            said[0].contains("2 names claimed by keys moved"),
            "{said:?}"
        );
        assert!(said[1].contains("vic4 not kept"), "{said:?}");
        assert_eq!(club.owner("SHA256:v").unwrap().unwrap().name, "vic3");
        assert_eq!(club.owner("SHA256:a").unwrap().unwrap().name, "ann");
        assert!(!file.exists() && dir.join("names.toml.imported").exists());
        // Once: the file is gone, nothing more to say.
        assert!(import_claims(&file, &club).is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn names_that_look_like_one_in_use_are_refused() {
        let mut book = NameBook::new(Vec::new());
        book.enter("ace");
        // Cyrillic а, с, е; dotless ı; another case.
        for asked in ["\u{430}\u{441}\u{435}", "Ace", "ACE"] {
            assert_eq!(
                book.take(asked, None),
                Err(NameRefused::LooksLike {
                    asked: asked.into(),
                    like: "ace".into()
                }),
                "{asked}"
            );
        }
        book.enter("ice");
        assert!(book.take("\u{131}ce", None).is_err(), "dotless i");
        book.enter("ABE");
        assert!(
            book.take("\u{391}\u{392}\u{395}", None).is_err(),
            "Greek capitals"
        );
        // The same name again is the same player (a second terminal).
        assert_eq!(book.take("ace", None), Ok("ace".into()));
        assert_eq!(book.take("bo", None), Ok("bo".into()));
        book.leave("ace");
        assert_eq!(
            book.take("Ace", None),
            Ok("Ace".into()),
            "free once ace left"
        );
    }

    #[test]
    fn who_is_here_is_found_by_name_in_any_case() {
        let mut book = NameBook::new(vec![("Vic3".into(), MemberId(7))]);
        book.enter("Vic3");
        book.enter("bo");
        assert_eq!(book.here("vic3"), Some("Vic3"));
        assert_eq!(book.here("BO"), Some("bo"));
        assert_eq!(book.member_named("Vic3"), Some(MemberId(7)));
        assert_eq!(book.member_named("bo"), None);
        book.leave("bo");
        assert_eq!(book.here("bo"), None);
    }
}
