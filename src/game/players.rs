//! Who plays each side, by name.

use serde::{Deserialize, Serialize};

/// The two players' names; a name left out of a file is "White" or "Black".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Players {
    /// Who plays white.
    pub white: String,
    /// Who plays black.
    pub black: String,
}

impl Default for Players {
    fn default() -> Self {
        Players {
            white: "White".into(),
            black: "Black".into(),
        }
    }
}
