//! Fits the evaluation's pattern weights (see `connect6::tuning`). Three jobs:
//!
//! ```text
//! cargo run --release --example fit_eval -- --games N --out DATA [--seed S] [--nodes N] [--spread K]
//!     [--move-ms MS]
//! cargo run --release --example fit_eval -- --fit DATA [--holdout M] [--lambda L] [--k K]
//! cargo run --release --example fit_eval -- --records PATH [--records PATH ..] --out GAMES
//! cargo run --release --example fit_eval -- --fit-games GAMES [--holdout M] [--lambda L] [--k K]
//! cargo run --release --example fit_eval -- --openings N --out FILE [--seed S] [--radius R]
//!     [--balance-depth D]
//! cargo run --release --example fit_eval -- --replies K --from FILE --out FILE [--balance-depth D]
//! ```
//!
//! The first plays N self-play games and writes their quiet positions (with `--move-ms` each
//! turn is also capped in time, which bounds the threat solver but makes the run depend on
//! the machine's speed); the second fits the
//! table on them (every M-th game held out, default 10; the scale K fitted with the current
//! table unless given) and prints it as Rust source; the
//! third writes N two-turn match openings (`JJ` and a white pair near it): drawn at random,
//! or with `--balance-depth D` the N that black scores lowest at search depth D of all the
//! shapes within the radius (random white pairs mostly hand black the game); the fourth
//! extends each two-turn opening of a file to three turns with the K black pairs that score
//! best for black at search depth D (default 4). `--records` writes the games of match
//! records (files, or folders of them) as a games file (`connect6::tuning::games`), and
//! `--fit-games` fits the table on the quiet positions of such a file, as `--fit` does on a
//! self-play data set. The engine's tables are fitted with
//! `--fit-games tests/data/fit-games.txt --k 0.005122` (`fit::ENGINE_TABLE_K`).

use connect6::tuning::datagen::{
    GenConfig, REPLY_CANDIDATES, balanced_openings, black_replies, generate_data, two_turn_openings,
};
use connect6::tuning::fit::{
    FITTED, FITTED_WINDOWS, HOLDOUT_EVERY, LAMBDA, Weights, read_samples, run_fit, table_source,
};
use connect6::tuning::games::{games_file, read_games};
use std::io::BufWriter;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Default)]
struct Args {
    games: Option<usize>,
    openings: Option<usize>,
    replies: Option<usize>,
    from: Option<String>,
    fit: Option<String>,
    fit_games: Option<String>,
    records: Vec<String>,
    out: Option<String>,
    seed: Option<u64>,
    radius: Option<i32>,
    balance_depth: Option<u8>,
    nodes: Option<u64>,
    spread: Option<usize>,
    move_ms: Option<u64>,
    holdout: Option<u64>,
    lambda: Option<f64>,
    k: Option<f64>,
}

fn parse(args: &[String]) -> Result<Args, String> {
    fn number<T: std::str::FromStr>(flag: &str, v: Option<&String>) -> Result<T, String> {
        let v = v.ok_or(format!("{flag} needs a value"))?;
        v.parse().map_err(|_| format!("{flag}: bad value '{v}'"))
    }
    let mut a = Args::default();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--games" => a.games = Some(number(flag, it.next())?),
            "--openings" => a.openings = Some(number(flag, it.next())?),
            "--replies" => a.replies = Some(number(flag, it.next())?),
            "--from" => a.from = Some(it.next().ok_or("--from needs a file")?.clone()),
            "--fit" => a.fit = Some(it.next().ok_or("--fit needs a file")?.clone()),
            "--fit-games" => {
                a.fit_games = Some(it.next().ok_or("--fit-games needs a file")?.clone())
            }
            "--records" => a
                .records
                .push(it.next().ok_or("--records needs a path")?.clone()),
            "--out" => a.out = Some(it.next().ok_or("--out needs a file")?.clone()),
            "--seed" => a.seed = Some(number(flag, it.next())?),
            "--radius" => a.radius = Some(number(flag, it.next())?),
            "--balance-depth" => a.balance_depth = Some(number(flag, it.next())?),
            "--nodes" => a.nodes = Some(number(flag, it.next())?),
            "--spread" => a.spread = Some(number(flag, it.next())?),
            "--move-ms" => a.move_ms = Some(number(flag, it.next())?),
            "--holdout" => a.holdout = Some(number(flag, it.next())?),
            "--lambda" => a.lambda = Some(number(flag, it.next())?),
            "--k" => a.k = Some(number(flag, it.next())?),
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    let jobs = [
        a.games.is_some(),
        a.openings.is_some(),
        a.fit.is_some(),
        a.replies.is_some(),
        a.fit_games.is_some(),
        !a.records.is_empty(),
    ];
    if jobs.iter().filter(|&&j| j).count() != 1 {
        return Err(
            "give exactly one of --games, --fit, --openings, --replies, --records, --fit-games"
                .into(),
        );
    }
    if a.fit.is_none() && a.fit_games.is_none() && a.out.is_none() {
        return Err("--games, --openings, --replies and --records need --out FILE".into());
    }
    if a.replies.is_some() != a.from.is_some() {
        return Err("--replies and --from go together".into());
    }
    Ok(a)
}

fn generate(a: &Args, games: usize, out: &str) -> Result<(), String> {
    let defaults = GenConfig::default();
    let config = GenConfig {
        games,
        seed: a.seed.unwrap_or(defaults.seed),
        nodes: a.nodes.unwrap_or(defaults.nodes),
        spread: a.spread.unwrap_or(defaults.spread),
        hash_mb: defaults.hash_mb,
        move_ms: a.move_ms,
    };
    let file = std::fs::File::create(out).map_err(|e| format!("{out}: {e}"))?;
    let mut writer = BufWriter::new(file);
    let began = Instant::now();
    let summary = generate_data(&config, &mut writer, |s| {
        if s.games % 50 == 0 {
            eprintln!(
                "{} games, {} positions, {:.0} s",
                s.games,
                s.positions,
                began.elapsed().as_secs_f64()
            );
        }
    })
    .map_err(|e| format!("{out}: {e}"))?;
    println!(
        "{} games ({} turns; black won {}, white {}, drawn {}), {} positions in {} ({:.1} s)",
        summary.games,
        summary.turns,
        summary.black_wins,
        summary.white_wins,
        summary.draws,
        summary.positions,
        out,
        began.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Writes the games of the records in `paths` as a games file.
fn records(paths: &[String], out: &str) -> Result<(), String> {
    let paths: Vec<std::path::PathBuf> = paths.iter().map(Into::into).collect();
    let (text, count) = games_file(&paths)?;
    std::fs::write(out, text).map_err(|e| format!("{out}: {e}"))?;
    println!("{count} games in {out}");
    Ok(())
}

/// Fits on a self-play data set (`games` false) or on a games file.
fn fit(a: &Args, path: &str, games: bool) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let (samples, skipped) = if games {
        read_games(&text)
    } else {
        read_samples(&text)
    }
    .map_err(|e| format!("{path}: {e}"))?;
    if samples.is_empty() {
        return Err(format!("{path}: no quiet positions"));
    }
    let holdout = a.holdout.unwrap_or(HOLDOUT_EVERY);
    let lambda = a.lambda.unwrap_or(LAMBDA);
    let report = run_fit(&samples, holdout, lambda, a.k);
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
        if a.k.is_some() {
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

fn openings(a: &Args, count: usize, out: &str) -> Result<(), String> {
    let seed = a.seed.unwrap_or(1);
    let radius = a.radius.unwrap_or(2);
    let (list, how): (Vec<String>, String) = match a.balance_depth {
        None => (
            two_turn_openings(count, seed, radius),
            format!("drawn with seed {seed}"),
        ),
        Some(depth) => {
            let scored = balanced_openings(count, seed, radius, depth);
            let how = format!(
                "the {} that black scores lowest (from {} to {}) at search depth {depth} of all\n\
                 # shapes within the radius: random white pairs mostly hand black the game",
                scored.len(),
                scored.first().map_or(0, |s| s.1),
                scored.last().map_or(0, |s| s.1),
            );
            (scored.into_iter().map(|(text, _)| text).collect(), how)
        }
    };
    let balance = a
        .balance_depth
        .map_or(String::new(), |d| format!(" --balance-depth {d}"));
    let text = format!(
        "# Two-turn openings: black JJ, then a white pair within {radius} cells of JJ; black to move.\n\
         # {} of them, distinct up to the board's symmetries, {how}\n\
         # (cargo run --release --example fit_eval -- --openings {count} --seed {seed} --radius {radius}{balance} --out FILE).\n",
        list.len()
    );
    write_openings(out, text, list.iter().map(String::as_str))?;
    println!("{} openings in {out}", list.len());
    Ok(())
}

/// Writes an openings file: the `header` comment lines, then one opening a line.
fn write_openings<'a>(
    out: &str,
    mut header: String,
    list: impl Iterator<Item = &'a str>,
) -> Result<(), String> {
    for o in list {
        header.push_str(o);
        header.push('\n');
    }
    std::fs::write(out, header).map_err(|e| format!("{out}: {e}"))
}

fn replies(a: &Args, per: usize, from: &str, out: &str) -> Result<(), String> {
    let depth = a.balance_depth.unwrap_or(4);
    let text = std::fs::read_to_string(from).map_err(|e| format!("{from}: {e}"))?;
    let base: Vec<String> = connect6::arena::openings::parse(&text)
        .map_err(|e| format!("{from}: {e}"))?
        .iter()
        .map(connect6::arena::Opening::text)
        .collect();
    let began = Instant::now();
    let list = black_replies(&base, per, depth);
    let scores = list.iter().map(|(_, s)| *s);
    let text = format!(
        "# Three-turn openings: each two-turn opening of {from}, then the {per} black pairs that\n\
         # score best for black at search depth {depth} of the move generator's {REPLY_CANDIDATES};\n\
         # white to move. {} openings, black's scores {} to {}\n\
         # (cargo run --release --example fit_eval -- --replies {per} --from {from} --balance-depth {depth} --out FILE).\n",
        list.len(),
        scores.clone().min().unwrap_or(0),
        scores.max().unwrap_or(0),
    );
    write_openings(out, text, list.iter().map(|(o, _)| o.as_str()))?;
    println!(
        "{} openings in {out} ({:.1} s)",
        list.len(),
        began.elapsed().as_secs_f64()
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = parse(&args).and_then(|a| {
        let out = a.out.as_deref().unwrap_or_default();
        if let Some(path) = &a.fit_games {
            return fit(&a, path, true);
        }
        if !a.records.is_empty() {
            return records(&a.records, out);
        }
        match (&a.games, &a.openings, &a.fit, &a.replies) {
            (Some(n), ..) => generate(&a, *n, out),
            (_, Some(n), ..) => openings(&a, *n, out),
            (_, _, Some(path), _) => fit(&a, path, false),
            (.., Some(k)) => replies(&a, *k, a.from.as_deref().unwrap_or_default(), out),
            _ => unreachable!("parse checks one job"),
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fit_eval: {e}");
            ExitCode::from(2)
        }
    }
}
