//! Connect6 engine: rules, patterns, threats, search, and the referee protocol.

pub mod board;
pub mod coord;
pub mod geometry;
pub mod patterns;
pub mod referee;
