//! Running a match: startup checks, game scheduling over worker threads, progress, records.

use super::args::MatchArgs;
use super::decisive;
use super::elo::{SprtSpec, SprtVerdict};
use super::entry::{GameEntry, TimeUse, pairs_of};
use super::game::{self, GameResult, GameSpec, Observer, Outcome, Unobserved};
use super::process::{self, EngineProcess, EngineStartError, split_command};
use super::repeats::fingerprint;
use super::summary::Summary;
use super::summary::{Settings, verdict_text};
use crate::pool::Shard;
use crate::pool::{self, Flow, PoolError};
use crate::record::openings::OpeningError;
use crate::record::openings::{self, Opening};
use crate::record::{self, MatchInfo, Record, RecordMove, RecordResult};
use crate::rules::board::Color;
use std::convert::Infallible;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A fallback display name: the program's file stem.
fn fallback_name(command: &str) -> String {
    split_command(command)
        .ok()
        .and_then(|w| {
            Path::new(&w[0])
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| command.to_string())
}

/// Starts both engines once, asks their names, and stops them: a command that does not start
/// is reported before any game is played.
fn probe(config: &MatchArgs) -> Result<[String; 2], MatchError> {
    let mut started = Vec::new();
    for (i, command) in config.engines().iter().enumerate() {
        let engine_id = ['A', 'B'][i];
        let mut engine = EngineProcess::spawn(command, config.quiet, None).map_err(|error| {
            MatchError::Engine {
                engine: engine_id,
                error,
            }
        })?;
        if engine.send("name?").is_err() {
            let error = EngineStartError::Exited {
                command: command.clone(),
            };
            return Err(MatchError::Engine {
                engine: engine_id,
                error,
            });
        }
        started.push(engine);
    }
    let deadline = Instant::now() + config.move_time + game::TOLERANCE;
    let mut names = [String::new(), String::new()];
    for (i, engine) in started.iter().enumerate() {
        let name = engine
            .await_name(deadline)
            .map_err(|error| MatchError::Engine {
                engine: ['A', 'B'][i],
                error,
            })?;
        names[i] = name.unwrap_or_else(|| {
            log::warn!("engine {} did not answer 'name?'", ['A', 'B'][i]);
            fallback_name(&config.engines()[i])
        });
    }
    for engine in &mut started {
        let _ = engine.send("quit");
    }
    let deadline = Instant::now() + std::time::Duration::from_millis(300);
    for engine in started {
        engine.reap(deadline);
    }
    Ok(names)
}

/// Which engine (0 = A, 1 = B) plays black in a game (1-based): A in odd games.
pub fn black_of(game: usize) -> usize {
    (game + 1) % 2
}

/// The 0-based index of a game's opening among `count` openings: games 2k-1 and 2k (a
/// pair) share opening k-1, and the list repeats.
pub fn opening_of(game: usize, count: usize) -> Option<usize> {
    (count > 0).then(|| (game - 1) / 2 % count)
}

/// The game numbers a match of `total` games plays, or its shard `K/N` plays: whole pairs
/// (games 2k-1, 2k) are dealt out in turn, pair k to shard `(k - 1) % N + 1`.
pub fn plan(total: usize, shard: Option<Shard>) -> Vec<usize> {
    (1..=total)
        .filter(|&g| shard.is_none_or(|s| (g - 1) / 2 % s.count == s.index - 1))
        .collect()
}

/// What the summary keeps of a game.
fn entry_of(result: &GameResult, openings: usize) -> GameEntry {
    let black = black_of(result.number);
    let attack = decisive::final_attack(&result.stones, result.outcome);
    let time_of = |color: Color| {
        let times = &result.move_times[color.index()];
        let open = decisive::open_replies(&result.stones, color, times.len(), attack);
        TimeUse::of(times, open)
    };
    let mut time = [TimeUse::default(); 2];
    time[black] = time_of(Color::Black);
    time[1 - black] = time_of(Color::White);
    GameEntry {
        game: result.number,
        opening: opening_of(result.number, openings).map(|i| i + 1),
        black,
        outcome: result.outcome,
        fault: result.fault.clone(),
        time,
        moves: Some(fingerprint(&result.stones)),
    }
}

fn record_of(
    result: &GameResult,
    names: &[String; 2],
    config: &MatchArgs,
    openings: usize,
) -> Record {
    let black = black_of(result.number);
    let outcome = match result.outcome {
        Outcome::Win(Color::Black) => RecordResult::BlackWins,
        Outcome::Win(Color::White) => RecordResult::WhiteWins,
        Outcome::Draw => RecordResult::Draw,
    };
    Record {
        black: names[black].clone(),
        white: names[1 - black].clone(),
        result: outcome,
        datetime: record::now_utc(),
        place: config.place.clone(),
        event: config.event.clone(),
        info: Some(MatchInfo {
            game: result.number,
            opening: opening_of(result.number, openings).map(|i| i + 1),
            black,
            commands: config.engines(),
            move_time: config.move_time,
            game_time: config.game_time,
            sprt: config.sprt.map(|s| s.to_string()),
            fault: result.fault.clone(),
            times_us: result
                .move_times
                .clone()
                .map(|t| t.iter().map(|d| d.as_micros() as u64).collect()),
        }),
        moves: result
            .stones
            .iter()
            .map(|&(color, cell)| RecordMove {
                color,
                cell,
                mark: None,
            })
            .collect(),
    }
}

/// Writes a record into `dir` as `<competition file name stem>-game N.txt`: the game number
/// keeps the names of one match's games (and of its shards) apart when they are gathered in
/// one folder; a name already taken gets `-2`, `-3`, ... on top.
fn write_record(dir: &Path, record: &Record, game: usize) -> std::io::Result<PathBuf> {
    let name = record.file_name();
    let stem = name.strip_suffix(".txt").unwrap_or(&name);
    let mut path = dir.join(format!("{stem}-game {game}.txt"));
    let mut n = 2;
    while path.exists() {
        path = dir.join(format!("{stem}-game {game}-{n}.txt"));
        n += 1;
    }
    std::fs::write(&path, format!("{record}\n"))?;
    Ok(path)
}

/// Adds a finished game's points to engine A's and B's.
fn add_points(points: &mut [f64; 2], result: &GameResult) {
    let black = black_of(result.number);
    match result.outcome {
        Outcome::Win(c) => points[if c == Color::Black { black } else { 1 - black }] += 1.0,
        Outcome::Draw => points.iter_mut().for_each(|p| *p += 0.5),
    }
}

/// Writes a finished game's record into `dir` (with its picture under `--svg`); a failure is
/// logged and the match goes on.
fn save_record(dir: &Path, record: &Record, game: usize, svg: bool) {
    match write_record(dir, record, game) {
        Ok(path) if svg => {
            let svg = crate::record::draw::svg_for_record(record);
            if let Err(e) = std::fs::write(path.with_extension("svg"), svg) {
                log::error!("cannot write picture of game {game}: {e}");
            }
        }
        Ok(path) => log::debug!("record written to {}", path.display()),
        Err(e) => log::error!("cannot write record of game {game}: {e}"),
    }
}

/// The SPRT's progress text after the games so far (which it sorts by number), and the note
/// of its verdict once it accepts a hypothesis.
fn sprt_state(spec: SprtSpec, entries: &mut [GameEntry]) -> (String, Option<String>) {
    entries.sort_by_key(|e| e.game);
    let state = spec.state(&pairs_of(entries));
    let text = format!(
        "  LLR {:.2} [{:.2}, {:.2}]",
        state.llr, state.lower, state.upper
    );
    let note = (state.verdict != SprtVerdict::Continue).then(|| {
        format!(
            "SPRT: {} after {} game(s), LLR {:.3}; games in progress finish",
            verdict_text(state.verdict),
            entries.len(),
            state.llr
        )
    });
    (text, note)
}

fn progress(done: usize, total: usize, points: [f64; 2], names: &[String; 2], sprt: &str) {
    let width = 20;
    let filled = done * width / total.max(1);
    let bar: String = "#".repeat(filled) + &".".repeat(width - filled);
    let mut err = std::io::stderr().lock();
    let _ = write!(
        err,
        "\r[{bar}] {done}/{total}  {} {} - {} {}{sprt}   ",
        names[0], points[0], points[1], names[1]
    );
    let _ = err.flush();
}

/// Everything that stops a match before (or instead of) playing it.
#[derive(Debug)]
pub enum MatchError {
    Opening(OpeningError),
    /// An engine command that does not start; `engine` is `A` or `B`.
    Engine {
        engine: char,
        error: EngineStartError,
    },
    /// A game's thread failed (a bug): the match stops after the games in flight.
    Failed {
        game: usize,
        message: String,
    },
    /// The records directory cannot be created.
    RecordsDir {
        path: std::path::PathBuf,
        error: std::io::Error,
    },
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Opening(e) => write!(f, "{e}"),
            MatchError::Engine { engine, error } => write!(f, "engine {engine}: {error}"),
            MatchError::Failed { game, message } => write!(f, "game {game} failed: {message}"),
            MatchError::RecordsDir { path, error } => {
                write!(
                    f,
                    "cannot create records directory {}: {error}",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for MatchError {}

impl From<OpeningError> for MatchError {
    fn from(e: OpeningError) -> Self {
        MatchError::Opening(e)
    }
}

pub fn run(config: &MatchArgs) -> Result<Summary, MatchError> {
    run_observed(config, &Unobserved)
}

/// [`run`], telling `observer` of every turn and result as the games are played.
pub fn run_observed(config: &MatchArgs, observer: &dyn Observer) -> Result<Summary, MatchError> {
    let openings: Vec<Opening> = match &config.openings {
        Some(path) => openings::load(path)?,
        None => Vec::new(),
    };
    if let Some(dir) = &config.records {
        std::fs::create_dir_all(dir).map_err(|error| MatchError::RecordsDir {
            path: dir.clone(),
            error,
        })?;
    }
    let names = probe(config)?;
    let total = config.games.unwrap_or(if openings.is_empty() {
        2
    } else {
        2 * openings.len()
    });
    let schedule = plan(total, config.shard);
    observer.started(&names, &schedule);
    let settings = Settings {
        names: names.clone(),
        commands: config.engines(),
        move_time: config.move_time,
        game_time: config.game_time,
        sprt: config.sprt,
    };
    let engines = config.engines();
    let mut entries: Vec<GameEntry> = Vec::with_capacity(schedule.len());
    let slots = pool::workers(config.concurrency, schedule.len());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let play = |slot: usize, number: usize| {
        let black = black_of(number);
        let spec = GameSpec {
            number,
            commands: [&engines[black], &engines[1 - black]],
            opening: opening_of(number, openings.len()).map(|i| &openings[i]),
            limits: config.limits(),
            short_first: config.short_first,
            discard_stderr: config.quiet,
            cpus: (slots > 1).then(|| process::cpu_share(slot, slots, cores)),
            observer,
        };
        game::play(&spec)
    };
    let mut points = [0.0f64; 2];
    let mut sprt_text = String::new();
    let mut stopped = false;
    if !config.quiet {
        progress(0, schedule.len(), points, &names, &sprt_text);
    }
    // The pool deals a game out only as one comes in, so an SPRT decision stops new games at
    // once; games in flight finish and count.
    let ran = pool::run(
        slots,
        schedule.iter().copied(),
        play,
        |_, result: GameResult| {
            add_points(&mut points, &result);
            if let Some(dir) = &config.records {
                let record = record_of(&result, &names, config, openings.len());
                save_record(dir, &record, result.number, config.svg);
            }
            entries.push(entry_of(&result, openings.len()));
            observer.finished(&result);
            if let Some(spec) = config.sprt {
                let (text, verdict) = sprt_state(spec, &mut entries);
                sprt_text = text;
                if let Some(note) = verdict.filter(|_| !stopped) {
                    // Games already started finish and count; no new game starts.
                    stopped = true;
                    if !config.quiet {
                        eprintln!();
                    }
                    eprintln!("{note}");
                }
            }
            if !stopped && observer.stop_requested() {
                stopped = true;
                eprintln!(
                    "stopped on request after {} game(s); games in progress finish",
                    entries.len()
                );
            }
            if !config.quiet {
                progress(entries.len(), schedule.len(), points, &names, &sprt_text);
            }
            Ok::<_, Infallible>(if stopped { Flow::Stop } else { Flow::Continue })
        },
    );
    if !config.quiet {
        eprintln!();
    }
    if let Err(PoolError::Panicked { job, message }) = ran {
        return Err(MatchError::Failed { game: job, message });
    }
    Ok(Summary::new(settings, entries))
}
