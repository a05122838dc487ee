//! `connect6 tune JOB`: the jobs that fit the evaluation's tables and make the match
//! openings, one clap subcommand each (the logic is in the other modules of `tuning`):
//!
//! ```text
//! connect6 tune records PATH.. --out GAMES
//! connect6 tune fit-games GAMES [--holdout M] [--lambda L] [--k K]
//! connect6 tune games N --out DATA [--seed S] [--nodes N] [--spread K] [--move-ms MS]
//! connect6 tune fit DATA [--holdout M] [--lambda L] [--k K]
//! connect6 tune selfplay N --out GAMES [--nodes N] [--openings FILE] [--seed S] [--threads T]
//!     [--ranking-file FILE] [--eval-file FILE]
//! connect6 tune openings N --out FILE [--seed S] [--radius R] [--balance-depth D]
//! connect6 tune replies K --from FILE --out FILE [--balance-depth D]
//! connect6 tune defence-suite PATH.. --out FILE [--nodes N]
//! connect6 tune policy GAMES.. --out FILE [--epochs N] [--rate R] [--holdout M] [--winners]
//! connect6 tune policy-hits GAMES.. [--ranking FILE] [--all-turns]
//! connect6 tune eval GAMES.. --out FILE [--epochs N] [--rate R] [--lambda L] [--holdout M]
//! ```
//!
//! `records` writes the games of match records (files, or folders of them) as a games file
//! (`tuning::games`), and `fit-games` fits the tables on the quiet positions of such a file
//! (every M-th game held out, the scale K fitted with the current table unless given) and
//! prints them as Rust source. `games` plays N self-play games and writes their quiet
//! positions (with `--move-ms` each turn is also capped in time, which bounds the threat
//! solver but makes the run depend on the machine's speed), and `fit` fits the tables on
//! such a data set as `fit-games` does on a games file. `openings` writes N two-turn match
//! openings (`JJ` and a white pair near it): drawn at random, or with `--balance-depth D`
//! the N that black scores lowest at search depth D of all the shapes within the radius
//! (random white pairs mostly hand black the game); `replies` extends each two-turn opening
//! of a file to three turns with the K black pairs that score best for black at search
//! depth D. The engine's tables are fitted with
//! `connect6 tune fit-games tests/data/fit-games.txt --k 0.005122` (`fit::ENGINE_TABLE_K`).
//!
//! `policy` fits the learned cell ranking (`engine::ranking`) to the quiet turns of games
//! files and writes it as a ranking file; the engine's is fitted with
//! `connect6 tune policy tests/data/fit-games.txt tests/data/selfplay-games.txt --out
//! src/engine/ranking.bin`.
//! `policy-hits` tells how often the pair generator puts the turn a game's winner played
//! among its first K pairs, with the engine's ranking and a ranking file. `eval` fits the
//! learned evaluation's cell values (`tuning::values`) or cell network (`tuning::net`) and
//! writes them as an evaluation file; docs/tuning.md gives the commands that made the
//! engine's `cells.bin` and `net.bin`.
//!
//! Results go to stdout (and to `--out`), progress and errors to stderr; an error is one
//! line and exit code 2.

use super::datagen::{
    GenConfig, REPLY_CANDIDATES, balanced_openings, black_replies, generate_data, two_turn_openings,
};
use super::defence::{DEFAULT_NODES, defence_suite};
use super::fit::{
    FITTED, FITTED_WINDOWS, HOLDOUT_EVERY, LAMBDA, Weights, read_samples, run_fit, table_source,
};
use super::games::{GameTurns, games_file, read_game_turns, read_games};
use super::policy::{self, HIT_RANKS, Movers};
use super::selfplay::{SelfPlayConfig, self_play};
use super::values;
use crate::engine::ranking;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// `connect6 tune`: one of the jobs.
#[derive(clap::Args, Debug, Clone)]
pub struct TuneArgs {
    #[command(subcommand)]
    pub job: Job,
}

#[derive(clap::Subcommand, Debug, Clone)]
pub enum Job {
    /// Write the games of match records (files, or folders of *.txt records) as a games file.
    Records(RecordsArgs),
    /// Fit the evaluation's tables on the quiet positions of a games file; print them as Rust
    /// source.
    FitGames(FitGamesArgs),
    /// Play self-play games and write their quiet positions as a data set.
    Games(GamesArgs),
    /// Fit the evaluation's tables on a self-play data set; print them as Rust source.
    Fit(FitArgs),
    /// Play the engine against itself at a node limit; write the games as a games file.
    #[command(name = "selfplay")]
    SelfPlay(SelfPlayArgs),
    /// Give every position a fit samples in games files the score of a fixed-node search;
    /// write them as a games file.
    Label(LabelArgs),
    /// Write two-turn match openings: black's JJ and a white pair near it.
    Openings(OpeningsArgs),
    /// Extend two-turn openings to three turns with black's best pairs.
    Replies(RepliesArgs),
    /// Write the positions of games where the side not to move threatens a threat-sequence
    /// win, for `bench --defence-suite`.
    DefenceSuite(DefenceSuiteArgs),
    /// Fit the learned cell ranking to the quiet turns of games files; write a ranking file.
    Policy(PolicyArgs),
    /// How often the pair generator puts a game's turn among its first K pairs, with the
    /// engine's ranking and a ranking file.
    PolicyHits(PolicyHitsArgs),
    /// Fit the learned evaluation's cell values or cell network to the results (and search
    /// scores) of games files; write an evaluation file.
    Eval(EvalArgs),
}

impl Job {
    /// The subcommand's name, for error messages.
    pub fn name(&self) -> &'static str {
        match self {
            Job::Records(_) => "records",
            Job::FitGames(_) => "fit-games",
            Job::Games(_) => "games",
            Job::Fit(_) => "fit",
            Job::SelfPlay(_) => "selfplay",
            Job::Label(_) => "label",
            Job::Openings(_) => "openings",
            Job::Replies(_) => "replies",
            Job::DefenceSuite(_) => "defence-suite",
            Job::Policy(_) => "policy",
            Job::PolicyHits(_) => "policy-hits",
            Job::Eval(_) => "eval",
        }
    }
}

#[derive(clap::Args, Debug, Clone)]
pub struct RecordsArgs {
    /// Record files in the competition format, or folders of them.
    #[arg(required = true, value_name = "PATH")]
    pub records: Vec<PathBuf>,
    /// The games file to write.
    #[arg(long, value_name = "GAMES")]
    pub out: PathBuf,
}

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
    pub holdout: u64,
    /// The L2 penalty on the weights in logit units (0 or more).
    #[arg(long, value_name = "L", default_value_t = LAMBDA, value_parser = non_negative)]
    pub lambda: f64,
    /// The scale of the evaluation in the logistic model [default: fitted with the current
    /// table].
    #[arg(long, value_name = "K", value_parser = positive)]
    pub k: Option<f64>,
}

#[derive(clap::Args, Debug, Clone)]
pub struct GamesArgs {
    /// How many games to play.
    #[arg(value_name = "N")]
    pub games: usize,
    /// The data set to write.
    #[arg(long, value_name = "DATA")]
    pub out: PathBuf,
    /// Seed of the random openings.
    #[arg(long, value_name = "S", default_value_t = GenConfig::default().seed)]
    pub seed: u64,
    /// Main-search nodes per turn.
    #[arg(long, value_name = "N", default_value_t = GenConfig::default().nodes)]
    pub nodes: u64,
    /// The random first pairs are drawn from the move generator's best K.
    #[arg(long, value_name = "K", default_value_t = GenConfig::default().spread)]
    pub spread: usize,
    /// Also cap each turn at MS milliseconds (at most a day) [default: no cap].
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(..=86_400_000))]
    pub move_ms: Option<u64>,
}

#[derive(clap::Args, Debug, Clone)]
pub struct SelfPlayArgs {
    /// How many games to play.
    #[arg(value_name = "N")]
    pub games: usize,
    /// The games file to write.
    #[arg(long, value_name = "GAMES")]
    pub out: PathBuf,
    /// Main-search nodes per turn; each side of a game gets 3/4 to 5/4 of it.
    #[arg(long, value_name = "N", default_value_t = 100_000,
          value_parser = clap::value_parser!(u64).range(4..))]
    pub nodes: u64,
    /// Openings for the even-numbered games, in turn (odd ones open at random).
    #[arg(long, value_name = "FILE", default_value = "tests/data/openings.txt")]
    pub openings: PathBuf,
    /// Seed of the random openings and node limits.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// The random openings' third turns come from the move generator's best K pairs.
    #[arg(long, value_name = "K", default_value_t = GenConfig::default().spread)]
    pub spread: usize,
    /// Games played at once [default: the machine's cores].
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,
    /// The ranking and evaluation both sides play with.
    #[command(flatten)]
    pub models: crate::engine::models::ModelArgs,
}

#[derive(clap::Args, Debug, Clone)]
pub struct LabelArgs {
    /// Games files (`tune records`, `tests/data/fit-games.txt`).
    #[arg(required = true, value_name = "GAMES")]
    pub games: Vec<PathBuf>,
    /// The games file to write.
    #[arg(long, value_name = "GAMES")]
    pub out: PathBuf,
    /// Main-search nodes per position.
    #[arg(long, value_name = "N", default_value_t = 20_000,
          value_parser = clap::value_parser!(u64).range(4..))]
    pub nodes: u64,
    /// Games labelled at once [default: the machine's cores].
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,
    /// The ranking and evaluation the search plays with.
    #[command(flatten)]
    pub models: crate::engine::models::ModelArgs,
}

#[derive(clap::Args, Debug, Clone)]
pub struct OpeningsArgs {
    /// How many openings to write.
    #[arg(value_name = "N")]
    pub openings: usize,
    /// The openings file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Seed of the random draw.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// White's stones lie within R cells of JJ (1..=9).
    #[arg(long, value_name = "R", default_value_t = 2,
          value_parser = clap::value_parser!(i32).range(1..=9))]
    pub radius: i32,
    /// Keep the N of all shapes that black scores lowest at search depth D (1..=60)
    /// [default: a random draw].
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u8).range(1..=60))]
    pub balance_depth: Option<u8>,
}

#[derive(clap::Args, Debug, Clone)]
pub struct RepliesArgs {
    /// Black pairs kept after each two-turn opening.
    #[arg(value_name = "K")]
    pub replies: usize,
    /// The two-turn openings to extend (an openings file, black to move).
    #[arg(long, value_name = "FILE")]
    pub from: PathBuf,
    /// The openings file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Score black's pairs at search depth D (1..=60).
    #[arg(long, value_name = "D", default_value_t = 4,
          value_parser = clap::value_parser!(u8).range(1..=60))]
    pub balance_depth: u8,
}

#[derive(clap::Args, Debug, Clone)]
pub struct DefenceSuiteArgs {
    /// Record files in the competition format, or folders of them.
    #[arg(required = true, value_name = "PATH")]
    pub records: Vec<PathBuf>,
    /// The suite file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Solver nodes of each long solve.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_NODES,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
}

#[derive(clap::Args, Debug, Clone)]
pub struct PolicyArgs {
    /// Games files (`tune records`, `tests/data/fit-games.txt`).
    #[arg(required = true, value_name = "GAMES")]
    pub games: Vec<PathBuf>,
    /// The ranking file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Passes over the training games.
    #[arg(long, value_name = "N", default_value_t = policy::EPOCHS,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1000))]
    pub epochs: usize,
    /// Adagrad's step size.
    // Written as text: `policy::RATE as f64` would show as 0.10000000149011612 in `--help`.
    #[arg(long, value_name = "R", default_value = policy::RATE_TEXT, value_parser = positive)]
    pub rate: f64,
    /// Hold out every M-th game, to measure the fit on and keep its best pass (0: none).
    #[arg(long, value_name = "M", default_value_t = policy::HOLDOUT_EVERY)]
    pub holdout: usize,
    /// Learn only from the turns of the side that won the game.
    #[arg(long)]
    pub winners: bool,
}

#[derive(clap::Args, Debug, Clone)]
pub struct PolicyHitsArgs {
    /// Games files (`tune records`, `tests/data/fit-games.txt`).
    #[arg(required = true, value_name = "GAMES")]
    pub games: Vec<PathBuf>,
    /// A ranking file to measure beside the engine's own.
    #[arg(long, value_name = "FILE")]
    pub ranking: Option<PathBuf>,
    /// Count every side's turns, not only the winner's.
    #[arg(long)]
    pub all_turns: bool,
    /// Only every M-th game, counted from the M-th (the games `policy --holdout M` held
    /// out); 1: all.
    #[arg(long, value_name = "M", default_value_t = 1,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub every: usize,
}

#[derive(clap::Args, Debug, Clone)]
pub struct EvalArgs {
    /// Games files (`tune records`, `tests/data/fit-games.txt`).
    #[arg(required = true, value_name = "GAMES")]
    pub games: Vec<PathBuf>,
    /// The evaluation file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Passes over the training positions.
    #[arg(long, value_name = "N", default_value_t = values::EPOCHS,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1000))]
    pub epochs: usize,
    /// Adagrad's step size [default: 0.03 for cell values, 0.01 for the cell network].
    #[arg(long, value_name = "R", value_parser = positive)]
    pub rate: Option<f64>,
    /// The L2 penalty on the values, in logits, per position.
    #[arg(long, value_name = "L", default_value_t = values::LAMBDA, value_parser = non_negative)]
    pub lambda: f64,
    /// Hold out every M-th game, to measure the fit on and keep its best pass (0: none).
    #[arg(long, value_name = "M", default_value_t = values::HOLDOUT_EVERY)]
    pub holdout: usize,
    /// What is fitted: a value for each empty cell's code (`--eval cells`), or a vector for
    /// it read by a small network (`--eval net`).
    #[arg(long, value_enum, value_name = "KIND", default_value = "cells")]
    pub features: values::Features,
    /// The game result's weight in the label of a position whose search score the games
    /// file gives (`tune selfplay` writes them); the rest is the score's (1: results only).
    #[arg(long, value_name = "B", default_value_t = 1.0, value_parser = unit_interval)]
    pub blend: f64,
}

fn number(v: &str) -> Result<f64, String> {
    v.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .ok_or_else(|| "expected a finite number".to_string())
}

fn non_negative(v: &str) -> Result<f64, String> {
    number(v).and_then(|x| {
        if x >= 0.0 {
            Ok(x)
        } else {
            Err("expected 0 or more".into())
        }
    })
}

fn unit_interval(v: &str) -> Result<f64, String> {
    number(v).and_then(|x| {
        if (0.0..=1.0).contains(&x) {
            Ok(x)
        } else {
            Err("expected a number from 0 to 1".into())
        }
    })
}

fn positive(v: &str) -> Result<f64, String> {
    number(v).and_then(|x| {
        if x > 0.0 {
            Ok(x)
        } else {
            Err("expected more than 0".into())
        }
    })
}

/// Runs the job: its results on stdout, its error (one line) on stderr with exit code 2.
pub fn run(args: TuneArgs) -> ExitCode {
    let name = args.job.name();
    let result = match args.job {
        Job::Records(a) => records(&a.records, &a.out),
        Job::FitGames(a) => fit(&a.fit, &a.games, true),
        Job::Games(a) => generate(&a),
        Job::Fit(a) => fit(&a.fit, &a.data, false),
        Job::SelfPlay(a) => self_play_file(&a),
        Job::Label(a) => label_file(&a),
        Job::Openings(a) => openings(&a),
        Job::Replies(a) => replies(&a),
        Job::DefenceSuite(a) => defence_suite_file(&a),
        Job::Policy(a) => fit_policy(&a),
        Job::PolicyHits(a) => policy_hits(&a),
        Job::Eval(a) => fit_values(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("connect6 tune {name}: {e}");
            ExitCode::from(2)
        }
    }
}

/// Worker threads: as asked, or one per core.
fn worker_threads(asked: Option<u64>) -> usize {
    asked.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    )
}

/// Labels the games files' positions with a search's scores and writes them as one file.
fn label_file(a: &LabelArgs) -> Result<(), String> {
    a.models.apply()?;
    let games = read_games_files(&a.games)?;
    let out = a.out.display();
    let file = std::fs::File::create(&a.out).map_err(|e| format!("{out}: {e}"))?;
    let mut writer = BufWriter::new(file);
    let began = Instant::now();
    super::label::label(
        &games,
        a.nodes,
        worker_threads(a.threads),
        &mut writer,
        |n| {
            if n % 100 == 0 {
                eprintln!("{n} games, {:.0} s", began.elapsed().as_secs_f64());
            }
        },
    )
    .map_err(|e| format!("{out}: {e}"))?;
    println!(
        "{} games labelled in {out} ({:.1} s)",
        games.len(),
        began.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Plays the self-play games and writes them as a games file.
fn self_play_file(a: &SelfPlayArgs) -> Result<(), String> {
    a.models.apply()?;
    let openings = crate::arena::openings::load(&a.openings).map_err(|e| e.to_string())?;
    let threads = worker_threads(a.threads);
    let config = SelfPlayConfig {
        games: a.games,
        seed: a.seed,
        nodes: a.nodes,
        spread: a.spread,
        openings: openings.into_iter().map(|o| o.turns).collect(),
        threads,
    };
    let out = a.out.display();
    let file = std::fs::File::create(&a.out).map_err(|e| format!("{out}: {e}"))?;
    let mut writer = BufWriter::new(file);
    let began = Instant::now();
    let summary = self_play(&config, &mut writer, |s| {
        if s.games % 50 == 0 {
            eprintln!("{} games, {:.0} s", s.games, began.elapsed().as_secs_f64());
        }
    })
    .map_err(|e| format!("{out}: {e}"))?;
    println!(
        "{} games ({} turns; black won {}, white {}, drawn {}; {} repeats left out) in {} \
         ({:.1} s)",
        summary.games,
        summary.turns,
        summary.black_wins,
        summary.white_wins,
        summary.draws,
        summary.repeats,
        out,
        began.elapsed().as_secs_f64()
    );
    Ok(())
}

fn generate(a: &GamesArgs) -> Result<(), String> {
    let config = GenConfig {
        games: a.games,
        seed: a.seed,
        nodes: a.nodes,
        spread: a.spread,
        hash_mb: GenConfig::default().hash_mb,
        move_ms: a.move_ms,
    };
    let out = a.out.display();
    let file = std::fs::File::create(&a.out).map_err(|e| format!("{out}: {e}"))?;
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

/// Writes the defence suite of the records.
fn defence_suite_file(a: &DefenceSuiteArgs) -> Result<(), String> {
    let began = Instant::now();
    let (text, count) = defence_suite(&a.records, a.nodes)?;
    std::fs::write(&a.out, text).map_err(|e| format!("{}: {e}", a.out.display()))?;
    println!(
        "{count} positions in {} ({:.1}s)",
        a.out.display(),
        began.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Writes the games of the records in `paths` as a games file.
fn records(paths: &[PathBuf], out: &Path) -> Result<(), String> {
    let (text, count) = games_file(paths)?;
    std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))?;
    println!("{count} games in {}", out.display());
    Ok(())
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

fn openings(a: &OpeningsArgs) -> Result<(), String> {
    let (count, seed, radius) = (a.openings, a.seed, a.radius);
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
         # (cargo run --release -- tune openings {count} --seed {seed} --radius {radius}{balance} --out FILE).\n",
        list.len()
    );
    write_openings(&a.out, text, list.iter().map(String::as_str))?;
    println!("{} openings in {}", list.len(), a.out.display());
    Ok(())
}

/// Writes an openings file: the `header` comment lines, then one opening a line.
fn write_openings<'a>(
    out: &Path,
    mut header: String,
    list: impl Iterator<Item = &'a str>,
) -> Result<(), String> {
    for o in list {
        header.push_str(o);
        header.push('\n');
    }
    std::fs::write(out, header).map_err(|e| format!("{}: {e}", out.display()))
}

fn replies(a: &RepliesArgs) -> Result<(), String> {
    let (per, depth, from) = (a.replies, a.balance_depth, a.from.display());
    let text = std::fs::read_to_string(&a.from).map_err(|e| format!("{from}: {e}"))?;
    let base: Vec<String> = crate::arena::openings::parse(&text)
        .map_err(|e| format!("{from}: {e}"))?
        .iter()
        .map(crate::arena::Opening::text)
        .collect();
    let began = Instant::now();
    let list = black_replies(&base, per, depth);
    let scores = list.iter().map(|(_, s)| *s);
    let text = format!(
        "# Three-turn openings: each two-turn opening of {from}, then the {per} black pairs that\n\
         # score best for black at search depth {depth} of the move generator's {REPLY_CANDIDATES};\n\
         # white to move. {} openings, black's scores {} to {}\n\
         # (cargo run --release -- tune replies {per} --from {from} --balance-depth {depth} --out FILE).\n",
        list.len(),
        scores.clone().min().unwrap_or(0),
        scores.max().unwrap_or(0),
    );
    write_openings(&a.out, text, list.iter().map(|(o, _)| o.as_str()))?;
    println!(
        "{} openings in {} ({:.1} s)",
        list.len(),
        a.out.display(),
        began.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The games of games files, in order.
fn read_games_files(paths: &[PathBuf]) -> Result<Vec<GameTurns>, String> {
    let mut games = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        games.extend(read_game_turns(&text).map_err(|e| format!("{}: {e}", path.display()))?);
    }
    Ok(games)
}

/// Reports a fit's pass on stderr: its training and held-out loss and the time so far.
fn pass_progress(began: Instant) -> impl FnMut(usize, f64, f64) {
    move |n, train, test| {
        eprintln!(
            "pass {n}: training loss {train:.4}, held-out {test:.4} ({:.0} s)",
            began.elapsed().as_secs_f64()
        )
    }
}

/// Fits the learned ranking and writes its file.
fn fit_policy(a: &PolicyArgs) -> Result<(), String> {
    let began = Instant::now();
    let games = read_games_files(&a.games)?;
    let movers = if a.winners {
        Movers::Winners
    } else {
        Movers::All
    };
    eprintln!("{} games", games.len());
    let (model, report) = policy::fit(
        &games,
        movers,
        a.epochs,
        a.rate as f32,
        a.holdout,
        pass_progress(began),
    );
    std::fs::write(&a.out, model.to_file()).map_err(|e| format!("{}: {e}", a.out.display()))?;
    let (train, test) = report.passes[report.kept - 1];
    println!(
        "{} games, {} training examples, {} held out; kept pass {} of {}: training loss {train:.4}, \
         held-out {test:.4} (uniform {:.4}); {} written ({:.1} s)",
        games.len(),
        report.train_examples,
        report.test_examples,
        report.kept,
        report.passes.len(),
        report.uniform_loss,
        a.out.display(),
        began.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Prints the hit rates of the engine's ranking, and of a ranking file if given, on the games.
fn policy_hits(a: &PolicyHitsArgs) -> Result<(), String> {
    let games: Vec<GameTurns> = read_games_files(&a.games)?
        .into_iter()
        .skip(a.every - 1)
        .step_by(a.every)
        .collect();
    let file = match &a.ranking {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            Some(ranking::decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))?)
        }
        None => None,
    };
    let movers = if a.all_turns {
        Movers::All
    } else {
        Movers::Winners
    };
    let cut_offs: Vec<String> = HIT_RANKS
        .iter()
        .map(|k| format!("{:>6}", format!("top{k}")))
        .collect();
    println!("{:<8} {:>9} {}", "ranking", "positions", cut_offs.join(" "));
    let rankings = std::iter::once(("engine", ranking::chosen()))
        .chain(file.as_ref().map(|worth| ("file", worth)));
    for (name, worth) in rankings {
        let hits = policy::hits(worth, &games, movers);
        let rates: Vec<String> = (0..HIT_RANKS.len())
            .map(|i| format!("{:>5.1}%", 100.0 * hits.rate(i)))
            .collect();
        println!("{name:<8} {:>9} {}", hits.positions, rates.join(" "));
    }
    Ok(())
}

/// Fits the learned evaluation's line or cell values and writes their file.
fn fit_values(a: &EvalArgs) -> Result<(), String> {
    let began = Instant::now();
    let games = read_games_files(&a.games)?;
    let mut positions = values::Positions::of(&games);
    eprintln!("{} games, {} positions", games.len(), positions.len());
    if a.blend < 1.0 {
        let blended = positions.blend_scores(a.blend, super::fit::ENGINE_TABLE_K);
        eprintln!(
            "{blended} positions labelled with their search score at weight {}",
            1.0 - a.blend
        );
    }
    let k = super::fit::ENGINE_TABLE_K;
    let settings = (
        a.epochs,
        a.rate.unwrap_or(a.features.rate()),
        a.lambda,
        a.holdout,
    );
    let (epochs, rate, lambda, holdout) = settings;
    // The file's bytes, the fit's report, and for the network its held-out loss in the
    // engine's integers.
    let (bytes, report, integer) = if a.features == values::Features::Net {
        let (net, report) = super::net::fit(
            &positions,
            k,
            epochs,
            rate,
            lambda,
            holdout,
            pass_progress(began),
        );
        let model = net.model(&positions);
        let held = |g: usize| holdout == 0 || values::held_out(g, holdout);
        let integer = super::net::model_loss(&model, &positions, k, held);
        (model.encode(), report, Some(integer))
    } else {
        let (model, report) = values::fit(
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
        report.hand_test,
        a.out.display(),
        began.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    struct Cli {
        #[command(subcommand)]
        job: Job,
    }

    fn parse(line: &str) -> Result<Job, clap::Error> {
        Cli::try_parse_from(std::iter::once("tune").chain(line.split_whitespace())).map(|c| c.job)
    }

    #[test]
    fn the_jobs_parse_with_their_defaults() {
        let Job::Games(g) = parse("games 3 --out d.txt").unwrap() else {
            panic!("games")
        };
        let d = GenConfig::default();
        assert_eq!(
            (g.games, g.seed, g.nodes, g.spread, g.move_ms),
            (3, d.seed, d.nodes, d.spread, None)
        );
        let Job::FitGames(f) = parse("fit-games g.txt --k 0.005122").unwrap() else {
            panic!("fit-games")
        };
        assert_eq!(f.games, PathBuf::from("g.txt"));
        assert_eq!(
            (f.fit.holdout, f.fit.lambda, f.fit.k),
            (HOLDOUT_EVERY, LAMBDA, Some(0.005122))
        );
        let Job::Openings(o) = parse("openings 5 --out o.txt").unwrap() else {
            panic!("openings")
        };
        assert_eq!(
            (o.openings, o.seed, o.radius, o.balance_depth),
            (5, 1, 2, None)
        );
        let Job::Replies(r) = parse("replies 6 --from a --out b").unwrap() else {
            panic!("replies")
        };
        assert_eq!((r.replies, r.balance_depth), (6, 4));
        let Job::Records(r) = parse("records a b --out g").unwrap() else {
            panic!("records")
        };
        assert_eq!(r.records.len(), 2);
        assert_eq!(parse("fit d.txt --holdout 0").unwrap().name(), "fit");
        let Job::Eval(e) = parse("eval g --out e.bin").unwrap() else {
            panic!("eval")
        };
        assert_eq!(e.blend, 1.0, "results alone unless asked");
        assert_eq!((e.features, e.rate), (values::Features::Cells, None));
        let Job::Eval(e) = parse("eval g h --out e.bin --blend 0.25 --features net").unwrap()
        else {
            panic!("eval")
        };
        assert_eq!((e.games.len(), e.blend), (2, 0.25));
        assert_eq!(e.features, values::Features::Net);
        let Job::Label(l) = parse("label g h --out l.txt").unwrap() else {
            panic!("label")
        };
        assert_eq!((l.games.len(), l.nodes, l.threads), (2, 20_000, None));
        assert!(parse("label g --out l.txt --nodes 2").is_err());
        assert!(
            parse("label --out l.txt").is_err(),
            "games files are required"
        );
    }

    #[test]
    fn the_policy_rate_default_is_shown_as_written() {
        let Job::Policy(p) = parse("policy g --out r.bin").unwrap() else {
            panic!("policy")
        };
        assert_eq!(p.rate as f32, policy::RATE);
        let help = parse("policy --help").unwrap_err().to_string();
        assert!(help.contains("[default: 0.1]"), "{help}");
    }

    #[test]
    fn bad_options_are_refused() {
        for bad in [
            "",
            "games 3",
            "games x --out d",
            "games 3 --out d --move-ms 86400001",
            "fit",
            "fit d --k 0",
            "fit d --k nan",
            "fit d --k -1",
            "fit d --lambda -0.1",
            "fit-games g --holdout -1",
            "openings 5 --out o --radius 0",
            "openings 5 --out o --radius 10",
            "openings 5 --out o --balance-depth 0",
            "replies 6 --out b",
            "replies 6 --from a --out b --balance-depth 61",
            "records --out g",
            "fit d --bogus",
            "eval g --out e --blend 1.5",
            "eval g --out e --blend -0.1",
            "eval g --out e --features squares",
            "eval g --out e --rate 0",
        ] {
            let e = parse(bad)
                .err()
                .unwrap_or_else(|| panic!("'{bad}' was accepted"));
            assert_eq!(e.exit_code(), 2, "{bad}");
        }
    }

    #[test]
    fn the_command_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
