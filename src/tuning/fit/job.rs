//! `connect6 tune fit-games GAMES`: the hand evaluation's tables fitted on the quiet
//! positions of a games file (`tune records`, `tune selfplay`), every M-th game held out and
//! the scale K fitted with the current table unless given, printed as Rust source. The
//! engine's tables are fitted with
//! `connect6 tune fit-games tests/data/fit-games.txt --k 0.005122` (`ENGINE_TABLE_K`).

use super::{FITTED, FITTED_WINDOWS, LAMBDA, Weights, run_fit, table_source};
use crate::tuning::HOLDOUT_EVERY;
use crate::tuning::args::{non_negative, positive};
use crate::tuning::games::read_games;
use std::path::PathBuf;

#[derive(clap::Args, Debug, Clone)]
pub struct FitGamesArgs {
    /// A games file (`tune records`, `tune selfplay`).
    #[arg(value_name = "GAMES")]
    pub games: PathBuf,
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
pub fn fit_games(options: &FitGamesArgs) -> Result<(), String> {
    let shown = options.games.display();
    let text = std::fs::read_to_string(&options.games).map_err(|e| format!("{shown}: {e}"))?;
    let (samples, skipped) = read_games(&text).map_err(|e| format!("{shown}: {e}"))?;
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
    use crate::engine::tunables::{
        TO_MOVE_PATTERN, TO_MOVE_WINDOW, WAITING_PATTERN, WAITING_WINDOW,
    };
    use crate::tuning::args::tests::{parse, refused};
    use crate::tuning::fit::{loss, parse_table};

    #[test]
    fn the_fits_parse_with_their_defaults_and_refuse_bad_numbers() {
        let f: FitGamesArgs = parse("g.txt --k 0.005122").unwrap();
        assert_eq!(f.games, PathBuf::from("g.txt"));
        assert_eq!(
            (f.holdout, f.lambda, f.k),
            (HOLDOUT_EVERY, LAMBDA, Some(0.005122))
        );
        let f: FitGamesArgs = parse("g.txt --holdout 0").unwrap();
        assert_eq!((f.holdout, f.k), (0, None));
        refused::<FitGamesArgs>(&[
            "",
            "g --holdout -1",
            "g --k 0",
            "g --k nan",
            "g --k -1",
            "g --lambda -0.1",
        ]);
    }

    /// The whole pipeline on the first 300 match games: positions, fit, table.
    #[test]
    fn pipeline_on_a_small_games_file() {
        let text = include_str!("../../../tests/data/fit-games.txt");
        let head: Vec<&str> = text.lines().take(301).collect();
        let (samples, skipped) = read_games(&head.join("\n")).unwrap();
        assert!(
            samples.len() > 1000 && skipped > 0,
            "{} {skipped}",
            samples.len()
        );
        let report = run_fit(&samples, 0, 1e-4, None);
        assert_eq!(report.train, samples.len());
        assert!(
            report.k > 0.0,
            "a better eval means more wins: k {}",
            report.k
        );
        assert!(report.train_after <= report.train_before);
        let zero = loss(&samples, &Weights::without_fitted(), report.k);
        assert!(report.train_after < zero.min(std::f64::consts::LN_2));
        let source = table_source(&report.weights);
        let table = parse_table(&source).unwrap();
        assert_eq!(table, report.weights.rounded());
        // Classes and windows not fitted keep their values.
        for p in [0, 5, 6, 7, 8, 9] {
            assert_eq!(table.to_move[p], TO_MOVE_PATTERN[p]);
            assert_eq!(table.waiting[p], WAITING_PATTERN[p]);
        }
        for k in [0, 4, 5, 6] {
            assert_eq!(table.to_move_window[k], TO_MOVE_WINDOW[k]);
            assert_eq!(table.waiting_window[k], WAITING_WINDOW[k]);
        }
    }
}
