//! The terminal of one SSH session, as the game loop sees it ([`Console`]): events come
//! from the connection's parser through a channel, frames go out as bytes to the
//! connection's writer task. Drawing never waits for the network: when the client
//! reads too slowly, frames are dropped and the next one is drawn whole.

use super::incoming::Incoming;
use crate::ui::terminal::{Console, Ended, Woke};
use crossterm::event::Event;
use ratatui::backend::{Backend, ClearType, CrosstermBackend};
use ratatui::layout::{Rect, Size};
use ratatui::{Frame, Terminal, TerminalOptions, Viewport};
use std::io::{self, Write};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::mpsc::Sender;

/// What a session sends to its connection.
#[derive(Debug)]
pub enum Out {
    /// Bytes for the client's terminal.
    Bytes(Vec<u8>),
    /// The session is over: send this exit status and close the channel.
    End(u32),
}

/// Frames queued for the connection before drawing starts dropping them.
pub const QUEUE: usize = 32;

/// What the terminal wrote for the frame being drawn; sent whole when it is done.
#[derive(Clone, Default)]
struct FrameBytes(Arc<Mutex<Vec<u8>>>);

impl FrameBytes {
    fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

impl Write for FrameBytes {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        // A frame leaves in one piece, after the drawing ([`Remote::draw`]).
        Ok(())
    }
}

/// The console of one session.
pub struct Remote {
    terminal: Terminal<CrosstermBackend<FrameBytes>>,
    frame: FrameBytes,
    tx: Sender<Out>,
    /// A frame was dropped: the next drawing must be whole.
    lost: bool,
    size: Size,
    rx: Receiver<Incoming>,
    idle: Duration,
    last_input: Instant,
    /// Why the session ended, when the console ended it.
    why: Option<String>,
    /// What came after a run of window sizes, taken next.
    held: Option<Incoming>,
}

impl Remote {
    /// A console of `size` reading `rx` and writing into `tx`; a session without input
    /// for `idle` ends.
    pub fn new(
        tx: Sender<Out>,
        size: (u16, u16),
        rx: Receiver<Incoming>,
        idle: Duration,
    ) -> io::Result<Remote> {
        let frame = FrameBytes::default();
        let terminal = terminal_of(&frame, Rect::new(0, 0, size.0, size.1))?;
        // Whatever setting the terminal up wrote goes before the first frame.
        Ok(Remote {
            terminal,
            frame,
            tx,
            lost: false,
            size: Size::new(size.0, size.1),
            rx,
            idle,
            last_input: Instant::now(),
            why: None,
            held: None,
        })
    }

    /// Sends `bytes` to the client as they are (what goes around the screen), unless
    /// the connection is gone. Never waits: when the queue is full they are dropped
    /// and the next frame is drawn whole.
    pub fn send(&mut self, bytes: Vec<u8>) -> io::Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        match self.tx.try_send(Out::Bytes(bytes)) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_)) => {
                self.lost = true;
                Ok(())
            }
            Err(TrySendError::Closed(_)) => Err(io::ErrorKind::BrokenPipe.into()),
        }
    }

    /// Ends the session: `bytes` last, then the exit status.
    pub fn end(&mut self, bytes: Vec<u8>, status: u32) {
        let _ = self.send(bytes);
        let _ = self.tx.try_send(Out::End(status));
    }

    /// Clears the client's screen: the next frame draws all of it, at the client's size.
    /// Not `Terminal::clear` or `Terminal::resize`: since ratatui 0.30 they ask the
    /// backend for the cursor position or the screen size, which a `CrosstermBackend`
    /// reads from the server's own terminal, not from the client's.
    fn redraw_whole(&mut self) -> io::Result<()> {
        self.terminal.backend_mut().clear_region(ClearType::All)?;
        let area = Rect::new(0, 0, self.size.width, self.size.height);
        self.terminal = terminal_of(&self.frame, area)?;
        Ok(())
    }

    /// Why the console ended the session (idle, closed by the server), if it did.
    pub fn why(&self) -> Option<&str> {
        self.why.as_deref()
    }
}

/// Whether `ev` shows a player at the keyboard (and keeps the session from closing as
/// idle): a key, a paste, a mouse button or wheel; not a window size or the mouse
/// moved over the screen, which a client can send with nobody there.
fn is_activity(ev: &Event) -> bool {
    match ev {
        Event::Key(_) | Event::Paste(_) => true,
        Event::Mouse(m) => !matches!(
            m.kind,
            crossterm::event::MouseEventKind::Moved | crossterm::event::MouseEventKind::Drag(_)
        ),
        Event::Resize(..) | Event::FocusGained | Event::FocusLost => false,
    }
}

/// A terminal drawing a client's screen of `area` into `frame`.
fn terminal_of(
    frame: &FrameBytes,
    area: Rect,
) -> io::Result<Terminal<CrosstermBackend<FrameBytes>>> {
    Terminal::with_options(
        CrosstermBackend::new(frame.clone()),
        TerminalOptions {
            viewport: Viewport::Fixed(area),
        },
    )
}

impl Console for Remote {
    fn wait(&mut self, wait: Duration) -> io::Result<Woke> {
        let left = self.idle.saturating_sub(self.last_input.elapsed());
        if left.is_zero() {
            let minutes = self.idle.as_secs().div_ceil(60);
            self.why = Some(format!(
                "closed after {minutes} minutes without input; your seat is kept"
            ));
            return Ok(Woke::Stop(Ended::Quit));
        }
        let next = match self.held.take() {
            Some(held) => Ok(held),
            None => self.rx.recv_timeout(wait.min(left)),
        };
        Ok(match next {
            Ok(Incoming::Event(Event::Resize(w, h))) => {
                // A run of window sizes is one resize to the last of them, drawn once.
                let (mut w, mut h) = (w, h);
                while let Ok(more) = self.rx.try_recv() {
                    match more {
                        Incoming::Event(Event::Resize(w2, h2)) => (w, h) = (w2, h2),
                        other => {
                            self.held = Some(other);
                            break;
                        }
                    }
                }
                self.size = Size::new(w, h);
                self.redraw_whole()?;
                Woke::Event(Event::Resize(w, h))
            }
            Ok(Incoming::Event(ev)) => {
                if is_activity(&ev) {
                    self.last_input = Instant::now();
                }
                Woke::Event(ev)
            }
            Ok(Incoming::Wake) | Err(RecvTimeoutError::Timeout) => Woke::Nothing,
            Ok(Incoming::Close(why)) => {
                self.why = Some(why);
                Woke::Stop(Ended::Quit)
            }
            Ok(Incoming::Hangup) | Err(RecvTimeoutError::Disconnected) => Woke::Stop(Ended::Quit),
        })
    }

    fn size(&self) -> io::Result<Size> {
        Ok(self.size)
    }

    fn draw(&mut self, render: &mut dyn FnMut(&mut Frame)) -> io::Result<()> {
        if self.lost && self.tx.capacity() > 0 {
            // Frames were dropped: the client's screen is unknown, draw all of it.
            self.lost = false;
            self.redraw_whole()?;
        }
        self.terminal.draw(|f| render(f))?;
        let bytes = self.frame.take();
        self.send(bytes)
    }

    fn suspend(&mut self) -> io::Result<()> {
        // Ctrl-Z means nothing over SSH: there is no job to stop.
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::widgets::Paragraph;

    #[test]
    fn frames_are_dropped_not_waited_for_and_the_next_is_whole() {
        let (tx, mut rx) = tokio::sync::mpsc::channel(1);
        let (_in_tx, in_rx) = std::sync::mpsc::sync_channel(4);
        let mut c = Remote::new(tx, (20, 3), in_rx, Duration::from_secs(60)).unwrap();
        let text =
            |t: &'static str| move |f: &mut Frame| f.render_widget(Paragraph::new(t), f.area());
        c.draw(&mut text("one")).unwrap();
        // The queue is full: this frame is dropped, and drawing did not block.
        c.draw(&mut text("two")).unwrap();
        let Some(Out::Bytes(first)) = rx.try_recv().ok() else {
            panic!("the first frame");
        };
        assert!(String::from_utf8_lossy(&first).contains("one"));
        assert!(rx.try_recv().is_err(), "the second frame was dropped");
        // With room again, the next frame redraws everything (clear, then all text).
        c.draw(&mut text("two")).unwrap();
        let Some(Out::Bytes(third)) = rx.try_recv().ok() else {
            panic!("the third frame");
        };
        let third = String::from_utf8_lossy(&third);
        assert!(
            third.contains("\x1b[J") || third.contains("\x1b[2J"),
            "{third:?}"
        );
        assert!(third.contains("two"), "{third:?}");
    }

    #[test]
    fn resize_idle_and_close() {
        let (tx, mut rx) = tokio::sync::mpsc::channel(8);
        let (in_tx, in_rx) = std::sync::mpsc::sync_channel(4);
        let mut c = Remote::new(tx, (80, 24), in_rx, Duration::from_millis(200)).unwrap();
        in_tx.send(Incoming::Event(Event::Resize(100, 30))).unwrap();
        assert!(matches!(
            c.wait(Duration::from_secs(1)).unwrap(),
            Woke::Event(_)
        ));
        assert_eq!(c.size().unwrap(), Size::new(100, 30));
        // The next frame clears the client's screen and is drawn whole at the new size.
        let mut area = Rect::default();
        c.draw(&mut |f: &mut Frame| {
            area = f.area();
            f.render_widget(Paragraph::new("wide"), f.area());
        })
        .unwrap();
        assert_eq!(area, Rect::new(0, 0, 100, 30));
        let Some(Out::Bytes(frame)) = rx.try_recv().ok() else {
            panic!("the frame after the resize");
        };
        let frame = String::from_utf8_lossy(&frame);
        assert!(
            frame.contains("\x1b[2J") && frame.contains("wide"),
            "{frame:?}"
        );
        // A run of sizes is one resize to the last; what follows it is kept.
        for w in 50..53 {
            in_tx.send(Incoming::Event(Event::Resize(w, 20))).unwrap();
        }
        in_tx.send(Incoming::Wake).unwrap();
        assert!(matches!(
            c.wait(Duration::from_secs(1)).unwrap(),
            Woke::Event(Event::Resize(52, 20))
        ));
        assert!(matches!(
            c.wait(Duration::from_secs(1)).unwrap(),
            Woke::Nothing
        ));
        // No input for the idle time: the session ends and says why; window sizes
        // and mouse motion do not keep it.
        let mut ended = false;
        for i in 0..20 {
            if i % 2 == 0 {
                let _ = in_tx.try_send(Incoming::Event(Event::Resize(80, 24)));
            }
            if let Woke::Stop(_) = c.wait(Duration::from_millis(50)).unwrap() {
                ended = true;
                break;
            }
        }
        assert!(ended);
        assert!(c.why().unwrap().contains("without input"));
        in_tx.send(Incoming::Close("bye".into())).unwrap();
    }
}
