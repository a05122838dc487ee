//! `--ranking-file` and `--eval-file`: a fitted file in place of the embedded tables, for
//! the engine and `bench`; a file that is not one is refused before anything is played.

use std::path::PathBuf;
use std::process::Output;

mod common;

fn run(args: &[&str], stdin: &str) -> Output {
    common::run_with_input(args, stdin.as_bytes())
}

fn source(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("src/engine")
        .join(name)
        .display()
        .to_string()
}

/// The signature `bench --depth 2` prints with `args`.
fn signature(args: &[&str]) -> String {
    let mut all = vec!["bench", "--depth", "2"];
    all.extend_from_slice(args);
    let out = run(&all, "");
    assert!(out.status.success(), "bench {args:?}: {out:?}");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = text
        .lines()
        .find(|l| l.starts_with("total:"))
        .expect("a total line");
    line.rsplit("signature ")
        .next()
        .expect("a signature")
        .to_string()
}

#[test]
fn a_ranking_or_evaluation_file_takes_the_embedded_ones_place() {
    let ranking = source("ranking.bin");
    let embedded = signature(&[]);
    assert_eq!(signature(&["--ranking-file", &ranking]), embedded);
    // The cell values are the default evaluation.
    assert_eq!(signature(&["--eval", "cells"]), embedded);
    assert_eq!(signature(&["--eval-file", &source("cells.bin")]), embedded);
    assert_ne!(signature(&["--eval", "hand"]), embedded);
    // The cell network's evaluation is gone: `--eval net` is refused before anything runs.
    let out = run(&["bench", "--depth", "1", "--eval", "net"], "");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");

    // The embedded ranking turned upside down: the worst cells first.
    let bytes = std::fs::read(&ranking).expect("the ranking file");
    let (head, weights) = bytes.split_at(8);
    let mut upside_down = head.to_vec();
    for w in weights.chunks_exact(2) {
        let w = i16::from_le_bytes([w[0], w[1]]);
        upside_down.extend_from_slice(&w.saturating_neg().to_le_bytes());
    }
    let dir = std::env::temp_dir().join(format!("connect6-models-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join("upside-down.bin");
    std::fs::write(&path, upside_down).expect("the file is written");
    let other = signature(&["--ranking-file", &path.display().to_string()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_ne!(other, embedded, "the file's ranking is the one searched");
}

#[test]
fn a_file_that_is_not_one_is_refused_before_anything_is_played() {
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let ranking = source("ranking.bin");
    let cells = source("cells.bin");
    // A cell-value file cut short.
    let dir = std::env::temp_dir().join(format!("connect6-refused-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let cut = dir.join("cut-cells.bin");
    let bytes = std::fs::read(&cells).expect("the cell-value file");
    std::fs::write(&cut, &bytes[..bytes.len() - 3]).expect("the file is written");
    let cut = cut.display().to_string();
    for args in [
        vec!["--ranking-file", manifest],
        vec!["--eval-file", manifest],
        // Each kind of file where the other is asked for.
        vec!["--ranking-file", &cells],
        vec!["--eval-file", &ranking],
        vec!["--eval-file", "/no/such/file"],
        vec!["--eval-file", &cut],
        vec!["bench", "--ranking-file", manifest],
    ] {
        let out = run(&args, "name?\nnew black\n");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: one error line: {err}");
        assert!(err.contains(args[args.len() - 1]), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
