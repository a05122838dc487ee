//! Connect6: the engine and the tools around it, in layers that import only downwards:
//!
//! - [`rules`]: the game, imported by everything;
//! - [`engine`] (on rules) and [`protocol`] (on engine): the engine a referee talks to;
//! - [`record`] (on rules): games on file;
//! - [`arena`] (on record): matches between engine processes;
//! - [`tools`] and [`tuning`]: show, analyse, and fitting the evaluation, on the layers below;
//! - [`gui`]: a board in the browser, on arena, record and tools.
//!
//! `gui` and `tuning` are behind the Cargo features `gui` and `tune`, on by default: no layer
//! below them may import them, so the engine builds without them.
//!
//! `tests/layers.rs` checks the rule, that no import circle forms, and that the rules import
//! nothing but themselves (and `rng`) and hold no learned model.

pub mod arena;
pub mod engine;
/// A board in the browser (`connect6 gui`), over arena, record and tools.
#[cfg(feature = "gui")]
pub mod gui;
/// The one worker pool (self-play, labelling, the match schedule): a leaf every layer may use.
pub mod pool;
pub mod protocol;
pub mod record;
/// The one seeded random generator: a leaf utility every layer may use.
pub mod rng;
pub mod rules;
/// Seconds from text, as the engine, the protocol, the match and the browser board take
/// them: a leaf every layer may use.
pub mod seconds;
pub mod tools;
/// Fitting the evaluation and making openings (`connect6 tune`).
#[cfg(feature = "tune")]
pub mod tuning;
