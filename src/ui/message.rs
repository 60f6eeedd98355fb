//! The message line's contents: what the game tells the player, and how it looks.

/// How a message should look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// A hint.
    Plain,
    /// News: a move, a measurement outcome.
    Info,
    /// Rejected input, with the reason.
    Error,
}

/// The message line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// The words.
    pub text: String,
    /// How they look.
    pub tone: Tone,
}
