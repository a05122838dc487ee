//! The game itself: cells and turns, lines through the board, stones, the board with its
//! rules, line patterns and threat windows. It knows nothing of search, records or I/O and
//! imports nothing else of the crate.

pub mod board;
pub mod cells;
pub mod cellset;
pub mod coord;
pub mod geometry;
pub mod patterns;
pub mod stones;
pub mod threats;

/// Builds the lazily made tables now, so the first move's clock is not spent on them.
pub fn warm_up() {
    let _ = &*geometry::GEOMETRY;
    let _ = &*patterns::PATTERNS;
    let _ = board::Board::new();
}
