//! Where players connect to a server (`qchess serve --public-address HOST[:PORT]`), and
//! the `ssh` command that takes them to a room, a tournament or the lobby there: what
//! the club's other servers tell their players about this one's rooms and seeks.

use crate::club::live::{LiveRoom, LiveSeek};
use std::fmt;
use std::net::SocketAddr;
use std::str::FromStr;

/// SSH's own port, left out of the commands.
const SSH_PORT: u16 = 22;

/// The host and port players connect to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicAddress {
    /// A host name or an IP address (an IPv6 one without its brackets).
    pub host: String,
    /// The port.
    pub port: u16,
}

/// Why a public address does not read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("\"{0}\" is not an address players connect to: write HOST or HOST:PORT (play.example:2222, [2001:db8::1]:2222)")]
pub struct BadAddress(String);

impl FromStr for PublicAddress {
    type Err = BadAddress;

    /// `HOST`, `HOST:PORT`, `[IPV6]:PORT` or a bare IPv6 address; the port is SSH's
    /// when none is given.
    fn from_str(s: &str) -> Result<PublicAddress, BadAddress> {
        let bad = || BadAddress(s.to_string());
        let s = s.trim();
        let (host, port) = if let Some(rest) = s.strip_prefix('[') {
            let (host, after) = rest.split_once(']').ok_or_else(bad)?;
            match after {
                "" => (host, None),
                _ => (host, Some(after.strip_prefix(':').ok_or_else(bad)?)),
            }
        } else if s.matches(':').count() > 1 {
            (s, None)
        } else {
            match s.split_once(':') {
                Some((host, port)) => (host, Some(port)),
                None => (s, None),
            }
        };
        let port = match port {
            Some(p) => p.parse::<u16>().ok().filter(|&p| p > 0).ok_or_else(bad)?,
            None => SSH_PORT,
        };
        let fit = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | ':');
        if host.is_empty() || !host.chars().all(fit) {
            return Err(bad());
        }
        Ok(PublicAddress {
            host: host.to_string(),
            port,
        })
    }
}

impl fmt::Display for PublicAddress {
    /// `play.example:2222`, `[2001:db8::1]:2222`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.host.contains(':') {
            write!(f, "[{}]:{}", self.host, self.port)
        } else {
            write!(f, "{}:{}", self.host, self.port)
        }
    }
}

impl PublicAddress {
    /// The address a server listening on `listen` is reached at when the operator named
    /// none: the same, unless it listens on every address (0.0.0.0, [::]), which tells
    /// no one where to go.
    pub fn of_listen(listen: SocketAddr) -> Option<PublicAddress> {
        (!listen.ip().is_unspecified()).then(|| PublicAddress {
            host: listen.ip().to_string(),
            port: listen.port(),
        })
    }

    /// The command that runs `command` (a room's name, `tournament NAME`; nothing: the
    /// lobby) there, as `user` when one is named: `ssh -t -p 2222 ann@play.example ROOM`.
    pub fn ssh(&self, user: Option<&str>, command: &str) -> String {
        let port = match self.port {
            SSH_PORT => String::new(),
            p => format!("-p {p} "),
        };
        let at = user.map_or_else(String::new, |u| format!("{u}@"));
        let line = format!("ssh -t {port}{at}{} {command}", self.host);
        line.trim_end().to_string()
    }
}

/// A room open on another server of the club, and where players connect to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoteRoom {
    /// Where its server is reached.
    pub address: PublicAddress,
    /// The room.
    pub room: LiveRoom,
}

impl RemoteRoom {
    /// The command that enters it, as `name` when given: `ssh -t -p 2222
    /// ann@play1.example ROOM`.
    pub fn command(&self, name: Option<&str>) -> String {
        self.address.ssh(name, &self.room.name)
    }
}

/// A seek open on another server of the club, and where players connect to take it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoteSeek {
    /// Where its server is reached.
    pub address: PublicAddress,
    /// The seek.
    pub seek: LiveSeek,
}

impl RemoteSeek {
    /// The command that opens that server's lobby, whose seeks page (`o`) lists it.
    pub fn command(&self) -> String {
        self.address.ssh(None, "")
    }
}

/// What is open on the club's other servers, as a lobby lists it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Elsewhere {
    /// Their rooms.
    pub rooms: Vec<RemoteRoom>,
    /// Their seeks.
    pub seeks: Vec<RemoteSeek>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_read_with_or_without_a_port() {
        let read = |s: &str| s.parse::<PublicAddress>().map(|a| a.to_string());
        assert_eq!(read("play.example:2222").unwrap(), "play.example:2222");
        assert_eq!(read("play.example").unwrap(), "play.example:22");
        assert_eq!(read("[2001:db8::1]:2222").unwrap(), "[2001:db8::1]:2222");
        assert_eq!(read("2001:db8::1").unwrap(), "[2001:db8::1]:22");
        for bad in [
            "",
            "play.example:",
            "play.example:0",
            "play.example:99999",
            "a b",
            "[::1",
        ] {
            assert!(read(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_command_names_the_port_unless_it_is_ssh_s() {
        let there: PublicAddress = "play1.example:2222".parse().unwrap();
        assert_eq!(
            there.ssh(Some("ann"), "tournament Friday"),
            "ssh -t -p 2222 ann@play1.example tournament Friday"
        );
        let plain: PublicAddress = "play1.example".parse().unwrap();
        assert_eq!(plain.ssh(None, "bob"), "ssh -t play1.example bob");
        assert_eq!(there.ssh(None, ""), "ssh -t -p 2222 play1.example");
    }

    #[test]
    fn a_server_listening_everywhere_names_no_address_of_its_own() {
        let of = |s: &str| PublicAddress::of_listen(s.parse().unwrap()).map(|a| a.to_string());
        assert_eq!(of("127.0.0.1:2222").as_deref(), Some("127.0.0.1:2222"));
        assert_eq!(of("0.0.0.0:2222"), None);
        assert_eq!(of("[::]:2222"), None);
        assert_eq!(of("[::1]:2222").as_deref(), Some("[::1]:2222"));
    }
}
