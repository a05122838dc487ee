use super::merge::merge;
use super::*;
use crate::rules::coord::Turn;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A fresh scratch folder.
fn scratch(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("c6-batch-{}-{name}-{n}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Game `index` of a cheap stand-in job: five different games in turn (so indices 5 apart
/// repeat), a third of them drawn, the index as the last turn's score.
fn game(index: usize) -> GameTurns {
    let pairs = ["KIKK", "IIHH", "KJLJ", "HGGF", "MLNL"];
    let turns = ["JJ", pairs[index % 5]].map(|t| Turn::parse(t).unwrap());
    GameTurns {
        black_result: [0.5, 1.0, 0.0][index % 3],
        turns: turns.to_vec(),
        opening: 0,
        scores: vec![None, Some(index as i32)],
    }
}

fn batch(out: &Path, total: usize, shard: Option<Shard>, threads: usize) -> Batch<'_> {
    Batch {
        header: "# a stand-in job\n# its second header line\n".to_string(),
        total,
        shard,
        out,
        inputs: 7,
        threads,
        repeats_left_out: true,
    }
}

/// Runs the stand-in job, writing every game whose turns are new, as self-play does; stops
/// after `stop_after` games finish. Returns whether it finished, and the games played.
fn run(batch: &Batch, stop_after: Option<usize>) -> Result<(bool, usize), BatchError> {
    let played = AtomicUsize::new(0);
    let work = |index| {
        played.fetch_add(1, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(3 * (index % 4) as u64));
        game(index)
    };
    let mut seen = HashSet::new();
    let write = |out: &mut dyn Write, g: GameTurns| {
        if seen.insert(g.turns.clone()) {
            writeln!(out, "{}", g.line())?;
        }
        Ok(())
    };
    let progress = |p: &Progress| match stop_after {
        Some(n) if p.done >= n => Flow::Stop,
        _ => Flow::Continue,
    };
    let complete = play_games(batch, work, write, progress)?;
    Ok((complete, played.into_inner()))
}

fn shard(index: usize, count: usize) -> Option<Shard> {
    Some(Shard { index, count })
}

#[test]
fn shards_are_contiguous_runs_that_partition_the_games() {
    for total in [0, 1, 7, 10, 101] {
        for count in 1..=4 {
            let joined: Vec<usize> = (1..=count)
                .flat_map(|k| shard_range(total, shard(k, count)))
                .collect();
            assert_eq!(
                joined,
                (0..total).collect::<Vec<_>>(),
                "{total} games, {count}"
            );
        }
    }
    assert_eq!(shard_range(10, shard(2, 3)), 3..6);
    assert_eq!(shard_range(10, None), 0..10);
}

/// A run stopped early keeps every finished game in its journal; the same command then plays
/// only the games it lacks and writes the file an uninterrupted run writes, byte for byte.
#[test]
fn a_stopped_run_resumes_to_the_uninterrupted_runs_file() {
    let dir = scratch("resume");
    let whole = dir.join("whole.txt");
    assert_eq!(run(&batch(&whole, 23, None, 3), None).unwrap(), (true, 23));
    let expected = fs::read_to_string(&whole).unwrap();
    assert!(
        !journal_path(&whole).exists(),
        "a finished run removes its journal"
    );

    let out = dir.join("stopped.txt");
    let (complete, first) = run(&batch(&out, 23, None, 3), Some(5)).unwrap();
    assert!(!complete && (5..23).contains(&first), "{first}");
    let journal = fs::read_to_string(journal_path(&out)).unwrap();
    assert_eq!(
        journal.lines().count(),
        3 + first,
        "every finished game is journalled"
    );
    // A stop in the middle of a line leaves part of it: the rerun drops it.
    let mut file = OpenOptions::new()
        .append(true)
        .open(journal_path(&out))
        .unwrap();
    file.write_all(b"21 1 JJ KI").unwrap();
    // A second stop, and then a run to the end, with other thread counts.
    let (complete, second) = run(&batch(&out, 23, None, 1), Some(2)).unwrap();
    assert!(!complete && second == 2, "{second}");
    let (complete, third) = run(&batch(&out, 23, None, 2), None).unwrap();
    assert!(complete);
    assert_eq!(first + second + third, 23, "no game is played twice");
    assert_eq!(fs::read_to_string(&out).unwrap(), expected);
    assert!(!journal_path(&out).exists());
}

#[test]
fn another_runs_journal_or_a_broken_one_is_refused() {
    let dir = scratch("other");
    let out = dir.join("games.txt");
    run(&batch(&out, 12, None, 2), Some(3)).unwrap();
    let other = Batch {
        inputs: 8,
        ..batch(&out, 12, None, 2)
    };
    let error = run(&other, None).unwrap_err();
    assert!(matches!(error, BatchError::OtherRun { .. }), "{error}");
    assert!(error.to_string().contains("games.txt.journal"), "{error}");
    let more = batch(&out, 13, None, 2);
    assert!(matches!(run(&more, None), Err(BatchError::OtherRun { .. })));

    let journal = fs::read_to_string(journal_path(&out)).unwrap();
    for (bad, needle) in [
        ("x 1 JJ\n", "not a game index"),
        ("99 1 JJ\n", "outside 0..12"),
        ("4 1 JJ JJ\n", "JJ"),
        ("4\n", "INDEX LINE"),
    ] {
        fs::write(journal_path(&out), format!("{journal}{bad}")).unwrap();
        let error = run(&batch(&out, 12, None, 2), None).unwrap_err();
        assert!(
            matches!(error, BatchError::BadJournal { .. }),
            "{bad}: {error}"
        );
        assert!(error.to_string().contains(needle), "{bad}: {error}");
    }
}

/// The shards' files, merged, are the whole run's, repeats across shards left out.
#[test]
fn merged_shards_are_the_whole_runs_file() {
    let dir = scratch("merge");
    let whole = dir.join("whole.txt");
    run(&batch(&whole, 17, None, 2), None).unwrap();
    let parts: Vec<PathBuf> = (1..=3).map(|k| dir.join(format!("part{k}.txt"))).collect();
    for (k, part) in parts.iter().enumerate() {
        assert!(run(&batch(part, 17, shard(k + 1, 3), 2), None).unwrap().0);
    }
    let part2 = fs::read_to_string(&parts[1]).unwrap();
    assert!(part2.contains("# shard 2/3 of 17 games: indices 5..11, repeats left out\n"));
    let merged = dir.join("merged.txt");
    let reversed: Vec<PathBuf> = parts.iter().rev().cloned().collect();
    let report = merge(&reversed, &merged).unwrap();
    assert_eq!(
        fs::read_to_string(&merged).unwrap(),
        fs::read_to_string(&whole).unwrap()
    );
    assert_eq!((report.shards, report.games), (3, 5));
    assert!(report.repeats > 0, "{report:?}");

    let error = merge(&parts[..2], &merged).unwrap_err();
    assert!(error.to_string().contains("each of 1 to 3"), "{error}");
    let twice = [parts[0].clone(), parts[0].clone(), parts[2].clone()];
    assert!(merge(&twice, &merged).is_err());
    let error = merge(std::slice::from_ref(&whole), &merged).unwrap_err();
    assert!(error.to_string().contains("not a shard's"), "{error}");
    // Another run's shard, and an unfinished one.
    let other = dir.join("other.txt");
    run(&batch(&other, 18, shard(3, 3), 2), None).unwrap();
    let error = merge(&[parts[0].clone(), parts[1].clone(), other], &merged).unwrap_err();
    assert!(error.to_string().contains("another run's"), "{error}");
    fs::write(journal_path(&parts[1]), "").unwrap();
    let error = merge(&parts, &merged).unwrap_err();
    assert!(error.to_string().contains("unfinished"), "{error}");
}

#[test]
fn progress_shows_the_rate_and_the_time_left() {
    let p = Progress {
        done: 10,
        resumed: 40,
        total: 2000,
        elapsed: Duration::from_secs(20),
    };
    assert_eq!(
        p.line(),
        "50 of 2000 games (2.5%; 40 resumed), 30.0 games/min, about 1 h 05 min left"
    );
    let start = Progress {
        done: 0,
        resumed: 0,
        ..p.clone()
    };
    assert!(start.line().ends_with("0.0 games/min, time left unknown"));
    let end = Progress {
        done: 1960,
        elapsed: Duration::from_secs(700),
        ..p
    };
    assert!(
        end.line()
            .starts_with("2000 of 2000 games (100.0%; 40 resumed)")
    );
    assert!(end.line().ends_with(", done"), "{}", end.line());
    assert_eq!(duration_text(754.0), "12 min 34 s");
    assert_eq!(duration_text(59.4), "59 s");
}
