//! Connect6 engine: rules, patterns, threats, search, and the referee protocol.

pub mod board;
pub mod coord;
pub mod eval;
pub mod geometry;
pub mod pairs;
pub mod patterns;
pub mod search;
pub mod threats;
pub mod time;
pub mod tt;
pub mod tunables;
