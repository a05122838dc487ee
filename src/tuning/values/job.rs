//! `connect6 tune eval GAMES..`: the learned evaluation's cell values (`values`) fitted to
//! the games files, written as an evaluation file; docs/tuning.md gives the command that
//! made the engine's `cells.bin`.

use super::{CELL_RATE, EPOCHS, LAMBDA, Positions};
use crate::tuning::HOLDOUT_EVERY;
use crate::tuning::args::{non_negative, pass_progress, positive, unit_interval};
use crate::tuning::fit::ENGINE_TABLE_K;
use crate::tuning::games::read_games_files;
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args, Debug, Clone)]
pub struct EvalArgs {
    /// Games files (`tune records`, `tests/data/fit-games.txt`).
    #[arg(required = true, value_name = "GAMES")]
    pub games: Vec<PathBuf>,
    /// The evaluation file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Passes over the training positions.
    #[arg(long, value_name = "N", default_value_t = EPOCHS,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1000))]
    pub epochs: usize,
    /// Adagrad's step size.
    #[arg(long, value_name = "R", default_value_t = CELL_RATE, value_parser = positive)]
    pub rate: f64,
    /// The L2 penalty on the values, in logits, per position.
    #[arg(long, value_name = "L", default_value_t = LAMBDA, value_parser = non_negative)]
    pub lambda: f64,
    /// Hold out every M-th game, to measure the fit on and keep its best pass (0: none).
    #[arg(long, value_name = "M", default_value_t = HOLDOUT_EVERY)]
    pub holdout: usize,
    /// The game result's weight in the label of a position whose search score the games
    /// file gives (`tune selfplay` writes them); the rest is the score's (1: results only).
    #[arg(long, value_name = "B", default_value_t = 1.0, value_parser = unit_interval)]
    pub blend: f64,
}

/// `tune eval`: fits the learned evaluation's cell values and writes their file.
pub fn fit_values(a: &EvalArgs) -> Result<(), String> {
    let began = Instant::now();
    let games = read_games_files(&a.games)?;
    let mut positions = Positions::of(&games);
    eprintln!("{} games, {} positions", games.len(), positions.len());
    if a.blend < 1.0 {
        let blended = positions.blend_scores(a.blend, ENGINE_TABLE_K);
        eprintln!(
            "{blended} positions labelled with their search score at weight {}",
            1.0 - a.blend
        );
    }
    let (model, report) = super::fit(
        &positions,
        ENGINE_TABLE_K,
        a.epochs,
        a.rate,
        a.lambda,
        a.holdout,
        pass_progress(began),
    );
    let bytes = model.to_file();
    std::fs::write(&a.out, bytes).map_err(|e| format!("{}: {e}", a.out.display()))?;
    let (train, test) = report.passes[report.kept - 1];
    println!(
        "{} games, {} positions; kept pass {} of {}: training loss {train:.4}, held-out \
         {test:.4} (hand evaluation alone {:.4}); {} written ({:.1} s)",
        games.len(),
        positions.len(),
        report.kept,
        report.passes.len(),
        report.baseline_test,
        a.out.display(),
        began.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tuning::args::tests::{parse, refused};

    #[test]
    fn eval_parses_with_its_defaults_and_refuses_bad_options() {
        let e: EvalArgs = parse("g --out e.bin").unwrap();
        assert_eq!(e.blend, 1.0, "results alone unless asked");
        assert_eq!(e.rate, CELL_RATE);
        assert_eq!(
            (e.epochs, e.lambda, e.holdout),
            (EPOCHS, LAMBDA, HOLDOUT_EVERY)
        );
        let e: EvalArgs = parse("g h --out e.bin --blend 0.25").unwrap();
        assert_eq!((e.games.len(), e.blend), (2, 0.25));
        refused::<EvalArgs>(&[
            "g --out e --blend 1.5",
            "g --out e --blend -0.1",
            "g --out e --features net",
            "g --out e --rate 0",
            "--out e",
        ]);
    }
}
