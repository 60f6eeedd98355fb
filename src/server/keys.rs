//! The server's host key (ed25519, created on first start, readable by its owner only)
//! and the `--authorized-keys` list.

use russh::keys::ssh_key::private::Ed25519Keypair;
use russh::keys::ssh_key::{AuthorizedKeys, LineEnding};
use russh::keys::{HashAlg, PrivateKey, PublicKey};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

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
}

/// The host key file inside the data directory.
pub fn default_host_key(data_dir: &Path) -> PathBuf {
    data_dir.join("server").join("host_ed25519")
}

/// The host key at `path`, created there first (ed25519, mode 0600, its folder too)
/// when there is none; true when it was just created.
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
        return Ok((key, false));
    }
    let mut seed = [0u8; 32];
    rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut seed);
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

/// The fingerprints of the keys in an `authorized_keys` file.
pub fn authorized(path: &Path) -> Result<Vec<String>, KeyError> {
    let text = std::fs::read_to_string(path).map_err(|source| KeyError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    AuthorizedKeys::new(&text)
        .map(|entry| entry.map(|e| fingerprint(e.public_key())))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| KeyError::Format {
            path: path.to_path_buf(),
            message: e.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(
            authorized(&list).unwrap(),
            vec![fingerprint(read.public_key())]
        );
        std::fs::write(&list, "ssh-ed25519 nonsense\n").unwrap();
        assert!(matches!(authorized(&list), Err(KeyError::Format { .. })));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
