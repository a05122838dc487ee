//! placeholder during development
