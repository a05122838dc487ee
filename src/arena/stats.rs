//! `connect6 stats PATH...`: merges the records or JSON summaries of matches (typically the
//! shards of one match) into one summary, printed as `connect6 match` prints it.
//!
//! A path is a record (`connect6 match --records` writes them), a JSON summary (a file
//! ending in `.json`), or a folder whose `*.txt` and `*.json` files are read (not its
//! subfolders). Every input must come from the same match settings (engine names and
//! commands, move time, game budget, SPRT), and no game number may appear twice. Records
//! without the match field (competition records, or records of an older `connect6`) are
//! refused: they do not say which game of which match they are.

use super::args::StatsArgs;
use super::decisive;
use super::entry::{GameEntry, TimeUse};
use super::game::Outcome;
use super::report::JsonReport;
use super::summary::{Settings, Summary};
use crate::record::Record;
use crate::record::RecordResult;
use crate::record::files::files_in;
use crate::record::openings::{self, Opening};
use crate::rules::board::Color;
use crate::rules::coord::Cell;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Why the inputs cannot be merged; each names the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatsError {
    pub path: PathBuf,
    pub detail: String,
}

impl fmt::Display for StatsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.detail)
    }
}

impl std::error::Error for StatsError {}

fn error(path: &Path, detail: impl Into<String>) -> StatsError {
    StatsError {
        path: path.to_path_buf(),
        detail: detail.into(),
    }
}

/// The settings and game of a record written by `connect6 match`.
fn from_record(path: &Path, text: &str) -> Result<(Settings, Vec<GameEntry>), StatsError> {
    let record = Record::parse(text).map_err(|e| error(path, e.to_string()))?;
    let Some(info) = record.info else {
        return Err(error(
            path,
            "not a record of `connect6 match` (no match field in the header)",
        ));
    };
    let mut names = [record.black, record.white];
    if info.black == 1 {
        names.swap(0, 1);
    }
    let sprt = match &info.sprt {
        Some(text) => Some(super::elo::SprtSpec::parse(text).map_err(|e| error(path, e))?),
        None => None,
    };
    let outcome = match record.result {
        RecordResult::BlackWins => Outcome::Win(Color::Black),
        RecordResult::WhiteWins => Outcome::Win(Color::White),
        RecordResult::Draw => Outcome::Draw,
    };
    let stones: Vec<(Color, Cell)> = record.moves.iter().map(|m| (m.color, m.cell)).collect();
    let attack = decisive::final_attack(&stones, outcome);
    let time_of = |color: Color| {
        let times = &info.times_us[color.index()];
        let open = decisive::open_replies(&stones, color, times.len(), attack);
        TimeUse::of_micros(times, open)
    };
    let mut time = [TimeUse::default(); 2];
    time[info.black] = time_of(Color::Black);
    time[1 - info.black] = time_of(Color::White);
    let settings = Settings {
        names,
        commands: info.commands,
        move_time: info.move_time,
        game_time: info.game_time,
        sprt,
    };
    let entry = GameEntry {
        game: info.game,
        opening: info.opening,
        black: info.black,
        outcome,
        fault: info.fault,
        time,
        moves: Some(super::repeats::fingerprint(&stones)),
    };
    Ok((settings, vec![entry]))
}

fn from_json(path: &Path, text: &str) -> Result<(Settings, Vec<GameEntry>), StatsError> {
    let report: JsonReport =
        serde_json::from_str(text).map_err(|e| error(path, format!("not a JSON summary: {e}")))?;
    report.into_parts().map_err(|e| error(path, e))
}

/// Reads every input and merges them into one summary.
pub fn collect(paths: &[PathBuf]) -> Result<Summary, StatsError> {
    let mut settings: Option<(Settings, PathBuf)> = None;
    let mut games: BTreeMap<usize, (GameEntry, PathBuf)> = BTreeMap::new();
    for path in paths {
        for file in files_in(path, &["txt", "json"]).map_err(|e| error(path, e.to_string()))? {
            let text = std::fs::read_to_string(&file).map_err(|e| error(&file, e.to_string()))?;
            let (s, entries) = if file.extension().is_some_and(|x| x == "json") {
                from_json(&file, &text)?
            } else {
                from_record(&file, &text)?
            };
            match &settings {
                None => settings = Some((s, file.clone())),
                Some((first, from)) if *first != s => {
                    return Err(error(
                        &file,
                        format!(
                            "comes from a match with other settings than {}",
                            from.display()
                        ),
                    ));
                }
                Some(_) => {}
            }
            for entry in entries {
                if let Some((_, other)) = games.get(&entry.game) {
                    let detail = format!("game {} is also in {}", entry.game, other.display());
                    return Err(error(&file, detail));
                }
                games.insert(entry.game, (entry, file.clone()));
            }
        }
    }
    let Some((settings, _)) = settings else {
        let first = paths.first().cloned().unwrap_or_default();
        return Err(error(&first, "no records or summaries found"));
    };
    let entries = games.into_values().map(|(e, _)| e).collect();
    Ok(Summary::new(settings, entries))
}

/// Entry point of `connect6 stats`: 0 after printing the summary, 2 when an input cannot
/// be read or merged.
pub fn main(args: StatsArgs) -> ExitCode {
    let texts = match &args.openings {
        Some(path) => match openings::load(path) {
            Ok(list) => list.iter().map(Opening::text).collect(),
            Err(e) => {
                eprintln!("connect6 stats: error: {e}");
                return ExitCode::from(2);
            }
        },
        None => Vec::new(),
    };
    match collect(&args.paths) {
        Ok(summary) => {
            if args.json {
                println!("{}", summary.to_json());
            } else {
                print!("{}", summary.to_text());
                if args.by_opening {
                    print!("{}", summary.colours.table(&texts));
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("connect6 stats: error: {e}");
            ExitCode::from(2)
        }
    }
}
