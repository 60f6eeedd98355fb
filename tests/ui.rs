//! The terminal game's screens, one test binary: keys, mice, snapshots, clocks, the computer,
//! long work, the inspector, the replay's review, the other rule systems and the Skat lab. The game in a
//! real terminal stays a binary of its own (`tests/terminal.rs`): beside these tests a
//! game can still be drawing when its terminal closes, and then ends by a panic (exit
//! 101) instead of as a hangup.

mod support;

#[path = "ui/clocks.rs"]
mod clocks;
#[path = "ui/engine.rs"]
mod engine;
#[path = "ui/finished.rs"]
mod finished;
#[path = "ui/flow.rs"]
mod flow;
#[path = "ui/inspector.rs"]
mod inspector;
#[path = "ui/keys.rs"]
mod keys;
#[path = "ui/lessons.rs"]
mod lessons;
#[path = "ui/messages.rs"]
mod messages;
#[path = "ui/mouse.rs"]
mod mouse;
#[path = "ui/notation.rs"]
mod notation;
#[path = "ui/puzzles.rs"]
mod puzzles;
#[path = "ui/review.rs"]
mod review;
#[path = "ui/screens.rs"]
mod screens;
#[path = "ui/skat.rs"]
mod skat;
#[path = "ui/snapshots.rs"]
mod snapshots;
#[path = "ui/variants.rs"]
mod variants;
#[path = "ui/work.rs"]
mod work;
