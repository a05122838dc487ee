//! `connect6 tune fit-games GAMES` and `connect6 tune fit DATA`: the hand evaluation's
//! tables fitted on the quiet positions of a games file (`tune records`) or of a self-play
//! data set (`tune games`), every M-th game held out and the scale K fitted with the current
//! table unless given, printed as Rust source. The engine's tables are fitted with
//! `connect6 tune fit-games tests/data/fit-games.txt --k 0.005122` (`ENGINE_TABLE_K`).

use super::{FITTED, FITTED_WINDOWS, LAMBDA, Weights, read_samples, run_fit, table_source};
use crate::tuning::HOLDOUT_EVERY;
use crate::tuning::args::{non_negative, positive};
use crate::tuning::games::read_games;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug, Clone)]
pub struct FitGamesArgs {
    /// A games file (`tune records`).
    #[arg(value_name = "GAMES")]
    pub games: PathBuf,
    #[command(flatten)]
    pub fit: FitOptions,
}

#[derive(clap::Args, Debug, Clone)]
pub struct FitArgs {
    /// A self-play data set (`tune games`).
    #[arg(value_name = "DATA")]
    pub data: PathBuf,
    #[command(flatten)]
    pub fit: FitOptions,
}

#[derive(clap::Args, Debug, Clone)]
pub struct FitOptions {
    /// Hold out the positions of every M-th game, to measure the fit on (0: none).
    #[arg(long, value_name = "M", default_value_t = HOLDOUT_EVERY)]
    pub holdout: usize,
    /// The L2 penalty on the weights in logit units (0 or more).
    #[arg(long, value_name = "L", default_value_t = LAMBDA, value_parser = non_negative)]
    pub lambda: f64,
    /// The scale of the evaluation in the logistic model [default: fitted with the current
    /// table].
    #[arg(long, value_name = "K", value_parser = positive)]
    pub k: Option<f64>,
}

/// `tune fit-games`.
pub fn fit_games(a: &FitGamesArgs) -> Result<(), String> {
    fit(&a.fit, &a.games, true)
}

/// `tune fit`.
pub fn fit_data(a: &FitArgs) -> Result<(), String> {
    fit(&a.fit, &a.data, false)
}

/// Fits on a self-play data set (`games` false) or on a games file.
fn fit(options: &FitOptions, path: &Path, games: bool) -> Result<(), String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
    let (samples, skipped) = if games {
        read_games(&text)
    } else {
        read_samples(&text)
    }
    .map_err(|e| format!("{shown}: {e}"))?;
    if samples.is_empty() {
        return Err(format!("{shown}: no quiet positions"));
    }
    let (holdout, lambda) = (options.holdout, options.lambda);
    let report = run_fit(&samples, holdout, lambda, options.k);
    println!(
        "{} positions ({} not quiet, skipped): {} to fit, {} held out (every {holdout}th game)",
        samples.len(),
        skipped,
        report.train,
        report.test
    );
    println!(
        "K = {:.6} ({}); lambda {lambda}; largest gradient left {:.1e}",
        report.k,
        if options.k.is_some() {
            "given"
        } else {
            "fitted with the current table"
        },
        report.gradient
    );
    println!(
        "mean log loss      current  fitted   (all zero: {:.4})",
        2f64.ln()
    );
    println!(
        "  fitted part      {:.5}  {:.5}",
        report.train_before, report.train_after
    );
    println!(
        "  held-out part    {:.5}  {:.5}",
        report.test_before, report.test_after
    );
    let (now, fitted) = (Weights::current(), &report.weights);
    let change = |what: String, to_move: [f64; 2], waiting: [f64; 2]| {
        println!(
            "  {what}: to move {:.1} -> {:.1}, waiting {:.1} -> {:.1}",
            to_move[0], to_move[1], waiting[0], waiting[1]
        );
    };
    for p in FITTED {
        let i = p as usize;
        let to_move = [now.to_move[i], fitted.to_move[i]];
        change(
            format!("{p:?}"),
            to_move,
            [now.waiting[i], fitted.waiting[i]],
        );
    }
    for k in FITTED_WINDOWS {
        let to_move = [now.to_move_window[k], fitted.to_move_window[k]];
        let waiting = [now.waiting_window[k], fitted.waiting_window[k]];
        change(format!("window of {k}"), to_move, waiting);
    }
    print!("{}", table_source(&report.weights));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tuning::args::tests::{parse, refused};

    #[test]
    fn the_fits_parse_with_their_defaults_and_refuse_bad_numbers() {
        let f: FitGamesArgs = parse("g.txt --k 0.005122").unwrap();
        assert_eq!(f.games, PathBuf::from("g.txt"));
        assert_eq!(
            (f.fit.holdout, f.fit.lambda, f.fit.k),
            (HOLDOUT_EVERY, LAMBDA, Some(0.005122))
        );
        let f: FitArgs = parse("d.txt --holdout 0").unwrap();
        assert_eq!(
            (f.data, f.fit.holdout, f.fit.k),
            (PathBuf::from("d.txt"), 0, None)
        );
        refused::<FitArgs>(&["", "d --k 0", "d --k nan", "d --k -1", "d --lambda -0.1"]);
        refused::<FitGamesArgs>(&["", "g --holdout -1"]);
    }
}
