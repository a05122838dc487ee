//! Tools for the people around the engine: pictures of games (`connect6 show`), the
//! analysis of lost games (`connect6 analyse`), and the score graph of a game ([`graph`],
//! from the engine's quick [`pass`] over it). They read games through [`game::Game`].

pub mod analyse;
pub mod deep;
pub mod deep_table;
pub mod graph;
pub mod load;
pub mod pass;
pub mod revisit;
pub mod show;
