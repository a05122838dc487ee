//! `connect6 tune JOB`: the jobs that fit the evaluation's tables and make the match
//! openings, one clap subcommand each (the logic is in the other modules of `tuning`):
//!
//! ```text
//! connect6 tune records PATH.. --out GAMES
//! connect6 tune fit-games GAMES [--holdout M] [--lambda L] [--k K]
//! connect6 tune selfplay N --out GAMES [--nodes N] [--openings FILE] [--seed S] [--threads T]
//!     [--shard K/N] [--ranking-file FILE] [--eval-file FILE]
//! connect6 tune label GAMES.. --out GAMES [--nodes N] [--threads T] [--shard K/N]
//! connect6 tune merge SHARD.. --out GAMES
//! connect6 tune openings N --out FILE [--seed S] [--radius R] [--balance-depth D]
//! connect6 tune replies K --from FILE --out FILE [--balance-depth D]
//! connect6 tune defence-suite PATH.. --out FILE [--nodes N]
//! connect6 tune policy GAMES.. --out FILE [--epochs N] [--rate R] [--holdout M] [--winners]
//! connect6 tune policy-hits GAMES.. [--ranking FILE] [--all-turns]
//! connect6 tune eval GAMES.. --out FILE [--epochs N] [--rate R] [--lambda L] [--holdout M]
//! connect6 tune book --out FILE [--radius R] [--first-radius R] [--second-turns K]
//!     [--third-turns K] [--nodes N] [--reply-nodes N] [--hash MB] [--threads T]
//! ```
//!
//! Each job's arguments, runner and printing live beside its code: `games::records`,
//! `fit::job` (`fit-games`), `openings::job` (`openings`, `replies`),
//! `selfplay`, `label`, `batch::merge` (`merge`), `defence`, `policy` (`policy`, `policy-hits`), `values::job`
//! (`eval`) and `book`. This module only dispatches, and holds the value parsers and the progress line
//! the jobs share.
//!
//! Results go to stdout (and to `--out`), progress and errors to stderr; an error is one
//! line and exit code 2.

use super::batch::merge::MergeArgs;
use super::book::BookArgs;
use super::defence::DefenceSuiteArgs;
use super::fit::job::FitGamesArgs;
use super::games::RecordsArgs;
use super::label::LabelArgs;
use super::openings::job::{OpeningsArgs, RepliesArgs};
use super::policy::{PolicyArgs, PolicyHitsArgs};
use super::selfplay::SelfPlayArgs;
use super::values::job::EvalArgs;
use super::{batch, book, defence, fit, games, label, openings, policy, selfplay, values};
use std::process::ExitCode;

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
    /// Play the engine against itself at a node limit; write the games as a games file.
    #[command(name = "selfplay")]
    SelfPlay(SelfPlayArgs),
    /// Give every position a fit samples in games files the score of a fixed-node search;
    /// write them as a games file.
    Label(LabelArgs),
    /// Join the games files of a `selfplay` or `label` run's shards (`--shard K/N`) into the
    /// one the whole run writes.
    Merge(MergeArgs),
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
    /// Fit the learned evaluation's cell values to the results (and search scores) of games
    /// files; write an evaluation file.
    Eval(EvalArgs),
    /// Build the opening book the engine embeds: a long fixed-node search of each of the
    /// first turns' positions.
    Book(BookArgs),
}

impl Job {
    /// The subcommand's name, for error messages.
    pub fn name(&self) -> &'static str {
        match self {
            Job::Records(_) => "records",
            Job::FitGames(_) => "fit-games",
            Job::SelfPlay(_) => "selfplay",
            Job::Label(_) => "label",
            Job::Merge(_) => "merge",
            Job::Openings(_) => "openings",
            Job::Replies(_) => "replies",
            Job::DefenceSuite(_) => "defence-suite",
            Job::Policy(_) => "policy",
            Job::PolicyHits(_) => "policy-hits",
            Job::Eval(_) => "eval",
            Job::Book(_) => "book",
        }
    }
}

/// Runs the job: its results on stdout, its error (one line) on stderr with exit code 2.
pub fn run(args: TuneArgs) -> ExitCode {
    let name = args.job.name();
    let result = match args.job {
        Job::Records(a) => games::records(&a),
        Job::FitGames(a) => fit::job::fit_games(&a),
        Job::SelfPlay(a) => selfplay::self_play_file(&a),
        Job::Label(a) => label::label_file(&a),
        Job::Merge(a) => batch::merge::merge_files(&a),
        Job::Openings(a) => openings::job::openings(&a),
        Job::Replies(a) => openings::job::replies(&a),
        Job::DefenceSuite(a) => defence::defence_suite_file(&a),
        Job::Policy(a) => policy::fit_policy(&a),
        Job::PolicyHits(a) => policy::policy_hits(&a),
        Job::Eval(a) => values::job::fit_values(&a),
        Job::Book(a) => book::build_book(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("connect6 tune {name}: {e}");
            ExitCode::from(2)
        }
    }
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

    /// Parses `tune LINE` as the command line does.
    fn parse(line: &str) -> Result<Job, clap::Error> {
        Cli::try_parse_from(std::iter::once("tune").chain(line.split_whitespace())).map(|c| c.job)
    }

    /// Asserts that each line is refused as a usage error (exit code 2).
    fn refused(lines: &[&str]) {
        for bad in lines {
            let e = parse(bad)
                .err()
                .unwrap_or_else(|| panic!("'{bad}' was accepted"));
            assert_eq!(e.exit_code(), 2, "{bad}");
        }
    }

    #[test]
    fn a_job_is_required_and_unknown_ones_are_refused() {
        refused(&[
            "",
            "bogus",
            "fit-games g --bogus",
            "games 3 --out d",
            "fit d.txt",
        ]);
        assert_eq!(parse("fit-games g.txt").unwrap().name(), "fit-games");
    }

    #[test]
    fn the_command_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
