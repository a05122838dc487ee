//! Command-line options of `connect6 match`.

use super::TOLERANCE;
use super::game::Limits;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

pub const USAGE: &str = "\
usage: connect6 match [options] \"<engine A command>\" \"<engine B command>\"
options:
  --games N          games to play (default: 2 per opening, or 2 without openings)
  --move-time SECS   time per move (default 5); replies get 0.2 s tolerance on top
  --game-time SECS   total thinking time per side and game (default: unlimited)
  --openings FILE    one opening a line, e.g. 'JJ KJKK IIHH'; each played with both colours
  --records DIR      write one record per game into DIR
  --concurrency K    games played in parallel (default 1)
  --quiet            no progress line, engine stderr discarded
  --json             summary as JSON
  --short-first      forward black's first stone as 'XY' instead of 'XY@@'
  --event NAME       event name for records (default 'connect6 match')
  --place NAME       place name for records (default 'local')";

/// The options of a match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Engine commands A and B (split with shell quoting rules).
    pub engines: [String; 2],
    pub games: Option<usize>,
    pub limits: Limits,
    pub openings: Option<PathBuf>,
    pub records: Option<PathBuf>,
    pub concurrency: usize,
    pub quiet: bool,
    pub json: bool,
    pub short_first: bool,
    pub event: String,
    pub place: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchArgsError {
    /// `--help` / `-h`: not an error, the caller prints the usage.
    Help,
    UnknownOption(String),
    MissingValue(String),
    BadNumber {
        option: String,
        value: String,
    },
    /// Not exactly two engine commands.
    Engines(usize),
}

impl fmt::Display for MatchArgsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchArgsError::Help => write!(f, "help requested"),
            MatchArgsError::UnknownOption(o) => write!(f, "unknown option '{o}'"),
            MatchArgsError::MissingValue(o) => write!(f, "option '{o}' needs a value"),
            MatchArgsError::BadNumber { option, value } => {
                write!(f, "option '{option}': '{value}' is not a valid number")
            }
            MatchArgsError::Engines(n) => {
                write!(f, "expected two engine commands, got {n}")
            }
        }
    }
}

impl std::error::Error for MatchArgsError {}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            engines: [String::new(), String::new()],
            games: None,
            limits: Limits {
                move_time: Duration::from_secs(5),
                game_time: None,
                tolerance: TOLERANCE,
            },
            openings: None,
            records: None,
            concurrency: 1,
            quiet: false,
            json: false,
            short_first: false,
            event: "connect6 match".into(),
            place: "local".into(),
        }
    }
}

fn seconds(option: &str, value: &str) -> Result<Duration, MatchArgsError> {
    let bad = || MatchArgsError::BadNumber {
        option: option.into(),
        value: value.into(),
    };
    let secs: f64 = value.trim().parse().map_err(|_| bad())?;
    if !secs.is_finite() || secs <= 0.0 || secs > 1e6 {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(secs))
}

fn count(option: &str, value: &str) -> Result<usize, MatchArgsError> {
    match value.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(MatchArgsError::BadNumber {
            option: option.into(),
            value: value.into(),
        }),
    }
}

impl MatchConfig {
    /// Parses the arguments after `match`. Options take `--opt VALUE` or `--opt=VALUE`.
    pub fn parse(args: &[String]) -> Result<MatchConfig, MatchArgsError> {
        let mut config = MatchConfig::default();
        let mut engines = Vec::new();
        let mut iter = args.iter();
        let mut only_positional = false;
        while let Some(arg) = iter.next() {
            if only_positional || !arg.starts_with('-') || arg == "-" {
                engines.push(arg.clone());
                continue;
            }
            if arg == "--" {
                only_positional = true;
                continue;
            }
            let (option, inline) = match arg.split_once('=') {
                Some((o, v)) => (o, Some(v.to_string())),
                None => (arg.as_str(), None),
            };
            let flag = |config: &mut MatchConfig| -> Result<bool, MatchArgsError> {
                let field = match option {
                    "--quiet" | "-q" => &mut config.quiet,
                    "--json" => &mut config.json,
                    "--short-first" => &mut config.short_first,
                    _ => return Ok(false),
                };
                if inline.is_some() {
                    return Err(MatchArgsError::UnknownOption(arg.clone()));
                }
                *field = true;
                Ok(true)
            };
            match option {
                "--help" | "-h" => return Err(MatchArgsError::Help),
                _ if flag(&mut config)? => continue,
                "--games" | "--move-time" | "--game-time" | "--openings" | "--records"
                | "--concurrency" | "--event" | "--place" => {}
                _ => return Err(MatchArgsError::UnknownOption(arg.clone())),
            }
            let value = match inline {
                Some(v) => v,
                None => iter
                    .next()
                    .cloned()
                    .ok_or_else(|| MatchArgsError::MissingValue(option.to_string()))?,
            };
            match option {
                "--games" => config.games = Some(count(option, &value)?),
                "--move-time" => config.limits.move_time = seconds(option, &value)?,
                "--game-time" => config.limits.game_time = Some(seconds(option, &value)?),
                "--openings" => config.openings = Some(PathBuf::from(value)),
                "--records" => config.records = Some(PathBuf::from(value)),
                "--concurrency" => config.concurrency = count(option, &value)?,
                "--event" => config.event = value,
                _ => config.place = value,
            }
        }
        match <[String; 2]>::try_from(engines) {
            Ok(engines) => config.engines = engines,
            Err(v) => return Err(MatchArgsError::Engines(v.len())),
        }
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<MatchConfig, MatchArgsError> {
        MatchConfig::parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
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
            "--quiet",
        ]);
        let c = c.unwrap();
        assert_eq!(c.engines, ["a".to_string(), "b c".to_string()]);
        assert_eq!(c.games, Some(4));
        assert_eq!(c.limits.move_time, Duration::from_millis(500));
        assert!(c.json && c.quiet && !c.short_first);
    }

    #[test]
    fn bad_options() {
        use MatchArgsError::*;
        assert_eq!(parse(&["a"]).unwrap_err(), Engines(1));
        assert_eq!(parse(&["a", "b", "c"]).unwrap_err(), Engines(3));
        assert_eq!(
            parse(&["--frob", "a", "b"]).unwrap_err(),
            UnknownOption("--frob".into())
        );
        assert_eq!(
            parse(&["a", "b", "--games"]).unwrap_err(),
            MissingValue("--games".into())
        );
        assert!(matches!(
            parse(&["--games", "x", "a", "b"]),
            Err(BadNumber { .. })
        ));
        assert!(matches!(
            parse(&["--games", "0", "a", "b"]),
            Err(BadNumber { .. })
        ));
        assert!(matches!(
            parse(&["--move-time", "-1", "a", "b"]),
            Err(BadNumber { .. })
        ));
        assert!(matches!(
            parse(&["--move-time", "nan", "a", "b"]),
            Err(BadNumber { .. })
        ));
        assert_eq!(
            parse(&["--json=1", "a", "b"]).unwrap_err(),
            UnknownOption("--json=1".into())
        );
    }
}
