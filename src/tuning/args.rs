//! What the `tune` jobs share: the value parsers of their options, their worker count and
//! their progress line. A leaf, so that the jobs import it and `jobs` imports the jobs.

use crate::pool::Shard;
use std::time::Instant;

/// How a long batch job (self-play, labelling) spreads over cores and machines.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct BatchArgs {
    /// Games worked on at once [default: the machine's cores].
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,
    /// Do only the K-th of N parts of the games (a contiguous run of their indices), each as
    /// the whole run does it; `tune merge` joins the parts' files.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
}

impl BatchArgs {
    /// The worker threads asked for, or one per core.
    pub fn threads(&self) -> usize {
        worker_threads(self.threads)
    }
}

/// Worker threads: as asked, or one per core.
pub(crate) fn worker_threads(asked: Option<u64>) -> usize {
    asked.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    )
}

/// Reports a fit's pass on stderr: its training and held-out loss and the time so far.
pub(crate) fn pass_progress(began: Instant) -> impl FnMut(usize, f64, f64) {
    move |n, train, test| {
        eprintln!(
            "pass {n}: training loss {train:.4}, held-out {test:.4} ({:.0} s)",
            began.elapsed().as_secs_f64()
        )
    }
}

fn number(v: &str) -> Result<f64, String> {
    v.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .ok_or_else(|| "expected a finite number".to_string())
}

pub(crate) fn non_negative(v: &str) -> Result<f64, String> {
    number(v).and_then(|x| {
        if x >= 0.0 {
            Ok(x)
        } else {
            Err("expected 0 or more".into())
        }
    })
}

pub(crate) fn unit_interval(v: &str) -> Result<f64, String> {
    number(v).and_then(|x| {
        if (0.0..=1.0).contains(&x) {
            Ok(x)
        } else {
            Err("expected a number from 0 to 1".into())
        }
    })
}

pub(crate) fn positive(v: &str) -> Result<f64, String> {
    number(v).and_then(|x| {
        if x > 0.0 {
            Ok(x)
        } else {
            Err("expected more than 0".into())
        }
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use clap::Parser;

    /// One job's arguments as a command of their own.
    #[derive(Parser, Debug)]
    struct One<A: clap::Args> {
        #[command(flatten)]
        args: A,
    }

    /// Parses one job's arguments from `line` (without the job's name).
    pub(crate) fn parse<A: clap::Args>(line: &str) -> Result<A, clap::Error> {
        One::<A>::try_parse_from(std::iter::once("job").chain(line.split_whitespace()))
            .map(|o| o.args)
    }

    /// Asserts that each line is refused as a usage error (exit code 2).
    pub(crate) fn refused<A: clap::Args + std::fmt::Debug>(lines: &[&str]) {
        for bad in lines {
            let e = parse::<A>(bad)
                .err()
                .unwrap_or_else(|| panic!("'{bad}' was accepted"));
            assert_eq!(e.exit_code(), 2, "{bad}");
        }
    }
}
