//! The faults that lose a game: what a match adjudicates and a record's match field keeps.

use crate::rules::board::Color;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaultKind {
    /// Replied after the time limit, or not at all.
    Late,
    /// A readable move that breaks the rules (occupied, repeated, off-board, wrong count).
    Illegal,
    /// A `move` line that cannot be read.
    Malformed,
    /// Exited, closed its output, or could not be written to.
    Crash,
}

impl FaultKind {
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Late => "late",
            FaultKind::Illegal => "illegal",
            FaultKind::Malformed => "malformed",
            FaultKind::Crash => "crash",
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A fault that lost a game for `color`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    pub color: Color,
    pub detail: String,
}

impl std::str::FromStr for FaultKind {
    type Err = String;

    /// The name [`FaultKind::name`] gives, as records and JSON summaries spell it.
    fn from_str(text: &str) -> Result<FaultKind, String> {
        [
            FaultKind::Late,
            FaultKind::Illegal,
            FaultKind::Malformed,
            FaultKind::Crash,
        ]
        .into_iter()
        .find(|k| k.name() == text)
        .ok_or_else(|| format!("unknown fault kind '{}'", super::files::excerpt(text)))
    }
}
