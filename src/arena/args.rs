//! Command-line options of `connect6 match` and `connect6 stats` (clap derive); times are
//! parsed as the engine's own options parse them (`crate::seconds`).

use super::elo::SprtSpec;
use super::game::{ReplyLimits, TOLERANCE};
use crate::pool::Shard;
use std::path::PathBuf;
use std::time::Duration;

/// A whole number of at least 1.
fn count(value: &str) -> Result<usize, String> {
    match value.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("expected a whole number of at least 1".into()),
    }
}

/// The options of a match.
#[derive(Clone, Debug, clap::Args)]
pub struct MatchArgs {
    /// Engine A's command (split with shell quoting rules), e.g. "target/release/connect6 --move-time 1".
    #[arg(value_name = "ENGINE_A")]
    pub engine_a: String,
    /// Engine B's command.
    #[arg(value_name = "ENGINE_B")]
    pub engine_b: String,
    /// Games to play [default: 2 per opening, or 2 without openings].
    #[arg(long, value_name = "N", value_parser = count)]
    pub games: Option<usize>,
    /// Time per move in seconds; replies get 0.2 s tolerance on top.
    #[arg(long, value_name = "SECS", default_value = "5", value_parser = crate::seconds::option, allow_negative_numbers = true)]
    pub move_time: Duration,
    /// Total thinking time per side and game in seconds [default: unlimited].
    #[arg(long, value_name = "SECS", value_parser = crate::seconds::option, allow_negative_numbers = true)]
    pub game_time: Option<Duration>,
    /// One opening a line, e.g. 'JJ KJKK IIHH'; each is played with both colours.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Write one record per game into DIR.
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,
    /// With --records, also write an SVG picture beside each record.
    #[arg(long, requires = "records")]
    pub svg: bool,
    /// Games played in parallel.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = count)]
    pub concurrency: usize,
    /// No progress line; engine stderr discarded.
    #[arg(short, long)]
    pub quiet: bool,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// Forward black's first stone as 'XY' instead of 'XY@@'.
    #[arg(long)]
    pub short_first: bool,
    /// Event name for records.
    #[arg(long, value_name = "NAME", default_value = "connect6 match")]
    pub event: String,
    /// Place name for records.
    #[arg(long, value_name = "NAME", default_value = "local")]
    pub place: String,
    /// Stop once the sequential probability ratio test of elo0 against elo1 (logistic Elo,
    /// on game pairs) accepts one; alpha and beta default to 0.05. --games is the maximum.
    #[arg(long, value_name = "ELO0,ELO1[,ALPHA,BETA]", value_parser = SprtSpec::parse,
          allow_hyphen_values = true)]
    pub sprt: Option<SprtSpec>,
    /// Play only the K-th of N disjoint parts of the schedule (whole pairs of games, dealt
    /// out in turn), with the game numbers, openings and colours of the whole match.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse, conflicts_with = "sprt")]
    pub shard: Option<Shard>,
}

/// Options of `connect6 stats`.
#[derive(Clone, Debug, clap::Args)]
pub struct StatsArgs {
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// Also print, for each opening, its wins by colour and its colour-decided pairs (with
    /// the text summary; the JSON summary always has them).
    #[arg(long, conflicts_with = "json")]
    pub by_opening: bool,
    /// The match's openings file, to name each opening in the `--by-opening` table.
    #[arg(long, value_name = "FILE", requires = "by_opening")]
    pub openings: Option<PathBuf>,
    /// Records written by `connect6 match --records`, folders of them, or JSON summaries
    /// of `connect6 match --json` (files ending in .json).
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<PathBuf>,
}

impl MatchArgs {
    /// Parses the arguments after `match` (for tests and embedding; the binary parses the
    /// whole command line at once).
    pub fn parse(args: &[String]) -> Result<MatchArgs, clap::Error> {
        use clap::{Args, FromArgMatches};
        let command = MatchArgs::augment_args(clap::Command::new("match").no_binary_name(true));
        MatchArgs::from_arg_matches(&command.try_get_matches_from(args)?)
    }

    /// Both engine commands, A first.
    pub fn engines(&self) -> [String; 2] {
        [self.engine_a.clone(), self.engine_b.clone()]
    }

    /// The time limits the referee enforces.
    pub fn limits(&self) -> ReplyLimits {
        ReplyLimits {
            move_time: self.move_time,
            game_time: self.game_time,
            tolerance: TOLERANCE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<MatchArgs, clap::Error> {
        MatchArgs::parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn options() {
        let c = parse(&[
            "--games",
            "4",
            "a",
            "--move-time=0.5",
            "b c",
            "--json",
            "-q",
        ]);
        let c = c.unwrap();
        assert_eq!(c.engines(), ["a".to_string(), "b c".to_string()]);
        assert_eq!(c.games, Some(4));
        assert_eq!(c.limits().move_time, Duration::from_millis(500));
        assert!(c.json && c.quiet && !c.short_first);
        let d = parse(&["a", "b"]).unwrap();
        assert_eq!((d.games, d.concurrency, d.game_time), (None, 1, None));
        assert_eq!(d.move_time, Duration::from_secs(5));
        assert_eq!(
            (d.event.as_str(), d.place.as_str()),
            ("connect6 match", "local")
        );
        let dashed = parse(&["--", "-a", "b"]).unwrap();
        assert_eq!(dashed.engine_a, "-a");
    }

    #[test]
    fn bad_options() {
        use clap::error::ErrorKind::*;
        let kind = |args: &[&str]| parse(args).unwrap_err().kind();
        assert_eq!(kind(&["a"]), MissingRequiredArgument);
        assert_eq!(kind(&["a", "b", "c"]), UnknownArgument);
        assert_eq!(kind(&["--frob", "a", "b"]), UnknownArgument);
        assert_eq!(kind(&["a", "b", "--games"]), InvalidValue);
        for bad in [
            ["--games", "x"],
            ["--games", "0"],
            ["--move-time", "-1"],
            ["--move-time", "nan"],
            ["--concurrency", "0"],
        ] {
            let e = parse(&[bad[0], bad[1], "a", "b"]).unwrap_err();
            assert_eq!(e.kind(), ValueValidation, "{bad:?}");
            assert_eq!(e.exit_code(), 2);
        }
        assert_eq!(kind(&["--json=1", "a", "b"]), TooManyValues);
        assert_eq!(
            kind(&["--shard", "1/4", "--sprt", "0,5", "a", "b"]),
            ArgumentConflict
        );
        for bad in ["0/4", "5/4", "1", "a/b", "1/0"] {
            assert_eq!(kind(&["--shard", bad, "a", "b"]), ValueValidation, "{bad}");
        }
        assert_eq!(
            parse(&["--shard", "2/4", "a", "b"]).unwrap().shard,
            Some(Shard { index: 2, count: 4 })
        );
        assert_eq!(kind(&["--sprt", "5,0", "a", "b"]), ValueValidation);
        let s = parse(&["--sprt", "-5,5", "a", "b"]).unwrap().sprt.unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha), (-5.0, 5.0, 0.05));
    }
}
