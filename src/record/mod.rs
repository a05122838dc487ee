//! Games on file: the competition record format with the match's own header field, the faults
//! a record can name, a game read from a record or a stone list, and its text and SVG
//! drawings. It imports only `rules`; the match and the tools build on it.

pub mod draw;
pub mod fault;
pub mod files;
pub mod format;
pub mod game;
mod match_info;

pub use fault::{Fault, FaultKind};
pub use format::*;
pub use match_info::MatchInfo;
