//! The game itself: cells and turns, lines through the board, stones, the board with its
//! rules, line patterns and threat windows. It knows nothing of search, records or I/O and
//! imports nothing else of the crate.

pub mod board;
pub mod coord;
pub mod geometry;
pub mod patterns;
pub mod stones;
pub mod threats;
