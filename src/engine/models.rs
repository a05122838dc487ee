//! Which evaluation and cell ranking a process plays with: the command-line options the
//! engine and `bench` share, applied once at start-up before any search.
//!
//! The learned tables are embedded in the binary; `--ranking-file` and `--eval-file` put a
//! file in their place (as `tune policy` and `tune eval` write them), so that a team can
//! measure its own fit without building the engine again.

use crate::engine::cell_eval;
use crate::engine::eval::{self, Evaluation};
use crate::engine::ranking;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug, Clone, PartialEq)]
pub struct ModelArgs {
    /// The evaluation: `cells` adds to the hand-set terms a fitted value for each empty
    /// cell's code (the four patterns a stone there would make), `net` a small network over
    /// the same codes; `hand` is the hand-set terms alone.
    #[arg(long, value_enum, value_name = "KIND", default_value = "cells")]
    pub eval: Evaluation,
    /// Read the learned evaluation from FILE (`tune eval`) in place of the embedded one;
    /// implies `--eval cells` or `net`, for a file of cell values or a cell network
    /// (`tune eval --features cells|net`).
    /// The file's kind decides the evaluation, so an `--eval` beside it is refused.
    #[arg(long, value_name = "FILE", conflicts_with = "eval")]
    pub eval_file: Option<PathBuf>,
    /// Read the cell ranking that picks the stones searched from FILE (`tune policy`) in
    /// place of the embedded one.
    #[arg(long, value_name = "FILE")]
    pub ranking_file: Option<PathBuf>,
}

impl ModelArgs {
    /// Reads the files, if any, then makes the choice; nothing is chosen when a file is
    /// refused. Call once, before the first search.
    pub fn apply(&self) -> Result<(), String> {
        let read = |path: &Path| {
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
        };
        let at = |path: &Path, e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
        let ranking_table = match &self.ranking_file {
            Some(path) => Some(ranking::decode(&read(path)?).map_err(|e| at(path, &e))?),
            None => None,
        };
        let eval_model = match &self.eval_file {
            Some(path) => Some(cell_eval::decode(&read(path)?).map_err(|e| at(path, &e))?),
            None => None,
        };
        let eval_kind = match eval_model {
            Some(model) => {
                let kind = if model.is_net() {
                    Evaluation::Net
                } else {
                    Evaluation::Cells
                };
                eval::install_cells(kind, model)?;
                kind
            }
            None => self.eval,
        };
        if let Some(table) = ranking_table {
            ranking::install(table)?;
        }
        // Read the ranking now, not in the first move's time.
        let _ = ranking::chosen();
        eval::choose(eval_kind);
        Ok(())
    }
}
