//! `connect6`: the engine on stdin/stdout, or one of the subcommands (`match`, `bench`,
//! `stats`, `show`, `analyse`, and with their Cargo features `tune` and `gui`). The command
//! line is declared with clap's derive API: the engine's options are the top-level flags
//! ([`EngineArgs`]), each subcommand is one variant of [`Sub`] whose arguments live beside its
//! code and whose `main` returns the exit code.

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use connect6::engine::book::Book;
use connect6::engine::models::ModelArgs;
use connect6::engine::search::DEFAULT_MAX_DEPTH;
use connect6::protocol::baselines::{GreedyPlayer, RandomPlayer};
use connect6::protocol::options_file;
use connect6::protocol::player::Engine;
use connect6::protocol::session::{Player, Session, serve};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Parser, Debug)]
#[command(
    name = "connect6",
    version,
    about = "A Connect6 engine speaking the referee protocol on stdin/stdout (see protocol.md).",
    args_conflicts_with_subcommands = true,
    // The options file's settings come first: a later option (the command line's) wins.
    args_override_self = true,
    after_help = "Logging: RUST_LOG=info (or debug) prints diagnostics on stderr."
)]
struct Cli {
    #[command(flatten)]
    engine: EngineArgs,
    #[command(subcommand)]
    command: Option<Sub>,
}

// Built once per run: the size of the largest variant does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
enum Sub {
    /// Referee two engine commands against each other and summarise the games.
    Match(connect6::arena::MatchArgs),
    /// Search fixed positions and print speed and a signature.
    Bench(connect6::engine::bench::BenchArgs),
    /// Merge the records or JSON summaries of matches (or match shards) into one summary.
    Stats(connect6::arena::StatsArgs),
    /// Print the board of a record or a stone list, and draw it as SVG.
    Show(connect6::tools::show::ShowArgs),
    /// Find where a side's lost games were lost, and what the engine plays there now.
    Analyse(connect6::tools::analyse::AnalyseArgs),
    /// Fit the evaluation's tables and make match openings (one subcommand per job).
    #[cfg(feature = "tune")]
    Tune(connect6::tuning::jobs::TuneArgs),
    /// Serve a board in the browser: play an engine, watch a match, review records.
    #[cfg(feature = "gui")]
    Gui(connect6::gui::GuiArgs),
}

/// The engine's options (used when no subcommand is given).
#[derive(clap::Args, Debug)]
struct EngineArgs {
    /// Name sent for `name?` (1-12 ASCII letters or digits) [default: Connect6, or Random
    /// or Greedy for those players].
    #[arg(long, value_parser = engine_name)]
    name: Option<String>,
    /// Per-move cap in seconds, start-up included.
    #[arg(long, value_name = "SECS", default_value = "5", value_parser = connect6::seconds::option, allow_negative_numbers = true)]
    move_time: Duration,
    /// Budget in seconds for a whole game, spread over its moves [default: none].
    #[arg(long, value_name = "SECS", value_parser = connect6::seconds::option, allow_negative_numbers = true)]
    game_time: Option<Duration>,
    /// Search at most N turns deep (1..=60).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_DEPTH,
          value_parser = clap::value_parser!(u8).range(1..=60))]
    depth: u8,
    /// Transposition table size in MB (1..=16384).
    #[arg(long = "hash", value_name = "MB", default_value_t = 64,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=16384))]
    hash_mb: usize,
    /// Send black's first stone as `move JJ` instead of `move JJ@@`.
    #[arg(long)]
    short_first: bool,
    /// The engine, or a weak reference player.
    #[arg(long, value_enum, value_name = "KIND", default_value = "engine")]
    player: PlayerKind,
    /// Seed of the random player.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        allow_negative_numbers = true
    )]
    seed: u64,
    /// Search the first turns too, rather than play them from the opening book.
    #[arg(long)]
    no_book: bool,
    /// Think on the opponent's time too (only for an engine with cores of its own).
    #[arg(long)]
    ponder: bool,
    /// Search threads (Lazy SMP); the default is the cores this process may use.
    #[arg(long, value_name = "N", default_value_t = default_threads(),
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256))]
    threads: usize,
    #[command(flatten)]
    models: ModelArgs,
}

/// The cores this process may use (its affinity: `taskset`, or Windows' `start /affinity`).
fn default_threads() -> usize {
    connect6::engine::platform::available_cores()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum PlayerKind {
    /// The searching engine.
    Engine,
    /// Random legal stones near the others.
    Random,
    /// One-ply greedy.
    Greedy,
}

impl EngineArgs {
    /// The name for `name?`: a reference player says what it is, so that a match summary
    /// never credits the engine with its games.
    fn name(&self) -> &str {
        self.name.as_deref().unwrap_or(match self.player {
            PlayerKind::Engine => "Connect6",
            PlayerKind::Random => "Random",
            PlayerKind::Greedy => "Greedy",
        })
    }
}

fn engine_name(v: &str) -> Result<String, String> {
    if v.is_empty() || v.len() > 12 || !v.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err("expected 1-12 ASCII letters or digits".into());
    }
    Ok(v.into())
}

fn play(options: &EngineArgs, born: Instant) -> ExitCode {
    connect6::rules::warm_up();
    let models = match options.models.load() {
        Ok(models) => models,
        Err(e) => {
            eprintln!("connect6: {e}");
            return ExitCode::from(2);
        }
    };
    match options.player {
        PlayerKind::Engine => {
            let engine = Engine::new(
                models,
                options.hash_mb,
                options.move_time,
                options.game_time,
                options.depth,
                born,
            )
            .with_ponder(options.ponder)
            .with_threads(options.threads)
            .with_book((!options.no_book).then(Book::embedded));
            converse(engine, options)
        }
        PlayerKind::Random => converse(RandomPlayer::new(options.seed), options),
        PlayerKind::Greedy => converse(GreedyPlayer::new(models.ranking), options),
    }
}

fn converse(player: impl Player, options: &EngineArgs) -> ExitCode {
    let mut session = Session::new(player, options.name(), !options.short_first);
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
    let born = connect6::engine::platform::process_start(Instant::now());
    // The options file in use is said without RUST_LOG: it changes how the engine plays.
    let filter = "warn,connect6::protocol::options_file=info";
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(filter))
        .target(env_logger::Target::Stderr)
        .init();
    // Help and version exit 0 on stdout; bad options exit 2 with clap's message on stderr.
    let mut cli = Cli::parse();
    if cli.command.is_none() {
        match options_file::load(&Cli::command()) {
            Ok(None) => {}
            Ok(Some(file)) => {
                let mut args = std::env::args_os();
                let program = args.next().into_iter();
                cli = Cli::parse_from(program.chain(file.args.iter().map(Into::into)).chain(args));
            }
            Err(e) => {
                eprintln!("connect6: {e}");
                return ExitCode::from(2);
            }
        }
    }
    match cli.command {
        None => play(&cli.engine, born),
        Some(Sub::Match(args)) => connect6::arena::main(args),
        Some(Sub::Bench(args)) => connect6::engine::bench::main(args),
        Some(Sub::Stats(args)) => connect6::arena::stats_main(args),
        Some(Sub::Show(args)) => connect6::tools::show::run(args),
        Some(Sub::Analyse(args)) if args.deep => connect6::tools::deep_table::run(args),
        Some(Sub::Analyse(args)) => match args.at_mistakes.clone() {
            Some(table) => connect6::tools::revisit::run(args, &table),
            None => connect6::tools::analyse::run(args),
        },
        #[cfg(feature = "tune")]
        Some(Sub::Tune(args)) => connect6::tuning::jobs::run(args),
        #[cfg(feature = "gui")]
        Some(Sub::Gui(args)) => connect6::gui::run(args),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::error::ErrorKind;

    fn parse(line: &str) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("connect6").chain(line.split_whitespace()))
    }

    #[test]
    fn options_parse_and_range_check() {
        let o = parse("--depth 7 --hash 8 --seed 3 --name Ab1 --move-time 0.5")
            .unwrap()
            .engine;
        assert_eq!((o.depth, o.hash_mb, o.seed, o.name()), (7, 8, 3, "Ab1"));
        assert_eq!(o.move_time, Duration::from_millis(500));
        let d = parse("").unwrap().engine;
        assert_eq!(
            (d.depth, d.hash_mb, d.seed, d.name(), d.player),
            (DEFAULT_MAX_DEPTH, 64, 1, "Connect6", PlayerKind::Engine)
        );
        assert_eq!((d.move_time, d.game_time), (Duration::from_secs(5), None));
        assert!(!d.no_book && parse("--no-book").unwrap().engine.no_book);
        let named = |line: &str| parse(line).unwrap().engine.name().to_string();
        assert_eq!(named("--player random"), "Random");
        assert_eq!(named("--player greedy"), "Greedy");
        assert_eq!(named("--player greedy --name G2"), "G2");
        for bad in [
            "--depth 0",
            "--depth 61",
            "--hash 0",
            "--hash 16385",
            "--seed -1",
            "--name toolongname13",
            "--name a-b",
            "--move-time 0",
            "--game-time nan",
            "--player strong",
            "--bogus",
        ] {
            let e = parse(bad)
                .err()
                .unwrap_or_else(|| panic!("{bad} was accepted"));
            assert_eq!(e.exit_code(), 2, "{bad}");
        }
        let e = parse("--depth").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidValue);
        // Engine flags belong to the engine, not to a subcommand.
        assert!(parse("--depth 3 bench").is_err());
        assert!(matches!(
            parse("bench --depth 3").unwrap().command,
            Some(Sub::Bench(_))
        ));
    }

    #[test]
    fn help_and_version_exit_zero() {
        let tune: &[&str] = if cfg!(feature = "tune") {
            &["tune --help", "tune fit-games --help"]
        } else {
            &[]
        };
        for &line in ["--help", "help", "match --help", "bench -h", "stats --help"]
            .iter()
            .chain(tune)
        {
            let e = parse(line).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::DisplayHelp, "{line}");
            assert_eq!(e.exit_code(), 0);
        }
        let help = parse("--help").unwrap_err().to_string();
        assert!(help.contains("[default: 5]") && help.contains("--short-first"));
        let e = parse("--version").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::DisplayVersion);
    }

    #[test]
    fn cli_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
