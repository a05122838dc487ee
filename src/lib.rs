//! Connect6: the engine and the tools around it, in layers that import only downwards:
//!
//! - [`rules`]: the game, imported by everything;
//! - [`engine`] (on rules) and [`protocol`] (on engine): the engine a referee talks to;
//! - [`record`] (on rules): games on file;
//! - [`arena`] (on record): matches between engine processes;
//! - [`tools`] and [`tuning`]: show, analyse, and fitting the evaluation, on the layers below.

pub mod arena;
pub mod engine;
pub mod protocol;
pub mod record;
pub mod rules;
pub mod tools;
pub mod tuning;

/// Builds the lazily made tables now, so the first move's clock is not spent on them.
pub fn warm_up() {
    let _ = &*rules::geometry::GEOMETRY;
    let _ = &*rules::patterns::PATTERNS;
    let _ = rules::board::Board::new();
}
