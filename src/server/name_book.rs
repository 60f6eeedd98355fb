//! Who may use which name on the server. A name signed in with a key belongs to that
//! key from then on (kept in `server/names.toml`, across restarts): another key or a
//! client without one asking for it, or for a name that looks like it, is refused and
//! plays under a guest name. A keyless name that looks like one in use by a session now
//! (`асе` in Cyrillic beside Latin `ace`, `Ace` beside `ace`) is refused the same way.

use super::names::look_alike_keys;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The most names remembered with their keys: past it a new key's name is not
/// remembered (the older ones stay protected), and the server says so once.
pub const MAX_CLAIMS: usize = 10_000;

/// A name and the key it belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Claim {
    name: String,
    /// The key's SHA-256 fingerprint.
    key: String,
}

/// The file of claims.
#[derive(Debug, Default, Serialize, Deserialize)]
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
    /// It is (or looks like) a name that belongs to another key.
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

/// The names claimed by keys and those in use now.
#[derive(Debug, Default)]
pub struct NameBook {
    claims: Vec<(Claim, [String; 2])>,
    live: Vec<Live>,
    file: Option<PathBuf>,
    /// The book is full: said once.
    full_said: bool,
}

fn alike(a: &[String; 2], b: &[String; 2]) -> bool {
    a[0] == b[0] || a[1] == b[1]
}

impl NameBook {
    /// The book kept in `file` (none: kept in memory only); a file that cannot be read
    /// is said, and the book starts empty beside it (it is written over only when a
    /// new name is claimed).
    pub fn load(file: Option<&Path>) -> (NameBook, Option<String>) {
        let mut book = NameBook {
            file: file.map(Path::to_path_buf),
            ..NameBook::default()
        };
        let Some(path) = file.filter(|p| p.exists()) else {
            return (book, None);
        };
        let read = crate::files::read_text(path)
            .map_err(|e| e.to_string())
            .and_then(|t| toml::from_str::<ClaimsFile>(&t).map_err(|e| e.to_string()));
        match read {
            Ok(f) => {
                book.claims = f
                    .claim
                    .into_iter()
                    .map(|c| {
                        let keys = look_alike_keys(&c.name);
                        (c, keys)
                    })
                    .collect();
                (book, None)
            }
            Err(e) => {
                let said = format!(
                    "{}: names claimed by keys not read ({e}); they are not protected until it is mended",
                    path.display()
                );
                book.file = None;
                (book, Some(said))
            }
        }
    }

    /// The name `asked` (already a valid player name) for a client with `key` (its
    /// fingerprint), or why not. A key gets its own name back as first spelled; a new
    /// name signed in with a key is claimed for it.
    pub fn take(&mut self, asked: &str, key: Option<&str>) -> Result<String, NameRefused> {
        let keys = look_alike_keys(asked);
        if let Some((c, _)) = self.claims.iter().find(|(_, k)| alike(k, &keys)) {
            return match key {
                Some(k) if k == c.key => Ok(c.name.clone()),
                _ => Err(NameRefused::Claimed {
                    asked: asked.to_string(),
                    owner: c.name.clone(),
                }),
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
        if let Some(k) = key {
            self.claim(asked, k, keys);
        }
        Ok(asked.to_string())
    }

    fn claim(&mut self, name: &str, key: &str, keys: [String; 2]) {
        if self.claims.len() >= MAX_CLAIMS {
            if !self.full_said {
                eprintln!(
                    "qchess serve: {MAX_CLAIMS} names are kept with their keys already; new ones are not remembered"
                );
                self.full_said = true;
            }
            return;
        }
        let claim = Claim {
            name: name.to_string(),
            key: key.to_string(),
        };
        self.claims.push((claim, keys));
        self.save();
    }

    fn save(&self) {
        let Some(path) = &self.file else {
            return;
        };
        let file = ClaimsFile {
            claim: self.claims.iter().map(|(c, _)| c.clone()).collect(),
        };
        let written = toml::to_string(&file)
            .map_err(|e| e.to_string())
            .and_then(|t| crate::files::write_atomic(path, &t).map_err(|e| e.to_string()));
        if let Err(e) = written {
            eprintln!(
                "qchess serve: cannot keep the names claimed by keys in {}: {e}",
                path.display()
            );
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_signed_in_with_a_key_is_that_keys_and_kept() {
        let dir = std::env::temp_dir().join(format!("qchess-names-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let file = dir.join("names.toml");
        let (mut book, said) = NameBook::load(Some(&file));
        assert_eq!(said, None);
        assert_eq!(book.take("vic3", Some("SHA256:v")), Ok("vic3".into()));
        // Without the key, or with another: refused, whatever the spelling.
        for (asked, key) in [("vic3", None), ("vic3", Some("SHA256:x")), ("VIC3", None)] {
            let e = book.take(asked, key).unwrap_err();
            assert!(matches!(e, NameRefused::Claimed { .. }), "{asked}: {e}");
        }
        assert_eq!(
            book.take("Vic3", None).unwrap_err().to_string(),
            "the name Vic3 belongs to another player's key (it looks like vic3)"
        );
        // The key gets its name back as first spelled; after a restart too.
        assert_eq!(book.take("Vic3", Some("SHA256:v")), Ok("vic3".into()));
        let (mut back, said) = NameBook::load(Some(&file));
        assert_eq!(said, None);
        assert!(back.take("vic3", None).is_err());
        assert_eq!(back.take("vic3", Some("SHA256:v")), Ok("vic3".into()));
        // One key may hold several names (one person playing both sides).
        assert_eq!(back.take("vic4", Some("SHA256:v")), Ok("vic4".into()));
        std::fs::write(&file, "claim = 3").unwrap();
        let (_, said) = NameBook::load(Some(&file));
        assert!(said.unwrap().contains("not read"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn names_that_look_like_one_in_use_are_refused() {
        let (mut book, _) = NameBook::load(None);
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
}
