//! Waiting on the terminal's input for the event loop. crossterm's reader never returns
//! once its input is at end-of-file (a dropped connection: every read returns nothing
//! and it reads again), so the loop waits on the input itself and hands crossterm only
//! input that is there; end-of-file ends the game at once. Resizes (SIGWINCH) wake the
//! wait too, so that crossterm reports them without delay.

use std::io;
use std::time::Duration;

/// What waiting on the terminal's input found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// Something to read, a resize, a signal, or the time was up.
    Open,
    /// The other end has gone: reads would return end-of-file.
    Closed,
}

/// Wakes on the terminal's input (standard input) and on resizes.
#[cfg(unix)]
pub struct InputWatch {
    /// The read end of a pipe the SIGWINCH handler writes to.
    resized: std::os::unix::net::UnixStream,
    /// The handler, removed when the watch is dropped.
    handler: signal_hook::SigId,
    /// Standard input is the terminal crossterm reads (else it reads /dev/tty, and
    /// only crossterm waits).
    stdin_tty: bool,
}

#[cfg(unix)]
impl InputWatch {
    /// Starts watching for resizes.
    pub fn new() -> io::Result<InputWatch> {
        let (resized, writer) = std::os::unix::net::UnixStream::pair()?;
        resized.set_nonblocking(true)?;
        writer.set_nonblocking(true)?;
        let handler =
            signal_hook::low_level::pipe::register(signal_hook::consts::SIGWINCH, writer)?;
        let stdin_tty = std::io::IsTerminal::is_terminal(&std::io::stdin());
        Ok(InputWatch {
            resized,
            handler,
            stdin_tty,
        })
    }

    /// Waits up to `wait` for input, a resize or a signal; says whether the input ended.
    pub fn wait(&self, wait: Duration) -> io::Result<Input> {
        use std::io::Read;
        use std::os::fd::AsRawFd;
        if !self.stdin_tty {
            return crossterm::event::poll(wait).map(|_| Input::Open);
        }
        let mut fds = [
            libc::pollfd {
                fd: libc::STDIN_FILENO,
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: self.resized.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        let ms = libc::c_int::try_from(wait.as_millis()).unwrap_or(libc::c_int::MAX);
        // SAFETY: `fds` is a valid array of two pollfd for the duration of the call.
        let n = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, ms) };
        if n < 0 {
            let e = io::Error::last_os_error();
            // A signal: the loop looks at the signals' flags next.
            return if e.kind() == io::ErrorKind::Interrupted {
                Ok(Input::Open)
            } else {
                Err(e)
            };
        }
        if fds[1].revents != 0 {
            let mut drain = [0u8; 64];
            while matches!((&self.resized).read(&mut drain), Ok(n) if n > 0) {}
        }
        let gone = libc::POLLHUP | libc::POLLERR | libc::POLLNVAL;
        Ok(if fds[0].revents & gone != 0 {
            Input::Closed
        } else {
            Input::Open
        })
    }
}

#[cfg(unix)]
impl Drop for InputWatch {
    fn drop(&mut self) {
        signal_hook::low_level::unregister(self.handler);
    }
}

/// Elsewhere the terminal's input does not end this way: crossterm waits.
#[cfg(not(unix))]
pub struct InputWatch;

#[cfg(not(unix))]
impl InputWatch {
    /// Nothing to set up.
    pub fn new() -> io::Result<InputWatch> {
        Ok(InputWatch)
    }

    /// Waits up to `wait` for an event.
    pub fn wait(&self, wait: Duration) -> io::Result<Input> {
        crossterm::event::poll(wait).map(|_| Input::Open)
    }
}

/// How a game whose terminal's input ended is said to have ended: as the hangup it is.
#[cfg(unix)]
pub const HANGUP: i32 = libc::SIGHUP;
/// See the Unix version (never used: the input does not end this way).
#[cfg(not(unix))]
pub const HANGUP: i32 = 1;
