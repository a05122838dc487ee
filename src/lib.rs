//! Connect6 engine: rules, patterns, threats, search, and the referee protocol.

pub mod baselines;
pub mod bench;
pub mod board;
pub mod control;
pub mod coord;
pub mod defence;
pub mod eval;
pub mod geometry;
pub mod pairs;
pub mod patterns;
pub mod player;
pub mod protocol;
pub mod referee;
pub mod search;
pub mod session;
pub mod solver;
pub mod stones;
pub mod threats;
pub mod time;
pub mod tools;
pub mod tt;
pub mod tunables;
pub mod tuning;

/// Builds the lazily made tables now, so the first move's clock is not spent on them.
pub fn warm_up() {
    let _ = &*geometry::GEOMETRY;
    let _ = &*patterns::PATTERNS;
    let _ = board::Board::new();
}
