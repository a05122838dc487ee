//! `connect6`: the engine on stdin/stdout, or `connect6 match ...` / `connect6 bench ...`.

use connect6::baselines::{GreedyPlayer, RandomPlayer};
use connect6::player::{DEFAULT_MAX_DEPTH, Engine};
use connect6::session::{Player, Session, serve};
use std::fmt;
use std::process::ExitCode;
use std::time::{Duration, Instant};

const USAGE: &str = "\
usage: connect6 [options]            play on stdin/stdout (the referee protocol, see protocol.md)
       connect6 match [options] A B  referee engine commands A and B against each other
       connect6 bench [options]      search fixed positions and print speed and a signature
engine options:
  --name NAME         name sent to the referee (1-12 ASCII letters/digits; default Connect6)
  --move-time SECS    per-move cap, start-up included (default 5)
  --game-time SECS    budget for a whole game, spread over its moves (default none)
  --depth N           search at most N turns deep (default: as deep as time allows)
  --hash MB           transposition table size (default 64)
  --short-first       send black's first stone as 'move JJ' instead of 'move JJ@@'
  --ponder            think on the opponent's time too (only on cores of its own)
  --threads N         search threads, 1..=256 (default: the cores this process may use)
  --player KIND       engine (default), or a weak reference player: random, greedy
  --seed N            seed of the random player (default 1)
logging: RUST_LOG=info (or debug) prints diagnostics on stderr";

#[derive(Debug)]
enum ArgError {
    Unknown(String),
    Missing(&'static str),
    Bad {
        option: &'static str,
        value: String,
        why: &'static str,
    },
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgError::Unknown(a) => write!(f, "unknown argument '{a}'"),
            ArgError::Missing(o) => write!(f, "{o} needs a value"),
            ArgError::Bad { option, value, why } => write!(f, "{option} '{value}': {why}"),
        }
    }
}

struct Options {
    name: String,
    move_time: Duration,
    game_time: Option<Duration>,
    depth: u8,
    hash_mb: usize,
    short_first: bool,
    player: PlayerKind,
    seed: u64,
    ponder: bool,
    threads: usize,
}

#[derive(Clone, Copy)]
enum PlayerKind {
    Engine,
    Random,
    Greedy,
}

fn seconds(option: &'static str, value: &str) -> Result<Duration, ArgError> {
    match value.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 1e6 => Ok(Duration::from_secs_f64(s)),
        _ => Err(ArgError::Bad {
            option,
            value: value.into(),
            why: "expected positive seconds",
        }),
    }
}

/// A whole number of type `T` within `range`; `why` says what was expected.
fn number_in<T: std::str::FromStr + PartialOrd>(
    option: &'static str,
    value: &str,
    range: std::ops::RangeInclusive<T>,
    why: &'static str,
) -> Result<T, ArgError> {
    match value.parse::<T>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(ArgError::Bad {
            option,
            value: value.into(),
            why,
        }),
    }
}

fn parse_options(args: &[String]) -> Result<Options, ArgError> {
    let mut o = Options {
        name: "Connect6".into(),
        move_time: Duration::from_secs(5),
        game_time: None,
        depth: DEFAULT_MAX_DEPTH,
        hash_mb: 64,
        short_first: false,
        player: PlayerKind::Engine,
        seed: 1,
        ponder: false,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |option: &'static str| {
            it.next()
                .map(String::as_str)
                .ok_or(ArgError::Missing(option))
        };
        match arg.as_str() {
            "--name" => {
                let v = value("--name")?;
                if v.is_empty() || v.len() > 12 || !v.chars().all(|c| c.is_ascii_alphanumeric()) {
                    return Err(ArgError::Bad {
                        option: "--name",
                        value: v.into(),
                        why: "1-12 ASCII letters or digits",
                    });
                }
                o.name = v.into();
            }
            "--move-time" => o.move_time = seconds("--move-time", value("--move-time")?)?,
            "--game-time" => o.game_time = Some(seconds("--game-time", value("--game-time")?)?),
            "--depth" => {
                o.depth = number_in("--depth", value("--depth")?, 1..=60, "expected 1..=60")?
            }
            "--hash" => {
                o.hash_mb = number_in(
                    "--hash",
                    value("--hash")?,
                    1..=16384,
                    "expected 1..=16384 MB",
                )?
            }
            "--short-first" => o.short_first = true,
            "--ponder" => o.ponder = true,
            "--threads" => {
                o.threads = number_in(
                    "--threads",
                    value("--threads")?,
                    1..=256,
                    "expected 1..=256",
                )?
            }
            "--player" => {
                o.player = match value("--player")? {
                    "engine" => PlayerKind::Engine,
                    "random" => PlayerKind::Random,
                    "greedy" => PlayerKind::Greedy,
                    v => {
                        return Err(ArgError::Bad {
                            option: "--player",
                            value: v.into(),
                            why: "expected engine, random or greedy",
                        });
                    }
                }
            }
            "--seed" => {
                o.seed = number_in(
                    "--seed",
                    value("--seed")?,
                    0..=u64::MAX,
                    "expected a whole number",
                )?
            }
            other => return Err(ArgError::Unknown(other.into())),
        }
    }
    Ok(o)
}

fn play(args: &[String], born: Instant) -> ExitCode {
    let options = match parse_options(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("connect6: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    connect6::warm_up();
    match options.player {
        PlayerKind::Engine => {
            let engine = Engine::new(
                options.hash_mb,
                options.move_time,
                options.game_time,
                options.depth,
                born,
            )
            .with_ponder(options.ponder)
            .with_threads(options.threads);
            converse(engine, &options)
        }
        PlayerKind::Random => converse(RandomPlayer::new(options.seed), &options),
        PlayerKind::Greedy => converse(GreedyPlayer, &options),
    }
}

fn converse(player: impl Player, options: &Options) -> ExitCode {
    let mut session = Session::new(player, &options.name, !options.short_first);
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    match serve(&mut session, stdin.lock(), stdout.lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A closed stdout means the referee is gone: nothing more to do.
            log::warn!("i/o error: {e}");
            ExitCode::SUCCESS
        }
    }
}

fn main() -> ExitCode {
    // A referee may time our first reply from the moment it started us.
    let born = Instant::now();
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some("bench") => connect6::bench::main(&args[1..]),
        Some("match") => connect6::referee::main(&args[1..]),
        _ => play(&args, born),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Options, ArgError> {
        let args: Vec<String> = line.split_whitespace().map(String::from).collect();
        parse_options(&args)
    }

    #[test]
    fn options_parse_and_range_check() {
        let o = parse("--depth 7 --hash 8 --seed 3 --name Ab1 --move-time 0.5").unwrap();
        assert_eq!(
            (o.depth, o.hash_mb, o.seed, o.name.as_str()),
            (7, 8, 3, "Ab1")
        );
        assert_eq!(o.move_time, Duration::from_millis(500));
        for bad in [
            "--depth 0",
            "--depth 61",
            "--hash 0",
            "--seed -1",
            "--name toolongname13",
            "--move-time 0",
            "--bogus",
        ] {
            assert!(parse(bad).is_err(), "{bad} was accepted");
        }
        assert!(matches!(
            parse("--depth"),
            Err(ArgError::Missing("--depth"))
        ));
    }
}
