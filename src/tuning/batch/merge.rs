//! `tune merge`: the games files of a run's shards joined into the one the whole run writes.

use super::{BatchError, REPEATS_LEFT_OUT, SHARD_PREFIX, io_error, journal_path, shard_line};
use crate::pool::Shard;
use crate::rules::coord::Turn;
use crate::tuning::games::read_game_turns;
use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

/// What `tune merge` did.
#[derive(Debug, PartialEq)]
pub struct Merged {
    pub shards: usize,
    pub games: usize,
    pub repeats: usize,
}

/// A shard's games file, read for the merge.
struct ShardFile {
    shard: Shard,
    /// The shard line's `of T games` and whether repeats are left out.
    total: usize,
    repeats_left_out: bool,
    /// The header without the shard line.
    header: String,
    /// The game lines, with their turns.
    games: Vec<(String, Vec<Turn>)>,
}

fn read_shard(path: &Path) -> Result<ShardFile, BatchError> {
    let bad = |reason: &str| BatchError::BadShard {
        path: path.to_path_buf(),
        reason: reason.to_string(),
    };
    if journal_path(path).exists() {
        return Err(bad(
            "unfinished: its journal is beside it (rerun its command)",
        ));
    }
    let text = fs::read_to_string(path).map_err(io_error(path))?;
    let (mut header, mut lines, mut found) = (String::new(), Vec::new(), None);
    for line in text.lines() {
        if line.starts_with(SHARD_PREFIX) && lines.is_empty() {
            found = Some(line);
        } else if line.starts_with('#') && lines.is_empty() {
            header.push_str(line);
            header.push('\n');
        } else if line.starts_with('#') {
            return Err(bad(
                "a comment line after the games: not a file a shard writes",
            ));
        } else if !line.trim().is_empty() {
            lines.push(line.to_string());
        }
    }
    let found = found.ok_or_else(|| bad("no '# shard K/N' line: not a shard's games file"))?;
    let not_ours = || bad("its shard line is not one `--shard` writes");
    let rest = &found[SHARD_PREFIX.len()..];
    let (rest, repeats_left_out) = match rest.strip_suffix(REPEATS_LEFT_OUT) {
        Some(r) => (r, true),
        None => (rest, false),
    };
    let (part, rest) = rest.split_once(" of ").ok_or_else(not_ours)?;
    let (total, _) = rest.split_once(" games: ").ok_or_else(not_ours)?;
    let shard = Shard::parse(part).map_err(|_| not_ours())?;
    let total = total.parse().map_err(|_| not_ours())?;
    if shard_line(total, shard, repeats_left_out) != found {
        return Err(not_ours());
    }
    let turns = read_game_turns(&lines.join("\n")).map_err(|e| bad(&e))?;
    Ok(ShardFile {
        shard,
        total,
        repeats_left_out,
        header,
        games: lines
            .into_iter()
            .zip(turns.into_iter().map(|g| g.turns))
            .collect(),
    })
}

/// `tune merge`: the shards' games files, all of one run and each once, as the games file the
/// whole run writes.
pub fn merge(paths: &[PathBuf], out: &Path) -> Result<Merged, BatchError> {
    let mut shards = paths
        .iter()
        .map(|p| read_shard(p).map(|s| (p, s)))
        .collect::<Result<Vec<_>, _>>()?;
    shards.sort_by_key(|(_, s)| s.shard.index);
    let Some((first_path, first)) = shards.first() else {
        return Err(BatchError::Shards("no shards to merge".to_string()));
    };
    for (path, s) in &shards {
        let same = (s.shard.count, s.total, s.repeats_left_out, &s.header)
            == (
                first.shard.count,
                first.total,
                first.repeats_left_out,
                &first.header,
            );
        if !same {
            return Err(BatchError::BadShard {
                path: path.to_path_buf(),
                reason: format!("another run's shard than {}", first_path.display()),
            });
        }
    }
    let indices: Vec<usize> = shards.iter().map(|(_, s)| s.shard.index).collect();
    if indices != (1..=first.shard.count).collect::<Vec<_>>() {
        return Err(BatchError::Shards(format!(
            "the shards given are {indices:?} of {}: each of 1 to {} is needed once",
            first.shard.count, first.shard.count
        )));
    }
    let mut text = first.header.clone();
    let mut seen = HashSet::new();
    let mut merged = Merged {
        shards: shards.len(),
        games: 0,
        repeats: 0,
    };
    for (_, shard) in &shards {
        for (line, turns) in &shard.games {
            if first.repeats_left_out && !seen.insert(turns) {
                merged.repeats += 1;
                continue;
            }
            text.push_str(line);
            text.push('\n');
            merged.games += 1;
        }
    }
    fs::write(out, text).map_err(io_error(out))?;
    Ok(merged)
}

#[derive(clap::Args, Debug, Clone)]
pub struct MergeArgs {
    /// The shards' games files (`tune selfplay` or `tune label` with `--shard K/N`), all N.
    #[arg(required = true, value_name = "SHARD")]
    pub shards: Vec<PathBuf>,
    /// The games file to write: the one the whole run, unsharded, writes.
    #[arg(long, value_name = "GAMES")]
    pub out: PathBuf,
}

/// `tune merge`: merges the shards' games files into one.
pub fn merge_files(a: &MergeArgs) -> Result<(), String> {
    let merged = merge(&a.shards, &a.out).map_err(|e| e.to_string())?;
    println!(
        "{} shards merged: {} games ({} repeats left out) in {}",
        merged.shards,
        merged.games,
        merged.repeats,
        a.out.display()
    );
    Ok(())
}
