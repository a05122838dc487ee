//! The competition protocol: lines parsed into commands, the session that applies them, and
//! the players that answer (the engine, and weak reference players). It imports `rules` and
//! `engine`.

pub mod baselines;
pub mod command;
pub mod options_file;
pub mod player;
pub mod session;
