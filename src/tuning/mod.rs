//! Everything the engine learns from games, and the data it learns from; `connect6 tune`
//! runs each job (`jobs` dispatches; each job's arguments and printing live beside its code).
//!
//! The data:
//! - `games` turns match records into a games file (one game a line) and reads the quiet
//!   positions of such a file, each labelled with the game's result;
//! - `selfplay` plays the engine against itself at a node limit, on several threads, and
//!   writes the games as a games file;
//! - `label` gives every position a fit samples the score of a fixed-node search, to blend
//!   into the results as labels;
//! - `batch` runs those two on the worker pool: shards (`--shard K/N`, merged by
//!   `tune merge`), a journal a stopped run resumes from, progress on stderr.
//!
//! The fits:
//! - `fit` fits the hand-set evaluation's weights, `TO_MOVE_PATTERN` / `WAITING_PATTERN` and
//!   the window weights, by logistic regression of the result on the evaluation ("Texel"
//!   tuning), and prints the tables as Rust source;
//! - `values` fits the learned evaluation's cell values (`--eval cells`, `cells.bin`),
//!   written by `tune eval`;
//! - `policy` fits the learned cell ranking the pair generator draws from (`ranking.bin`,
//!   `tune policy`) and measures a ranking by where it puts the turns games played.
//!
//! And the match's inputs: two- and three-turn openings (`openings`, which also draws
//! self-play's random starts), and the defence suite `bench --defence-suite` reads
//! (`defence`).
//!
//! Every fit reads games files (`games`), one game a line; a fit holds out whole games, so
//! that positions of one game never sit on both sides.

pub mod args;
pub mod batch;
pub mod book;
pub mod defence;
pub mod fit;
pub mod games;
pub mod jobs;
pub mod label;
pub mod openings;
pub mod policy;
pub mod selfplay;
pub mod values;

use crate::engine::search::Limits;
use crate::rng::Rng;
use crate::rules::board::Board;

/// Every `HOLDOUT_EVERY`-th game is held out of a fit, to measure it on (every fit's
/// `--holdout` default).
pub const HOLDOUT_EVERY: usize = 10;

/// What a fit by passes did (`values`, `policy`): the held-out loss without the
/// model (the hand evaluation alone; for a ranking, every candidate alike), each pass's
/// training and held-out loss, and the pass kept (from 1).
#[derive(Debug)]
pub struct FitReport {
    pub baseline_test: f64,
    pub passes: Vec<(f64, f64)>,
    pub kept: usize,
}

/// Deepest iteration the jobs' searches ask for; their node limit ends them long before.
const MAX_DEPTH: u8 = 30;

/// The limits of the jobs' searches: `nodes` main-search nodes, so that a result is a
/// function of the position and the settings whatever the machine's speed.
pub fn node_limits(nodes: u64) -> Limits {
    Limits {
        nodes: Some(nodes),
        ..Limits::depth(MAX_DEPTH)
    }
}

/// Whether the evaluation is what decides this position in the search: neither side has a
/// threat window (the mover would win at once, or would have to block).
pub fn is_quiet(board: &Board) -> bool {
    use crate::rules::board::Color;
    !board.is_over()
        && !board.has_threat_window(Color::Black)
        && !board.has_threat_window(Color::White)
}

/// The seeded generator of game `index` of a job's run, so that games do not depend on each
/// other: the index is mixed in times `stride`, an odd constant of the job's own (the
/// generated data depends on it, so a job keeps its constant).
pub fn game_rng(seed: u64, index: u64, stride: u64) -> Rng {
    let mut mix = Rng::new(seed ^ index.wrapping_mul(stride));
    Rng::new(mix.next_u64())
}
