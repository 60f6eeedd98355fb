//! What reaches a session's thread: the client's terminal events from the SSH side,
//! and the wake-ups and closings of the rooms and the hub.

use crossterm::event::Event;

/// What reaches a session's thread.
#[derive(Debug)]
pub enum Incoming {
    /// A terminal event from the client (keys, mouse, paste, window size).
    Event(Event),
    /// The room changed: look at it.
    Wake,
    /// End the session, saying why on the client's terminal.
    Close(String),
    /// The client is gone.
    Hangup,
}
