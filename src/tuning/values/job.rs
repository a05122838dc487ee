//! `connect6 tune eval GAMES..`: the learned evaluation's cell values (`values`) or cell
//! network (`tuning::net`) fitted to the games files, written as an evaluation file;
//! docs/tuning.md gives the commands that made the engine's `cells.bin` and `net.bin`.

use super::{EPOCHS, Features, LAMBDA, Positions, held_out};
use crate::tuning::HOLDOUT_EVERY;
use crate::tuning::args::{non_negative, pass_progress, positive, unit_interval};
use crate::tuning::fit::ENGINE_TABLE_K;
use crate::tuning::games::read_games_files;
use crate::tuning::net;
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
    /// Adagrad's step size [default: 0.03 for cell values, 0.01 for the cell network].
    #[arg(long, value_name = "R", value_parser = positive)]
    pub rate: Option<f64>,
    /// The L2 penalty on the values, in logits, per position.
    #[arg(long, value_name = "L", default_value_t = LAMBDA, value_parser = non_negative)]
    pub lambda: f64,
    /// Hold out every M-th game, to measure the fit on and keep its best pass (0: none).
    #[arg(long, value_name = "M", default_value_t = HOLDOUT_EVERY)]
    pub holdout: usize,
    /// What is fitted: a value for each empty cell's code (`--eval cells`), or a vector for
    /// it read by a small network (`--eval net`).
    #[arg(long, value_enum, value_name = "KIND", default_value = "cells")]
    pub features: Features,
    /// The game result's weight in the label of a position whose search score the games
    /// file gives (`tune selfplay` writes them); the rest is the score's (1: results only).
    #[arg(long, value_name = "B", default_value_t = 1.0, value_parser = unit_interval)]
    pub blend: f64,
}

/// `tune eval`: fits the learned evaluation's cell values or network and writes their file.
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
    let k = ENGINE_TABLE_K;
    let settings = (
        a.epochs,
        a.rate.unwrap_or(a.features.rate()),
        a.lambda,
        a.holdout,
    );
    let (epochs, rate, lambda, holdout) = settings;
    // The file's bytes, the fit's report, and for the network its held-out loss in the
    // engine's integers.
    let (bytes, report, integer) = if a.features == Features::Net {
        let (net, report) = net::fit(
            &positions,
            k,
            epochs,
            rate,
            lambda,
            holdout,
            pass_progress(began),
        );
        let model = net.model(&positions);
        let held = |g: usize| holdout == 0 || held_out(g, holdout);
        let integer = net::model_loss(&model, &positions, k, held);
        (model.encode(), report, Some(integer))
    } else {
        let (model, report) = super::fit(
            &positions,
            k,
            epochs,
            rate,
            lambda,
            holdout,
            pass_progress(began),
        );
        (model.to_file(), report, None)
    };
    std::fs::write(&a.out, bytes).map_err(|e| format!("{}: {e}", a.out.display()))?;
    let (train, test) = report.passes[report.kept - 1];
    let integer = integer.map_or(String::new(), |l| {
        format!(", in the engine's integers {l:.4}")
    });
    println!(
        "{} games, {} positions; kept pass {} of {}: training loss {train:.4}, held-out \
         {test:.4}{integer} (hand evaluation alone {:.4}); {} written ({:.1} s)",
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
        assert_eq!((e.features, e.rate), (Features::Cells, None));
        assert_eq!(
            (e.epochs, e.lambda, e.holdout),
            (EPOCHS, LAMBDA, HOLDOUT_EVERY)
        );
        let e: EvalArgs = parse("g h --out e.bin --blend 0.25 --features net").unwrap();
        assert_eq!((e.games.len(), e.blend), (2, 0.25));
        assert_eq!(e.features, Features::Net);
        refused::<EvalArgs>(&[
            "g --out e --blend 1.5",
            "g --out e --blend -0.1",
            "g --out e --features squares",
            "g --out e --rate 0",
            "--out e",
        ]);
    }
}
