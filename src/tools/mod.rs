//! Tools for the people around the engine: pictures of games (`connect6 show`) and the
//! analysis of lost games (`connect6 analyse`). They read games through [`game::Game`].

pub mod analyse;
pub mod deep;
pub mod deep_table;
pub mod show;
