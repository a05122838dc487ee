//! The models a search plays with: the evaluation and the cell ranking, as values handed to
//! each searcher (`Searcher::with_models`), so that one process can hold two configurations;
//! and the command-line options the engine and `bench` share to choose them.
//!
//! The learned tables are embedded in the binary; `--ranking-file` and `--eval-file` put a
//! file in their place (as `tune policy` and `tune eval` write them), so that a team can
//! measure its own fit without building the engine again.

use crate::engine::cell_eval;
use crate::engine::eval::{EvalModel, Evaluation};
use crate::engine::ranking::{self, KeyWorth};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// An evaluation and a cell ranking. Cheap to clone: the tables are shared.
#[derive(Clone)]
pub struct Models {
    pub eval: EvalModel,
    pub ranking: Arc<KeyWorth>,
}

impl Models {
    /// The engine's defaults: the embedded cell values and ranking.
    pub fn embedded() -> Models {
        Models::with_eval(Evaluation::Cells)
    }

    /// The evaluation `kind` and the ranking embedded in the binary.
    pub fn with_eval(kind: Evaluation) -> Models {
        Models {
            eval: EvalModel::embedded(kind),
            ranking: Arc::new(KeyWorth::embedded()),
        }
    }
}

/// The tables are not printed: the evaluation's kind says which it is.
impl std::fmt::Debug for Models {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.debug_struct("Models")
            .field("eval", &self.eval.kind())
            .finish_non_exhaustive()
    }
}

#[derive(clap::Args, Debug, Clone, PartialEq)]
pub struct ModelArgs {
    /// The evaluation: `cells` adds to the hand-set terms a fitted value for each empty
    /// cell's code (the four patterns a stone there would make); `hand` is the hand-set
    /// terms alone.
    #[arg(long, value_enum, value_name = "KIND", default_value = "cells")]
    pub eval: Evaluation,
    /// Read the cell values of the evaluation from FILE (`tune eval`) in place of the
    /// embedded ones; implies `--eval cells`, so an `--eval` beside it is refused.
    #[arg(long, value_name = "FILE", conflicts_with = "eval")]
    pub eval_file: Option<PathBuf>,
    /// Read the cell ranking that picks the stones searched from FILE (`tune policy`) in
    /// place of the embedded one.
    #[arg(long, value_name = "FILE")]
    pub ranking_file: Option<PathBuf>,
}

impl ModelArgs {
    /// The models these options name, the files read and checked.
    pub fn load(&self) -> Result<Models, String> {
        let read = |path: &Path| {
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
        };
        let at = |path: &Path, e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
        let ranking = match &self.ranking_file {
            Some(path) => ranking::decode(&read(path)?).map_err(|e| at(path, &e))?,
            None => KeyWorth::embedded(),
        };
        let eval = match &self.eval_file {
            Some(path) => {
                EvalModel::cells(cell_eval::decode(&read(path)?).map_err(|e| at(path, &e))?)
            }
            None => EvalModel::embedded(self.eval),
        };
        Ok(Models {
            eval,
            ranking: Arc::new(ranking),
        })
    }
}
