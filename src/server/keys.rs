//! The server's host key (ed25519, created on first start, readable by its owner only)
//! and the `--authorized-keys` list.

use ipnet::IpNet;
use russh::keys::ssh_key::authorized_keys::Entry;
use russh::keys::ssh_key::private::Ed25519Keypair;
use russh::keys::ssh_key::{Algorithm, LineEnding};
use russh::keys::{HashAlg, PrivateKey, PublicKey};
use std::io::{self, Write};
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use wildmatch::WildMatch;

/// Why a key file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The file holds no key this server can use.
    #[error("{path}: not an OpenSSH key file: {message}")]
    Format {
        /// The file.
        path: PathBuf,
        /// What the key parser said.
        message: String,
    },
    /// The file holds a key of another kind than ed25519.
    #[error(
        "{path}: a host key must be ed25519, and this one is {algorithm} (an RSA host key \
         would sign with RSA, whose private-key operations leak timing, RUSTSEC-2023-0071): \
         move the file away to have an ed25519 key made there, or give another --host-key"
    )]
    NotEd25519 {
        /// The file.
        path: PathBuf,
        /// The key's algorithm as SSH names it (`ssh-rsa`).
        algorithm: String,
    },
}

/// The host key file inside the data directory.
pub fn default_host_key(data_dir: &Path) -> PathBuf {
    data_dir.join("server").join("host_ed25519")
}

/// The host key at `path`, created there first (ed25519, mode 0600, its folder too)
/// when there is none; true when it was just created. A key of another kind (RSA,
/// ECDSA) is refused: the server signs with ed25519 only.
pub fn host_key(path: &Path) -> Result<(PrivateKey, bool), KeyError> {
    let io_err = |source| KeyError::Io {
        path: path.to_path_buf(),
        source,
    };
    if path.exists() {
        let key = PrivateKey::read_openssh_file(path).map_err(|e| KeyError::Format {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        if key.algorithm() != Algorithm::Ed25519 {
            return Err(KeyError::NotEd25519 {
                path: path.to_path_buf(),
                algorithm: key.algorithm().to_string(),
            });
        }
        return Ok((key, false));
    }
    let mut seed = [0u8; 32];
    rand::Rng::fill_bytes(
        &mut rand::rand_core::UnwrapErr(rand::rngs::SysRng),
        &mut seed,
    );
    let key = PrivateKey::from(Ed25519Keypair::from_seed(&seed));
    let text = key
        .to_openssh(LineEnding::LF)
        .map_err(|e| KeyError::Format {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io_err)?;
    }
    let mut file = private_file(path).map_err(io_err)?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(io_err)?;
    Ok((key, true))
}

/// A new file only its owner can read and write.
fn private_file(path: &Path) -> io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

/// A key's SHA-256 fingerprint as OpenSSH prints it (`SHA256:...`).
pub fn fingerprint(key: &PublicKey) -> String {
    key.fingerprint(HashAlg::Sha256).to_string()
}

/// A key that may sign in, from an `authorized_keys` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allowed {
    /// Its SHA-256 fingerprint.
    pub fingerprint: String,
    /// The addresses it may sign in from (its `from="…"` option); anywhere when `None`.
    pub from: Option<From>,
}

impl Allowed {
    /// Whether `key`, connecting from `peer`, is this key from an allowed address.
    pub fn admits(&self, key: &PublicKey, peer: IpAddr) -> bool {
        self.fingerprint == fingerprint(key) && self.from.as_ref().is_none_or(|f| f.admits(peer))
    }
}

/// An OpenSSH `from="…"` pattern list, matched against the client's address: a
/// pattern is an address with `*` and `?` wildcards or a CIDR block (`10.0.0.0/8`),
/// and `!` before it refuses what it matches. The address is never looked up as a
/// host name, so a name pattern (`*.example.org`) matches no client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct From {
    patterns: Vec<(bool, String)>,
}

impl From {
    /// The list as written between the quotes.
    pub fn parse(list: &str) -> From {
        let patterns = list
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(|p| match p.strip_prefix('!') {
                Some(rest) => (false, rest.to_string()),
                None => (true, p.to_string()),
            })
            .collect();
        From { patterns }
    }

    /// Whether a client at `peer` may sign in: some pattern matches it and no negated
    /// one does.
    pub fn admits(&self, peer: IpAddr) -> bool {
        let text = peer.to_string();
        let hits = |p: &str| match p.parse::<IpNet>() {
            Ok(net) => net.contains(&peer),
            Err(_) => WildMatch::new(p).matches(&text),
        };
        let mut allowed = false;
        for (positive, p) in &self.patterns {
            if hits(p) {
                if !positive {
                    return false;
                }
                allowed = true;
            }
        }
        allowed
    }
}

/// The options of an `authorized_keys` line that leave nothing more to do: they forbid
/// what the server never offers anyway.
const NOTHING_TO_DO: [&str; 4] = [
    "no-agent-forwarding",
    "no-port-forwarding",
    "no-x11-forwarding",
    "no-user-rc",
];

/// The keys of an `authorized_keys` file that may sign in, and a line for each line of
/// the file left out, naming it: a key with an option this server does not understand
/// (`restrict`, `command=`, `expiry-time=`, …) or with one option twice (OpenSSH
/// refuses such a key) is refused rather than let in with less care than OpenSSH would
/// take, and a line that is not a key is skipped (as OpenSSH skips it), so that one
/// typo does not keep every player out.
pub fn authorized(path: &Path) -> Result<(Vec<Allowed>, Vec<String>), KeyError> {
    let text = std::fs::read_to_string(path).map_err(|source| KeyError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let (mut keys, mut refused) = (Vec::new(), Vec::new());
    for (n, line) in text.lines().enumerate() {
        let line = line.split_once('#').map_or(line, |(l, _)| l).trim();
        if line.is_empty() {
            continue;
        }
        let at = format!("{}:{}", path.display(), n + 1);
        match allowed(line) {
            Ok(key) => keys.push(key),
            Err(why) => refused.push(format!("{at}: {why}")),
        }
    }
    Ok((keys, refused))
}

/// The key of one `authorized_keys` line, or why it may not sign in.
fn allowed(line: &str) -> Result<Allowed, String> {
    let entry: Entry = line
        .parse()
        .map_err(|e| format!("not a key, line skipped ({e})"))?;
    let key = fingerprint(entry.public_key());
    let mut from = None;
    let mut seen: Vec<String> = Vec::new();
    for option in entry.config_opts().iter() {
        let (name, value) = option.split_once('=').unwrap_or((option, ""));
        let name = name.to_ascii_lowercase();
        if seen.contains(&name) {
            return Err(format!(
                "key {key} may not sign in: its option {name} is given twice (OpenSSH refuses such a key)"
            ));
        }
        if name == "from" {
            from = Some(From::parse(value.trim_matches('"')));
        } else if !NOTHING_TO_DO.contains(&name.as_str()) {
            return Err(format!(
                "key {key} may not sign in: qchess serve does not understand its option {name}"
            ));
        }
        seen.push(name);
    }
    Ok(Allowed {
        fingerprint: key,
        from,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_patterns_match_addresses_as_openssh_does() {
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        let f = From::parse("10.9.9.9");
        assert!(f.admits(ip("10.9.9.9")));
        assert!(!f.admits(ip("127.0.0.1")));
        let f = From::parse("192.168.1.*,!192.168.1.13, 10.0.0.0/8");
        assert!(f.admits(ip("192.168.1.7")));
        assert!(!f.admits(ip("192.168.1.13")));
        assert!(f.admits(ip("10.200.3.4")));
        assert!(!f.admits(ip("11.0.0.1")));
        assert!(From::parse("::1").admits(ip("::1")));
        assert!(From::parse("127.0.0.?").admits(ip("127.0.0.5")));
        assert!(
            !From::parse("*.example.org").admits(ip("127.0.0.1")),
            "names never match"
        );
        assert!(
            !From::parse("!10.0.0.1").admits(ip("127.0.0.1")),
            "only negations"
        );
    }

    #[test]
    fn the_host_key_is_ed25519_and_never_rsa() {
        let dir = std::env::temp_dir().join(format!("qchess-keys-rsa-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (made, _) = host_key(&default_host_key(&dir)).unwrap();
        assert_eq!(made.algorithm(), Algorithm::Ed25519);
        // An RSA key given as the host key is refused, not used.
        let mut rng = rand::rand_core::UnwrapErr(rand::rngs::SysRng);
        let rsa = russh::keys::ssh_key::private::RsaKeypair::random(&mut rng, 1024).unwrap();
        let path = dir.join("host_rsa");
        let text = PrivateKey::from(rsa).to_openssh(LineEnding::LF).unwrap();
        std::fs::write(&path, text.as_bytes()).unwrap();
        let e = host_key(&path).unwrap_err();
        assert!(matches!(e, KeyError::NotEd25519 { .. }), "{e}");
        assert!(e.to_string().contains("this one is ssh-rsa"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn host_key_is_made_once_and_private() {
        let dir = std::env::temp_dir().join(format!("qchess-keys-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = default_host_key(&dir);
        let (made, created) = host_key(&path).unwrap();
        assert!(created);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let (read, created) = host_key(&path).unwrap();
        assert!(!created);
        assert_eq!(
            fingerprint(made.public_key()),
            fingerprint(read.public_key())
        );
        assert!(fingerprint(read.public_key()).starts_with("SHA256:"));

        // Its public half, as an authorized_keys line, is found again.
        let line = read.public_key().to_openssh().unwrap();
        let list = dir.join("authorized_keys");
        std::fs::write(&list, format!("# players\n{line} ann@host\n")).unwrap();
        let (keys, refused) = authorized(&list).unwrap();
        assert_eq!(keys.len(), 1);
        assert_eq!(keys[0].fingerprint, fingerprint(read.public_key()));
        assert!(refused.is_empty());
        assert!(keys[0].admits(read.public_key(), "192.0.2.1".parse().unwrap()));
        // Options: from= is kept, narrowing options that change nothing are fine, any
        // other option keeps the key out and is named.
        let text = format!(
            "from=\"10.9.9.9\",no-pty {line} a\nno-port-forwarding,from=\"127.0.0.0/8,!127.0.0.9\" {line} b\nrestrict {line} c\nexpiry-time=\"20300101\" {line} d\n"
        );
        std::fs::write(&list, text).unwrap();
        let (keys, refused) = authorized(&list).unwrap();
        assert_eq!(keys.len(), 1, "{refused:?}");
        assert_eq!(refused.len(), 3, "{refused:?}");
        assert!(
            refused[0].contains("authorized_keys:1: key SHA256:")
                && refused[0].ends_with("option no-pty")
        );
        assert!(
            refused[1].contains("authorized_keys:3: ") && refused[1].ends_with("option restrict")
        );
        assert!(
            refused[2].contains("authorized_keys:4: ")
                && refused[2].ends_with("option expiry-time")
        );
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        assert!(keys[0].admits(read.public_key(), ip("127.0.0.1")));
        assert!(
            !keys[0].admits(read.public_key(), ip("127.0.0.9")),
            "negated"
        );
        assert!(!keys[0].admits(read.public_key(), ip("10.9.9.9")));
        // A line that is not a key is skipped, named; the keys around it still count.
        // One option twice is refused, as OpenSSH refuses it (it does not take the
        // last one).
        let text = format!(
            "{line} a\nssh-ed25519 nonsense\nfrom=\"10.0.0.1\",from=\"127.0.0.1\" {line} b\n"
        );
        std::fs::write(&list, text).unwrap();
        let (keys, refused) = authorized(&list).unwrap();
        assert_eq!(keys.len(), 1, "{refused:?}");
        assert_eq!(refused.len(), 2, "{refused:?}");
        assert!(
            refused[0].contains("authorized_keys:2: not a key, line skipped"),
            "{refused:?}"
        );
        assert!(
            refused[1].contains("authorized_keys:3: ")
                && refused[1]
                    .ends_with("its option from is given twice (OpenSSH refuses such a key)"),
            "{refused:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
