//! The help over the game: its pages, turned by any key.

use super::Outcome;
use crate::ui::input::Action;

/// The help while it is shown: the page shown and how many there are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Help {
    page: usize,
    pages: usize,
}

impl Help {
    /// The help at its first page, of `pages` pages (as many as it last needed).
    pub fn open(pages: usize) -> Help {
        Help { page: 0, pages }
    }

    /// The page shown.
    pub fn page(&self) -> usize {
        self.page
    }

    /// Keeps how many pages the last drawing needed.
    pub fn drawn(&mut self, pages: usize) {
        self.pages = pages;
    }

    /// Esc and q close the help at once; any other key turns the page, and after the
    /// last page closes it.
    pub fn handle(&mut self, action: Action) -> Outcome {
        if action != Action::Cancel && self.page + 1 < self.pages {
            self.page += 1;
            return Outcome::Consumed;
        }
        Outcome::Close
    }
}
