//! Games on file: the competition record format with the match's own header field, the faults
//! a record can name, a game read from a record or a stone list, its text and SVG drawings,
//! and the openings files games start from. It imports only `rules`; the match, the tools
//! and the tuning build on it.

pub mod draw;
pub mod fault;
pub mod files;
pub mod format;
pub mod game;
mod match_info;
pub mod openings;

pub use fault::{Fault, FaultKind};
pub use format::*;
pub use match_info::MatchInfo;
