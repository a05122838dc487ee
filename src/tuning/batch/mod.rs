//! What the long jobs that write games files (`tune selfplay`, `tune label`) share: their
//! shard of the games (`--shard K/N`), their journal, by which a stopped run resumes where it
//! stopped, their progress on stderr, and the merge of their shards' files (`tune merge`).
//!
//! A game is a function of the settings and its index, so a shard plays its games as the whole
//! run would. Shard K of N takes the indices from (K-1)T/N to KT/N of the T games, a
//! contiguous run, so that the shards' files concatenated in order are the whole run's; only
//! self-play's rule that a game repeating an earlier one is left out reaches across shards,
//! and `tune merge` applies it again.
//!
//! The games file is written in index order, so a game that finishes before an earlier one
//! waits. The journal beside it (`GAMES.journal`) holds every game the moment it finishes:
//! the games file's header and a fingerprint of the inputs, then `INDEX LINE` per game in the
//! order they finish. A rerun with the same arguments reads it, rewrites the games file from
//! it and plays only the games it lacks; a run that finished removes it.

use super::games::{GameTurns, read_game_turns};
use crate::pool::Shard;
use crate::pool::{self, Flow, InOrder, PoolError};
use std::collections::HashSet;
use std::ffi::OsString;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub mod merge;
#[cfg(test)]
mod tests;

/// The indices shard `K/N` of `total` games plays (all of them without a shard).
pub fn shard_range(total: usize, shard: Option<Shard>) -> Range<usize> {
    match shard {
        None => 0..total,
        Some(s) => (s.index - 1) * total / s.count..s.index * total / s.count,
    }
}

/// The header line a shard's games file adds to the whole run's header.
pub(super) fn shard_line(total: usize, shard: Shard, repeats_left_out: bool) -> String {
    let range = shard_range(total, Some(shard));
    let repeats = if repeats_left_out {
        REPEATS_LEFT_OUT
    } else {
        ""
    };
    format!(
        "{SHARD_PREFIX}{}/{} of {total} games: indices {}..{}{repeats}",
        shard.index, shard.count, range.start, range.end
    )
}

pub(super) const SHARD_PREFIX: &str = "# shard ";
pub(super) const REPEATS_LEFT_OUT: &str = ", repeats left out";

/// A job's games: which, where, and how they are played.
pub struct Batch<'a> {
    /// The whole run's header (comment lines, each ending in a newline).
    pub header: String,
    /// Games in the whole run.
    pub total: usize,
    pub shard: Option<Shard>,
    /// The games file; its journal is beside it.
    pub out: &'a Path,
    /// A fingerprint of what the header does not say (input files, models): a journal with
    /// another one is another run's.
    pub inputs: u64,
    pub threads: usize,
    /// Self-play leaves out a game that repeats an earlier one; the merge must know.
    pub repeats_left_out: bool,
}

/// How far a run is: games finished by this run, games a stopped run had finished, and the
/// games of the run (or of its shard).
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub done: usize,
    pub resumed: usize,
    pub total: usize,
    pub elapsed: Duration,
}

impl Progress {
    /// `130 of 2000 games (6.5%; 40 resumed), 31.2 games/min, about 58 min left`: the rate
    /// and the time left are this run's.
    pub fn line(&self) -> String {
        let finished = self.done + self.resumed;
        let share = 100.0 * finished as f64 / self.total.max(1) as f64;
        let resumed = match self.resumed {
            0 => String::new(),
            n => format!("; {n} resumed"),
        };
        let per_second = self.done as f64 / self.elapsed.as_secs_f64().max(1e-3);
        let left = self.total.saturating_sub(finished);
        let time_left = if left == 0 {
            "done".to_string()
        } else if self.done == 0 {
            "time left unknown".to_string()
        } else {
            format!("about {} left", duration_text(left as f64 / per_second))
        };
        format!(
            "{finished} of {} games ({share:.1}%{resumed}), {:.1} games/min, {time_left}",
            self.total,
            60.0 * per_second
        )
    }
}

/// `45 s`, `12 min 30 s`, `2 h 05 min`.
pub(crate) fn duration_text(seconds: f64) -> String {
    let s = seconds.round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {:02} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, s / 60 % 60),
    }
}

/// The progress a job prints on stderr: a line every `PROGRESS_EVERY` and at the end.
pub fn reporter(job: &'static str) -> impl FnMut(&Progress) -> Flow {
    let mut last: Option<Instant> = None;
    move |p| {
        let end = p.done + p.resumed >= p.total;
        if end || last.is_none_or(|t| t.elapsed() >= PROGRESS_EVERY) {
            eprintln!("{job}: {}", p.line());
            last = Some(Instant::now());
        }
        Flow::Continue
    }
}

const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// Everything that stops a batch of games or a merge.
#[derive(Debug)]
pub enum BatchError {
    Io {
        path: PathBuf,
        error: io::Error,
    },
    /// The journal is another run's: other arguments or inputs.
    OtherRun {
        journal: PathBuf,
    },
    /// A journal line that no run writes.
    BadJournal {
        journal: PathBuf,
        line: usize,
        reason: String,
    },
    /// A game's worker failed (a bug); the games finished before it are in the journal.
    GameFailed {
        index: usize,
        message: String,
    },
    /// A file given to `tune merge` that is not a finished shard of the same run as the others.
    BadShard {
        path: PathBuf,
        reason: String,
    },
    /// The shards given to `tune merge` are not all of their run's, once each.
    Shards(String),
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            BatchError::OtherRun { journal } => write!(
                f,
                "{} was left by a run with other arguments or inputs: rerun that run's \
                 command, or remove the journal to start again",
                journal.display()
            ),
            BatchError::BadJournal {
                journal,
                line,
                reason,
            } => write!(f, "{} line {line}: {reason}", journal.display()),
            BatchError::GameFailed { index, message } => {
                write!(f, "game {index} failed: {message}")
            }
            BatchError::BadShard { path, reason } => write!(f, "{}: {reason}", path.display()),
            BatchError::Shards(reason) => write!(f, "{reason}"),
        }
    }
}

impl std::error::Error for BatchError {}

pub(super) fn io_error(path: &Path) -> impl Fn(io::Error) -> BatchError + '_ {
    move |error| BatchError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// The journal of the games file `out`: `out` with `.journal` added.
pub fn journal_path(out: &Path) -> PathBuf {
    let mut name = OsString::from(out.as_os_str());
    name.push(".journal");
    PathBuf::from(name)
}

/// A 64-bit FNV-1a hash of `parts`, each ended by a zero byte.
pub fn fingerprint<T: AsRef<[u8]>>(parts: impl IntoIterator<Item = T>) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for part in parts {
        for &byte in part.as_ref().iter().chain([0u8].iter()) {
            hash = (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

/// The journal open for appending, and the games a stopped run of the same header left in
/// it (a last line cut short by the stop is dropped).
fn open_journal(
    path: &Path,
    header: &str,
    range: &Range<usize>,
) -> Result<(File, Vec<(usize, GameTurns)>), BatchError> {
    let text = match fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(io_error(path)(e)),
    };
    let whole = text.rfind('\n').map_or(0, |end| end + 1);
    let text = &text[..whole];
    if header.starts_with(text) {
        // No journal, or only (part of) its header: a fresh start.
        let mut file = File::create(path).map_err(io_error(path))?;
        file.write_all(header.as_bytes()).map_err(io_error(path))?;
        return Ok((file, Vec::new()));
    }
    let entries = text
        .strip_prefix(header)
        .ok_or_else(|| BatchError::OtherRun {
            journal: path.to_path_buf(),
        })?;
    let mut seen = HashSet::new();
    let mut games = Vec::new();
    let first_line = header.lines().count() + 1;
    for (n, line) in entries.lines().enumerate() {
        let bad = |reason: String| BatchError::BadJournal {
            journal: path.to_path_buf(),
            line: first_line + n,
            reason,
        };
        let (index, game) = line
            .split_once(' ')
            .ok_or_else(|| bad("expected INDEX LINE".to_string()))?;
        let index: usize = index
            .parse()
            .map_err(|_| bad(format!("{index:?} is not a game index")))?;
        if !range.contains(&index) || !seen.insert(index) {
            return Err(bad(format!(
                "game {index} is twice or outside {}..{}",
                range.start, range.end
            )));
        }
        let mut read = read_game_turns(game).map_err(&bad)?;
        match (read.pop(), read.is_empty()) {
            (Some(game), true) => games.push((index, game)),
            _ => return Err(bad("expected one game".to_string())),
        }
    }
    let file = OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(io_error(path))?;
    file.set_len(whole as u64).map_err(io_error(path))?;
    Ok((file, games))
}

/// Plays the batch's games that its journal lacks, `work` giving game `index`, on the
/// batch's threads; hands each to `write` with the games file, in index order (the journal's
/// first), and tells `progress` of each as it finishes. Returns whether every game of the
/// batch is written; a run that `progress` stopped early keeps its journal.
pub fn play_games(
    batch: &Batch,
    work: impl Fn(usize) -> GameTurns + Sync,
    mut write: impl FnMut(&mut dyn Write, GameTurns) -> io::Result<()>,
    mut progress: impl FnMut(&Progress) -> Flow,
) -> Result<bool, BatchError> {
    let range = shard_range(batch.total, batch.shard);
    let mut header = batch.header.clone();
    if let Some(shard) = batch.shard {
        header += &shard_line(batch.total, shard, batch.repeats_left_out);
        header.push('\n');
    }
    let journal_path = journal_path(batch.out);
    let journal_header = format!(
        "{header}# inputs {:016x}, games {}..{} of {}\n",
        batch.inputs, range.start, range.end, batch.total
    );
    let (mut journal, resumed) = open_journal(&journal_path, &journal_header, &range)?;
    let out_error = io_error(batch.out);
    let file = File::create(batch.out).map_err(&out_error)?;
    let mut out = BufWriter::new(file);
    out.write_all(header.as_bytes()).map_err(&out_error)?;
    let mut order = InOrder::new(range.start);
    let mut done = HashSet::new();
    for (index, game) in resumed {
        done.insert(index);
        order.push(index, game);
    }
    let mut flush_in_order = |order: &mut InOrder<GameTurns>| -> io::Result<()> {
        while let Some(game) = order.pop() {
            write(&mut out, game)?;
            out.flush()?;
        }
        Ok(())
    };
    flush_in_order(&mut order).map_err(&out_error)?;
    let mut state = Progress {
        done: 0,
        resumed: done.len(),
        total: range.len(),
        elapsed: Duration::ZERO,
    };
    let began = Instant::now();
    let todo = range.clone().filter(|i| !done.contains(i));
    let ran = pool::run(
        batch.threads,
        todo,
        |_, index| work(index),
        |index, game: GameTurns| {
            // The whole line in one write, so a stop cuts at most the line being written.
            let entry = format!("{index} {}\n", game.line());
            journal
                .write_all(entry.as_bytes())
                .map_err(io_error(&journal_path))?;
            order.push(index, game);
            flush_in_order(&mut order).map_err(&out_error)?;
            state.done += 1;
            state.elapsed = began.elapsed();
            Ok(progress(&state))
        },
    );
    match ran {
        Err(PoolError::Consumer(e)) => return Err(e),
        Err(PoolError::Panicked { job, message }) => {
            return Err(BatchError::GameFailed {
                index: job,
                message,
            });
        }
        Ok(()) => {}
    }
    let complete = order.next_index() == range.end;
    if complete {
        drop(journal);
        fs::remove_file(&journal_path).map_err(io_error(&journal_path))?;
    }
    Ok(complete)
}
