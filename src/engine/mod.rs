//! Choosing a turn: candidate pairs, the evaluation and its tunables, the alpha-beta search
//! (with its transposition table, Lazy SMP and clock), the threat-space solver with the
//! defence built on it, and `bench`. It imports only `rules`.

pub mod bench;
pub mod book;
pub mod cell_eval;
pub mod eval;
pub mod models;
pub mod pairs;
pub mod platform;
pub mod position;
pub mod ranking;
pub mod search;
pub mod solver;
pub mod tunables;
