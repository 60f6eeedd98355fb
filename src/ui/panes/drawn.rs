//! What drawing the game screen learned, handed back to the screen after each frame.

use crate::ui::input::mouse;

/// What drawing the game screen learned: where the board and panes went (for the
/// mouse), and how many pages the help needed when it is shown.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Drawn {
    /// Where things were drawn.
    pub hits: mouse::Hits,
    /// The help's page count, when the help was drawn.
    pub help_pages: Option<usize>,
    /// The inspector's lines that did not fit, when it was drawn.
    pub inspector_hidden: Option<u16>,
    /// The lesson's lines that did not fit, when a lesson was drawn.
    pub lesson_hidden: Option<u16>,
}
