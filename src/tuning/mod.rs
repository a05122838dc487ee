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
//!   `tune merge`), a journal a stopped run resumes from, progress on stderr;
//! - `datagen` plays seeded self-play games in-process and writes the quiet positions they
//!   pass through as a data set (the format below).
//!
//! The fits:
//! - `fit` fits the hand-set evaluation's weights, `TO_MOVE_PATTERN` / `WAITING_PATTERN` and
//!   the window weights, by logistic regression of the result on the evaluation ("Texel"
//!   tuning), and prints the tables as Rust source;
//! - `values` fits the learned evaluation's cell values (`--eval cells`, `cells.bin`) and
//!   `net` its cell network (`--eval net`, `net.bin`), both written by `tune eval`;
//! - `policy` fits the learned cell ranking the pair generator draws from (`ranking.bin`,
//!   `tune policy`) and measures a ranking by where it puts the turns games played.
//!
//! And the match's inputs: two- and three-turn openings (`datagen`), and the
//! defence suite `bench --defence-suite` reads (`defence`).
//!
//! The self-play data set is text, one position a line, so a fit can be rerun on saved data:
//!
//! ```text
//! # comment lines start with '#'
//! <game> <result> <turns>
//! 17 1 JJ KIKK IIHH LLKL
//! ```
//!
//! `game` numbers the game the position comes from (the held-out split is by game, so
//! positions of one game never sit on both sides), `result` is the game's outcome for the
//! side to move in the position (`1` win, `0.5` draw, `0` loss), and `turns` are the protocol
//! turns from the empty board (black's single first stone, then pairs).

pub mod args;
pub mod batch;
pub mod datagen;
pub mod defence;
pub mod fit;
pub mod games;
pub mod jobs;
pub mod label;
pub mod net;
pub mod policy;
pub mod selfplay;
pub mod values;

use crate::engine::search::Limits;
use crate::rng::Rng;
use crate::rules::board::Board;
use crate::rules::coord::Turn;

/// Every `HOLDOUT_EVERY`-th game is held out of a fit, to measure it on (every fit's
/// `--holdout` default).
pub const HOLDOUT_EVERY: usize = 10;

/// What a fit by passes did (`values`, `net`, `policy`): the held-out loss without the
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

/// One line of a data set: a position and the result of its game for the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Labelled {
    pub game: u64,
    /// 1 win, 0.5 draw, 0 loss, for the side to move in the position.
    pub result: f64,
    pub turns: Vec<Turn>,
}

impl Labelled {
    pub fn to_line(&self) -> String {
        let turns: Vec<String> = self.turns.iter().map(|t| t.to_protocol(false)).collect();
        format!("{} {} {}", self.game, self.result, turns.join(" "))
    }

    /// Parses a data line (not a comment or blank line) and replays its turns under the rules.
    pub fn parse(line: &str) -> Result<(Labelled, Board), String> {
        let mut words = line.split_whitespace();
        let game = words
            .next()
            .ok_or("empty line")?
            .parse::<u64>()
            .map_err(|e| format!("game number: {e}"))?;
        let result = match words.next().ok_or("no result")? {
            "1" => 1.0,
            "0.5" => 0.5,
            "0" => 0.0,
            other => return Err(format!("result '{other}' is not 1, 0.5 or 0")),
        };
        let mut turns = Vec::new();
        let mut board = Board::new();
        for word in words {
            let turn = Turn::parse(word).map_err(|e| format!("{word}: {e}"))?;
            board.play_turn(&turn).map_err(|e| format!("{word}: {e}"))?;
            turns.push(turn);
        }
        if board.is_over() {
            return Err("the position is already decided".into());
        }
        Ok((
            Labelled {
                game,
                result,
                turns,
            },
            board,
        ))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_and_bad_lines_are_refused() {
        let line = "12 0.5 JJ KIKK IIHH";
        let (l, board) = Labelled::parse(line).unwrap();
        assert_eq!(l.to_line(), line);
        assert_eq!(board.stone_total(), 5);
        assert!(Labelled::parse("12 2 JJ").is_err(), "result out of range");
        assert!(Labelled::parse("12 1 JJ JJKK").is_err(), "occupied cell");
        assert!(Labelled::parse("x 1 JJ").is_err(), "game number");
        assert!(
            Labelled::parse("3 1 JJKK").is_err(),
            "first turn is one stone"
        );
    }
}
