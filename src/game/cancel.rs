//! The flag long work looks at to stop early.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A flag the work looks at to stop early: a move on a big state, a replay, a search.
pub type CancelFlag = Arc<AtomicBool>;
