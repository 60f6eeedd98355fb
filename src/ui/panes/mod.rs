//! The panes of the game screen, each drawn from a plain model of what it shows (no pane
//! knows the screen), the glyphs they draw pieces with, and [`screen`], which builds the
//! models from the screen and lays the panes out.

pub mod circuit;
pub mod drawn;
pub mod glyphs;
pub mod history;
pub mod probs;
pub mod review_pane;
pub mod screen;
pub mod squares;
pub mod top_bar;
pub mod variant_panes;
